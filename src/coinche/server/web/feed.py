"""The tables' new steps, rendered once in this process for the sockets that watch them.

The registry of live tables hands each step to its followers as a table moves on, one step
at a time, whether it was stored here or read from the log that another process stored.
The feed is one of them: for each table watched here it renders the state of each watched
seat, in each language asked for, once per step, and hands it to the sockets of that seat
(``Watch``). A socket so never reads the table back to render its own copy, and a client
two steps behind gets the two states rendered when their steps came, never a replay of the
game from its first step.

A seat that no longer holds the socket's player gets ``None``: the socket closes.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from typing import Any

from ..live.tables import TableService
from ..table.live_table import LiveTable
from ..table.spec import Step
from .protocol import state_message

Rendered = tuple[int, dict[str, Any] | None]
"""A step's seq and the seat's state after it (None: the player holds no seat any more)."""


class Watch:
    """One socket's share of the feed: the states of its player's seat, in its language,
    in the order of the steps. ``full`` past ``limit`` states unread: the socket is closed."""

    def __init__(self, table_id: str, player: str, lang: str, limit: int) -> None:
        self.table_id = table_id
        self.player = player
        self.lang = lang
        self.latest = -1
        """The seq of the last state handed here."""
        self.full = False
        self._queue: asyncio.Queue[Rendered] = asyncio.Queue(maxsize=limit)

    def put(self, rendered: Rendered) -> None:
        self.latest = rendered[0]
        try:
            self._queue.put_nowait(rendered)
        except asyncio.QueueFull:
            self.full = True

    async def get(self) -> Rendered:
        return await self._queue.get()

    def pending(self) -> list[Rendered]:
        """What was handed here and not read yet (without waiting)."""
        out = []
        while not self._queue.empty():
            out.append(self._queue.get_nowait())
        return out


class StateFeed:
    """The states of each table's watched seats, rendered once per step (see the module)."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self._watches: defaultdict[str, set[Watch]] = defaultdict(set)
        service.registry.follow(self.moved)

    def watch(self, table_id: str, player: str, lang: str) -> Watch:
        """A new socket's watch: from now on it is handed every step's state."""
        watch = Watch(table_id, player, lang, self.service.settings.outbox_limit)
        self._watches[table_id].add(watch)
        return watch

    def unwatch(self, watch: Watch) -> None:
        watches = self._watches.get(watch.table_id)
        if watches is not None:
            watches.discard(watch)
            if not watches:
                del self._watches[watch.table_id]

    def moved(self, live: LiveTable, step: Step) -> None:
        """The registry's follower: ``live`` is the table just after ``step``."""
        watches = self._watches.get(live.id)
        if not watches:
            return
        presence = self.service.attendance.presence(live)
        rendered: dict[tuple[int, str], dict[str, Any]] = {}
        for watch in list(watches):
            seat = live.seat_of(watch.player)
            if seat is None:
                watch.put((live.seq, None))
                continue
            key = (seat, watch.lang)
            message = rendered.get(key)
            if message is None:
                # The free deals left are the player's own: the socket adds them (a table
                # that counts them has one person).
                message = state_message(live, seat, watch.lang, None, False, presence)
                rendered[key] = message
            watch.put((live.seq, message))
