"""The database's kind and what depends on it, decided once from its URL (``Backend.of``).

SQLite is one process's own: its hub is in memory, its computers play in its own pool,
its rate limits are counted in memory, and every database call shares one thread.
PostgreSQL is what several processes share: its hub is LISTEN/NOTIFY, its computers' turns
and jobs may go to workers (a work queue claimed with ``SKIP LOCKED``), its rate limits
are counted in the database, its locks are advisory locks. Everything else asks the
backend (``Store.backend``) and never which database it is, nor writes its SQL.
"""

from __future__ import annotations

import contextlib
import functools
import threading
import zlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, event, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.orm import DeclarativeBase, Session
from sqlalchemy.sql import Executable

from .hub import Hub, LocalHub
from .lanes import Lanes
from .postgres_hub import PostgresHub
from .rate_limits import RateLimits, Threads
from .work_queue import TurnQueue

if TYPE_CHECKING:
    from sqlalchemy import Engine

    Insert = postgresql.Insert | sqlite.Insert


LOCK_STRIPES = 64
"""How many locks SQLite's keys share (``SqliteBackend.lock``)."""

_PROCESS_LOCKS = [threading.RLock() for _ in range(LOCK_STRIPES)]
"""SQLite's locks: this process's, whichever of its stores takes them."""


class Backend(ABC):
    """What differs between the database kinds; one per process, made by ``of``."""

    shared: bool
    """Whether several processes may share the database (servers and workers)."""
    _insert: Callable[[type[DeclarativeBase]], Insert]
    """The dialect's ``insert``, which has ``ON CONFLICT``."""

    def __init__(self, url: str) -> None:
        self.url = url

    @staticmethod
    def of(url: str) -> Backend:
        """The backend of the database at ``url``: the one place that asks its kind."""
        try:
            postgresql = make_url(url).get_backend_name() == "postgresql"
        except ArgumentError:
            postgresql = False
        return PostgresBackend(url) if postgresql else SqliteBackend(url)

    @abstractmethod
    def lock(self, transaction: Connection | Session, key: str | int) -> None:
        """Hold the lock named ``key`` until ``transaction`` ends (commit or rollback): two
        transactions locking the same key run one after the other."""

    def insert_ignoring(
        self, row: type[DeclarativeBase], key: Sequence[str], update: Sequence[str] = (), add: Sequence[str] = ()
    ) -> Executable:
        """``INSERT … ON CONFLICT (key) DO NOTHING`` (its row count says whether the row went
        in), or ``DO UPDATE`` the columns ``update`` (set to the new row's) and ``add`` (the
        new row's added to the stored one: counters, in one statement and no read)."""
        return _conflict_statement(self._insert, row, tuple(key), tuple(update), tuple(add))

    @abstractmethod
    def lock_schema(self, transaction: Connection, key: int) -> None:
        """Hold the schema for ``transaction`` (the migrations), across processes: a
        second process starting waits for it to commit, then finds the schema done."""

    @abstractmethod
    async def hub(self) -> Hub:
        """The hub of this database's processes, started."""

    @abstractmethod
    def work_queue(self, engine: Engine) -> TurnQueue | None:
        """The queue that hands computers' turns and jobs to workers; None: no workers,
        this process computes everything itself."""

    @abstractmethod
    def rate_limits(self, threads: Threads, engine: Engine) -> RateLimits:
        """Where the rate limits are counted: in this process, or in the database (its
        calls run on ``threads``)."""

    @abstractmethod
    def threads(self, count: int) -> tuple[Executor, Executor]:
        """The database calls' threads: (the other calls', the steps' writer)."""

    @abstractmethod
    def snapshot(self, engine: Engine) -> contextlib.AbstractContextManager[Connection]:
        """A read-only transaction that sees the database as it was at its first read,
        however long it lasts (a month's export read while the site plays on)."""


class SqliteBackend(Backend):
    """One process's database file."""

    shared = False
    _insert = staticmethod(sqlite.insert)

    def lock(self, transaction: Connection | Session, key: str | int) -> None:
        """A lock of this process (one process is all SQLite serves), let go when the
        transaction's connection commits or rolls back. Keys share ``LOCK_STRIPES`` locks
        (memory stays bounded; two keys may wait on each other, never wrongly pass)."""
        connection = transaction.connection() if isinstance(transaction, Session) else transaction
        held = _PROCESS_LOCKS[zlib.crc32(str(key).encode("utf-8", "surrogatepass")) % LOCK_STRIPES]
        held.acquire()
        released = False

        def release(_: Connection) -> None:
            nonlocal released
            if not released:
                released = True
                held.release()

        for name in ("commit", "rollback"):
            event.listen(connection, name, release)

    def lock_schema(self, transaction: Connection, key: int) -> None:
        """SQLite's write lock, taken before anything is read: Python's driver starts no
        transaction before DDL, so without it a second process reads a schema half made
        and repeats its first tables (the busy timeout bounds the wait)."""
        transaction.exec_driver_sql("BEGIN IMMEDIATE")

    async def hub(self) -> Hub:
        return LocalHub()

    def work_queue(self, engine: Engine) -> TurnQueue | None:
        return None

    def rate_limits(self, threads: Threads, engine: Engine) -> RateLimits:
        return RateLimits()

    def threads(self, count: int) -> tuple[Executor, Executor]:
        """One thread for every call, the steps first (``Lanes``): SQLite has one writer at
        a time, and a thread that finds its lock taken sleeps in its busy handler (tens of
        milliseconds a try), so two threads writing make a move wait far longer than one
        thread's queue does (and WAL reads are a fraction of a millisecond)."""
        lanes = Lanes("coinche-db")
        return lanes.other, lanes.urgent

    @contextlib.contextmanager
    def snapshot(self, engine: Engine) -> Iterator[Connection]:
        """A deferred transaction: under WAL a reader keeps the snapshot of its first read
        and never blocks the writer."""
        with engine.connect() as conn:
            conn.exec_driver_sql("BEGIN")
            try:
                yield conn
            finally:
                conn.rollback()


class PostgresBackend(Backend):
    """A database that servers and workers share."""

    shared = True
    _insert = staticmethod(postgresql.insert)

    def lock(self, transaction: Connection | Session, key: str | int) -> None:
        """An advisory lock for the transaction (a text key hashed by the database)."""
        if isinstance(key, int):
            transaction.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": key})
        else:
            transaction.execute(text("SELECT pg_advisory_xact_lock(hashtext(:k))"), {"k": key})

    def lock_schema(self, transaction: Connection, key: int) -> None:
        """PostgreSQL's DDL is transactional: the advisory lock ``key`` is enough."""
        self.lock(transaction, key)

    async def hub(self) -> Hub:
        """LISTEN/NOTIFY: a publish reaches every process on the database."""
        hub = PostgresHub(self.url)
        await hub.start()
        return hub

    def work_queue(self, engine: Engine) -> TurnQueue | None:
        return TurnQueue(engine)

    def rate_limits(self, threads: Threads, engine: Engine) -> RateLimits:
        """Counted in the database: a limit of N allows N in all, whichever process each
        try reaches."""
        return RateLimits(threads, engine)

    def threads(self, count: int) -> tuple[Executor, Executor]:
        """``count`` threads for the other calls, and one writer for the steps."""
        return (
            ThreadPoolExecutor(max_workers=count, thread_name_prefix="coinche-db"),
            ThreadPoolExecutor(max_workers=1, thread_name_prefix="coinche-db-steps"),
        )

    @contextlib.contextmanager
    def snapshot(self, engine: Engine) -> Iterator[Connection]:
        with engine.connect().execution_options(isolation_level="REPEATABLE READ") as conn, conn.begin():
            conn.exec_driver_sql("SET TRANSACTION READ ONLY")
            yield conn


@functools.cache
def _conflict_statement(
    dialect_insert: Callable[[type[DeclarativeBase]], Insert],
    row: type[DeclarativeBase],
    key: tuple[str, ...],
    update: tuple[str, ...],
    add: tuple[str, ...],
) -> Executable:
    """``insert_ignoring``'s statement, made once for each use (each one made anew built
    an alias of the table, its ``excluded`` row: hundreds of objects in cycles for the
    garbage collector, at every deal's bookkeeping)."""
    statement = dialect_insert(row)
    # An INSERT's row count is kept only when asked for (psycopg's cursor is closed before
    # SQLAlchemy reads it: -1 otherwise, and every step would look taken).
    statement = statement.execution_options(preserve_rowcount=True)
    if update or add:
        table = row.__table__
        changed: dict[str, Any] = {name: statement.excluded[name] for name in update}
        changed.update({name: table.c[name] + statement.excluded[name] for name in add})
        return statement.on_conflict_do_update(index_elements=list(key), set_=changed)
    return statement.on_conflict_do_nothing(index_elements=list(key))
