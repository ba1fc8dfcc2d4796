"""The site's metrics, for Prometheus (``GET /metrics``, and a worker's ``--metrics-port``).

Each process counts what it does itself: the steps it stored and how long from the
request to the state handed to the table's sockets, its computers' decisions, its HTTP
requests and their database time, the errors its log reports. What is true of the
process at the moment of a scrape (the tables it holds, the people connected to it, its
pool's queue) is read then; so is what every process shares (the work queue and the
workers alive, the mail queue), which each server reports alike: a dashboard takes the
``max`` of those over the servers, and the ``sum`` of the others.

A scrape reads the database once per shared figure (a count on an index) on the
database's threads, never on the event loop; the counters cost a lock and an addition
per move.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import Final

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, disable_created_metrics, generate_latest

from ..compute.bot_pool import Priority
from ..live.parts import TableParts
from ..live.presence import WATCHER
from ..table.live_table import LiveTable
from ..table.spec import Step
from .mail import Mail, MailStore

MOVE_BUCKETS: Final = (0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
"""A move is stored and sent in milliseconds; past a second something waits."""
DECISION_BUCKETS: Final = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
REQUEST_BUCKETS: Final = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
MAIL_BUCKETS: Final = (0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0, 3600.0)

KNOWN_BOTS: Final = frozenset({"random", "beginner", "confirmed", "expert", "expert-v2", "adaptive"})
"""The computers named in the labels; any other (a ``module:attribute`` an operator
loads) counts as ``other``, so a label never takes a value a visitor chose."""


class ErrorCounter(logging.Handler):
    """Counts the log's errors by logger (``coinche.tables``, ``uvicorn.error``...): every
    failure the code already logs is an error of that kind, with nothing to add where it
    happens."""

    def __init__(self, errors: Counter) -> None:
        super().__init__(level=logging.ERROR)
        self.errors = errors

    def emit(self, record: logging.LogRecord) -> None:
        self.errors.labels(record.name[:64]).inc()


class SiteMetrics:
    """One process's metrics (see the module); ``observe`` the parts at start-up,
    ``close()`` at the end."""

    LOGGERS: Final = ("coinche", "uvicorn.error")

    def __init__(self) -> None:
        # No ``_created`` series beside each counter: a third of a scrape, read by nobody.
        disable_created_metrics()  # type: ignore[no-untyped-call]
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.steps = Counter(
            "coinche_steps", "Steps stored by this process, by kind (actions per second: rate).", ["kind"], registry=r
        )
        self.move_seconds = Histogram(
            "coinche_move_seconds",
            "From a move's request to its state handed to the table's sockets, for the steps this process stored.",
            ["kind"],
            buckets=MOVE_BUCKETS,
            registry=r,
        )
        self.decision_seconds = Histogram(
            "coinche_computer_decision_seconds",
            "A computer's decision of a move, computed in this process.",
            ["bot"],
            buckets=DECISION_BUCKETS,
            registry=r,
        )
        self.request_seconds = Histogram(
            "coinche_request_seconds", "HTTP requests, by route.", ["route"], buckets=REQUEST_BUCKETS, registry=r
        )
        self.request_database_seconds = Histogram(
            "coinche_request_database_seconds",
            "The time an HTTP request waited on the database, by route.",
            ["route"],
            buckets=REQUEST_BUCKETS,
            registry=r,
        )
        self.responses = Counter(
            "coinche_http_responses", "HTTP responses, by status class (2xx...).", ["status"], registry=r
        )
        self.errors = Counter(
            "coinche_errors", "Errors the log reported, by the logger that reported them.", ["kind"], registry=r
        )
        self.mail_seconds = Histogram(
            "coinche_mail_delivery_seconds",
            "From a message queued to the SMTP server's yes.",
            buckets=MAIL_BUCKETS,
            registry=r,
        )
        self.live_tables = Gauge(
            "coinche_live_tables",
            "Tables in this process's memory with a game in progress, by kind.",
            ["kind"],
            registry=r,
        )
        self.connected = Gauge(
            "coinche_connected_people", "People connected to this process's tables, by role.", ["role"], registry=r
        )
        self.pool_waiting = Gauge(
            "coinche_pool_waiting", "Work waiting for this process's computers, by priority.", ["priority"], registry=r
        )
        self.queue_depth = Gauge(
            "coinche_work_queue_depth",
            "Entries of the shared work queue not done (every server says the same).",
            ["queue"],
            registry=r,
        )
        self.queue_age = Gauge(
            "coinche_work_queue_oldest_seconds",
            "Age of the oldest entry of the shared work queue not done.",
            ["queue"],
            registry=r,
        )
        self.workers = Gauge(
            "coinche_workers_alive",
            "Worker processes with a recent heartbeat (every server says the same).",
            registry=r,
        )
        self.mail_waiting = Gauge(
            "coinche_mail_waiting", "Messages queued and not yet sent (every server says the same).", registry=r
        )
        self.mail_given_up = Gauge(
            "coinche_mail_given_up", "Messages given up after every retry (every server says the same).", registry=r
        )
        for role in ("player", "watcher"):
            self.connected.labels(role)
        self._kinds: set[str] = set()
        self._parts: TableParts | None = None
        self._mail: MailStore | None = None
        self._counter = ErrorCounter(self.errors)
        for name in self.LOGGERS:
            logging.getLogger(name).addHandler(self._counter)

    def observe(self, parts: TableParts, mail: MailStore | None = None) -> None:
        """Count what ``parts`` do from now on (and read them at each scrape)."""
        self._parts = parts
        self._mail = mail
        parts.registry.stored_hooks.append(self.stored)
        parts.computers.decided_hooks.append(self.decided)

    def close(self) -> None:
        for name in self.LOGGERS:
            logging.getLogger(name).removeHandler(self._counter)

    # ----- told as it happens -----

    def stored(self, live: LiveTable, step: Step, seconds: float) -> None:
        self.steps.labels(step.kind).inc()
        self.move_seconds.labels(step.kind).observe(seconds)

    def decided(self, bot: str, seconds: float) -> None:
        self.decision_seconds.labels(bot if bot in KNOWN_BOTS else "other").observe(seconds)

    def mail_sent(self, mail: Mail, seconds: float) -> None:
        self.mail_seconds.observe(seconds)

    def request(self, route: str, status: int, seconds: float, database_seconds: float) -> None:
        self.request_seconds.labels(route).observe(seconds)
        self.request_database_seconds.labels(route).observe(database_seconds)
        self.responses.labels(f"{status // 100}xx").inc()

    # ----- read at a scrape -----

    async def scrape(self) -> bytes:
        """The text format of every metric, the moment's figures read first; written on a
        thread (tens of milliseconds at a busy server's hundreds of series), not on the loop."""
        await self.refresh()
        return await asyncio.get_running_loop().run_in_executor(None, generate_latest, self.registry)

    async def refresh(self) -> None:
        """Read the moment's figures (the tables held, the people connected, the queues)."""
        parts = self._parts
        if parts is not None:
            self._read_here(parts)
            turns = parts.work.turns
            if turns is not None:
                backlog = await parts.db(turns.backlog)
                for queue, (depth, oldest) in backlog.items():
                    self.queue_depth.labels(queue).set(depth)
                    self.queue_age.labels(queue).set(oldest)
                self.workers.set(await parts.db(turns.workers_alive))
        if self._mail is not None and parts is not None:
            waiting, given_up = await parts.db(self._mail.waiting)
            self.mail_waiting.set(waiting)
            self.mail_given_up.set(given_up)

    def _read_here(self, parts: TableParts) -> None:
        counts = _live_kinds(parts.registry.held())
        for kind in self._kinds - counts.keys():
            self.live_tables.labels(kind).set(0)
        for kind, count in counts.items():
            self.live_tables.labels(kind).set(count)
        self._kinds |= counts.keys()
        players = {key for (_, key), n in parts.attendance.present.items() if n > 0 and not key.startswith(WATCHER)}
        watchers = sum(1 for (_, key), n in parts.attendance.present.items() if n > 0 and key.startswith(WATCHER))
        self.connected.labels("player").set(len(players))
        self.connected.labels("watcher").set(watchers)
        for priority in Priority:
            self.pool_waiting.labels(priority.name.lower()).set(parts.pool.waiting(priority))


def _live_kinds(tables: Iterable[LiveTable]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for live in tables:
        if not live.game.is_over:
            counts[live.spec.kind.name] = counts.get(live.spec.kind.name, 0) + 1
    return counts
