"""The open games database's export (issue 53): ``coinche export``'s time, file size and
peak memory for ``--games`` finished rated games of one month.

1. The database (SQLite): ``--seeds`` games played to their end by the bots (an
   account's player and three computers of level confirmed, classic to 1000 points, as
   ``bench_backup.played`` plays them), stored as the site stores a table (``Store``:
   ``create_table``, ``append_steps``, ``finish_table``) with their ``rated_games`` row; then
   each copied with new table ids until the month holds ``--games`` games: the ``tables``
   row (its end spread over the month), its log (``actions``, without the computers'
   explanations, which the export never reads), its seats (``table_players``) and its
   ``rated_games`` row, by ``INSERT ... SELECT`` in SQLite. A copy must deal the same
   cards as its seed, and a table's deals are dealt under its own id: the seeds are
   tables of one tournament round (``TournamentTable``, whose deals are dealt under the
   round's id, its deal limit above any game's length), the same records otherwise
   (each deal with its commitment and revealed seed, which the export leaves out). ``--small`` more games go in the
   month before, to compare the memory of a small month.
2. ``coinche export`` of each month in a process of its own: its wall time, the file's size
   and games, and the process's peak resident memory (``ru_maxrss``); the big file is
   checked (lines counted, the first replayed by the engine).

    python bench/bench_export.py [--games 100000] [--small 10000] [--seeds 20]

On a 2-core machine with nothing else running, 20 seeds of 6 deals on average: 100,000
games exported in 625 s (160 a second), 51.9 MB (519 bytes a game: the records without
their dealing), peak memory 159 MiB; 10,000 games in 59 s, 5.2 MB, 159 MiB.
"""

from __future__ import annotations

import argparse
import dataclasses
import gzip
import json
import random
import secrets
import sqlite3
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench_backup import ACCOUNTS, LEVEL, RULES, accounts, played
from coinche.engine.record import decode_record, game_record, parse_record, replay
from coinche.server.infra.store import Store
from coinche.server.table.kinds import TournamentTable
from coinche.server.table.live_table import LiveTable
from coinche.server.table.spec import Seat, Step, TableSpec

MONTH = "2026-11"
SMALL_MONTH = "2026-10"
CHILD = """
import json, resource, sys, time
from coinche.cli import main
started = time.monotonic()
status = main(sys.argv[1:])
peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
seconds = time.monotonic() - started
print(json.dumps({"status": status, "seconds": seconds, "peak_mib": peak_kib / 1024}), file=sys.stderr)
"""


def seed_games(url: str, count: int, seed: int) -> tuple[int, int]:
    """Play and store ``count`` rated games (``--seeds``); their deals and steps."""
    store = Store(url)
    rng = random.Random(seed)
    deals = steps = 0
    try:
        players = accounts(store, ACCOUNTS)
        for n in range(count):
            player = rng.choice(players)
            spec = TableSpec(
                id=f"seed{n:04d}",
                rules=RULES,
                seed=rng.getrandbits(62),
                first_dealer=rng.randrange(4),
                seats=(Seat("human", player=player), *(Seat("bot", level=LEVEL) for _ in range(3))),  # type: ignore[arg-type]
                level=LEVEL,
                kind=TournamentTable("bench-round", 1, 100),
                secret=secrets.token_bytes(32),
            )
            log, spec = as_a_game(spec, played(spec, player, seed * 1000 + n))
            live = LiveTable.build(spec, log)
            assert live.game.is_over
            store.create_table(spec)
            store.append_steps([(spec.id, step) for step in log])
            store.finish_table(spec.id, {"totals": list(live.game.totals), "winner": live.game.winner})
            with store.engine.begin() as conn:
                conn.exec_driver_sql(
                    "INSERT INTO rated_games (table_id, created_at) VALUES (?, ?)", (spec.id, "2026-01-01")
                )
            deals += len(live.game.deals)
            steps += len(log)
    finally:
        store.close()
    return deals, steps


def as_a_game(spec: TableSpec, log: list[Step]) -> tuple[list[Step], TableSpec]:
    """The round's steps up to the deal that wins the game by the rules' target (a round's
    game goes on to its deal limit), and the round's spec with that many deals."""
    live = LiveTable.build(spec, [])
    checked = 0
    for n, step in enumerate(log):
        live.apply(step)
        game = live.game
        if game.current is None or not game.current.is_over or len(game.deals) == checked:
            continue
        checked = len(game.deals)
        record = parse_record(decode_record(json.dumps(game_record(game)).encode()))
        if replay(record).is_over:
            spec = dataclasses.replace(spec, kind=TournamentTable("bench-round", 1, checked))
            return log[: n + 1], spec
    raise RuntimeError("a game that never reaches its target")


def month_start(month: str) -> datetime:
    year, number = (int(x) for x in month.split("-"))
    return datetime(year, number, 1, tzinfo=UTC)


def copy_games(path: Path, games: int, month: str, rng: random.Random) -> float:
    """Copy the rated games of the database into ``month`` until it holds ``games``."""
    t0 = time.monotonic()
    con = sqlite3.connect(path)
    con.execute("PRAGMA synchronous=OFF")
    seeds = [r[0] for r in con.execute("SELECT table_id FROM rated_games ORDER BY table_id")]
    assert seeds, "no rated game to copy"
    start = month_start(month)
    span = (month_start(f"{start.year + start.month // 12}-{start.month % 12 + 1:02d}") - start).total_seconds()

    def columns(table: str) -> list[str]:
        return [row[1] for row in con.execute(f"PRAGMA table_info({table})")]

    tables = columns("tables")
    table_sql = (
        f"INSERT INTO tables ({', '.join(tables)}) SELECT "
        + ", ".join({"id": "?", "finished_at": "?", "code": "NULL"}.get(c, c) for c in tables)
        + " FROM tables WHERE id = ?"
    )
    actions = columns("actions")
    action_sql = (
        f"INSERT INTO actions ({', '.join(actions)}) SELECT "
        + ", ".join({"table_id": "?", "explanation": "NULL"}.get(c, c) for c in actions)
        + " FROM actions WHERE table_id = ?"
    )
    player_sql = (
        "INSERT INTO table_players (table_id, player_id, seat, finished_at) "
        "SELECT ?, player_id, seat, ? FROM table_players WHERE table_id = ?"
    )
    for n in range(games):
        seed = seeds[n % len(seeds)]
        new_id = f"{month[2:4]}{month[5:]}{n:08d}"
        end = (start + timedelta(seconds=span * (n + rng.random()) / games)).replace(tzinfo=None)
        at = end.isoformat(sep=" ")
        con.execute(table_sql, (new_id, at, seed))
        con.execute(action_sql, (new_id, seed))
        con.execute(player_sql, (new_id, at, seed))
        con.execute("INSERT INTO rated_games (table_id, created_at) VALUES (?, ?)", (new_id, at))
        if n % 2000 == 1999:
            con.commit()
            print(f"  {n + 1} games copied into {month} ({(n + 1) / (time.monotonic() - t0):.0f} a second)", flush=True)
    con.commit()
    con.close()
    return time.monotonic() - t0


def export(url: str, month: str, to: Path) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, "export", "--db", url, "--month", month, "--to", str(to)],
        capture_output=True,
        text=True,
        timeout=3600,
        check=False,
    )
    print("  " + done.stdout.strip(), flush=True)
    if done.returncode != 0 or not done.stderr.strip():
        raise SystemExit(f"the export failed ({done.returncode}): {done.stderr[-2000:]}")
    figures: dict[str, float] = json.loads(done.stderr.strip().splitlines()[-1])
    assert figures["status"] == 0, done.stderr
    return figures


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--small", type=int, default=10_000)
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dir", help="the working folder (default: a temporary one, removed)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-export-") as temporary:
        workdir = Path(args.dir or temporary)
        path = workdir / "coinche.db"
        url = f"sqlite:///{path}"
        print(f"playing {args.seeds} games to copy", flush=True)
        t0 = time.monotonic()
        deals, steps = seed_games(url, args.seeds, args.seed)
        print(f"  {args.seeds} games, {deals} deals, {steps} steps in {time.monotonic() - t0:.1f} s")
        rng = random.Random(args.seed)
        seconds = copy_games(path, args.games, MONTH, rng)
        small_seconds = copy_games(path, args.small, SMALL_MONTH, rng) if args.small else 0.0
        print(f"copied in {seconds + small_seconds:.0f} s; the database: {path.stat().st_size / 1e9:.2f} GB")
        results = {}
        for month, games in ((SMALL_MONTH, args.small), (MONTH, args.games)):
            if not games:
                continue
            out = workdir / f"coinche-games-{month}.jsonl.gz"
            figures = export(url, month, out)
            size = out.stat().st_size
            results[month] = (games, figures, size)
            print(
                f"export of {games} games ({month}): {figures['seconds']:.1f} s "
                f"({games / figures['seconds']:.0f} games a second), file {size / 1e6:.1f} MB "
                f"({size / games:.0f} bytes a game), peak memory {figures['peak_mib']:.0f} MiB",
                flush=True,
            )
        big = workdir / f"coinche-games-{MONTH}.jsonl.gz"
        lines = 0
        with gzip.open(big, "rb") as f:
            first = f.readline()
            lines = 1 + sum(1 for _ in f)
        assert lines == args.games, (lines, args.games)
        game = replay(parse_record(decode_record(first)))
        print(f"checked: {lines} lines; the first replays ({len(game.deals)} deals, over: {game.is_over})")


if __name__ == "__main__":
    main()
