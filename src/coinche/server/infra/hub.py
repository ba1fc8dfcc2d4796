"""The hub: who is told that a table has a new step.

A table's truth is its log in the database; the hub only says "table T now has N steps"
(``publish``), and whoever is behind reads the log. So a hub may lose or merge
notifications without losing anything: a subscription keeps only the highest seq it was
told, and a reader that wakes up catches up from the log whatever it missed.

Besides the steps, the hub carries a table's passing events (``signal``): who came or
went, a quick message, a warning that a player's time runs out. They are not part of the
game and not stored: a subscriber keeps the last few, and one that misses them loses
nothing a state cannot say again.

``LocalHub`` serves the processes that share its object (one server process, or the tests'
two table services); a hub between processes (PostgreSQL LISTEN/NOTIFY) is another
subclass that sends ``publish`` to the others and calls ``deliver_here`` with what it hears,
with no change to the table service.
"""

from __future__ import annotations

import asyncio
import threading
from collections import defaultdict, deque
from collections.abc import Callable
from types import TracebackType
from typing import Any, TypeVar

T = TypeVar("T")

EVENTS_KEPT = 16
"""Passing events a subscriber keeps before it reads them (older ones are dropped)."""

Event = dict[str, Any]


class Subscription:
    """One listener of one table: ``wait()`` returns the newest seq announced since the
    last call (notifications in between are merged: memory stays bounded whatever the
    rate) and the passing events since then (the last ``EVENTS_KEPT``)."""

    def __init__(
        self,
        hub: Hub,
        table_id: str,
        steps: bool = True,
        events: bool = True,
        behind: Callable[[int], bool] | None = None,
    ) -> None:
        self.hub = hub
        self.table_id = table_id
        self.steps = steps
        """Told of the table's new steps (a socket, which the feed hands its states, is not)."""
        self.events = events
        """Told of the table's passing events."""
        self.behind = behind
        """Whether a new seq is news to the subscriber (None: always): a step it has
        already (stored in this process) wakes nothing."""
        self.latest = -1
        self._seen = -1
        self._event = asyncio.Event()
        self._loop = asyncio.get_running_loop()
        self._events: deque[Event] = deque(maxlen=EVENTS_KEPT)

    def notify(self, seq: int) -> None:
        """Called on any thread (a hub may serve services on several event loops)."""
        if self.steps:
            self._on_loop(self._notify, seq)

    def _notify(self, seq: int) -> None:
        if seq > self.latest and (self.behind is None or self.behind(seq)):
            self.latest = seq
            self._event.set()

    def notify_event(self, event: Event) -> None:
        """Called on any thread, like ``notify``."""
        if self.events:
            self._on_loop(self._notify_event, event)

    def _on_loop(self, fn: Callable[[T], None], arg: T) -> None:
        """``fn(arg)`` on the subscriber's event loop: now when called on it, else soon."""
        try:
            here = asyncio.get_running_loop()
        except RuntimeError:
            here = None
        if here is self._loop:
            fn(arg)
        else:
            self._loop.call_soon_threadsafe(fn, arg)

    def _notify_event(self, event: Event) -> None:
        self._events.append(event)
        self._event.set()

    async def wait(self) -> tuple[int, list[Event]]:
        """The newest seq announced (it may be one already given, when only events came)
        and the passing events not given yet, once there is something new."""
        while self.latest <= self._seen and not self._events:
            self._event.clear()
            await self._event.wait()
        self._seen = self.latest
        events = list(self._events)
        self._events.clear()
        return self.latest, events

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

    def subscribe(
        self, table_id: str, steps: bool = True, events: bool = True, behind: Callable[[int], bool] | None = None
    ) -> Subscription:
        """A subscription to the table's new steps and passing events (or one of them);
        ``behind``: whether a seq is news to it (``Subscription.behind``)."""
        sub = Subscription(self, table_id, steps, events, behind)
        with self._lock:
            self._subscribers[table_id].add(sub)
        return sub

    def subscribers(self, table_id: str) -> int:
        return len(self._subscribers.get(table_id, ()))

    async def publish(self, table_id: str, seq: int) -> None:
        """Say that ``table_id`` has ``seq`` steps, to every subscriber wherever it is."""
        raise NotImplementedError

    async def signal(self, table_id: str, event: Event) -> None:
        """Tell every subscriber of ``table_id``, wherever it is, a passing event."""
        raise NotImplementedError

    def deliver_event_here(self, table_id: str, event: Event) -> None:
        with self._lock:
            subs = list(self._subscribers.get(table_id, ()))
        for sub in subs:
            sub.notify_event(event)

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

    async def signal(self, table_id: str, event: Event) -> None:
        self.deliver_event_here(table_id, event)
