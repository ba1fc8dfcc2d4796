"""The backup of a running site's SQLite database (issue 52): how long it takes with
``--games`` finished games in the database, and what it costs the moves of ``--tables``
friends' tables playing meanwhile.

1. The database: ``--games`` games played to their end through the engine (an account's
   player and three computers of level confirmed, classic to 1000 points; the person's
   moves are the confirmed computer's choices too), each stored as the site stores a
   table: made by ``Tables.create_table``, its steps written by ``Store.append_steps``
   (many tables a transaction, as the site's writer groups the steps of many tables; each
   computer's move with its explanation), then read once by the site (``LiveTables.table``),
   which books what a stored log holds and was not booked: the end of the game, every
   deal's and the game's listeners (the history, the statistics and ratings, the seasons,
   the puzzles' search). ``--fill-minutes`` bounds it: fewer games then, and the figures
   are extrapolated to ``--games`` by the file's size (said so in the output).
2. ``coinche serve`` on that file and ``--tables`` friends' tables of four people over
   WebSockets (``bench_friends.py``'s: each person plays ``--think`` seconds after their
   turn comes); after ``--warmup`` seconds, ``--seconds`` without a backup, then
   ``--backups`` backups one after the other in a process of their own (the function
   ``coinche backup`` runs), then ``--seconds`` without one again.
3. It prints each backup's seconds, the file's size and pages, the write-ahead log's
   largest size meanwhile, and the time from a move sent to its state at all four seats
   (p50, p95, p99, max) for the moves made during a backup and for the others; then runs
   ``coinche backup`` once more as an operator would (its own line), checks that backup
   (``PRAGMA quick_check``, its finished games) and restores it into a new folder.

    python bench/bench_backup.py [--games 10000] [--tables 50] [--seconds 20] [--backups 3]
                                 [--think 1] [--fill-minutes 10]

Only 127.0.0.1 is contacted; every wait has a timeout and every loop ends by a deadline.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import uvloop

from bench_friends import Totals, table_life
from bench_server import Server, percentile
from coinche.bots.loading import load_bot
from coinche.engine.rules import RuleSet
from coinche.server.features.accounts import AccountStore
from coinche.server.infra.config import Settings
from coinche.server.infra.store import Store
from coinche.server.live.computers import explanation_json
from coinche.server.services import start_services
from coinche.server.table.live_table import LiveTable
from coinche.server.table.requests import request_key
from coinche.server.table.spec import Seat, Step, TableSpec

RULES = RuleSet.profile("classic", target=1000)
LEVEL = "confirmed"
BATCH = 25
"""Games stored together: their steps in one transaction, their bookkeeping at once."""
ACCOUNTS = 500
WAL_PERIOD = 0.1
"""Seconds between two looks at the write-ahead log's size."""
BACKUP_CHILD = """
import json, sys, time
from pathlib import Path
from coinche.server.infra.backups import backup
url, to, count = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3])
print(json.dumps({"ready": True}), flush=True)
sys.stdin.readline()
for _ in range(count):
    start = time.monotonic()
    done = backup(url, to, force=True)
    line = {"start": start, "end": time.monotonic(), "seconds": done.seconds, "size": done.size, "pages": done.pages}
    print(json.dumps(line), flush=True)
"""
"""Backups one after the other, each timed on the machine's monotonic clock (the one
``time.monotonic`` reads in every process): the moves made during each are known."""


# ----- the database of finished games -----


@dataclass
class Filled:
    games: int
    steps: int
    deals: int
    seconds: float


def accounts(store: Store, count: int) -> list[str]:
    """``count`` accounts' player ids, made as a sign-up makes them (one password's hash
    for all: hashing is not what a backup measures)."""
    from argon2 import PasswordHasher

    password_hash = PasswordHasher().hash("bench password 1234")
    made = AccountStore(store)
    return [made.create(f"Stored{n}", None, password_hash, f"bench-player-{n}").player for n in range(count)]


def played(spec: TableSpec, player: str, seed: int) -> list[Step]:
    """The steps of the table's game to its end: the person asks for each deal and plays
    seat 0, the computers the others (their moves with their explanations)."""
    live = LiveTable.build(spec, [])
    bots = [load_bot(LEVEL, seed=seed * 4 + seat) for seat in range(4)]
    steps: list[Step] = []
    for n in range(100_000):
        game = live.game
        if game.is_over:
            return steps
        if game.awaiting_deal:
            step = Step(live.seq, "deal", 0, request_id=request_key(player, f"d{n}"))
        else:
            deal = game.current
            assert deal is not None
            seat = deal.to_move
            decision = bots[seat].choose(deal.view(seat))
            if seat == 0:
                step = Step(live.seq, "action", 0, decision.action, request_id=request_key(player, f"a{n}"))
            else:
                step = Step(live.seq, "action", seat, decision.action, explanation=explanation_json(decision))
        live.apply(step)
        steps.append(step)
    raise RuntimeError("a game that never ends")


async def fill(url: str, games: int, minutes: float, seed: int) -> Filled:
    """Store up to ``games`` finished games, for at most ``minutes``."""
    store = Store(url)
    settings = Settings(database_url=url, bot_workers=1, deal_accuracy=False, coach_deals=0, table_seed=f"b{seed}")
    services = await start_services(settings, store)
    rng = random.Random(seed)
    t0 = time.monotonic()
    done = steps = deals = 0
    try:
        players = accounts(store, ACCOUNTS)
        while done < games and time.monotonic() - t0 < minutes * 60:
            count = min(BATCH, games - done)
            batch: list[tuple[TableSpec, str]] = []
            for _ in range(count):
                player = rng.choice(players)
                seats = [Seat("human", player=player), *(Seat("bot", level=LEVEL) for _ in range(3))]
                batch.append((await services.tables.create_table(RULES, seats, LEVEL), player))
            rows = [
                (spec.id, step) for n, (spec, player) in enumerate(batch) for step in played(spec, player, done + n)
            ]
            await services.db(store.append_steps, rows)
            tables = await asyncio.gather(*(services.registry.table(spec.id) for spec, _ in batch))
            for live in tables:
                assert live is not None and live.game.is_over
                deals += len(live.game.deals)
                services.registry.forget(live.id)
            done += count
            steps += len(rows)
            if done % 1000 < BATCH:
                rate = done / (time.monotonic() - t0)
                print(f"  {done} games stored ({rate:.0f} a second)", flush=True)
    finally:
        await services.close()
        store.close()
    return Filled(done, steps, deals, time.monotonic() - t0)


# ----- the site playing, and backups -----


class Timed(list[float]):
    """``Totals.latencies`` that also keeps when each move's state reached its last seat."""

    def __init__(self) -> None:
        super().__init__()
        self.at: list[float] = []

    def append(self, value: float) -> None:
        self.at.append(time.monotonic())
        super().append(value)


def summary(label: str, values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    if not ms:
        return f"  {label}: no move"
    return (
        f"  {label}: p50 {percentile(ms, 0.5):.1f} ms, p95 {percentile(ms, 0.95):.1f} ms, "
        f"p99 {percentile(ms, 0.99):.1f} ms, max {max(ms):.1f} ms ({len(ms)} moves)"
    )


async def watch_wal(path: Path, until: list[float], peak: list[int]) -> None:
    while time.monotonic() < until[0]:
        with contextlib.suppress(OSError):
            peak[0] = max(peak[0], path.stat().st_size)
        await asyncio.sleep(WAL_PERIOD)


async def play_and_back_up(args: argparse.Namespace, workdir: Path, server: Server) -> dict[str, Any]:
    await server.wait_ready()
    url = f"sqlite:///{workdir / 'bench.db'}"
    totals = Totals()
    totals.latencies = Timed()
    opened, start = asyncio.Event(), asyncio.Event()
    ready = [0]
    deadline = [float("inf")]
    setup = asyncio.Semaphore(8)
    play = argparse.Namespace(
        tables=args.tables, think=args.think, seed=args.seed, clock=False, stagger=1.0, accuracy=False
    )
    tasks = [
        asyncio.create_task(table_life(n, server.port, play, totals, ready, opened, start, deadline, setup))
        for n in range(args.tables)
    ]
    await asyncio.wait_for(opened.wait(), 120 + args.tables * 2)
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        BACKUP_CHILD,
        url,
        str(workdir / "under-load.db"),
        str(args.backups),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    assert child.stdin is not None and child.stdout is not None
    await asyncio.wait_for(child.stdout.readline(), 60)  # its imports done
    deadline[0] = time.monotonic() + 3600
    start.set()
    await asyncio.sleep(args.warmup)
    totals.measuring = True
    windows = [(time.monotonic(), time.monotonic() + args.seconds)]
    await asyncio.sleep(args.seconds)
    wal_until, wal_peak = [float("inf")], [0]
    watcher = asyncio.create_task(watch_wal(workdir / "bench.db-wal", wal_until, wal_peak))
    child.stdin.write(b"go\n")
    await child.stdin.drain()
    backups: list[dict[str, Any]] = []
    for _ in range(args.backups):
        line = await asyncio.wait_for(child.stdout.readline(), 600)
        if not line:
            break
        backups.append(json.loads(line))
    wal_until[0] = 0.0
    await watcher
    await asyncio.wait_for(child.wait(), 60)
    after = time.monotonic()
    windows.append((after, after + args.seconds))
    await asyncio.sleep(args.seconds)
    totals.measuring = False
    deadline[0] = time.monotonic()
    _, pending = await asyncio.wait(tasks, timeout=60)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)

    latencies: Timed = totals.latencies  # type: ignore[assignment]
    during: list[float] = []
    without: list[float] = []
    spans = [(b["start"], b["end"]) for b in backups]
    for seen, latency in zip(latencies.at, latencies, strict=True):
        sent = seen - latency
        if any(sent < end and seen > begin for begin, end in spans):
            during.append(latency)
        elif any(begin <= sent and seen <= end for begin, end in windows):
            without.append(latency)
    return {
        "backups": backups,
        "wal_peak": wal_peak[0],
        "during": during,
        "without": without,
        "actions": len(latencies),
        "errors": dict(totals.errors),
    }


def check_backup(path: Path) -> tuple[str, int, int]:
    """(``PRAGMA quick_check``, finished games, stored steps) of a backup file."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        check = db.execute("PRAGMA quick_check").fetchone()[0]
        games = db.execute("SELECT count(*) FROM tables WHERE finished_at IS NOT NULL").fetchone()[0]
        steps = db.execute("SELECT count(*) FROM actions").fetchone()[0]
    finally:
        db.close()
    return str(check), int(games), int(steps)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=10_000, help="finished games in the database (default 10000)")
    ap.add_argument("--tables", type=int, default=50, help="friends' tables playing, four people each (default 50)")
    ap.add_argument("--seconds", type=float, default=20.0, help="each window without a backup (default 20)")
    ap.add_argument("--backups", type=int, default=3, help="backups one after the other (default 3)")
    ap.add_argument("--warmup", type=float, default=5.0)
    ap.add_argument("--think", type=float, default=1.0, help="a person's seconds per move, on average")
    ap.add_argument("--fill-minutes", type=float, default=10.0, help="the most minutes spent storing games")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if not 1 <= args.games <= 1_000_000 or not 1 <= args.tables <= 1000 or not 1 <= args.backups <= 100:
        ap.error("--games 1..1000000, --tables 1..1000, --backups 1..100")
    with tempfile.TemporaryDirectory(prefix="coinche-bench-") as tmp:
        workdir = Path(tmp)
        url = f"sqlite:///{workdir / 'bench.db'}"
        print(f"storing {args.games} finished games ({RULES.name} to {RULES.target}, level {LEVEL}) ...", flush=True)
        filled = uvloop.run(fill(url, args.games, args.fill_minutes, args.seed))
        size = (workdir / "bench.db").stat().st_size
        print(
            f"  {filled.games} games, {filled.deals} deals, {filled.steps} steps in {filled.seconds:.0f} s "
            f"({filled.games / filled.seconds:.0f} games a second); the file: {size / 1e6:.0f} MB"
        )
        scale = args.games / filled.games
        server = Server(workdir, 1, 0.0, 300.0)
        try:
            result = uvloop.run(play_and_back_up(args, workdir, server))
            started = time.monotonic()
            cli = subprocess.run(
                [sys.executable, "-m", "coinche.cli", "backup", "--db", url, "--to", str(workdir / "by-hand.db")],
                capture_output=True,
                text=True,
                timeout=600,
                check=False,
            )
            cli_seconds = time.monotonic() - started
        finally:
            server.stop()
        log = server.log.read_text(errors="replace")
        print(
            f"coinche backup of a running site: {filled.games} finished games, {args.tables} friends' tables "
            f"x 4 people playing (think {args.think:g} s), {os.cpu_count()} cores"
        )
        for n, b in enumerate(result["backups"], start=1):
            print(f"  backup {n} under load: {b['seconds']:.2f} s, {b['size'] / 1e6:.0f} MB, {b['pages']} pages")
        print(f"  write-ahead log at most {result['wal_peak'] / 1e6:.1f} MB meanwhile")
        print(summary("a move to its state at all four seats, during a backup", result["during"]))
        print(summary("the same, with no backup running (before and after)", result["without"]))
        print(f"  actions measured: {result['actions']}; errors: {result['errors'] or 0}")
        print(
            f"  `coinche backup` by hand (the tables gone, the server idle): "
            f"{cli.stdout.strip() or cli.stderr.strip()} (the command: {cli_seconds:.1f} s with Python's start)"
        )
        if scale > 1.01:
            seconds = [b["seconds"] for b in result["backups"]]
            print(
                f"  ONLY {filled.games} games were stored in --fill-minutes {args.fill_minutes:g}: for {args.games}, "
                f"by the file's size, about {size * scale / 1e6:.0f} MB and "
                f"{percentile(seconds, 0.5) * scale:.1f} s a backup under load (extrapolated, linear)"
            )
        check, games, steps = check_backup(workdir / "by-hand.db")
        print(f"  the backup: quick_check {check}, {games} finished games, {steps} steps")
        restored = workdir / "restored"
        restored.mkdir()
        started = time.monotonic()
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "coinche.cli",
                "restore",
                "--db",
                f"sqlite:///{restored / 'coinche.db'}",
                "--from",
                str(workdir / "by-hand.db"),
            ],
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        print(f"  coinche restore ({time.monotonic() - started:.1f} s): {(done.stdout or done.stderr).strip()}")
        if "Traceback" in log:
            print("  server log:\n" + "\n".join(log.splitlines()[-40:]))


if __name__ == "__main__":
    main()
