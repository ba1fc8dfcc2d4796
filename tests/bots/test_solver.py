"""The double-dummy solver: the C module against the engine's legality and against its pure-Python
twin (``reference``), hand-checked values, and the invariants of the API."""

from __future__ import annotations

import random
from types import ModuleType

import pytest
from solver_positions import random_position, remaining_total, winner_index

import coinche.bots.solver as dds
from coinche.bots.solver import Position
from coinche.bots.solver import reference as ref
from coinche.engine.actions import PASS, card_of, is_card, make_bid
from coinche.engine.cards import ALL_TRUMP, NO_TRUMP, card_list, parse_card, parse_cards
from coinche.engine.deal import Deal, Phase, random_hands
from coinche.engine.play import legal_mask, tables
from coinche.engine.rules import RuleSet

IMPLEMENTATIONS = {"c": dds, "reference": ref}


@pytest.fixture(params=sorted(IMPLEMENTATIONS))
def impl(request: pytest.FixtureRequest) -> ModuleType:
    """Each implementation in turn: the tests that use it hold for both."""
    return IMPLEMENTATIONS[request.param]


def engine_legal(pos: Position) -> int:
    """The engine's legal mask for the player to move."""
    tt = tables(pos.trump, pos.ffb_ta)
    seat = pos.to_move
    hand = pos.hands[seat]
    if not pos.trick:
        return hand
    trick = list(pos.trick)
    w = winner_index(trick, pos.trump, pos.ffb_ta)
    return legal_mask(hand, trick, trick[w], (pos.leader + w) & 1 == seat & 1, tt, pos.undertrump_forced)


# ----- legality -----


def test_legal_cards_equal_engine_legal_mask() -> None:
    rng = random.Random(1)
    checked = 0
    for trump in range(6):
        for uf in (True, False):
            for i in range(400):
                pos = random_position(rng, 1 + i % 8, trump=trump, undertrump_forced=uf, in_trick=i % 4)
                if not any(pos.hands):
                    continue
                expected = engine_legal(pos)
                assert dds.legal_cards(pos) == expected, pos
                assert ref.legal_cards(pos) == expected, pos
                checked += 1
    assert checked > 4000


def test_legal_cards_on_arbitrary_tricks() -> None:
    """Trick contents not reachable by the random play above (any cards, any hand sizes)."""
    rng = random.Random(2)
    for _ in range(3000):
        deck = list(range(32))
        rng.shuffle(deck)
        n = rng.randrange(4)
        k = rng.randrange(1, 9)
        trick = tuple(deck[:n])
        leader = rng.randrange(4)
        rest = deck[n:]
        hands = [0, 0, 0, 0]
        for s in range(4):
            size = k - 1 if (s - leader) & 3 < n else k
            hands[s] = sum(1 << c for c in rest[:size])
            rest = rest[size:]
        pos = Position((hands[0], hands[1], hands[2], hands[3]), rng.randrange(6), leader, trick, rng.random() < 0.5)
        assert dds.legal_cards(pos) == engine_legal(pos), pos


# ----- agreement with the reference -----


@pytest.mark.parametrize("tricks_left", [1, 2, 3, 4])
def test_solve_matches_reference(tricks_left: int) -> None:
    rng = random.Random(100 + tricks_left)
    count = {1: 800, 2: 800, 3: 600, 4: 250}[tricks_left]
    for _ in range(count):
        pos = random_position(rng, tricks_left)
        team = rng.randrange(2)
        expected = ref.solve(pos, team)
        assert dds.solve(pos, team) == expected, (pos, team)


@pytest.mark.parametrize("tricks_left", [5, 6])
def test_solve_matches_reference_on_longer_positions(tricks_left: int) -> None:
    rng = random.Random(200 + tricks_left)
    for _ in range(16 if tricks_left == 5 else 6):
        pos = random_position(rng, tricks_left)
        team = rng.randrange(2)
        assert dds.solve(pos, team) == ref.solve(pos, team), (pos, team)


def test_every_trump_mode_and_option_is_covered() -> None:
    """The agreement tests above draw every trump, both undertrump rules, both TA values,
    the sweep bonus and mid-trick positions; check it on a fixed sample per mode."""
    rng = random.Random(5)
    for trump in range(6):
        for uf in (True, False):
            for sweep in (False, True):
                for in_trick in range(4):
                    pos = random_position(rng, 3, trump=trump, undertrump_forced=uf, sweep=sweep, in_trick=in_trick)
                    for team in (0, 1):
                        assert dds.solve(pos, team) == ref.solve(pos, team), (pos, team)


def test_move_values_match_reference() -> None:
    rng = random.Random(7)
    for i in range(300):
        pos = random_position(rng, 1 + i % 4)
        team = rng.randrange(2)
        assert dds.move_values(pos, team) == ref.move_values(pos, team), (pos, team)


def test_can_sweep_matches_reference() -> None:
    rng = random.Random(8)
    found = {True: 0, False: 0}
    for i in range(1500):
        pos = random_position(rng, 1 + i % 5)
        team = rng.randrange(2)
        seats = [None, team, team + 2]
        seat = seats[i % 3]
        expected = ref.can_sweep(pos, team, seat)
        assert dds.can_sweep(pos, team, seat) == expected, (pos, team, seat)
        found[expected] += 1
    assert min(found.values()) > 50  # both answers are exercised


# ----- invariants -----


def test_can_reach_is_solve_threshold() -> None:
    rng = random.Random(9)
    for i in range(300):
        pos = random_position(rng, 1 + i % 6)
        team = rng.randrange(2)
        v = dds.solve(pos, team)
        for t in (v - 10, v - 1, v, v + 1, v + 10, 0, -5, 1000):
            assert dds.can_reach(pos, team, t) == (v >= t), (pos, team, t, v)


def test_zero_sum_without_sweep_bonus() -> None:
    rng = random.Random(10)
    for i in range(300):
        pos = random_position(rng, 1 + i % 6, sweep=False)
        assert dds.solve(pos, 0) + dds.solve(pos, 1) == remaining_total(pos), pos


def test_move_values_best_is_solve() -> None:
    rng = random.Random(11)
    for i in range(300):
        pos = random_position(rng, 1 + i % 6)
        team = rng.randrange(2)
        values = dds.move_values(pos, team)
        assert set(values) == set(card_list(dds.legal_cards(pos)))
        best = max(values.values()) if pos.to_move & 1 == team else min(values.values())
        assert best == dds.solve(pos, team), (pos, team)


def test_full_deals() -> None:
    """Whole deals before the first card, every trump mode: invariants of the C solver."""
    rng = random.Random(12)
    for i in range(12):
        h = random_hands(rng)
        pos = Position((h[0], h[1], h[2], h[3]), i % 6, rng.randrange(4))
        v0, v1 = dds.solve(pos, 0), dds.solve(pos, 1)
        assert v0 + v1 == 162
        assert dds.can_reach(pos, 0, v0) and not dds.can_reach(pos, 0, v0 + 1)
        values = dds.move_values(pos, 0)
        assert len(values) == 8
        assert (max if pos.leader & 1 == 0 else min)(values.values()) == v0


def test_full_deal_with_sweep_bonus() -> None:
    rng = random.Random(13)
    for _ in range(4):
        h = random_hands(rng)
        base = Position((h[0], h[1], h[2], h[3]), rng.randrange(4), rng.randrange(4))
        with_bonus = Position(base.hands, base.trump, base.leader, sweep_bonus=90)
        for team in (0, 1):
            v = dds.solve(base, team)
            w = dds.solve(with_bonus, team)
            assert w == (252 if dds.can_sweep(base, team) else v)


# ----- values known by hand -----


def hands_of(*texts: str) -> tuple[int, int, int, int]:
    h = tuple(parse_cards(t) for t in texts)
    assert len(h) == 4
    return (h[0], h[1], h[2], h[3])


def test_one_trick_left(impl: ModuleType) -> None:
    # hearts trump: seat 2's 7H cuts seat 0's lead AS; the trick holds 11 + 10 + 0 + 2 + 10 (last)
    pos = Position(hands_of("AS", "TS", "7H", "JS"), trump=1, leader=0)
    assert impl.solve(pos, 0) == 11 + 10 + 0 + 2 + 10
    assert impl.solve(pos, 1) == 0
    assert impl.can_sweep(pos, 0) and impl.can_sweep(pos, 0, 2) and not impl.can_sweep(pos, 0, 0)
    # no trump: the ace wins (19 at SA), the 7H is a discard
    pos = Position(hands_of("AS", "TS", "7H", "JS"), trump=NO_TRUMP, leader=0)
    assert impl.solve(pos, 0) == 19 + 10 + 0 + 2 + 10
    # the last trick is the sweep: the bonus goes to the team that takes it when eligible
    pos = Position(hands_of("AS", "TS", "7H", "JS"), trump=1, leader=0, sweep_bonus=90, sweep_team=0)
    assert impl.solve(pos, 0) == 33 + 90
    pos = Position(hands_of("AS", "TS", "7H", "JS"), trump=1, leader=0, sweep_bonus=90, sweep_team=1)
    assert impl.solve(pos, 0) == 33


def test_one_trick_left_mid_trick(impl: ModuleType) -> None:
    # spades trump, seat 1 led the JS (20); seat 2 must follow: 9S (14) cannot overtrump
    pos = Position(hands_of("7D", "", "9S", "AD"), trump=0, leader=1, trick=(parse_card("JS"),))
    assert impl.legal_cards(pos) == parse_cards("9S")
    assert impl.solve(pos, 1) == 20 + 14 + 0 + 11 + 10
    assert impl.move_values(pos, 1) == {parse_card("9S"): 55}


def test_two_tricks_choice(impl: ModuleType) -> None:
    # no trump; seat 0 leads. Cashing AH (19) first hands the last trick to seat 1's AC
    # (19 + 10); leading 8C first loses 19 to the AC but seat 1 must then lead into the AH,
    # whose last trick is worth 19 + 10.
    pos = Position(hands_of("AH 8C", "7H AC", "8H 7C", "9H 9C"), trump=NO_TRUMP, leader=0)
    assert impl.solve(pos, 0) == 29
    assert impl.solve(pos, 1) == 19
    assert impl.move_values(pos, 0) == {parse_card("AH"): 19, parse_card("8C"): 29}


def test_empty_position(impl: ModuleType) -> None:
    pos = Position((0, 0, 0, 0), trump=0, leader=2)
    assert impl.solve(pos, 0) == 0
    assert impl.move_values(pos, 0) == {}
    assert impl.legal_cards(pos) == 0


def test_invalid_positions(impl: ModuleType) -> None:
    good = hands_of("AS", "TS", "7H", "JS")
    bad = [
        Position(hands_of("AS TS", "TS", "7H", "JS"), 0, 0),  # a card twice
        Position(hands_of("AS KS", "TS", "7H", "JS"), 0, 0),  # sizes differ
        Position(good, 6, 0),
        Position(good, 0, 4),
        Position(good, 0, 0, trick=(parse_card("AS"),)),  # played and held
        Position(hands_of("", "TS", "7H", "JS"), 0, 0, trick=(parse_card("AH"),), last_trick_bonus=-1),
        Position(hands_of("", "TS", "7H", "JS"), 0, 0, trick=(40,)),
    ]
    for pos in bad:
        with pytest.raises(ValueError):
            impl.solve(pos, 0)
    with pytest.raises(ValueError):
        impl.solve(Position(good, 0, 0), 2)
    with pytest.raises(ValueError):
        impl.can_sweep(Position(good, 0, 0), 0, 1)


# ----- Position.from_deal -----


def _deal_in_play(rng: random.Random, rules: RuleSet, trump: int, cards: int) -> Deal:
    deal = Deal(rules, rng.randrange(4), random_hands(rng))
    deal.apply(make_bid(80, trump))
    for _ in range(3):
        deal.apply(PASS)
    played = 0
    while deal.phase is Phase.PLAY and played < cards:
        acts = deal.legal_actions()
        a = rng.choice(acts)
        deal.apply(a)
        if is_card(a):  # a card, announcing a belote or not (declarations are not cards)
            played += 1
    return deal


def test_from_deal_mid_play() -> None:
    rng = random.Random(14)
    profiles = ["classic", "federation", "house", "online"]
    for i in range(60):
        rules = RuleSet.profile(profiles[i % 4])
        trump = rng.randrange(6) if rules.sa_ta else rng.randrange(4)
        deal = _deal_in_play(rng, rules, trump, rng.randrange(16, 31))
        assert deal.phase is Phase.PLAY
        pos = Position.from_deal(deal)
        assert pos.hands == tuple(deal.hands)
        assert pos.trump == trump and pos.leader == deal.trick_leader and pos.trick == tuple(deal.trick)
        assert pos.to_move == deal.to_move
        assert pos.undertrump_forced == (rules.undertrump == "forced")
        winners = {t.winner & 1 for t in deal.tricks}
        if rules.last_trick_sweep > 10 and len(winners) == 1:
            assert pos.sweep_bonus == rules.last_trick_sweep - 10 and pos.sweep_team in winners
        else:
            assert pos.sweep_bonus == 0
        legal = dds.legal_cards(pos)
        cards = {card_of(a) for a in deal.legal_actions() if is_card(a)}
        assert legal == sum(1 << c for c in cards)
        team = rng.randrange(2)
        assert dds.solve(pos, team) == ref.solve(pos, team)


def test_from_deal_before_first_card_and_sweep() -> None:
    rng = random.Random(15)
    deal = _deal_in_play(rng, RuleSet.profile("federation"), 2, 0)
    pos = Position.from_deal(deal)
    assert pos.sweep_bonus == 90 and pos.sweep_team is None and pos.trick == ()
    assert dds.solve(pos, 0) + dds.solve(pos, 1) in (162, 252)


def test_from_deal_needs_play_phase() -> None:
    deal = Deal(RuleSet.profile("classic"), 0, random_hands(random.Random(3)))
    with pytest.raises(ValueError):
        Position.from_deal(deal)


def test_ta_ffb_values() -> None:
    """ffb TA values (J 13, Q 2) change the solution when a jack or queen is at stake."""
    pos = Position(hands_of("JH", "7H", "8H", "9H"), trump=ALL_TRUMP, leader=0)
    ffb = Position(pos.hands, ALL_TRUMP, 0, ffb_ta=True)
    assert dds.solve(pos, 0) == 14 + 0 + 0 + 9 + 10
    assert dds.solve(ffb, 0) == 13 + 0 + 0 + 9 + 10
    assert ref.solve(ffb, 0) == dds.solve(ffb, 0)
