"""A club's page with many members: a real ``coinche serve`` on a database holding a club of
``--members`` accounts (a share of them online, rated, some at public tables), its page
asked ``--requests`` times by a member; the page's time at p50 and p95.

    python bench/bench_clubs.py --members 2000
    python bench/bench_clubs.py --members 2000 --postgres
"""

from __future__ import annotations

import argparse
import http.client
import random
import socket
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from databases import add_database_args, database_url


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def fill(url: str, members: int, seed: int) -> str:
    """The club and its members; its id."""
    from sqlalchemy import insert

    from coinche.server.features.clubs import ClubMemberRow, ClubRow
    from coinche.server.infra.rows.people import AccountRow, OnlineRow, PlayerRow
    from coinche.server.infra.rows.ratings import PlayerStatsRow
    from coinche.server.infra.store import Store
    from coinche.server.table.names import name_key, name_skeleton, search_key

    rng = random.Random(seed)
    now = datetime.now(UTC)
    store = Store(url)
    players, accounts, stats, online, club = [], [], [], [], []
    for i in range(members):
        pid, name = f"p{i:011d}", f"Membre{i:05d}"
        players.append({"id": pid, "deals_played": 0, "created_at": now})
        accounts.append(
            {
                "id": f"a{i:015d}",
                "name": name,
                "name_key": name_key(name),
                "name_search": search_key(name),
                "name_skeleton": name_skeleton(name),
                "password_hash": "x",
                "player_id": pid,
                "created_at": now,
            }
        )
        if rng.random() < 0.8:
            mu, sigma = rng.gauss(25, 2), rng.uniform(1, 6)
            stats.append({"player_id": pid, "mu": mu, "sigma": sigma, "ordinal": mu - 3 * sigma, "rated_games": 10})
        if rng.random() < 0.15:
            online.append({"player_id": pid, "seen_at": now})
        club.append(
            {"club_id": "benchclub", "player_id": pid, "role": "owner" if i == 0 else "member", "joined_at": now}
        )
    with store.engine.begin() as conn:
        for rows, table in ((players, PlayerRow), (accounts, AccountRow), (stats, PlayerStatsRow), (online, OnlineRow)):
            for start in range(0, len(rows), 2000):
                conn.execute(insert(table), rows[start : start + 2000])
        conn.execute(
            insert(ClubRow),
            {
                "id": "benchclub",
                "name": "Le grand club",
                "name_key": "le grand club",
                "name_skeleton": name_skeleton("Le grand club"),
                "description": "",
                "open": True,
                "owner_id": players[0]["id"],
                "created_at": now,
            },
        )
        for start in range(0, len(club), 2000):
            conn.execute(insert(ClubMemberRow), club[start : start + 2000])
    store.close()
    return "benchclub"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", type=int, default=2000)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    add_database_args(parser)
    args = parser.parse_args()
    with database_url(args) as url:
        from coinche.server.infra.store import Store

        Store(url).close()
        club_id = fill(url, args.members, args.seed)
        port = free_port()
        log = open(Path("/tmp") / f"bench-clubs-{port}.log", "w")  # noqa: SIM115
        server = subprocess.Popen(
            [sys.executable, "-m", "coinche.cli", "serve", "--port", str(port), "--db", url, "--workers", "1"],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                try:
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                    conn.request("GET", "/")
                    conn.getresponse().read()
                    break
                except OSError:
                    time.sleep(0.2)
            times = []
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            for _ in range(args.requests):
                began = time.perf_counter()
                conn.request("GET", f"/club/{club_id}")
                response = conn.getresponse()
                body = response.read()
                times.append(time.perf_counter() - began)
                assert response.status == 200, response.status
            times.sort()
            p95 = times[int(0.95 * (len(times) - 1))]
            print(f"club of {args.members} members: page {len(body) // 1024} KiB")
            print(
                f"GET /club/{{id}} x{args.requests}: "
                f"p50 {1000 * statistics.median(times):.1f} ms, p95 {1000 * p95:.1f} ms"
            )
        finally:
            server.terminate()
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
