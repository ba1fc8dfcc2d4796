"""``/ws/me``: a signed-in person's own socket, open on every page of the site: quick
play's seat found (``{"type": "quick", ...}``), the invitations waiting for them
(``{"type": "invitations", "list": [...]}``) and their table of a tournament's round under
way (``{"type": "tournament", "table": ...}``: the page takes them there), and, while it is open, the person is online
(``following.HEARTBEAT``).

What the person is told goes on the hub under their ``person_channel``; a message there only
says "look again": the socket then reads the person's state in the database and sends it,
so a message lost (a hub reconnecting) loses nothing: the state is read again at the time
it should change (a wait's end), at each heartbeat and at each connection. The client
never sends anything but its close; anything else closes the socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections import Counter
from typing import Any, Final

from starlette.websockets import WebSocket, WebSocketDisconnect

from ..features.following import HEARTBEAT, Following
from ..features.quick_play import QuickPlay, person_channel
from ..features.tournaments.runner import Tournaments
from ..infra.hub import Subscription
from .drain import CLOSE_RESTARTING, drain_of
from .pages import account_of, service_of
from .security import origin_allowed
from .table_socket import CLOSE_NOT_SEATED, CLOSE_ORIGIN, CLOSE_POLICY, CLOSE_TRY_LATER, _refuse

MAX_CONNECTIONS: Final = 16
"""Open person sockets per player (tabs), in one process."""

_open: Counter[str] = Counter()


async def quick_status(quick: QuickPlay, player: str) -> dict[str, Any]:
    """Where the person stands in quick play: waiting (and how long before computers take
    the free seats), seated at a table whose game goes on, or neither."""
    wait = await quick.status(player)
    message: dict[str, Any] = {"type": "quick", "waiting": False, "table": None, "seconds_left": None}
    if wait is None:
        return message
    if wait.table_id is not None:
        if await quick.playing(wait.table_id, player):
            message["table"] = f"/table/{wait.table_id}"
        return message
    message["waiting"] = True
    message["rules"] = wait.rules
    message["seconds_left"] = round(wait.seconds_left(quick.settings.clock()), 1)
    return message


async def tournament_message(tournaments: Tournaments, player: str) -> dict[str, Any]:
    """The table of a tournament's round under way where the person sits (None: none):
    their page takes them there."""
    table_id = await tournaments.person_table(player)
    return {"type": "tournament", "table": None if table_id is None else f"/table/{table_id}"}


async def invitations_message(following: Following, player: str) -> dict[str, Any]:
    found = await following.invitations(player)
    return {
        "type": "invitations",
        "list": [{"id": i.id, "from": i.from_name, "link": f"/rejoindre/{i.code}" if i.code else None} for i in found],
    }


async def person_socket(websocket: WebSocket) -> None:
    service = service_of(websocket)
    if not origin_allowed(websocket, service.settings.allowed_origins):
        await websocket.close(code=CLOSE_ORIGIN)
        return
    account = account_of(websocket)
    if account is None:
        await _refuse(websocket, CLOSE_NOT_SEATED, "not signed in")
        return
    player = account.player
    if _open[player] >= MAX_CONNECTIONS:
        await _refuse(websocket, CLOSE_TRY_LATER, "too many connections")
        return
    _open[player] += 1
    try:
        drain = drain_of(websocket.app)
        await websocket.accept()
        if drain is not None and drain.draining:
            await websocket.close(code=CLOSE_RESTARTING, reason="restarting")
            return
        async with service.hub.subscribe(person_channel(player), steps=False) as sub:
            await _serve(websocket, player, sub)
    except WebSocketDisconnect:
        pass
    finally:
        _open[player] -= 1
        if _open[player] <= 0:
            del _open[player]


async def _serve(websocket: WebSocket, player: str, sub: Subscription) -> None:
    quick: QuickPlay = websocket.app.state.quick_play
    following: Following = websocket.app.state.following
    tournaments: Tournaments = websocket.app.state.tournaments
    loop = asyncio.get_running_loop()
    reader = asyncio.ensure_future(websocket.receive())
    beat = 0.0
    sent: dict[str, str] = {}
    try:
        while True:
            if loop.time() >= beat:
                await following.seen(player)
                # each socket's own rhythm: sockets opened together (a tournament's
                # entrants, a page reloaded by many) do not all read the database at once
                beat = loop.time() + HEARTBEAT * random.uniform(0.75, 1.0)
            status = await quick_status(quick, player)
            messages = (
                status,
                await invitations_message(following, player),
                await tournament_message(tournaments, player),
            )
            for message in messages:
                text = json.dumps(message, separators=(",", ":"))
                if sent.get(message["type"]) != text or message["type"] == "quick":
                    await websocket.send_text(text)
                    sent[message["type"]] = text
            pause = max(0.0, beat - loop.time())
            if status["waiting"]:  # the wave that seats them is due then
                pause = min(pause, status["seconds_left"] + 2 * quick.settings.quick_wave_seconds)
            told = asyncio.ensure_future(sub.wait())
            done, _ = await asyncio.wait({reader, told}, timeout=pause, return_when=asyncio.FIRST_COMPLETED)
            if not told.done():
                told.cancel()
            if reader in done:
                received = reader.result()
                if received["type"] != "websocket.disconnect":
                    await websocket.close(code=CLOSE_POLICY, reason="nothing to send")
                return
    finally:
        reader.cancel()
        with contextlib.suppress(BaseException):
            await reader
