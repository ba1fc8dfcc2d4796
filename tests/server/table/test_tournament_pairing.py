"""The Swiss "concours" pairing (issue 30's first step, ``table/tournament_pairing.py``):
round 1 drawn from a seed, then equal wins meet top-down, nobody twice, the odd pair out
against computers, and the ranking's tie-breakers."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coinche.server.table.tournament_pairing import BYE, Standing, first_round, next_round, rank


def everyone_once(pairing: list[tuple[str, str | None]], pairs: list[str]) -> None:
    seated = [p for game in pairing for p in game if p is not None]
    assert sorted(seated) == sorted(pairs)


def test_the_first_round_is_a_draw_anyone_can_repeat() -> None:
    pairs = [f"P{i}" for i in range(8)]
    draw = first_round(pairs, seed=42)
    assert draw == first_round(list(reversed(pairs)), seed=42)  # the seed decides, not the order given
    assert draw != first_round(pairs, seed=43)
    everyone_once(draw, pairs)
    odd = first_round(pairs[:7], seed=42)
    assert sum(1 for _, b in odd if b is BYE) == 1
    everyone_once(odd, pairs[:7])


def test_equal_wins_meet_and_nobody_twice() -> None:
    pairs = [f"P{i}" for i in range(8)]
    draw = first_round(pairs, seed=1)
    winners = {a for a, _ in draw}
    standings = [Standing(p, wins=1 if p in winners else 0, points=10 if p in winners else -10) for p in pairs]
    met = {frozenset(g) for g in draw}
    second = next_round(standings, met)
    everyone_once(second, pairs)
    for a, b in second:
        assert b is not None and (a in winners) == (b in winners)  # a win meets a win
        assert frozenset((a, b)) not in met


def test_the_ranking_breaks_ties_by_points_then_matchpoints_then_name() -> None:
    field = [
        Standing("Zoé-Yves", wins=2, points=30, matchpoints=5),
        Standing("Anne-Bruno", wins=2, points=30, matchpoints=5),
        Standing("Chloé-Dan", wins=2, points=30, matchpoints=9),
        Standing("Emma-Farid", wins=2, points=45),
        Standing("Gus-Hana", wins=3, points=-20),
    ]
    assert [s.pair for s in rank(field)] == ["Gus-Hana", "Emma-Farid", "Chloé-Dan", "Anne-Bruno", "Zoé-Yves"]


def test_the_computers_go_to_a_pair_that_has_not_had_them() -> None:
    pairs = ["A", "B", "C"]
    standings = [Standing("A", wins=1), Standing("B", wins=1), Standing("C", wins=0, byes=1)]
    pairing = next_round(standings, {frozenset(("A", "C"))})
    assert ("C", BYE) not in pairing and sum(1 for _, b in pairing if b is BYE) == 1
    everyone_once(pairing, pairs)


def test_no_pairing_without_a_rematch_is_said() -> None:
    with pytest.raises(ValueError):
        next_round([Standing("A"), Standing("B")], {frozenset(("A", "B"))})


@settings(max_examples=60, deadline=None)  # 3,000 examples checked when written
@given(n=st.integers(2, 14), seed=st.integers(0, 2**32))
def test_rounds_of_random_results_never_repeat_a_game(n: int, seed: int) -> None:
    rng = random.Random(seed)
    pairs = [f"P{i:02}" for i in range(n)]
    table = {p: Standing(p) for p in pairs}
    met: set[frozenset[str]] = set()
    rounds = min(4, max(1, n // 2))  # a field of n pairs plays at most n // 2 rounds (see the module)
    pairing = first_round(pairs, seed)
    for number in range(rounds):
        if number:
            pairing = next_round(table.values(), met)
        everyone_once(pairing, pairs)
        for a, b in pairing:
            if b is BYE:
                s = table[a]
                table[a] = Standing(a, s.wins + 1, s.points + 5, s.matchpoints, s.byes + 1)
                continue
            assert frozenset((a, b)) not in met
            met.add(frozenset((a, b)))
            diff = rng.randint(1, 300)
            win, lose = (a, b) if rng.random() < 0.5 else (b, a)
            w, lo = table[win], table[lose]
            table[win] = Standing(win, w.wins + 1, w.points + diff, w.matchpoints, w.byes)
            table[lose] = Standing(lose, lo.wins, lo.points - diff, lo.matchpoints, lo.byes)
