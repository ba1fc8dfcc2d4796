"""A socket that only says "changed" (``{"type": "changed"}``) when a hub channel is
signalled, at most once every ``PUSH_EVERY`` seconds: the page then fetches its live part's
HTML again from the server, which renders it (``live_part.js``). The open tables' list and
a tournament's standings are kept live this way; the client sends nothing but its close."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Final

from starlette.websockets import WebSocket, WebSocketDisconnect

from .pages import service_of
from .security import origin_allowed
from .table_socket import CLOSE_ORIGIN, CLOSE_POLICY, CLOSE_TRY_LATER, _refuse

PUSH_EVERY: Final = 1.0
"""A socket says "changed" at most this often (changes in between are one)."""
MAX_SOCKETS: Final = 4000
"""Change sockets one process serves."""

_open = 0


async def serve_changes(websocket: WebSocket, channel: str) -> None:
    """Tell ``websocket`` each change of ``channel`` until it closes."""
    global _open
    service = service_of(websocket)
    if not origin_allowed(websocket, service.settings.allowed_origins):
        await websocket.close(code=CLOSE_ORIGIN)
        return
    if _open >= MAX_SOCKETS:
        await _refuse(websocket, CLOSE_TRY_LATER, "too many watchers")
        return
    _open += 1
    try:
        await websocket.accept()
        async with service.hub.subscribe(channel, steps=False) as sub:
            reader = asyncio.ensure_future(websocket.receive())
            try:
                while True:
                    told = asyncio.ensure_future(sub.wait())
                    done, _ = await asyncio.wait({reader, told}, return_when=asyncio.FIRST_COMPLETED)
                    if reader in done:
                        told.cancel()
                        if reader.result()["type"] != "websocket.disconnect":
                            await websocket.close(code=CLOSE_POLICY, reason="nothing to send")
                        return
                    await websocket.send_text('{"type":"changed"}')
                    await asyncio.sleep(PUSH_EVERY)
            finally:
                reader.cancel()
                with contextlib.suppress(BaseException):
                    await reader
    except WebSocketDisconnect:
        pass
    finally:
        _open -= 1
