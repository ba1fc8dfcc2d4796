"""The table service: live tables rebuilt from their action logs, and nothing of HTTP.

A table is its ``TableSpec`` (rules, seed, first dealer, seats) and its action log in the
database. The live state is the engine's ``Game`` rebuilt from them (``Game.from_log``),
kept in memory while the table is in use and rebuilt on demand after a restart. Every
accepted action goes through ``_commit``: checked by the engine, written to the database,
and only then applied and announced to the listeners, so a restart loses nothing that a
client has seen.

Computer seats play in ``_bot_turns``: the decision is computed in the worker pool while
the table is unlocked (a slow bot never holds up another table, nor this table's
listeners), shown after the display pause, and committed only if the table has not moved
on meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..bots.adaptive import AdaptiveBot
from ..bots.base import Decision
from ..engine.actions import Action
from ..engine.deal import Deal, Phase
from ..engine.errors import IllegalAction
from ..engine.game import Game
from ..engine.messages import Message
from ..engine.rules import RuleSet
from ..engine.wire import message_to_json
from .bot_pool import BotPool, BotSpec
from .config import Settings
from .store import ConflictError, Seat, Store, TableSpec, new_id

log = logging.getLogger("coinche.tables")

LEVELS = ("adaptive", "beginner", "confirmed", "expert")
"""The computer levels a player picks for a solo table."""

TARGETS: dict[str, tuple[int, ...]] = {
    "classic": (700, 3000),
    "federation": (2000,),
    "house": (2010, 3010),
    "online": (501, 1001, 2001),
}
"""The targets each profile's players choose from (RULES.md section 2), default first in
``PROFILES``."""

HINT_BOT = "expert"


def explanation_json(decision: Decision) -> dict[str, Any] | None:
    """What the database keeps of a computer's reasons: the public and private texts and
    the translatable reason (None when the decision gives none)."""
    if decision.explanation is None and decision.private_explanation is None and decision.reason is None:
        return None
    return {
        "public": decision.explanation,
        "private": decision.private_explanation,
        "reason": message_to_json(decision.reason) if decision.reason is not None else None,
    }


class TableError(Exception):
    """A request the table refuses; nothing changed. ``code``: ``not_your_turn``,
    ``illegal`` (``message`` is the engine's, ``rule`` its rule id), ``over``, ``limit``,
    ``waiting`` (the deal is over: the next one must be asked for), ``busy``."""

    def __init__(self, code: str, message: Message | None = None, rule: str | None = None) -> None:
        super().__init__(message.text if message is not None else code)
        self.code = code
        self.message = message
        self.rule = rule


@dataclass(frozen=True)
class Event:
    """What changed a table: ``seat`` took ``action``, or (both None) a new deal was dealt."""

    seat: int | None = None
    action: Action | None = None


Listener = Callable[["LiveTable", Event], None]
"""Called, table locked, after each change: it reads the state it needs at once (a
connection turns it into its seat's message and queues it)."""


@dataclass(eq=False)
class LiveTable:
    spec: TableSpec
    game: Game
    seq: int
    """How many actions the log holds: the next action is stored as step ``seq``."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    listeners: dict[int, Listener] = field(default_factory=dict)
    bot_task: asyncio.Task[None] | None = None
    tracker: AdaptiveBot | None = None
    """For an adaptive table: follows the human's results to set the computers' level."""
    last: Event | None = None

    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def human_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.spec.seats) if s.kind == "human"]

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
            self.tracker.observe_result(deal.view((self.human_seat + 1) & 3))


class TableService:
    def __init__(self, store: Store, pool: BotPool, settings: Settings) -> None:
        self.store = store
        self.pool = pool
        self.settings = settings
        self.live: dict[str, LiveTable] = {}
        self._next_listener = 0
        self._deals_played: dict[str, int] = {}
        """Deals each guest has finished, as last read or counted here: every state message
        shows it, so it is not read again each time (the limit is checked on fresh reads)."""

    # ----- tables -----

    def create_solo(self, guest: str, rules: RuleSet, level: str) -> TableSpec:
        """A table with ``guest`` at seat 0 and computers of ``level`` at the others."""
        if level not in LEVELS:
            raise TableError("bad_level")
        if self.free_deals_left(guest, fresh=True) <= 0:
            raise TableError("limit")
        bot = Seat("bot", level=level)
        return self.create_table(rules, (Seat("human", guest=guest), bot, bot, bot), level)

    def create_table(self, rules: RuleSet, seats: Sequence[Seat], level: str) -> TableSpec:
        """A new table of ``rules`` with these four seats, stored: a ``bot`` seat may have
        any level the bot loader knows (a name or ``module:attribute``); ``level`` is the
        table's level as shown. Nothing is checked of the guests (``create_solo`` does)."""
        if len(seats) != 4:
            raise ValueError(f"a table has four seats, not {len(seats)}")
        rng = random.Random()
        spec = TableSpec(
            id=new_id(),
            rules=rules,
            seed=rng.getrandbits(62),
            first_dealer=rng.randrange(4),
            seats=(seats[0], seats[1], seats[2], seats[3]),
            level=level,
        )
        self.store.create_table(spec)
        return spec

    def get(self, table_id: str) -> LiveTable | None:
        """The live table, rebuilt from the database on first use."""
        live = self.live.get(table_id)
        if live is not None:
            self._schedule_bots(live)  # computers whose task ended on a fault play on
            return live
        loaded = self.store.load_table(table_id)
        if loaded is None:
            return None
        spec, actions = loaded
        game = Game.from_log(spec.rules, spec.seed, spec.first_dealer, actions, auto_deal=False)
        if not game.deals:
            game.deal_next()
        live = LiveTable(spec, game, len(actions))
        if spec.level == "adaptive":
            live.tracker = AdaptiveBot(seed=spec.seed, human_seat=live.human_seat)
            for deal in game.deals:
                if deal.is_over:
                    live.track(deal)
        self.live[table_id] = live
        self._schedule_bots(live)
        return live

    def free_deals_left(self, guest: str, fresh: bool = False) -> int:
        """The free deals ``guest`` has left; ``fresh``: read from the database (what enforces
        the limit), else as this process last counted them (what pages and states show)."""
        played = self._deals_played.get(guest)
        if fresh or played is None:
            played = self._deals_played[guest] = self.store.deals_played(guest)
        return max(0, self.settings.free_deals - played)

    # ----- listeners -----

    def listen(self, live: LiveTable, listener: Listener) -> int:
        self._next_listener += 1
        live.listeners[self._next_listener] = listener
        return self._next_listener

    def unlisten(self, live: LiveTable, token: int) -> None:
        live.listeners.pop(token, None)

    # ----- what players do -----

    async def act(self, live: LiveTable, seat: int, action: Action) -> None:
        """``seat`` takes ``action``; ``TableError`` (nothing changed) if it may not."""
        async with live.lock:
            game = live.game
            self._check_turn(live, seat)
            if action not in game.legal_actions():
                deal = game.current
                assert deal is not None
                try:
                    deal.copy().apply(action)  # the engine says which rule it breaks
                except IllegalAction as e:
                    raise TableError("illegal", e.message, e.rule) from None
                raise TableError("illegal")  # pragma: no cover - legal_actions and apply agree
            self._commit(live, seat, action)
        self._schedule_bots(live)

    async def next_deal(self, live: LiveTable, seat: int) -> None:
        """Deal the next hand once the players have seen the last one's summary."""
        async with live.lock:
            game = live.game
            if game.is_over:
                raise TableError("over")
            if not game.awaiting_deal:
                return  # already dealt (another click, another player)
            guest = live.spec.seats[seat].guest
            if guest is not None and self.free_deals_left(guest, fresh=True) <= 0:
                raise TableError("limit")
            game.deal_next()
            self._announce(live, Event())
        self._schedule_bots(live)

    async def hint(self, live: LiveTable, seat: int) -> Decision:
        """The expert's choice on ``seat``'s own view (never on more)."""
        async with live.lock:
            self._check_turn(live, seat)
            deal = live.game.current
            assert deal is not None
            view = deal.view(seat)
            spec = BotSpec(HINT_BOT, seed=self._decision_seed(live, seat))
        return await self.pool.decide(spec, view)

    def _check_turn(self, live: LiveTable, seat: int) -> None:
        game = live.game
        if game.is_over:
            raise TableError("over")
        if game.awaiting_deal:
            raise TableError("waiting")
        if game.to_move != seat:
            raise TableError("not_your_turn")

    # ----- the one write path -----

    def _commit(self, live: LiveTable, seat: int, action: Action, explanation: dict[str, Any] | None = None) -> None:
        """Store (with a computer's ``explanation``, for the deal's review), then apply, then
        announce a legal action (the table is locked)."""
        try:
            self.store.append_action(live.id, live.seq, seat, action, explanation)
        except ConflictError:
            # Another process moved this table on: reload it from the log and refuse.
            log.warning("table %s seat %s: step %s was stored elsewhere; reloading", live.id, seat, live.seq)
            self.live.pop(live.id, None)
            raise TableError("busy") from None
        live.seq += 1
        deal = live.game.current
        assert deal is not None
        live.game.apply(action)
        if deal.is_over:
            self._deal_finished(live)
        self._announce(live, Event(seat, action))

    def _deal_finished(self, live: LiveTable) -> None:
        for s in live.human_seats:
            guest = live.spec.seats[s].guest
            if guest is not None:
                self._deals_played[guest] = self.store.add_deal_played(guest)
        live.track(live.game.deals[-1])

    def _announce(self, live: LiveTable, event: Event) -> None:
        live.last = event
        for token, listener in list(live.listeners.items()):
            try:
                listener(live, event)
            except Exception:  # a broken connection must not stop the table
                log.exception("table %s: listener failed", live.id)
                live.listeners.pop(token, None)

    # ----- computer seats -----

    def _schedule_bots(self, live: LiveTable) -> None:
        if live.bot_task is None or live.bot_task.done():
            try:
                live.bot_task = asyncio.get_running_loop().create_task(self._bot_turns(live))
            except RuntimeError:  # no loop yet (a table rebuilt before the server runs)
                live.bot_task = None

    def _bot_to_move(self, live: LiveTable) -> int | None:
        game = live.game
        if game.is_over or game.awaiting_deal:
            return None
        seat = game.to_move
        return seat if live.spec.seats[seat].kind == "bot" else None

    async def _bot_turns(self, live: LiveTable) -> None:
        loop = asyncio.get_running_loop()
        while True:
            async with live.lock:
                seat = self._bot_to_move(live)
                if seat is None:
                    return
                deal = live.game.current
                assert deal is not None
                view = deal.view(seat)
                seq = live.seq
                trick_done = deal.phase is Phase.PLAY and not deal.trick and bool(deal.tricks)
                spec = self._bot_spec(live, seat)
            started = loop.time()
            try:
                decision = await self.pool.decide(spec, view)
            except Exception:
                log.exception(
                    "table %s seat %s: bot %s failed; it plays its first legal action", live.id, seat, spec.name
                )
                decision = Decision(view.legal_actions[0])
            pause = self.settings.bot_delay + (
                self.settings.trick_pause if trick_done and self.settings.bot_delay else 0
            )
            wait = pause - (loop.time() - started)
            if wait > 0:
                await asyncio.sleep(wait)
            async with live.lock:
                if self.live.get(live.id) is not live:
                    return  # the table was dropped (reloaded after a conflict): its new copy plays
                if live.seq != seq:
                    continue  # the table moved on meanwhile: think again
                action = decision.action
                explanation = explanation_json(decision)
                if action not in live.game.legal_actions():
                    log.warning("table %s seat %s: bot %s chose %r, not legal", live.id, seat, spec.name, action)
                    action, explanation = view.legal_actions[0], None
                try:
                    self._commit(live, seat, action, explanation)
                except TableError:
                    return

    def _bot_spec(self, live: LiveTable, seat: int) -> BotSpec:
        level = live.spec.seats[seat].level or "confirmed"
        seed = self._decision_seed(live, seat)
        if level == "adaptive" and live.tracker is not None:
            return BotSpec(level, seed, (("level", live.tracker.level), ("human_seat", live.human_seat)))
        return BotSpec(level, seed)

    @staticmethod
    def _decision_seed(live: LiveTable, seat: int) -> int:
        """Decisions are reproducible: the table's seed, the step and the seat."""
        return (live.spec.seed * 1_000_003 + live.seq * 4 + seat) % (1 << 62)

    async def close(self) -> None:
        tasks = [t.bot_task for t in self.live.values() if t.bot_task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
