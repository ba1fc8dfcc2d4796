"""How long a player's profile page takes with 10,000 rated games, on SQLite (issue 18:
under 100 ms).

Generates a database (the site's migrations, so its indexes) with one account that has
``--games`` finished games (tables, seats, rating history), 84 days of daily challenges,
and ``--others`` other players with ``--other-games`` games each (so the indexes have
something to skip); then times, ``--runs`` times each:

* the page through the application (Starlette's ``TestClient``: routing, middleware, the
  database reads on their threads, the chart's down-sampling, the template);
* the page's database reads alone (``StatsStore.profile`` and the calendar's query).

Prints the medians, p95 and max in milliseconds.

    python bench/bench_profile.py [--games 10000] [--runs 50]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from datetime import UTC, datetime, timedelta

from sqlalchemy import insert
from starlette.testclient import TestClient

from coinche.server.features.daily.store import challenge_days
from coinche.server.features.player_stats import StatsStore
from coinche.server.infra.config import Settings
from coinche.server.infra.rows.challenge import ChallengeAttemptRow, ChallengeDayRow, ChallengeResultRow
from coinche.server.infra.rows.people import AccountRow, PlayerRow
from coinche.server.infra.rows.ratings import PlayerStatsRow, RatingHistoryRow
from coinche.server.infra.rows.tables import TablePlayerRow, TableRow
from coinche.server.infra.store import Store
from coinche.server.table.names import name_key, name_skeleton, search_key
from coinche.server.table.ratings import NEW_PLAYER, Rating
from coinche.server.web.app import create_app
from databases import add_database_args, database_url

NAME = "Benchmark"


def generate(url: str, games: int, others: int, other_games: int, seed: int = 1) -> str:
    """The data set; the account's player id."""
    rng = random.Random(seed)
    store = Store(url)
    player = "bench-player"
    start = datetime(2026, 1, 1, tzinfo=UTC)
    with store.engine.begin() as conn:
        conn.execute(insert(PlayerRow), [{"id": player, "deals_played": 0, "created_at": start}])
        conn.execute(
            insert(AccountRow),
            [
                {
                    "id": "bench-account",
                    "name": NAME,
                    "name_key": name_key(NAME),
                    "name_search": search_key(NAME),
                    "name_skeleton": name_skeleton(NAME),
                    "password_hash": "x",
                    "player_id": player,
                    "created_at": start,
                }
            ],
        )
        for who, count in [(player, games), *((f"other-{i}", other_games) for i in range(others))]:
            mu, sigma = NEW_PLAYER.mu, NEW_PLAYER.sigma
            tables, seats, history = [], [], []
            for n in range(count):
                table_id = f"{who[:8]}{n:07d}"
                at = start + timedelta(minutes=30 * n)
                won = rng.random() < 0.5
                mu += (0.3 if won else -0.3) * sigma / 8
                sigma = max(1.0, sigma * 0.995)
                rating = Rating(mu, sigma)
                tables.append(
                    {
                        "id": table_id,
                        "created_at": at,
                        "profile": "classic",
                        "options": {"target": 1000},
                        "seed": n,
                        "first_dealer": 0,
                        "seats": [],
                        "level": "confirmed",
                        "late_joins": False,
                        "finished_at": at,
                        "result": {"totals": [1000, 500], "winner": 0 if won else 1},
                    }
                )
                seats.append({"table_id": table_id, "player_id": who, "seat": 0})
                history.append(
                    {
                        "player_id": who,
                        "table_id": table_id,
                        "at": at,
                        "mu": mu,
                        "sigma": sigma,
                        "display": rating.display,
                        "won": won,
                    }
                )
            conn.execute(insert(TableRow), tables)
            conn.execute(insert(TablePlayerRow), seats)
            conn.execute(insert(RatingHistoryRow), history)
            conn.execute(
                insert(PlayerStatsRow),
                [
                    {
                        "player_id": who,
                        "mu": mu,
                        "sigma": sigma,
                        "rated_games": count,
                        "games_played": count,
                        "games_won": sum(h["won"] for h in history),
                        "deals_played": count * 6,
                        "contracts_taken": count * 2,
                        "contracts_made": count,
                        "coinches": count // 5,
                        "coinches_won": count // 10,
                        "updated_at": start,
                    }
                ],
            )
        today = datetime.now(UTC).date()
        for d in range(84):
            day = (today - timedelta(days=d)).isoformat()
            conn.execute(
                insert(ChallengeDayRow),
                [{"day": day, "profile": "online", "seed": "0" * 64, "commitment": "0" * 64, "created_at": start}],
            )
            if rng.random() < 0.6:
                conn.execute(
                    insert(ChallengeAttemptRow),
                    [{"day": day, "player_id": player, "table_id": f"{player[:8]}{d:07d}", "guest": False}],
                )
                conn.execute(
                    insert(ChallengeResultRow),
                    [
                        {
                            "day": day,
                            "deal": k,
                            "player_id": player,
                            "score": 10,
                            "deal_score": [90, 72],
                            "guest": False,
                        }
                        for k in range(1, 5)
                    ],
                )
    store.close()
    return player


def summary(label: str, times: list[float]) -> str:
    ms = sorted(t * 1000 for t in times)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    return f"{label}: median {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms, max {ms[-1]:.1f} ms ({len(ms)} runs)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--others", type=int, default=20)
    parser.add_argument("--other-games", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=50)
    add_database_args(parser)
    args = parser.parse_args()
    with database_url(args) as url:
        began = time.perf_counter()
        player = generate(url, args.games, args.others, args.other_games)
        print(
            f"data set: {args.games} games for the account, {args.others} x {args.other_games} for others, "
            f"made in {time.perf_counter() - began:.1f} s"
        )

        store = Store(url)
        stats = StatsStore(store)
        since = (datetime.now(UTC).date() - timedelta(days=84)).isoformat()
        found = stats.profile(player)
        assert len(found.history) == args.games, len(found.history)
        query: list[float] = []
        for _ in range(args.runs):
            t = time.perf_counter()
            stats.profile(player)
            challenge_days(store, player, since)
            query.append(time.perf_counter() - t)
        store.close()

        settings = Settings(database_url=url, bot_workers=1)
        with TestClient(create_app(settings)) as client:
            r = client.get(f"/joueur/{NAME}")
            assert r.status_code == 200 and "<polyline" in r.text, r.status_code
            size = len(r.content)
            page: list[float] = []
            for _ in range(args.runs):
                t = time.perf_counter()
                r = client.get(f"/joueur/{NAME}")
                page.append(time.perf_counter() - t)
                assert r.status_code == 200
        print(summary("the profile page (through the app)", page) + f", {size // 1024} KB")
        print(summary("its database reads alone", query))


if __name__ == "__main__":
    main()
