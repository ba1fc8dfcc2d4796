"""The one database thread of SQLite serves the tables' steps before the other calls."""

from __future__ import annotations

import asyncio
import threading

import pytest

from coinche.server.infra.lanes import Lanes


def test_the_urgent_lane_goes_first_and_each_lane_keeps_its_order() -> None:
    lanes = Lanes("test-lanes")
    started, release = threading.Event(), threading.Event()
    done: list[str] = []

    def blocker() -> None:
        started.set()
        release.wait(10)

    try:
        first = lanes.other.submit(blocker)
        assert started.wait(10)  # the thread is busy: what comes now queues
        others = [lanes.other.submit(done.append, f"other {i}") for i in range(3)]
        urgent = [lanes.urgent.submit(done.append, f"urgent {i}") for i in range(2)]
        release.set()
        for future in [first, *others, *urgent]:
            future.result(10)
        assert done == ["urgent 0", "urgent 1", "other 0", "other 1", "other 2"]
    finally:
        release.set()
        lanes.shutdown()


def test_a_failing_call_fails_its_caller_only_and_a_closed_thread_refuses() -> None:
    lanes = Lanes("test-lanes")
    try:
        failing = lanes.urgent.submit(int, "not a number")
        with pytest.raises(ValueError):
            failing.result(10)
        assert lanes.other.submit(sum, [1, 2, 3]).result(10) == 6
    finally:
        lanes.shutdown()
    with pytest.raises(RuntimeError):
        lanes.other.submit(sum, [1])


def test_shutdown_runs_what_is_queued_and_the_lanes_serve_an_event_loop() -> None:
    lanes = Lanes("test-lanes")

    async def main() -> list[int]:
        loop = asyncio.get_running_loop()
        calls = [loop.run_in_executor(lane, pow, 2, n) for n, lane in enumerate([lanes.other, lanes.urgent] * 3)]
        return list(await asyncio.gather(*calls))

    assert asyncio.run(main()) == [1, 2, 4, 8, 16, 32]
    late = lanes.other.submit(pow, 3, 2)
    lanes.shutdown()
    assert late.result(0) == 9
