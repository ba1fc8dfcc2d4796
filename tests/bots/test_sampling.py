"""Deal sampling: the inferences are sound (the real deal always satisfies them) and every
sample is consistent with what the seat has seen."""

from __future__ import annotations

import random
from typing import Any

import pytest

from coinche.bots.sampling import constraints_from_view, deal_unseen, sample_deals
from coinche.engine.actions import ANNOUNCE, PASS
from coinche.engine.cards import FULL_DECK
from coinche.engine.deal import Deal, Phase, random_hands
from coinche.engine.rules import RuleSet

RULESETS: list[tuple[str, dict[str, Any]]] = [
    ("classic", {}),
    ("classic", {"undertrump": "optional"}),
    ("federation", {}),
    ("house", {}),
    ("online", {"sa_ta": True}),
]


def policy(deal: Deal, rng: random.Random) -> int:
    acts = deal.legal_actions()
    if deal.phase is Phase.AUCTION and PASS in acts and rng.random() < 0.75:
        return PASS
    announce = [a for a in acts if ANNOUNCE <= a < 64]
    return announce[0] if announce else rng.choice(acts)


@pytest.mark.parametrize(("profile", "options"), RULESETS)
def test_real_deal_satisfies_inferences_and_samples_are_consistent(profile: str, options: dict[str, Any]) -> None:
    rules = RuleSet.profile(profile, **options)
    rng = random.Random(11)
    checked = 0
    for _ in range(60):
        deal = Deal(rules, rng.randrange(4), random_hands(rng))
        while not deal.is_over:
            if deal.phase is Phase.PLAY:
                for seat in range(4):
                    view = deal.view(seat)
                    c = constraints_from_view(view)
                    for s in range(4):
                        assert not deal.hands[s] & c.forbidden[s], "an inference excluded a card the seat holds"
                        assert c.hands[s] & ~deal.hands[s] == 0, "a known card is not in that hand"
                        assert c.sizes[s] == deal.hands[s].bit_count()
                    for hands in sample_deals(c, 3, rng):
                        assert hands[seat] == deal.hands[seat]
                        union = 0
                        for s in range(4):
                            assert hands[s].bit_count() == deal.hands[s].bit_count()
                            assert not hands[s] & c.forbidden[s]
                            assert hands[s] & c.hands[s] == c.hands[s]
                            assert not union & hands[s]
                            union |= hands[s]
                        played = FULL_DECK & ~(deal.hands[0] | deal.hands[1] | deal.hands[2] | deal.hands[3])
                        assert union == FULL_DECK & ~played
                    checked += 1
            deal.apply(policy(deal, rng))
    assert checked > 1000


def test_contradictory_constraints_give_none() -> None:
    from coinche.bots.sampling import Constraints

    c = Constraints(0, (0xFF, 0, 0, 0), (8, 8, 8, 8), (0, FULL_DECK, 0, 0), FULL_DECK & ~0xFF)
    assert deal_unseen(c, random.Random(1)) is None
