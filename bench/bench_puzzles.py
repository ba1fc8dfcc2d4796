"""Puzzles found per CPU-minute (issue 32): ``--deals`` random deals played by four bots of
``--bot``, then searched for card-play puzzles (``bots.puzzles.find_puzzles``, what the
``puzzle`` job of the workers runs on each finished deal of the site).

Prints the CPU time of the play and of the search, the puzzles found (every one, and the
one a deal gives: ``best_puzzle``), both per CPU-minute of search, the share of deals that
give one, the themes, and the search time per deal (median, 95th percentile, max); the
solver's check of a stored puzzle (``confirm``: what the puzzle of the day passes first);
the bidding puzzles (``bots.bidding_puzzles``, the ``bidding_puzzle`` job) of the same deals;
and, with ``--pages N``, the time of a puzzle's page on a ``coinche serve`` (SQLite) that
holds the puzzles found, N requests one after the other.

    python bench/bench_puzzles.py [--deals 500] [--rules classic] [--bot confirmed] [--pages 300]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

from bench_server import Server, http_request, percentile
from coinche.bots.bidding_puzzles import best_bidding_puzzle, find_bidding_puzzles
from coinche.bots.loading import load_bot
from coinche.bots.puzzles import Puzzle, best_puzzle, confirm, find_puzzles
from coinche.engine.actions import call_str, is_numeric_bid
from coinche.engine.deal import Deal, random_hands
from coinche.engine.rules import RuleSet
from coinche.server.compute.job_kinds import puzzle_to_json
from coinche.server.features.puzzles import PuzzleStore
from coinche.server.infra.store import Store


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--bot", default="confirmed")
    parser.add_argument("--pages", type=int, default=0, help="requests of puzzle pages on a server")
    args = parser.parse_args()
    rules = RuleSet.profile(args.rules)
    rng = random.Random(1)
    play_cpu = 0.0
    searches: list[float] = []
    found = given = 0
    kept: list[tuple[Deal, Puzzle]] = []
    themes: Counter[str] = Counter()
    bidding: list[float] = []
    bidding_given = 0
    bidding_kinds: Counter[str] = Counter()
    for n in range(args.deals):
        bots = [load_bot(args.bot, seed=n * 4 + s) for s in range(4)]
        deal = Deal(rules, n % 4, random_hands(rng))
        t0 = time.process_time()
        while not deal.is_over:
            deal.apply(bots[deal.to_move].choose(deal.view(deal.to_move)).action)  # a meld declaration too
        t1 = time.process_time()
        puzzles = find_puzzles(rules, deal.dealer, deal.dealt, deal.log)
        t2 = time.process_time()
        play_cpu += t1 - t0
        searches.append(t2 - t1)
        found += len(puzzles)
        best = best_puzzle(puzzles)
        if best is not None:
            given += 1
            kept.append((deal, best))
            themes.update(best.themes or ("(none)",))
        t3 = time.process_time()
        call = best_bidding_puzzle(find_bidding_puzzles(rules, deal.dealer, deal.dealt, deal.auction.calls))
        bidding.append(time.process_time() - t3)
        if call is not None:
            bidding_given += 1
            bidding_kinds[call_str(call.call) if not is_numeric_bid(call.call) else "a bid"] += 1
    search_cpu = sum(searches)
    per_minute = 60.0 / search_cpu if search_cpu else float("inf")
    print(f"{args.deals} deals of {args.rules} played by {args.bot}")
    print(f"  CPU: play {play_cpu:.1f} s, search {search_cpu:.1f} s")
    print(f"  puzzles: {found} positions, {given} deals give one ({100 * given / args.deals:.0f} %)")
    print(f"  per CPU-minute of search: {found * per_minute:.0f} positions, {given * per_minute:.0f} puzzles")
    print(f"  per CPU-minute of play and search: {given * 60 / (play_cpu + search_cpu):.0f} puzzles")
    ms = [s * 1000 for s in searches]
    median, p95 = statistics.median(ms), percentile(ms, 0.95)
    print(f"  search per deal: median {median:.1f} ms, p95 {p95:.1f} ms, max {max(ms):.1f} ms")
    print(f"  themes of the puzzles given: {dict(themes.most_common())}")
    bidding_cpu = sum(bidding)
    ms = [s * 1000 for s in bidding]
    print(
        f"  bidding puzzles: {bidding_given} deals give one ({100 * bidding_given / args.deals:.0f} %),"
        f" {bidding_given * 60 / bidding_cpu:.0f} per CPU-minute of search; the expert's calls {dict(bidding_kinds)}"
    )
    print(f"  bidding search per deal: median {statistics.median(ms):.1f} ms, p95 {percentile(ms, 0.95):.1f} ms")
    checks = []
    for deal, best in kept:
        t0 = time.perf_counter()
        assert confirm(rules, deal.dealer, deal.dealt, best.log, best.solution)
        checks.append((time.perf_counter() - t0) * 1000)
    if checks:
        median, p95 = statistics.median(checks), percentile(checks, 0.95)
        print(f"  a puzzle's check: median {median:.1f} ms, p95 {p95:.1f} ms, max {max(checks):.1f} ms")
    if args.pages and kept:
        asyncio.run(pages(kept, args.pages))


async def pages(kept: list[tuple[Deal, Puzzle]], requests: int) -> None:
    """A server holding the puzzles; the time of their pages, one request at a time."""
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp), workers=1, bot_delay=0, idle_seconds=300)
        try:
            await server.wait_ready()
            store = Store(f"sqlite:///{Path(tmp) / 'bench.db'}")
            ids = [
                PuzzleStore(store).add(f"bench{n}", 1, deal, puzzle_to_json(best))
                for n, (deal, best) in enumerate(kept)
            ]
            store.close()
            times = []
            for n in range(requests):
                path = f"/problemes/{ids[n % len(ids)]}"
                t0 = time.perf_counter()
                status, _, _ = await http_request(server.port, "GET", path, timeout=10)
                times.append((time.perf_counter() - t0) * 1000)
                assert status == 200, status
            median, p95 = statistics.median(times), percentile(times, 0.95)
            slowest = max(times)
            print(f"  a puzzle's page ({requests} requests): median {median:.1f} ms, p95 {p95:.1f} ms, ", end="")
            print(f"max {slowest:.1f} ms")
        finally:
            server.stop()


if __name__ == "__main__":
    main()
