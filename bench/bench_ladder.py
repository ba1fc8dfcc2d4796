"""The engine ladder's throughput on this machine (issue 53): ladder matches and tables
played per hour by two bots connected through ``coinche connect``.

Makes a temporary SQLite database with one owner and two bots (a token each, both opted
in to the ladder), starts ``coinche serve`` on a free loopback port (the site's settings:
pairing every 5 s, 4 deals a table, 2 matches at once per bot), then two ``coinche
connect`` processes, each running ``coinche engine --level LEVEL`` (``--engine FILE``: a
Python engine instead, e.g. examples/first_legal_bot.py), for ``--seconds``. It prints
the matches and tables finished, per hour, the deals played, the bots' faults, and the
server's CPU.

    python bench/bench_ladder.py [--seconds 180] [--level beginner] [--engine FILE]

Only 127.0.0.1 is contacted; every process started is stopped at the end.

Measured 2026-12-07 (2 cores, other work running): 180 s, 10 matches finished (200 an
hour), 20 tables (400 an hour), 0 faults, the server's main process at 7% of a core.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import func, select

from bench_server import HOST, cpu_seconds, free_port
from coinche.server.features.accounts import AccountStore
from coinche.server.features.bots import BotStore
from coinche.server.features.ladder.rows import LadderEngineRow, LadderMatchRow
from coinche.server.infra.rows.tables import TableRow
from coinche.server.infra.store import Store, new_id
from coinche.server.table.ladder_pairing import NEW_ENGINE, figure
from coinche.server.table.ratings import Rating


def prepare(url: str) -> list[str]:
    """Two bots on the ladder; their tokens."""
    store = Store(url)
    try:
        owner = AccountStore(store).create("Owner", None, "!", new_id(12))
        bots = BotStore(store)
        tokens = []
        for name in ("Alpha", "Beta"):
            bot = bots.create(owner, name)
            tokens.append(bots.new_token(owner.id, bot.id, datetime.now(UTC)))
            with store.session() as s, s.begin():
                s.add(LadderEngineRow(player_id=bot.player, opted_in=True, mu=NEW_ENGINE.mu, sigma=NEW_ENGINE.sigma))
        return tokens
    finally:
        store.close()


def wait_serving(base: str, proc: subprocess.Popen[bytes], timeout: float = 60.0) -> None:
    import urllib.request

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit("the server exited")
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("the server did not start")


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=180.0)
    parser.add_argument("--level", default="beginner")
    parser.add_argument("--engine", help="a Python engine file instead of coinche engine")
    parser.add_argument("--keep", type=Path, help="a directory where the database and the logs are kept")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = args.keep or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        url = f"sqlite:///{work}/ladder.db"
        tokens = prepare(url)
        port = free_port()
        base = f"http://{HOST}:{port}"
        coinche = [sys.executable, "-m", "coinche.cli"]
        log = (work / "serve.log").open("w")
        server = subprocess.Popen(
            [*coinche, "serve", "--host", HOST, "--port", str(port), "--db", url],
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        bridges: list[subprocess.Popen[bytes]] = []
        try:
            wait_serving(base, server)
            engine = [sys.executable, args.engine] if args.engine else [*coinche, "engine", "--level", args.level]
            for i, token in enumerate(tokens):
                out = (work / f"connect{i}.log").open("w")
                events = str(work / f"events{i}.jsonl")
                bridges.append(
                    subprocess.Popen(
                        [*coinche, "connect", "--url", base, "--token", token, "--log", events, "--", *engine],
                        stdout=out,
                        stderr=subprocess.STDOUT,
                        start_new_session=True,
                    )
                )
            cpu_before, started = cpu_seconds(server.pid), time.monotonic()
            time.sleep(args.seconds)
            elapsed, cpu = time.monotonic() - started, cpu_seconds(server.pid) - cpu_before
        finally:
            for proc in bridges:
                stop(proc)
            stop(server)
            log.close()
        store = Store(url)
        try:
            with store.session() as s:
                matches = s.scalar(select(func.count()).where(LadderMatchRow.finished_at.is_not(None))) or 0
                started_matches = s.scalar(select(func.count()).select_from(LadderMatchRow)) or 0
                tables = (
                    s.scalar(
                        select(func.count()).where(
                            TableRow.ladder_match.is_not(None), TableRow.finished_at.is_not(None)
                        )
                    )
                    or 0
                )
                engines = s.scalars(select(LadderEngineRow)).all()
                lines = [
                    f"  {e.player_id}: rating {figure(Rating(e.mu, e.sigma))}, "
                    f"{e.matches} matches, {e.decisions} decisions, {e.faults} faults"
                    for e in engines
                ]
        finally:
            store.close()
        hours = elapsed / 3600
        print(f"{elapsed:.0f} s, engine: {args.engine or 'coinche engine --level ' + args.level}")
        print(f"matches finished: {matches} ({matches / hours:.0f} per hour); started: {started_matches}")
        print(f"ladder tables finished: {tables} ({tables / hours:.0f} per hour)")
        print(f"server CPU: {cpu:.1f} s ({100 * cpu / elapsed:.0f}% of a core)")
        print("\n".join(lines))
        for i in range(len(tokens)):
            tail = (work / f"connect{i}.log").read_text(errors="replace").strip().splitlines()[-2:]
            print(f"connect {i}: " + " | ".join(tail))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
