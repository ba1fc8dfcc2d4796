"""Watching a public table (issue 29): ``/table/{id}/regarder`` is the table's page for a
watcher, ``/ws/watch/{id}`` its socket. A watcher sees what a fifth person at the table
would see, from south's chair: the calls, the cards played, the melds shown, the score;
never a card in a hand (``Game.view(watching=True)``), and nothing a seat alone learns.
The socket sends a whole state at each step (``seat_state(watching=True)``) and the
table's passing events (who came, quick messages, the clock); it takes no request.

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

import asyncio
import contextlib
import json
from collections.abc import Sequence
from typing import Final

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..features.open_tables import WATCHERS_CHANGED, OpenTables
from ..infra.store import new_id
from ..live.presence import WATCHER
from ..table import i18n
from ..table.kinds import TournamentTable
from ..table.live_table import LiveTable
from . import rules_pages
from .drain import CLOSE_RESTARTING, drain_of
from .pages import lang_of, page, service_of
from .protocol import event_message, hello_message
from .seat_state import seat_state
from .security import origin_allowed
from .table_socket import CLOSE_NOT_SEATED, CLOSE_ORIGIN, CLOSE_POLICY, CLOSE_TRY_LATER, _refuse

WATCHED_SEAT: Final = 0
"""The chair a watcher sees the table from (south)."""
MAX_WATCHERS: Final = 5000
"""Watching connections one process serves."""
MAX_PER_TABLE: Final = 200
"""Watching connections of one table in one process."""

_watching: dict[str, int] = {}


async def may_watch(request: Request | WebSocket, table_id: str) -> bool:
    """Whether ``table_id`` may be watched now: a listed open table its players leave open
    to watchers, or a table of a public tournament's round once every table of the round
    has played it (``Tournaments.may_watch``: the same for everyone)."""
    open_tables: OpenTables = request.app.state.open_tables
    listed = await open_tables.get(table_id)
    if listed is not None:
        return listed.watchable
    live = await service_of(request).table(table_id)
    kind = live.spec.kind if live is not None else None
    if not isinstance(kind, TournamentTable):
        return False
    allowed: bool = await request.app.state.tournaments.may_watch(kind.tournament, kind.round)
    return allowed


async def watch_page(request: Request) -> Response:
    table_id = request.path_params["table_id"]
    live = await service_of(request).table(table_id, fresh=True)
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


def _state(live: LiveTable, lang: str, presence: Sequence[str]) -> str:
    message = seat_state(live, WATCHED_SEAT, lang, None, True, presence, watching=True).message
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


async def watch_socket(websocket: WebSocket) -> None:
    service = service_of(websocket)
    if not origin_allowed(websocket, service.settings.allowed_origins):
        await websocket.close(code=CLOSE_ORIGIN)
        return
    table_id = websocket.path_params["table_id"]
    if not await may_watch(websocket, table_id) or (live := await service.table(table_id, fresh=True)) is None:
        await _refuse(websocket, CLOSE_NOT_SEATED, "not watchable")
        return
    if sum(_watching.values()) >= MAX_WATCHERS or _watching.get(table_id, 0) >= MAX_PER_TABLE:
        await _refuse(websocket, CLOSE_TRY_LATER, "too many watchers")
        return
    _watching[table_id] = _watching.get(table_id, 0) + 1
    key = f"{WATCHER}{new_id()}"
    attendance = service.attendance
    arrived = False
    try:
        await websocket.accept()
        drain = drain_of(websocket.app)
        if drain is not None and drain.draining:
            await websocket.close(code=CLOSE_RESTARTING, reason="restarting")
            return
        lang = lang_of(websocket)
        async with service.hub.subscribe(table_id) as sub:
            if not await may_watch(websocket, table_id):  # changed before the subscription
                await websocket.close(code=CLOSE_NOT_SEATED, reason="not watchable")
                return
            await attendance.watcher_arrived(table_id, key)
            arrived = True
            await websocket.send_text(json.dumps(hello_message(live.seq, WATCHED_SEAT, False)))
            await websocket.send_text(_state(live, lang, attendance.presence(live)))
            sent = live.seq
            reader = asyncio.ensure_future(websocket.receive())
            try:
                while True:
                    told = asyncio.ensure_future(sub.wait())
                    done, _ = await asyncio.wait({reader, told}, return_when=asyncio.FIRST_COMPLETED)
                    if reader in done:
                        told.cancel()
                        if reader.result()["type"] != "websocket.disconnect":
                            await websocket.close(code=CLOSE_POLICY, reason="watchers send nothing")
                        return
                    seq, events = told.result()
                    changed = any(e.get("kind") == WATCHERS_CHANGED for e in events)
                    if changed and not await may_watch(websocket, table_id):
                        await websocket.close(code=CLOSE_NOT_SEATED, reason="not watchable")
                        return
                    live = await service.table(table_id, at_least=seq) or live
                    if live.seq > sent:
                        await websocket.send_text(_state(live, lang, attendance.presence(live)))
                        sent = live.seq
                    if any(e.get("kind") == "presence" for e in events):
                        await attendance.refresh([table_id])
                    presence = attendance.presence(live)
                    for event in events:
                        message = event_message(
                            lang, live, WATCHED_SEAT, event, presence, attendance.watchers(table_id)
                        )
                        if message is not None and message["type"] in ("presence", "say", "clock"):
                            await websocket.send_text(json.dumps(message, ensure_ascii=False))
            finally:
                reader.cancel()
                with contextlib.suppress(BaseException):
                    await reader
    except WebSocketDisconnect:
        pass
    finally:
        if arrived:
            attendance.watcher_left(table_id, key)
        _watching[table_id] -= 1
        if _watching[table_id] <= 0:
            del _watching[table_id]


routes: list[BaseRoute] = [
    Route("/table/{table_id}/regarder", watch_page),
    WebSocketRoute("/ws/watch/{table_id}", watch_socket),
]
