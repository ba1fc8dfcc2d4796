"""The people one can see (issue 49, item 8): the home page's counts of people online and
games being played, read from the database so two server processes on one database say
the same; friends online on the home page; the leaderboard (the 10-games rule, its order,
one's own place, a hostile name escaped, its index); every account's avatar."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from friends_helpers import Person
from server_helpers import MakeClient, another_visitor, call
from sqlalchemy import text, update
from starlette.testclient import TestClient
from test_daily import account
from test_player_stats import BOT, new_table, person, play_to_end, stats_of

from coinche.server.features.following import Following
from coinche.server.features.leaderboard import MIN_GAMES
from coinche.server.features.player_stats import GamePlan
from coinche.server.infra.db import now
from coinche.server.infra.rows.people import AccountRow
from coinche.server.infra.rows.ratings import PlayerStatsRow
from coinche.server.infra.rows.tables import TablePresenceRow, TableRow
from coinche.server.infra.store import Store
from coinche.server.live.presence import WATCHER, write_count
from coinche.server.table.ratings import NEW_PLAYER, Rating
from coinche.server.web.avatars import avatar_svg, colour, initials

pytestmark = pytest.mark.both_databases


def store_of(client: TestClient) -> Store:
    store = client.app.state.store  # type: ignore[attr-defined]
    assert isinstance(store, Store)
    return store


def following_of(client: TestClient) -> Following:
    found = client.app.state.following  # type: ignore[attr-defined]
    assert isinstance(found, Following)
    return found


def site_now(client: TestClient) -> str:
    client.cookies.clear()
    found = re.search(r'<p class="site-now">(.*?)</p>', client.get("/").text)
    assert found is not None
    return re.sub(r"<[^>]+>", "", found[1])


def test_two_processes_count_the_same_people_and_games_from_the_database(make_client: MakeClient) -> None:
    """What one process knows (a person's page open, a connection to a table of several
    people, a game being played) is counted by the other, which never saw any of it; a
    watcher, a connection a dead process stopped confirming and a finished game are not."""
    one, two = make_client(), make_client()
    ana = account(one, "Ana")
    call(one, following_of(one).seen, ana)  # Ana's page is open (``/ws/me``) on process one
    store = store_of(one)
    write_count(store, "T1", "guest-1", "process-1", 1)  # a guest at a friends' table
    write_count(store, "T1", WATCHER + "w1", "process-1", 1)
    write_count(store, "T1", "gone-1", "process-9", 1)
    with store.engine.begin() as conn:  # process 9 died a while ago
        conn.execute(
            update(TablePresenceRow)
            .where(TablePresenceRow.process == "process-9")
            .values(seen_at=now() - timedelta(minutes=1))
        )
    bob = account(one, "Bob")
    playing = new_table(one, (person(bob), BOT, BOT, BOT))  # Bob plays against the computer
    play_to_end(one, playing, until=lambda live: live.seq >= 2)
    cid = account(one, "Cid")
    done = new_table(one, (person(cid), BOT, BOT, BOT))
    with store.engine.begin() as conn:
        conn.execute(update(TableRow).where(TableRow.id == done).values(finished_at=now()))
    assert site_now(two) == "3 personnes en ligne · 1 partie en cours · Classement"
    assert site_now(one) == site_now(two)


def test_the_home_page_lists_friends_online_with_the_way_to_their_public_table(client: TestClient) -> None:
    ana, bob, eve = (Person(another_visitor(client), n) for n in ("Ana", "Bob", "Eve"))
    for p in (ana, bob, eve):
        p.sign_up()
    for name in ("Bob", "Eve"):
        r = ana.post("/mes-amis", {"action": "follow", "name": name}, "/mes-amis")
        assert r.status_code == 200
    _, code = bob.make_table(public="on")
    with store_of(client).session() as s:
        bob_id = s.scalar(text("SELECT player_id FROM accounts WHERE name = 'Bob'"))
    call(client, following_of(client).seen, bob_id)  # Bob's page is open; Eve's is not
    page = ana.get("/").text
    section = page[page.index('class="friends-online"') :]
    assert "Vos amis en ligne" in section and "Bob" in section and "Eve" not in section
    assert f'href="/rejoindre/{code}"' in section
    assert 'src="/avatar/Bob.svg"' in section
    assert "friends-online" not in Person(another_visitor(client), "x").get("/").text  # a visitor: no list


def rated(client: TestClient, name: str, mu: float, sigma: float, games: int) -> str:
    player = account(client, name)
    with store_of(client).engine.begin() as conn:
        conn.execute(
            PlayerStatsRow.__table__.insert().values(
                player_id=player,
                mu=mu,
                sigma=sigma,
                ordinal=Rating(mu, sigma).ordinal,
                rated_games=games,
                games_played=games,
                games_won=0,
                deals_played=0,
                contracts_taken=0,
                contracts_made=0,
                coinches=0,
                coinches_won=0,
                updated_at=now(),
            )
        )
    return player


def test_the_leaderboard_ranks_by_rating_those_with_ten_rated_games(client: TestClient) -> None:
    rated(client, "Amy", 30.0, 2.0, MIN_GAMES)  # ordinal 24
    rated(client, "Zed", 32.0, 1.5, 40)  # 27.5: first
    rated(client, "Low", 40.0, 1.0, MIN_GAMES - 1)  # the best rating, one game short: not listed
    evil = rated(client, "Evil", 28.0, 1.0, 12)  # 25: second
    with store_of(client).engine.begin() as conn:
        conn.execute(update(AccountRow).where(AccountRow.player_id == evil).values(name="<b>Evil</b>"))
    client.cookies.clear()
    page = client.get("/classement").text
    rows = re.findall(r"<tr>\s*<td>(\d+)</td>.*?</a>\s*</td>\s*<td>(\d+)</td>\s*<td>(\d+)</td>", page, re.S)
    names = re.findall(r'<img class="avatar"[^>]*> ([^<]*(?:&lt;[^<]*)*)</a>', page)
    assert names == ["Zed", "&lt;b&gt;Evil&lt;/b&gt;", "Amy"], names
    assert [r[0] for r in rows] == ["1", "2", "3"]
    expected = [Rating(32.0, 1.5), Rating(28.0, 1.0), Rating(30.0, 2.0)]
    assert [int(r[1]) for r in rows] == [r.display for r in expected]
    assert "<b>Evil</b>" not in page and "Low" not in page
    assert 'src="/avatar/%3Cb%3EEvil%3C%2Fb%3E.svg"' in page
    assert client.get("/leaderboard").status_code == 200

    amy = Person(another_visitor(client), "Amy")
    r = amy.post("/connexion", {"name": "Amy", "password": "correct horse"}, "/connexion")
    assert r.status_code == 303
    assert "Vous êtes 3ᵉ, avec un classement de" in amy.get("/classement").text
    low = Person(another_visitor(client), "Low")
    low.post("/connexion", {"name": "Low", "password": "correct horse"}, "/connexion")
    assert "Vous avez joué 9 parties classées : il en faut 10" in low.get("/classement").text


def test_a_rated_game_keeps_the_leaderboards_order_with_the_rating(client: TestClient) -> None:
    first, second = account(client, "Alma"), account(client, "Basile")
    table_id = new_table(client, (person(first), BOT, person(second), BOT))
    bot = (None, "confirmed")
    plan = GamePlan(((first, NEW_PLAYER), bot, (second, NEW_PLAYER), bot), winner=0)
    assert stats_of(client).store.rate(table_id, [plan], "classic") is not None
    with store_of(client).session() as s:
        rows = s.execute(text("SELECT mu, sigma, ordinal FROM player_stats")).all()
    assert len(rows) == 2
    for mu, sigma, ordinal in rows:
        assert ordinal == pytest.approx(mu - 3 * sigma) and ordinal != 0


def test_the_leaderboard_reads_its_index(client: TestClient) -> None:
    """The top is the first rows of ``ix_player_stats_leaderboard`` (no sort of the table)."""
    store = store_of(client)
    query = "SELECT player_id FROM player_stats WHERE rated_games >= 10 ORDER BY ordinal DESC, player_id LIMIT 100"
    with store.engine.connect() as conn:
        if conn.dialect.name == "sqlite":
            plan = " ".join(str(r[-1]) for r in conn.execute(text("EXPLAIN QUERY PLAN " + query)))
        else:
            conn.execute(text("SET enable_seqscan = off"))
            plan = " ".join(str(r[0]) for r in conn.execute(text("EXPLAIN " + query)))
    assert "ix_player_stats_leaderboard" in plan, plan


def test_every_account_has_an_avatar_drawn_from_its_name(client: TestClient) -> None:
    account(client, "Zoé-Line")
    r = client.get("/avatar/Zo%C3%A9-Line.svg")
    assert r.status_code == 200 and r.headers["content-type"] == "image/svg+xml"
    assert "max-age=" in r.headers["cache-control"] and r.headers["x-content-type-options"] == "nosniff"
    assert ">ZL</text>" in r.text and "<script" not in r.text
    assert colour("Zoé") == colour("ZOÉ") and initials("zoé") == "Z"
    assert ">?</text>" in avatar_svg("<b>&") and ">O</text>" in avatar_svg("<svg onload=alert(1)>")
    assert client.get("/avatar/" + "x" * 200 + ".svg").status_code == 404
    assert 'src="/avatar/Zo%C3%A9-Line.svg"' in client.get("/joueur/Zo%C3%A9-Line").text
