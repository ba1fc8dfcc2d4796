"""The text of the terminal game: hands, menus, calls, tricks, results and score sheets.

Nothing here reads or writes: every function returns lines (plain ASCII but for the
rule book's own words) that ``session`` prints, so the look of the game can be read and
tested on its own. Seats are named as the human sees the table (``Seats``); the engine
decides every fact shown (who wins a trick, which calls are legal, the score).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..engine.actions import (
    COINCHE,
    PASS,
    SURCOINCHE,
    Action,
    announce,
    bid_rank,
    call_str,
    card_of,
    is_announce,
    is_bid,
)
from ..engine.cards import RANK_CHARS, SUIT_CHARS, CardSet, Trump, card_str, rank_of, sorted_cards, suit_of
from ..engine.deal import DealResult, Phase, Trick, View
from ..engine.game import Game
from ..engine.melds import Meld
from ..engine.play import tables, trick_winner
from ..engine.rules import RuleSet
from ..engine.scoring import Contract
from ..server.table.seating import AROUND, compass_names

SEAT_NAMES = {
    # Seen from the human (always drawn South); seat s + 1 plays after seat s.
    direction: tuple(compass_names(direction, 0))
    for direction in AROUND
}
TRUMP_WORDS = ("spades", "hearts", "diamonds", "clubs", "no trump", "all trump")
RULE = "=" * 60


def hand_str(mask: CardSet, trump: Trump | None = None) -> str:
    """A hand grouped by suit, trump first once known: ``S: A T 9   H: J 9 K``."""
    groups: list[tuple[int, list[str]]] = []
    for c in sorted_cards(mask, trump):
        if not groups or groups[-1][0] != suit_of(c):
            groups.append((suit_of(c), []))
        groups[-1][1].append(RANK_CHARS[rank_of(c)])
    return "   ".join(f"{SUIT_CHARS[s]}: {' '.join(ranks)}" for s, ranks in groups) or "(empty)"


def melds_str(melds: Sequence[Meld]) -> str:
    """``tierce AH (20) + carre J (200)``, or ``nothing``."""
    if not melds:
        return "nothing"
    return " + ".join(f"{m.name} ({m.points})" for m in melds)


def option_label(action: Action) -> str:
    """A card of the card menu: ``KH`` or ``KH + announce belote``."""
    if is_announce(action):
        return f"{card_str(card_of(action))} + announce belote"
    return card_str(action)


@dataclass(frozen=True)
class Seats:
    """How the human sees the table: seat names (the human always South) and team names."""

    human: int
    names: tuple[str, ...]
    team_names: tuple[str, str]
    """``We`` and ``They``, indexed by team (team 0 = seats 0 and 2)."""
    team_seats: tuple[str, str]

    @staticmethod
    def of(rules: RuleSet, human: int) -> Seats:
        compass = SEAT_NAMES.get(rules.direction, SEAT_NAMES["anticlockwise"])
        names = tuple(compass[(s - human) & 3] for s in range(4))
        us, them = "North-South", "East-West"  # the human is always drawn South
        ours = human & 1 == 0
        return Seats(human, names, ("We", "They") if ours else ("They", "We"), (us, them) if ours else (them, us))

    def name(self, seat: int) -> str:
        return f"{self.names[seat]} (you)" if seat == self.human else self.names[seat]

    def team_label(self, team: int) -> str:
        return f"{self.team_names[team]} ({self.team_seats[team]})"

    def pair(self, values: Sequence[int]) -> str:
        """Two numbers indexed by team: ``We 120, They 42``."""
        return f"{self.team_names[0]} {values[0]}, {self.team_names[1]} {values[1]}"

    def after(self, seat: int, k: int) -> int:
        """The seat playing ``k`` turns after ``seat``."""
        return (seat + k) & 3


# ----- the game -----


def header_lines(rules: RuleSet, seats: Seats, first_dealer: int) -> list[str]:
    lines = [f"Coinche - rules: {rules.name}, game to {rules.target} points"]
    changed = rules.options()
    if changed:
        lines.append("Options: " + ", ".join(f"{k}={v}" for k, v in changed.items()))
    h, n = seats.human, seats.names
    lines.append(
        f"You are {n[h]}, partner {n[seats.after(h, 2)]}; "
        f"opponents {n[seats.after(h, 1)]} and {n[seats.after(h, 3)]}. "
        f"Play goes {rules.direction}: " + " -> ".join(n[seats.after(h, k)] for k in range(4)) + "."
    )
    lines.append(f"First dealer: {seats.name(first_dealer)}.")
    lines.append("Type the number of a choice (or a call / card), q to quit.")
    return lines


def deal_start_lines(game: Game, index: int, seats: Seats) -> list[str]:
    deal = game.deals[index]
    return [
        "",
        RULE,
        f"Deal {index + 1} - dealer {seats.name(deal.dealer)}; "
        f"score {seats.pair(game.totals)} (target {game.rules.target})",
        f"Your hand:  {hand_str(deal.view(seats.human).hand)}",
        "Auction:",
    ]


def leaving_lines(game: Game, seats: Seats) -> list[str]:
    return [f"Score when leaving: {seats.pair(game.totals)} (after {len(game.history)} complete deals)."]


def game_over_lines(game: Game, seats: Seats) -> list[str]:
    winner = game.winner
    assert winner is not None
    outcome = "You win" if winner == seats.human & 1 else "You lose"
    return [
        "",
        RULE,
        f"Game over after {len(game.history)} deals: {seats.team_label(winner)} win the game. {outcome}!",
        f"Final score: {seats.pair(game.totals)}.",
    ]


# ----- what happened in a deal -----


def contract_str(contract: Contract, seats: Seats) -> str:
    """``100H (hearts) by East, coinched x2``."""
    mult = {1: "", 2: ", coinched x2"}.get(contract.multiplier, f", surcoinched x{contract.multiplier}")
    return f"{contract.call} ({TRUMP_WORDS[contract.trump]}) by {seats.name(contract.taker)}{mult}"


def trick_str(trick: Trick, seats: Seats) -> str:
    played = ", ".join(f"{seats.names[seats.after(trick.leader, i)]} {card_str(c)}" for i, c in enumerate(trick.cards))
    return f"{played}  -> {seats.name(trick.winner)} wins, {trick.points} points"


class DealReport:
    """The running commentary of one deal: each call, the contract, belotes, shown melds
    and finished tricks, each reported once (``new_lines`` gives what is new in a view)."""

    def __init__(self, seats: Seats) -> None:
        self.seats = seats
        self._calls = 0
        self._tricks = 0
        self._belotes = 0
        self._shown = False
        self._auction = True

    def new_lines(self, view: View) -> list[str]:
        seats = self.seats
        lines = []
        for i in range(self._calls, len(view.calls)):
            lines.append(f"  {seats.name(seats.after(view.dealer, 1 + i))}: {call_str(view.calls[i])}")
        self._calls = len(view.calls)
        if self._auction and view.phase is not Phase.AUCTION:
            self._auction = False
            if view.contract is None:
                lines.append("All four passed: void deal, no score.")
            else:
                lines.append(f"Contract: {contract_str(view.contract, seats)}.")
                lines.append(f"Your hand:  {hand_str(view.hand, view.contract.trump)}")
                lines.append(f"{seats.name(view.trick_leader)} leads the first trick.")
        for b in view.belotes[self._belotes :]:
            note = "" if b.counts else " (too late: it does not count)"
            lines.append(f"  {seats.name(b.seat)} announces {b.at} ({SUIT_CHARS[b.suit]}){note}")
        self._belotes = len(view.belotes)
        if not self._shown and any(view.shown_melds):
            self._shown = True
            lines.append("  Melds shown:")
            for s in range(4):
                if view.shown_melds[s]:
                    lines.append(f"    {seats.name(s)}: {melds_str(view.shown_melds[s])}")
        for k in range(self._tricks, len(view.tricks)):
            lines.append(f"  Trick {k + 1}: {trick_str(view.tricks[k], seats)}")
        self._tricks = len(view.tricks)
        return lines


def result_lines(index: int, res: DealResult, rules: RuleSet, seats: Seats) -> list[str]:
    lines = [f"--- Deal {index + 1} result ---"]
    if res.contract is None:
        lines.append("Void deal (four passes): no score, the next player deals.")
        return lines
    lines.append(f"Contract {contract_str(res.contract, seats)}: {'MADE' if res.made else 'FAILED'}")
    lines.append(f"Card points: {seats.pair(res.card_points)}")
    if any(res.belote):
        lines.append(f"Belote: {seats.pair(res.belote)}")
    if rules.melds:
        lines.append(f"Melds: {seats.pair(res.melds)}")
    if res.sweep:
        sweeper = res.contract.team if res.sweep != "defense" else 1 - res.contract.team
        lines.append(f"Sweep: {seats.team_label(sweeper)} won all 8 tricks")
    lines.extend(f"  {step}" for step in res.steps)
    lines.append(f"Deal score: {seats.pair(res.score)}")
    return lines


def score_sheet_lines(game: Game, seats: Seats) -> list[str]:
    names = seats.team_names
    w = max(6, *(len(n) for n in names))
    lines = [f"Score sheet:  {'deal':>5}  {names[0]:>{w}}  {names[1]:>{w}}"]
    for i, (a, b) in enumerate(game.history):
        res = game.deals[i].result()
        void = "  (void)" if res is not None and res.contract is None else ""
        lines.append(f"              {i + 1:>5}  {a:>{w}}  {b:>{w}}{void}")
    t = game.totals
    lines.append(f"              {'total':>5}  {t[0]:>{w}}  {t[1]:>{w}}   (target {game.rules.target})")
    return lines


# ----- the human's menus -----


def call_options(view: View) -> tuple[list[Action], list[Action]]:
    """The human's calls in menu order: (pass / coinche / surcoinche, then the bids)."""
    legal = list(view.legal_actions)
    plain: list[Action] = [a for a in (PASS, COINCHE, SURCOINCHE) if a in legal]
    return plain, [a for a in legal if a not in plain]


def call_menu_lines(view: View, seats: Seats) -> list[str]:
    plain, bids = call_options(view)
    lines = []
    bids_made = [(i, a) for i, a in enumerate(view.calls) if is_bid(a)]
    if bids_made:
        i, last = bids_made[-1]
        lines.append(f"Current bid: {call_str(last)} by {seats.name(seats.after(view.dealer, 1 + i))}.")
    else:
        lines.append("No bid yet.")
    lines.append(f"Your hand:  {hand_str(view.hand)}")
    lines.append("Your call:")
    lines.append("  " + "   ".join(f"{n + 1}) {call_str(a)}" for n, a in enumerate(plain)))
    rows: dict[int, list[str]] = {}
    for n, a in enumerate(bids, start=len(plain)):
        rows.setdefault(bid_rank(a), []).append(f"{n + 1:>2}) {call_str(a):<9}")
    lines.extend("  " + " ".join(row).rstrip() for row in rows.values())
    return lines


def declaration_menu_lines(choices: Sequence[Sequence[Meld]]) -> list[str]:
    lines = ["Declare your melds with your first card:"]
    for k, melds in enumerate(choices):
        extra = f"  = {sum(m.points for m in melds)}" if len(melds) > 1 else ""
        lines.append(f"  {k + 1}) {melds_str(melds)}{extra}")
    return lines


def card_options(view: View) -> list[Action]:
    """The human's legal cards in hand order, each followed by its belote announcement
    when one is offered."""
    assert view.contract is not None
    legal = set(view.legal_actions)
    options: list[Action] = []
    for c in sorted_cards(view.hand, view.contract.trump):
        options.extend(a for a in (c, announce(c)) if a in legal)
    return options


def card_menu_lines(view: View, options: Sequence[Action], seats: Seats) -> list[str]:
    contract = view.contract
    assert contract is not None
    trump = contract.trump
    lines = [f"Trick {len(view.tricks) + 1} - contract {contract.call} by {seats.names[contract.taker]}"]
    if view.trick:
        played = ", ".join(
            f"{seats.names[seats.after(view.trick_leader, i)]} {card_str(c)}" for i, c in enumerate(view.trick)
        )
        best = trick_winner(view.trick, tables(trump, view.rules.ta_values == "ffb"))
        lines.append(f"  On the table: {played}  ({seats.name(seats.after(view.trick_leader, best))} winning)")
    else:
        lines.append("  You lead.")
    lines.append(f"Your hand:  {hand_str(view.hand, trump)}")
    lines.append("  " + "  ".join(f"{n + 1}) {option_label(a)}" for n, a in enumerate(options)))
    return lines
