"""``coinche serve``'s WebSocket protocol (``ws_protocol``) writes the frames an application
has ready at once (``socket_base.TEXTS``) in one write to the connection, in order, and
each frame as the client reads it alone."""

from __future__ import annotations

import asyncio
import base64
import os
from typing import Any

from uvicorn.config import Config
from uvicorn.server import ServerState

from coinche.server.web.socket_base import TEXTS
from coinche.server.web.ws_protocol import AnsweringWebSocketProtocol


class Transport(asyncio.Transport):
    """What the protocol writes, one entry a write."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[bytes] = []
        self.closing = False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.writes.append(bytes(data))

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return ("127.0.0.1", 8000) if name in ("peername", "sockname") else default

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


def text_frames(data: bytes) -> list[str]:
    """The unmasked text frames of a server's bytes (payloads under 126 bytes)."""
    frames = []
    while data:
        assert data[0] == 0x81 and data[1] < 126, data[:2]
        frames.append(data[2 : 2 + data[1]].decode())
        data = data[2 + data[1] :]
    return frames


def handshake() -> bytes:
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [
        "GET /ws/x HTTP/1.1",
        "Host: 127.0.0.1:8000",
        "Upgrade: websocket",
        "Connection: Upgrade",
        f"Sec-WebSocket-Key: {key}",
        "Sec-WebSocket-Version: 13",
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def test_frames_ready_together_are_one_write() -> None:
    seen: dict[str, Any] = {}

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen["extension"] = TEXTS in scope["extensions"]
        await receive()
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", TEXTS: ["one", "two", "three"]})
        await send({"type": "websocket.send", "text": "four"})

    async def run() -> list[bytes]:
        config = Config(app, ws=AnsweringWebSocketProtocol, lifespan="off", log_level="warning")
        config.load()
        protocol = AnsweringWebSocketProtocol(config, ServerState(), {})
        transport = Transport()
        protocol.connection_made(transport)
        protocol.data_received(handshake())
        async with asyncio.timeout(5):
            while not any(b"four" in write for write in transport.writes):
                await asyncio.sleep(0.01)
        return transport.writes

    writes = asyncio.run(run())
    assert seen["extension"]
    assert writes[0].startswith(b"HTTP/1.1 101")
    assert [text_frames(write) for write in writes[1:]] == [["one", "two", "three"], ["four"]]
