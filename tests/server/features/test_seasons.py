"""Monthly seasons (issue 51): a quick play game counts in the season it started in, even
across midnight; the month's end on the test's clock moves the top of each division up
and the bottom down (ties, a player with one game), once across two processes, and where
each person starts next; the season page and the profile's badges."""

from __future__ import annotations

import html
import re
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from friends_helpers import Person
from postgres_cluster import PostgresCluster
from server_helpers import Clock, Human, another_visitor, call, player_of
from sqlalchemy import func, select

from coinche.server.features.seasons import (
    SeasonCloseRow,
    SeasonDivisionRow,
    SeasonFinalRow,
    SeasonPlayerRow,
    SeasonStore,
)
from coinche.server.infra.store import Store

T0 = datetime(2026, 11, 30, 23, 50, tzinfo=UTC)


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    made = Store(database_url)
    yield made
    made.close()


def game(seasons: SeasonStore, table_id: str, season: str, outcomes: dict[str, str], mu: float = 25.0) -> None:
    seasons.started(table_id, season, "classic", {p: mu for p in outcomes}, T0)
    assert seasons.count(table_id, "classic", outcomes, T0)


def row(store: Store, season: str, player: str) -> SeasonPlayerRow:
    with store.session() as s:
        found = s.get(SeasonPlayerRow, (season, "classic", player))
        assert found is not None
        s.expunge(found)
        return found


def final(store: Store, player: str) -> SeasonFinalRow:
    with store.session() as s:
        found = s.get(SeasonFinalRow, ("2026-11", "classic", player))
        assert found is not None
        s.expunge(found)
        return found


def earned(store: Store, player: str) -> int | None:
    with store.session() as s:
        found = s.get(SeasonDivisionRow, ("classic", player))
        return found.division if found is not None else None


@pytest.mark.both_databases
def test_the_month_end_moves_the_top_up_and_the_bottom_down(store: Store) -> None:
    seasons = SeasonStore(store)
    # division 3 (a rating of 25): a, b tied at the top, ..., z last; "one" has one game
    results = {
        "a": ["won"] * 4,
        "b": ["won"] * 4,
        "c": ["won", "won", "lost", "lost"],
        "d": ["won", "lost", "lost"],
        "e": ["lost"] * 4,
        "f": ["lost"] * 3,
        "g": ["lost", "lost", "left"],
        "h": ["lost", "lost", "left"],
        "z": ["left", "left", "left"],
        "one": ["left"],
    }
    n = 0
    for player, outcomes in results.items():
        for outcome in outcomes:
            n += 1
            game(seasons, f"t{n}", "2026-11", {player: outcome})
    assert not seasons.count("t1", "classic", {"a": "won"}, T0)  # a game counts once
    assert row(store, "2026-11", "a").points == 12 and row(store, "2026-11", "z").points == 0
    assert row(store, "2026-11", "one").division == 3
    # a newcomer with a high rating starts higher
    game(seasons, "high", "2026-11", {"star": "won"}, mu=29.0)
    assert row(store, "2026-11", "star").division == 1
    # someone already playing December before November closes
    game(seasons, "dec1", "2026-12", {"a": "won"})
    assert seasons.due("2026-12") == [("2026-11", "classic")]
    assert seasons.close("2026-11", "classic", T0 + timedelta(hours=1)) == 11
    assert seasons.close("2026-11", "classic", T0 + timedelta(hours=1)) is None  # once
    assert seasons.due("2026-12") == []
    moves = {p: final(store, p).move for p in results}
    # nine eligible in division 3: one place up (a and b tied: both), one down (z)
    assert moves == {
        "a": "up",
        "b": "up",
        "c": "stay",
        "d": "stay",
        "e": "stay",
        "f": "stay",
        "g": "stay",
        "h": "stay",
        "z": "down",
        "one": "stay",
    }
    assert final(store, "a").final_rank == final(store, "b").final_rank == 1
    assert earned(store, "a") == 2 and earned(store, "z") == 4 and earned(store, "one") == 3
    assert row(store, "2026-12", "a").division == 2  # begun early: moved to what she earned
    game(seasons, "dec2", "2026-12", {"z": "lost"})
    assert row(store, "2026-12", "z").division == 4  # next season starts where they earned
    assert [(b.season, b.division, b.rank, b.move) for b in seasons.badges("a")] == [("2026-11", 3, 1, "up")]


def test_two_processes_at_the_month_end_close_it_once(postgres: PostgresCluster) -> None:
    database_url = postgres.new_database()
    first, second = Store(database_url), Store(database_url)
    seasons = SeasonStore(first)
    for i in range(300):
        game(seasons, f"t{i}", "2026-11", {f"p{i % 60}": ("won", "lost", "left")[i % 3]})
    results: list[int | None] = []

    def close(store: Store) -> None:
        results.append(SeasonStore(store).close("2026-11", "classic", T0 + timedelta(hours=4)))

    threads = [threading.Thread(target=close, args=(s,)) for s in (first, second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results, key=lambda r: r is None) == [60, None]
    with first.session() as s:
        assert s.scalar(select(func.count()).select_from(SeasonCloseRow)) == 1
        assert s.scalar(select(func.count()).select_from(SeasonDivisionRow)) == 60
    first.close()
    second.close()


def test_a_quick_game_across_midnight_counts_in_its_month(make_client: Any) -> None:
    clock = Clock(T0)
    client = make_client(clock=clock, quick_wait_seconds=5.0, season_check_seconds=3600.0)
    zoe = Person(another_visitor(client), "Zoe")
    zoe.sign_up()
    assert zoe.post("/partie-rapide", {"action": "join", "rules": "classic"}, "/partie-rapide").status_code == 303
    clock.now += timedelta(seconds=6)  # nobody else came: computers fill the table
    quick = client.app.state.quick_play  # type: ignore[attr-defined]
    made = call(client, quick.wave)
    assert len(made) == 1
    [table_id] = made
    clock.now = datetime(2026, 12, 1, 0, 20, tzinfo=UTC)  # the game goes on past midnight
    with zoe.acting() as c, c.websocket_connect(f"/ws/table/{table_id}") as ws:
        Human(ws).play_game()
    seasons = client.app.state.seasons  # type: ignore[attr-defined]
    assert call(client, seasons.mine, player_of(client, "Zoe"), "2026-11", "classic") is not None
    assert call(client, seasons.mine, player_of(client, "Zoe"), "2026-12", "classic") is None
    page = html.unescape(zoe.get("/saison?profile=classic&season=2026-11").text)
    assert "Saison de novembre 2026" in page and "Zoe" in page and "(vous)" in page
    assert "Vous êtes en division 3" in page
    english = html.unescape(zoe.get("/season?profile=classic").text)
    assert "December 2026 season" in english and "31 days left." in english
    assert re.search(r"your first rated quick game places you in division [1-5]\.", english)  # from her rating now
    closed = call(client, seasons.tick)  # its month over, its games ended: closed now
    assert closed == [("2026-11", "classic", 1)]
    assert call(client, seasons.tick) == []
    profile = html.unescape(zoe.get("/joueur/Zoe").text)
    assert "Saisons passées" in profile and "novembre 2026 · Classique · division 3, 1e : maintien" in profile


def test_hostile_season_queries(client: Any) -> None:
    for query in (
        "?profile=<script>",
        "?season=9999-99",
        "?season=2099-01",
        "?division=99",
        "?division=-1",
        "?division=" + "9" * 500,
        "?season=2026-13&profile=classic",
        "?profile=classic&season=x' OR 1=1",
    ):
        r = client.get("/saison" + query)
        assert r.status_code == 200, query
        assert "<script>" not in r.text
