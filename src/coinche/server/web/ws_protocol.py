"""The WebSocket protocol ``coinche serve`` gives uvicorn: its ``websockets-sansio`` one,
answering the handshakes the websockets library refuses.

uvicorn's HTTP parser (h11) reads the upgrade request, then hands its bytes to the
websockets library, which parses them again with its own limits (a header line of at most
8 KB, 128 headers). When that parse fails, the library prepares an answer (431 Request
Header Fields Too Large, or the end of the connection) that uvicorn 0.54 never sends: the
client got nothing and the connection stayed open (a 10 KB ``Cookie`` was enough). Here
the answer is sent and the connection closed, as plain HTTP does.

A text frame that is not UTF-8 is the client's fault: uvicorn closes it with 1007 (right)
and logs an ERROR with a traceback (wrong: any client could fill the log). Here it is
closed the same way and counted in one ``RefusalLog`` for the process: one line a minute
at most, with the count, and no traceback. A message the application sends after the
protocol closed the connection (a state already on its way) is a send to a client that has
gone, as after any disconnection, not uvicorn's "unexpected message" error with its
traceback. And reading pauses only once ``READ_AHEAD`` messages wait (uvicorn pauses and
resumes it around every message: two system calls each). Several frames the application has
ready at once (``socket_base.TEXTS``) go to the connection in one write.
"""

from __future__ import annotations

import logging
from typing import Any

from uvicorn._types import ASGISendEvent
from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.http11 import Request

from ..infra.log_limits import RefusalLog
from .socket_base import CLOSE_NOT_UTF8, TEXTS, WRITE_NOW

READ_AHEAD = 16
"""Messages of one client read before the application takes them: then the connection is
read no further until it has (a client that floods waits on its own socket, as before)."""

log = logging.getLogger("coinche.socket")

_refusals = RefusalLog(log, "websocket")
"""The refusals of every connection of this process (a client may open many)."""


class AnsweringWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sansio WebSocket protocol, plus the answer to a refused handshake."""

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.handshake_initiated or self.conn.handshake_exc is None or self.transport.is_closing():
            return
        # The request was refused before uvicorn saw it: no application runs for it.
        self.handshake_complete = True
        self.close_sent = True
        self.transport.write(b"".join(self.conn.data_to_send()))
        self.transport.close()

    def send_receive_event_to_app(self) -> None:
        """Hand a whole message to the application, unless it is text that is not UTF-8:
        then close with 1007 and write at most one line (``_refusals``)."""
        if self.curr_msg_data_type == "text" and not self.close_sent:
            data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
            try:
                bytes(data).decode()
            except UnicodeDecodeError as e:
                self.frames = []
                client = f"{self.client[0]}:{self.client[1]}" if self.client else "?"
                _refusals.refused("not_utf8", f"a text frame that is not UTF-8 from {client}: {e.reason}")
                self.conn.send_close(CLOSE_NOT_UTF8)
                self.handle_parser_exception()
                return
            self.frames = [data]
        if not self.read_paused and self.queue.qsize() + 1 < READ_AHEAD:
            # uvicorn would pause reading now and resume it at the application's next
            # receive: two system calls for every message a client sends. Told reading is
            # paused, it does neither; it pauses once READ_AHEAD messages wait unread.
            self.read_paused = True
            try:
                super().send_receive_event_to_app()
            finally:
                self.read_paused = False
            return
        super().send_receive_event_to_app()

    def handle_connect(self, event: Request) -> None:
        """uvicorn's, and the connection's scope names ``TEXTS`` (its application has not
        run yet: it is a task that starts later)."""
        super().handle_connect(event)
        if not self.handshake_complete:  # (a refused handshake has no application)
            self.scope["extensions"][TEXTS] = {}
            self.scope["extensions"][WRITE_NOW] = {"write": self.write_now}

    async def send(self, message: ASGISendEvent) -> None:
        """Once the transport of an accepted connection is closing (this protocol closed it:
        a frame that is not UTF-8, a keepalive timeout, the peer's close), a message goes to
        a client that has gone (read as such, 1006, as once the transport is lost) and a
        close has nothing left to close; not uvicorn's "unexpected message" error."""
        if self.handshake_complete and self.transport.is_closing():
            if message["type"] == "websocket.send":
                raise ClientDisconnected()
            if message["type"] == "websocket.close":
                return
        texts: list[str] | None = message.get(TEXTS) if message["type"] == "websocket.send" else None  # type: ignore[assignment]
        if texts is not None:
            await self._send_texts(texts)
            return
        await super().send(message)

    def write_now(self, texts: list[str]) -> bool:
        """``WRITE_NOW``: the frames of ``texts`` in one write, done at once (True) when the
        connection is open and its client reads what it is sent (the transport takes more);
        else False and nothing written."""
        if not self.writable.is_set() or self.transport.is_closing() or not self._sends():
            return False
        try:
            self._write(texts)
        except InvalidState:
            return False
        return True

    async def _send_texts(self, texts: list[str]) -> None:
        """Several text frames in one write to the transport (``TEXTS``); where uvicorn
        would refuse a send, each goes through its ``send`` and meets the same answer."""
        await self.writable.wait()
        if not self._sends():
            for text in texts:
                message: Any = {"type": "websocket.send", "text": text}
                await super().send(message)
            return
        try:
            self._write(texts)
        except InvalidState:
            raise ClientDisconnected() from None

    def _sends(self) -> bool:
        """Whether uvicorn would send a message now (an accepted connection, not closed)."""
        return not (
            self.disconnected or not self.handshake_complete or self.close_sent or self.initial_response is not None
        )

    def _write(self, texts: list[str]) -> None:
        """The frames of ``texts`` in one write to the transport (``InvalidState``: the
        connection is not open)."""
        for text in texts:
            self.conn.send_text(text.encode())
        self.transport.write(b"".join(self.conn.data_to_send()))
