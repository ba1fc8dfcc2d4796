"""The expert (search) and adaptive bots: legal in every profile, reproducible, blind to
hidden cards, and the adaptive knob moving with the human's results."""

from __future__ import annotations

import random
from typing import Any

import pytest

from coinche.bots.adaptive import AdaptiveBot
from coinche.bots.expert import ExpertBot
from coinche.bots.loading import load_bot
from coinche.engine.actions import announce, is_card
from coinche.engine.cards import card_list
from coinche.engine.deal import Deal, Phase, random_hands
from coinche.engine.rules import RuleSet

RULESETS: list[tuple[str, dict[str, Any]]] = [
    ("classic", {}),
    ("federation", {}),
    ("house", {}),
    ("online", {}),
    ("online", {"sa_ta": True, "undertrump": "optional"}),
    ("classic", {"melds": False, "ta_values": "ffb"}),
]


def small_expert(seed: int) -> ExpertBot:
    return ExpertBot(seed=seed, samples=10)


@pytest.mark.parametrize(("profile", "options"), RULESETS)
def test_expert_always_legal(profile: str, options: dict[str, Any]) -> None:
    rules = RuleSet.profile(profile, **options)
    rng = random.Random(7)
    for d in range(3):
        deal = Deal(rules, d & 3, random_hands(rng))
        bots = [small_expert(10 * d + s) for s in range(4)]
        while not deal.is_over:
            view = deal.view(deal.to_move)
            decision = bots[deal.to_move].choose(view)
            assert decision.action in view.legal_actions
            assert decision.explanation
            deal.apply(decision.action)


def test_expert_is_reproducible() -> None:
    rules = RuleSet.profile("classic")
    hands = random_hands(random.Random(3))

    def run() -> list[int]:
        deal = Deal(rules, 0, hands)
        bots = [small_expert(s) for s in range(4)]
        actions = []
        while not deal.is_over:
            a = bots[deal.to_move].choose(deal.view(deal.to_move)).action
            actions.append(a)
            deal.apply(a)
        return actions

    assert run() == run()


def test_expert_decision_ignores_hidden_cards() -> None:
    """Two deals that look the same to seat 0 (other seats' unplayed cards swapped) give
    seat 0 the same decision: the bot sees only its view."""
    rules = RuleSet.profile("online")
    rng = random.Random(5)
    for _ in range(5):
        hands = list(random_hands(rng))
        deal = Deal(rules, 3, hands)
        # Seat 0 opens, everybody passes: seat 0 leads the first trick.
        deal.apply(deal.legal_actions()[1])
        for _ in range(3):
            deal.apply(64)
        a = sorted(card_list(hands[1]))[0]
        b = sorted(card_list(hands[2]))[0]
        swapped = list(hands)
        swapped[1] = hands[1] ^ (1 << a) | (1 << b)
        swapped[2] = hands[2] ^ (1 << b) | (1 << a)
        other = Deal(rules, 3, swapped)
        for call in deal.auction.calls:
            other.apply(call)
        assert deal.view(0) == other.view(0)
        first = small_expert(1).choose(deal.view(0))
        second = small_expert(1).choose(other.view(0))
        assert first == second


def test_expert_announces_belote_and_declares_melds() -> None:
    rules = RuleSet.profile("classic")
    rng = random.Random(9)
    for d in range(3):
        deal = Deal(rules, d & 3, random_hands(rng))
        bots = [small_expert(s) for s in range(4)]
        while not deal.is_over:
            view = deal.view(deal.to_move)
            action = bots[deal.to_move].choose(view).action
            if deal.phase is Phase.PLAY and is_card(action) and announce(action) in view.legal_actions:
                pytest.fail("the expert must announce its belote")
            if deal.phase is Phase.PLAY and deal.declared[deal.to_move] is None:
                assert action == view.legal_actions[0]  # the full declaration
            deal.apply(action)


def test_adaptive_knob_moves_with_the_humans_results() -> None:
    bot = AdaptiveBot(seed=1, level=0.5, human_seat=0)
    rules = RuleSet.profile("online")
    rng = random.Random(2)
    moved_up = moved_down = False
    for _ in range(30):
        deal = Deal(rules, 0, random_hands(rng))
        while not deal.is_over:
            acts = deal.legal_actions()
            deal.apply(acts[rng.randrange(len(acts))])
        res = deal.result()
        assert res is not None
        before = bot.level
        bot.observe_result(deal.view(1))
        if res.contract is not None and res.score[0] > res.score[1]:
            assert bot.level > before or bot.level == 1.0
            moved_up = True
        elif res.contract is not None and res.score[0] < res.score[1]:
            assert bot.level < before or bot.level == 0.0
            moved_down = True
    assert moved_up and moved_down
    assert 0.0 <= bot.level <= 1.0
    assert "Adaptive" in bot.label


def test_adaptive_plays_legally_and_shows_its_level() -> None:
    rules = RuleSet.profile("classic")
    deal = Deal(rules, 0, random_hands(random.Random(4)))
    bots = [load_bot("adaptive", seed=s, level=0.3 * s, expert_samples=8) for s in range(4)]
    while not deal.is_over:
        view = deal.view(deal.to_move)
        decision = bots[deal.to_move].choose(view)
        assert decision.action in view.legal_actions
        assert decision.explanation and decision.explanation.startswith("[Adaptive")
        deal.apply(decision.action)


@pytest.mark.parametrize(
    "name", ["random", "beginner", "confirmed", "expert", "expert-uniform", "expert-no-play-model", "adaptive"]
)
def test_builtin_bots_load_by_name(name: str) -> None:
    bot = load_bot(name, seed=1)
    assert bot.choose is not None


def test_outside_bot_loads_from_module_attribute() -> None:
    bot = load_bot("coinche.bots.random_bot:RandomBot", seed=3)
    assert bot.name == "random"
