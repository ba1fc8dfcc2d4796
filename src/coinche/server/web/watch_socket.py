"""Watching a public table (issue 29): ``/table/{id}/regarder`` is the table's page for a
watcher, ``/ws/watch/{id}`` its socket. A watcher sees what a fifth person at the table
would see, from south's chair: the calls, the cards played, the melds shown, the score;
never a card in a hand (``Game.view(watching=True)``), and nothing a seat alone learns.
The socket sends the whole state (``seat_state(watching=True)``), then the watchers' step
of each step from the feed (``feed.py``: rendered once for every watcher of the table in
this process, as a seat's is for its sockets) and the table's passing events (who came,
quick messages, the clock); it takes no request.

Only a listed table (``open_tables``: its host made it public) may be watched, while it
says so, and the tables of a public tournament once their whole round is over (they all
deal the same cards: ``tournaments.seen_rounds``). ``may_watch`` decides, at the connection
and again whenever the hub says who may watch the table changed (``WATCHERS_CHANGED``: its
host made it private, its players closed it to watchers), in whichever process; a socket
that may no longer watch closes with 4404. Each watcher is counted as a row of
presence (``Attendance.watcher_arrived``), so the players see how many watch, whichever
process serves them.
"""

from __future__ import annotations

import json
from collections.abc import Hashable
from typing import Any, Final

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket

from ..features.open_tables import WATCHERS_CHANGED, OpenTables
from ..infra.hub import Subscription
from ..infra.store import new_id
from ..live.presence import WATCHER
from ..table import i18n
from ..table.kinds import TournamentTable
from ..table.live_table import LiveTable
from . import rules_pages
from .feed import WATCHED_SEAT, StateFeed, Watch, encoded, follows
from .pages import lang_of, page, parts_of
from .protocol import event_message, hello_message
from .seat_state import seat_state
from .socket_base import CLOSE_NOT_FOUND, Close, OpenCount, SlowConsumer, Socket

MAX_WATCHERS: Final = 5000
"""Watching connections one process serves."""
MAX_PER_TABLE: Final = 200
"""Watching connections of one table in one process."""

_watching: OpenCount[str] = OpenCount(MAX_PER_TABLE, MAX_WATCHERS)


async def may_watch(request: Request | WebSocket, table_id: str) -> bool:
    """Whether ``table_id`` may be watched now: a listed open table its players leave open
    to watchers, or a table of a public tournament's round once every table of the round
    has played it (``Tournaments.may_watch``: the same for everyone)."""
    open_tables: OpenTables = request.app.state.open_tables
    listed = await open_tables.get(table_id)
    if listed is not None:
        return listed.watchable
    live = await parts_of(request).tables.table(table_id)
    kind = live.spec.kind if live is not None else None
    if not isinstance(kind, TournamentTable):
        return False
    allowed: bool = await request.app.state.tournaments.may_watch(kind.tournament, kind.round)
    return allowed


async def watch_page(request: Request) -> Response:
    table_id = request.path_params["table_id"]
    live = await parts_of(request).tables.table(table_id, fresh=True)
    if live is None or not await may_watch(request, table_id):
        raise HTTPException(404)
    lang = lang_of(request)
    words = {k: v for k, v in i18n.js_catalogue(lang).items() if not k.startswith("js.friends.")}
    return page(
        request,
        "table.html",
        table_id=live.id,
        profile=live.spec.rules.name,
        rules_url=rules_pages.rules_url(lang, live.spec.rules.name),
        catalogue=json.dumps(words, ensure_ascii=False),
        friends=False,
        watching=True,
        phrases=(),
        friend_levels=(),
        trick_hold_ms=round(request.app.state.settings.trick_pause * 1000),
    )


class WatchSocket(Socket):
    """``/ws/watch/{id}``: the whole state, then the feed's watchers' step of each step,
    and the table's passing events."""

    busy = "too many watchers"

    def __init__(self, websocket: WebSocket) -> None:
        super().__init__(websocket)
        self.table_id: str = websocket.path_params["table_id"]
        self.lang = lang_of(websocket)
        self.live: LiveTable | None = None
        self.sent = -1
        """The seq of the last state or step sent."""

    async def admit(self) -> None:
        """A table that may be watched now (else 4404)."""
        if not await may_watch(self.ws, self.table_id):
            raise Close(CLOSE_NOT_FOUND, "not watchable")
        self.live = await self.parts.tables.table(self.table_id, fresh=True)
        if self.live is None:
            raise Close(CLOSE_NOT_FOUND, "not watchable")

    def counted(self) -> tuple[OpenCount[Any], Hashable]:
        return _watching, self.table_id

    async def serve(self) -> None:
        table_id, attendance, live = self.table_id, self.parts.attendance, self.live
        assert live is not None
        feed: StateFeed = self.ws.app.state.feed
        watch = feed.watch(table_id, None, self.lang)  # first: no step is missed
        key = f"{WATCHER}{new_id()}"
        arrived = False
        try:
            async with self.parts.hub.subscribe(table_id, steps=False) as sub:
                if not await may_watch(self.ws, table_id):  # changed before the subscription
                    raise Close(CLOSE_NOT_FOUND, "not watchable")
                live = await self.parts.tables.table(table_id) or live
                await attendance.watcher_arrived(table_id, key)
                arrived = True
                await self.ws.send_text(json.dumps(hello_message(live.seq, WATCHED_SEAT, False)))
                await self._send_state(live)
                await self.race(
                    lambda: self.read_nothing("watchers send nothing"),
                    lambda: self._follow(watch),
                    lambda: self._events(sub),
                )
        finally:
            feed.unwatch(watch)
            if arrived:
                attendance.watcher_left(table_id, key)

    async def _send_state(self, live: LiveTable) -> None:
        """The whole state of the table as it stands."""
        presence = self.parts.attendance.presence(live)
        message = seat_state(live, WATCHED_SEAT, self.lang, None, True, presence, watching=True).message
        await self.ws.send_text(json.dumps(message, separators=(",", ":"), ensure_ascii=False))
        self.sent = live.seq

    async def _follow(self, watch: Watch) -> None:
        """Send the watchers' step of each new step from the feed, in order, none twice; a
        step that does not follow the last one sent (the table was read back whole) has the
        whole state sent instead."""
        while True:
            seq, message = await watch.get()
            if watch.full:
                raise SlowConsumer
            if seq <= self.sent or message is None:
                continue
            if not follows(self.sent, seq, message):
                live = await self.parts.tables.table(self.table_id)
                if live is not None:
                    await self._send_state(live)
                continue
            await self.ws.send_text(encoded(message, compact=True))
            self.sent = seq

    async def _events(self, sub: Subscription) -> None:
        """Send the passing events a watcher sees, until the table may be watched no more
        (4404)."""
        parts, table_id, attendance = self.parts, self.table_id, self.parts.attendance
        while True:
            _, events = await sub.wait()
            if any(e.get("kind") == WATCHERS_CHANGED for e in events) and not await may_watch(self.ws, table_id):
                raise Close(CLOSE_NOT_FOUND, "not watchable")
            live = await parts.tables.table(table_id)
            if live is None:
                continue
            if any(e.get("kind") == "presence" for e in events):
                await attendance.refresh([table_id])
            presence = attendance.presence(live)
            for event in events:
                message = event_message(self.lang, live, WATCHED_SEAT, event, presence, attendance.watchers(table_id))
                if message is not None and message["type"] in ("presence", "say", "clock"):
                    await self.ws.send_text(json.dumps(message, ensure_ascii=False))


async def watch_socket(websocket: WebSocket) -> None:
    await WatchSocket(websocket).run()


routes: list[BaseRoute] = [
    Route("/table/{table_id}/regarder", watch_page),
    WebSocketRoute("/ws/watch/{table_id}", watch_socket),
]
