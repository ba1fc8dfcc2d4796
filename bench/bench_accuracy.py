"""Accuracy (issue 50): the computers' ladder, and what a game's accuracy costs a worker.

``ladder``: each level plays ``--deals`` random deals of each profile in all four seats (the
same deals for every level), and each deal's accuracy is computed as the site computes it
(``job_kinds.run_analysis`` on the deal's JSON, then ``accuracy_by_seat``). Prints each
level's share of cards at the best, points lost per card, share of calls at the best and
expected points lost per call, and exits 1 unless expert > confirmed > beginner > random on
all four (a larger share, fewer points lost).

``game``: a whole game of ``--target`` points (the expert in every seat) and the CPU time of
the analysis of each of its deals, as a worker runs it: the cost of a game's accuracy, and
the share of one worker process it takes at ``--tables`` tables when a deal of people lasts
``--deal-seconds``.

    python bench/bench_accuracy.py ladder [--deals 200] [--profiles online,classic] [--jobs 2]
    python bench/bench_accuracy.py game [--target 3000] [--tables 200] [--deal-seconds 90]
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import random
import statistics
import sys
import time

from coinche.bots.accuracy import Accuracy, accuracy_by_seat, total
from coinche.bots.arena import derive_seed
from coinche.bots.loading import load_bot
from coinche.engine.deal import Deal, random_hands
from coinche.engine.game import Game
from coinche.engine.rules import RuleSet
from coinche.server.compute.job_kinds import deal_args, run_analysis

LEVELS = ("expert", "confirmed", "beginner", "random")


def play_deal(rules: RuleSet, level: str, seed: int) -> Deal:
    rng = random.Random(seed)
    deal = Deal(rules, rng.randrange(4), random_hands(rng))
    bots = [load_bot(level, seed=derive_seed(seed, level, s)) for s in range(4)]
    while not deal.is_over:
        deal.apply(bots[deal.to_move].choose(deal.view(deal.to_move)).action)
    return deal


def deal_accuracy(task: tuple[str, str, int]) -> tuple[str, str, Accuracy, float]:
    """One deal played by ``level`` and its accuracy (all four seats), with the analysis's
    CPU seconds."""
    profile, level, seed = task
    deal = play_deal(RuleSet.profile(profile), level, seed)
    t = time.process_time()
    analysis = run_analysis(deal_args(deal))
    cpu = time.process_time() - t
    return profile, level, total(accuracy_by_seat(analysis)), cpu


def ladder(args: argparse.Namespace) -> int:
    profiles = args.profiles.split(",")
    tasks = [(p, level, derive_seed(args.seed, p, i)) for p in profiles for level in LEVELS for i in range(args.deals)]
    tallies: dict[tuple[str, str], Accuracy] = {}
    cpus: list[float] = []
    t0 = time.monotonic()
    with multiprocessing.Pool(args.jobs) as pool:
        for profile, level, acc, cpu in pool.imap_unordered(deal_accuracy, tasks, chunksize=4):
            tallies[(profile, level)] = tallies.get((profile, level), Accuracy()) + acc
            cpus.append(cpu)
    print(f"accuracy ladder: {args.deals} deals a level and profile, seed {args.seed}, {time.monotonic() - t0:.0f} s")
    ok = True
    for profile in profiles:
        print(f"  {profile}:")
        print("    level       cards at best  pts lost/card   calls at best  pts lost/call   (cards, calls)")
        rows = [tallies[(profile, level)] for level in LEVELS]
        for level, a in zip(LEVELS, rows, strict=True):
            print(
                f"    {level:<10}  {100 * (a.card_share or 0):11.1f} %  {a.card_mean or 0:13.2f}"
                f"   {100 * (a.call_share or 0):11.1f} %  {a.call_mean or 0:13.1f}   ({a.cards}, {a.calls})"
            )
        for better, worse in itertools.pairwise(rows):
            ordered = (
                (better.card_share or 0) > (worse.card_share or 0)
                and (better.card_mean or 0) < (worse.card_mean or 0)
                and (better.call_share or 0) > (worse.call_share or 0)
                and (better.call_mean or 0) < (worse.call_mean or 0)
            )
            ok = ok and ordered
    median, p95 = 1000 * statistics.median(cpus), 1000 * pct(cpus, 0.95)
    print(f"  analysis per deal (CPU): median {median:.0f} ms, p95 {p95:.0f} ms")
    print("  order expert > confirmed > beginner > random on all four: " + ("yes" if ok else "NO"))
    return 0 if ok else 1


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


def game(args: argparse.Namespace) -> int:
    rules = RuleSet.profile(args.profile, target=args.target)
    g = Game(rules, seed=args.seed)
    bots = [load_bot("expert", seed=args.seed + s) for s in range(4)]
    while not g.is_over:
        deal = g.current
        assert deal is not None
        g.apply(bots[deal.to_move].choose(deal.view(deal.to_move)).action)
    deals = list(g.deals)
    cpus = []
    for deal in deals:
        t = time.process_time()
        run_analysis(deal_args(deal))
        cpus.append(time.process_time() - t)
    per_deal = statistics.fmean(cpus)
    rate = args.tables / args.deal_seconds
    print(f"a game's accuracy: {args.profile} to {args.target}, {len(deals)} deals, expert in every seat")
    print(
        f"  analysis CPU: {sum(cpus):.2f} s for the game; per deal median {1000 * statistics.median(cpus):.0f} ms, "
        f"p95 {1000 * pct(cpus, 0.95):.0f} ms, max {1000 * max(cpus):.0f} ms"
    )
    print(
        f"  at {args.tables} tables, a deal every {args.deal_seconds:g} s each: {rate:.2f} deals/s, "
        f"{rate * per_deal:.2f} s of CPU a second = {100 * rate * per_deal:.0f} % of one worker process"
    )
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    lad = sub.add_parser("ladder")
    lad.add_argument("--deals", type=int, default=200)
    lad.add_argument("--profiles", default="online,classic")
    lad.add_argument("--jobs", type=int, default=2)
    lad.add_argument("--seed", type=int, default=1)
    gam = sub.add_parser("game")
    gam.add_argument("--profile", default="classic")
    gam.add_argument("--target", type=int, default=3000)
    gam.add_argument("--tables", type=int, default=200)
    gam.add_argument("--deal-seconds", type=float, default=90.0)
    gam.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    return ladder(args) if args.command == "ladder" else game(args)


if __name__ == "__main__":
    sys.exit(main())
