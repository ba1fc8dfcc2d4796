"""Who may read a bot's explanation: ``Decision.explanation`` is public (shown to every seat
during play) and never names a card still hidden in the bot's hand after the decision;
``Decision.private_explanation`` keeps the detail (the bot's own cards) for after the deal."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from coinche.bots.adaptive import AdaptiveBot
from coinche.bots.base import Bot, Decision, play_card
from coinche.bots.confirmed import ConfirmedBot
from coinche.bots.expert import ExpertBot, UniformExpertBot
from coinche.bots.loading import load_bot
from coinche.engine.actions import PASS, announce
from coinche.engine.belote import pair_mask
from coinche.engine.cards import CardSet, parse_card, parse_cards
from coinche.engine.deal import Deal, View, random_hands
from coinche.engine.game import Game
from coinche.engine.messages import Message
from coinche.engine.rules import PROFILES, RuleSet

CARD_NAME = re.compile(r"(?<![0-9A-Za-z])(10|[789TJQKA])([SHDC])(?![0-9A-Za-z])")
"""A card in record notation (``AS``, ``TH``) or written with its 10 (``10S``)."""

RANK_OF_NAME = {"10": "T"}


def named_cards(text: str) -> CardSet:
    """Every card ``text`` names."""
    out = 0
    for rank, suit in CARD_NAME.findall(text):
        out |= 1 << parse_card(RANK_OF_NAME.get(rank, rank) + suit)
    return out


def shown_cards(view: View) -> CardSet:
    """Cards of ``view.seat`` the table knows: its shown melds, its announced belotes."""
    out = 0
    for m in view.shown_melds[view.seat]:
        out |= m.cards
    for b in view.belotes:
        if b.seat == view.seat:
            out |= pair_mask(b.suit)
    return out


RULESETS: list[tuple[str, dict[str, Any]]] = [
    *((name, {}) for name in sorted(PROFILES)),
    ("classic", {"melds": False, "undertrump": "optional"}),
    ("federation", {"sa_ta": True, "generale": True}),
    ("online", {"sa_ta": True, "melds": True, "ta_values": "ffb"}),
]

LEVELS: dict[str, tuple[int, Callable[[int], Bot]]] = {
    # level: (deals per rule set, factory by seed)
    "random": (3, lambda seed: load_bot("random", seed=seed)),
    "beginner": (12, lambda seed: load_bot("beginner", seed=seed)),
    "confirmed": (12, lambda seed: load_bot("confirmed", seed=seed)),
    "expert": (1, lambda seed: ExpertBot(seed=seed, samples=6)),
    "expert-uniform": (1, lambda seed: UniformExpertBot(seed=seed, samples=6)),
    "adaptive": (2, lambda seed: AdaptiveBot(seed=seed, level=(0.0, 0.25, 0.5, 0.75)[seed % 4], expert_samples=6)),
}


def test_card_names_are_found() -> None:
    assert named_cards("90D: J, 4 trumps, side AS AC") == parse_cards("AS AC")
    assert named_cards("10S and TH, KH+belote") == parse_cards("TS TH KH")
    # Calls and words are not cards.
    assert named_cards("90H 100H 110S 120SA capotS generaleTA pass: I hold the contract") == 0


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(("profile", "options"), RULESETS)
def test_public_explanations_name_no_hidden_card(profile: str, options: dict[str, Any], level: str) -> None:
    rules = RuleSet.profile(profile, **options)
    deals, make = LEVELS[level]
    rng = random.Random(f"{level}{profile}{sorted(options.items())}")
    for d in range(deals):
        deal = Deal(rules, rng.randrange(4), random_hands(rng))
        bots = [make(4 * d + s) for s in range(4)]
        while not deal.is_over:
            seat = deal.to_move
            decision = bots[seat].choose(deal.view(seat))
            deal.apply(decision.action)
            assert decision.explanation and decision.private_explanation, (level, decision)
            after = deal.view(seat)
            hidden = after.hand & ~shown_cards(after)
            leaked = named_cards(decision.explanation) & hidden
            assert not leaked, f"{level}: {decision.explanation!r} names hidden cards of seat {seat}"


def test_private_explanations_keep_the_detail() -> None:
    rules = RuleSet.profile("classic")
    hand = "JH 9H AH TH 7H AS AC 8D"
    rest = [c for c in range(32) if not parse_cards(hand) >> c & 1]
    hands = [parse_cards(hand)] + [sum(1 << c for c in rest[8 * i : 8 * i + 8]) for i in range(3)]
    deal = Deal(rules, 3, hands)
    d = ConfirmedBot(seed=1).choose(deal.view(0))
    assert d.explanation is not None and d.private_explanation is not None
    assert d.private_explanation.startswith(d.explanation)
    assert named_cards(d.private_explanation) & parse_cards("AS AC")  # "side AS AC"
    assert not named_cards(d.explanation)
    assert d.full_explanation == d.private_explanation


def test_decision_fields() -> None:
    d = Decision(PASS, "pass")
    assert d.private_explanation is None and d.full_explanation == "pass"  # outside bots: public only
    assert Decision.plain(PASS, "pass") == Decision(PASS, "pass", "pass")
    kh = parse_card("KH")
    why = Message.of("bot.trumps_as_taker")
    detail = Message.of("bot.card_reason", played="KH", reason=why)
    played = play_card(kh, (kh, announce(kh)), why, detail)
    assert played.action == announce(kh)
    assert (played.explanation, played.private_explanation) == (
        "trumps as taker (belote)",
        "KH: trumps as taker (belote)",
    )
    assert played.reason == Message.of("bot.with_belote", reason=why)
    assert played.private_reason == Message.of("bot.with_belote", reason=detail)
    assert play_card(kh, (kh,), why) == Decision(kh, "trumps as taker", "trumps as taker", why)


def test_adaptive_tags_both_explanations() -> None:
    rules = RuleSet.profile("classic")
    deal = Deal(rules, 3, random_hands(random.Random(4)))
    d = AdaptiveBot(seed=1, level=0.5).choose(deal.view(0))
    assert d.explanation and d.explanation.startswith("[Adaptive: Intermediate] ")
    assert d.private_explanation and d.private_explanation.startswith("[Adaptive: Intermediate] ")
    assert d.reason is not None and d.reason.id == "bot.adaptive"


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_public_explanations_over_whole_games(profile: str) -> None:
    """A whole game to a short target with four levels at the table."""
    game = Game(RuleSet.profile(profile, target=1000), seed=len(profile))
    bots: list[Bot] = [
        load_bot("confirmed", seed=1),
        ExpertBot(seed=2, samples=6),
        load_bot("beginner", seed=3),
        AdaptiveBot(seed=4, level=0.5, expert_samples=6),
    ]
    decisions = 0
    while not game.is_over and decisions < 2000:
        deal = game.current
        assert deal is not None
        seat = deal.to_move
        decision = bots[seat].choose(deal.view(seat))
        game.apply(decision.action)
        decisions += 1
        after = deal.view(seat)
        hidden = after.hand & ~shown_cards(after)
        assert not named_cards(decision.explanation or "") & hidden, (profile, seat, decision.explanation)
    assert game.is_over
