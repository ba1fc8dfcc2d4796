"""The public read API (issue 53, ``web/public_api.py``): each endpoint on a site of a few
finished games played at real tables, what stays hidden (a game in progress, a friends'
table, the daily challenge's games and its day not over, a tournament's tables until it is
over while a round is not played everywhere, a private tournament, a deleted account),
no cookie read or set, CORS, the JSON refusals of hostile input, the rate limit, and the
OpenAPI description against the routes."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from server_helpers import call, parts_of, settings_for
from starlette.routing import Route
from starlette.testclient import TestClient
from test_daily import DAY, NOW, Clock, account, daily_of, start
from test_player_stats import BOT, RULES, new_table, person, play_to_end

from coinche.server.features.accounts import AccountStore
from coinche.server.features.bots import BotStore
from coinche.server.features.following import Following
from coinche.server.features.tournaments.model import Plan
from coinche.server.features.tournaments.runner import Tournaments
from coinche.server.infra.store import new_id
from coinche.server.table.kinds import FriendsTable
from coinche.server.web import public_api
from coinche.server.web.app import create_app

API = "/api/v1"


@dataclass
class Site:
    client: TestClient
    clock: Clock
    anne: str = ""
    finished: list[str] = field(default_factory=list)
    """Anne's finished solo games, oldest first."""
    playing: str = ""
    friends: str = ""
    challenge: str = ""
    tournament: str = ""
    private_tournament: str = ""
    tables: list[str] = field(default_factory=list)
    """The tournament's two tables: the first played to its end before the second."""
    midway: dict[str, Any] = field(default_factory=dict)
    """What the API said while the tournament's second table was still playing."""


def get(client: TestClient, path: str, **headers: str) -> Any:
    return client.get(API + path, headers=headers)


def tournaments_of(client: TestClient) -> Tournaments:
    found: Tournaments = client.app.state.tournaments  # type: ignore[attr-defined]
    return found


def wait(what: Any, seconds: float = 60) -> Any:
    deadline = time.monotonic() + seconds
    while not (found := what()):
        assert time.monotonic() < deadline, "waited too long"
        time.sleep(0.05)
    return found


def run_tournament(site: Site) -> None:
    """A public swiss of one round of one deal, three pairs of people entered alone: Anne
    alone online at the start, her table waits for her (the others' are computers'); the
    API is read (``site.midway``) once the other table is over, then hers is played."""
    client, clock = site.client, site.clock
    runner = tournaments_of(client)
    starts = clock.moment + timedelta(minutes=1)
    plan = Plan("Concours", "classic", "swiss", 1, 1, 5.0, starts, clock.moment, break_seconds=0, target=100)
    tournament = call(client, runner.create, plan, site.anne)
    site.private_tournament = call(client, runner.create, replace(plan, private=True), site.anne).id
    site.tournament = tournament.id
    players = [site.anne] + [account(client, f"Entrant{i}") for i in range(5)]
    for player in players:
        call(client, runner.enter, tournament.id, player, None, None)
    following: Following = client.app.state.following  # type: ignore[attr-defined]
    call(client, following.seen, site.anne)  # online: seated in person, the others by computers
    clock.moment = starts
    tables = wait(lambda: call(client, runner.round_tables, tournament.id))
    assert len(tables) == 2
    hers = next(t.table_id for t in tables if any(s.player == site.anne for s in t.seats))
    other = next(t.table_id for t in tables if t.table_id != hers)
    site.tables = [other, hers]
    live = parts_of(client).tables.table
    wait(lambda: (found := call(client, live, other, 0, True)) is not None and found.game.is_over)
    assert not call(client, live, hers, 0, True).game.is_over  # waits for Anne (60 s of grace)
    site.midway["tournament"] = get(client, f"/tournaments/{site.tournament}").json()
    site.midway["game"] = get(client, f"/games/{other}").status_code
    site.midway["record"] = get(client, f"/games/{other}/record").status_code
    play_to_end(client, hers, seed=4)
    wait(lambda: call(client, runner.get, tournament.id).state == "finished")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path) -> Iterator[Site]:
    """One site for the module: Anne's three finished solo games, one in progress, a
    friends' table played to its end, the daily challenge played on its day, a tournament
    run; then the clock past the day's end."""
    folder = tmp_path_factory.mktemp("public_api")
    shutil.copyfile(sqlite_template, folder / "x.db")
    clock = Clock(NOW)
    settings = settings_for(
        folder,
        f"sqlite:///{folder / 'x.db'}",
        clock=clock,
        challenge_level="confirmed",
        tournament_tick_seconds=0.05,
        public_api_limit="100000/minute",
    )
    with TestClient(create_app(settings)) as client:
        site = Site(client, clock)
        site.anne = anne = account(client, "Anne")
        bruno = account(client, "Bruno")
        for seed in range(3):
            site.finished.append(new_table(client, (person(anne), BOT, BOT, BOT)))
            play_to_end(client, site.finished[-1], seed=seed)
        site.playing = new_table(client, (person(anne), BOT, BOT, BOT))
        kind = FriendsTable("PRIVE123", anne, clock=False)
        seats = (person(anne), person(bruno), BOT, BOT)
        site.friends = call(client, parts_of(client).tables.create_table, RULES, seats, "confirmed", kind).id
        play_to_end(client, site.friends, seed=9)
        call(client, daily_of(client).ensure_day, DAY)
        site.challenge = start(client, anne)
        site.midway["challenge"] = get(client, f"/challenge/{DAY}").json()  # the day not over
        play_to_end(client, site.challenge, seed=5)
        run_tournament(site)
        store = client.app.state.store  # type: ignore[attr-defined]
        BotStore(store).create(AccountStore(store).create("Owner", None, "!", new_id(12)), "Zebulon")
        gone = AccountStore(store).create("Gone", None, "!", new_id(12))
        call(client, client.app.state.accounts.delete, gone)  # type: ignore[attr-defined]
        clock.moment = NOW + timedelta(days=1)
        yield site


def test_a_player_and_their_games_page_by_page(site: Site) -> None:
    client = site.client
    r = get(client, "/players/aNNe")  # any case
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    assert r.headers["access-control-allow-origin"] == "*" and "set-cookie" not in r.headers
    me = r.json()
    assert me["name"] == "Anne" and me["bot"] is False and me["owner"] is None
    assert me["rated_games"] >= 3 and me["profiles"][0]["profile"] == "classic" and isinstance(me["rating"], int)
    assert "email" not in r.text and site.anne not in r.text  # no email, not even the player id
    seen: list[str] = []
    url = API + "/players/Anne/games?limit=2"
    while url:
        page = client.get(url).json()
        assert len(page["games"]) <= 2
        seen += [g["id"] for g in page["games"]]
        url = page["next"]
    # the solo games and the tournament's (over now); never the game in progress, the
    # friends' table, the daily challenge
    assert seen == [site.tables[1], *site.finished[::-1]]
    first = client.get(API + "/players/Anne/games").json()["games"][-1]
    assert first["id"] == site.finished[0] and first["seat"] == 0 and first["outcome"] in ("won", "lost")
    assert first["seats"][1] == {"seat": 1, "kind": "computer", "level": "confirmed"}
    assert first["seats"][0]["name"] == "Anne" and first["kind"] == "solo"


def test_a_game_and_its_record_with_the_revealed_seeds(site: Site) -> None:
    client = site.client
    game = get(client, f"/games/{site.finished[0]}").json()
    assert game["winner"] in (0, 1) and len(game["totals"]) == 2 and "seat" not in game
    r = get(client, f"/games/{site.finished[0]}/record")
    assert r.status_code == 200 and "max-age" in r.headers["cache-control"]
    record = r.json()
    assert record["rules"] == "classic" and record["table"] == site.finished[0] and "seed" not in record
    assert record["deals"] and all("seed" in d["dealing"] for d in record["deals"])
    assert r.content == get(client, f"/games/{site.finished[0]}/record").content  # kept, the same


def test_what_a_page_hides_stays_hidden(site: Site) -> None:
    client = site.client
    for table_id in (site.playing, site.friends, site.challenge):
        for path in (f"/games/{table_id}", f"/games/{table_id}/record"):
            r = get(client, path)
            assert r.status_code == 404 and r.json()["error"] == "not_found", path
    # the tournament: while a table still played the round, neither the other table's game
    # nor its result was shown, its standings counted nothing
    midway = site.midway["tournament"]
    assert midway["state"] == "running" and midway["tables"] == [] and midway["secret"] is None
    assert all(line["points"] == 0 for line in midway["standings"])
    assert site.midway["game"] == site.midway["record"] == 404
    over = get(client, f"/tournaments/{site.tournament}").json()
    assert over["state"] == "finished" and over["secret"] and len(over["tables"]) == 2
    assert {t["game"] for t in over["tables"]} == {f"{API}/games/{t}" for t in site.tables}
    assert get(client, f"/games/{site.tables[0]}").status_code == 200
    assert get(client, f"/tournaments/{site.private_tournament}").status_code == 404
    listed = get(client, "/tournaments").json()
    assert site.tournament in [t["id"] for t in listed["finished"]]
    assert site.private_tournament not in str(listed)
    # the daily challenge: its day not over was refused, the day over gives its ranking
    assert site.midway["challenge"]["error"] == "not_over"
    day = get(client, f"/challenge/{DAY}").json()
    assert day["seed"] and day["players"] == 1 and day["ranking"][0]["name"] == "Anne"
    today = (NOW + timedelta(days=1)).date().isoformat()
    assert get(client, f"/challenge/{today}").status_code == 404
    assert get(client, "/challenge/2099-01-01").status_code == 404
    assert get(client, "/players/Nobody").status_code == 404
    assert get(client, "/players/Gone").status_code == 404  # deleted


def test_the_leaderboards(site: Site) -> None:
    client = site.client
    for board in ("site", "classic", "bots"):
        r = get(client, f"/leaderboards/{board}")
        assert r.status_code == 200 and r.json()["board"] == board and isinstance(r.json()["places"], list)
    assert get(client, "/leaderboards/nope").status_code == 404
    bot = get(client, "/players/Zebulon").json()
    assert bot["bot"] is True and bot["owner"] == "Owner"


@pytest.mark.parametrize(
    "path",
    [
        "/players/Anne/games?limit=0",
        "/players/Anne/games?limit=101",
        "/players/Anne/games?limit=99999999999999999999999999",
        "/players/Anne/games?limit=%D9%A1",  # an Arabic-Indic digit: not ASCII
        "/players/Anne/games?before=nope",
        "/players/Anne/games?before=99999999999999999.x",
        "/players/Anne/games?before=9999999999999999.%2E%2E",
        "/players/Anne/games?limit=1&limit=2",
        "/players/Anne/games?sort=asc",
        "/challenge/2026-02-30",
        "/challenge/..%2E%2E",
        "/challenge/2026-12-03?start=-1",
    ],
)
def test_bad_input_is_a_json_400(site: Site, path: str) -> None:
    r = get(site.client, path)
    assert r.status_code == 400, path
    assert set(r.json()) == {"error", "message"}


@pytest.mark.parametrize(
    "path",
    [
        "/players/" + "z" * 5000,
        "/players/%F0%9F%82%A1%00",
        "/games/..%2F..",
        "/games/" + "é" * 20,
        "/nowhere",
        "/",
        "/challenge/..%2F..%2Fetc",
    ],
)
def test_unknown_is_a_json_404(site: Site, path: str) -> None:
    r = get(site.client, path)
    assert r.status_code == 404 and set(r.json()) == {"error", "message"}, path


def test_reading_only_with_cors_and_no_cookie(site: Site) -> None:
    client = site.client
    client.cookies.set("session", "forged")
    r = client.post(API + "/players/Anne", json={})
    assert r.status_code == 405 and r.json()["error"] == "method_not_allowed" and "GET" in r.headers["allow"]
    assert client.delete(API + "/players/Anne").status_code == 405
    preflight = client.options(
        API + "/players/Anne",
        headers={"Origin": "https://elsewhere.example", "Access-Control-Request-Method": "GET"},
    )
    assert preflight.status_code == 204 and preflight.headers["access-control-allow-origin"] == "*"
    assert "GET" in preflight.headers["access-control-allow-methods"]
    assert "access-control-allow-credentials" not in preflight.headers
    r = get(client, "/leaderboards/site", Origin="https://elsewhere.example")
    assert r.headers["access-control-allow-origin"] == "*" and "set-cookie" not in r.headers
    assert r.headers["x-content-type-options"] == "nosniff"  # the site's headers, the JSON intact
    client.cookies.clear()


def test_the_description_names_every_route_and_each_answers(site: Site) -> None:
    client = site.client
    described = get(client, "/openapi.json").json()
    assert described["openapi"].startswith("3.1")
    paths = set(described["paths"])
    assert {route.path for route in public_api.routes if isinstance(route, Route)} == paths
    values = {
        "name": "Anne",
        "table_id": site.finished[0],
        "tournament_id": site.tournament,
        "board": "site",
        "day": DAY,
    }
    for path in paths:
        r = client.get(path.format(**values))
        assert r.status_code == 200, (path, r.text)
    page = client.get("/api")
    assert page.status_code == 200 and "/api/v1/openapi.json" in page.text


def test_past_the_limit_a_429_with_retry_after(tmp_path: Path, database_url: str) -> None:
    app = create_app(settings_for(tmp_path, database_url, public_api_limit="3/minute"))
    with TestClient(app) as client:
        answers = [client.get(API + "/leaderboards/site") for _ in range(4)]
        assert [r.status_code for r in answers] == [200, 200, 200, 429]
        assert int(answers[-1].headers["retry-after"]) > 0 and answers[-1].json()["error"] == "rate_limited"
        assert answers[-1].headers["access-control-allow-origin"] == "*"
