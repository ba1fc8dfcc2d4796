"""Matchpoints and the day's ranking (issue 18) on hand-computed cases, ties included, and
the invariants that hold for any field (hypothesis)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coinche.server.table.matchpoints import ALONE_PERCENT, DealField, ranking


def test_one_point_per_player_beaten_and_a_half_per_tie() -> None:
    # Five results on one deal: 160, 100, 100, -80, -160 (nets of South-North).
    field = DealField.of([160, 100, 100, -80, -160])
    assert field.size == 5
    # 160 beats the four others: 4 of 4.
    assert field.matchpoints(160) == 4 and field.percent(160) == 100.0
    # Each 100 beats -80 and -160 (2) and ties the other 100 (0.5): 2.5 of 4.
    assert field.matchpoints(100) == 2.5 and field.percent(100) == 62.5
    # -80 beats -160 only: 1 of 4.
    assert field.matchpoints(-80) == 1 and field.percent(-80) == 25.0
    assert field.matchpoints(-160) == 0 and field.percent(-160) == 0.0
    # The matchpoints of a field add up to n(n-1)/2: every pair shares one point.
    assert sum(field.matchpoints(s) for s in [160, 100, 100, -80, -160]) == 10


def test_everyone_equal_is_fifty_percent_and_alone_is_average() -> None:
    assert DealField.of([90, 90, 90]).percent(90) == 50.0
    assert DealField.of([250]).percent(250) == ALONE_PERCENT == 50.0
    with pytest.raises(ValueError):
        DealField.of([90, 100]).percent(80)  # no such result on the deal


def test_the_days_ranking_on_a_hand_computed_day() -> None:
    # Three players, two deals (a short day keeps the hand computation readable).
    results = [
        ("ann", 0, 100),
        ("bob", 0, 100),
        ("cyd", 0, -50),
        ("ann", 1, -160),
        ("bob", 1, 80),
        ("cyd", 1, 80),
    ]
    # Deal 0: ann and bob tie above cyd: 75 %, 75 %, 0 %.
    # Deal 1: bob and cyd tie above ann: 0 %, 75 %, 75 %.
    # Averages: ann 37.5, bob 75, cyd 37.5: bob first, ann and cyd share second place.
    lines = ranking(results, deals=2, final=True)
    assert [(s.player, s.rank, s.average) for s in lines] == [("bob", 1, 75.0), ("ann", 2, 37.5), ("cyd", 2, 37.5)]
    assert lines[0].percents == (75.0, 75.0)
    assert lines[1].percents == (75.0, 0.0)


def test_a_deal_not_finished_counts_zero_once_the_day_is_over() -> None:
    results = [("ann", 0, 100), ("bob", 0, 0), ("bob", 1, 50)]
    # Deal 0: ann 100 %, bob 0 %. Deal 1: bob alone: 50 %.
    during = ranking(results, deals=2, final=False)
    # During the day: ann 100 over one deal, bob 25 over two.
    assert [(s.player, s.average, s.finished) for s in during] == [("ann", 100.0, 1), ("bob", 25.0, 2)]
    final = ranking(results, deals=2, final=True)
    # At the end: ann (100 + 0) / 2 = 50, bob (0 + 50) / 2 = 25.
    assert [(s.player, s.rank, s.average) for s in final] == [("ann", 1, 50.0), ("bob", 2, 25.0)]
    assert final[0].percents == (100.0, None)


def test_during_the_day_equal_averages_over_more_deals_come_first() -> None:
    results = [("ann", 0, 10), ("bob", 0, 10), ("bob", 1, 0)]
    # ann 50 % over one deal; bob 50 % (deal 0) and 50 % (alone on deal 1) over two.
    lines = ranking(results, deals=2, final=False)
    assert [(s.player, s.rank) for s in lines] == [("bob", 1), ("ann", 2)]


def test_bad_results_are_refused() -> None:
    with pytest.raises(ValueError):
        ranking([("ann", 4, 0)], deals=4, final=False)
    with pytest.raises(ValueError):
        ranking([("ann", 0, 0), ("ann", 0, 10)], deals=4, final=False)


scores = st.lists(st.integers(min_value=-500, max_value=500), min_size=1, max_size=60)


@settings(deadline=None)
@given(scores)
def test_a_field_shares_one_point_per_pair_and_orders_by_score(values: list[int]) -> None:
    field = DealField.of(values)
    n = len(values)
    assert sum(field.matchpoints(v) for v in values) == n * (n - 1) / 2
    ordered = sorted(set(values))
    percents = [field.percent(v) for v in ordered]
    assert percents == sorted(percents) and all(0 <= p <= 100 for p in percents)
    if n > 1:
        assert field.percent(ordered[-1]) > field.percent(ordered[0]) or len(ordered) == 1


@settings(deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(-300, 300)), min_size=1, max_size=40))
def test_ranks_follow_averages(entries: list[tuple[int, int]]) -> None:
    seen: set[tuple[str, int]] = set()
    results = []
    for i, (deal, score) in enumerate(entries):
        player = f"p{i % 7}"
        if (player, deal) not in seen:
            seen.add((player, deal))
            results.append((player, deal, score))
    lines = ranking(results, deals=4, final=True)
    assert len(lines) == len({p for p, _, _ in results})
    for before, after in itertools.pairwise(lines):
        assert before.average >= after.average - 1e-9
        assert after.rank == before.rank if abs(before.average - after.average) < 1e-9 else after.rank > before.rank
