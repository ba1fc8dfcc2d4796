"""The registry of live tables: each table read from its log once and kept in memory while
it is used, one lock each, and the one write path.

``commit(table_id, key, check)`` is how anything changes a table: ``check`` is asked
for the step to store on the table as this process has it, the step is written to the
database as the table's next one, only then applied, then announced on the hub. The copy
in memory may be stale (another process stored steps since): a request it refuses, or
finds already done, is checked again once the log is read, and a write that loses the race
for its step number reads the winner's step and checks again. ``look`` reads a table with
the same one retry, for what asks without writing (a hint).

The registry imports none of the features. They register at start-up:

* ``on(event, listener)``: told of each event of the kind ``event`` (``events.py``: seats
  changed, a deal started or ended, the game ended) that a step this process stores
  brings, the table locked, before the step is announced: the bookkeeping of a finished
  deal or game (history, statistics, the daily challenge, free deals). A call or a card
  that ends nothing brings no event and waits on nobody. The listeners of a step are told
  all at once: each does its own bookkeeping, and their database calls queue together. A
  deal's or a game's end is *booked* once every listener ran through for it; a table read
  from the database tells its listeners again of the ends not booked (a crash between the
  step and its bookkeeping), and only of those: a read never writes twice.
* ``follow(follower)``: told, not locked, each time a table moved on, by a step stored
  here or by steps read from the log that another process stored (the computers' turns,
  who is at the table).
* ``keep(predicate)``: a table a predicate keeps (a computer thinking) is not evicted.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ..infra.config import Settings
from ..infra.database import Database
from ..infra.hub import Hub
from ..infra.request_context import TABLE_ID
from ..infra.store import ConflictError, Store
from ..table.live_table import Check, LiveTable, TableError, game_result
from ..table.spec import Step
from .events import DealEnded, DealStarted, GameEnded, SeatsChanged, TableEvent, events_of

log = logging.getLogger("coinche.tables")
T = TypeVar("T")

RACE_RETRIES = 20
"""How many lost races in a row a write tries again before it gives up (``busy``)."""


E = TypeVar("E", SeatsChanged, DealStarted, DealEnded, GameEnded)
Listener = Callable[[Any], Coroutine[Any, Any, None]]
Follower = Callable[[LiveTable, Step], None]
StoredHook = Callable[[LiveTable, Step, float], None]
"""Told of each step stored by this process, with the seconds from the request to the
step handed to the followers (the table's sockets among them)."""
"""Told that a table moved on by a step (stored here, or read from the log), with the
table just after it: several steps read at once are told one at a time."""


@dataclass(eq=False)
class _Held:
    """A table in memory, with what is not its state: its lock, and when it was last used."""

    table: LiveTable
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    touched: float = 0.0


class LiveTables:
    """The live tables of this process (see the module's docstring)."""

    def __init__(self, store: Store, db: Database, settings: Settings, hub: Hub) -> None:
        self.store = store
        self.db = db
        self.settings = settings
        self.hub = hub
        self.watchers: Counter[str] = Counter()
        """Connections (and play-outs) watching each table in this process."""
        self._held: dict[str, _Held] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._listeners: dict[type, list[Listener]] = {}
        self._followers: list[Follower] = []
        self.stored_hooks: list[StoredHook] = []
        """Told of each step this process stored (the metrics), after its followers."""
        self._keepers: list[Callable[[str], bool]] = []
        self._janitor: asyncio.Task[None] | None = None

    # ----- who listens -----

    def on(self, event: type[E], listener: Callable[[E], Coroutine[Any, Any, None]]) -> None:
        self._listeners.setdefault(event, []).append(listener)

    def follow(self, follower: Follower) -> None:
        self._followers.append(follower)

    def keep(self, predicate: Callable[[str], bool]) -> None:
        self._keepers.append(predicate)

    # ----- reading -----

    def get(self, table_id: str) -> LiveTable | None:
        """The table if it is in memory (no database read)."""
        held = self._held.get(table_id)
        return held.table if held is not None else None

    def held(self) -> list[LiveTable]:
        """The tables in this process's memory now (the metrics count them)."""
        return [held.table for held in self._held.values()]

    def forget(self, table_id: str) -> None:
        """Drop a table from memory: the next use reads it from the log again."""
        self._held.pop(table_id, None)

    def _now(self) -> float:
        return asyncio.get_running_loop().time()

    async def table(self, table_id: str, at_least: int = 0, fresh: bool = False) -> LiveTable | None:
        """The live table (None if there is none), read from the database on first use and
        caught up with the log when it has fewer than ``at_least`` steps, or in any case
        with ``fresh`` (another process may have moved it on: a page or a connection that
        opens asks for it). Starts no computer."""
        held = self._held.get(table_id)
        if held is None:
            lock = self._loading.setdefault(table_id, asyncio.Lock())
            async with lock:
                held = self._held.get(table_id)
                if held is None:
                    held = await self._load(table_id)
                    if held is None:
                        self._loading.pop(table_id, None)
                        return None
                    fresh = False  # just read
            self._loading.pop(table_id, None)
        held.touched = self._now()
        if fresh or held.table.seq < at_least:
            async with held.lock:
                await self._catch_up(held.table)
        return held.table

    async def _load(self, table_id: str) -> _Held | None:
        loaded = await self.db(self.store.load_table, table_id)
        if loaded is None:
            return None
        live = LiveTable.build(*loaded)
        # What a crash between a step and its bookkeeping may have lost (only that: what
        # was booked is not written again by a read):
        game = live.game
        finished = any(deal.is_over for deal in game.deals)  # else nothing to book
        deals_booked, game_booked = await self.db(self.store.booked, table_id) if finished else (0, False)
        ends = [number for number, deal in enumerate(game.deals, start=1) if deal.is_over and number > deals_booked]
        game_over = game.is_over and not game_booked
        if game_over:  # its end not recorded, or not booked
            await self.db(self.store.finish_table, table_id, game_result(game))
        if live.last is not None:
            events: list[TableEvent] = [DealEnded(live, number, again=True) for number in ends]
            if game_over:
                events.append(GameEnded(live, again=True))
            await self._tell(live, events)
        held = _Held(live)
        self._held[table_id] = held
        self._start_janitor()
        return held

    async def _catch_up(self, live: LiveTable) -> int:
        """Read the steps other writers stored since ``live.seq`` (the table locked); how
        many. Their bookkeeping was done by their writers."""
        steps = await self.db(self.store.steps_since, live.id, live.seq)
        for step in steps:
            live.apply(step)
            self._moved(live, step)
        if steps:
            # Whoever stored them published them; this process's subscribers (the feed, a
            # turn handed to the workers) may not have heard (another hub, or a notification
            # merged away): tell them here.
            self.hub.deliver_here(live.id, live.seq)
        return len(steps)

    async def look(self, table_id: str, reading: Callable[[LiveTable], T]) -> T:
        """``reading(table)`` with the table locked; a ``TableError`` it raises on a copy
        that missed another process's steps is tried again once they are read."""
        held = await self._require(table_id)
        async with held.lock:
            try:
                return reading(held.table)
            except TableError:
                if not await self._catch_up(held.table):
                    raise
                return reading(held.table)

    async def _require(self, table_id: str) -> _Held:
        if await self.table(table_id) is None:
            raise TableError("gone")
        held = self._held.get(table_id)
        if held is None:  # evicted in between: read again
            return await self._require(table_id)
        return held

    # ----- watching and memory -----

    def attach(self, table_id: str) -> None:
        self.watchers[table_id] += 1
        self._start_janitor()

    def detach(self, table_id: str) -> None:
        """Not a coroutine: it may be called as a connection's task is cancelled."""
        self.watchers[table_id] -= 1
        if self.watchers[table_id] <= 0:
            del self.watchers[table_id]
        held = self._held.get(table_id)
        if held is not None:
            with contextlib.suppress(RuntimeError):
                held.touched = self._now()

    def evict_idle(self) -> list[str]:
        """Drop from memory the tables nobody watches, that nothing keeps (a computer
        thinking), unused for ``Settings.idle_seconds``: they come back from the log when
        asked for."""
        now = self._now()
        gone = [
            table_id
            for table_id, held in self._held.items()
            if not self.watchers[table_id]
            and not any(keeps(table_id) for keeps in self._keepers)
            and not held.lock.locked()
            and now - held.touched >= self.settings.idle_seconds
        ]
        for table_id in gone:
            del self._held[table_id]
        return gone

    def _start_janitor(self) -> None:
        if self._janitor is None or self._janitor.done():
            self._janitor = asyncio.get_running_loop().create_task(self._sweep())

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(max(1.0, self.settings.idle_seconds / 4))
            self.evict_idle()

    # ----- the one write path -----

    async def write(self, table_id: str, key: str | None, check: Check) -> int:
        """``commit`` as a task of its own that a closed connection does not cancel halfway
        (a step stored is always applied and announced)."""
        return await asyncio.shield(asyncio.ensure_future(self.commit(table_id, key, check)))

    async def commit(self, table_id: str, key: str | None, check: Check) -> int:
        """Store the step ``check(live)`` makes of the table's state; the table's seq after
        it. None from ``check``: nothing to store, or ``key`` was stored before (answered
        from the table's requests). A request refused or found done on a copy that missed
        steps of another process is checked again once they are read; a lost race reads the
        winner's step and checks again."""
        started = time.perf_counter()
        named = TABLE_ID.set(table_id)
        try:
            return await self._commit(table_id, key, check, started)
        finally:
            TABLE_ID.reset(named)

    async def _commit(self, table_id: str, key: str | None, check: Check, started: float) -> int:
        held = await self._require(table_id)
        looked = False
        for _ in range(RACE_RETRIES):
            async with held.lock:
                if self._held.get(table_id) is not held:  # dropped meanwhile: use the new copy
                    held = await self._require(table_id)
                    continue
                live = held.table
                try:
                    step = await check(live)
                except TableError:
                    if not looked and await self._catch_up(live):
                        looked = True
                        continue
                    raise
                if step is None:
                    if key is not None and key in live.requests:
                        return live.requests[key]
                    if not looked and await self._catch_up(live):
                        looked = True
                        continue
                    return live.seq
                try:
                    await self.db.append_step(live.id, step)
                except ConflictError:
                    log.info("table %s: step %s was stored elsewhere; catching up", table_id, step.seq)
                    await self._catch_up(live)
                    continue
                live.apply(step)
                held.touched = self._now()
                await self._book(live, step)
                self._moved(live, step)  # locked: the followers see the table at this step
                self._stored(live, step, time.perf_counter() - started)
            await self.hub.publish(live.id, step.seq + 1)
            return step.seq + 1
        raise TableError("busy")

    async def _book(self, live: LiveTable, step: Step) -> None:
        """The bookkeeping of a step stored here (the table locked): the end of the game
        recorded for the players' lists, then every listener."""
        game_over = live.game.is_over and step.kind == "action"
        try:
            if game_over:
                await self.db(self.store.finish_table, live.id, game_result(live.game))
        except Exception:  # the step is stored: the table goes on whatever the bookkeeping
            log.exception("table %s: the end of the game could not be recorded", live.id)
        await self._tell(live, events_of(live, step, game_over))

    async def _tell(self, live: LiveTable, events: list[TableEvent]) -> None:
        """Tell every listener of each event (a failing one is logged, the others are told
        all the same); book the deals' and the game's ends when they all ran."""
        calls = [listener(event) for event in events for listener in self._listeners.get(type(event), ())]
        failed = False
        for outcome in await asyncio.gather(*calls, return_exceptions=True):
            if isinstance(outcome, Exception):
                failed = True
                log.error("table %s: a listener of step %s failed", live.id, live.seq - 1, exc_info=outcome)
            elif isinstance(outcome, BaseException):
                raise outcome
        if failed:
            return  # told again at the table's next read
        try:
            for event in events:
                if isinstance(event, DealEnded):
                    await self.db(self.store.book_deal, live.id, event.number)
                elif isinstance(event, GameEnded):
                    await self.db(self.store.book_game, live.id)
        except Exception:
            log.exception("table %s: its bookkeeping could not be booked", live.id)

    def _moved(self, live: LiveTable, step: Step) -> None:
        for follower in self._followers:
            try:
                follower(live, step)
            except Exception:
                log.exception("table %s: a follower failed", live.id)

    def _stored(self, live: LiveTable, step: Step, seconds: float) -> None:
        for hook in self.stored_hooks:
            try:
                hook(live, step, seconds)
            except Exception:
                log.exception("table %s: a hook of stored steps failed", live.id)

    async def close(self) -> None:
        if self._janitor is not None:
            self._janitor.cancel()
            await asyncio.gather(self._janitor, return_exceptions=True)
