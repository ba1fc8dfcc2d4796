"""How fast a history page's query is for an account with many games: ``--games``
finished games of one player (and as many of other players, so the index must filter) in
a temporary SQLite file migrated as the site's, then the query of the first page and of
a deep page (keyset cursor near the oldest game), each run ``--runs`` times. Prints the
medians and the query plan.

    python bench/bench_history.py [--games 10000] [--runs 21]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import insert, text

from coinche.server.features.history import HistoryStore
from coinche.server.infra.rows.tables import FinishedDealRow, TablePlayerRow, TableRow
from coinche.server.infra.store import Store

BOT = {"kind": "bot", "level": "expert"}


def fill(store: Store, player: str, games: int) -> None:
    """``games`` finished games of ``player`` and as many of others, each with two deals."""
    start = datetime(2020, 1, 1, tzinfo=UTC)
    tables: list[dict[str, Any]] = []
    seated: list[dict[str, Any]] = []
    deals: list[dict[str, Any]] = []
    for i in range(2 * games):
        owner = player if i % 2 == 0 else f"other{i % 97}"
        table_id = f"t{i:07d}"
        moment = start + timedelta(minutes=i)
        tables.append(
            {
                "id": table_id,
                "created_at": moment,
                "profile": "classic",
                "options": {"target": 1000},
                "seed": i,
                "first_dealer": 0,
                "seats": [{"kind": "human", "player": owner}, BOT, BOT, BOT],
                "level": "expert",
                "finished_at": moment + timedelta(seconds=50),
                "result": {"totals": [1020, 600], "winner": 0},
                "late_joins": False,
            }
        )
        seated.append(
            {"table_id": table_id, "player_id": owner, "seat": 0, "finished_at": moment + timedelta(seconds=50)}
        )
        for n in (1, 2):
            deals.append(
                {
                    "table_id": table_id,
                    "deal": n,
                    "finished_at": moment,
                    "dealer": n,
                    "contract": "100H",
                    "taker": 0,
                    "made": True,
                    "score": [510, 300],
                }
            )
    with store.engine.begin() as conn:
        conn.execute(insert(TableRow), tables)
        conn.execute(insert(TablePlayerRow), seated)
        conn.execute(insert(FinishedDealRow), deals)


def timed(fn: Any, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(f"sqlite:///{Path(tmp) / 'bench.db'}")
        fill(store, "me", args.games)
        with store.engine.begin() as conn:
            conn.execute(text("ANALYZE"))
        history = HistoryStore(store)
        first = history.games("me")
        assert len(first) == 50
        deep_cursor = None
        page = first
        pages = 1
        while len(page) == 50 and pages < args.games // 50 - 1:  # walk to the last pages
            last = page[-1]
            deep_cursor = (last.finished_at.replace(tzinfo=UTC), last.table_id)
            page = history.games("me", deep_cursor)
            pages += 1
        first_ms = timed(lambda: history.games("me"), args.runs)
        deep_ms = timed(lambda: history.games("me", deep_cursor), args.runs)
        deals_ms = timed(lambda: history.deals(first[0].table_id), args.runs)
        with store.engine.connect() as conn:
            plan = conn.execute(
                text(
                    "EXPLAIN QUERY PLAN SELECT tables.id FROM table_players JOIN tables"
                    " ON tables.id = table_players.table_id WHERE table_players.player_id = 'me'"
                    " AND table_players.finished_at IS NOT NULL"
                    " ORDER BY table_players.finished_at DESC, table_players.table_id DESC LIMIT 50"
                )
            ).all()
        store.close()
    print(f"{args.games} games of one player ({2 * args.games} tables in all), median of {args.runs} runs:")
    print(f"  history, first page (50 games, names included): {first_ms:.1f} ms")
    print(f"  history, page {pages} (keyset cursor):            {deep_ms:.1f} ms")
    print(f"  a game's deals:                                 {deals_ms:.2f} ms")
    print("  plan: " + " / ".join(str(row[-1]) for row in plan))


if __name__ == "__main__":
    main()
