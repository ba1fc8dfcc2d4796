"""A club's points of the month (issue 51): 10, 8, 6, 5, 4, 3, 2 by place, then 1; shared
places share their points; each player of a pair gets them."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from coinche.server.features.club_points import PLACE_POINTS, club_month, month_points, place_points
from coinche.server.features.tournaments.model import Entry, StandingLine
from coinche.server.table.tournament_pairing import Standing


def line(rank: int, first: str, second: str | None = None) -> StandingLine:
    entry = Entry(f"e-{first}", first, second, second is not None, False)
    return StandingLine(rank, entry, Standing(entry.id), 1)


def test_the_places_give_the_clubs_scale() -> None:
    assert [place_points(r) for r in range(1, 11)] == [10, 8, 6, 5, 4, 3, 2, 1, 1, 1]
    assert PLACE_POINTS[0] == 10


def test_a_month_adds_each_players_points_across_its_tournaments() -> None:
    thursday = [line(1, "ana", "bob"), line(2, "cleo", "dan"), line(3, "eve")]
    saturday = [line(1, "cleo", "ana"), line(1, "bob", "eve"), line(3, "dan")]  # a shared first place
    table = {m.player: m for m in month_points([thursday, saturday])}
    assert table["ana"].points == 20 and table["ana"].won == 2 and table["ana"].played == 2
    assert table["bob"].points == 20 and table["bob"].won == 2
    assert table["cleo"].points == 18 and table["cleo"].won == 1
    assert table["eve"].points == 16
    assert table["dan"].points == 14
    ranks = [(m.rank, m.player) for m in month_points([thursday, saturday])]
    assert ranks == [(1, "ana"), (1, "bob"), (3, "cleo"), (4, "eve"), (5, "dan")]


def test_a_month_without_tournaments_is_empty() -> None:
    assert month_points([]) == []


def test_the_clubs_month_is_pariss() -> None:
    # 23:30 UTC on the last day of November is already December in Paris
    assert club_month(datetime(2026, 11, 30, 23, 30, tzinfo=UTC)) == "2026-12"
    assert club_month(datetime(2026, 11, 30, 22, 30, tzinfo=UTC)) == "2026-11"


@given(st.lists(st.lists(st.integers(1, 12), min_size=1, max_size=12), max_size=6))
def test_points_are_the_sum_of_the_places(tournaments: list[list[int]]) -> None:
    standings = [[line(rank, f"p{i}") for i, rank in enumerate(sorted(ranks))] for ranks in tournaments]
    table = month_points(standings)
    assert sum(m.points for m in table) == sum(place_points(r) for ranks in tournaments for r in ranks)
    assert [m.points for m in table] == sorted((m.points for m in table), reverse=True)
    assert all(m.rank >= 1 for m in table)
