"""Adaptive level: does the knob settle where a given "human" wins about half the deals?

A fixed bot stands in for the human in seat 0; the three other seats (partner included)
are adaptive bots that learn from seat 0's results. For each stand-in, plays N deals and
prints where the knob went (0.0 Débutant, 0.5 Confirmé, 1.0 Expert) and how often the
stand-in's team won a deal over the last half of the run. A weaker stand-in should pull
the knob down and a stronger one push it up.

    python bench/bench_adaptive.py [--deals 150] [--rules classic] [--human beginner ...]
"""

from __future__ import annotations

import argparse
import random
import statistics

from coinche.bots.adaptive import AdaptiveBot
from coinche.bots.base import Bot
from coinche.bots.loading import load_bot
from coinche.engine.deal import Deal, Phase, random_hands
from coinche.engine.rules import PROFILES, RuleSet


def run(rules: RuleSet, human: str, deals: int, seed: int) -> tuple[list[float], list[int]]:
    """The knob after every deal and the sign of the stand-in team's score margin."""
    stand_in = load_bot(human, seed=seed)
    adaptive = {s: AdaptiveBot(seed=seed * 4 + s, human_seat=0) for s in (1, 2, 3)}
    seats: dict[int, Bot] = {0: stand_in, **adaptive}
    rng = random.Random(seed)
    knob: list[float] = []
    outcome: list[int] = []
    for n in range(deals):
        deal = Deal(rules, n % 4, random_hands(rng))
        while deal.phase is not Phase.DONE:
            s = deal.to_move
            deal.apply(seats[s].choose(deal.view(s)).action)
        for s, bot in seats.items():
            bot.observe_result(deal.view(s))
        result = deal.result()
        if result.contract is None:
            continue
        margin = result.score[0] - result.score[1]
        outcome.append((margin > 0) - (margin < 0))
        knob.append(adaptive[1].level)
    return knob, outcome


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rules", choices=list(PROFILES), default="classic")
    ap.add_argument("--deals", type=int, default=150)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--human", action="append", help="stand-in bot for the human (default: each level)")
    args = ap.parse_args()
    rules = RuleSet.profile(args.rules)
    for human in args.human or ["beginner", "confirmed", "expert"]:
        knob, outcome = run(rules, human, args.deals, args.seed)
        half = outcome[len(outcome) // 2 :]
        won = sum(1 for x in half if x > 0) / max(1, len(half))
        steps = [f"{knob[i]:.2f}" for i in range(9, len(knob), max(1, len(knob) // 6))]
        print(
            f"{args.rules} human={human:<10} knob after {len(knob)} played deals: {knob[-1]:.2f} "
            f"(mean over the last half {statistics.fmean(knob[len(knob) // 2 :]):.2f}; path {' '.join(steps)}); "
            f"human team won {won:.0%} of the last {len(half)} deals"
        )


if __name__ == "__main__":
    main()
