"""Invariants over random deals and games of every profile (hypothesis)."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import rulesets

from coinche.engine.actions import ANNOUNCE, PASS, is_card
from coinche.engine.cards import FULL_DECK
from coinche.engine.deal import Deal, Phase, View, random_hands
from coinche.engine.errors import IllegalAction
from coinche.engine.game import Game
from coinche.engine.record import deal_record, game_answer, game_record, parse_record, replay
from coinche.engine.rules import PROFILES, RuleSet

PROFILE_NAMES = sorted(PROFILES)


def random_policy(rng: random.Random, acts: list[int], deal: Deal) -> int:
    """Random legal actions, with an auction that mostly ends in a modest contract."""
    if deal.phase is Phase.AUCTION and PASS in acts and rng.random() < 0.7:
        return PASS
    return acts[rng.randrange(len(acts))]


def play_out(deal: Deal, rng: random.Random) -> list[int]:
    actions = []
    while not deal.is_over:
        acts = deal.legal_actions()
        assert acts, "legal_actions() must never be empty before the end"
        a = random_policy(rng, acts, deal)
        deal.apply(a)
        actions.append(a)
    return actions


@settings(max_examples=150, deadline=None)
@given(rules=rulesets(), seed=st.integers(0, 2**32), dealer=st.integers(0, 3))
def test_deal_invariants(rules: RuleSet, seed: int, dealer: int) -> None:
    rng = random.Random(seed)
    deal = Deal(rules, dealer, random_hands(rng))
    play_out(deal, rng)
    res = deal.result()
    assert res is not None
    if res.contract is None:
        assert res.score == (0, 0) and not deal.tricks
        return
    played = [c for t in deal.tricks for c in t.cards]
    assert len(played) == 32 and sum(1 << c for c in played) == FULL_DECK
    assert all(h == 0 for h in deal.hands)
    total = sum(res.card_points)
    sweep = len({t.winner & 1 for t in deal.tricks}) == 1
    assert total == (152 + rules.last_trick_sweep if sweep else 162)
    assert sum(t.points for t in deal.tricks) == total
    assert deal.tricks[0].leader == (dealer + 1) & 3
    for prev, nxt in zip(deal.tricks, deal.tricks[1:], strict=False):
        assert nxt.leader == prev.winner
    assert all(s >= 0 for s in res.score)
    if rules.rounding != "none":
        assert all(s % 10 == 0 for s in res.score)


@settings(max_examples=60, deadline=None)
@given(rules=rulesets(), seed=st.integers(0, 2**32))
def test_game_replay_equals_live(rules: RuleSet, seed: int) -> None:
    rules = rules.with_options({"target": 500})
    rng = random.Random(seed)
    game = Game(rules, seed=seed)
    steps = 0
    while not game.is_over and steps < 3000:
        deal = game.current
        assert deal is not None
        acts = game.legal_actions()
        assert acts
        game.apply(random_policy(rng, acts, deal))
        steps += 1
    record = json.loads(json.dumps(game_record(game)))
    again = replay(parse_record(record))
    assert game_answer(again) == game_answer(game)
    assert again.totals == game.totals and again.winner == game.winner
    if game.is_over:
        assert game.winner is not None and max(game.totals) >= rules.target


@settings(max_examples=80, deadline=None)
@given(rules=rulesets(), seed=st.integers(0, 2**32), cut=st.integers(0, 40))
def test_unfinished_deal_record_replays(rules: RuleSet, seed: int, cut: int) -> None:
    rng = random.Random(seed)
    deal = Deal(rules, seed & 3, random_hands(rng))
    for _ in range(cut):
        if deal.is_over:
            break
        acts = deal.legal_actions()
        deal.apply(random_policy(rng, acts, deal))
    again = replay(parse_record(json.loads(json.dumps(deal_record(deal)))))
    assert game_answer(again, False) == game_answer(_as_game(deal), False)


def _as_game(deal: Deal) -> Game:
    g = Game(deal.rules, first_dealer=deal.dealer, auto_deal=False)
    g.deals.append(deal)
    return g


VIEW_FIELDS = {
    "seat", "rules", "dealer", "phase", "to_move", "hand", "calls", "contract", "tricks", "trick_leader",
    "trick", "card_points", "belotes", "shown_melds", "declared", "hand_sizes", "legal_actions", "result",
}  # fmt: skip


def check_view_hides(deal: Deal, view: View, seat: int) -> None:
    assert {f.name for f in dataclasses.fields(View)} == VIEW_FIELDS, "review view() for leaks"
    assert view.hand == deal.hands[seat]
    played = {c for t in view.tricks for c in t.cards} | set(view.trick)
    assert played == {c for t in deal.tricks for c in t.cards} | set(deal.trick)
    for other in range(4):
        if other == seat:
            continue
        hidden = deal.hands[other]
        # A seat's unplayed cards appear only in melds that the rules have shown.
        shown = 0
        for m in view.shown_melds[other]:
            shown |= m.cards
        assert not (view.hand & hidden)
        if view.shown_melds[other]:
            assert deal.played >= deal.rules.meld_show_card or deal.played >= deal.rules.meld_show_card_sa
        assert all(not hidden >> c & 1 for c in played)
    if view.to_move != seat:
        assert view.legal_actions == ()
    else:
        assert list(view.legal_actions) == deal.legal_actions()


@settings(max_examples=60, deadline=None)
@given(rules=rulesets(), seed=st.integers(0, 2**32))
def test_view_never_reveals_hidden_cards(rules: RuleSet, seed: int) -> None:
    rng = random.Random(seed)
    deal = Deal(rules, seed & 3, random_hands(rng))
    while not deal.is_over:
        for s in range(4):
            check_view_hides(deal, deal.view(s), s)
        deal.apply(random_policy(rng, deal.legal_actions(), deal))


@settings(deadline=None)  # a whole deal per example: its time is the machine's load, not a fault
@given(rules=rulesets(), seed=st.integers(0, 2**32))
def test_a_watcher_sees_no_card_in_any_hand(rules: RuleSet, seed: int) -> None:
    """A watcher's view is the seat's view less everything of its own: no card in a hand,
    no declaration, no choice; all else (calls, tricks, melds shown) as the seat sees it."""
    rng = random.Random(seed)
    deal = Deal(rules, seed & 3, random_hands(rng))
    while not deal.is_over:
        for s in range(4):
            seen = deal.watcher_view(s)
            assert seen.hand == 0 and seen.declared is None and seen.legal_actions == ()
            own = deal.view(s)
            assert dataclasses.replace(own, hand=0, declared=None, legal_actions=()) == seen
            played = {c for t in seen.tricks for c in t.cards} | set(seen.trick)
            assert played.isdisjoint(c for h in deal.hands for c in range(32) if h >> c & 1)
        deal.apply(random_policy(rng, deal.legal_actions(), deal))


def snapshot(deal: Deal) -> tuple[object, ...]:
    return (tuple(deal.view(s) for s in range(4)), tuple(deal.legal_actions()), deal.to_move, deal.phase)


@settings(max_examples=60, deadline=None)
@given(rules=rulesets(), seed=st.integers(0, 2**32))
def test_refused_actions_leave_state_unchanged(rules: RuleSet, seed: int) -> None:
    rng = random.Random(seed)
    deal = Deal(rules, seed & 3, random_hands(rng))
    candidates = [*range(64), PASS, 65, 66, 200, 201, 1801, 1855, 2601, 4000, 5005, -1, 10**9]
    while not deal.is_over:
        legal = set(deal.legal_actions())
        before = snapshot(deal)
        for a in rng.sample(candidates, 6):
            if a in legal:
                continue
            with pytest.raises(IllegalAction) as err:
                deal.apply(a)
            assert str(err.value) and err.value.rule
            assert snapshot(deal) == before
        deal.apply(random_policy(rng, sorted(legal), deal))


def test_announce_actions_only_on_belote_cards() -> None:
    rng = random.Random(3)
    for _ in range(300):
        deal = Deal(RuleSet.profile("classic"), 0, random_hands(rng))
        while not deal.is_over:
            acts = deal.legal_actions()
            for a in acts:
                if is_card(a) and a >= ANNOUNCE:
                    assert a - ANNOUNCE in acts
                    assert (a - ANNOUNCE) & 7 in (5, 6)  # queen or king
            deal.apply(random_policy(rng, acts, deal))
