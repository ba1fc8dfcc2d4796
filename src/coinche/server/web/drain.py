"""Restarts nobody notices: the health endpoints a proxy asks, and the drain of SIGTERM.

``/healthz`` says the process runs its event loop; ``/readyz`` says it can serve (its
database answers, and it is not draining). Both are answered by ``HealthMiddleware``
before the session and account middlewares: no cookie, no database read of a visitor,
nothing a proxy's probe every second would make costly.

On SIGTERM, ``DrainingServer`` (uvicorn's server) first drains: it stops answering ready,
closes its listening sockets, tells every open table WebSocket that the server restarts
(``{"type": "restarting"}``, then close code 4012), and only then lets uvicorn shut down
as usual (in-flight requests finish, the application's lifespan ends), all within
``DRAIN_SECONDS``. Every step is stored before it is sent, so a client that connects
again (through the proxy, to another process) with ``since`` misses nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import os
import signal
import threading
import time
from types import FrameType
from typing import Any, Final, Protocol

import uvicorn
from starlette.types import ASGIApp, Receive, Scope, Send

from ..infra.process_logs import log_config
from ..live.parts import TableParts

log = logging.getLogger("coinche.drain")

GC_YOUNG_THRESHOLD: Final = 20_000
"""Allocations between two collections of the youngest generation (Python's default: 700).
A full collection walks every object the process holds (all its live tables): 60 to 190 ms
with 200 tables, a pause of every request and of the database threads (it holds the GIL).
At the default, one came every few seconds under load; with this, every few minutes."""

DRAIN_SECONDS: Final = 10.0
"""The most a SIGTERM takes from the signal to the end of the process."""
SOCKETS_SECONDS: Final = 3.0
"""Of which the table sockets get at most this to say goodbye and close."""
READY_CHECK_SECONDS: Final = 2.0
"""A database that does not answer ``/readyz`` within this is not ready."""


class Restartable(Protocol):
    """An open table socket, as the drain sees it."""

    def restart(self) -> None:
        """Tell the client the server restarts, then close (4012, ``socket_base``)."""


class Drain:
    """The process's draining state and its open table sockets (one per application)."""

    def __init__(self) -> None:
        self.draining = False
        self.sockets: set[Restartable] = set()
        self._emptied = asyncio.Event()

    def opened(self, socket: Restartable) -> None:
        self.sockets.add(socket)

    def closed(self, socket: Restartable) -> None:
        self.sockets.discard(socket)
        if not self.sockets:
            self._emptied.set()

    async def restart_sockets(self, timeout: float = SOCKETS_SECONDS) -> int:
        """Mark the process draining, tell every open table socket to reconnect, and wait
        (at most ``timeout``) until they have closed; how many there were."""
        self.draining = True
        sockets = list(self.sockets)
        if not sockets:
            return 0
        self._emptied.clear()
        for socket in sockets:
            try:
                socket.restart()
            except Exception:  # one socket's fault must not keep the others open
                log.exception("a table socket could not be told of the restart")
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                while self.sockets:
                    await self._emptied.wait()
                    self._emptied.clear()
        return len(sockets)


def drain_of(app: object) -> Drain | None:
    """The ``Drain`` of an application made by ``create_app`` (None for another)."""
    state = getattr(app, "state", None)
    drain = getattr(state, "drain", None)
    return drain if isinstance(drain, Drain) else None


# ----- /healthz, /readyz -----


class HealthMiddleware:
    """ASGI middleware: ``GET``/``HEAD`` ``/healthz`` and ``/readyz`` in plain text, before
    sessions and accounts (no cookie set or read); anything else passes on."""

    PATHS: Final = ("/healthz", "/readyz")

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._check: asyncio.Task[bool] | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] not in self.PATHS:
            await self.app(scope, receive, send)
            return
        if scope["method"] not in ("GET", "HEAD"):
            await _answer(send, scope, 405, "method not allowed\n", (("allow", "GET, HEAD"),))
            return
        if scope["path"] == "/healthz":
            await _answer(send, scope, 200, "ok\n")
            return
        status, text = await self.readiness(scope["app"])
        await _answer(send, scope, status, text)

    async def readiness(self, app: object) -> tuple[int, str]:
        drain = drain_of(app)
        if drain is not None and drain.draining:
            return 503, "draining\n"
        state = getattr(app, "state", None)
        parts = getattr(state, "parts", None)
        if not isinstance(parts, TableParts):
            return 503, "starting\n"
        if not await self._database_answers(parts):
            return 503, "database unavailable\n"
        return 200, "ready\n"

    async def _database_answers(self, parts: TableParts) -> bool:
        """Whether the database answers a trivial query on the database's threads;
        probes that come together share one query."""
        if self._check is None or self._check.done():
            self._check = asyncio.create_task(self._ask(parts))
        try:
            return await asyncio.shield(self._check)
        except asyncio.CancelledError:
            raise
        except Exception:
            return False

    @staticmethod
    async def _ask(parts: TableParts) -> bool:
        try:
            async with asyncio.timeout(READY_CHECK_SECONDS):
                await parts.db(parts.store.ping)
        except Exception as e:
            log.warning("readyz: the database does not answer: %s", type(e).__name__)
            return False
        return True


async def _answer(send: Send, scope: Scope, status: int, text: str, headers: tuple[tuple[str, str], ...] = ()) -> None:
    body = text.encode()
    raw = [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(body)).encode()),
        (b"cache-control", b"no-store"),
        *((k.encode(), v.encode()) for k, v in headers),
    ]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body})


# ----- SIGTERM -----


class DrainingServer(uvicorn.Server):
    """uvicorn's server, whose SIGTERM drains before the shutdown and ends with status 0
    (not with the signal again: the stop was asked for and went well). SIGINT (Ctrl+C)
    keeps uvicorn's own behaviour."""

    def __init__(self, config: uvicorn.Config, drain: Drain | None, limit: float = DRAIN_SECONDS) -> None:
        super().__init__(config)
        self.drain = drain
        self.limit = limit
        self.drain_asked = False
        self._draining: asyncio.Task[None] | None = None

    async def startup(self, sockets: list[Any] | None = None) -> None:  # (uvicorn's sockets)
        await super().startup(sockets)
        settle_memory()

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if sig != signal.SIGTERM:
            super().handle_exit(sig, frame)
            return
        # A second SIGTERM changes nothing: the drain is bounded already (Ctrl+C still
        # stops at once).
        self.drain_asked = True

    async def on_tick(self, counter: int) -> bool:
        if not self.drain_asked:
            return await super().on_tick(counter)
        if self._draining is None:
            self._draining = asyncio.create_task(self._drain())
        await super().on_tick(counter)
        return self._draining.done() or self.should_exit  # (should_exit: Ctrl+C, or given up)

    async def _drain(self) -> None:
        """Ready no more, no new connection, every table socket told to reconnect; the
        rest of the shutdown is uvicorn's, bounded by what is left of ``limit``."""
        started = time.monotonic()
        loop = asyncio.get_running_loop()
        loop.call_later(self.limit - 1, self._give_up)  # a second for what is left
        # The last resort, should the shutdown itself hang (a thread that never returns).
        watchdog = threading.Timer(self.limit, _hard_exit)
        watchdog.daemon = True  # a process that stops in time does not wait for it
        watchdog.start()
        if self.drain is not None:
            self.drain.draining = True
        for server in getattr(self, "servers", ()):
            server.close()  # new connections are refused: the proxy tries another process
        told = 0
        if self.drain is not None:
            told = await self.drain.restart_sockets(min(SOCKETS_SECONDS, self.limit / 3))
        left = max(1, int(self.limit - (time.monotonic() - started) - 2))
        self.config.timeout_graceful_shutdown = left
        log.info("SIGTERM: draining (%d table connection(s) told to reconnect), stopping within %d s", told, left)

    def _give_up(self) -> None:
        if not self.force_exit:
            log.error("the drain took more than %.0f s: stopping now", self.limit - 1)
            self.should_exit = self.force_exit = True


def serve(app: ASGIApp, name: str, json_lines: bool = False, **options: Any) -> None:
    """Run ``app`` under uvicorn (``options``: ``uvicorn.Config``'s) until SIGTERM drains
    it (or Ctrl+C stops it), every log line naming the process ``name`` (one JSON object a
    line with ``json_lines``)."""
    config = uvicorn.Config(app, log_config=log_config(name, json_lines), **options)
    DrainingServer(config, drain_of(app)).run()


def settle_memory() -> None:
    """Once the server has started: what it holds for its whole life (modules, the
    application, the rules' tables) leaves the garbage collector's walks (``gc.freeze``),
    and full collections come rarely (``GC_YOUNG_THRESHOLD``). A server's own cycles are
    few; its latency is what matters."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(GC_YOUNG_THRESHOLD, middle, old)


def _hard_exit() -> None:
    log.error("the server did not stop within the drain's limit: exiting")
    logging.shutdown()
    os._exit(1)


def restarting_frame() -> str:
    """The text frame that tells a table's client the server restarts."""
    return json.dumps({"type": "restarting"})
