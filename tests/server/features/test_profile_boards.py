"""The leaderboards of each rules profile (issue 49, item 8): a rated game moves the
rating of its own profile only, by the site rating's rule and as idempotently; a board per
profile (``/classement?regles=classic``) with its 10-games rule, its order and one's own
place; the site-wide board stays the default; hostile ``regles`` values are 404s; the
profile page links to the boards of the profiles a person played rated games in."""

from __future__ import annotations

import re

import pytest
from server_helpers import call, parts_of, post_form
from sqlalchemy import insert, select, text, update
from starlette.testclient import TestClient
from test_daily import account
from test_player_stats import BOT, RULES, person, play_to_end, profile, stats_of
from test_ratings import close, hand_update

from coinche.engine.rules import PROFILES, RuleSet
from coinche.server.features.leaderboard import MIN_GAMES
from coinche.server.features.player_stats import GamePlan
from coinche.server.infra.db import now
from coinche.server.infra.rows.people import AccountRow
from coinche.server.infra.rows.ratings import ProfileRatingRow
from coinche.server.infra.rows.tables import TableRow
from coinche.server.infra.store import Store
from coinche.server.table.ratings import NEW_PLAYER, LevelRatings, Rating
from coinche.server.table.spec import Seat

pytestmark = pytest.mark.both_databases

LEVELS = LevelRatings.load()


def store_of(client: TestClient) -> Store:
    store = client.app.state.store  # type: ignore[attr-defined]
    assert isinstance(store, Store)
    return store


def boards_of(client: TestClient, player: str) -> dict[str, tuple[Rating, int]]:
    """The player's rows of ``profile_ratings``: profile -> (rating, rated games)."""
    with store_of(client).session() as s:
        rows = s.scalars(select(ProfileRatingRow).where(ProfileRatingRow.player_id == player)).all()
    for r in rows:
        assert r.ordinal == pytest.approx(Rating(r.mu, r.sigma).ordinal)
    return {r.profile: (Rating(r.mu, r.sigma), r.rated_games) for r in rows}


def table_with(client: TestClient, rules: RuleSet, seats: tuple[Seat, Seat, Seat, Seat]) -> str:
    spec = call(client, parts_of(client).tables.create_table, rules, seats, "confirmed")
    table_id: str = spec.id
    return table_id


def test_a_rated_game_moves_the_rating_of_its_own_profile_only(client: TestClient) -> None:
    anne = account(client, "Anne")
    solo = (person(anne), BOT, BOT, BOT)
    first = play_to_end(client, table_with(client, RULES, solo), seed=1)
    site = profile(client, anne).rating
    # The first game: the classic board's rating is the site's (both start new).
    assert boards_of(client, anne) == {"classic": (site, 1)}
    online = RuleSet.profile("online", target=100)
    second_id = table_with(client, online, solo)
    second = play_to_end(client, second_id, seed=2)
    winner = second.game.winner
    assert first.game.winner is not None and winner is not None
    got = boards_of(client, anne)
    # The online board starts Anne new, by the site's rule (checked by hand); the classic
    # board did not move; the site rating went on from the first game's.
    from_new = hand_update([[NEW_PLAYER, LEVELS.confirmed], [LEVELS.confirmed, LEVELS.confirmed]], winner)[0][0]
    assert set(got) == {"classic", "online"}
    assert got["classic"] == (site, 1)
    assert close(got["online"][0], from_new) and got["online"][1] == 1
    from_site = hand_update([[site, LEVELS.confirmed], [LEVELS.confirmed, LEVELS.confirmed]], winner)[0][0]
    assert close(profile(client, anne).rating, from_site)
    # Told again (the table read back from its log): nothing moves.
    parts = parts_of(client)
    with parts.store.engine.begin() as conn:
        conn.execute(update(TableRow).where(TableRow.id == second_id).values(deals_booked=0, game_booked=False))
    parts.registry.forget(second_id)
    assert call(client, parts.tables.table, second_id) is not None
    assert boards_of(client, anne) == got


def test_a_game_given_up_is_lost_on_the_board_of_its_profile(client: TestClient) -> None:
    anne = account(client, "Anne")
    r = post_form(client, "/solo", {"profile": "house", "target": "1000", "level": "confirmed"})
    table_id = r.headers["location"].removeprefix("/table/")
    assert post_form(client, f"/partie/{table_id}/abandonner", {}, "/compte").status_code == 303
    got = boards_of(client, anne)
    assert set(got) == {"house"} and got["house"] == (profile(client, anne).rating, 1)
    assert got["house"][0].mu < NEW_PLAYER.mu


def test_rating_with_a_profile_is_one_transaction_with_the_guard(client: TestClient) -> None:
    """``rate`` twice for one table: the second changes neither board (the ``rated_games``
    guard covers both)."""
    alma, basile = account(client, "Alma"), account(client, "Basile")
    table_id = table_with(client, RULES, (person(alma), BOT, person(basile), BOT))
    bot = (None, "confirmed")
    plan = GamePlan(((alma, NEW_PLAYER), bot, (basile, NEW_PLAYER), bot), winner=0)
    store = stats_of(client).store
    assert store.rate(table_id, [plan], "federation") is not None
    before = boards_of(client, alma)
    assert store.rate(table_id, [plan], "federation") is None
    assert boards_of(client, alma) == before and set(before) == {"federation"}


def rated_in(client: TestClient, name: str, games: dict[str, tuple[float, float, int]]) -> str:
    """An account with ratings on boards: profile -> (mu, sigma, rated games)."""
    player = account(client, name)
    with store_of(client).engine.begin() as conn:
        for rules, (mu, sigma, count) in games.items():
            conn.execute(
                insert(ProfileRatingRow).values(
                    player_id=player,
                    profile=rules,
                    mu=mu,
                    sigma=sigma,
                    ordinal=Rating(mu, sigma).ordinal,
                    rated_games=count,
                    updated_at=now(),
                )
            )
    return player


def listed(page: str) -> list[tuple[str, str, int, int]]:
    """The board's lines: (place, name, rating, games)."""
    rows = re.findall(
        r"<tr[^>]*>\s*<td>(\d+)</td>\s*<td><a [^>]*><img [^>]*> ([^<]*)</a></td>\s*<td>(\d+)</td>\s*<td>(\d+)</td>",
        page,
    )
    return [(place, name, int(rating), int(games)) for place, name, rating, games in rows]


def sign_in(client: TestClient, name: str) -> None:
    client.cookies.clear()
    r = post_form(client, "/connexion", {"name": name, "password": "correct horse"}, "/connexion")
    assert r.status_code == 303


def test_each_profile_has_its_board_with_the_ten_games_rule_and_ones_own_place(client: TestClient) -> None:
    rated_in(client, "Amy", {"classic": (30.0, 2.0, MIN_GAMES), "house": (20.0, 2.0, 50)})
    rated_in(client, "Zed", {"classic": (32.0, 1.5, 40)})
    rated_in(client, "Low", {"classic": (40.0, 1.0, MIN_GAMES - 1), "online": (40.0, 1.0, MIN_GAMES)})
    evil = rated_in(client, "Evil", {"classic": (28.0, 1.0, 12)})
    with store_of(client).engine.begin() as conn:
        conn.execute(update(AccountRow).where(AccountRow.player_id == evil).values(name="<b>Evil</b>"))
    client.cookies.clear()
    page = client.get("/classement?regles=classic").text
    expected = [Rating(32.0, 1.5), Rating(28.0, 1.0), Rating(30.0, 2.0)]
    assert listed(page) == [
        ("1", "Zed", expected[0].display, 40),
        ("2", "&lt;b&gt;Evil&lt;/b&gt;", expected[1].display, 12),
        ("3", "Amy", expected[2].display, MIN_GAMES),
    ]
    assert "Low" not in page.split("<main")[1] and "<b>Evil</b>" not in page
    assert [n for _, n, _, _ in listed(client.get("/classement?regles=house").text)] == ["Amy"]
    assert [n for _, n, _, _ in listed(client.get("/classement?regles=online").text)] == ["Low"]
    assert listed(client.get("/classement?regles=federation").text) == []
    empty = client.get("/classement?regles=federation").text
    assert "Personne n&#39;a encore joué 10 parties classées avec ces règles" in empty
    # The tabs: the site-wide board first (the default), then each profile; the one shown
    # is marked, and its name is in the title.
    nav = re.search(r'<nav class="[^"]*board-tabs"[^>]*>(.*?)</nav>', page, re.S)
    assert nav is not None
    links = re.findall(r'<a href="([^"]*)"( aria-current="page")?>([^<]*)</a>', nav[1])
    assert [href for href, _, _ in links] == ["/classement", *(f"/classement?regles={p}" for p in PROFILES)]
    assert [label for _, current, label in links if current] == ["Classique"]
    assert "Classement des joueurs · Classique" in page
    # The site-wide board is the default and knows nothing of the boards (no player_stats rows).
    assert listed(client.get("/classement").text) == []

    sign_in(client, "Amy")
    mine = client.get("/classement?regles=classic").text
    assert f"Vous êtes 3ᵉ, avec un classement de {expected[2].display}." in mine
    assert "Vous êtes 1ᵉ" in client.get("/classement?regles=house").text
    assert re.search(r'<tr class="leaderboard-me" aria-current="true">\s*<td>3</td>', mine)
    assert "Vous avez joué 0 partie classée : il en faut 10" in client.get("/classement?regles=online").text
    sign_in(client, "Low")
    assert "Vous avez joué 9 parties classées : il en faut 10" in client.get("/classement?regles=classic").text
    # In English, the same board and the way to the French one keeps the profile.
    en = client.get("/leaderboard?regles=classic").text
    assert 'lang="en"' in en and "Leaderboard · Classic" in en
    assert "next=/classement%3Fregles%3Dclassic" in en and 'href="/leaderboard?regles=online"' in en


@pytest.mark.parametrize(
    "value",
    ["x" * 5000, "classiqué", "<script>alert(1)</script>", "classic ", "CLASSIC", "classic\x00", "../classic"],
)
def test_a_hostile_profile_is_a_404(client: TestClient, value: str) -> None:
    r = client.get("/classement", params={"regles": value})
    assert r.status_code == 404
    assert "<script>alert" not in r.text and "x" * 100 not in r.text
    assert client.get("/leaderboard", params={"regles": value}).status_code == 404
    assert client.get("/classement?regles=").status_code == 200  # empty: the site-wide board


def test_the_board_of_a_profile_reads_its_index(client: TestClient) -> None:
    """The top of one profile is the first rows of ``ix_profile_ratings_leaderboard``."""
    query = (
        "SELECT player_id FROM profile_ratings WHERE profile = 'classic' AND rated_games >= 10"
        " ORDER BY ordinal DESC, player_id LIMIT 100"
    )
    with store_of(client).engine.connect() as conn:
        if conn.dialect.name == "sqlite":
            plan = " ".join(str(r[-1]) for r in conn.execute(text("EXPLAIN QUERY PLAN " + query)))
        else:
            conn.execute(text("SET enable_seqscan = off"))
            plan = " ".join(str(r[0]) for r in conn.execute(text("EXPLAIN " + query)))
    assert "ix_profile_ratings_leaderboard" in plan, plan


def test_the_profile_page_links_to_the_boards_of_the_profiles_played(client: TestClient) -> None:
    rated_in(client, "Anne", {"house": (25.0, 3.0, 4), "classic": (30.0, 2.0, 12)})
    client.cookies.clear()
    main = client.get("/joueur/Anne").text.split("<main")[1]
    boards = re.findall(r'<a class="leaderboard-link" href="([^"]*)">([^<]*)</a>', main)
    assert boards == [
        ("/classement", "Classement"),
        ("/classement?regles=classic", "Classique"),
        ("/classement?regles=house", "Maison"),
    ]
    en = client.get("/player/Anne").text.split("<main")[1]
    assert 'href="/leaderboard?regles=classic"' in en and "regles=online" not in en
    rated_in(client, "Bob", {})
    assert "regles=" not in client.get("/joueur/Bob").text.split("<main")[1]
