"""Inference from the play (``bots/expert/play_model.py``, ``scripts/fit_play_model.py``)."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coinche.bots.expert import ExpertBot
from coinche.bots.expert.config import ExpertConfig
from coinche.bots.expert.deals import play_weights
from coinche.bots.expert.play_model import RULES, Clue, PlayModel, clues, parse_play_model, play_model
from coinche.bots.sampling import constraints_from_view, sample_deals
from coinche.engine.actions import PASS, is_card, parse_call
from coinche.engine.cards import FULL_DECK, parse_card, parse_cards
from coinche.engine.deal import Deal, Phase, random_hands
from coinche.engine.rules import RuleSet

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from project_scripts import load_script


def bit(text: str) -> int:
    return 1 << parse_card(text)


def first_trick() -> Deal:
    """80 hearts by seat 0, who leads a spade; seat 1 wins it with the queen, seat 2 follows
    low, seat 3 discards."""
    hands = (
        parse_cards("JH 9H AH TH KH QH 7S 8S"),
        parse_cards("AS TS KS QS 7D 8D 9D TD"),
        parse_cards("7H 8H 9S JS AD KD QD JD"),
        parse_cards("AC TC KC QC JC 9C 8C 7C"),
    )
    deal = Deal(RuleSet.profile("classic"), 3, hands)
    for c in ("80H", "pass", "pass", "pass"):
        deal.apply(parse_call(c))
    for c in ("7S", "QS", "9S", "7C"):
        while deal.phase is not Phase.PLAY or not any(is_card(a) and a == parse_card(c) for a in deal.legal_actions()):
            deal.apply(deal.legal_actions()[0])  # the meld declarations, if asked
        deal.apply(parse_card(c))
    return deal


def test_clues_of_a_first_trick() -> None:
    deal = first_trick()
    found = clues(deal.view(3))
    assert Clue("taker_draws_trumps", 0, bit("JH"), 0) in found
    # Seat 2 followed low under seat 1's queen although the ace would have won the trick.
    assert Clue("win_with_master", 2, bit("AS"), 2) in found
    # Seat 1 won it: no rule broken whatever it held.
    assert all(c.seat != 1 for c in found)
    # The viewer's own discard tells it nothing.
    assert all(c.seat != 3 for c in found)
    # Seen by seat 0, seat 3's discard from clubs says it may not hold the club ace.
    assert Clue("discard_keeps_master", 3, bit("AC"), 3) in clues(deal.view(0))


def test_likelihood_multiplies_the_factor_of_each_broken_rule() -> None:
    deal = first_trick()
    view = deal.view(3)
    found = clues(view)
    model = PlayModel({"win_with_master": 0.25, "taker_draws_trumps": 0.5}, {})
    held = list(deal.hands)
    # The true deal: seat 0 holds JH (a broken rule), seat 1 the spade ace (none).
    assert model.likelihood(found, held) == pytest.approx(0.5)
    swapped = list(held)
    # Give seat 2 the ace (it breaks its rule) and the JH (seat 0 then breaks none).
    swapped[1] &= ~bit("AS")
    swapped[2] |= bit("AS")
    swapped[0] &= ~bit("JH")
    swapped[2] |= bit("JH")
    assert model.likelihood(found, swapped) == pytest.approx(0.25)
    neutral = PlayModel({}, {})
    assert neutral.likelihood(found, held) == 1.0


def test_play_weights_use_the_model() -> None:
    deal = first_trick()
    view = deal.view(3)
    samples = sample_deals(constraints_from_view(view), 40, random.Random(1))
    on = play_weights(view, samples, ExpertConfig())
    off = play_weights(view, samples, ExpertConfig(play_inference=False))
    model = play_model()
    found = clues(view)
    for w1, w0, h in zip(on, off, samples, strict=True):
        assert w1 == pytest.approx(w0 * model.likelihood(found, h))


def test_shipped_model_is_read() -> None:
    model = play_model()
    assert set(model.ratios) <= set(RULES)
    assert all(0.02 <= r <= 3.0 for r in model.ratios.values())
    with pytest.raises(ValueError):
        parse_play_model({"ratios": []})


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9), viewer=st.integers(0, 3))
def test_clues_name_only_unplayed_cards_of_other_seats(seed: int, viewer: int) -> None:
    rng = random.Random(seed)
    rules = RuleSet.profile(("classic", "federation", "house", "online")[seed % 4], sa_ta=True)
    deal = Deal(rules, seed & 3, random_hands(rng))
    steps = rng.randrange(4, 60)
    for _ in range(steps):
        if deal.is_over:
            break
        acts = deal.legal_actions()
        deal.apply(PASS if deal.phase is Phase.AUCTION and rng.random() < 0.6 and PASS in acts else rng.choice(acts))
    if deal.is_over or deal.phase is not Phase.PLAY:
        return
    view = deal.view(viewer)
    played = FULL_DECK
    for h in deal.hands:
        played &= ~h
    n = sum(len(t.cards) for t in view.tricks) + len(view.trick)
    for c in clues(view):
        assert c.seat != viewer and c.rule in RULES
        assert c.cards and not c.cards & played
        assert 0 <= c.index < n


def _script() -> Any:
    return load_script("fit_play_model")


def test_fit_is_the_odds_ratio_of_truth_to_sampler() -> None:
    script = _script()
    # Held in 10 of 100 clues where the sampler deals it half the time: the rule is followed.
    rows = [("win_with_master", i < 10, 0.5) for i in range(100)]
    ratio = script.fit(rows)["ratios"]["win_with_master"]
    assert ratio == pytest.approx((10.5 / 90.5) / (50.5 / 50.5), rel=1e-3)
    assert "discard_keeps_master" not in script.fit(rows)["ratios"]  # too few clues


def test_fit_reads_logged_deals() -> None:
    script = _script()
    rules = RuleSet.profile("online")
    rng = random.Random(3)
    hands = random_hands(rng)
    deal = Deal(rules, 0, hands)
    bots = [ExpertBot(seed=s, samples=6) for s in range(4)]
    actions = []
    while not deal.is_over:
        a = bots[deal.to_move].choose(deal.view(deal.to_move)).action
        deal.apply(a)
        actions.append(a)
    rec = {"profile": "online", "seed": 0, "dealer": 0, "hands": list(hands), "calls": [], "actions": actions}
    rows = script.deal_clues(rec, 5, random.Random(0))
    for rule, held, share in rows:
        assert rule in RULES and isinstance(held, bool) and 0.0 <= share <= 1.0
