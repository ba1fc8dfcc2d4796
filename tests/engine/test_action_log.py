"""The action log: a deal and a game are rebuilt exactly from it (issue 6, item 2), and
copies of a deal are independent (the ``_belote_pairs``/``_best`` seam)."""

from __future__ import annotations

import pickle
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import SAMPLE_HANDS

from coinche.engine import Game, RuleSet, game_record, parse_record, replay
from coinche.engine.actions import ANNOUNCE, PASS, make_bid
from coinche.engine.cards import HEARTS, SPADES, parse_cards
from coinche.engine.deal import Deal, Declaration
from coinche.engine.melds import parse_meld
from coinche.engine.rules import PROFILES

PROFILE_NAMES = sorted(PROFILES)


def random_game(profile: str, seed: int, target: int) -> tuple[Game, random.Random]:
    return Game(RuleSet.profile(profile, target=target), seed=seed), random.Random(seed)


def same_state(a: Game, b: Game) -> None:
    assert a == b
    assert game_record(a) == game_record(b)
    for seat in range(4):
        assert a.view(seat) == b.view(seat)
    assert a.legal_actions() == b.legal_actions()


@settings(max_examples=8, deadline=None)
@given(profile=st.sampled_from(PROFILE_NAMES), seed=st.integers(0, 2**32))
def test_rebuild_after_every_action_equals_the_live_game(profile: str, seed: int) -> None:
    game, rng = random_game(profile, seed, target=400)
    steps = 0
    while not game.is_over and steps < 400:
        game.apply(rng.choice(game.legal_actions()))
        steps += 1
        rebuilt = Game.from_log(game.rules, game.seed, game.first_dealer, game.log)
        same_state(rebuilt, game)
    # The rebuilt game deals the same next hand too.
    if not game.is_over:
        rebuilt = Game.from_log(game.rules, game.seed, game.first_dealer, game.log)
        assert rebuilt.infos == game.infos


@settings(max_examples=8, deadline=None)
@given(profile=st.sampled_from(PROFILE_NAMES), seed=st.integers(0, 2**32), cut=st.integers(0, 300))
def test_pickled_game_equals_the_original(profile: str, seed: int, cut: int) -> None:
    game, rng = random_game(profile, seed, target=600)
    for _ in range(cut):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    copy = pickle.loads(pickle.dumps(game))
    same_state(copy, game)
    # and it goes on identically
    while not game.is_over:
        action = rng.choice(game.legal_actions())
        game.apply(action)
        copy.apply(action)
    same_state(copy, game)


def test_real_deal_games_rebuild_with_their_cuts() -> None:
    rng = random.Random(3)
    game = Game(RuleSet.profile("federation", real_deal=True, packets="any"), seed=3)
    while not game.is_over and len(game.deals) < 4:
        game.apply(rng.choice(game.legal_actions()))
    rebuilt = Game.from_log(game.rules, game.seed, game.first_dealer, game.log)
    same_state(rebuilt, game)
    assert any(info.cut is not None for info in game.infos)


def calm(game: Game, rng: random.Random) -> int:
    """A random legal action that mostly passes in the auction, so games last."""
    legal = game.legal_actions()
    return PASS if PASS in legal and rng.random() < 0.8 else rng.choice(legal)


def test_seeded_game_record_replays_and_deals_on_the_same() -> None:
    game, rng = random_game("online", 11, target=1001)
    while len(game.deals) < 3 or len(game.current.log if game.current else []) < 6:
        game.apply(calm(game, rng))
    record = game_record(game)
    assert record["seed"] == game.seed
    replayed = replay(parse_record(record))
    assert replayed.log == game.log
    assert all(info.seeded for info in replayed.infos)
    while not game.is_over:  # both go on identically, dealing the same hands
        action = calm(game, rng)
        game.apply(action)
        replayed.apply(action)
        if replayed.awaiting_deal:
            replayed.deal_next()
    assert replayed.infos == game.infos
    assert replayed.winner == game.winner


def test_a_record_whose_hands_differ_from_its_seed_keeps_its_hands() -> None:
    game, rng = random_game("online", 5, target=1001)
    while len(game.deals) < 2:
        game.apply(calm(game, rng))
    record = game_record(game)
    record["seed"] = game.seed + 1  # a wrong seed: the hands stay the authority
    replayed = replay(parse_record(record))
    assert [i.hands for i in replayed.infos] == [i.hands for i in game.infos]
    assert not any(info.seeded for info in replayed.infos)
    assert "seed" not in game_record(replayed)


def test_declarations_are_logged_both_ways() -> None:
    rules = RuleSet.profile("classic")
    hands = SAMPLE_HANDS
    deal = Deal(rules, 3, hands)
    for call in (make_bid(80, HEARTS), PASS, PASS, PASS):
        deal.apply(call)
    deal.declare([parse_meld("tierce AH")])
    assert deal.log[-1] == Declaration((parse_meld("tierce AH"),))
    deal.apply(deal.legal_actions()[0])
    rebuilt = Deal.from_log(rules, 3, hands, deal.log)
    assert rebuilt == deal
    assert rebuilt.view(1) == deal.view(1)


def test_copy_during_the_auction_is_independent() -> None:
    """Copy in the auction, finish one copy in hearts and the other in spades: the spades
    copy must not offer the hearts belote (it used to share ``_belote_pairs``)."""
    rules = RuleSet.profile("classic")
    hands = (
        parse_cards("KH QH JS 9S AD TD 7C 8C"),
        parse_cards("AS KS QS AH TH 9D 8D 7D"),
        parse_cards("JH 9H 8H 7H KD QD JD AC"),
        parse_cards("TS 8S 7S JC TC 9C KC QC"),
    )
    deal = Deal(rules, 3, hands)
    spades = deal.copy()
    for call in (make_bid(80, HEARTS), PASS, PASS, PASS):
        deal.apply(call)
    for call in (make_bid(80, SPADES), PASS, PASS, PASS):
        spades.apply(call)
    qh = parse_cards("QH").bit_length() - 1
    declare = [a for a in deal.legal_actions() if a >= 200]
    if declare:
        deal.apply(declare[0])
    assert qh + ANNOUNCE in deal.legal_actions()
    while spades.legal_actions() and spades.legal_actions()[0] >= 200:
        spades.apply(spades.legal_actions()[0])
    assert qh in spades.legal_actions()
    assert qh + ANNOUNCE not in spades.legal_actions()
    assert spades.log != deal.log
