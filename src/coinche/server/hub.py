"""The hub: who is told that a table has a new step.

A table's truth is its log in the database; the hub only says "table T now has N steps"
(``publish``), and whoever is behind reads the log. So a hub may lose or merge
notifications without losing anything: a subscription keeps only the highest seq it was
told, and a reader that wakes up catches up from the log whatever it missed.

``LocalHub`` serves the processes that share its object (one server process, or the tests'
two table services); a hub between processes (PostgreSQL LISTEN/NOTIFY) is another
subclass that sends ``publish`` to the others and calls ``deliver_here`` with what it hears,
with no change to the table service.
"""

from __future__ import annotations

import asyncio
import threading
from collections import defaultdict
from types import TracebackType


class Subscription:
    """One listener of one table: ``wait()`` returns the newest seq announced since the
    last call (notifications in between are merged: memory stays bounded whatever the
    rate)."""

    def __init__(self, hub: Hub, table_id: str) -> None:
        self.hub = hub
        self.table_id = table_id
        self.latest = -1
        self._seen = -1
        self._event = asyncio.Event()
        self._loop = asyncio.get_running_loop()

    def notify(self, seq: int) -> None:
        """Called on any thread (a hub may serve services on several event loops)."""
        try:
            here = asyncio.get_running_loop()
        except RuntimeError:
            here = None
        if here is self._loop:
            self._notify(seq)
        else:
            self._loop.call_soon_threadsafe(self._notify, seq)

    def _notify(self, seq: int) -> None:
        if seq > self.latest:
            self.latest = seq
            self._event.set()

    async def wait(self) -> int:
        """The newest seq announced that this subscriber has not been given yet."""
        while self.latest <= self._seen:
            self._event.clear()
            await self._event.wait()
        self._seen = self.latest
        return self.latest

    def close(self) -> None:
        self.hub._remove(self)

    async def __aenter__(self) -> Subscription:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


class Hub:
    """Subscriptions by table, delivered in this process; ``publish`` is the backend's."""

    def __init__(self) -> None:
        self._subscribers: defaultdict[str, set[Subscription]] = defaultdict(set)
        self._lock = threading.Lock()  # subscribers of several event loops may share a hub

    def subscribe(self, table_id: str) -> Subscription:
        sub = Subscription(self, table_id)
        with self._lock:
            self._subscribers[table_id].add(sub)
        return sub

    def subscribers(self, table_id: str) -> int:
        return len(self._subscribers.get(table_id, ()))

    async def publish(self, table_id: str, seq: int) -> None:
        """Say that ``table_id`` has ``seq`` steps, to every subscriber wherever it is."""
        raise NotImplementedError

    def deliver_here(self, table_id: str, seq: int) -> None:
        """Tell this process's subscribers only (a step read from the log, which its writer
        already published everywhere)."""
        with self._lock:
            subs = list(self._subscribers.get(table_id, ()))
        for sub in subs:
            sub.notify(seq)

    def _remove(self, sub: Subscription) -> None:
        with self._lock:
            subs = self._subscribers.get(sub.table_id)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self._subscribers[sub.table_id]

    async def close(self) -> None:
        """Stop the backend (nothing to stop in process)."""


class LocalHub(Hub):
    """The hub of one process: a publish reaches the subscriptions of this object."""

    async def publish(self, table_id: str, seq: int) -> None:
        self.deliver_here(table_id, seq)
