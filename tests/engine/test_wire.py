"""The wire format (issue 6, item 1): a seat's view to JSON-ready data and back loses
nothing, holds no card another seat may not know, and bad data is a ``WireError``."""

from __future__ import annotations

import contextlib
import json
import random
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import rulesets

from coinche.engine import Game, RuleSet
from coinche.engine.actions import PASS
from coinche.engine.cards import card_str, cards_of
from coinche.engine.deal import Deal, View
from coinche.engine.game import GameView
from coinche.engine.wire import (
    WireError,
    action_from_json,
    game_view_from_json,
    game_view_to_json,
    seat_view_to_json,
    view_from_json,
    view_to_json,
)

CARD = re.compile(r"\b([789TJQKA][SHDC])\b")


def known_cards(deal: Deal, seat: int) -> set[str]:
    """Cards ``seat`` may know: its own hand, every card played, every meld shown."""
    known = {card_str(c) for c in cards_of(deal.hands[seat])}
    known |= {card_str(c) for t in deal.tricks for c in t.cards} | {card_str(c) for c in deal.trick}
    for melds in deal.shown:
        for m in melds:
            known |= {card_str(c) for c in cards_of(m.cards)}
    if deal.declared[seat]:
        for m in deal.declared[seat] or ():
            known |= {card_str(c) for c in cards_of(m.cards)}
    return known


def check_view(view: View, deal: Deal | None) -> dict[str, Any]:
    data = view_to_json(view)
    text = json.dumps(data)  # plain JSON: no ints as keys, no tuples, no objects
    back = view_from_json(json.loads(text))
    assert back == view
    if view.result is not None:  # the explanation lines are not part of a result's equality
        assert back.result is not None and back.result.lines == view.result.lines
    for record, action in zip(data["legal_actions"], view.legal_actions, strict=True):
        assert action_from_json(json.loads(json.dumps(record)), view) == action
    if deal is not None:
        leaked = set(CARD.findall(text)) - known_cards(deal, view.seat)
        assert not leaked, f"seat {view.seat} sees {leaked}"
    return data


def calm(legal: list[int], rng: random.Random) -> int:
    return PASS if PASS in legal and rng.random() < 0.75 else rng.choice(legal)


@settings(max_examples=40, deadline=None)
@given(rules=rulesets(), seed=st.integers(0, 2**32), stop=st.integers(0, 120))
def test_views_round_trip_and_hide_other_hands(rules: RuleSet, seed: int, stop: int) -> None:
    game = Game(rules.with_options({"target": 1000}), seed=seed)
    rng = random.Random(seed)
    for _ in range(stop):
        if game.is_over:
            break
        game.apply(calm(game.legal_actions(), rng))
    deal = game.current
    assert deal is not None
    for seat in range(4):
        check_view(deal.view(seat), deal)
        gv = game.view(seat)
        assert game_view_from_json(json.loads(json.dumps(game_view_to_json(gv)))) == gv


@settings(max_examples=25, deadline=None)
@given(rules=rulesets(), seed=st.integers(0, 2**32))
def test_a_view_built_like_the_previous_one_is_the_same_json(rules: RuleSet, seed: int) -> None:
    """A server builds each seat's view like the one of the step before (the parts that did
    not change shared): the JSON is exactly the view's own, across deals and game ends."""
    game = Game(rules.with_options({"target": 500}), seed=seed)
    rng = random.Random(seed)
    before = [(gv, game_view_to_json(gv)) for gv in (game.view(s) for s in range(4))]
    while not game.is_over:
        if game.awaiting_deal:
            game.deal_next()
        else:
            game.apply(calm(game.legal_actions(), rng))
        for seat in range(4):
            gv = game.view(seat)
            data = game_view_to_json(gv, before[seat])
            assert data == game_view_to_json(gv)
            before[seat] = (gv, data)


@settings(max_examples=25, deadline=None)
@given(rules=rulesets(), seed=st.integers(0, 2**32))
def test_a_view_built_from_another_seats_is_its_own(rules: RuleSet, seed: int) -> None:
    """A server builds a step's views and their JSON once and each other seat's (and a
    watcher's) from them (``alike``, ``seat_view_to_json``): the same as built alone."""
    game = Game(rules.with_options({"target": 500}), seed=seed)
    rng = random.Random(seed)
    before: dict[tuple[int, bool], tuple[GameView, Any]] = {}
    while not game.is_over:
        if game.awaiting_deal:
            game.deal_next()
        else:
            game.apply(calm(game.legal_actions(), rng))
        order = [(seat, watching) for seat in range(4) for watching in (False, True)]
        rng.shuffle(order)
        first = game.view(*order[0])
        first_json = game_view_to_json(first)
        for seat, watching in order:
            gv = game.view(seat, watching, alike=first)
            assert gv == game.view(seat, watching)
            like = before.get((seat, watching))
            deal_like = (like[0].deal, like[1]["deal"]) if like and like[0].deal_number == gv.deal_number else None
            data = {**first_json, "deal": seat_view_to_json(gv.deal, first_json["deal"], deal_like)}
            assert json.dumps(data) == json.dumps(game_view_to_json(gv))  # the keys in their order too
            before[seat, watching] = (gv, data)


def test_every_phase_and_result_round_trips() -> None:
    rng = random.Random(4)
    for profile in ("classic", "federation", "house", "online"):
        game = Game(RuleSet.profile(profile, target=500), seed=9)
        while not game.is_over:
            deal = game.current
            assert deal is not None
            view = deal.view(deal.to_move)
            check_view(view, deal)
            game.apply(calm(game.legal_actions(), rng))
            if deal.is_over:
                for seat in range(4):
                    data = check_view(deal.view(seat), None)
                    assert data["result"]["lines"][-1]["id"] == "score.result" or data["result"]["contract"] is None


def test_legal_action_records() -> None:
    game = Game(RuleSet.profile("classic"), seed=1)
    deal = game.current
    assert deal is not None
    data = view_to_json(deal.view(deal.to_move))
    assert {"call": "pass"} in data["legal_actions"]
    assert {"call": "80H"} in data["legal_actions"]
    assert data["phase"] == "auction"
    assert data["rules"] == {"profile": "classic", "options": {}}
    assert data["calls"] == []
    assert len(data["hand"]) == 8
    other = view_to_json(deal.view((deal.to_move + 1) & 3))
    assert other["legal_actions"] == []


def test_declaration_records_name_their_melds() -> None:
    rng = random.Random(0)
    for seed in range(200):
        game = Game(RuleSet.profile("classic"), seed=seed)
        deal = game.current
        assert deal is not None
        while deal.phase.value == "auction":
            game.apply(calm(game.legal_actions(), rng))
        if deal.is_over:
            continue
        legal = deal.legal_actions()
        if legal and legal[0] >= 200:
            data = view_to_json(deal.view(deal.to_move))
            first = data["legal_actions"][0]
            assert first["declare"] == 0 and first["melds"]
            assert data["legal_actions"][-1]["melds"] == []
            names = [m.name for m in deal.declaration_choices()[0]]
            assert [m["name"] for m in first["melds"]] == names
            return
    pytest.fail("no deal with a meld declaration in 200 seeds")


@pytest.mark.parametrize(
    "bad",
    [
        None,
        3,
        "JH",
        [],
        {},
        {"card": "ZZ"},
        {"card": 12},
        {"declare": -1},
        {"declare": True},
        {"declare": 10**100},
        {"call": "9" * 5000 + "H"},
        {"something": 1},
    ],
)
def test_bad_actions_are_wire_errors(bad: Any) -> None:
    with pytest.raises(WireError):
        action_from_json(bad)


def test_belote_flag() -> None:
    assert action_from_json({"card": "KH", "belote": True}) == action_from_json({"card": "KH"}) + 32
    assert action_from_json({"card": "KH", "belote": "yes"}) == action_from_json({"card": "KH"})


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None)
@given(garbage=json_values, key=st.sampled_from(["seat", "rules", "phase", "hand", "calls", "tricks", "result"]))
def test_damaged_views_are_wire_errors(garbage: Any, key: str) -> None:
    game = Game(RuleSet.profile("classic"), seed=3)
    data = view_to_json(game.view(0).deal)
    data[key] = garbage
    with contextlib.suppress(WireError):  # any other exception fails the test
        view_from_json(data)
