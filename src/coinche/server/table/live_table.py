"""The live table: a table's state after the steps of its log it has read, and nothing
else: ``build`` and ``apply`` read steps, ``replay`` walks them again. No lock, no task, no
clock: the registry of live tables (``live/registry.py``) holds those. A request is a
``Check``: given the table as it is, the step to store, None for nothing, or a
``TableError`` that refuses it (nothing changed)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ...bots.adaptive import AdaptiveBot
from ...engine.deal import Deal, View
from ...engine.game import Game
from ...engine.messages import ENGLISH, Message
from .fair_deals import hand_source
from .spec import Seat, Step, TableSpec, seat_of

Check = Callable[["LiveTable"], Awaitable["Step | None"]]
"""What a write stores, given the table as it is (raises ``TableError`` to refuse)."""


class TableError(Exception):
    """A request the table refuses; nothing changed. ``code``: ``not_your_turn``,
    ``illegal`` (``message`` is the engine's, ``rule`` its rule id), ``over``, ``limit``,
    ``waiting`` (the deal is over: the next one must be asked for), ``not_seated``,
    ``too_many_tables`` (a new table while the player has as many games in progress as
    allowed),
    ``hint_limit``, ``no_hints`` (a daily challenge's table), ``challenge_over`` (a daily
    challenge's table once its day is over), ``busy`` (the table kept
    moving under the request), ``bad_level``."""

    def __init__(self, code: str, message: Message | None = None, rule: str | None = None) -> None:
        # the engine's messages have an English text; the site's (a suspension's) are
        # rendered by the page in the reader's language
        super().__init__(message.text if message is not None and message.id in ENGLISH else code)
        self.code = code
        self.message = message
        self.rule = rule


def game_result(game: Game) -> dict[str, Any]:
    """How a finished game ended, as the players' lists show it."""
    totals = game.totals
    return {"totals": [totals[0], totals[1]], "winner": game.winner}


def decision_seed(live: LiveTable, seat: int) -> int:
    """Decisions are reproducible: the table's seed, the step and the seat."""
    return (live.spec.seed * 1_000_003 + live.seq * 4 + seat) % (1 << 62)


@dataclass(eq=False)
class LiveTable:
    """A table's state after the steps of its log it has read (``seq`` of them)."""

    spec: TableSpec
    game: Game
    seats: list[Seat]
    """Who holds each seat now (the first seats, then the ``seat`` steps)."""
    steps: list[Step] = field(default_factory=list)
    tracker: AdaptiveBot | None = None
    """For an adaptive table: follows the human's results to set the computers' level."""
    action_seqs: list[int] = field(default_factory=list)
    """The step of each entry of ``game.log``."""
    requests: dict[str, int] = field(default_factory=dict)
    """The table's seq after each client request's step (``player:id``): a resend is answered
    from here."""
    replaced: Seat | None = None
    """The holder a ``seat`` step replaced, when the last step read was one (what the live
    region says of it: "Paul quitte la table")."""
    against_par: dict[int, int | None] = field(default_factory=dict)
    """An adaptive table that follows the par: for each deal (from 1) whose ``par`` step was
    read, the human's team's score against it (None: nobody took the deal)."""
    dealt_by: int | None = None
    """The seat whose request dealt the deal in progress (or the last one), None when no
    ``deal`` step dealt it (a computers' table, an old log): the others are told who went on."""

    @staticmethod
    def build(spec: TableSpec, steps: Sequence[Step]) -> LiveTable:
        """The table after ``steps`` (its log from the start): the first deal is dealt with
        the table, later ones by ``deal`` steps (or before an action, in logs older than them)."""
        game = Game(
            spec.rules,
            spec.seed,
            spec.first_dealer,
            auto_deal=False,
            hand_source=hand_source(spec),
            max_deals=spec.kind.max_deals,
        )
        if not spec.kind.waits_for_host:  # a friends' table deals when its host starts the game
            game.deal_next()
        live = LiveTable(spec, game, list(spec.seats))
        if spec.level == "adaptive":
            start = 0.5 if spec.adaptive_start is None else spec.adaptive_start
            live.tracker = AdaptiveBot(
                seed=spec.seed, level=start, human_seat=live.human_seat, follows_par=spec.adaptive_par
            )
        for step in steps:
            live.apply(step)
        return live

    def apply(self, step: Step) -> None:
        """Read one more step of the log (``IllegalAction`` if it is not legal here)."""
        if step.seq != self.seq:
            raise ValueError(f"table {self.id}: step {step.seq} read at seq {self.seq}")
        game = self.game
        self.replaced = None
        if step.kind == "action":
            assert step.action is not None
            if game.awaiting_deal:
                game.deal_next()
                self.dealt_by = None
            deal = game.current
            assert deal is not None
            game.replay_entry(step.action)
            self.action_seqs.append(step.seq)
            if deal.is_over:
                self.track(deal)
        elif step.kind == "deal":
            if game.awaiting_deal:
                game.deal_next()
                self.dealt_by = step.seat
        elif step.kind == "par":
            assert step.par is not None
            self._follow_par(*step.par)
        elif step.kind == "swap":
            assert step.other_seat is not None
            seats = self.seats
            seats[step.seat], seats[step.other_seat] = seats[step.other_seat], seats[step.seat]
        else:
            assert step.seat_data is not None
            self.replaced = self.seats[step.seat]
            self.seats[step.seat] = step.seat_data
        self.steps.append(replace(step, explanation=None))
        if step.request_id is not None:
            self.requests[step.request_id] = step.seq + 1

    def replay(self, since: int) -> Iterator[LiveTable]:
        """The table as it was after each step from ``since`` on (one object, moved on
        step by step: read it before the next)."""
        past = LiveTable.build(self.spec, self.steps[:since])
        for step in self.steps[since:]:
            past.apply(step)
            yield past

    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def seq(self) -> int:
        """How many steps of the log this state includes: the next step is numbered ``seq``."""
        return len(self.steps)

    def moved_on_since(self, seq: int) -> bool:
        """Whether a step that changes the game or the seats was read at step ``seq`` or
        later: a ``par`` step (the adaptive level's reading of a finished deal, stored
        whenever its analysis comes back) does not, so a computer that started thinking at
        ``seq`` still plays what it chose (at the next step's number)."""
        return any(step.kind != "par" for step in self.steps[seq:])

    @property
    def last(self) -> Step | None:
        return self.steps[-1] if self.steps else None

    @property
    def deal_ended(self) -> int | None:
        """The number (from 1) of the deal the last step read ended, None if it ended none."""
        last = self.last
        if last is None or last.kind != "action" or not self.action_seqs or self.action_seqs[-1] != last.seq:
            return None
        deals = self.game.deals
        return len(deals) if deals and deals[-1].is_over else None

    @property
    def deals_over(self) -> int:
        """How many of the game's deals are over (the one in progress not counted)."""
        deals = self.game.deals
        return len(deals) if deals and deals[-1].is_over else max(0, len(deals) - 1)

    @property
    def void_deal_ended(self) -> bool:
        """The last step read ended a deal of four passes (the players' free deals of it
        are given back)."""
        number = self.deal_ended
        if number is None:
            return False
        result = self.game.deals[number - 1].result()
        return result is not None and result.contract is None

    def seat_of(self, player: str) -> int | None:
        seats = self.seats
        return seat_of((seats[0], seats[1], seats[2], seats[3]), player)

    @property
    def human_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.kind == "human"]

    @property
    def human_players(self) -> list[str]:
        """The players seated here (each deal dealt counts one of their free deals)."""
        return [s.player for s in self.seats if s.kind == "human" and s.player is not None]

    @property
    def human_seat(self) -> int:
        """The human the adaptive level follows: the first human seat (0 if none)."""
        humans = self.human_seats
        return humans[0] if humans else 0

    @property
    def adaptive_level(self) -> float | None:
        return self.tracker.level if self.tracker is not None else None

    def track(self, deal: Deal) -> None:
        """Let the adaptive level learn from a finished deal (live, or replayed at a rebuild)."""
        if self.tracker is not None:
            self.tracker.observe_result(self._tracked_view(deal))

    def _follow_par(self, number: int, par: int) -> None:
        """The par of deal ``number`` came (a ``par`` step): the adaptive knob moves by the
        human's score against it. A par step is stored once per deal, after it."""
        deals = self.game.deals
        if self.tracker is None or not 1 <= number <= len(deals) or number in self.against_par:
            return
        deal = deals[number - 1]
        if deal.is_over:
            self.against_par[number] = self.tracker.observe_against_par(self._tracked_view(deal), par)

    def _tracked_view(self, deal: Deal) -> View:
        """The finished deal as the adaptive knob reads it: from the seat after the human's
        (a computer's: the knob is the computers')."""
        return deal.view((self.human_seat + 1) & 3)

    def wants_par(self, number: int) -> bool:
        """Whether deal ``number`` (from 1) is over and its par is still to be stored here:
        not once the game is over (the computers' level at its end is the one the game is
        rated against, and it is final)."""
        deals = self.game.deals
        return (
            self.tracker is not None
            and self.spec.adaptive_par
            and not self.game.is_over
            and 1 <= number <= len(deals)
            and deals[number - 1].is_over
            and number not in self.against_par
        )

    @property
    def started(self) -> bool:
        """The first deal is dealt (a friends' table waits for its host before it)."""
        return bool(self.game.deals)

    def bot_to_move(self) -> int | None:
        """The seat whose move a computer chooses now (a computer's, or an absent person's)."""
        game = self.game
        if game.is_over or game.awaiting_deal:
            return None
        seat = game.to_move
        return seat if self.seats[seat].played_by_computer else None

    def person_to_move(self) -> int | None:
        """The seat of the person who must act now (None between deals, at a computer's
        turn, or when a computer stands in for them)."""
        game = self.game
        if game.is_over or game.awaiting_deal:
            return None
        seat = game.to_move
        return None if self.seats[seat].played_by_computer else seat
