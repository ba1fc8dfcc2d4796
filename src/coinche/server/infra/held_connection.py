"""A connection one thread keeps from one transaction to the next: the steps' writer's.

The writer stores a group of steps every few milliseconds under load. Checking a
connection out of the pool for each group costs the pool's bookkeeping and, on PostgreSQL,
the round trip of the ping that proves the connection alive (``pool_pre_ping``). The
writer's thread so holds one connection; should it be lost between two groups (the
database restarted, its backend ended), the transaction that finds it dead is tried once
more on a new one: nothing was committed on the lost one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import DBAPIError

T = TypeVar("T")


class HeldConnection:
    """One thread's connection of ``engine``, opened at its first use (use it from that
    thread only)."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._connection: Connection | None = None

    def transaction(self, work: Callable[[Connection], T]) -> T:
        """``work(connection)`` in one transaction, committed when it returns, rolled back
        when it raises; tried again once on a new connection when the held one was lost."""
        try:
            return self._once(work)
        except DBAPIError as e:
            if not e.connection_invalidated:
                raise
            self.close()
            return self._once(work)

    def _once(self, work: Callable[[Connection], T]) -> T:
        connection = self._connection
        if connection is None or connection.invalidated or connection.closed:
            if connection is not None:
                connection.close()
            connection = self._connection = self._engine.connect()
        with connection.begin():
            return work(connection)

    def close(self) -> None:
        """Give the connection back (the next transaction opens another)."""
        connection, self._connection = self._connection, None
        if connection is not None:
            connection.close()
