"""Deals played to their end by the computers, for tests that need real play (puzzles)."""

from __future__ import annotations

import random

from coinche.bots.loading import load_bot
from coinche.engine.deal import Deal, random_hands
from coinche.engine.rules import RuleSet


def played_deal(profile: str, seed: int, level: str = "confirmed") -> Deal:
    """A deal of ``profile`` played to its end by four computers of ``level``, all drawn
    from ``seed``."""
    rules = RuleSet.profile(profile)
    rng = random.Random(seed)
    bots = [load_bot(level, seed=seed * 4 + s) for s in range(4)]
    deal = Deal(rules, seed % 4, random_hands(rng))
    while not deal.is_over:
        deal.apply(bots[deal.to_move].choose(deal.view(deal.to_move)).action)  # a meld declaration too
    return deal
