"""Computers on worker processes (``coinche worker``, ``infra/work_queue.py``): a server with a live
worker hands it its computers' turns through PostgreSQL; exactly one move per turn (a
worker that stops answering has its turn claimed again after its lease, a late answer is
dropped); without a worker the server plays in its own pool."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from job_helpers import finished_deal_game, forged_text
from postgres_cluster import PostgresCluster
from server_helpers import call, free_port, live_table, parts_of, settings_for
from slow_bot import NAME as SLOW
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.pool import NullPool
from starlette.testclient import TestClient

from coinche.cli import main
from coinche.engine.game import Game
from coinche.engine.rules import RuleSet
from coinche.server.compute.bot_pool import BotPool, BotSpec, Priority, decide
from coinche.server.compute.job_kinds import analyse, analysis_job, decision_job, par_job, standings_job
from coinche.server.compute.work import JobFailed
from coinche.server.features.daily.model import compute_standings, day_hands
from coinche.server.infra import work_queue
from coinche.server.infra.config import Settings
from coinche.server.infra.store import Store
from coinche.server.infra.work_queue import TurnQueue
from coinche.server.live.parts import TableParts
from coinche.server.table.days import utc_now
from coinche.server.table.live_table import LiveTable, decision_seed
from coinche.server.table.spec import Seat
from coinche.server.web.app import create_app
from coinche.server.worker import Worker

HERE = Path(__file__).resolve().parents[1]
"""tests/server: the helpers a worker process imports."""
SRC = HERE.parent.parent / "src"


def wait_until(condition: Any, timeout: float = 30.0, what: str = "the condition") -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"{what} never came"
        time.sleep(0.02)


@contextlib.contextmanager
def running_worker(
    url: str, name: str, lease: float = 1.0, clock: Callable[[], datetime] = utc_now, metrics_port: int | None = None
) -> Iterator[Worker]:
    """A worker on a thread of its own (its own event loop and bot pool), registered;
    ``clock``: the servers' (a test's day ends by it in the worker too)."""
    settings = Settings(database_url=url, bot_workers=1, clock=clock, process_name=name)
    worker = Worker(settings, lease=lease, metrics_port=metrics_port)
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
    pool = parts_of(client).pool
    counting = Counting(pool)
    monkeypatch.setattr(pool, "decide", counting)
    return counting


def computers_table(client: TestClient, level: str = "beginner") -> str:
    """A table of four computers (nobody need act for them to play a deal)."""
    bot = Seat("bot", level=level)
    spec = call(client, parts_of(client).tables.create_table, RuleSet.profile("classic"), [bot] * 4, level)
    return spec.id


async def _watch(parts: TableParts, table_id: str) -> None:
    """As a connection does: the table is watched, so its computers play."""
    live = await parts.tables.table(table_id)
    assert live is not None
    parts.registry.watchers[table_id] += 1
    parts.computers.schedule(live)


async def _unwatch(parts: TableParts, table_id: str) -> None:
    parts.registry.watchers[table_id] -= 1


def watch(client: TestClient, table_id: str) -> LiveTable:
    call(client, _watch, parts_of(client), table_id)
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
    # the server looks for live workers at every computer's turn (2 s apart on the site)
    with TestClient(create_app(settings_for(tmp_path, url, **{"workers_check": 0.0, **overrides}))) as client:
        yield client


def test_a_worker_plays_the_computers_of_a_server(
    tmp_path: Path, postgres: PostgresCluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = postgres.new_database()
    port = free_port()
    with running_worker(url, "w1", metrics_port=port) as worker, server(tmp_path, url) as client:
        own = count_own_decisions(client, monkeypatch)
        table_id = computers_table(client)
        live = watch(client, table_id)
        wait_until(lambda: live.game.awaiting_deal or live.game.is_over, what="the end of the deal")
        actions = [s for s in live.steps if s.kind == "action"]
        assert len(actions) >= 4
        # the worker marks a turn done after its move is stored and sent
        wait_until(lambda: all(done for _, _, done in turns_of(url, table_id)), what="every turn marked done")
        turns = turns_of(url, table_id)
        assert [t[0] for t in turns] == [s.seq for s in actions]
        assert all(by == "w1" and done for _, by, done in turns)
        assert own.calls == 0
        assert worker.played == len(actions)
        # The worker's own metrics count its decisions and the steps it stored.
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as r:
            scraped = r.read().decode()
        assert f'coinche_computer_decision_seconds_count{{bot="beginner"}} {float(len(actions))}' in scraped
        assert f'coinche_steps_total{{kind="action"}} {float(len(actions))}' in scraped


def test_without_a_live_worker_the_server_plays_in_its_own_pool(
    tmp_path: Path, postgres: PostgresCluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = postgres.new_database()
    queue = TurnQueue(Store(url).engine)
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
    queue = TurnQueue(Store(url).engine)
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
    queue = TurnQueue(Store(url).engine)
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
                # the worker stores the move, then marks its turn done
                wait_until(lambda: turns_of(url, table_id)[0] == (0, "w2", True), what="the turn marked done")
                assert actions_at(url, table_id, 0) == 1
                # The ghost's late answer for step 0: dropped, nothing stored.
                parts = parts_of(client)
                stored = call(client, parts.computers.play_turn, table_id, 0, turn.seat, 0.0)
                assert stored is False
                assert actions_at(url, table_id, 0) == 1
                call(client, _unwatch, parts, table_id)
    finally:
        queue.engine.dispose()


def test_a_late_decision_is_not_stored_over_a_taken_step(tmp_path: Path, postgres: PostgresCluster) -> None:
    """The decision of step ``s`` arriving after another process stored step ``s``."""
    url = postgres.new_database()
    with server(tmp_path, url) as client:
        parts = parts_of(client)
        table_id = computers_table(client)

        async def late() -> tuple[int, int]:
            live = await parts.tables.table(table_id)
            assert live is not None
            seat = live.bot_to_move()
            assert seat is not None
            turn = parts.computers._bot_turn(live, seat)
            decision = await parts.computers._decide(table_id, turn)
            first = await parts.computers.play_turn(table_id, turn.seq, seat, 0.0)  # the quick one
            assert first

            async def check(live: LiveTable) -> Any:
                return parts.computers._bot_step(live, turn, decision)

            after = await parts.tables.write(table_id, None, check)  # the late one
            return after, live.seq

        after, seq = call(client, late)
        assert after == seq == 1
        assert actions_at(url, table_id, 0) == 1


def test_a_killed_worker_process_has_its_turn_played_by_another(tmp_path: Path, postgres: PostgresCluster) -> None:
    """``coinche worker`` killed (SIGKILL) while a slow computer thinks: the turn goes to
    another worker after the lease; the table gets that step once."""
    url = postgres.new_database()
    queue = TurnQueue(Store(url).engine)
    with server(tmp_path, url) as client:
        with worker_process(url, "doomed", tmp_path / "doomed.log") as doomed:
            wait_until(lambda: queue.workers_alive() > 0, what="the worker's heartbeat")
            table_id = computers_table(client, SLOW)
            live = watch(client, table_id)
            wait_until(lambda: turns_of(url, table_id)[:1] == [(0, "doomed", False)], what="the claim")
            os.killpg(doomed.pid, signal.SIGKILL)
            doomed.wait(10)
        assert live.seq == 0
        with worker_process(url, "heir", tmp_path / "heir.log"):
            wait_until(lambda: live.seq >= 1, what="the first move", timeout=60)
            call(client, _unwatch, parts_of(client), table_id)
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
    """Every kind of job, as JSON through the database: a hint, a stand-in's move, a deal's
    analysis, a challenge day's ranking and a deal's par; a failure comes back as one."""
    url = postgres.new_database()
    with running_worker(url, "w3"), server(tmp_path, url) as client:
        parts = parts_of(client)
        own = CountingRuns(parts.pool)
        monkeypatch.setattr(parts.pool, "run", own)
        table_id = computers_table(client)
        live = call(client, parts.tables.table, table_id)
        assert live is not None
        seat = live.game.to_move
        view = live.game.current.view(seat) if live.game.current is not None else None
        assert view is not None
        spec = BotSpec("beginner", decision_seed(live, seat))
        for priority in (Priority.HINT, Priority.MOVE):
            decision = call(client, lambda p=priority: parts.work.decide(spec, view, p))
            assert decision == decide(spec, view)
        deal = finished_deal_game().deals[0]
        analysis = call(client, lambda: parts.work.run(analysis_job(deal)))
        assert analysis == analyse(deal.rules, deal.dealer, deal.dealt, deal.log)
        results = [("p1", 0, 80), ("p2", 0, -80)]
        standings = call(client, lambda: parts.work.run(standings_job(results, 4, False)))
        assert standings == compute_standings(results, 4, False)
        hands = day_hands(b"s" * 32, "2026-01-01", 1)
        par = call(client, lambda: parts.work.run(par_job(deal.rules, 0, hands)))
        assert len(par["sides"]) == 2
        with pytest.raises(JobFailed, match="ValueError: two results"):
            call(client, lambda: parts.work.run(standings_job([("p1", 0, 1), ("p1", 0, 2)], 4, False)))
        assert own.calls == 0
        with engine_of(url).begin() as conn:
            assert conn.scalar(text("SELECT count(*) FROM bot_jobs")) == 0  # read and gone


def forge_job(url: str, job_id: str, kind: str, arguments: str) -> None:
    """A row written straight into ``bot_jobs`` by whoever can write the database."""
    with engine_of(url).begin() as conn:
        conn.execute(
            text("INSERT INTO bot_jobs (id, priority, created_at, kind, arguments) VALUES (:i, 1, now(), :k, :a)"),
            {"i": job_id, "k": kind, "a": arguments},
        )


def stored_answer(url: str, job_id: str) -> str | None:
    with engine_of(url).begin() as conn:
        found = conn.scalar(text("SELECT answer FROM bot_jobs WHERE id = :i AND done_at IS NOT NULL"), {"i": job_id})
    return None if found is None else str(found)


def test_a_forged_row_is_refused_by_the_worker_and_nothing_runs(
    tmp_path: Path, postgres: PostgresCluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pickle that would write a file, an unknown kind, a bot named by module, arguments
    too long to be read: each row is answered as refused, and no code of it runs; a good
    job after them is computed."""
    monkeypatch.setattr(work_queue, "MAX_TEXT", 20_000)
    url = postgres.new_database()
    marker = tmp_path / "ran"
    Store(url).close()  # the schema
    game = Game(RuleSet.profile("classic"), seed=3, first_dealer=0, auto_deal=True)
    assert game.current is not None
    view = game.current.view(game.current.to_move)
    good = decision_job(BotSpec("beginner", 1), view).args
    forge_job(url, "pickled", "decision", forged_text(marker))
    forge_job(url, "unknown", "builtins:exec", "{\"source\": \"open('x', 'w')\"}")
    forge_job(url, "module", "decision", json.dumps({**good, "bot": "pathlib:Path"}))
    forge_job(url, "long", "decision", json.dumps({**good, "padding": "x" * 30_000}))
    forge_job(url, "good", "decision", json.dumps(good))
    with running_worker(url, "w4"):
        wait_until(lambda: stored_answer(url, "good") is not None, what="the good job's answer")
        for job_id, why in (
            ("pickled", "not JSON"),
            ("unknown", "unknown job kind"),
            ("module", "not a built-in bot"),
            ("long", "longer than"),
        ):
            answer = json.loads(stored_answer(url, job_id) or "null")
            assert list(answer) == ["refused"] and why in answer["refused"], answer
        assert "ok" in json.loads(stored_answer(url, "good") or "null")
    assert not marker.exists()


def test_a_forged_answer_is_refused_by_the_server_which_computes_the_job_itself(
    tmp_path: Path, postgres: PostgresCluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A "worker" that answers a job with a pickle, then with the wrong shape, a refusal,
    an answer too long to read, an action that is not legal: the server believes none,
    and computes the hint in its own pool each time."""
    url = postgres.new_database()
    marker = tmp_path / "ran"
    queue = TurnQueue(Store(url).engine)
    stop = threading.Event()
    monkeypatch.setattr(work_queue, "MAX_TEXT", 20_000)
    too_long = "[" + "1," * 20_000 + "1]"
    # Last, an answer of the right shape whose action is not legal: a card during the auction.
    illegal = {"action": 0, "explanation": None, "private_explanation": None, "reason": None, "private_reason": None}
    forged = [forged_text(marker), '{"ok": {"action": "PASS"}}', '{"refused": "unknown job kind"}', too_long]
    answers = iter([*forged, json.dumps({"ok": illegal})])

    def forger() -> None:
        while not stop.is_set():
            queue.beat("forger", 10.0)
            job = queue.claim_job("forger", 10.0)
            if job is not None:
                queue.job_done(job.id, next(answers, "{}"))
            time.sleep(0.02)

    thread = threading.Thread(target=forger, daemon=True)
    queue.beat("forger", 10.0)
    thread.start()
    try:
        with server(tmp_path, url, worker_wait=20.0) as client:
            parts = parts_of(client)
            own = CountingRuns(parts.pool)
            monkeypatch.setattr(parts.pool, "run", own)
            table_id = computers_table(client)
            live = call(client, parts.tables.table, table_id)
            assert live is not None and live.game.current is not None
            view = live.game.current.view(live.game.to_move)
            spec = BotSpec("beginner", 7)
            for expected_calls in (1, 2, 3, 4, 5):
                started = time.monotonic()
                decision = call(client, lambda: parts.work.decide(spec, view, Priority.HINT))
                assert decision == decide(spec, view)
                assert own.calls == expected_calls
                assert time.monotonic() - started < 15.0  # at once, not after the whole wait
    finally:
        stop.set()
        thread.join(10)
        queue.engine.dispose()
    assert not marker.exists()


def test_without_a_worker_hints_and_analyses_run_in_the_own_pool(
    tmp_path: Path, postgres: PostgresCluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = postgres.new_database()
    with server(tmp_path, url) as client:
        parts = parts_of(client)
        own = CountingRuns(parts.pool)
        monkeypatch.setattr(parts.pool, "run", own)
        results = [("p1", 0, 80), ("p2", 0, -80)]
        assert call(client, lambda: parts.work.run(standings_job(results, 4, False))) == compute_standings(
            results, 4, False
        )
        assert own.calls == 1
        with engine_of(url).begin() as conn:
            assert conn.scalar(text("SELECT count(*) FROM bot_jobs")) == 0


def test_a_worker_stopped_by_sigterm_leaves_at_once(tmp_path: Path, postgres: PostgresCluster) -> None:
    """A worker that stops says so: the servers count on it no more (no ten seconds' wait)."""
    url = postgres.new_database()
    queue = TurnQueue(Store(url).engine)
    try:
        with worker_process(url, "brief", tmp_path / "brief.log") as proc:
            wait_until(lambda: queue.workers_alive() > 0, what="the worker's heartbeat")
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(30) == 0, (tmp_path / "brief.log").read_text("utf-8")
        assert queue.workers_alive() == 0
    finally:
        queue.engine.dispose()
