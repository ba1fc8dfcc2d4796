"""Open tables' pages: the list (``/tables-ouvertes``, ``/open-tables``), kept live by a
socket that only says "changed" (``/ws/open-tables``: the page then reloads the list's
HTML from ``?part=list``, rendered here once for both), and the host's switch that opens
their table to everyone or closes it (``POST /table/{id}/ouverte``).

Each listed table offers its free seat in one click: a form to the invitation's own
``POST /rejoindre/{code}`` with the first free seat (a signed-in player sits under their
account's name; a guest gets the invitation page, to give a name).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket

from ...engine.rules import PROFILES
from ..features.open_tables import LIST_CHANNEL, OpenTable, OpenTables
from ..table.live_table import TableError
from .change_socket import serve_changes
from .pages import ADDRESSES, account_of, page, player_in_session, read_checked_form


def open_tables_of(request: Request | WebSocket) -> OpenTables:
    found: OpenTables = request.app.state.open_tables
    return found


def _first_free(table: OpenTable) -> int | None:
    return next((i for i, s in enumerate(table.seats) if s["kind"] == "bot"), None)


async def list_page(request: Request) -> Response:
    lang = "en" if request.url.path == ADDRESSES["en"]["open_tables"] else "fr"
    other_url = ADDRESSES["fr" if lang == "en" else "en"]["open_tables"]
    profile = request.query_params.get("regles") or None
    if profile is not None and profile not in PROFILES:
        raise HTTPException(400)
    tables, total = await open_tables_of(request).listing(profile)
    moment = request.app.state.settings.clock()
    rows = [(t, t.waited(moment), _first_free(t)) for t in tables]
    context: dict[str, Any] = {
        "rows": rows,
        "total": total,
        "profile": profile,
        "profiles": tuple(PROFILES),
        "signed_in": account_of(request) is not None,
        "playing": await open_tables_of(request).playing(),
    }
    if request.query_params.get("part") == "list":
        return page(request, "_open_tables_list.html", lang=lang, **context)
    return page(request, "open_tables.html", lang=lang, other_url=other_url, **context)


Switch = Callable[[OpenTables, str, str, bool], Awaitable[None]]
"""One of ``OpenTables``' switches: (the table, the player, on or off)."""


async def _switch(request: Request, field: str, player: str | None, change: Switch) -> Response:
    """A form of one box ``field`` (``on``/``off``) that ``change`` applies; back to the
    table (404 for a table that is not there, 403 for a player who may not)."""
    if player is None:
        raise HTTPException(403)
    form = await read_checked_form(request)
    value = form.get(field)
    if value not in ("on", "off") or len(form.multi_items()) != 2:
        raise HTTPException(400)
    table_id = request.path_params["table_id"]
    try:
        await change(open_tables_of(request), table_id, player, value == "on")
    except TableError as e:
        raise HTTPException(404 if e.code == "gone" else 403) from None
    return RedirectResponse(f"/table/{table_id}", status_code=303)


async def host_switch(request: Request) -> Response:
    """The host opens their table to everyone (``public=on``) or closes it (``off``)."""
    account = account_of(request)
    return await _switch(request, "public", account.player if account else None, OpenTables.set_public)


async def bots_switch(request: Request) -> Response:
    """The host of a public table lets bots take its free seats (``bots=on``) or not."""
    account = account_of(request)
    return await _switch(request, "bots", account.player if account else None, OpenTables.set_bots)


async def watchers_switch(request: Request) -> Response:
    """A player of a public table opens it to watchers (``watchable=on``) or closes it."""
    account = account_of(request)
    player = account.player if account is not None else player_in_session(request)
    return await _switch(request, "watchable", player, OpenTables.set_watchable)


async def list_socket(websocket: WebSocket) -> None:
    """``/ws/open-tables``: ``{"type": "changed"}`` when the list may have changed."""
    await serve_changes(websocket, LIST_CHANNEL)


routes: list[BaseRoute] = [
    Route(ADDRESSES["fr"]["open_tables"], list_page),
    Route(ADDRESSES["en"]["open_tables"], list_page),
    Route("/table/{table_id}/ouverte", host_switch, methods=["POST"]),
    Route("/table/{table_id}/spectateurs", watchers_switch, methods=["POST"]),
    Route("/table/{table_id}/robots", bots_switch, methods=["POST"]),
    WebSocketRoute("/ws/open-tables", list_socket),
]
