"""A socket that only says "changed" (``{"type": "changed"}``) when a hub channel is
signalled, at most once every ``PUSH_EVERY`` seconds: the page then fetches its live part's
HTML again from the server, which renders it (``live_part.js``). The open tables' list and
a tournament's standings are kept live this way; the client sends nothing but its close."""

from __future__ import annotations

import asyncio
from collections.abc import Hashable
from typing import Any, Final

from starlette.websockets import WebSocket

from .socket_base import OpenCount, Socket

PUSH_EVERY: Final = 1.0
"""A socket says "changed" at most this often (changes in between are one)."""
MAX_SOCKETS: Final = 4000
"""Change sockets one process serves."""

_open: OpenCount[str] = OpenCount(None, MAX_SOCKETS)


class ChangeSocket(Socket):
    """Tells its client each change of one hub channel."""

    busy = "too many watchers"

    def __init__(self, websocket: WebSocket, channel: str) -> None:
        super().__init__(websocket)
        self.channel = channel

    def counted(self) -> tuple[OpenCount[Any], Hashable]:
        return _open, self.channel

    async def serve(self) -> None:
        async with self.parts.hub.subscribe(self.channel, steps=False) as sub:

            async def tell() -> None:
                while True:
                    await sub.wait()
                    await self.ws.send_text('{"type":"changed"}')
                    await asyncio.sleep(PUSH_EVERY)

            await self.race(lambda: self.read_nothing("nothing to send"), tell)


async def serve_changes(websocket: WebSocket, channel: str) -> None:
    """Tell ``websocket`` each change of ``channel`` until it closes."""
    await ChangeSocket(websocket, channel).run()
