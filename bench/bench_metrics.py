"""What ``GET /metrics`` costs a server: ``--tables`` friends' tables of four people each
held in memory and connected, every page's route asked once (each route a label of the
request histograms), then the scrape asked ``--scrapes`` times; its time at p50 and p95,
its size, and the share of one core it takes at one scrape every 15 s. Also what the
counting costs each move (the hooks a stored step and a computer's decision call).

    python bench/bench_metrics.py --tables 200
    python bench/bench_metrics.py --tables 200 --postgres
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from databases import add_database_args, database_url


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--scrapes", type=int, default=60)
    add_database_args(parser)
    args = parser.parse_args()

    from starlette.routing import Route
    from starlette.testclient import TestClient

    from coinche.engine.rules import RuleSet
    from coinche.server.infra.config import Settings
    from coinche.server.table.kinds import FriendsTable
    from coinche.server.table.spec import Seat, Step
    from coinche.server.web.app import create_app

    with database_url(args) as url:
        settings = Settings(
            database_url=url, bot_workers=1, bot_delay=0, trick_pause=0, coach_deals=0, deal_accuracy=False
        )
        app = create_app(settings)
        with TestClient(app, client=("127.0.0.1", 40000)) as client:
            parts = app.state.parts
            portal = client.portal
            assert portal is not None
            for t in range(args.tables):
                people = [f"p{t}-{s}" for s in range(4)]
                seats = [Seat("human", player=p) for p in people]
                kind = FriendsTable(code=f"C{t:05d}", host_player=people[0])
                spec = portal.call(parts.tables.create_table, RuleSet.profile("online"), seats, "expert", kind)
                portal.call(parts.tables.table, spec.id)
                for p in people:
                    parts.attendance.present[(spec.id, p)] += 1
            held = len(parts.registry.held())
            for route in app.routes:  # every page's route once: the labels a long-running server has
                if isinstance(route, Route) and "{" not in route.path and "GET" in (route.methods or ()):
                    client.get(route.path)
            client.get("/metrics")
            times: list[float] = []
            size = 0
            for _ in range(args.scrapes):
                started = time.perf_counter()
                r = client.get("/metrics")
                times.append(time.perf_counter() - started)
                size = len(r.content)
                assert r.status_code == 200
            metrics = app.state.metrics
            on_loop: list[float] = []
            for _ in range(args.scrapes):
                started = time.perf_counter()
                metrics._read_here(parts)  # what a scrape does on the event loop
                on_loop.append(time.perf_counter() - started)
            live = parts.registry.held()[0]
            step = Step(0, "action", 0, 0)
            n = 200_000
            started = time.perf_counter()
            for _ in range(n):
                metrics.stored(live, step, 0.003)
                metrics.decided("expert", 0.02)
            per_move = (time.perf_counter() - started) / n
    p50, p95 = statistics.median(times), statistics.quantiles(times, n=20)[-1]
    print(f"tables held: {held}, people connected: {4 * args.tables}, database: {url.split(':', 1)[0]}")
    print(f"scrape: p50 {p50 * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms, {size / 1024:.0f} KiB")
    print(f"of which on the event loop: p50 {statistics.median(on_loop) * 1000:.2f} ms")
    print(f"one scrape every 15 s: {100 * p50 / 15:.3f} % of one core")
    print(f"counting a move (a step stored and a decision): {per_move * 1e6:.2f} µs")


if __name__ == "__main__":
    main()
