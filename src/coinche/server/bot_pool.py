"""Bot decisions in worker processes, so the event loop never waits on a bot.

The expert is CPU-bound (a double-dummy search per sampled deal): it runs in a pool of
processes, one decision per task. A task gets a ``BotSpec`` (which bot, its seed for this
decision, its parameters) and the seat's ``View``, both plain picklable values, and
returns the ``Decision``. Bots keep no state between decisions here: what the adaptive
level learns lives in the table service and comes in the parameters.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ..bots.base import Decision, load_bot
from ..engine.deal import View

T = TypeVar("T")


@dataclass(frozen=True)
class BotSpec:
    name: str
    seed: int
    params: tuple[tuple[str, Any], ...] = field(default=())


def decide(spec: BotSpec, view: View) -> Decision:
    """One decision (runs in a worker process)."""
    bot = load_bot(spec.name, seed=spec.seed, **dict(spec.params))
    return bot.choose(view)


class BotPool:
    """A pool of worker processes for bot decisions."""

    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)
        self._executor: Executor = self._start()

    def _start(self) -> Executor:
        context = multiprocessing.get_context("forkserver")
        return ProcessPoolExecutor(max_workers=self.workers, mp_context=context)

    async def decide(self, spec: BotSpec, view: View) -> Decision:
        return await self.run(decide, spec, view)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker (``fn`` a module-level function, ``args`` picklable):
        bot decisions and other CPU-bound work (a deal's double-dummy analysis)."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor, fn, *args)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): start a new pool and try once more.
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = self._start()
            return await loop.run_in_executor(self._executor, fn, *args)

    def warm_up(self) -> None:
        """Start every worker now rather than on the first bot move."""
        for f in [self._executor.submit(_noop) for _ in range(self.workers)]:
            f.result()

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)


def _noop() -> None:
    return None
