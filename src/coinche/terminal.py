"""The interactive terminal game behind ``coinche play``.

One human (seat 0 by default, partner seat 2) plays a whole game with three computer
players of one level (``coinche.bots``: beginner, confirmed, expert, adaptive), under any
rule profile, through the public engine API only: ``Game``, its ``legal_actions``/
``apply``/``view``, and each ``Deal``'s ``result()``; the bots see only their seat's view.

Everything is read line by line from ``stdin`` and written to ``stdout`` (plain ASCII), so
a session can be scripted: the same seed and the same input lines give the same output.
End of input, ``q`` or ``quit`` leave the game cleanly with exit status 0.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from typing import TextIO

from .bots.base import BotLoadError, load_bot
from .engine.actions import (
    ANNOUNCE,
    COINCHE,
    DECLARE_BASE,
    PASS,
    SURCOINCHE,
    Action,
    bid_rank,
    call_str,
    is_bid,
    parse_call,
)
from .engine.cards import (
    NO_TRUMP,
    RANK_CHARS,
    SUIT_CHARS,
    Card,
    CardSet,
    Trump,
    card_str,
    parse_card,
    sorted_cards,
    strength,
)
from .engine.deal import Deal, DealResult, Phase, Trick, View
from .engine.errors import IllegalAction
from .engine.game import Game
from .engine.melds import Meld
from .engine.rules import RuleSet

SEAT_NAMES = {
    # Seen from the human (always drawn South); seat s + 1 plays after seat s.
    "anticlockwise": ("South", "East", "North", "West"),
    "clockwise": ("South", "West", "North", "East"),
}
TRUMP_WORDS = ("spades", "hearts", "diamonds", "clubs", "no trump", "all trump")
QUIT_WORDS = ("q", "quit", "exit")
CALL_ALIASES = {"p": "pass", "c": "coinche", "sc": "surcoinche", "contre": "coinche", "surcontre": "surcoinche"}
BELOTE_WORDS = ("b", "belote", "rebelote", "+b", "+belote", "+rebelote")


# ---------------------------------------------------------------------------
# The simple computer player
# ---------------------------------------------------------------------------


def _beats(c: Card, winner: Card, trump: Trump) -> bool:
    """True when ``c`` takes a trick currently won by ``winner`` under ``trump``."""
    if c >> 3 == winner >> 3:
        return strength(c, trump) > strength(winner, trump)
    return trump < NO_TRUMP and c >> 3 == trump


def _trick_winner(trick: Sequence[Card], trump: Trump) -> int:
    """Index in ``trick`` of the card winning it so far."""
    best = 0
    for i in range(1, len(trick)):
        if _beats(trick[i], trick[best], trump):
            best = i
    return best


def hand_str(mask: CardSet, trump: Trump | None = None) -> str:
    """A hand grouped by suit, trump first once known: ``S: A T 9   H: J 9 K``."""
    groups: list[tuple[int, list[str]]] = []
    for c in sorted_cards(mask, trump):
        if not groups or groups[-1][0] != c >> 3:
            groups.append((c >> 3, []))
        groups[-1][1].append(RANK_CHARS[c & 7])
    return "   ".join(f"{SUIT_CHARS[s]}: {' '.join(ranks)}" for s, ranks in groups) or "(empty)"


def _melds_str(melds: Sequence[Meld]) -> str:
    if not melds:
        return "nothing"
    return " + ".join(f"{m.name} ({m.points})" for m in melds)


class _Leave(Exception):
    """The human left (``q``) or the input ended."""


class _Session:
    def __init__(
        self, rules: RuleSet, seed: int | None, stdin: TextIO, stdout: TextIO, human: int, level: str
    ) -> None:
        self.rules = rules
        self.stdin = stdin
        self.stdout = stdout
        self.human = human
        self.game = Game(rules, seed=seed)
        params: dict[str, object] = {"human_seat": human} if level == "adaptive" else {}
        self.bots = {
            s: load_bot(level, seed=None if seed is None else seed * 4 + s, **params) for s in range(4) if s != human
        }
        compass = SEAT_NAMES.get(rules.direction, SEAT_NAMES["anticlockwise"])
        self.names = [compass[(s - human) & 3] for s in range(4)]
        us, them = "North-South", "East-West"  # the human is always drawn South
        self.team_names = ("We", "They") if human & 1 == 0 else ("They", "We")
        self.team_seats = (us, them) if human & 1 == 0 else (them, us)
        isatty = getattr(stdin, "isatty", None)
        self.echo = not (callable(isatty) and isatty())
        encoding = getattr(stdout, "encoding", None)
        self.encoding: str | None = encoding if isinstance(encoding, str) else None
        # What has been reported of the deal in progress.
        self._calls = 0
        self._tricks = 0
        self._belotes = 0
        self._shown = False
        self._phase = Phase.AUCTION

    # ----- input / output -----

    def say(self, text: str = "") -> None:
        if self.encoding:
            text = text.encode(self.encoding, "replace").decode(self.encoding)
        self.stdout.write(text + "\n")

    def ask(self, prompt: str) -> str:
        """One stripped line; ``_Leave`` on end of input or a quit word."""
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            self.say()
            raise _Leave("End of input: leaving the game.")
        text = line.strip()
        if self.echo:  # a script or a pipe: show the answer as a terminal would
            self.stdout.write(text + "\n")
        if text.lower() in QUIT_WORDS:
            raise _Leave("You left the game.")
        return text

    def name(self, seat: int) -> str:
        return f"{self.names[seat]} (you)" if seat == self.human else self.names[seat]

    def team_label(self, team: int) -> str:
        return f"{self.team_names[team]} ({self.team_seats[team]})"

    def pair(self, values: tuple[int, int] | Sequence[int]) -> str:
        return f"{self.team_names[0]} {values[0]}, {self.team_names[1]} {values[1]}"

    # ----- the game -----

    def run(self) -> int:
        r = self.rules
        self.say(f"Coinche - rules: {r.name}, game to {r.target} points")
        changed = r.options()
        if changed:
            self.say("Options: " + ", ".join(f"{k}={v}" for k, v in changed.items()))
        self.say(
            f"You are {self.names[self.human]}, partner {self.names[(self.human + 2) & 3]}; "
            f"opponents {self.names[(self.human + 1) & 3]} and {self.names[(self.human + 3) & 3]}. "
            f"Play goes {r.direction}: " + " -> ".join(self.names[(self.human + k) & 3] for k in range(4)) + "."
        )
        self.say(f"First dealer: {self.name(self.game.first_dealer)}.")
        self.say("Type the number of a choice (or a call / card), q to quit.")
        try:
            while not self.game.is_over:
                self.play_deal(len(self.game.deals) - 1)
        except _Leave as leave:
            self.say(str(leave))
            t = self.game.totals
            self.say(f"Score when leaving: {self.pair(t)} (after {len(self.game.history)} complete deals).")
            return 0
        winner = self.game.winner
        assert winner is not None
        t = self.game.totals
        self.say()
        self.say("=" * 60)
        outcome = "You win" if winner == self.human & 1 else "You lose"
        self.say(f"Game over after {len(self.game.history)} deals: {self.team_label(winner)} win the game. {outcome}!")
        self.say(f"Final score: {self.pair(t)}.")
        return 0

    def play_deal(self, index: int) -> None:
        game = self.game
        deal = game.deals[index]
        self._calls = self._tricks = self._belotes = 0
        self._shown = False
        self._phase = Phase.AUCTION
        self.say()
        self.say("=" * 60)
        self.say(
            f"Deal {index + 1} - dealer {self.name(deal.dealer)}; "
            f"score {self.pair(game.totals)} (target {game.rules.target})"
        )
        self.say(f"Your hand:  {hand_str(deal.view(self.human).hand)}")
        self.say("Auction:")
        while not deal.is_over:
            seat = deal.to_move
            if seat == self.human:
                self.human_turn(deal)
            else:
                view = deal.view(seat)
                action = self.bots[seat].choose(view).action
                if action not in view.legal_actions:  # never expected; stay legal whatever happens
                    action = view.legal_actions[0]
                game.apply(action)
            self.report(deal)
        self.summary(index, deal)
        for seat, bot in self.bots.items():
            bot.observe_result(deal.view(seat))
        label = getattr(next(iter(self.bots.values())), "label", None)
        if label:
            self.say(f"Computer level: {label}")

    # ----- reporting what happened -----

    def report(self, deal: Deal) -> None:
        view = deal.view(self.human)
        for i in range(self._calls, len(view.calls)):
            seat = (view.dealer + 1 + i) & 3
            self.say(f"  {self.name(seat)}: {call_str(view.calls[i])}")
        self._calls = len(view.calls)
        if self._phase is Phase.AUCTION and view.phase is not Phase.AUCTION:
            self._phase = view.phase
            if view.contract is None:
                self.say("All four passed: void deal, no score.")
            else:
                self.say(f"Contract: {self.contract_str(deal)}.")
                self.say(f"Your hand:  {hand_str(view.hand, view.contract.trump)}")
                self.say(f"{self.name(view.trick_leader)} leads the first trick.")
        for b in view.belotes[self._belotes :]:
            note = "" if b.counts else " (too late: it does not count)"
            self.say(f"  {self.name(b.seat)} announces {b.at} ({SUIT_CHARS[b.suit]}){note}")
        self._belotes = len(view.belotes)
        if not self._shown and any(view.shown_melds):
            self._shown = True
            self.say("  Melds shown:")
            for s in range(4):
                if view.shown_melds[s]:
                    self.say(f"    {self.name(s)}: {_melds_str(view.shown_melds[s])}")
        for k in range(self._tricks, len(view.tricks)):
            self.say(f"  Trick {k + 1}: {self.trick_str(view.tricks[k])}")
        self._tricks = len(view.tricks)

    def contract_str(self, deal: Deal) -> str:
        contract = deal.view(self.human).contract
        assert contract is not None
        mult = {1: "", 2: ", coinched x2"}.get(contract.multiplier, f", surcoinched x{contract.multiplier}")
        return f"{contract.call} ({TRUMP_WORDS[contract.trump]}) by {self.name(contract.taker)}{mult}"

    def trick_str(self, trick: Trick) -> str:
        played = ", ".join(f"{self.names[(trick.leader + i) & 3]} {card_str(c)}" for i, c in enumerate(trick.cards))
        return f"{played}  -> {self.name(trick.winner)} wins, {trick.points} points"

    def summary(self, index: int, deal: Deal) -> None:
        res: DealResult | None = deal.result()
        assert res is not None
        self.say(f"--- Deal {index + 1} result ---")
        if res.contract is None:
            self.say("Void deal (four passes): no score, the next player deals.")
        else:
            made = "MADE" if res.made else "FAILED"
            self.say(f"Contract {self.contract_str(deal)}: {made}")
            self.say(f"Card points: {self.pair(res.card_points)}")
            if any(res.belote):
                self.say(f"Belote: {self.pair(res.belote)}")
            if self.rules.melds:
                self.say(f"Melds: {self.pair(res.melds)}")
            if res.sweep:
                sweeper = res.contract.team if res.sweep != "defense" else 1 - res.contract.team
                self.say(f"Sweep: {self.team_label(sweeper)} won all 8 tricks")
            for step in res.steps:
                self.say(f"  {step}")
            self.say(f"Deal score: {self.pair(res.score)}")
        self.score_sheet()

    def score_sheet(self) -> None:
        game = self.game
        w = max(6, *(len(n) for n in self.team_names))
        self.say(f"Score sheet:  {'deal':>5}  {self.team_names[0]:>{w}}  {self.team_names[1]:>{w}}")
        for i, (a, b) in enumerate(game.history):
            res = game.deals[i].result()
            void = "  (void)" if res is not None and res.contract is None else ""
            self.say(f"              {i + 1:>5}  {a:>{w}}  {b:>{w}}{void}")
        t = game.totals
        self.say(f"              {'total':>5}  {t[0]:>{w}}  {t[1]:>{w}}   (target {game.rules.target})")

    # ----- the human's turns -----

    def human_turn(self, deal: Deal) -> None:
        view = deal.view(self.human)
        legal = list(view.legal_actions)
        if view.phase is Phase.AUCTION:
            self.ask_call(deal, view)
        elif legal and legal[0] >= DECLARE_BASE:
            self.ask_declaration(deal)
        elif len(legal) == 1:
            self.say(f"  You play {card_str(legal[0] & 31)} (your only legal card).")
            self.game.apply(legal[0])
        else:
            self.ask_card(deal, view)

    def ask_call(self, deal: Deal, view: View) -> None:
        legal = list(view.legal_actions)
        if legal == [PASS]:
            self.say("  (you can only pass)")
            self.game.apply(PASS)
            return
        plain = [a for a in (PASS, COINCHE, SURCOINCHE) if a in legal]
        bids = [a for a in legal if a not in plain]
        options = plain + bids
        bids_info = [(i, a) for i, a in enumerate(view.calls) if is_bid(a)]
        if bids_info:
            i, last = bids_info[-1]
            self.say(f"Current bid: {call_str(last)} by {self.name((view.dealer + 1 + i) & 3)}.")
        else:
            self.say("No bid yet.")
        self.say(f"Your hand:  {hand_str(view.hand)}")
        self.say("Your call:")
        self.say("  " + "   ".join(f"{n + 1}) {call_str(a)}" for n, a in enumerate(plain)))
        rows: dict[int, list[str]] = {}
        for n, a in enumerate(options[len(plain) :], start=len(plain)):
            rows.setdefault(bid_rank(a), []).append(f"{n + 1:>2}) {call_str(a):<9}")
        for row in rows.values():
            self.say("  " + " ".join(row).rstrip())
        while True:
            text = self.ask("Call (number, or e.g. 90H, pass, coinche, capotS; q quits): ")
            action = self.parse_choice(text, options, self.parse_call_text)
            if action is None:
                continue
            if self.try_apply(action):
                return

    def parse_call_text(self, text: str) -> Action | None:
        word = CALL_ALIASES.get(text.lower(), text)
        try:
            return parse_call(word)
        except ValueError:
            return None

    def ask_declaration(self, deal: Deal) -> None:
        choices = deal.declaration_choices()
        self.say("Declare your melds with your first card:")
        for k, melds in enumerate(choices):
            total = sum(m.points for m in melds)
            extra = f"  = {total}" if len(melds) > 1 else ""
            self.say(f"  {k + 1}) {_melds_str(melds)}{extra}")
        options = [DECLARE_BASE + k for k in range(len(choices))]

        def parse(text: str) -> Action | None:
            if text.lower() in ("all", "a", "yes", "y"):
                return options[0]
            if text.lower() in ("none", "nothing", "n", "no"):
                return options[-1]
            return None

        while True:
            action = self.parse_choice(self.ask("Declare (number, all or none; q quits): "), options, parse)
            if action is not None and self.try_apply(action):
                self.say(f"  You declare: {_melds_str(choices[action - DECLARE_BASE])}")
                return

    def ask_card(self, deal: Deal, view: View) -> None:
        contract = view.contract
        assert contract is not None
        trump = contract.trump
        legal = set(view.legal_actions)
        options: list[Action] = []
        for c in sorted_cards(view.hand, trump):
            if c in legal:
                options.append(c)
            if c + ANNOUNCE in legal:
                options.append(c + ANNOUNCE)
        self.say(f"Trick {len(view.tricks) + 1} - contract {contract.call} by {self.names[contract.taker]}")
        if view.trick:
            played = ", ".join(
                f"{self.names[(view.trick_leader + i) & 3]} {card_str(c)}" for i, c in enumerate(view.trick)
            )
            winning = self.name((view.trick_leader + _trick_winner(view.trick, trump)) & 3)
            self.say(f"  On the table: {played}  ({winning} winning)")
        else:
            self.say("  You lead.")
        self.say(f"Your hand:  {hand_str(view.hand, trump)}")
        labels = [card_str(a) if a < ANNOUNCE else f"{card_str(a - ANNOUNCE)} + announce belote" for a in options]
        self.say("  " + "  ".join(f"{n + 1}) {label}" for n, label in enumerate(labels)))
        while True:
            text = self.ask("Card (number or e.g. AS, 'KH b' to announce belote; q quits): ")
            action = self.parse_choice(text, options, lambda t: self.parse_card_text(t, view, options))
            if action is not None and self.try_apply(action):
                return

    def parse_card_text(self, text: str, view: View, options: list[Action]) -> Action | None:
        words = text.replace("+", " +").split()
        announce = False
        if len(words) >= 2 and words[-1].lower() in BELOTE_WORDS:
            announce = True
            words = words[:-1]
        if len(words) != 1:
            return None
        word = words[0]
        if word.isdigit():
            n = int(word)
            if not 1 <= n <= len(options):
                return None
            action = options[n - 1]
        else:
            try:
                action = parse_card(word)
            except ValueError:
                return None
        c = action & 31
        if not view.hand >> c & 1:
            self.say(f"  {card_str(c)} is not in your hand.")
            return -1
        if announce:
            if c + ANNOUNCE not in options:
                if c in options:
                    self.say(f"  {card_str(c)} cannot announce belote now.")
                    return -1
                return c  # the engine explains why the card is illegal
            return c + ANNOUNCE
        return c

    def parse_choice(self, text: str, options: list[Action], parse: Callable[[str], Action | None]) -> Action | None:
        """The action a line names: its number in ``options``, else ``parse(text)``.

        Prints a one-line error and returns None when the line names nothing; a parser
        may return -1 when it already printed why.
        """
        if not text:
            self.say(f"  Please type a number from 1 to {len(options)} (or q to quit).")
            return None
        if text.isdigit():
            n = int(text)
            if 1 <= n <= len(options):
                return options[n - 1]
            self.say(f"  No choice {n}: type a number from 1 to {len(options)}.")
            return None
        action = parse(text)
        if action is None:
            self.say(f"  Not understood: {text!r}. Type a number from 1 to {len(options)}, or q to quit.")
            return None
        if action < 0:
            return None
        return action

    def try_apply(self, action: Action) -> bool:
        """Apply the human's action; on a refusal print the rule and return False."""
        try:
            self.game.apply(action)
        except IllegalAction as err:
            self.say(f"  Not allowed: {err}")
            return False
        return True


def run_play(
    rules: RuleSet,
    seed: int | None,
    stdin: TextIO,
    stdout: TextIO,
    human_seat: int = 0,
    level: str = "confirmed",
) -> int:
    """Play a whole game on a terminal against computer players of ``level`` (a bot name:
    beginner, confirmed, expert, adaptive...); returns the exit status (0 also when the
    player quits)."""
    if not 0 <= human_seat <= 3:
        stdout.write(f"error: the human seat must be 0..3, not {human_seat}\n")
        return 2
    try:
        session = _Session(rules, seed, stdin, stdout, human_seat, level)
    except BotLoadError as e:
        stdout.write(f"error: {e}\n")
        return 2
    try:
        return session.run()
    except KeyboardInterrupt:
        with contextlib.suppress(OSError, ValueError):
            session.say("\nInterrupted: leaving the game.")
        return 130
    except BrokenPipeError:
        return 0
