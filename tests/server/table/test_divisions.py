"""The seasons' rules (docs/seasons.md), pure: the month of a moment, a newcomer's
division, a game's points, the division's table and who goes up or down (ties, players
with too few games, the top and bottom divisions)."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from coinche.server.table.divisions import (
    DIVISIONS,
    MIN_GAMES,
    Standing,
    game_points,
    moved,
    moves,
    next_season,
    placement,
    ranked,
    season_of,
    zone_size,
)


def s(player: str, points: int, games: int = 5, wins: int = 0, left: int = 0) -> Standing:
    return Standing(player, points, games, wins, left)


def test_the_month_of_a_moment_and_the_next() -> None:
    assert season_of(datetime(2026, 11, 30, 23, 59, 59, tzinfo=UTC)) == "2026-11"
    assert season_of(datetime(2026, 12, 1, tzinfo=UTC)) == "2026-12"
    assert next_season("2026-12") == "2027-01" and next_season("2026-01") == "2026-02"


def test_a_newcomers_division_and_a_games_points() -> None:
    assert [placement(mu) for mu in (30, 28, 27.9, 25, 24, 23, 21, 10)] == [1, 1, 2, 3, 3, 4, 5, 5]
    assert game_points(0, "won") == 3 and game_points(3, "lost") == 4
    assert game_points(1, "left") == 0  # never below zero
    assert game_points(5, "left") == 3


def test_promotion_and_relegation_with_ties_going_the_players_way() -> None:
    table = [s(f"p{i}", 30 - 3 * i) for i in range(10)]  # ten eligible: two up, two down
    table[1] = s("p1", 30)  # tied with p0 at the top
    table[2] = s("p2", 30)  # three tied for two places: all three go up
    table[7] = s("p7", 9)
    table[8] = s("p8", 9)  # the last who stays (p7) is tied with p8: p8 stays
    table[9] = s("p9", 3)
    got = moves(3, table)
    assert {p for p, m in got.items() if m == "up"} == {"p0", "p1", "p2"}
    assert {p for p, m in got.items() if m == "down"} == {"p9"}
    ranks = {st.player: rank for rank, st in ranked(table)}
    assert ranks["p0"] == ranks["p1"] == ranks["p2"] == 1 and ranks["p3"] == 4
    assert ranks["p7"] == ranks["p8"]


def test_a_player_with_one_game_stays_and_small_divisions() -> None:
    table = [s("a", 12), s("b", 6), s("c", 3), s("one", 3, games=1)]
    got = moves(2, table)
    assert got == {"a": "up", "b": "stay", "c": "down", "one": "stay"}
    assert moves(2, [s("alone", 30)]) == {"alone": "stay"}  # nobody to be better than
    assert moves(1, table)["a"] == "stay"  # nobody goes above the top
    assert moves(DIVISIONS, table)["c"] == "stay"  # nor below the bottom
    assert zone_size(2) == 1 and zone_size(9) == 1 and zone_size(10) == 2 and zone_size(1) == 0


def test_wins_then_fewer_games_left_break_ties() -> None:
    table = [s("a", 9, wins=3), s("b", 9, wins=2), s("c", 9, wins=2, left=1), s("d", 0)]
    assert [st.player for _, st in ranked(table)] == ["a", "b", "c", "d"]


@given(
    st.integers(1, DIVISIONS),
    st.lists(st.tuples(st.integers(0, 40), st.integers(0, 12), st.integers(0, 5)), max_size=40),
)
def test_nobody_moves_twice_nor_out_of_the_divisions(division: int, rows: list[tuple[int, int, int]]) -> None:
    table = [s(f"p{i}", points, games, wins=min(wins, games)) for i, (points, games, wins) in enumerate(rows)]
    got = moves(division, table)
    assert set(got) == {x.player for x in table}
    eligible = [x for x in table if x.games >= MIN_GAMES]
    k = zone_size(len(eligible))
    ups = [p for p, m in got.items() if m == "up"]
    downs = [p for p, m in got.items() if m == "down"]
    assert len(downs) <= k  # ties only ever save a player
    if division > 1 and k:
        assert len(ups) >= k
    for p, m in got.items():
        assert 1 <= moved(division, m) <= DIVISIONS
        if m != "stay":
            assert next(x for x in table if x.player == p).games >= MIN_GAMES
    best_down = max((x.key() for x in table if got[x.player] == "down"), default=None)
    worst_up = min((x.key() for x in table if got[x.player] == "up"), default=None)
    if best_down is not None and worst_up is not None:
        assert best_down < worst_up
