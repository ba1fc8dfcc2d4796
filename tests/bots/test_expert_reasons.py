"""The expert's reasons for the player it advises (``ExpertBot(explain=True)``, a hint):
they say the figures the decision was made on (the appraisal of a call, the search of a
card), they name no card hidden from the player, and asking for them never changes the
move."""

from __future__ import annotations

import random
from collections.abc import Iterator

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coinche.bots.expert import ExpertBot
from coinche.bots.expert.auction import appraise
from coinche.engine.actions import PASS, bid_trump, call_str, is_bid, make_bid
from coinche.engine.auction import contract_of
from coinche.engine.cards import HEARTS, CardSet, parse_card, parse_cards
from coinche.engine.deal import Deal, Phase, View, random_hands
from coinche.engine.messages import Message
from coinche.engine.rules import RuleSet
from coinche.server.table import i18n

CARD_PARAMS = ("cards", "played", "card", "winner")
FAST = 24
"""Sampled deals per card decision in these tests (the reasons' form does not need more)."""


def card_params(message: Message) -> CardSet:
    """Every card a message names, nested messages included."""
    out = 0
    for key, value in message.params:
        if isinstance(value, Message):
            out |= card_params(value)
        elif key in CARD_PARAMS and isinstance(value, str):
            out |= parse_cards(value) if key == "cards" else 1 << parse_card(value)
    return out


def known_to(view: View) -> CardSet:
    """The cards ``view``'s player may be told of: its hand and the cards played."""
    out = view.hand
    for t in view.tricks:
        for c in t.cards:
            out |= 1 << c
    for c in view.trick:
        out |= 1 << c
    return out


def why(message: Message | None) -> Message:
    """The why of a reason (``bot.why_call`` / ``bot.why_play``)."""
    assert message is not None and message.id in ("bot.why_call", "bot.why_play"), message
    inner = message.args["why"]
    assert isinstance(inner, Message)
    return inner


def opening_views(seed: int, count: int) -> Iterator[View]:
    """The first seat's view of ``count`` random deals, no call made yet."""
    rng = random.Random(seed)
    for _ in range(count):
        deal = Deal(RuleSet.profile("classic"), rng.randrange(4), random_hands(rng))
        yield deal.view(deal.to_move)


def test_an_opening_pass_says_the_points_its_best_bid_makes_and_how_often() -> None:
    bot = ExpertBot(seed=1, explain=True)
    for view in opening_views(3, 40):
        decision = bot.choose(view)
        if decision.action != PASS:
            continue
        appraisal = appraise(view, bot.config)
        _, best, out = max(appraisal.bids, key=lambda option: option[0])
        reason = why(decision.private_reason)
        assert reason.id in ("bot.why_pass_bid", "bot.why_pass_bid_plain"), reason
        assert reason.args["call"] == call_str(best)
        assert reason.args["points"] == round(out.mean)
        bid = contract_of(best, view.seat, False, False, view.rules)
        assert reason.args["times"] == round(10 * out.made_rate(bid))
        fr = i18n.render("fr", decision.private_reason or reason)
        assert fr.startswith("Passe : ") and "votre équipe ferait environ" in fr, fr
        return
    raise AssertionError("no weak hand")


def test_a_pass_with_nothing_in_reach_says_what_a_bid_needs() -> None:
    deal = Deal(
        RuleSet.profile("federation"),  # no SA nor TA
        3,
        (
            parse_cards("AS TS KS AH TH KH AD TD"),
            parse_cards("QD KD JC 9C AC TC KC QC"),
            parse_cards("7S 8S 7H 8H 7D 8D 7C 8C"),
            parse_cards("JS 9S QS JH 9H QH JD 9D"),
        ),
    )
    deal.apply(make_bid(140, HEARTS))  # the partner of seat 2 bids high
    deal.apply(PASS)
    view = deal.view(2)
    decision = ExpertBot(seed=1, explain=True).choose(view)
    assert decision.action == PASS
    appraisal = appraise(view, ExpertBot().config)
    assert not appraisal.bids  # every higher bid out of reach
    reason = why(decision.private_reason)
    assert reason.id == "bot.why_pass_weak_plain", reason
    assert reason.args["points"] == round(max(e.mean_162 for e in appraisal.estimates.values()))
    assert reason.args["value"] == 150
    fr = i18n.render("fr", decision.private_reason or reason)
    assert fr.startswith("Passe : votre équipe ne fait qu'environ "), fr
    assert fr.endswith("il en faut au moins 150 pour annoncer"), fr


def test_a_bid_says_the_points_and_how_often_the_appraisal_makes_it() -> None:
    bot = ExpertBot(seed=1, explain=True)
    for view in opening_views(4, 80):
        decision = bot.choose(view)
        if not is_bid(decision.action):
            continue
        appraisal = appraise(view, bot.config)
        out = next(o for _, a, o in appraisal.bids if a == decision.action)
        bid = contract_of(decision.action, view.seat, False, False, view.rules)
        reason = why(decision.private_reason)
        assert reason.id in ("bot.why_bid", "bot.why_bid_plain"), reason
        assert reason.args["points"] == round(out.mean)
        assert reason.args["times"] == round(10 * out.made_rate(bid))
        assert card_params(reason) & ~view.hand == 0
        if reason.id == "bot.why_bid":  # the trump's honours it counts are named
            trump = bid_trump(decision.action)
            assert card_params(reason) & view.hand & (0xFF << 8 * trump)
        en = i18n.render("en", decision.private_reason or reason)
        assert "your team makes about" in en and "times in 10" in en, en
        return
    raise AssertionError("no opening hand")


def test_a_pass_against_an_opponents_bid_says_how_often_it_fails() -> None:
    bot = ExpertBot(seed=1, explain=True)
    rng = random.Random(8)
    for _ in range(60):
        deal = Deal(RuleSet.profile("classic"), 3, random_hands(rng))
        deal.apply(make_bid(80, HEARTS))  # seat 0 opens; seat 1 answers
        view = deal.view(1)
        decision = bot.choose(view)
        if decision.action != PASS:
            continue
        appraisal = appraise(view, bot.config)
        reason = why(decision.private_reason)
        assert reason.id == "bot.why_pass_defence", reason
        assert appraisal.pass_fails is not None
        assert reason.args["times"] == round(10 * appraisal.pass_fails)
        fr = i18n.render("fr", decision.private_reason or reason)
        assert fr.startswith("Passe : le 80 cœur ne chute qu'environ "), fr
        return
    raise AssertionError("no pass")


def _play_to(deal: Deal, rng: random.Random, cards: int) -> None:
    """Random legal moves: an 80 by the first seat, passes, then ``cards`` cards."""
    deal.apply(make_bid(80, rng.randrange(4)))
    while deal.phase is Phase.AUCTION:
        deal.apply(PASS)
    played = 0
    while not deal.is_over and played < cards:
        view = deal.view(deal.to_move)
        action = rng.choice(view.legal_actions)
        deal.apply(action)
        played += 1


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), cards=st.integers(0, 30), opening=st.booleans())
def test_reasons_name_only_the_players_cards_and_the_cards_played(seed: int, cards: int, opening: bool) -> None:
    rng = random.Random(seed)
    deal = Deal(RuleSet.profile(rng.choice(["classic", "online", "federation"])), rng.randrange(4), random_hands(rng))
    if not opening:
        _play_to(deal, rng, cards)
    if deal.is_over:
        return
    view = deal.view(deal.to_move)
    decision = ExpertBot(seed=seed, samples=FAST, explain=True).choose(view)
    if decision.private_reason is None:  # a declaration: its reason names nothing
        assert decision.reason is not None and card_params(decision.reason) == 0
        return
    assert card_params(decision.private_reason) & ~known_to(view) == 0, decision.private_reason
    for lang in ("fr", "en"):
        assert i18n.render(lang, decision.private_reason) != decision.private_reason.id


def test_a_card_reason_says_what_the_card_does_and_the_searchs_figure() -> None:
    rng = random.Random(2)
    for _ in range(40):
        deal = Deal(RuleSet.profile("classic"), rng.randrange(4), random_hands(rng))
        _play_to(deal, rng, rng.randrange(4, 20))
        view = deal.view(deal.to_move)
        decision = ExpertBot(seed=3, samples=FAST, explain=True).choose(view)
        reason = decision.private_reason
        if reason is None or reason.id != "bot.why_play":
            continue
        inner = why(reason)
        assert inner.id == "bot.why_card"
        chance = inner.args["chance"]
        assert isinstance(chance, Message) and chance.id in ("bot.why_chance_made", "bot.why_chance_set")
        count, samples = chance.args["count"], chance.args["samples"]
        assert isinstance(count, int) and isinstance(samples, int) and 0 <= count <= samples > 0
        what = inner.args["what"]
        assert isinstance(what, Message) and what.id.startswith("bot.fact_")
        fr = i18n.render("fr", reason)
        assert " des " in fr and "donnes essayées" in fr, fr
        return
    raise AssertionError("no card searched")


def test_asking_for_reasons_never_changes_the_move() -> None:
    rng = random.Random(5)
    for k in range(12):
        deal = Deal(RuleSet.profile("online"), rng.randrange(4), random_hands(rng))
        if k % 2:
            _play_to(deal, rng, rng.randrange(0, 24))
        if deal.is_over:
            continue
        view = deal.view(deal.to_move)
        plain = ExpertBot(seed=k, samples=FAST).choose(view)
        told = ExpertBot(seed=k, samples=FAST, explain=True).choose(view)
        assert plain.action == told.action
        assert plain.reason == told.reason  # the public reason is the same too
        assert plain.private_reason is None or plain.private_reason == plain.reason
