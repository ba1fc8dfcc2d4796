"""The end of a monthly season (docs/seasons.md) with many players: two processes try to
close it at the same moment; one does, the other finds it done. Prints who closed it, the
players counted and the time.

    python bench/bench_seasons.py --players 100000 --postgres
    python bench/bench_seasons.py --players 20000            # SQLite
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from databases import add_database_args, database_url

SEASON = "2026-11"
AT = datetime(2026, 12, 1, 4, tzinfo=UTC)


def fill(url: str, players: int, seed: int) -> float:
    """``players`` rows of the season, spread over the divisions; the seconds it took."""
    from sqlalchemy import insert

    from coinche.server.features.seasons import SeasonPlayerRow
    from coinche.server.infra.store import Store

    rng = random.Random(seed)
    store = Store(url)
    began = time.perf_counter()
    rows = []
    for i in range(players):
        games = rng.choice((1, 2, 3, 5, 8, 12, 20))
        wins = rng.randint(0, games)
        left = rng.randint(0, games - wins) // 3
        rows.append(
            {
                "season": SEASON,
                "profile": "classic",
                "player_id": f"p{i:07d}",
                "division": rng.choice((1, 2, 2, 3, 3, 3, 4, 4, 5)),
                "points": max(0, 3 * wins + (games - wins - left) - 2 * left),
                "games": games,
                "wins": wins,
                "losses": games - wins - left,
                "left": left,
                "joined_at": AT,
            }
        )
    with store.engine.begin() as conn:
        for start in range(0, len(rows), 5000):
            conn.execute(insert(SeasonPlayerRow), rows[start : start + 5000])
    store.close()
    return time.perf_counter() - began


def close(url: str, start_at: float, out: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    from coinche.server.features.seasons import SeasonStore
    from coinche.server.infra.store import Store

    store = Store(url)
    while time.time() < start_at:
        time.sleep(0.001)
    began = time.perf_counter()
    counted = SeasonStore(store).close(SEASON, "classic", AT)
    out.put((multiprocessing.current_process().name, counted, time.perf_counter() - began))
    store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    add_database_args(parser)
    args = parser.parse_args()
    with database_url(args) as url:
        from coinche.server.infra.store import Store

        Store(url).close()  # the schema
        filled = fill(url, args.players, args.seed)
        print(f"{args.players} players written in {filled:.1f} s")
        context = multiprocessing.get_context("spawn")
        results: multiprocessing.Queue = context.Queue()  # type: ignore[type-arg]
        start_at = time.time() + 3.0
        procs = [context.Process(target=close, args=(url, start_at, results), name=f"process-{n}") for n in (1, 2)]
        for p in procs:
            p.start()
        for p in procs:
            p.join()
        for _ in procs:
            name, counted, seconds = results.get()
            said = f"closed it: {counted} players" if counted is not None else "found it closed"
            print(f"{name}: {said}, {seconds:.2f} s")
        from sqlalchemy import func, select

        from coinche.server.features.seasons import SeasonCloseRow, SeasonDivisionRow, SeasonFinalRow

        store = Store(url)
        with store.session() as s:
            closes = s.scalar(select(func.count()).select_from(SeasonCloseRow))
            earned = s.scalar(select(func.count()).select_from(SeasonDivisionRow))
            moved = dict(
                (m, n) for m, n in s.execute(select(SeasonFinalRow.move, func.count()).group_by(SeasonFinalRow.move))
            )
            inside = s.scalar(select(SeasonCloseRow.seconds))
        store.close()
        print(f"season_closes rows: {closes}; next divisions written: {earned}; moves: {moved}")
        print(f"the closing transaction's own time: {inside:.2f} s")


if __name__ == "__main__":
    main()
