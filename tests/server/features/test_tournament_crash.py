"""A tournament survives its server's crash (issue 30): the real server (``coinche
serve``) runs a Swiss of four pairs whose people are away (computers play every seat);
it is killed (SIGKILL) while round 1's tables play, started again, killed during the break
between the rounds, started again: the tournament ends with each round's tables named and
made once and every result booked."""

from __future__ import annotations

import signal
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from server_helpers import ServerProcess, query

from coinche.server.features.tournaments.model import Plan
from coinche.server.features.tournaments.store import TournamentStore
from coinche.server.infra.store import Store


def wait_until(done: Callable[[], bool], seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "never"
        time.sleep(0.05)


def test_a_tournament_survives_its_server_killed_mid_round_and_between_rounds(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/x.db"
    log = tmp_path / "server.log"
    store = Store(url)  # migrated: the tournament is made before any server runs
    try:
        now = datetime.now(UTC)
        plan = Plan(
            "Concours de la panne",
            "classic",
            "swiss",
            rounds=2,
            deals=2,
            minutes_per_deal=5,
            starts_at=now + timedelta(seconds=1),
            opens_at=now,
            level="beginner",
            break_seconds=3,
        )
        rows = TournamentStore(store)
        tournament = rows.create(plan, "organiser", now)
        for i in range(8):
            rows.enter(tournament.id, f"person{i}", None, None, now)
    finally:
        store.close()

    def tables(done: bool = False) -> int:
        sql = "SELECT count(*) FROM tournament_tables WHERE tournament_id = :t"
        sql += " AND result IS NOT NULL" if done else ""
        return int(query(url, sql, t=tournament.id)[0][0])

    def state() -> tuple[str, int, bool]:
        ((name, number, closed),) = query(
            url, "SELECT state, round, round_closed_at FROM tournaments WHERE id = :t", t=tournament.id
        )
        return str(name), int(number), closed is not None

    with ServerProcess(url, log) as server:
        wait_until(lambda: tables() == 2)  # round 1 named: kill it while its tables play
        assert server.stop(signal.SIGKILL) == -signal.SIGKILL
    assert state()[:2] == ("running", 1)
    with ServerProcess(url, log) as server:
        wait_until(lambda: state() == ("running", 1, True))  # round 1 over: the break
        assert server.stop(signal.SIGKILL) == -signal.SIGKILL
    with ServerProcess(url, log) as server:
        wait_until(lambda: state()[0] == "finished")
        server.stop(signal.SIGTERM)
    assert tables() == 4 and tables(done=True) == 4
    made = query(
        url,
        "SELECT count(*) FROM tables JOIN tournament_tables ON tables.id = tournament_tables.table_id"
        " WHERE tournament_tables.tournament_id = :t",
        t=tournament.id,
    )
    assert made[0][0] == 4
    complete = query(url, "SELECT result FROM tournament_tables WHERE tournament_id = :t", t=tournament.id)
    assert all('"complete": true' in str(r[0]).replace("True", "true") for r in complete), complete
    assert "Traceback" not in log.read_text("utf-8")
