"""Bot decisions in worker processes, so the event loop never waits on a bot.

The expert is CPU-bound (a double-dummy search per sampled deal): it runs in a pool of
processes, one decision per task. A task gets a ``BotSpec`` (which bot, its seed for this
decision, its parameters) and the seat's ``View``, both plain picklable values, and
returns the ``Decision``. Bots keep no state between decisions here: what the adaptive
level learns lives in the table service and comes in the parameters.

Work waits in one queue per ``Priority``: a computer's move at a table goes before a
player's hint, which goes before a deal's analysis, so hints and analyses never hold up a
table; each queue is bounded (``PoolBusy`` past it). A worker that dies (killed, out of
memory) breaks the pool: the first task to see it starts one new pool, the others use it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import heapq
import itertools
import logging
import multiprocessing
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, TypeVar

from ...bots.base import Decision
from ...bots.loading import load_bot
from ...engine.deal import View

T = TypeVar("T")
log = logging.getLogger("coinche.bot_pool")


class Priority(IntEnum):
    MOVE = 0
    """A computer's move at a table: people are waiting for it."""
    HINT = 1
    ANALYSIS = 2


class PoolBusy(Exception):
    """Too much work of this priority is waiting: the request is refused, not queued."""


@dataclass(frozen=True)
class BotSpec:
    name: str
    seed: int
    params: tuple[tuple[str, Any], ...] = field(default=())


def decide(spec: BotSpec, view: View) -> Decision:
    """One decision (runs in a worker process)."""
    bot = load_bot(spec.name, seed=spec.seed, **dict(spec.params))
    return bot.choose(view)


@dataclass(order=True)
class _Job:
    priority: int
    order: int
    fn: Callable[..., Any] = field(compare=False)
    args: tuple[Any, ...] = field(compare=False)
    future: asyncio.Future[Any] = field(compare=False)


class BotPool:
    """A pool of worker processes for bot decisions and other CPU-bound work.

    Up to ``DEPTH`` jobs per worker are handed to the processes at once, so a worker that
    finishes finds its next job waiting rather than idling through a round trip of the
    event loop (one job in flight per worker capped the server's moves per second); hints
    and analyses together hold at most ``workers - 1`` workers (one if there is only one),
    so at least one worker always serves the tables' moves; and they are not starved by
    them (``_dispatch``)."""

    DEPTH = 2
    SLOW_EVERY = 8
    SHUTDOWN_WAIT = 3.0
    """Seconds ``aclose`` waits for the workers to finish the calls they hold."""

    def __init__(self, workers: int, queue_limit: int = 2000) -> None:
        self.workers = max(1, workers)
        self.queue_limit = queue_limit
        self.generation = 0
        """How many times the pool was started again after a worker died."""
        self._executor: Executor = self._start()
        self._moves: list[_Job] = []
        """The tables' moves waiting, the first asked first."""
        self._slow: list[_Job] = []
        """Hints and analyses waiting, hints first."""
        self._moves_since_slow = 0
        """Moves handed on while slow work waited (``SLOW_EVERY``)."""
        self._waiting = [0] * len(Priority)
        self._order = itertools.count()
        self._in_flight = 0
        self._slow_in_flight = 0
        """Hints and analyses handed to the workers and not finished."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._dispatch_soon = False

    def _start(self) -> Executor:
        context = multiprocessing.get_context("forkserver")
        # The fork server imports the bots once; each worker forked from it starts at
        # once (a pool replaced after a crash, a test's server), not after its own imports.
        context.set_forkserver_preload([__name__])
        return ProcessPoolExecutor(max_workers=self.workers, mp_context=context)

    def waiting(self, priority: Priority) -> int:
        """Tasks of ``priority`` queued and not started."""
        return self._waiting[priority]

    async def decide(self, spec: BotSpec, view: View, priority: Priority = Priority.MOVE) -> Decision:
        return await self.run(decide, spec, view, priority=priority)

    async def run(self, fn: Callable[..., T], *args: Any, priority: Priority = Priority.ANALYSIS) -> T:
        """``fn(*args)`` in a worker (``fn`` a module-level function, ``args`` picklable),
        after the queued work of higher priority; ``PoolBusy`` if its queue is full."""
        if self._waiting[priority] >= self.queue_limit:
            raise PoolBusy(priority.name)
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        heapq.heappush(
            self._moves if priority == Priority.MOVE else self._slow,
            _Job(priority, next(self._order), fn, args, future),
        )
        self._waiting[priority] += 1
        if not self._dispatch_soon:  # jobs asked for in the same turn of the loop go by priority
            self._dispatch_soon = True
            asyncio.get_running_loop().call_soon(self._dispatch)
        return await future

    def _dispatch(self) -> None:
        """Hand the most urgent jobs to the workers, as far as the limits allow: the moves
        first, but one slow job after every ``SLOW_EVERY`` moves handed on while it waited,
        so that a stream of moves never starves the analyses (at 200 solo tables the deals'
        analyses waited until the tables stopped)."""
        self._dispatch_soon = False
        loop = asyncio.get_running_loop()
        slow_limit = max(1, self.workers - 1)
        while self._in_flight < self.workers * self.DEPTH:
            slow_free = bool(self._slow) and self._slow_in_flight < slow_limit
            if slow_free and (not self._moves or self._moves_since_slow >= self.SLOW_EVERY):
                job = heapq.heappop(self._slow)
                self._moves_since_slow = 0
            elif self._moves:
                job = heapq.heappop(self._moves)
                if self._slow:
                    self._moves_since_slow += 1
            else:
                return  # nothing waiting, or only slow work and its workers busy
            self._waiting[job.priority] -= 1
            if job.future.done():  # its asker gave up (a closed connection)
                continue
            slow = job.priority != Priority.MOVE
            self._in_flight += 1
            self._slow_in_flight += slow
            task = loop.create_task(self._execute(job))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _execute(self, job: _Job) -> None:
        generation = self.generation
        try:
            try:
                result = await self._submitted(job)
            except BrokenProcessPool:
                self._replace(generation)
                result = await self._submitted(job)
        except asyncio.CancelledError:
            if not job.future.done():
                job.future.cancel()
            raise
        except Exception as e:
            if not job.future.done():
                job.future.set_exception(e)
        else:
            if not job.future.done():
                job.future.set_result(result)
        finally:
            self._in_flight -= 1
            self._slow_in_flight -= job.priority != Priority.MOVE
            self._dispatch()

    def _submitted(self, job: _Job) -> asyncio.Future[Any]:
        """``job`` handed to the current pool. A pool whose worker has just died can fail in
        ``submit`` itself before it knows it is broken (it starts a new process through a pipe
        its manager thread has already closed: "handle is closed"); that is a broken pool too."""
        try:
            return asyncio.wrap_future(self._executor.submit(job.fn, *job.args))
        except (OSError, RuntimeError) as e:
            raise BrokenProcessPool(f"the pool could not take the job: {e}") from e

    def _replace(self, generation: int) -> None:
        """Start a new pool, once for each pool that broke (every task that saw the same
        broken pool comes here; the first one replaces it)."""
        if generation != self.generation:
            return
        log.warning("a bot worker died: starting a new pool")
        self._executor.shutdown(wait=False, cancel_futures=True)
        self._executor = self._start()
        self.generation += 1

    def warm_up(self) -> None:
        """Start every worker now rather than on the first bot move."""
        for f in [self._executor.submit(_noop) for _ in range(self.workers)]:
            f.result()

    async def aclose(self) -> None:
        for job in [*self._moves, *self._slow]:
            if not job.future.done():
                job.future.cancel()
        self._moves.clear()
        self._slow.clear()
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        # The pool shut down and its manager thread waited for (off the loop, bounded): a
        # manager thread still closing its wake-up pipe as the interpreter exits races the
        # exit hook that writes to it (CPython 3.11's _python_exit: "OSError: Bad file
        # descriptor" after a drained server stopped).
        shutdown = functools.partial(self._executor.shutdown, wait=True, cancel_futures=True)
        stopped = asyncio.get_running_loop().run_in_executor(None, shutdown)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(stopped), self.SHUTDOWN_WAIT)

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)


def _noop() -> None:
    return None
