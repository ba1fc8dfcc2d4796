"""The hub between processes: PostgreSQL ``LISTEN/NOTIFY`` on one channel.

Every server process listens on ``coinche_tables``; a publish is one ``NOTIFY`` whose
payload holds the table id and its seq (never the step: readers read the log), or a
passing event. PostgreSQL delivers a notification to every listening session, at commit,
in order, and at most once: a process that was disconnected misses some, so after a new
connection each table subscribed here is told its newest seq, read from the log (nothing
waits for a notification that will not come).

This process's own subscribers are told at once, without waiting for the round trip; the
echo of its own notifications is recognised by the process's token and dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import secrets
from typing import Any

import psycopg
from sqlalchemy.engine import make_url

from .hub import Event, Hub

log = logging.getLogger("coinche.hub")

CHANNEL = "coinche_tables"
MAX_PAYLOAD = 7900
"""PostgreSQL refuses a payload of 8,000 bytes or more; a bigger passing event is dropped
(a quick message is far smaller)."""
LISTENER = "coinche-hub"
"""The listening connections' ``application_name`` (seen in ``pg_stat_activity``)."""
RECONNECT_WAIT = (0.2, 5.0)
"""The first and the longest pause before connecting again after a fault."""


def libpq_url(url: str) -> str:
    """The libpq form of an SQLAlchemy URL (``postgresql+psycopg://`` -> ``postgresql://``)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class PostgresHub(Hub):
    """Subscriptions of this process, and the other processes' publishes through PostgreSQL."""

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = libpq_url(url)
        self.token = secrets.token_hex(6)
        """This process's mark in its payloads (its own echoes are dropped)."""
        self._publisher: psycopg.AsyncConnection[Any] | None = None
        self._outbox: list[tuple[str, asyncio.Future[None]]] = []
        """Payloads waiting for the next send, each with the future its sender awaits."""
        self._sending: asyncio.Task[None] | None = None
        """The one task sending the outbox (started by the first payload that finds none)."""
        self._sent = itertools.count()
        """Numbers each payload: PostgreSQL delivers identical payloads of one transaction
        once, and two equal events sent in one batch are two events."""
        self._closed = False
        self._listener: asyncio.Task[None] | None = None
        self.connected = False
        """Whether the listening connection is up (readiness)."""

    async def start(self) -> None:
        """Connect and listen (returns once listening, so that no publish after it is missed)."""
        ready = asyncio.Event()
        self._listener = asyncio.get_running_loop().create_task(self._listen(ready))
        await asyncio.wait_for(ready.wait(), timeout=30)

    async def _listen(self, ready: asyncio.Event) -> None:
        wait = RECONNECT_WAIT[0]
        first = True
        while True:
            try:
                listener = psycopg.AsyncConnection.connect(self.url, autocommit=True, application_name=LISTENER)
                async with await listener as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.connected = True
                    ready.set()
                    wait = RECONNECT_WAIT[0]
                    if not first:  # what was said while away is lost: read the logs
                        await self._catch_up_all(conn)
                    first = False
                    async for note in conn.notifies():
                        self._heard(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("hub: the listening connection failed (%s); again in %.1f s", e, wait)
            self.connected = False
            await asyncio.sleep(wait)
            wait = min(RECONNECT_WAIT[1], wait * 2)

    def _heard(self, payload: str) -> None:
        try:
            data = json.loads(payload)
            if data.get("p") == self.token:
                return  # our own, delivered here already
            table_id = data["t"]
            if not isinstance(table_id, str):
                return
            if "e" in data:
                if isinstance(data["e"], dict):
                    self.deliver_event_here(table_id, data["e"])
            elif isinstance(data.get("s"), int):
                self.deliver_here(table_id, data["s"])
        except (ValueError, KeyError, TypeError, AttributeError):
            log.warning("hub: a notification that is not ours: %.80r", payload)

    async def _catch_up_all(self, conn: psycopg.AsyncConnection[Any]) -> None:
        with self._lock:
            tables = list(self._subscribers)
        if not tables:
            return
        cursor = await conn.execute(
            "SELECT table_id, max(seq) FROM actions WHERE table_id = ANY(%s) GROUP BY table_id", (tables,)
        )
        for table_id, top in await cursor.fetchall():
            self.deliver_here(table_id, int(top) + 1)

    async def _notify(self, payload: dict[str, Any]) -> None:
        """Send ``payload`` to the other processes; returns once it is sent. The payloads
        that come while a send is under way go together in the next one (one round trip
        for all of them, in order): under load a move does not wait for every move
        before it to make a round trip of its own."""
        assert self._listener is not None, "start() the hub first"
        if self._closed:  # the process is stopping: the others read the log at their next catch-up
            return
        text = json.dumps({**payload, "n": next(self._sent)}, separators=(",", ":"))
        if len(text.encode()) > MAX_PAYLOAD:
            log.warning("hub: an event of %d bytes is too big to send; dropped", len(text))
            return
        sent: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._outbox.append((text, sent))
        if self._sending is None or self._sending.done():
            self._sending = asyncio.get_running_loop().create_task(self._send_all())
        await asyncio.shield(sent)

    async def _send_all(self) -> None:
        """Send what the outbox holds, a batch a round trip, until it is empty (the only
        task that sends: one round trip at a time on the one connection)."""
        while self._outbox:
            batch, self._outbox = self._outbox, []
            try:
                await self._send([text for text, _ in batch])
            except Exception:  # the steps are stored: the others read them at their next catch-up
                log.exception("hub: could not notify the other processes")
            finally:  # nobody waits for ever, even when the loop closes
                for _, sent in batch:
                    if not sent.done():
                        sent.set_result(None)

    async def _send(self, payloads: list[str]) -> None:
        for attempt in range(2):
            try:
                if self._publisher is None or self._publisher.closed:
                    self._publisher = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
                await self._publisher.execute(
                    "SELECT pg_notify(%s, p) FROM unnest(%s::text[]) WITH ORDINALITY AS n(p, i) ORDER BY i",
                    (CHANNEL, payloads),
                )
                return
            except psycopg.OperationalError as e:
                self._publisher = None
                if attempt:
                    # The steps are stored: the others read them at their next catch-up.
                    log.warning("hub: could not notify the other processes (%s)", e)

    async def publish(self, table_id: str, seq: int) -> None:
        self.deliver_here(table_id, seq)
        await self._notify({"t": table_id, "s": seq, "p": self.token})

    async def signal(self, table_id: str, event: Event) -> None:
        self.deliver_event_here(table_id, event)
        await self._notify({"t": table_id, "e": event, "p": self.token})

    async def close(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._listener
        self._closed = True
        if self._sending is not None:  # what was published is sent before the connection closes
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._sending, timeout=5)
        for _, sent in self._outbox:  # not sent in time: nobody waits for them any more
            if not sent.done():
                sent.set_result(None)
        self._outbox.clear()
        if self._publisher is not None:
            with contextlib.suppress(Exception):
                await self._publisher.close()
