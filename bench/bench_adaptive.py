"""Adaptive level: does the knob settle where a given "human" wins about half the deals?

A fixed bot stands in for the human in seat 0; the three other seats (partner included)
are adaptive bots that learn from seat 0's results. For each stand-in, plays N deals and
prints where the knob went (0.0 Débutant, 0.5 Confirmé, 1.0 Expert) and how often the
stand-in's team won a deal over the last half of the run. A weaker stand-in should pull
the knob down and a stronger one push it up.

With ``--par`` the knob follows the stand-in's score against each deal's double-dummy par
(as on the site) instead of the raw score. Each line also says how much the knob's moves
followed the cards dealt: the share of its moves that went the way of the deal's par (up
when the par favoured the stand-in's team, down when it favoured the other): about 100 %
when the knob reads the cards, about 50 % when it reads the play alone.

    python bench/bench_adaptive.py [--deals 150] [--rules classic] [--human beginner ...] [--par]
"""

from __future__ import annotations

import argparse
import random
import statistics

from coinche.bots.adaptive import AdaptiveBot
from coinche.bots.analysis import analyse_deal, best_contracts, par_margin
from coinche.bots.base import Bot
from coinche.bots.loading import load_bot
from coinche.engine.deal import Deal, Phase, random_hands
from coinche.engine.rules import PROFILES, RuleSet


def run(rules: RuleSet, human: str, deals: int, seed: int, par: bool) -> tuple[list[float], list[int], list[bool]]:
    """The knob after every deal, the sign of the stand-in team's score margin, and for
    each move of the knob whether it went the way of the deal's par."""
    stand_in = load_bot(human, seed=seed)
    adaptive = {s: AdaptiveBot(seed=seed * 4 + s, human_seat=0, follows_par=par) for s in (1, 2, 3)}
    seats: dict[int, Bot] = {0: stand_in, **adaptive}
    rng = random.Random(seed)
    knob: list[float] = []
    outcome: list[int] = []
    with_cards: list[bool] = []
    for n in range(deals):
        deal = Deal(rules, n % 4, random_hands(rng))
        while deal.phase is not Phase.DONE:
            s = deal.to_move
            deal.apply(seats[s].choose(deal.view(s)).action)
        before = adaptive[1].level
        for s, bot in seats.items():
            bot.observe_result(deal.view(s))
        result = deal.result()
        if result is None or result.contract is None:
            continue
        rows = analyse_deal(rules, deal.dealer, deal.dealt)
        deal_par = par_margin([(b.team, b.score) for b in best_contracts(rules, deal.dealt, rows)])
        if par:
            for s, bot in adaptive.items():
                bot.observe_against_par(deal.view(s), deal_par)
        moved = adaptive[1].level - before
        if moved and deal_par:
            with_cards.append((moved > 0) == (deal_par > 0))
        margin = result.score[0] - result.score[1]
        outcome.append((margin > 0) - (margin < 0))
        knob.append(adaptive[1].level)
    return knob, outcome, with_cards


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rules", choices=list(PROFILES), default="classic")
    ap.add_argument("--deals", type=int, default=150)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--human", action="append", help="stand-in bot for the human (default: each level)")
    ap.add_argument("--par", action="store_true", help="the knob follows the score against the par (the site's)")
    args = ap.parse_args()
    rules = RuleSet.profile(args.rules)
    for human in args.human or ["beginner", "confirmed", "expert"]:
        knob, outcome, with_cards = run(rules, human, args.deals, args.seed, args.par)
        half = outcome[len(outcome) // 2 :]
        won = sum(1 for x in half if x > 0) / max(1, len(half))
        steps = [f"{knob[i]:.2f}" for i in range(9, len(knob), max(1, len(knob) // 6))]
        print(
            f"{args.rules} human={human:<10} knob after {len(knob)} played deals: {knob[-1]:.2f} "
            f"(mean over the last half {statistics.fmean(knob[len(knob) // 2 :]):.2f}; path {' '.join(steps)}); "
            f"human team won {won:.0%} of the last {len(half)} deals; "
            f"{sum(with_cards) / max(1, len(with_cards)):.0%} of {len(with_cards)} moves went with the cards"
        )


if __name__ == "__main__":
    main()
