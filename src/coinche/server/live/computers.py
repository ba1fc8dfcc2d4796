"""The computers at the tables: their turns, played while a table is watched, the hints
people ask for, and the tables of computers played out.

A computer's decision is computed in the worker pool with the table unlocked, shown after
the display pause, and stored only if the table has not moved on meanwhile (through the
registry's one write path). On PostgreSQL with a ``coinche worker`` alive the turn is handed
to the workers instead (``infra/work_queue.py``, ``worker.py``: the worker stores the move
through the same write path and the hub brings it here); this process plays itself when no
worker answers in time.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from limits import RateLimitItemPerMinute

from ...bots.base import Decision
from ...engine.deal import Phase, View
from ...engine.wire import message_to_json
from ..compute.bot_pool import BotPool, BotSpec, PoolBusy, Priority
from ..compute.work import Work
from ..infra.config import Settings
from ..infra.database import Database
from ..infra.hub import Hub
from ..infra.rate_limits import RateLimits
from ..infra.request_context import TABLE_ID
from ..table import requests
from ..table.live_table import LiveTable, TableError, decision_seed
from ..table.requests import check_turn, seat_held
from ..table.spec import PlayedBy, Step
from .registry import LiveTables

log = logging.getLogger("coinche.tables")

HINT_BOT = "expert"
HINT_PARAMS: tuple[tuple[str, bool], ...] = (("explain", True),)
"""The hint's expert gives the player's reason with its move (``ExpertBot(explain=True)``)."""


def explanation_json(decision: Decision) -> dict[str, Any] | None:
    """What the database keeps of a computer's reasons: the public and private texts (in
    English), the translatable reason and, when it says more, the translatable private
    reason (``private_reason``; rows stored before it have none). None when the decision
    gives no reason."""
    if decision.explanation is None and decision.private_explanation is None and decision.reason is None:
        return None
    data: dict[str, Any] = {
        "public": decision.explanation,
        "private": decision.private_explanation,
        "reason": message_to_json(decision.reason) if decision.reason is not None else None,
    }
    if decision.private_reason is not None and decision.private_reason != decision.reason:
        data["private_reason"] = message_to_json(decision.private_reason)
    return data


@dataclass(frozen=True)
class BotTurn:
    """A computer's turn as it was asked: the seat, the step it was asked at (its move is
    stored at the next step unless the table moved on since: ``LiveTable.moved_on_since``),
    the seat's view, which bot decides (with its seed), and whether a trick was just
    gathered (the longer pause)."""

    seat: int
    seq: int
    view: View
    spec: BotSpec
    trick_done: bool


class Computers:
    """The computers' turns at the tables watched here, the hints and the tables played
    out; it follows every step of the registry to play the computer whose turn comes."""

    def __init__(
        self,
        registry: LiveTables,
        pool: BotPool,
        work: Work,
        settings: Settings,
        hub: Hub,
        db: Database,
        rate_limits: RateLimits,
    ) -> None:
        self._registry = registry
        self._pool = pool
        self._work = work
        """Where hints and, on PostgreSQL with workers alive, the computers' turns are computed."""
        self._settings = settings
        self._hub = hub
        self._db = db
        self._rate_limits = rate_limits
        self._autoplay: Counter[str] = Counter()
        """Tables ``play_out`` is playing: their computers play without pauses."""
        self._hints: set[tuple[str, int]] = set()
        self._hint_rate = RateLimitItemPerMinute(settings.hints_per_minute)
        self._bot_tasks: dict[str, asyncio.Task[None]] = {}
        """The computers' turns being played at each table."""
        self.decided_hooks: list[Callable[[str, float], None]] = []
        """Told of each computer's move decided in this process: the bot's name and the
        seconds it took (the metrics)."""
        registry.follow(self._moved)
        registry.keep(self.thinking)

    def _moved(self, live: LiveTable, step: Step) -> None:
        """The table moved on: its computers play if it is watched here."""
        if self._registry.watchers[live.id]:
            self.schedule(live)

    async def _require(self, table_id: str) -> LiveTable:
        live = await self._registry.table(table_id)
        if live is None:
            raise TableError("gone")
        return live

    async def play_out(self, table_id: str) -> LiveTable:
        """Play a table whose four seats are computers to its end, asking for each next
        deal itself and without the pauses people need (the daily challenge's expert play
        once the day is over). Two processes at it store each step once."""
        self._autoplay[table_id] += 1
        self._registry.watchers[table_id] += 1  # its computers play while it is played out
        try:
            while True:
                live = await self._require(table_id)
                now = self._settings.clock()
                if live.game.is_over or requests.closed(live, now):
                    return live
                if live.game.awaiting_deal:
                    await self._registry.write(
                        table_id, None, requests.pure(functools.partial(requests.deal_on, now=now))
                    )
                    continue
                if live.bot_to_move() is None:
                    raise TableError("not_seated")  # a person holds a seat: not a computers' table
                self.schedule(live)
                task = self._bot_tasks.get(table_id)
                if task is not None:
                    await asyncio.shield(task)
        finally:
            for counter in (self._autoplay, self._registry.watchers):
                counter[table_id] -= 1
                if counter[table_id] <= 0:
                    del counter[table_id]

    async def hint(self, table_id: str, player: str) -> tuple[Decision, LiveTable, int]:
        """The expert's choice on ``player``'s own view (never on more), with the table and
        the seat it was asked at: one hint at a time per seat, ``hints_per_minute`` a player."""

        def asked(live: LiveTable) -> tuple[LiveTable, int, View, BotSpec]:
            if not live.spec.kind.allows_hints:
                raise TableError("no_hints")
            seat = seat_held(live, player)
            check_turn(live, seat)
            deal = live.game.current
            assert deal is not None
            return live, seat, deal.view(seat), BotSpec(HINT_BOT, decision_seed(live, seat), HINT_PARAMS)

        live, seat, view, spec = await self._registry.look(table_id, asked)
        key = (table_id, seat)
        if key in self._hints:
            raise TableError("hint_limit")
        self._hints.add(key)  # before any wait: two connections of a seat never both pass
        try:
            if await self._rate_limits.hit(self._hint_rate, f"hints:{player}") is not None:
                raise TableError("hint_limit")
            decision = await self._work.decide(spec, view, Priority.HINT)
        except PoolBusy:
            raise TableError("hint_limit") from None
        finally:
            self._hints.discard(key)
        return decision, live, seat

    def schedule(self, live: LiveTable) -> None:
        """Play the computer whose turn it is at the table, unless one is playing already."""
        if live.bot_to_move() is None:
            return
        task = self._bot_tasks.get(live.id)
        if task is None or task.done():
            task = asyncio.get_running_loop().create_task(self._bot_turns(live.id))
            self._bot_tasks[live.id] = task
            task.add_done_callback(functools.partial(self._bot_turns_done, live.id))

    def _bot_turns_done(self, table_id: str, task: asyncio.Task[None]) -> None:
        if self._bot_tasks.get(table_id) is task:
            del self._bot_tasks[table_id]

    def thinking(self, table_id: str) -> bool:
        """A computer is playing its turn at the table (in this process)."""
        task = self._bot_tasks.get(table_id)
        return task is not None and not task.done()

    async def _bot_turns(self, table_id: str) -> None:
        TABLE_ID.set(table_id)  # the task's own context: its log lines name the table
        loop = asyncio.get_running_loop()
        failures = 0
        while True:
            live = self._registry.get(table_id)
            if live is None or not self._registry.watchers[table_id]:
                return
            turn = await self._registry.look(table_id, self._next_turn)
            if turn is None:
                return
            started = loop.time()
            pause = self._pause(table_id, turn) if live.spec.kind.paced else 0.0
            if await self._work.workers_alive() and await self._handed_over(live, turn, pause):
                continue  # the table moved on: a worker's move (or anyone's)
            try:
                decision = await self._decide(table_id, turn)
            except PoolBusy:
                await asyncio.sleep(1.0)
                continue
            wait = pause - (loop.time() - started)
            if wait > 0:
                await asyncio.sleep(wait)
            if self._registry.get(table_id) is not live:
                return  # the table left memory: whoever loads it again plays on

            def check(current: LiveTable, turn: BotTurn = turn, decision: Decision = decision) -> Step | None:
                return self._bot_step(current, turn, decision)  # None: the table moved on: think again

            try:
                await self._registry.commit(table_id, None, requests.pure(check))
            except Exception:
                # The database failed: try again after a pause (longer each time), so a
                # passing fault never leaves a table waiting on its computers.
                failures += 1
                log.exception("table %s seat %s: the computer's move could not be stored", table_id, turn.seat)
                await asyncio.sleep(min(30.0, 0.5 * 2**failures))
                continue
            failures = 0

    def _next_turn(self, live: LiveTable) -> BotTurn | None:
        """The computer's turn to play now, if it is one's (none at a closed table)."""
        if requests.closed(live, self._settings.clock()):
            return None
        seat = live.bot_to_move()
        return None if seat is None else self._bot_turn(live, seat)

    def _bot_turn(self, live: LiveTable, seat: int) -> BotTurn:
        """What a computer decides from at ``seat`` now (the table locked)."""
        deal = live.game.current
        assert deal is not None
        trick_done = deal.phase is Phase.PLAY and not deal.trick and bool(deal.tricks)
        return BotTurn(seat, live.seq, deal.view(seat), self._bot_spec(live, seat), trick_done)

    def _pause(self, table_id: str, turn: BotTurn) -> float:
        """How long after the last move a computer's move is shown (none when played out)."""
        if table_id in self._autoplay:
            return 0.0
        delay = self._settings.bot_delay
        return delay + (self._settings.trick_pause if turn.trick_done and delay else 0.0)

    async def _decide(self, table_id: str, turn: BotTurn) -> Decision:
        """The computer's decision, in this process's pool (``PoolBusy`` when it is full); a
        bot that fails plays its first legal action."""
        started = time.perf_counter()
        try:
            decision = await self._pool.decide(turn.spec, turn.view)
        except PoolBusy:
            raise
        except Exception:
            log.exception(
                "table %s seat %s: bot %s failed; it plays its first legal action", table_id, turn.seat, turn.spec.name
            )
            return Decision(turn.view.legal_actions[0])
        seconds = time.perf_counter() - started
        for hook in self.decided_hooks:
            hook(turn.spec.name, seconds)
        return decision

    def _bot_step(self, live: LiveTable, turn: BotTurn, decision: Decision) -> Step | None:
        """The step of ``decision`` at the table as it is now; None if it moved on since
        ``turn`` (a late answer for a step already taken is dropped) or closed."""
        moved = live.moved_on_since(turn.seq)
        if moved or live.bot_to_move() != turn.seat or requests.closed(live, self._settings.clock()):
            return None
        action = decision.action
        explanation = explanation_json(decision)
        if action not in live.game.legal_actions():
            log.warning("table %s seat %s: bot %s chose %r, not legal", live.id, turn.seat, turn.spec.name, action)
            action, explanation = turn.view.legal_actions[0], None
        by: PlayedBy | None = "away" if live.seats[turn.seat].kind == "human" else None
        return Step(live.seq, "action", turn.seat, action, explanation=explanation, played_by=by)

    # ----- computers' turns on worker processes (``worker.py``) -----

    async def _handed_over(self, live: LiveTable, turn: BotTurn, pause: float) -> bool:
        """Hand the turn to the workers and wait for the table to move on (True); False
        when it did not within the pause and ``Settings.worker_wait`` (or the workers all
        died): this process plays it then, and a late answer of a worker is dropped."""
        turns = self._work.turns
        assert turns is not None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + pause + self._settings.worker_wait
        sub = self._hub.subscribe(live.id)  # before the turn is queued: its move is not missed
        try:
            try:
                await self._db(turns.hand_over, live.id, turn.seq, turn.seat, pause)
            except Exception:
                log.exception("table %s: could not hand step %s to the workers", live.id, turn.seq)
                return False
            while loop.time() < deadline:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(1.0):  # not wait_for: it can swallow a cancellation on 3.11
                        await sub.wait()
                if self._registry.get(live.id) is not live or not self._registry.watchers[live.id]:
                    return True  # nobody to play for here any more
                if not live.moved_on_since(turn.seq):  # read the log: a notification may be lost
                    await self._registry.table(live.id, fresh=True)
                if live.moved_on_since(turn.seq):
                    return True
                if not await self._work.workers_alive():
                    break
            log.warning("table %s: no worker played step %s in time; playing it here", live.id, turn.seq)
            return False
        finally:
            sub.close()

    async def play_turn(self, table_id: str, seq: int, seat: int, wait: float) -> bool:
        """A worker's part (``worker.py``): decide the computer's move at step ``seq`` of
        the table read fresh from the log, wait ``wait`` seconds from now at least (the
        display pause), and store it through the one write path; whether it was stored
        (False: the table had moved on, or moved on meanwhile)."""
        loop = asyncio.get_running_loop()
        start = loop.time()
        if await self._registry.table(table_id, fresh=True) is None:
            return False

        def asked(live: LiveTable) -> BotTurn | None:
            if live.moved_on_since(seq) or live.bot_to_move() != seat:
                return None
            return replace(self._bot_turn(live, seat), seq=seq)

        turn = await self._registry.look(table_id, asked)
        if turn is None:
            return False
        while True:
            try:
                decision = await self._decide(table_id, turn)
                break
            except PoolBusy:
                await asyncio.sleep(1.0)
        rest = wait - (loop.time() - start)
        if rest > 0:
            await asyncio.sleep(rest)
        stored = False

        async def check(live: LiveTable) -> Step | None:
            nonlocal stored
            step = self._bot_step(live, turn, decision)
            stored = step is not None
            return step

        await self._registry.write(table_id, None, check)
        return stored

    def _bot_spec(self, live: LiveTable, seat: int) -> BotSpec:
        holder = live.seats[seat]
        level = holder.stand_in or holder.level or "confirmed"
        seed = decision_seed(live, seat)
        if level == "adaptive" and live.tracker is not None:
            return BotSpec(level, seed, (("level", live.tracker.level), ("human_seat", live.human_seat)))
        return BotSpec(level, seed)

    async def close(self) -> None:
        tasks = list(self._bot_tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
