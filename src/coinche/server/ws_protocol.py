"""The WebSocket protocol ``coinche serve`` gives uvicorn: its ``websockets-sansio`` one,
answering the handshakes the websockets library refuses.

uvicorn's HTTP parser (h11) reads the upgrade request, then hands its bytes to the
websockets library, which parses them again with its own limits (a header line of at most
8 KB, 128 headers). When that parse fails, the library prepares an answer (431 Request
Header Fields Too Large, or the end of the connection) that uvicorn 0.54 never sends: the
client got nothing and the connection stayed open (a 10 KB ``Cookie`` was enough). Here
the answer is sent and the connection closed, as plain HTTP does.
"""

from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol


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
