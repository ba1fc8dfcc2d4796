"""The store's blocking calls awaited on threads of their own (``Database``): the event
loop never waits on the database, and the tables' steps share group commits."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Iterator
from typing import ParamSpec, TypeVar

from ..table.spec import Step
from .held_connection import HeldConnection
from .request_context import DATABASE_TIME
from .store import ConflictError, Store

P = ParamSpec("P")
T = TypeVar("T")


def _no_stop_iteration(call: Callable[[], T]) -> T:
    """``call()``, its ``StopIteration`` turned into a ``RuntimeError``: a future cannot hold a
    StopIteration (asyncio drops it and the awaiting task would wait forever, its table's
    lock held)."""
    try:
        return call()
    except StopIteration as e:
        raise RuntimeError("StopIteration on a database thread") from e


@contextlib.contextmanager
def _counted() -> Iterator[None]:
    """A database call's wait, added to the running request's ``DATABASE_TIME`` (if one
    counts)."""
    counted = DATABASE_TIME.get()
    started = time.perf_counter()
    try:
        yield
    finally:
        if counted is not None:
            counted.seconds += time.perf_counter() - started
            counted.calls += 1


class Database:
    """The store's blocking calls, awaited on threads of their own so that the event loop
    never waits on the database.

    The tables' steps go through one writer thread that stores all the steps waiting at
    once in one transaction (a group commit): one step alone is written at once, and under
    load many tables' moves share a commit, on the writer's own connection
    (``HeldConnection``). The backend says which threads (``threads``: on SQLite one
    thread for every call, the steps first)."""

    def __init__(self, store: Store, threads: int = 4) -> None:
        self.store = store
        self._threads, self._writer = store.backend.threads(threads)
        self._held = HeldConnection(store.engine)
        """The writer thread's connection (used on that thread only)."""
        self._steps: list[tuple[str, Step, asyncio.Future[None]]] = []
        self._flushing: asyncio.Task[None] | None = None

    async def __call__(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``fn(*args, **kwargs)`` (a method of the store) on a database thread."""
        loop = asyncio.get_running_loop()
        with _counted():
            return await loop.run_in_executor(self._threads, _no_stop_iteration, lambda: fn(*args, **kwargs))

    async def append_step(self, table_id: str, step: Step) -> None:
        """``Store.append_step``, in the next group commit."""
        loop = asyncio.get_running_loop()
        stored: asyncio.Future[None] = loop.create_future()
        self._steps.append((table_id, step, stored))
        if self._flushing is None or self._flushing.done():
            self._flushing = loop.create_task(self._flush())
        with _counted():
            await stored

    async def _flush(self) -> None:
        loop = asyncio.get_running_loop()
        while self._steps:
            batch, self._steps = self._steps, []
            try:
                outcomes = await loop.run_in_executor(self._writer, self._write, [(t, s) for t, s, _ in batch])
            except asyncio.CancelledError:  # the loop is closing: nobody waits on these any more
                for _, _, stored in batch:
                    stored.cancel()
                raise
            except Exception as e:  # the writer is closed
                outcomes = [e] * len(batch)
            for (_, _, stored), outcome in zip(batch, outcomes, strict=True):
                if stored.done():
                    continue
                if outcome is None:
                    stored.set_result(None)
                else:
                    stored.set_exception(outcome)

    def _write(self, steps: list[tuple[str, Step]]) -> list[Exception | None]:
        """On the writer thread: each step's outcome (None: stored). A batch that fails as a
        whole (a table deleted, a database fault) is written again step by step, so that
        only the steps at fault fail."""
        try:
            stored = self.store.append_steps(steps, self._held)
        except Exception as e:
            if len(steps) == 1:  # its own fault: writing it again would fail the same way
                return [e]
            return [self._write_one(table_id, step) for table_id, step in steps]
        return [
            None if ok else ConflictError(f"table {table_id}: step {step.seq} is already stored")
            for (table_id, step), ok in zip(steps, stored, strict=True)
        ]

    def _write_one(self, table_id: str, step: Step) -> Exception | None:
        try:
            self.store.append_step(table_id, step)
        except Exception as e:
            return e
        return None

    def close(self) -> None:
        with contextlib.suppress(RuntimeError):  # closed already
            self._writer.submit(self._held.close)  # on its thread, after the steps queued
        self._writer.shutdown(wait=True)
        self._threads.shutdown(wait=True)
