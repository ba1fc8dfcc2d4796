"""Who is at each table, and the clocks that keep a friends' table moving.

A person is *here* while one of their connections is open on the table, *away* once the
last one closes, and *replaced* when a computer plays their seat. At a table of several
people, and at a tournament's round even for one person alone with computers
(``Attendance.clocks_run``), nobody waits for an absent one longer than the settings say:

- a player whose connection dropped keeps the seat for ``grace_seconds``; then a ``seat``
  step hands it to a computer (the seat stays theirs: ``Seat.stand_in``), and when they
  come back another ``seat`` step gives it back, before their next decision;
- a player who stays but does not act at their turn is warned after
  ``idle_warning_seconds``, and the computer plays that one move after
  ``idle_move_seconds`` (an ``action`` step ``played_by="idle"``).

Both are steps of the log, so every connection sees them; the comings and goings are
passing events of the hub.

Several server processes: a person's connections may be on any of them. Each process
counts its own and writes the count to ``table_presence`` (friends' tables only), confirmed
every ``HEARTBEAT`` seconds; every process reads the others' fresh rows, so all show the
same presence, and a grace period ends in a stand-in only when the person is nowhere. A
process that dies stops confirming: after ``STALE`` seconds its people count as away since
its last confirmation, and the processes still watching the table run their grace periods.
Each process watching a table runs its idle clock and warns its own connections; the move
it plays for an idle person is stored once (the step's number decides).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from datetime import datetime, timedelta
from typing import Any, Final, Literal

from sqlalchemy import delete, select, update

from ..compute.bot_pool import BotSpec, PoolBusy, Priority
from ..compute.work import Work
from ..infra.db import aware, now
from ..infra.rows.tables import TablePresenceRow
from ..infra.store import Store
from ..table import requests
from ..table.live_table import LiveTable, decision_seed
from ..table.lobby import STAND_IN_LEVEL
from ..table.spec import Step
from .registry import LiveTables

log = logging.getLogger("coinche.presence")


SeatPresence = Literal["here", "away", "replaced", "computer"]

WATCHER: Final = "watch:"
"""The prefix of a watcher's key among the players of the presence rows."""
HEARTBEAT = 5.0
"""How often a process confirms its people's connections and reads the others' (more
often when the grace period is shorter)."""
STALE = 15.0
"""A confirmation older than this is a dead process's: its people are away."""
FORGOTTEN = timedelta(days=2)
"""Rows older than this are deleted (a dead process's, or a person long gone)."""


def write_count(store: Store, table_id: str, player: str, process: str, connections: int) -> None:
    """This process holds ``connections`` of ``player``'s connections to the table now."""
    row = {"table_id": table_id, "player_id": player, "process": process, "connections": connections, "seen_at": now()}
    upsert = store.backend.insert_ignoring(
        TablePresenceRow, ["table_id", "player_id", "process"], update=["connections", "seen_at"]
    )
    with store.engine.begin() as conn:
        conn.execute(upsert, row)


def confirm(store: Store, process: str) -> None:
    """This process is alive and its people's connections still open; old rows go."""
    moment = now()
    with store.engine.begin() as conn:
        conn.execute(
            update(TablePresenceRow)
            .where(TablePresenceRow.process == process, TablePresenceRow.connections > 0)
            .values(seen_at=moment)
        )
        conn.execute(delete(TablePresenceRow).where(TablePresenceRow.seen_at < moment - FORGOTTEN))


def read_presence(store: Store, table_ids: list[str], process: str) -> dict[str, tuple[set[str], dict[str, datetime]]]:
    """For each table: the people whose connections another live process holds, and when
    each person was last seen there (a confirmation, or their last connection's end)."""
    fresh_after = now() - timedelta(seconds=STALE)
    out: dict[str, tuple[set[str], dict[str, datetime]]] = {t: (set(), {}) for t in table_ids}
    if not table_ids:
        return out
    with store.session() as s:
        rows = s.execute(
            select(
                TablePresenceRow.table_id,
                TablePresenceRow.player_id,
                TablePresenceRow.process,
                TablePresenceRow.connections,
                TablePresenceRow.seen_at,
            ).where(TablePresenceRow.table_id.in_(table_ids))
        )
        for table_id, player, holder, connections, seen_at in rows:
            seen_at = aware(seen_at)
            elsewhere, last_seen = out[table_id]
            if holder != process and connections > 0 and seen_at > fresh_after:
                elsewhere.add(player)
            if player not in last_seen or seen_at > last_seen[player]:
                last_seen[player] = seen_at
    return out


class Attendance:
    """The connections of each person at each table, and the grace and idle clocks."""

    def __init__(self, registry: LiveTables, work: Work, process: str) -> None:
        self.registry = registry
        self.work = work
        self.settings = registry.settings
        self.present: Counter[tuple[str, str]] = Counter()
        """Open connections of each player at each table (in this process)."""
        self._watching: dict[str, set[str]] = {}
        """The watchers' keys of each table with watchers here (``watchers`` counts them
        without going through every connection of the process)."""
        self._grace: dict[tuple[str, str], asyncio.Task[None]] = {}
        self._idle: dict[str, tuple[int, asyncio.TimerHandle | asyncio.Task[None]]] = {}
        """Each table's idle clock and the step it times: a timer (the warning, then the
        move), then the task that plays the move. A timer, not a sleeping task: a clock is
        set at every step and stopped at the next, and a timer stops without waking anything."""
        self._clocks: dict[str, tuple[int, int, float]] = {}
        """The idle clock running at each table: its step, the seat and when it started
        (this loop's time), so a page that connects sees the countdown where it stands."""
        self._signals: set[asyncio.Task[None]] = set()
        self.process = process
        self.elsewhere: dict[str, set[str]] = {}
        """The people of each friends' table watched here whose connections another
        process holds (as last read)."""
        self.last_seen: dict[str, dict[str, datetime]] = {}
        """When each person of each friends' table watched here was last seen, in any process."""
        self._heartbeat: asyncio.Task[None] | None = None

    # ----- who is here -----

    def presence(self, live: LiveTable) -> list[SeatPresence]:
        """Each seat: ``here``, ``away``, ``replaced`` (a person's seat a computer plays
        while they are away) or ``computer``."""
        out: list[SeatPresence] = []
        for holder in live.seats:
            if holder.kind == "bot" or holder.player is None:
                out.append("computer")
            elif holder.stand_in is not None:
                out.append("replaced")
            elif self.is_here(live.id, holder.player):
                out.append("here")
            else:
                out.append("away")
        return out

    def is_here(self, table_id: str, player: str) -> bool:
        """A connection of ``player`` is open here or in another live process (as last read)."""
        return bool(self.present[(table_id, player)]) or player in self.elsewhere.get(table_id, ())

    async def refresh(self, table_ids: list[str]) -> None:
        """Read who is at these friends' tables through the other processes."""
        seen = await self.registry.db(read_presence, self.registry.store, table_ids, self.process)
        for table_id, (elsewhere, last_seen) in seen.items():
            self.elsewhere[table_id] = elsewhere
            self.last_seen[table_id] = last_seen

    async def _write_count(self, table_id: str, player: str) -> None:
        try:
            count = self.present[(table_id, player)]
            await self.registry.db(write_count, self.registry.store, table_id, player, self.process, count)
        except Exception:  # the heartbeat writes it again
            log.exception("table %s: the presence of %s could not be written", table_id, player)

    def _start_heartbeat(self) -> None:
        if self._heartbeat is None or self._heartbeat.done():
            self._heartbeat = asyncio.get_running_loop().create_task(self._beat())

    async def _beat(self) -> None:
        """Confirm this process's connections, read the others', tell this process's
        connections when someone came or went elsewhere, and run the grace periods of
        people nobody holds (their process died)."""
        while True:
            await asyncio.sleep(min(HEARTBEAT, self.settings.grace_seconds / 2))
            try:
                await self.registry.db(confirm, self.registry.store, self.process)
                watched = [
                    table_id
                    for table_id in list(self.registry.watchers)
                    if (live := self.registry.get(table_id)) is not None and live.spec.kind.several_people
                ]
                for table_id in set(self.elsewhere) - set(watched):
                    self.elsewhere.pop(table_id, None)
                    self.last_seen.pop(table_id, None)
                if not watched:
                    continue
                before = {table_id: set(self.elsewhere.get(table_id, set())) for table_id in watched}
                await self.refresh(watched)
                for table_id in watched:
                    if self.elsewhere.get(table_id, set()) != before[table_id]:
                        self.registry.hub.deliver_event_here(table_id, {"kind": "presence"})
                    await self._end_lapsed_graces(table_id)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("presence: the heartbeat failed")

    async def _end_lapsed_graces(self, table_id: str) -> None:
        """People away longer than the grace period with no clock running here (theirs ran
        in a process that died): a computer takes their seat."""
        live = self.registry.get(table_id)
        if live is None or not self.clocks_run(live) or not live.started or live.game.is_over:
            return
        moment = now()
        people = self.last_seen.get(table_id, {})
        for holder in live.seats:
            player = holder.player
            if holder.kind != "human" or player is None or holder.stand_in is not None:
                continue
            if self.is_here(table_id, player) or (table_id, player) in self._grace:
                continue
            since = people.get(player)
            if since is not None and (moment - since).total_seconds() >= self.settings.grace_seconds:
                await self._set_stand_in(table_id, player, STAND_IN_LEVEL)

    @staticmethod
    def clocks_run(live: LiveTable) -> bool:
        """Whether the grace periods and the idle clock run at this table: a shared table
        with more than one person, or one that waits for nobody even alone with computers
        (``TableKind.clocks_run_alone``: a tournament's round). Alone against the computer
        elsewhere, nobody waits on anybody."""
        return live.spec.kind.several_people and (len(live.human_seats) > 1 or live.spec.kind.clocks_run_alone)

    async def arrived(self, live: LiveTable, player: str) -> None:
        """A connection of ``player`` opened: they are here; a computer standing in for
        them gives the seat back."""
        key = (live.id, player)
        self.present[key] += 1
        if self.present[key] > 1:
            return
        task = self._grace.pop(key, None)
        if task is not None:
            task.cancel()
        if live.spec.kind.several_people:  # alone against the computer, nobody is told
            self._start_heartbeat()
            await self._write_count(live.id, player)
            await self.refresh([live.id])
            await self.registry.hub.signal(live.id, {"kind": "presence"})
        seat = live.seat_of(player)
        if seat is not None and live.seats[seat].stand_in is not None:
            await self._set_stand_in(live.id, player, None)

    # ----- watchers -----

    async def watcher_arrived(self, table_id: str, key: str) -> None:
        """A watcher's connection opened (``key``: ``WATCHER`` and its own id, a row of
        presence like a person's: the count is shared by every process)."""
        self.present[(table_id, key)] = 1
        self._watching.setdefault(table_id, set()).add(key)
        self._start_heartbeat()
        await self._write_count(table_id, key)
        await self.registry.hub.signal(table_id, {"kind": "presence"})

    def watcher_left(self, table_id: str, key: str) -> None:
        """(Not a coroutine, as ``left``.)"""
        self.present.pop((table_id, key), None)
        keys = self._watching.get(table_id)
        if keys is not None:
            keys.discard(key)
            if not keys:
                del self._watching[table_id]
        signal = asyncio.get_running_loop().create_task(self._went(table_id, key))
        self._signals.add(signal)
        signal.add_done_callback(self._signals.discard)

    def watchers(self, table_id: str) -> int:
        """The watchers of a table, here and in the other processes (as last read)."""
        here = len(self._watching.get(table_id, ()))
        return here + sum(1 for key in self.elsewhere.get(table_id, ()) if key.startswith(WATCHER))

    def left(self, table_id: str, player: str) -> None:
        """A connection of ``player`` closed; the last one starts the grace period. (Not a
        coroutine: a closing connection calls it while its task may be cancelled.)"""
        key = (table_id, player)
        self.present[key] -= 1
        if self.present[key] > 0:
            return
        del self.present[key]
        live = self.registry.get(table_id)
        if live is None or not live.spec.kind.several_people:
            return
        loop = asyncio.get_running_loop()
        signal = loop.create_task(self._went(table_id, player))
        self._signals.add(signal)
        signal.add_done_callback(self._signals.discard)
        if self.clocks_run(live) and key not in self._grace:
            self._grace[key] = asyncio.get_running_loop().create_task(self._grace_period(table_id, player))

    async def _went(self, table_id: str, player: str) -> None:
        await self._write_count(table_id, player)
        await self.registry.hub.signal(table_id, {"kind": "presence"})

    def game_started(self, live: LiveTable) -> None:
        """The game started (its host started it, or a tournament's round made it): the
        grace period of anyone absent starts now, whether or not they ever opened it."""
        if not self.clocks_run(live):
            return
        for holder in live.seats:
            key = (live.id, holder.player or "")
            here = holder.player is not None and self.is_here(live.id, holder.player)
            if holder.kind == "human" and holder.player and not here and key not in self._grace:
                self._grace[key] = asyncio.get_running_loop().create_task(self._grace_period(live.id, holder.player))

    async def _grace_period(self, table_id: str, player: str) -> None:
        try:
            await asyncio.sleep(self.settings.grace_seconds)
            if not self.present[(table_id, player)]:
                await self.refresh([table_id])  # they may be connected to another process
                if not self.is_here(table_id, player):
                    await self._set_stand_in(table_id, player, STAND_IN_LEVEL)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the grace period of %s failed", table_id, player)
        finally:
            if self._grace.get((table_id, player)) is asyncio.current_task():
                del self._grace[(table_id, player)]

    async def _set_stand_in(self, table_id: str, player: str, level: str | None) -> None:
        """A computer of ``level`` plays ``player``'s seat from now on (None: the person
        again), unless that is so already or no longer makes sense."""

        def check(live: LiveTable) -> Step | None:  # whether they are here, as the table is locked
            return requests.stand_in(live, player, level, self.is_here(table_id, player))

        await self.registry.write(table_id, None, requests.pure(check))

    # ----- the idle clock -----

    def turn_changed(self, live: LiveTable, tell: bool = True) -> None:
        """After each step: time the person who must act now, if others wait on them.
        ``tell``: announce the new clock as a passing event (False: the feed sends it with
        the step, ``step_clock``)."""
        current = self._idle.get(live.id)
        if current is not None:
            if current[0] == live.seq:
                return
            current[1].cancel()
            self._stop_clock(live.id)
        seat = live.person_to_move()
        if seat is None or not self.clocks_run(live) or not live.spec.kind.idle_clock:
            return
        loop = asyncio.get_running_loop()
        timer = loop.call_later(self.settings.idle_warning_seconds, self._warn, live.id, live.seq, seat)
        self._idle[live.id] = (live.seq, timer)
        self._clocks[live.id] = (live.seq, seat, loop.time())
        # Every process watching the table runs this clock: each shows it to its own people.
        if tell:
            self.registry.hub.deliver_event_here(live.id, self.clock(live.id) or {})

    def step_clock(self, live: LiveTable) -> dict[str, Any] | None:
        """The clock the step ``live`` is at started (a ``clock`` event), None if none did:
        what the feed sends with the step itself (``turn_changed`` ran first)."""
        running = self._clocks.get(live.id)
        if running is None or running[0] != live.seq:
            return None
        return self.clock(live.id)

    def _stop_clock(self, table_id: str) -> None:
        self._idle.pop(table_id, None)
        self._clocks.pop(table_id, None)

    def clock(self, table_id: str) -> dict[str, Any] | None:
        """The countdown of the person to play (a ``clock`` event: their seat, the step it
        runs from, the whole seconds left before the computer plays for them), None when
        no clock runs."""
        running = self._clocks.get(table_id)
        if running is None:
            return None
        seq, seat, started = running
        left = self.settings.idle_move_seconds - (asyncio.get_running_loop().time() - started)
        return {"kind": "clock", "seat": seat, "seq": seq, "seconds": max(0, round(left))}

    def _warn(self, table_id: str, seq: int, seat: int) -> None:
        """The idle clock's warning (a timer's callback): the person at ``seat`` has still
        not played step ``seq``; the computer plays for them at the end of the clock."""
        settings = self.settings
        try:
            live = self.registry.get(table_id)
            if live is None or live.seq != seq:
                self._stop_clock(table_id)
                return
            left = max(0, round(settings.idle_move_seconds - settings.idle_warning_seconds))
            # Every process watching the table runs this clock: each warns its own people.
            self.registry.hub.deliver_event_here(table_id, {"kind": "idle_warning", "seat": seat, "seconds": left})
            loop = asyncio.get_running_loop()
            timer = loop.call_later(
                settings.idle_move_seconds - settings.idle_warning_seconds, self._expire, table_id, seq, seat
            )
            self._idle[table_id] = (seq, timer)
        except Exception:
            log.exception("table %s: the idle clock of seat %s failed", table_id, seat)
            self._stop_clock(table_id)

    def _expire(self, table_id: str, seq: int, seat: int) -> None:
        """The idle clock ran out (a timer's callback): the computer's move is a task."""
        task = asyncio.get_running_loop().create_task(self._idle_move(table_id, seq, seat))
        self._idle[table_id] = (seq, task)

    async def _idle_move(self, table_id: str, seq: int, seat: int) -> None:
        try:
            await self._play_for(table_id, seq, seat)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the idle clock of seat %s failed", table_id, seat)
        finally:
            current = self._idle.get(table_id)
            if current is not None and current[1] is asyncio.current_task():
                self._stop_clock(table_id)

    async def _play_for(self, table_id: str, seq: int, seat: int) -> None:
        """The computer plays the one move the person at ``seat`` let time run out on."""
        registry = self.registry
        live = registry.get(table_id)
        if live is None or live.seq != seq:
            return
        deal = live.game.current
        assert deal is not None
        view = deal.view(seat)
        try:
            decision = await self.work.decide(BotSpec(STAND_IN_LEVEL, decision_seed(live, seat)), view, Priority.MOVE)
            action = decision.action
        except PoolBusy:
            action = view.legal_actions[0]
        await registry.write(
            table_id,
            None,
            requests.pure(lambda live: requests.idle_move(live, seq, seat, action, self.settings.clock())),
        )

    async def close(self) -> None:
        for _, clock in self._idle.values():
            if isinstance(clock, asyncio.TimerHandle):
                clock.cancel()
        idle_moves = [clock for _, clock in self._idle.values() if isinstance(clock, asyncio.Task)]
        tasks = [*self._grace.values(), *idle_moves, *self._signals]
        if self._heartbeat is not None:
            tasks.append(self._heartbeat)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
