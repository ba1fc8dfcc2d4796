"""A tournament's scoring (issue 30, ``table/tournament_scoring.py``), checked by hand on a
small tournament: three pairs, two rounds of two deals, a bye each round, a tied game, a
tied deal and a deal not played; and, for any round, the two sides of a table sharing each
deal's 100 % and each game's one win (hypothesis)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coinche.server.table.tournament_pairing import Standing, arena_pairing, rank
from coinche.server.table.tournament_scoring import (
    UNPLAYED_PERCENT,
    ArenaScore,
    DealScore,
    PairRound,
    TableResult,
    arena_score,
    arena_scores,
    deal_percents,
    met,
    pair_rounds,
    round_results,
    standings,
    win_of,
)

# Round 1: A (South-North) against B at table 1; C against two computers at table 2.
#   table 1, deal 1: 120-42 (net +78 for A), deal 2: 42-120 (net -78): 162-162, a tied game.
#   table 2, deal 1: 0-162 (net -162 for C), deal 2: 0-78 (net -78): 0-240, C loses by 240.
ROUND_1 = (
    TableResult(1, "A", "B", ((120, 42), (42, 120))),
    TableResult(1, "C", None, ((0, 162), (0, 78))),
)
# Round 2: A (South-North) against C at table 1; B against two computers at table 2.
#   table 1, deal 1: 130-30 (net +100 for A), deal 2: not played: 130-30, A wins by 100.
#   table 2, deal 1: 80-82 (net -2 for B), deal 2: 152-10 (net +142): 232-92, B wins by 140.
ROUND_2 = (
    TableResult(2, "A", "C", ((130, 30), None)),
    TableResult(2, "B", None, ((80, 82), (152, 10))),
)
RESULTS = ROUND_1 + ROUND_2

# Matchpoints, each deal compared with the same side's result at the round's other table
# (one point per result beaten, a half per tie, out of one per other result, as a %):
# round 1, deal 1: South-North +78 (A) against -162 (C): A 100 %, C 0 %;
#                  East-West -78 (B) against +162 (the computers): B 0 %.
# round 1, deal 2: South-North -78 (A) and -78 (C), a tie: A 50 %, C 50 %;
#                  East-West +78 (B) and +78 (the computers), a tie: B 50 %.
# round 2, deal 1: South-North +100 (A) against -2 (B): A 100 %, B 0 %;
#                  East-West -100 (C) against +2 (the computers): C 0 %.
# round 2, deal 2: not played at table 1: A 25 %, C 25 %; B alone on it: 50 %.
A_PERCENTS = (100.0, 50.0, 100.0, 25.0)  # average 275 / 4 = 68.75
B_PERCENTS = (0.0, 50.0, 0.0, 50.0)  # average 100 / 4 = 25
C_PERCENTS = (0.0, 50.0, 0.0, 25.0)  # average 75 / 4 = 18.75

# Wins: A 0.5 + 1 = 1.5, B 0.5 + 1 = 1.5, C 0 + 0 = 0.
# Point differences: A 0 + 100 = 100, B 0 + 140 = 140, C -240 - 100 = -340.
# Byes: A none, B one (round 2), C one (round 1).
EXPECTED = [
    Standing("A", wins=1.5, points=100, matchpoints=68.75, byes=0),
    Standing("B", wins=1.5, points=140, matchpoints=25.0, byes=1),
    Standing("C", wins=0.0, points=-340, matchpoints=18.75, byes=1),
]


def test_a_game_is_won_on_the_rounds_points() -> None:
    assert win_of(163, 162) == 1.0
    assert win_of(162, 162) == 0.5
    assert win_of(0, 240) == 0.0


def test_a_table_totals_its_played_deals_only() -> None:
    assert ROUND_1[0].totals == (162, 162)
    assert ROUND_2[0].totals == (130, 30)  # the deal not played counts nothing


def test_each_deal_is_compared_with_the_same_side_at_the_other_tables() -> None:
    assert deal_percents(ROUND_1, 0) == [(100.0, 0.0), (0.0, 100.0)]
    assert deal_percents(ROUND_1, 1) == [(50.0, 50.0), (50.0, 50.0)]
    assert deal_percents(ROUND_2, 0) == [(100.0, 0.0), (0.0, 100.0)]
    assert deal_percents(ROUND_2, 1) == [(UNPLAYED_PERCENT, UNPLAYED_PERCENT), (50.0, 50.0)]


def test_what_each_round_gave_each_pair() -> None:
    # One line per pair, table by table, South-North's first; a line names the opponent.
    assert round_results(ROUND_1) == [
        PairRound(1, "B", 0.5, 0, (100.0, 50.0)),  # A
        PairRound(1, "A", 0.5, 0, (0.0, 50.0)),  # B
        PairRound(1, None, 0.0, -240, (0.0, 50.0)),  # C, against the computers
    ]
    assert round_results(ROUND_2) == [
        PairRound(2, "C", 1.0, 100, (100.0, 25.0)),  # A
        PairRound(2, "A", 0.0, -100, (0.0, 25.0)),  # C
        PairRound(2, None, 1.0, 140, (0.0, 50.0)),  # B, against the computers
    ]
    assert round_results([]) == []


def test_the_tables_of_a_round_play_the_same_deals() -> None:
    with pytest.raises(ValueError):
        round_results([TableResult(1, "A", "B", ((1, 0),)), TableResult(1, "C", None, ((1, 0), (0, 1)))])


def test_the_standings_of_the_small_tournament() -> None:
    found = standings(["A", "B", "C"], RESULTS)
    assert [s.pair for s in found] == ["A", "B", "C"]
    for got, want in zip(found, EXPECTED, strict=True):
        assert got.wins == want.wins
        assert got.points == want.points
        assert got.byes == want.byes
        assert got.matchpoints == pytest.approx(want.matchpoints)
    by_pair = pair_rounds(RESULTS)
    for pair, percents in (("A", A_PERCENTS), ("B", B_PERCENTS), ("C", C_PERCENTS)):
        assert tuple(p for line in by_pair[pair] for p in line.percents) == percents
    assert [line.opponent for line in by_pair["A"]] == ["B", "C"]
    assert [line.opponent for line in by_pair["B"]] == ["A", None]
    assert [line.opponent for line in by_pair["C"]] == [None, "A"]


def test_standings_before_any_result_and_after_round_one() -> None:
    assert standings(["A", "B", "C"], []) == [Standing("A"), Standing("B"), Standing("C")]
    after_one = {s.pair: s for s in standings(["A", "B", "C", "D"], ROUND_1)}
    assert after_one["A"] == Standing("A", wins=0.5, points=0, matchpoints=75.0, byes=0)
    assert after_one["B"] == Standing("B", wins=0.5, points=0, matchpoints=25.0, byes=0)
    assert after_one["C"] == Standing("C", wins=0.0, points=-240, matchpoints=25.0, byes=1)
    assert after_one["D"] == Standing("D")  # entered, no result yet: zero


def test_who_has_met() -> None:
    assert met(RESULTS) == {frozenset(("A", "B")), frozenset(("A", "C"))}  # byes meet nobody
    assert met(ROUND_1) == {frozenset(("A", "B"))}


def test_the_swiss_ranking_is_by_wins_the_duplicate_by_matchpoints() -> None:
    found = standings(["A", "B", "C"], RESULTS)
    # Swiss: A and B have 1.5 wins each, B's +140 beats A's +100.
    assert [s.pair for s in rank(found)] == ["B", "A", "C"]
    # Duplicate: A's 68.75 % beats B's 25 % and C's 18.75 %.
    assert [s.pair for s in rank(found, by_matchpoints=True)] == ["A", "B", "C"]


SCORES = st.one_of(st.none(), st.tuples(st.integers(0, 252), st.integers(0, 252)))


@st.composite
def rounds(draw: st.DrawFn) -> list[TableResult]:
    """One round's tables: some against computers, some deals not played."""
    deals = draw(st.integers(1, 4))
    count = draw(st.integers(1, 6))
    out = []
    for t in range(count):
        ew = draw(st.sampled_from([f"E{t}", None]))
        scores: tuple[DealScore, ...] = tuple(draw(SCORES) for _ in range(deals))
        out.append(TableResult(1, f"N{t}", ew, scores))
    return out


@settings(max_examples=60, deadline=None)
@given(tables=rounds())
def test_a_table_shares_each_deal_and_its_game(tables: list[TableResult]) -> None:
    deals = len(tables[0].deals)
    for d in range(deals):
        played = sum(t.deals[d] is not None for t in tables)
        for t, (ns, ew) in zip(tables, deal_percents(tables, d), strict=True):
            if t.deals[d] is None:
                assert (ns, ew) == (UNPLAYED_PERCENT, UNPLAYED_PERCENT)
            elif played == 1:
                assert (ns, ew) == (50.0, 50.0)
            else:
                assert ns + ew == pytest.approx(100.0)
            assert 0.0 <= ns <= 100.0 and 0.0 <= ew <= 100.0
    per_deal = [deal_percents(tables, d) for d in range(deals)]
    lines = iter(round_results(tables))
    for i, t in enumerate(tables):
        first = next(lines)
        assert first.opponent == t.ew
        assert first.percents == tuple(p[i][0] for p in per_deal)
        if t.ew is None:
            continue
        second = next(lines)
        assert second.opponent == t.ns
        assert second.percents == tuple(p[i][1] for p in per_deal)
        assert first.win + second.win == 1.0  # a table's two pairs share one win
        assert first.points == -second.points
    assert next(lines, None) is None


def test_the_arena_counts_two_a_win_one_a_tie_and_double_on_fire() -> None:
    assert arena_score([]) == ArenaScore(0, 0, False)
    # win, win (now on fire), win 4, loss 0 (fire out), win 2
    assert arena_score([1.0, 1.0, 1.0, 0.0, 1.0]) == ArenaScore(10, 5, False)
    assert arena_score([1.0, 1.0]) == ArenaScore(4, 2, True)
    assert arena_score([1.0, 1.0, 0.5]) == ArenaScore(6, 3, False)  # a tie on fire: 2, and the fire is out
    assert arena_score([0.5, 0.5, 1.0]) == ArenaScore(4, 3, False)


def test_the_arena_scores_each_pair_in_the_order_of_its_games() -> None:
    results = [
        TableResult(2, "A", "B", ((100, 62),)),
        TableResult(1, "A", "C", ((120, 42),)),
        TableResult(3, "A", None, ((90, 72),)),
    ]
    scores = arena_scores(results)
    assert scores["A"] == ArenaScore(2 + 2 + 4, 3, True)
    assert scores["B"] == ArenaScore(0, 1, False) and scores["C"] == ArenaScore(0, 1, False)


def test_the_arena_pairs_neighbours_and_not_the_last_opponent() -> None:
    assert arena_pairing(["A", "B", "C", "D"], {}) == ([("A", "B"), ("C", "D")], None)
    assert arena_pairing(["A", "B", "C", "D"], {"A": "B"}) == ([("A", "C"), ("B", "D")], None)
    assert arena_pairing(["A", "B", "C"], {}) == ([("A", "B")], "C")
    assert arena_pairing(["A", "B"], {"A": "B"}) == ([("A", "B")], None)  # nobody else: again
    assert arena_pairing([], {}) == ([], None)
