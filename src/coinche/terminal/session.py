"""The game loop of ``coinche play``: deals, whose turn it is, the human's and the bots' moves.

A ``Session`` drives a ``Game`` through its public API only (``apply``, each ``Deal``'s
``view``, ``declaration_choices`` and ``result``), asks ``prompts`` for the human's moves
and prints what ``drawing`` writes. The bots see only their seat's view; a bot that fails
(raises, ``sys.exit`` included, or returns something that is not a legal action) never
ends the game: as in the arena, the failure is reported and a legal action is played for it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any, TextIO, TypeVar

from ..bots.base import Bot, BotLoadError, Decision, failure_text
from ..bots.loading import load_bot
from ..engine.actions import PASS, Action, action_str, card_of, declaration, is_declaration
from ..engine.cards import card_str
from ..engine.deal import Deal, Phase, View
from ..engine.errors import IllegalAction, short_repr
from ..engine.game import Game
from ..engine.rules import RuleSet
from . import drawing
from .drawing import Seats
from .prompts import (
    Console,
    Leave,
    Refusal,
    choose,
    parse_call_text,
    parse_card_text,
    parse_declaration_text,
)

T = TypeVar("T")


class Session:
    """One game: a human at seat ``human`` and three computer players of ``level``."""

    def __init__(self, rules: RuleSet, seed: int | None, stdin: TextIO, stdout: TextIO, human: int, level: str) -> None:
        self.rules = rules
        self.console = Console(stdin, stdout)
        self.human = human
        self.game = Game(rules, seed=seed)
        params: dict[str, object] = {"human_seat": human} if level == "adaptive" else {}
        self.bots: dict[int, Bot] = {
            s: load_bot(level, seed=None if seed is None else seed * 4 + s, **params) for s in range(4) if s != human
        }
        self.seats = Seats.of(rules, human)

    def say(self, text: str = "") -> None:
        self.console.say(text)

    # ----- the game -----

    def run(self) -> int:
        self.console.say_all(drawing.header_lines(self.rules, self.seats, self.game.first_dealer))
        try:
            while not self.game.is_over:
                self.play_deal(len(self.game.deals) - 1)
        except Leave as leave:
            self.say(str(leave))
            self.console.say_all(drawing.leaving_lines(self.game, self.seats))
            return 0
        self.console.say_all(drawing.game_over_lines(self.game, self.seats))
        return 0

    def play_deal(self, index: int) -> None:
        deal = self.game.deals[index]
        report = drawing.DealReport(self.seats)
        self.console.say_all(drawing.deal_start_lines(self.game, index, self.seats))
        while not deal.is_over:
            seat = deal.to_move
            if seat == self.human:
                self.human_turn(deal)
            else:
                self.game.apply(self.bot_action(seat, deal.view(seat)))
            self.console.say_all(report.new_lines(deal.view(self.human)))
        res = deal.result()
        assert res is not None
        self.console.say_all(drawing.result_lines(index, res, self.rules, self.seats))
        self.console.say_all(drawing.score_sheet_lines(self.game, self.seats))
        for seat, bot in self.bots.items():
            self.guarded(seat, "observe_result", bot.observe_result, deal.view(seat))
        seat, bot = next(iter(self.bots.items()))
        label = self.guarded(seat, "label", getattr, bot, "label", None)
        if label:
            self.say(f"Computer level: {label}")

    # ----- the computer players -----

    def bot_action(self, seat: int, view: View) -> Action:
        """The bot's action, or a legal one played for it (and said) when the bot fails."""
        legal = view.legal_actions
        problem: str
        try:
            decision = self.bots[seat].choose(view)
        except KeyboardInterrupt:
            raise
        except BaseException as e:  # a bot's sys.exit does not end the game
            problem = f"choose raised {failure_text(e)}"
        else:
            if not isinstance(decision, Decision):
                problem = f"choose returned {type(decision).__name__}, not a Decision"
            else:
                a = decision.action
                if isinstance(a, int) and not isinstance(a, bool) and a in legal:
                    return int(a)
                problem = f"illegal action {short_repr(a)}"
        action = legal[0]
        self.say(f"  ({self.seats.name(seat)}: the computer player failed, {problem}; {action_str(action)} is played)")
        return action

    def guarded(self, seat: int, what: str, call: Callable[..., T], *args: Any) -> T | None:
        """``call(*args)``, bot code: a failure is reported on one line and gives None."""
        try:
            return call(*args)
        except KeyboardInterrupt:
            raise
        except BaseException as e:
            self.say(f"  ({self.seats.name(seat)}: the computer player failed, {what} raised {failure_text(e)})")
            return None

    # ----- the human's turns -----

    def human_turn(self, deal: Deal) -> None:
        view = deal.view(self.human)
        legal = view.legal_actions
        if view.phase is Phase.AUCTION:
            self.ask_call(view)
        elif is_declaration(legal[0]):
            self.ask_declaration(deal)
        elif len(legal) == 1:
            self.say(f"  You play {card_str(card_of(legal[0]))} (your only legal card).")
            self.game.apply(legal[0])
        else:
            self.ask_card(view)

    def ask_call(self, view: View) -> None:
        if list(view.legal_actions) == [PASS]:
            self.say("  (you can only pass)")
            self.game.apply(PASS)
            return
        plain, bids = drawing.call_options(view)
        options = plain + bids
        self.console.say_all(drawing.call_menu_lines(view, self.seats))
        while True:
            text = self.console.ask("Call (number, or e.g. 90H, pass, coinche, capotS; q quits): ")
            if self.take(choose(text, options, lambda t: parse_call_text(t, self.rules))):
                return

    def ask_declaration(self, deal: Deal) -> None:
        choices = deal.declaration_choices()
        self.console.say_all(drawing.declaration_menu_lines(choices))
        options = [declaration(k) for k in range(len(choices))]
        while True:
            text = self.console.ask("Declare (number, all or none; q quits): ")
            parsed = choose(text, options, lambda t: parse_declaration_text(t, options))
            if self.take(parsed):
                assert not isinstance(parsed, Refusal)
                self.say(f"  You declare: {drawing.melds_str(choices[options.index(parsed)])}")
                return

    def ask_card(self, view: View) -> None:
        options = drawing.card_options(view)
        self.console.say_all(drawing.card_menu_lines(view, options, self.seats))
        while True:
            text = self.console.ask("Card (number or e.g. AS, 'KH b' to announce belote; q quits): ")
            if self.take(choose(text, options, lambda t: parse_card_text(t, view.hand, options))):
                return

    def take(self, parsed: Action | Refusal) -> bool:
        """Apply the human's action; on a refusal (the prompt's or the engine's, naming the
        rule) print why and return False."""
        if isinstance(parsed, Refusal):
            self.say(parsed.text)
            return False
        try:
            self.game.apply(parsed)
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
    beginner, confirmed, expert, adaptive... or ``module:attribute``); returns the exit
    status (0 also when the player quits, 2 for a bot that cannot be loaded)."""
    if not 0 <= human_seat <= 3:
        stdout.write(f"error: the human seat must be 0..3, not {human_seat}\n")
        return 2
    try:
        session = Session(rules, seed, stdin, stdout, human_seat, level)
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
