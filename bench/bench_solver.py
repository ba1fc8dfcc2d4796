"""Double-dummy solver speed on random full deals, before the first card.

For each trump mode group (suit contracts, SA, TA), N random deals with a random leader:
the exact value ``solve(pos, 0)`` and the threshold test ``can_reach(pos, 0, 81)``, timed
one call at a time on one core; prints the median, p99 and max in milliseconds, and the mean
number of trick starts visited.

    python bench/bench_solver.py [--deals N] [--seed S] [--reference K]

``--reference K`` also solves K of the suit-contract deals with the pure-Python twin,
checks that both give the same value and prints how much slower the twin is.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from coinche.bots.solver import Position, can_reach, last_nodes, solve
from coinche.bots.solver import reference as ref
from coinche.engine.deal import random_hands


def random_full_deal(rng: random.Random, trump: int) -> Position:
    h = random_hands(rng)
    return Position(hands=(h[0], h[1], h[2], h[3]), trump=trump, leader=rng.randrange(4))


def percentile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


def timed(fn: Callable[[], object]) -> tuple[float, int]:
    t0 = time.perf_counter()
    fn()
    return (time.perf_counter() - t0) * 1000.0, last_nodes()


def report(name: str, times: list[float], nodes: list[int]) -> None:
    print(
        f"  {name:<22} median {statistics.median(times):7.3f} ms   p99 {percentile(times, 0.99):8.3f} ms   "
        f"max {max(times):8.3f} ms   mean nodes {statistics.fmean(nodes):9.0f}"
    )


def bench(label: str, trumps: tuple[int, ...], n: int, seed: int) -> None:
    rng = random.Random(seed)
    positions = [random_full_deal(rng, rng.choice(trumps)) for _ in range(n)]
    solve_t, solve_n, reach_t, reach_n = [], [], [], []
    for pos in positions:
        t, k = timed(lambda pos=pos: solve(pos, 0))
        solve_t.append(t)
        solve_n.append(k)
        t, k = timed(lambda pos=pos: can_reach(pos, 0, 81))
        reach_t.append(t)
        reach_n.append(k)
    print(f"{label}: {n} deals")
    report("solve", solve_t, solve_n)
    report("can_reach(pos, 0, 81)", reach_t, reach_n)


def compare_reference(k: int, seed: int) -> None:
    rng = random.Random(seed)
    ratios = []
    for _ in range(k):
        pos = random_full_deal(rng, rng.randrange(4))
        t0 = time.perf_counter()
        fast = solve(pos, 0)
        t1 = time.perf_counter()
        slow = ref.solve(pos, 0)
        t2 = time.perf_counter()
        assert fast == slow, (pos, fast, slow)
        ratios.append((t2 - t1) / (t1 - t0))
    print(f"reference twin on {k} suit deals: same values; median {statistics.median(ratios):.0f}x slower than C")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=1000, help="deals per trump group (default 1000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--reference", type=int, default=0, metavar="K", help="compare K deals with the Python twin")
    args = ap.parse_args()
    bench("suit contracts", (0, 1, 2, 3), args.deals, args.seed)
    bench("SA", (4,), max(args.deals // 4, 1), args.seed + 1)
    bench("TA", (5,), max(args.deals // 4, 1), args.seed + 2)
    if args.reference:
        compare_reference(args.reference, args.seed + 3)


if __name__ == "__main__":
    main()
