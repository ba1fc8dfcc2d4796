"""Puzzles found per CPU-minute (issue 32): ``--deals`` random deals played by four bots of
``--bot``, then searched for card-play puzzles (``bots.puzzles.find_puzzles``, what the
``puzzle`` job of the workers runs on each finished deal of the site).

Prints the CPU time of the play and of the search, the puzzles found (every one, and the
one a deal gives: ``best_puzzle``), both per CPU-minute of search, the share of deals that
give one, the themes, and the search time per deal (median, 95th percentile, max).

    python bench/bench_puzzles.py [--deals 500] [--rules classic] [--bot confirmed]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter

from bench_server import percentile
from coinche.bots.loading import load_bot
from coinche.bots.puzzles import best_puzzle, find_puzzles
from coinche.engine.deal import Deal, Declaration, random_hands
from coinche.engine.rules import RuleSet


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--bot", default="confirmed")
    args = parser.parse_args()
    rules = RuleSet.profile(args.rules)
    rng = random.Random(1)
    play_cpu = 0.0
    searches: list[float] = []
    found = given = 0
    themes: Counter[str] = Counter()
    for n in range(args.deals):
        bots = [load_bot(args.bot, seed=n * 4 + s) for s in range(4)]
        deal = Deal(rules, n % 4, random_hands(rng))
        t0 = time.process_time()
        while not deal.is_over:
            action = bots[deal.to_move].choose(deal.view(deal.to_move)).action
            if isinstance(action, Declaration):
                deal.declare(action.melds)
            else:
                deal.apply(action)
        t1 = time.process_time()
        puzzles = find_puzzles(rules, deal.dealer, deal.dealt, deal.log)
        t2 = time.process_time()
        play_cpu += t1 - t0
        searches.append(t2 - t1)
        found += len(puzzles)
        best = best_puzzle(puzzles)
        if best is not None:
            given += 1
            themes.update(best.themes or ("(none)",))
    search_cpu = sum(searches)
    per_minute = 60.0 / search_cpu if search_cpu else float("inf")
    print(f"{args.deals} deals of {args.rules} played by {args.bot}")
    print(f"  CPU: play {play_cpu:.1f} s, search {search_cpu:.1f} s")
    print(f"  puzzles: {found} positions, {given} deals give one ({100 * given / args.deals:.0f} %)")
    print(f"  per CPU-minute of search: {found * per_minute:.0f} positions, {given * per_minute:.0f} puzzles")
    print(f"  per CPU-minute of play and search: {given * 60 / (play_cpu + search_cpu):.0f} puzzles")
    ms = [s * 1000 for s in searches]
    median, p95 = statistics.median(ms), percentile(ms, 95)
    print(f"  search per deal: median {median:.1f} ms, p95 {p95:.1f} ms, max {max(ms):.1f} ms")
    print(f"  themes of the puzzles given: {dict(themes.most_common())}")


if __name__ == "__main__":
    main()
