"""What every WebSocket of the site shares (docs/protocol.md, "Limits and closing").

The close codes are named here once. ``Socket.run`` takes a connection from the handshake
to its close: the origin check (another site's page is refused the handshake, 4403), the
socket's own admission (``admit``: refused by accepting the handshake, then closing with
the code, which a page's script can read, unlike a refused handshake), the count of open
connections (1013 past its limit), the drain (a connection that comes in while the server
drains closes with 4012: connect again, another process answers) and the close that the
socket's parts asked for. ``race`` runs the parts of a connection together (reading the
client, waiting on the hub, sending): the first to end, for whatever reason, ends the
others. A socket is a subclass that says who may open it, under which count, and what it
sends and accepts (``serve``).
"""

from __future__ import annotations

import contextlib
import logging
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Awaitable, Callable, Hashable, Iterator
from typing import Any, ClassVar, Final, Generic, TypeVar

import anyio
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from ..live.parts import TableParts
from .drain import drain_of, restarting_frame
from .pages import parts_of
from .security import origin_allowed

log = logging.getLogger("coinche.socket")

CLOSE_NOT_UTF8: Final = 1007
"""A text frame that is not UTF-8 (closed by the protocol, ``ws_protocol``)."""
CLOSE_POLICY: Final = 1008
"""The client broke the socket's rules: a message to a socket that takes none, or too many
messages left unread."""
CLOSE_TOO_BIG: Final = 1009
"""A frame over the socket's limit."""
CLOSE_FAULT: Final = 1011
"""A fault of the server (no text: the log has it)."""
CLOSE_TRY_LATER: Final = 1013
"""Too many connections open: the client tries again later."""
CLOSE_RESTARTING: Final = 4012
"""The server restarts (it drains): connect again at once, another process answers. 1012,
its WebSocket twin, is what uvicorn sends to what is still open at the shutdown."""
CLOSE_ORIGIN: Final = 4403
"""The handshake came from another site's page: refused before it is accepted."""
CLOSE_NOT_FOUND: Final = 4404
"""Nothing here for this visitor (no seat at the table, a table not to be watched, nobody
signed in): the client stops trying."""

TEXTS: Final = "coinche.texts"
"""An ASGI extension of ``coinche serve``'s WebSocket protocol (``ws_protocol``): a
``websocket.send`` message with the texts of several frames under this key, written to the
connection at once. Named in the connection's ``scope["extensions"]`` when the server has it."""

WRITE_NOW: Final = "coinche.write_now"
"""An ASGI extension of the same protocol: under this key, ``{"write": f}``, ``f`` a
function that writes the frames of some texts to the connection at once, without waiting
(True), or says it cannot now (False: the connection is not open, or its client reads too
slowly to take more)."""


class Close(Exception):
    """End the connection with ``code`` and ``reason`` (raised by ``admit`` to refuse it, or
    by any of its parts)."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


class SlowConsumer(Close):
    """The client leaves too many messages unread."""

    def __init__(self) -> None:
        super().__init__(CLOSE_POLICY, "too many unread messages")


K = TypeVar("K", bound=Hashable)


class OpenCount(Generic[K]):
    """The connections of one kind open in this process, per key (a player, a table...),
    bounded per key and, when ``total`` is given, in all."""

    def __init__(self, per_key: int | None, total: int | None = None, counts: Counter[K] | None = None) -> None:
        self.per_key = per_key
        self.total = total
        self.counts: Counter[K] = Counter() if counts is None else counts
        """Open connections per key (a counter another object may hold too)."""
        self.open = 0

    def full(self, key: K) -> bool:
        """Whether one more connection under ``key`` is one too many."""
        return (self.per_key is not None and self.counts[key] >= self.per_key) or (
            self.total is not None and self.open >= self.total
        )

    @contextlib.contextmanager
    def held(self, key: K) -> Iterator[None]:
        """Count one connection under ``key`` while the block runs."""
        self.counts[key] += 1
        self.open += 1
        try:
            yield
        finally:
            self.open -= 1
            self.counts[key] -= 1
            if self.counts[key] <= 0:
                del self.counts[key]


async def refuse(websocket: WebSocket, code: int, reason: str) -> None:
    """Accept the handshake, then close with ``code`` (a page's script reads the code of a
    connection that opened, while a refused handshake, an HTTP 403, is only a failure to it,
    which it would retry)."""
    with contextlib.suppress(Exception):  # the client may be gone already
        await websocket.accept()
        await websocket.close(code=code, reason=reason)


class Socket(ABC):
    """One connection of one kind of socket (see the module)."""

    busy: ClassVar[str] = "too many connections"
    """The reason of the close past the count's limit (1013)."""
    restarts: ClassVar[bool] = False
    """The socket's protocol has ``{"type": "restarting"}``: the drain tells the connection
    (``restart``) instead of leaving it to the shutdown's 1012, and a connection that comes
    in while the server drains gets that message before its close."""

    def __init__(self, websocket: WebSocket) -> None:
        self.ws = websocket
        self.parts: TableParts = parts_of(websocket)
        self.closing: tuple[int, str] | None = None
        """How the socket is to be closed once it is served (None: it closed itself)."""
        self.scope: anyio.CancelScope | None = None
        """The cancel scope of the parts that ``race`` runs, once they run."""

    @property
    def name(self) -> str:
        """Who the connection is, in the log's lines."""
        return type(self).__name__

    async def admit(self) -> None:
        """Raise ``Close`` to refuse the connection (before the count); any is admitted here."""
        return

    @abstractmethod
    def counted(self) -> tuple[OpenCount[Any], Hashable]:
        """The count the connection is held in while it is open, and its key there."""

    @abstractmethod
    async def serve(self) -> None:
        """What the socket sends and accepts, from the accepted handshake to its end (raise
        ``Close`` to close it with a code)."""

    async def run(self) -> None:
        """The connection from its handshake to its close (see the module)."""
        ws = self.ws
        if not origin_allowed(ws, self.parts.settings.allowed_origins):
            await ws.close(code=CLOSE_ORIGIN)  # before the handshake: nothing opened for another site
            return
        try:
            await self.admit()
            count, key = self.counted()
            if count.full(key):
                raise Close(CLOSE_TRY_LATER, self.busy)
        except Close as e:
            await refuse(ws, e.code, e.reason)
            return
        drain = drain_of(ws.app)
        with count.held(key):  # counted before the handshake's wait: parallel ones see it
            try:
                await ws.accept()
                if drain is not None and drain.draining:  # came in as the server stops: go elsewhere
                    if self.restarts:
                        await ws.send_text(restarting_frame())
                    raise Close(CLOSE_RESTARTING, "restarting")
                if drain is not None and self.restarts:
                    drain.opened(self)
                try:
                    await self.serve()
                finally:
                    if drain is not None and self.restarts:
                        drain.closed(self)
            except Close as e:
                self.closing = (e.code, e.reason)
            except WebSocketDisconnect:
                pass
            if self.closing is not None:
                await self.close(*self.closing)

    def restart(self) -> None:
        """The server drains (``restarts`` sockets only): close now (4012)."""
        self.closing = (CLOSE_RESTARTING, "restarting")
        if self.scope is not None:
            self.scope.cancel()

    async def close(self, code: int, reason: str) -> None:
        """Close the socket, unless it is closed already."""
        if self.ws.application_state is WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await self.ws.close(code=code, reason=reason)

    async def race(self, *parts: Callable[[], Awaitable[None]]) -> None:
        """Run the connection's ``parts`` together; when one ends, for whatever reason, the
        others end too, and ``closing`` says how to close the socket (a fault: 1011)."""
        async with anyio.create_task_group() as group:
            self.scope = group.cancel_scope
            for part in parts:
                group.start_soon(self._guard, part, group.cancel_scope)

    async def _guard(self, part: Callable[[], Awaitable[None]], scope: anyio.CancelScope) -> None:
        try:
            await part()
        except SlowConsumer as e:
            log.warning("%s: closed, too many unread messages", self.name)
            self.closing = (e.code, e.reason)
        except Close as e:
            self.closing = (e.code, e.reason)
        except WebSocketDisconnect:
            pass
        except Exception:
            log.exception("%s: the connection failed", self.name)
            self.closing = (CLOSE_FAULT, "")
        finally:
            scope.cancel()

    async def send_texts(self, texts: list[str]) -> None:
        """Send ``texts``, a text frame each, in order: the frames in one write to the
        connection (one system call, not one a frame) when the server's protocol takes them
        together (``TEXTS``), else one message each."""
        if len(texts) > 1 and TEXTS in self.ws.scope.get("extensions", {}):
            await self.ws.send({"type": "websocket.send", TEXTS: texts})
            return
        for text in texts:
            await self.ws.send_text(text)

    def write_now(self, texts: list[str]) -> bool:
        """Write ``texts``' frames to the connection at once, from any code on the event
        loop, without a task's wait (``WRITE_NOW``); False when that cannot be done now:
        the caller sends them the usual way (``send_texts``), in their order."""
        write = self.ws.scope.get("extensions", {}).get(WRITE_NOW, {}).get("write")
        return write is not None and self.ws.application_state is WebSocketState.CONNECTED and bool(write(texts))

    async def read_nothing(self, reason: str) -> None:
        """The reader of a socket whose client sends nothing but its close: it ends at the
        close, and any message closes the socket (1008, ``reason``)."""
        if (await self.ws.receive())["type"] != "websocket.disconnect":
            raise Close(CLOSE_POLICY, reason)
