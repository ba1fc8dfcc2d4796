"""Bot levels: strength (duplicate arena), move times and how each level feels.

For each pair of levels, plays duplicate deal pairs and prints the score difference per
deal with its 95% interval, the move times, and each level's bidding rate, contracts made
and coinche rate. The figures of the closing notes come from this script (or the same
``coinche arena`` commands).

    python bench/bench_bots.py --rules classic --pairs 200 --jobs 2 [--match expert:confirmed ...]
"""

from __future__ import annotations

import argparse

from coinche.bots.arena import run_arena
from coinche.engine.rules import PROFILES, RuleSet

DEFAULT_MATCHES = ("beginner:random", "confirmed:beginner", "expert:confirmed", "expert:expert-uniform")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rules", choices=list(PROFILES), default="classic")
    ap.add_argument("--pairs", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--match", action="append", help="NS:EW bot names (default: the ladder)")
    args = ap.parse_args()
    rules = RuleSet.profile(args.rules)
    for match in args.match or DEFAULT_MATCHES:
        ns, _, ew = match.partition(":")
        r = run_arena(rules, ns, ew, args.pairs, args.seed, jobs=args.jobs)
        print(
            f"{args.rules} {ns} vs {ew}: {r.mean_diff:+.1f} per deal, 95% CI [{r.ci95[0]:+.1f}, {r.ci95[1]:+.1f}]; "
            f"card points {r.card_points_diff:+.1f} [{r.card_points_ci95[0]:+.1f}, {r.card_points_ci95[1]:+.1f}]; "
            f"{r.deals_per_s:.1f} deals/s"
        )
        for side, name in (("ns", ns), ("ew", ew)):
            st = r.stats[side]
            times = "  ".join(
                f"{label} mean {t.mean * 1000:.1f} ms p95 {t.p95 * 1000:.1f} ms max {t.max * 1000:.0f} ms"
                for label, t in (("move", r.move_time[side]), ("call", r.call_time[side]), ("card", r.card_time[side]))
            )
            print(
                f"    {name:<15} bids {st['bid_rate']:.0%}  takes {st['taker_rate']:.0%}  made {st['made_rate']:.0%}  "
                f"coinches {st['coinche_rate']:.1%}  {times}"
            )
            print("        (call and card: decisions with more than one legal action only; move: every decision)")


if __name__ == "__main__":
    main()
