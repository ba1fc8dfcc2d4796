"""The expert's calls are those of ``expert-v1``: same seed, same view, same call and same
reason, at every decision of whole auctions in every profile.

History: this test compared every decision (calls and cards) when the expert was split
into modules (issue 9, item 5), proving the split changed nothing; since the card play was
made faster (item 4) it compares the calls only, which that work left as they were.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from coinche.bots.baselines.expert_v1.expert import ExpertBot as ExpertV1
from coinche.bots.expert import ExpertBot
from coinche.engine.deal import Deal, Phase, random_hands
from coinche.engine.rules import RuleSet

RULESETS: list[tuple[str, dict[str, Any]]] = [
    ("classic", {}),
    ("federation", {"sa_ta": True, "generale": True}),
    ("house", {}),
    ("online", {}),
    ("online", {"sa_ta": True, "undertrump": "optional"}),
]


@pytest.mark.parametrize(("profile", "options"), RULESETS)
def test_expert_calls_as_expert_v1(profile: str, options: dict[str, Any]) -> None:
    rules = RuleSet.profile(profile, **options)
    rng = random.Random(17)
    for d in range(6):
        deal = Deal(rules, d & 3, random_hands(rng))
        new = [ExpertBot(seed=100 * d + s, samples=12, bid_samples=6) for s in range(4)]
        old = [ExpertV1(seed=100 * d + s, samples=12, bid_samples=6) for s in range(4)]
        while not deal.is_over and deal.phase is Phase.AUCTION:
            view = deal.view(deal.to_move)
            a = new[deal.to_move].choose(view)
            b = old[deal.to_move].choose(view)
            assert a == b, f"deal {d}: {a} != {b}"
            deal.apply(a.action)
