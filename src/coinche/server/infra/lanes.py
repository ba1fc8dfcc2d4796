"""One thread, two queues: the urgent calls first.

On SQLite every database call runs on one thread (``database.Database`` says why). A
``ThreadPoolExecutor`` of one thread serves its calls in the order they came, so a move's
step waited behind whatever burst came before it: a deal's bookkeeping at twenty tables,
a page's lists, two hundred bots' heartbeats. ``Lanes`` serves the same one thread from
two queues, each in order, the urgent one first: the tables' steps (a few milliseconds a
group) never wait for more than the call that is running.
"""

from __future__ import annotations

import functools
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")

_Call = tuple["Future[Any]", Callable[[], Any]]


class Lanes:
    """A thread that runs the calls of its urgent lane before those of its other one."""

    def __init__(self, name: str) -> None:
        self._queues: tuple[deque[_Call], deque[_Call]] = (deque(), deque())
        self._ready = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._thread.start()
        self.urgent: Executor = _Lane(self, 0)
        self.other: Executor = _Lane(self, 1)

    def put(self, lane: int, call: _Call) -> None:
        with self._ready:
            if self._closed:
                raise RuntimeError("the database thread is closed")
            self._queues[lane].append(call)
            self._ready.notify()

    def _next(self) -> _Call | None:
        """The next call (the urgent lane's first); None once closed and emptied."""
        with self._ready:
            while True:
                for queue in self._queues:
                    if queue:
                        return queue.popleft()
                if self._closed:
                    return None
                self._ready.wait()

    def _serve(self) -> None:
        while (call := self._next()) is not None:
            future, run = call
            if not future.set_running_or_notify_cancel():
                continue
            try:
                result = run()
            except BaseException as e:  # handed to the caller, as an executor does
                future.set_exception(e)
            else:
                future.set_result(result)

    def shutdown(self) -> None:
        """Run what is queued, then stop the thread (what comes after is refused)."""
        with self._ready:
            self._closed = True
            self._ready.notify()
        if threading.current_thread() is not self._thread:
            self._thread.join()


class _Lane(Executor):
    """One lane of ``Lanes``, as an executor (what ``loop.run_in_executor`` takes)."""

    def __init__(self, lanes: Lanes, index: int) -> None:
        self._lanes = lanes
        self._index = index

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        future: Future[T] = Future()
        self._lanes.put(self._index, (future, functools.partial(fn, *args, **kwargs)))
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._lanes.shutdown()
