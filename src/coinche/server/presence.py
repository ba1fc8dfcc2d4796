"""Who is at each table, and the clocks that keep a friends' table moving.

A person is *here* while one of their connections is open on the table, *away* once the
last one closes, and *replaced* when a computer plays their seat. At a table of several
people nobody waits for an absent one longer than the settings say:

- a player whose connection dropped keeps the seat for ``grace_seconds``; then a ``seat``
  step hands it to a computer (the seat stays theirs: ``Seat.stand_in``), and when they
  come back another ``seat`` step gives it back, before their next decision;
- a player who stays but does not act at their turn is warned after
  ``idle_warning_seconds``, and the computer plays that one move after
  ``idle_move_seconds`` (an ``action`` step ``played_by="idle"``).

Both are steps of the log, so every connection sees them; the warnings and the comings and
goings are passing events of the hub. The counts of connections are this process's own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from dataclasses import replace
from typing import TYPE_CHECKING, Literal

from .bot_pool import BotSpec, PoolBusy, Priority
from .store import Step

if TYPE_CHECKING:
    from .tables import LiveTable, TableService

log = logging.getLogger("coinche.presence")

STAND_IN_LEVEL = "expert"
"""The computer that plays for an absent person, or for a person who left the table."""

SeatPresence = Literal["here", "away", "replaced", "computer"]


class Attendance:
    """The connections of each person at each table, and the grace and idle clocks."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self.settings = service.settings
        self.present: Counter[tuple[str, str]] = Counter()
        """Open connections of each player at each table (in this process)."""
        self._grace: dict[tuple[str, str], asyncio.Task[None]] = {}
        self._idle: dict[str, tuple[int, asyncio.Task[None]]] = {}
        """Each table's idle clock and the step it times."""
        self._signals: set[asyncio.Task[None]] = set()

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
            elif self.present[(live.id, holder.player)]:
                out.append("here")
            else:
                out.append("away")
        return out

    @staticmethod
    def has_company(live: LiveTable) -> bool:
        """A friends' table with more than one person: the only tables whose clocks run
        (alone against the computer, nobody waits on anybody)."""
        return live.spec.is_private and len(live.human_seats) > 1

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
        if live.spec.is_private:  # alone against the computer, nobody is told
            await self.service.hub.signal(live.id, {"kind": "presence"})
        seat = live.seat_of(player)
        if seat is not None and live.seats[seat].stand_in is not None:
            await self._set_stand_in(live.id, player, None)

    def left(self, table_id: str, player: str) -> None:
        """A connection of ``player`` closed; the last one starts the grace period. (Not a
        coroutine: a closing connection calls it while its task may be cancelled.)"""
        key = (table_id, player)
        self.present[key] -= 1
        if self.present[key] > 0:
            return
        del self.present[key]
        live = self.service.live.get(table_id)
        if live is None or not live.spec.is_private:
            return
        loop = asyncio.get_running_loop()
        signal = loop.create_task(self.service.hub.signal(table_id, {"kind": "presence"}))
        self._signals.add(signal)
        signal.add_done_callback(self._signals.discard)
        if self.has_company(live) and key not in self._grace:
            self._grace[key] = asyncio.get_running_loop().create_task(self._grace_period(table_id, player))

    def game_started(self, live: LiveTable) -> None:
        """The host started the game: the grace period of anyone absent starts now."""
        if not self.has_company(live):
            return
        for holder in live.seats:
            key = (live.id, holder.player or "")
            if holder.kind == "human" and holder.player and not self.present[key] and key not in self._grace:
                self._grace[key] = asyncio.get_running_loop().create_task(self._grace_period(live.id, holder.player))

    async def _grace_period(self, table_id: str, player: str) -> None:
        try:
            await asyncio.sleep(self.settings.grace_seconds)
            if not self.present[(table_id, player)]:
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

        async def check(live: LiveTable) -> Step | None:
            seat = live.seat_of(player)
            if seat is None or live.game.is_over or not live.started:
                return None
            holder = live.seats[seat]
            here = bool(self.present[(table_id, player)])
            if holder.stand_in == level or (level is not None and here):
                return None
            return Step(live.seq, "seat", seat, seat_data=replace(holder, stand_in=level))

        await self.service.write(table_id, None, check)

    # ----- the idle clock -----

    def turn_changed(self, live: LiveTable) -> None:
        """After each step: time the person who must act now, if others wait on them."""
        current = self._idle.get(live.id)
        if current is not None:
            if current[0] == live.seq:
                return
            current[1].cancel()
            del self._idle[live.id]
        seat = live.person_to_move()
        if seat is None or not self.has_company(live):
            return
        task = asyncio.get_running_loop().create_task(self._idle_clock(live.id, live.seq, seat))
        self._idle[live.id] = (live.seq, task)

    async def _idle_clock(self, table_id: str, seq: int, seat: int) -> None:
        settings = self.settings
        service = self.service
        try:
            await asyncio.sleep(settings.idle_warning_seconds)
            live = service.live.get(table_id)
            if live is None or live.seq != seq:
                return
            left = max(0, round(settings.idle_move_seconds - settings.idle_warning_seconds))
            await service.hub.signal(table_id, {"kind": "idle_warning", "seat": seat, "seconds": left})
            await asyncio.sleep(settings.idle_move_seconds - settings.idle_warning_seconds)
            await self._play_for(table_id, seq, seat)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the idle clock of seat %s failed", table_id, seat)
        finally:
            current = self._idle.get(table_id)
            if current is not None and current[1] is asyncio.current_task():
                del self._idle[table_id]

    async def _play_for(self, table_id: str, seq: int, seat: int) -> None:
        """The computer plays the one move the person at ``seat`` let time run out on."""
        service = self.service
        live = service.live.get(table_id)
        if live is None or live.seq != seq:
            return
        deal = live.game.current
        assert deal is not None
        view = deal.view(seat)
        try:
            decision = await service.decide_job(
                BotSpec(STAND_IN_LEVEL, service.decision_seed(live, seat)), view, Priority.MOVE
            )
            action = decision.action
        except PoolBusy:
            action = view.legal_actions[0]

        async def check(live: LiveTable) -> Step | None:
            if live.seq != seq or action not in live.game.legal_actions():
                return None
            return Step(seq, "action", seat, action, played_by="idle")

        await service.write(table_id, None, check)

    async def close(self) -> None:
        tasks = [*self._grace.values(), *(task for _, task in self._idle.values()), *self._signals]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
