"""Computers on worker processes (``coinche worker``, ``turns.py``): a server with a live
worker hands it its computers' turns through PostgreSQL; exactly one move per turn (a
worker that stops answering has its turn claimed again after its lease, a late answer is
dropped); without a worker the server plays in its own pool."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from conftest import settings_for
from pool_tasks import fail, nap
from postgres_cluster import PostgresCluster
from server_helpers import call, live_table, service_of
from slow_bot import NAME as SLOW
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.pool import NullPool
from starlette.testclient import TestClient

from coinche.cli import main
from coinche.engine.rules import RuleSet
from coinche.server.app import create_app
from coinche.server.bot_pool import BotPool, BotSpec, Priority
from coinche.server.days import utc_now
from coinche.server.store import Seat, Store
from coinche.server.tables import JobFailed, LiveTable, TableService
from coinche.server.turns import TurnQueue
from coinche.server.worker import Worker

HERE = Path(__file__).parent
SRC = HERE.parent.parent / "src"


def wait_until(condition: Any, timeout: float = 30.0, what: str = "the condition") -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"{what} never came"
        time.sleep(0.02)


@contextlib.contextmanager
def running_worker(
    url: str, name: str, lease: float = 1.0, clock: Callable[[], datetime] = utc_now
) -> Iterator[Worker]:
    """A worker on a thread of its own (its own event loop and bot pool), registered;
    ``clock``: the servers' (a test's day ends by it in the worker too)."""
    worker = Worker(url, processes=1, name=name, lease=lease, clock=clock)
    loop = asyncio.new_event_loop()
    ready = threading.Event()

    async def run() -> None:
        started = asyncio.Event()
        task = asyncio.ensure_future(worker.run(started))
        await started.wait()
        ready.set()
        await task

    thread = threading.Thread(target=loop.run_until_complete, args=(run(),), daemon=True)
    thread.start()
    try:
        assert ready.wait(60), "the worker did not start"
        yield worker
    finally:
        loop.call_soon_threadsafe(worker.stop)
        thread.join(30)
        loop.close()


@contextlib.contextmanager
def worker_process(url: str, name: str, log: Path, lease: float = 1.0) -> Iterator[subprocess.Popen[bytes]]:
    """``coinche worker`` in a process group of its own (its bot processes with it)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), str(HERE)]), "PYTHONUNBUFFERED": "1"}
    command = [sys.executable, "-m", "coinche.cli", "worker", "--db", url, "--processes", "1"]
    command += ["--name", name, "--lease", str(lease)]
    with log.open("a", encoding="utf-8") as out:
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    try:
        yield proc
    finally:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)


class Counting:
    """Counts the decisions a server's own pool is asked for."""

    def __init__(self, pool: BotPool) -> None:
        self.pool = pool
        self.calls = 0
        self.decide = pool.decide

    async def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        return await self.decide(*args, **kwargs)


class CountingRuns(Counting):
    """Counts the jobs a server's own pool is asked to run."""

    def __init__(self, pool: BotPool) -> None:
        super().__init__(pool)
        self.decide = pool.run  # type: ignore[assignment]


def count_own_decisions(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> Counting:
    pool = service_of(client).pool
    counting = Counting(pool)
    monkeypatch.setattr(pool, "decide", counting)
    return counting


def computers_table(client: TestClient, level: str = "beginner") -> str:
    """A table of four computers (nobody need act for them to play a deal)."""
    bot = Seat("bot", level=level)
    spec = call(client, service_of(client).create_table, RuleSet.profile("classic"), [bot] * 4, level)
    return spec.id


async def _watch(service: TableService, table_id: str) -> None:
    """As a connection does: the table is watched, so its computers play."""
    live = await service.table(table_id)
    assert live is not None
    service.watchers[table_id] += 1
    service._schedule_bots(live)


async def _unwatch(service: TableService, table_id: str) -> None:
    service.watchers[table_id] -= 1


def watch(client: TestClient, table_id: str) -> LiveTable:
    call(client, _watch, service_of(client), table_id)
    return live_table(client, table_id)


ENGINES: dict[str, Engine] = {}


def engine_of(url: str) -> Engine:
    if url not in ENGINES:
        ENGINES[url] = create_engine(url, poolclass=NullPool)
    return ENGINES[url]


def turns_of(url: str, table_id: str) -> list[tuple[int, str | None, bool]]:
    """(seq, claimed by, done) of each turn of the table handed to the workers."""
    with engine_of(url).begin() as conn:
        rows = conn.execute(
            text("SELECT seq, claimed_by, done_at IS NOT NULL FROM bot_turns WHERE table_id = :t ORDER BY seq"),
            {"t": table_id},
        ).all()
    return [(int(r[0]), r[1], bool(r[2])) for r in rows]


def actions_at(url: str, table_id: str, seq: int) -> int:
    with engine_of(url).begin() as conn:
        count = conn.scalar(
            text("SELECT count(*) FROM actions WHERE table_id = :t AND seq = :q"), {"t": table_id, "q": seq}
        )
    return int(count or 0)


@contextlib.contextmanager
def server(tmp_path: Path, url: str, **overrides: Any) -> Iterator[TestClient]:
    with TestClient(create_app(settings_for(tmp_path, url, **overrides))) as client:
        yield client


def test_a_worker_plays_the_computers_of_a_server(
    tmp_path: Path, postgres: PostgresCluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = postgres.new_database()
    with running_worker(url, "w1") as worker, server(tmp_path, url) as client:
        own = count_own_decisions(client, monkeypatch)
        table_id = computers_table(client)
        live = watch(client, table_id)
        wait_until(lambda: live.game.awaiting_deal or live.game.is_over, what="the end of the deal")
        actions = [s for s in live.steps if s.kind == "action"]
        assert len(actions) >= 4
        turns = turns_of(url, table_id)
        assert [t[0] for t in turns] == [s.seq for s in actions]
        assert all(by == "w1" and done for _, by, done in turns)
        assert own.calls == 0
        assert worker.played == len(actions)


def test_without_a_live_worker_the_server_plays_in_its_own_pool(
    tmp_path: Path, postgres: PostgresCluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = postgres.new_database()
    queue = TurnQueue(Store(url))
    with server(tmp_path, url) as client:
        own = count_own_decisions(client, monkeypatch)
        table_id = computers_table(client)
        live = watch(client, table_id)
        wait_until(lambda: live.game.awaiting_deal or live.game.is_over, what="the end of the deal")
        assert own.calls == len([s for s in live.steps if s.kind == "action"]) >= 4
        assert turns_of(url, table_id) == []
    # A worker that left (its row gone) or whose heartbeat is old counts for nothing.
    queue.beat("gone", 1.0)
    queue.leave("gone")
    with queue.engine.begin() as conn:
        conn.execute(text("INSERT INTO workers VALUES ('old', now(), now() - interval '1 hour')"))
    assert queue.workers_alive() == 0
    queue.engine.dispose()


def test_a_worker_that_never_answers_lets_the_server_play(tmp_path: Path, postgres: PostgresCluster) -> None:
    url = postgres.new_database()
    queue = TurnQueue(Store(url))
    queue.beat("silent", 30.0)  # alive, but it claims nothing
    try:
        with server(tmp_path, url, worker_wait=1.0) as client:
            table_id = computers_table(client)
            live = watch(client, table_id)
            wait_until(lambda: live.seq >= 2, what="two moves")
            turns = turns_of(url, table_id)
            assert turns[0][:2] == (0, None)  # handed over, claimed by nobody: played here
    finally:
        queue.engine.dispose()


def test_a_lapsed_claim_is_claimed_again_and_the_step_stored_once(tmp_path: Path, postgres: PostgresCluster) -> None:
    """A worker killed mid-decision (here: it claims and never answers) loses its turn when
    its lease lapses; another worker plays it, once; a late answer for it is dropped."""
    url = postgres.new_database()
    queue = TurnQueue(Store(url))
    try:
        queue.beat("ghost", 1.0)
        with server(tmp_path, url) as client:
            table_id = computers_table(client)
            live = watch(client, table_id)
            wait_until(lambda: turns_of(url, table_id), what="the first turn handed over")
            turn = queue.claim("ghost", 1.0)
            assert turn is not None and (turn.table_id, turn.seq) == (table_id, 0)
            assert queue.claim("ghost", 1.0) is None  # one turn, held
            with running_worker(url, "w2", lease=1.0):
                wait_until(lambda: live.seq >= 1, what="the first move")
                assert turns_of(url, table_id)[0] == (0, "w2", True)
                assert actions_at(url, table_id, 0) == 1
                # The ghost's late answer for step 0: dropped, nothing stored.
                service = service_of(client)
                stored = call(client, service.play_turn, table_id, 0, turn.seat, 0.0)
                assert stored is False
                assert actions_at(url, table_id, 0) == 1
                call(client, _unwatch, service, table_id)
    finally:
        queue.engine.dispose()


def test_a_late_decision_is_not_stored_over_a_taken_step(tmp_path: Path, postgres: PostgresCluster) -> None:
    """The decision of step ``s`` arriving after another process stored step ``s``."""
    url = postgres.new_database()
    with server(tmp_path, url) as client:
        service = service_of(client)
        table_id = computers_table(client)

        async def late() -> tuple[int, int]:
            live = await service.table(table_id)
            assert live is not None
            async with live.lock:
                seat = live.bot_to_move()
                assert seat is not None
                turn = service._bot_turn(live, seat)
            decision = await service._decide(table_id, turn)
            first = await service.play_turn(table_id, turn.seq, seat, 0.0)  # the quick one
            assert first

            async def check(live: LiveTable) -> Any:
                return service._bot_step(live, turn, decision)

            after = await service.write(table_id, None, check)  # the late one
            return after, live.seq

        after, seq = call(client, late)
        assert after == seq == 1
        assert actions_at(url, table_id, 0) == 1


def test_a_killed_worker_process_has_its_turn_played_by_another(tmp_path: Path, postgres: PostgresCluster) -> None:
    """``coinche worker`` killed (SIGKILL) while a slow computer thinks: the turn goes to
    another worker after the lease; the table gets that step once."""
    url = postgres.new_database()
    queue = TurnQueue(Store(url))
    with server(tmp_path, url) as client:
        with worker_process(url, "doomed", tmp_path / "doomed.log") as doomed:
            wait_until(lambda: queue.workers_alive() > 0, what="the worker's heartbeat")
            time.sleep(2.5)  # the server's look at the workers is at most two seconds old
            table_id = computers_table(client, SLOW)
            live = watch(client, table_id)
            wait_until(lambda: turns_of(url, table_id)[:1] == [(0, "doomed", False)], what="the claim")
            os.killpg(doomed.pid, signal.SIGKILL)
            doomed.wait(10)
        assert live.seq == 0
        with worker_process(url, "heir", tmp_path / "heir.log"):
            wait_until(lambda: live.seq >= 1, what="the first move", timeout=60)
            call(client, _unwatch, service_of(client), table_id)
        # Played once: by the heir, or (a loaded machine: the heir slow to start, the doomed
        # worker's heartbeat too old) by the server itself; never twice.
        assert turns_of(url, table_id)[0][:2] in ((0, "heir"), (0, "doomed"))
        assert actions_at(url, table_id, 0) == 1
    queue.engine.dispose()


def test_the_worker_command_refuses_sqlite(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["worker", "--db", "sqlite:///nothing.db"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "PostgreSQL" in err


def test_hints_and_analyses_go_to_a_live_worker(
    tmp_path: Path, postgres: PostgresCluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = postgres.new_database()
    with running_worker(url, "w3"), server(tmp_path, url) as client:
        service = service_of(client)
        own = CountingRuns(service.pool)
        monkeypatch.setattr(service.pool, "run", own)
        assert call(client, lambda: service.run_job(nap, 0.01, "analysed")) == "analysed"
        table_id = computers_table(client)
        live = call(client, service.table, table_id)
        assert live is not None
        seat = live.game.to_move
        view = live.game.current.view(seat) if live.game.current is not None else None
        assert view is not None
        spec = BotSpec("beginner", service.decision_seed(live, seat))
        decision = call(client, lambda: service.decide_job(spec, view, Priority.HINT))
        assert decision.action in view.legal_actions
        with pytest.raises(JobFailed, match="ValueError: broken"):
            call(client, lambda: service.run_job(fail, "broken"))
        assert own.calls == 0
        with engine_of(url).begin() as conn:
            assert conn.scalar(text("SELECT count(*) FROM bot_jobs")) == 0  # read and gone


def test_without_a_worker_hints_and_analyses_run_in_the_own_pool(
    tmp_path: Path, postgres: PostgresCluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = postgres.new_database()
    with server(tmp_path, url) as client:
        service = service_of(client)
        own = CountingRuns(service.pool)
        monkeypatch.setattr(service.pool, "run", own)
        assert call(client, lambda: service.run_job(nap, 0.01, "here")) == "here"
        assert own.calls == 1
        with engine_of(url).begin() as conn:
            assert conn.scalar(text("SELECT count(*) FROM bot_jobs")) == 0


def test_a_worker_stopped_by_sigterm_leaves_at_once(tmp_path: Path, postgres: PostgresCluster) -> None:
    """A worker that stops says so: the servers count on it no more (no ten seconds' wait)."""
    url = postgres.new_database()
    queue = TurnQueue(Store(url))
    try:
        with worker_process(url, "brief", tmp_path / "brief.log") as proc:
            wait_until(lambda: queue.workers_alive() > 0, what="the worker's heartbeat")
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(30) == 0, (tmp_path / "brief.log").read_text("utf-8")
        assert queue.workers_alive() == 0
    finally:
        queue.engine.dispose()
