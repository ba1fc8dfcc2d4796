"""The public read API under a steady load (issue 53): p50/p95 at 100 requests a second
from many addresses against a real ``coinche serve`` (uvicorn) on SQLite.

1. Builds a database: ``--players`` accounts and ``--games`` finished games played for
   real through the application in process (four accounts a table, random legal moves,
   games to 100 points: one deal or two; every step through the tables' real writes and
   listeners, so ratings, the leaderboards and the history are the site's own), and a
   past day of the daily challenge with ``--ranked`` lines of final ranking.
2. Starts ``coinche serve`` on it (``bench_server.Server``).
3. Sends ``--rate`` requests a second for ``--seconds`` seconds, open loop (each at its
   time, whatever the answers before), each from the next of the client addresses
   127.0.0.2 ... 127.0.0.250 (bound: the server sees each address as is, no proxy
   header), one connection a request, mixing the endpoints (profiles, pages of games with
   their cursors, games, records, leaderboards, tournaments, the challenge's day).

Prints the latency's p50/p95/p99/max per endpoint and overall, the statuses, and the
server's CPU.

    python bench/bench_public_api.py [--games 3000] [--players 120] [--rate 100] [--seconds 30]

On a 2-core machine with nothing else running: 3,000 requests in 30 s from 249 addresses,
all 200; p50 5.5 ms, p95 9.6 ms, p99 12.4 ms, max 29 ms (the slowest, a player's games
and a game's record, p95 11.9 and 10.1 ms); the server used 89 % of a core.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import statistics
import tempfile
import time
from collections import Counter, defaultdict
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import insert, select
from starlette.testclient import TestClient

from bench_server import HOST, Server, cpu_seconds
from coinche.engine.actions import PASS
from coinche.engine.rules import RuleSet
from coinche.server.infra.config import Settings
from coinche.server.infra.rows.challenge import ChallengeDayRow, ChallengeStandingRow
from coinche.server.infra.rows.people import AccountRow, PlayerRow
from coinche.server.infra.rows.tables import TableRow
from coinche.server.infra.store import Store
from coinche.server.live.parts import TableParts
from coinche.server.table.live_table import LiveTable
from coinche.server.table.names import name_key, name_skeleton, search_key
from coinche.server.table.spec import Seat, Step
from coinche.server.web.app import create_app

RULES = RuleSet.profile("classic", target=100)
DAY = "2026-11-30"
ADDRESSES = [f"127.0.0.{n}" for n in range(2, 251)]


def add_accounts(url: str, count: int) -> list[tuple[str, str]]:
    """``count`` accounts (name, player id), written as the site's rows."""
    store = Store(url)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    out = [(f"Joueur{i:03d}", f"bench-player-{i:03d}") for i in range(count)]
    with store.engine.begin() as conn:
        conn.execute(insert(PlayerRow), [{"id": p, "deals_played": 0, "created_at": start} for _, p in out])
        conn.execute(
            insert(AccountRow),
            [
                {
                    "id": f"acct{i:012d}",
                    "name": name,
                    "name_key": name_key(name),
                    "name_search": search_key(name),
                    "name_skeleton": name_skeleton(name),
                    "password_hash": "x",
                    "player_id": player,
                    "created_at": start,
                }
                for i, (name, player) in enumerate(out)
            ],
        )
        conn.execute(
            insert(ChallengeDayRow),
            [{"day": DAY, "profile": "online", "seed": "ab" * 32, "commitment": "cd" * 32, "created_at": start}],
        )
    store.close()
    return out


def add_ranking(url: str, players: list[tuple[str, str]], lines: int) -> None:
    """A past day's final ranking of ``lines`` lines (the accounts' and others')."""
    store = Store(url)
    ids = [p for _, p in players] + [f"bench-ranked-{i}" for i in range(max(0, lines - len(players)))]
    with store.engine.begin() as conn:
        conn.execute(
            insert(ChallengeStandingRow),
            [
                {
                    "day": DAY,
                    "player_id": player,
                    "position": i,
                    "rank": i + 1,
                    "average": 100 - 100 * i / lines,
                    "finished": 4,
                    "percents": [50.0, 60.0, None, 40.0],
                }
                for i, player in enumerate(ids[:lines])
            ],
        )
        conn.execute(
            ChallengeDayRow.__table__.update()  # type: ignore[attr-defined]
            .where(ChallengeDayRow.day == DAY)
            .values(ranked_results=lines * 4, ranked_final=True)
        )
    store.close()


async def play_games(parts: TableParts, players: list[str], games: int, seed: int) -> list[str]:
    """``games`` games of four of ``players`` each, played to their end with random legal
    moves (bidding often, so 100 points come in a deal or two); their ids."""
    rng = random.Random(seed)
    ids = []
    for _ in range(games):
        four = rng.sample(players, 4)
        spec = await parts.tables.create_table(RULES, [Seat("human", player=p) for p in four], "beginner")
        ids.append(spec.id)

        async def check(live: LiveTable) -> Step | None:
            game = live.game
            if game.is_over:
                return None
            if game.awaiting_deal:
                return Step(live.seq, "deal", 0)
            legal = game.legal_actions()
            deal = game.current
            if deal is not None and PASS in legal and all(c == PASS for c in deal.auction.calls):
                return Step(live.seq, "action", game.to_move, min(a for a in legal if a >= 1000))
            bids = [a for a in legal if a != legal[0]]
            choice = rng.choice(bids) if bids and rng.random() < 0.3 else legal[0]
            return Step(live.seq, "action", game.to_move, choice)

        while True:
            live = await parts.tables.table(spec.id)
            assert live is not None
            if live.game.is_over:
                break
            await parts.tables.write(spec.id, None, check)
    return ids


def build(workdir: Path, args: argparse.Namespace) -> tuple[list[str], list[str]]:
    url = f"sqlite:///{workdir / 'bench.db'}"
    settings = Settings(
        database_url=url,
        bot_delay=0,
        trick_pause=0,
        bot_workers=1,
        deal_accuracy=False,
        coach_deals=0,
        daily_arena_hour=None,
    )
    app = create_app(settings)  # the database migrated
    with TestClient(app) as client:
        pass
    players = add_accounts(url, args.players)
    app = create_app(settings)
    started = time.perf_counter()
    with TestClient(app) as client:
        parts: TableParts = client.app.state.parts  # type: ignore[attr-defined]
        ids = client.portal.call(play_games, parts, [p for _, p in players], args.games, 1)  # type: ignore[union-attr]
    print(f"built: {args.games} games of {args.players} accounts in {time.perf_counter() - started:.0f} s")
    add_ranking(url, players, args.ranked)
    return [name for name, _ in players], ids


def reread(workdir: Path) -> tuple[list[str], list[str]]:
    """The accounts' names and the games of a database built before."""
    store = Store(f"sqlite:///{workdir / 'bench.db'}")
    with store.session() as s:
        names = list(s.scalars(select(AccountRow.name).where(AccountRow.name.like("Joueur%"))))
        games = list(
            s.scalars(select(TableRow.id).where(TableRow.finished_at.is_not(None), TableRow.challenge_day.is_(None)))
        )
    store.close()
    print(f"read again: {len(games)} games of {len(names)} accounts")
    return names, games


async def request(port: int, address: str, path: str) -> tuple[int, bytes]:
    reader, writer = await asyncio.open_connection(HOST, port, local_addr=(address, 0))
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nConnection: close\r\n\r\n".encode())
        await writer.drain()
        raw = await reader.read()
    finally:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()
    head, _, body = raw.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


def pick(rng: random.Random, names: list[str], games: list[str], cursors: list[str]) -> tuple[str, str]:
    """(endpoint, path) of one request of the mix."""
    roll = rng.random()
    name = rng.choice(names)
    if roll < 0.20:
        return "player", f"/api/v1/players/{name}"
    if roll < 0.35:
        return "games", f"/api/v1/players/{name}/games?limit=20"
    if roll < 0.45 and cursors:
        return "games (next page)", rng.choice(cursors)
    if roll < 0.60:
        return "game", f"/api/v1/games/{rng.choice(games)}"
    if roll < 0.75:
        return "record", f"/api/v1/games/{rng.choice(games)}/record"
    if roll < 0.85:
        return "leaderboard", f"/api/v1/leaderboards/{rng.choice(['site', 'classic', 'bots'])}"
    if roll < 0.92:
        return "challenge", f"/api/v1/challenge/{DAY}?start={rng.randrange(0, 400)}&limit=50"
    if roll < 0.96:
        return "tournaments", "/api/v1/tournaments"
    return "openapi", "/api/v1/openapi.json"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def load(port: int, names: list[str], games: list[str], args: argparse.Namespace, pid: int) -> None:
    rng = random.Random(2)
    cursors: list[str] = []
    for name in names[:20]:  # next pages to ask for, as a client following "next" would
        _, body = await request(port, ADDRESSES[0], f"/api/v1/players/{name}/games?limit=20")
        following = json.loads(body).get("next")
        if following:
            cursors.append(following)
    times: dict[str, list[float]] = defaultdict(list)
    statuses: Counter[int] = Counter()
    late: list[float] = []

    async def one(at: float, n: int) -> None:
        kind, path = pick(rng, names, games, cursors)
        try:
            status, _ = await asyncio.wait_for(request(port, ADDRESSES[n % len(ADDRESSES)], path), 30)
        except (OSError, TimeoutError):
            status = 0
        statuses[status] += 1
        times[kind].append(time.perf_counter() - at)

    idle = cpu_seconds(pid)
    await asyncio.sleep(5)
    idle = (cpu_seconds(pid) - idle) / 5  # the server's own work meanwhile (runners, ticks)
    total = int(args.rate * args.seconds)
    cpu_before = cpu_seconds(pid)
    start = time.perf_counter()
    tasks = []
    for n in range(total):
        at = start + n / args.rate
        delay = at - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        else:
            late.append(-delay)
        tasks.append(asyncio.create_task(one(at, n)))
    await asyncio.gather(*tasks)
    elapsed = time.perf_counter() - start
    cpu = cpu_seconds(pid) - cpu_before
    every = [t for values in times.values() for t in values]
    print(
        f"{total} requests in {elapsed:.1f} s ({total / elapsed:.0f}/s) from {len(ADDRESSES)} addresses; "
        f"statuses {dict(sorted(statuses.items()))}; server CPU {cpu:.1f} s ({100 * cpu / elapsed:.0f}% of a core; "
        f"idle before: {100 * idle:.0f}%)"
    )
    if late:
        print(f"the sender ran late {len(late)} times (at most {1000 * max(late):.1f} ms)")
    print(f"{'endpoint':<20} {'n':>5} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for kind, values in sorted(times.items()):
        ms = [1000 * v for v in values]
        print(
            f"{kind:<20} {len(ms):>5} {statistics.median(ms):>8.1f} {percentile(ms, 0.95):>8.1f} "
            f"{percentile(ms, 0.99):>8.1f} {max(ms):>8.1f}"
        )
    ms = [1000 * v for v in every]
    print(
        f"{'all':<20} {len(ms):>5} {statistics.median(ms):>8.1f} {percentile(ms, 0.95):>8.1f} "
        f"{percentile(ms, 0.99):>8.1f} {max(ms):>8.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--players", type=int, default=120)
    parser.add_argument("--ranked", type=int, default=500)
    parser.add_argument("--rate", type=float, default=100.0)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--workdir", type=Path, help="keep the database there (built once, read again after)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        workdir = args.workdir or Path(tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        names, games = reread(workdir) if (workdir / "bench.db").exists() else build(workdir, args)
        server = Server(workdir, workers=1, bot_delay=0.7, idle_seconds=300)
        try:
            asyncio.run(server.wait_ready())
            asyncio.run(load(server.port, names, games, args, server.proc.pid))
        finally:
            server.stop()


if __name__ == "__main__":
    main()
