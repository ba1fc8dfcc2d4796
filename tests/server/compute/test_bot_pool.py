"""The bot pool: a table's computer moves go before hints, which go before deal analyses;
its queues are bounded; a worker that dies is replaced once, whoever sees it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from pool_tasks import die_once, nap
from server_helpers import run_async

from coinche.server.compute.bot_pool import BotPool, PoolBusy, Priority


def test_moves_go_before_hints_and_hints_before_analyses() -> None:
    async def run() -> list[str]:
        pool = BotPool(1)
        done: list[str] = []

        async def job(tag: str, priority: Priority) -> None:
            done.append(await pool.run(nap, 0.0, tag, priority=priority))

        try:
            busy = asyncio.create_task(job("first", Priority.ANALYSIS))
            await asyncio.sleep(0.05)  # the only worker takes it
            queued = [
                asyncio.create_task(job(tag, priority))
                for tag, priority in [
                    ("analysis", Priority.ANALYSIS),
                    ("hint", Priority.HINT),
                    ("move", Priority.MOVE),
                    ("hint 2", Priority.HINT),
                    ("move 2", Priority.MOVE),
                ]
            ]
            await asyncio.gather(busy, *queued)
        finally:
            await pool.aclose()
            pool.close()
        return done

    # The first job may not have reached the worker before the others were queued: it is
    # an analysis, so it is then served last of all, never before a move.
    order = run_async(run)
    rest = [t for t in order if t != "first"]
    assert rest == ["move", "move 2", "hint", "hint 2", "analysis"], order


def test_a_stream_of_moves_never_starves_an_analysis() -> None:
    """Moves always waiting (many tables' computers): an analysis waiting with them still
    goes, after ``SLOW_EVERY`` moves at most."""

    async def run() -> list[str]:
        pool = BotPool(2)
        done: list[str] = []

        async def job(tag: str, priority: Priority) -> None:
            done.append(await pool.run(nap, 0.01, tag, priority=priority))

        try:
            moves = [asyncio.create_task(job(f"move {i}", Priority.MOVE)) for i in range(40)]
            analysis = asyncio.create_task(job("analysis", Priority.ANALYSIS))
            await asyncio.gather(*moves, analysis)
        finally:
            await pool.aclose()
            pool.close()
        return done

    order = run_async(run)
    assert order.index("analysis") <= BotPool.SLOW_EVERY + BotPool.DEPTH * 2, order


def test_the_queues_are_bounded() -> None:
    async def run() -> None:
        pool = BotPool(1, queue_limit=2)
        try:
            # A hint runs: the other hints wait (the only worker's share of slow work is taken).
            running = asyncio.create_task(pool.run(nap, 0.5, "long", priority=Priority.HINT))
            await asyncio.sleep(0.05)
            waiting = [asyncio.create_task(pool.run(nap, 0.0, str(i), priority=Priority.HINT)) for i in range(2)]
            await asyncio.sleep(0)
            assert pool.waiting(Priority.HINT) == 2
            with pytest.raises(PoolBusy):
                await pool.run(nap, 0.0, "one too many", priority=Priority.HINT)
            # Another priority has its own room.
            assert await pool.run(nap, 0.0, "move", priority=Priority.MOVE) == "move"
            assert await running == "long"
            assert [await w for w in waiting] == ["0", "1"]
        finally:
            await pool.aclose()
            pool.close()

    run_async(run)


def test_a_dead_worker_is_replaced_once(tmp_path: Path) -> None:
    """A worker dies while two tasks run: both see the pool broken, one new pool is started
    (not two), and both tasks are answered on it."""

    async def run() -> tuple[list[str], int]:
        pool = BotPool(2)
        try:
            results = await asyncio.gather(
                pool.run(die_once, str(tmp_path / "marker"), priority=Priority.MOVE),
                pool.run(nap, 0.5, "napped", priority=Priority.MOVE),
            )
            again = await pool.run(nap, 0.0, "after", priority=Priority.MOVE)
            return [*results, again], pool.generation
        finally:
            await pool.aclose()
            pool.close()

    results, generation = run_async(run)
    assert results == ["alive", "napped", "after"]
    assert generation == 1


def test_hints_never_hold_every_worker() -> None:
    """With two workers, a storm of slow hints takes one of them: a table's move is served
    by the other at once, not after the hints."""

    async def run() -> tuple[list[str], int]:
        pool = BotPool(2)
        pool.warm_up()
        done: list[str] = []

        async def job(tag: str, seconds: float, priority: Priority) -> None:
            done.append(await pool.run(nap, seconds, tag, priority=priority))

        try:
            hints = [asyncio.create_task(job(f"hint {i}", 0.4, Priority.HINT)) for i in range(3)]
            await asyncio.sleep(0.05)
            waiting = pool.waiting(Priority.HINT)
            await job("move", 0.0, Priority.MOVE)
            await asyncio.gather(*hints)
        finally:
            await pool.aclose()
            pool.close()
        return done, waiting

    done, waiting = run_async(run)
    assert waiting == 2  # one hint runs, the others wait for it
    assert done[0] == "move", done
