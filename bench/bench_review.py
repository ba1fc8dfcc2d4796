"""The deal review's analysis speed: random full deals of each profile, played out with
random legal actions, timed on one core.

For each profile (and ``online`` with its SA/TA option): the double-dummy table part
(``analyse_deal``: every trump of the profile, both teams, the best contract per seat and
the sweeps) and the whole analysis the review caches (``job_kinds.analyse``: the table plus
the value of each legal card before each of the 32 cards). Prints median, p95 and max in
milliseconds, of CPU time (``time.process_time``: the machine may be shared, and wall time
then measures the neighbours) and of wall time for the table. The issue asks for the table
in under 0.5 s.

    python bench/bench_review.py [--deals N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from coinche.bots.analysis import analyse_deal
from coinche.engine.deal import Deal, random_hands
from coinche.engine.rules import PROFILES, RuleSet
from coinche.server.compute.job_kinds import analyse

TABLE_BUDGET_MS = 500.0


def percentile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


def played_deal(rules: RuleSet, rng: random.Random) -> Deal:
    """A random deal played to its end with random legal actions (never passed out)."""
    while True:
        deal = Deal(rules, rng.randrange(4), random_hands(rng))
        while not deal.is_over:
            deal.apply(rng.choice(deal.legal_actions()))
        if deal.contract is not None:
            return deal


def ms(xs: list[float]) -> str:
    return f"median {statistics.median(xs):7.1f}  p95 {percentile(xs, 0.95):7.1f}  max {max(xs):7.1f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    setups = [(name, RuleSet.profile(name)) for name in PROFILES]
    setups.append(("online+sa_ta", RuleSet.profile("online", sa_ta=True)))
    worst = 0.0
    for name, rules in setups:
        table: list[float] = []
        wall: list[float] = []
        whole: list[float] = []
        for _ in range(args.deals):
            deal = played_deal(rules, rng)
            t0, w0 = time.process_time(), time.perf_counter()
            analyse_deal(rules, deal.dealer, deal.dealt)
            table.append((time.process_time() - t0) * 1000.0)
            wall.append((time.perf_counter() - w0) * 1000.0)
            t0 = time.process_time()
            data = analyse(rules, deal.dealer, deal.dealt, deal.log)
            whole.append((time.process_time() - t0) * 1000.0)
            assert len(data["positions"]) == 32
        worst = max(worst, max(table))
        trumps = 6 if rules.sa_ta else 4
        print(f"{name:<13} ({trumps} trumps, {args.deals} deals)")
        print(f"  table, CPU:                 {ms(table)}")
        print(f"  table, wall:                {ms(wall)}")
        print(f"  table + 32 positions, CPU:  {ms(whole)}")
    verdict = "within" if worst < TABLE_BUDGET_MS else "OVER"
    print(f"slowest table: {worst:.1f} ms of CPU, {verdict} the {TABLE_BUDGET_MS:.0f} ms budget")
    return 0 if worst < TABLE_BUDGET_MS else 1


if __name__ == "__main__":
    raise SystemExit(main())
