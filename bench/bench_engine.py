"""Engine throughput: random legal full deals through the public state API.

Each deal: a shuffled deal, an auction by a fixed simple policy (the first speaker bids
80 in its longest suit, everyone else passes), 32 random legal cards (melds declared,
belotes announced as offered), and the scoring. Also times whole games.

    python bench/bench_engine.py [--deals N] [--games N] [--rules PROFILE]
"""

from __future__ import annotations

import argparse
import random
import time

from coinche.engine.actions import PASS, make_bid
from coinche.engine.cards import SUIT_MASKS
from coinche.engine.deal import Deal, Phase, random_hands
from coinche.engine.game import Game
from coinche.engine.rules import PROFILES, RuleSet


def simple_call(deal: Deal) -> int:
    """Bid 80 in the longest suit as first speaker, else pass."""
    if deal.auction.calls:
        return PASS
    hand = deal.hands[deal.to_move]
    suit = max(range(4), key=lambda s: (hand & SUIT_MASKS[s]).bit_count())
    return make_bid(80, suit)


def play_deal(deal: Deal, rng: random.Random) -> None:
    rnd = rng.random
    while deal.phase is Phase.AUCTION:
        deal.apply(simple_call(deal))
    while deal.phase is Phase.PLAY:
        acts = deal.legal_actions()
        deal.apply(acts[int(rnd() * len(acts))])


def bench_deals(rules: RuleSet, n: int, seed: int = 1) -> float:
    rng = random.Random(seed)
    start = time.perf_counter()
    for i in range(n):
        deal = Deal(rules, i & 3, random_hands(rng))
        play_deal(deal, rng)
        deal.result()
    return n / (time.perf_counter() - start)


def bench_games(rules: RuleSet, n: int, seed: int = 1) -> tuple[float, float]:
    rng = random.Random(seed)
    deals = 0
    start = time.perf_counter()
    for i in range(n):
        game = Game(rules, seed=seed + i)
        while not game.is_over:
            deal = game.current
            assert deal is not None
            if deal.phase is Phase.AUCTION:
                game.apply(simple_call(deal))
            else:
                acts = game.legal_actions()
                game.apply(acts[int(rng.random() * len(acts))])
        deals += len(game.deals)
    elapsed = time.perf_counter() - start
    return n / elapsed, deals / elapsed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=20000)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--rules", choices=list(PROFILES), action="append")
    args = ap.parse_args()
    for name in args.rules or list(PROFILES):
        rules = RuleSet.profile(name)
        dps = bench_deals(rules, args.deals)
        gps, gdps = bench_games(rules, args.games)
        print(f"{name:<10} {dps:8.0f} deals/s   {gps:6.1f} games/s ({gdps:.0f} deals/s inside games)")


if __name__ == "__main__":
    main()
