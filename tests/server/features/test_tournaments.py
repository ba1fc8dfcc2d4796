"""Tournaments through the site (issue 30): organising, entering (pairs, people alone, a
private club's code), the rounds run by the application's runner on a clock the test
moves, computers filling every gap, the same deals at every table of a round (checkable by
``coinche verify`` once it is over), a round's clock running out, a process stopped
between rounds and mid-round, hostile forms, and a person alone with computers stood in
for and timed as at a table of several people (a solo game against the computer is not)."""

from __future__ import annotations

import hashlib
import hmac
import random
import re
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import server_helpers
from friends_helpers import Person
from server_helpers import (
    Human,
    another_visitor,
    create_solo,
    is_my_turn,
    live_table,
    parts_of,
    raw_receive,
    request,
    settings_for,
)
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from test_quick_play import people

from coinche.cli import main
from coinche.engine.dealing import deal_seed, hands_from_seed
from coinche.server.features.player_stats import ratings_of
from coinche.server.features.tournaments.model import ARENA_BYE_AFTER, Tournament, commitment
from coinche.server.features.tournaments.runner import Tournaments
from coinche.server.table.days import CLUB_TIME
from coinche.server.table.kinds import TournamentTable
from coinche.server.table.live_table import LiveTable
from coinche.server.web.app import create_app

MakeClient = Callable[..., TestClient]
START = datetime(2026, 12, 5, 20, 0, tzinfo=UTC)


class Clock(server_helpers.Clock):
    """The server's clock, an hour before the tournaments' start until the test moves it."""

    def __init__(self) -> None:
        super().__init__(START - timedelta(hours=1))


def tournaments_of(client: TestClient) -> Tournaments:
    found: Tournaments = client.app.state.tournaments  # type: ignore[attr-defined]
    return found


def organise(person: Person, **form: str) -> str:
    fields = {
        "name": "Concours du samedi",
        "profile": "classic",
        "format": "swiss",
        "rounds": "2",
        "deals": "2",
        "minutes_per_deal": "2",
        "break_seconds": "0",
        "level": "beginner",
        "alone": "on",
        "computer_partner": "on",
        **form,
    }
    fields.setdefault("starts_at", _paris(START))
    fields = {k: v for k, v in fields.items() if v != ""}
    r = person.post("/tournois/nouveau", fields, "/tournois/nouveau")
    assert r.status_code == 303, r.text
    return str(r.headers["location"]).removeprefix("/tournoi/")


def _paris(moment: datetime) -> str:
    return moment.astimezone(CLUB_TIME).replace(tzinfo=None).isoformat()


def enter(person: Person, tournament_id: str, partner: str = "", code: str | None = None) -> Any:
    form = {"action": "enter", "partner": partner}
    if code is not None:
        form["code"] = code
    return person.post(f"/tournoi/{tournament_id}", form, "/tournois/nouveau")


def act(person: Person, tournament_id: str, action: str) -> Any:
    form = {"action": action}
    if action in ("accept", "decline"):  # the (first) proposal the page shows them
        found = re.search(r'name="entry" value="([^"]+)"', person.get(f"/tournoi/{tournament_id}").text)
        form["entry"] = found[1] if found else ""
    return person.post(f"/tournoi/{tournament_id}", form, "/tournois/nouveau")


def wait_for(
    client: TestClient, tournament_id: str, done: Callable[[Tournament], bool], seconds: float = 60
) -> Tournament:
    """The tournament once ``done`` says so (the runner works on its own each second)."""
    deadline = time.monotonic() + seconds
    while True:
        found = client.portal.call(tournaments_of(client).get, tournament_id)  # type: ignore[union-attr]
        assert found is not None
        if done(found):
            return found
        assert time.monotonic() < deadline, found
        time.sleep(0.05)


@pytest.fixture
def clock() -> Clock:
    return Clock()


def test_a_swiss_of_four_pairs_runs_to_its_end_with_computers_for_the_absent(
    make_client: MakeClient, clock: Clock, tmp_path: Path
) -> None:
    client = make_client(clock=clock, tournament_tick_seconds=0.1)
    group = people(client, 8, "Concours")
    tournament_id = organise(group[0])
    # a pair formed in advance (named, then accepted), and six people alone
    assert enter(group[0], tournament_id, partner="Concours1").status_code == 303
    assert "Concours0" in group[1].get(f"/tournoi/{tournament_id}").text  # the proposal
    assert act(group[1], tournament_id, "accept").status_code == 303
    for person in group[2:]:
        assert enter(person, tournament_id).status_code == 303
    page = group[3].get(f"/tournoi/{tournament_id}").text
    assert "7 inscrits" in page and commitment(tournament_id, b"\0" * 32) not in page

    clock.now = START
    tournament = wait_for(client, tournament_id, lambda t: t.state == "finished")
    assert tournament.rounds == 2  # four pairs: two rounds without a rematch
    tables = client.portal.call(tournaments_of(client).round_tables, tournament_id)  # type: ignore[union-attr]
    assert [t.round for t in tables] == [1, 1, 2, 2]
    assert all(t.result is not None and t.complete for t in tables)
    # nobody's page was open: computers played every seat, the pairs scored what they scored
    assert all(s.kind == "bot" for t in tables for s in t.seats)
    pairs_met = [frozenset((t.ns, t.ew)) for t in tables]
    assert len(set(pairs_met)) == 4  # no rematch

    # the same deals at every table of a round, from the secret revealed at the end
    secret = bytes.fromhex(tournament.revealed_secret or "")
    assert commitment(tournament_id, secret) == tournament.commitment
    for number in (1, 2):
        round_tables = [live_table(client, t.table_id) for t in tables if t.round == number]
        for deal in range(2):
            dealt = {tuple(live.game.deals[deal].dealt) for live in round_tables}
            assert len(dealt) == 1
            dealer = round_tables[0].game.deals[deal].dealer
            seed = deal_seed(secret, f"tournoi-{tournament_id}-{number}", deal + 1)
            assert tuple(hands_from_seed(seed, dealer)) == dealt.pop()
    assert group[3].get(f"/table/{tables[0].table_id}/donne/1").status_code == 200  # public once over
    with group[3].acting() as c:
        record = c.get(f"/table/{tables[0].table_id}/donne/1/record.json")
    assert record.status_code == 200
    path = tmp_path / "record.json"
    path.write_text(record.text)
    assert main(["verify", "--strict", str(path)]) == 0

    # the standings and the comparison of the deals
    lines = client.portal.call(tournaments_of(client).standings, tournament)  # type: ignore[union-attr]
    assert len(lines) == 4 and lines[0].rank == 1 and all(line.rounds == 2 for line in lines)
    assert sum(line.standing.wins for line in lines) == 4  # one game per table
    page = client.get(f"/tournoi/{tournament_id}").text
    assert "Terminé" in page and tournament.revealed_secret in page
    compared = client.get(f"/tournoi/{tournament_id}/manche/1")
    assert compared.status_code == 200 and "Donne 2" in compared.text
    assert "Nord-Sud" in compared.text and "en cours de calcul" not in compared.text  # each deal's par
    # a public tournament's tables may be watched; each entrant's profile shows the result
    assert client.get(f"/table/{tables[0].table_id}/regarder").status_code == 200
    profile = client.get("/joueur/Concours0").text
    assert "Concours du samedi" in profile and "sur 4" in profile
    assert client.get(f"/tournament/{tournament_id}/manche/1").status_code == 200
    assert "Concours du samedi" in client.get("/tournois").text


@pytest.mark.parametrize("pairs", [1, 2, 3])
def test_a_small_field_is_filled_by_computers(make_client: MakeClient, clock: Clock, pairs: int) -> None:
    client = make_client(clock=clock, tournament_tick_seconds=0.1)
    group = people(client, 2 * pairs, f"Petit{pairs}x")
    tournament_id = organise(group[0], rounds="3", deals="1")
    for i in range(0, len(group), 2):
        assert enter(group[i], tournament_id, partner=group[i + 1].name).status_code == 303
        assert act(group[i + 1], tournament_id, "accept").status_code == 303
    clock.now = START
    tournament = wait_for(client, tournament_id, lambda t: t.state == "finished")
    tables = client.portal.call(tournaments_of(client).round_tables, tournament_id)  # type: ignore[union-attr]
    assert tournament.rounds == max(1, pairs // 2)
    per_round = (pairs + 1) // 2
    assert len(tables) == per_round * tournament.rounds
    byes = [t for t in tables if t.ew is None]
    assert len(byes) == (tournament.rounds if pairs % 2 else 0)  # the odd pair plays two computers
    assert len({t.ns for t in byes}) == len(byes)  # never the same pair twice


def test_people_online_are_seated_and_a_round_clock_scores_what_was_played(
    make_client: MakeClient, clock: Clock
) -> None:
    client = make_client(clock=clock, tournament_tick_seconds=0.1, grace_seconds=3600, idle_move_seconds=3600)
    group = people(client, 2, "Pendule")
    tournament_id = organise(group[0], rounds="1", deals="2", minutes_per_deal="1")
    assert enter(group[0], tournament_id, partner="Pendule1").status_code == 303
    assert act(group[1], tournament_id, "accept").status_code == 303
    following = client.app.state.following  # type: ignore[attr-defined]
    clock.now = START - timedelta(seconds=10)
    for person in group:  # their pages are open somewhere: online
        player = _player(client, person)
        client.portal.call(following.seen, player)  # type: ignore[union-attr]
    clock.now = START
    tournament = wait_for(client, tournament_id, lambda t: t.state == "running")
    tables = client.portal.call(tournaments_of(client).round_tables, tournament_id)  # type: ignore[union-attr]
    (table,) = tables
    assert [s.kind for s in table.seats] == ["human", "bot", "human", "bot"]
    # the person socket takes them to their table
    with group[0].acting() as c, c.websocket_connect("/ws/me") as ws:
        for _ in range(5):
            message = ws.receive_json()
            if message["type"] == "tournament":
                assert message["table"] == f"/table/{table.table_id}"
                break
        else:
            raise AssertionError("no tournament message")
    # while its round is played, nobody watches a table (the same deals at every table)
    assert group[1].get(f"/table/{table.table_id}/regarder").status_code == 404
    assert another_visitor(client).get(f"/table/{table.table_id}/regarder").status_code == 404
    # nobody plays: the clock runs out, the round is scored as it stands
    clock.now = START + timedelta(minutes=2, seconds=1)
    tournament = wait_for(client, tournament_id, lambda t: t.state == "finished")
    (table,) = client.portal.call(tournaments_of(client).round_tables, tournament_id)  # type: ignore[union-attr]
    assert table.result is not None and not table.complete
    assert table.result.deals == (None, None)
    lines = client.portal.call(tournaments_of(client).standings, tournament)  # type: ignore[union-attr]
    assert lines[0].standing.matchpoints == 25.0  # Funbridge's rule for a deal not played
    assert lines[0].standing.wins == 0.5  # nothing played: a tie


def _alone_at_a_bye(client: TestClient, clock: Clock, prefix: str) -> tuple[Person, str, str]:
    """One entrant alone, online at the start: seated in person with a computer partner
    against two computers; (the person, the tournament, the table). The test's clock stays
    at the start: the round's clock never runs out, only the presence's clocks move it."""
    (person,) = people(client, 1, prefix)
    tournament_id = organise(person, rounds="1", deals="1", minutes_per_deal="15")
    assert enter(person, tournament_id).status_code == 303
    clock.now = START - timedelta(seconds=10)
    client.portal.call(client.app.state.following.seen, _player(client, person))  # type: ignore[attr-defined]
    clock.now = START
    wait_for(client, tournament_id, lambda t: t.state == "running")
    (table,) = client.portal.call(tournaments_of(client).round_tables, tournament_id)  # type: ignore[union-attr]
    assert [s.kind for s in table.seats] == ["human", "bot", "bot", "bot"]
    return person, tournament_id, table.table_id


def test_a_person_alone_with_computers_who_never_comes_is_stood_in_for(make_client: MakeClient, clock: Clock) -> None:
    grace = 0.3
    client = make_client(
        clock=clock,
        tournament_tick_seconds=0.05,
        grace_seconds=grace,
        idle_warning_seconds=3000,
        idle_move_seconds=3600,
    )
    _person, tournament_id, table_id = _alone_at_a_bye(client, clock, "Absent")
    # never opens the table: away from the round's start, a computer plays the seat once
    # the grace period is over, and the round ends without its clock
    tournament = wait_for(client, tournament_id, lambda t: t.state == "finished", seconds=grace + 30)
    (table,) = client.portal.call(tournaments_of(client).round_tables, tournament.id)  # type: ignore[union-attr]
    assert table.result is not None and table.complete
    live = client.portal.call(client.app.state.parts.tables.table, table_id, 0, True)  # type: ignore[attr-defined]
    assert live.seats[0].kind == "human" and live.seats[0].stand_in is not None
    assert any(s.kind == "action" and s.seat == 0 and s.played_by == "away" for s in live.steps)
    assert not any(s.kind == "action" and s.seat == 0 and s.played_by is None for s in live.steps)


def test_a_person_alone_with_computers_who_stalls_meets_the_idle_clock(make_client: MakeClient, clock: Clock) -> None:
    client = make_client(
        clock=clock,
        tournament_tick_seconds=0.05,
        grace_seconds=3600,
        idle_warning_seconds=0.3,
        idle_move_seconds=0.6,
    )
    person, _tournament_id, table_id = _alone_at_a_bye(client, clock, "Lent")
    with person.connect(table_id) as me:
        # connected, and never acts: a clock, a warning, then the computer plays that move
        clock_shown = me.until("clock", seat=0)
        assert clock_shown["seconds"] in (0, 1)
        warning = me.until("notice", seat=0)
        assert warning["kind"] == "idle_warning" and "l'ordinateur jouera pour vous" in warning["text"]
        for _ in range(200):
            played = me.until("state")
            if played["last"] and played["last"].get("played_by"):
                break
        else:
            raise AssertionError("the computer never played for the idle person")
        assert played["last"]["played_by"] == "idle" and played["last"]["seat"] == 0
    live = live_table(client, table_id)
    assert live.seats[0].stand_in is None  # one move only: the seat stays the person's


@pytest.mark.parametrize("first", ["connection", "page"])
def test_a_person_who_opens_the_table_before_it_is_made_is_seated(
    make_client: MakeClient, clock: Clock, first: str
) -> None:
    """A round is seated in the database (the person socket points there) before its
    tables are made: a person who opens theirs in between, its connection or its page, is
    never refused; the table is made for them then, as the runner makes it (its idle clock
    runs), and the runner then finds it made."""
    client = make_client(
        clock=clock,
        tournament_tick_seconds=3600,
        grace_seconds=3600,
        idle_warning_seconds=3000,
        idle_move_seconds=3600,
    )
    (person,) = people(client, 1, "Presse")
    tournament_id = organise(person, rounds="1", deals="1", minutes_per_deal="15")
    assert enter(person, tournament_id).status_code == 303
    clock.now = START - timedelta(seconds=10)
    client.portal.call(client.app.state.following.seen, _player(client, person))  # type: ignore[attr-defined]
    tournaments = tournaments_of(client)
    # the runner's first step only (seat the round), its tables not made yet
    (named,) = client.portal.call(tournaments.db, tournaments.store.start_round, tournament_id, 1, START)
    clock.now = START
    table_id = named.table_id
    assert client.portal.call(client.app.state.parts.tables.table, table_id) is None  # type: ignore[attr-defined]
    with person.acting() as c, c.websocket_connect("/ws/me") as ws:
        for _ in range(5):
            message = ws.receive_json()
            if message["type"] == "tournament":
                assert message["table"] == f"/table/{table_id}"
                break
        else:
            raise AssertionError("no tournament message")
    if first == "page":
        assert person.get(f"/table/{table_id}").status_code == 200
    with person.connect(table_id) as me:
        assert me.until("hello")["you"] == 0
        assert me.until("clock", seat=0)["seconds"] > 0  # made as the runner makes it
    live = live_table(client, table_id)
    assert [s.kind for s in live.seats] == ["human", "bot", "bot", "bot"]
    assert isinstance(live.spec.kind, TournamentTable) and live.spec.kind.tournament == tournament_id
    # the runner's making of the tables it named finds this one made: nothing more
    client.portal.call(tournaments._make_all, client.portal.call(tournaments.get, tournament_id), [named])
    assert live_table(client, table_id) is live and live.seq > 0
    # someone who holds no seat there is still refused
    stranger = another_visitor(client)
    with stranger.websocket_connect(f"/ws/table/{table_id}") as ws, pytest.raises(WebSocketDisconnect) as e:
        ws.receive_json()
    assert e.value.code == 4404


def test_an_arena_pair_online_that_never_plays_is_played_for(make_client: MakeClient, clock: Clock) -> None:
    grace = 0.3
    client = make_client(
        clock=clock,
        tournament_tick_seconds=0.05,
        grace_seconds=grace,
        idle_warning_seconds=3000,
        idle_move_seconds=3600,
    )
    (person,) = people(client, 1, "Fantome")
    tournament_id = organise(person, format="arena", duration_minutes="60", deals="1", minutes_per_deal="3")
    assert enter(person, tournament_id).status_code == 303
    tournaments = tournaments_of(client)
    # online, left over long enough to meet two computers (with a computer partner); the
    # test's clock stays there: the game's own clock never runs out
    clock.now = START + ARENA_BYE_AFTER
    client.portal.call(client.app.state.following.seen, _player(client, person))  # type: ignore[attr-defined]
    deadline = time.monotonic() + grace + 30
    while True:
        tables = client.portal.call(tournaments.round_tables, tournament_id)  # type: ignore[union-attr]
        if tables and tables[0].result is not None:
            break
        assert time.monotonic() < deadline, tables
        time.sleep(0.05)
    (table,) = tables
    assert [s.kind for s in table.seats] == ["human", "bot", "bot", "bot"]
    # never opened: played for, a game played and scored as such (not an unplayed tie)
    assert table.complete and table.result is not None and None not in table.result.deals
    live = client.portal.call(client.app.state.parts.tables.table, table.table_id, 0, True)  # type: ignore[attr-defined]
    assert any(s.kind == "action" and s.seat == 0 and s.played_by == "away" for s in live.steps)


def test_a_solo_game_against_the_computer_keeps_no_clock_and_no_stand_in(make_client: MakeClient) -> None:
    """Not a tournament's: a person alone at their own game may pause as long as they like."""
    client = make_client(grace_seconds=0.05, idle_warning_seconds=0.05, idle_move_seconds=0.1)
    table_id = create_solo(client, "classic", 1000, "beginner")
    attendance = parts_of(client).attendance
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        me = Human(ws)
        live = live_table(client, table_id)
        (player,) = live.human_players
        state = me.until_my_move(me.act(me.until_my_move()))
        while not is_my_turn(state):  # the deal ended (four passes): the next one
            me.ws.send_json(request("next_deal"))
            state = me.until_my_move()
        assert attendance.clock(table_id) is None  # a turn that came with the page open: no clock
    deadline = time.monotonic() + 30
    while attendance.present[(table_id, player)]:  # the connection's end reached the server
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert (table_id, player) not in attendance._grace  # no grace period: never stood in for
    assert all(seat.stand_in is None for seat in live.seats)


def _player(client: TestClient, person: Person) -> str:
    return str(client.portal.call(tournaments_of(client).account_named, person.name))  # type: ignore[union-attr]


def test_entering_refuses_what_it_must(make_client: MakeClient, clock: Clock) -> None:
    client = make_client(clock=clock)
    a, b, c = people(client, 3, "Club")
    private = organise(a, private="on", alone="")
    code = tournaments_of(client)
    found = client.portal.call(code.get, private)  # type: ignore[union-attr]
    assert found is not None and found.code is not None
    assert "Concours du samedi" not in client.get("/tournois").text  # a club's: not listed
    r = enter(b, private, partner="Club2", code="WRONG")
    assert r.status_code == 400 and "code du tournoi" in r.text
    r = enter(b, private, partner="", code=found.code)
    assert r.status_code == 400 and "par paires" in r.text  # pairs only
    r = enter(b, private, partner="Club1", code=found.code)
    assert r.status_code == 400 and "vous-même" in r.text
    r = enter(b, private, partner="Personne", code=found.code)
    assert r.status_code == 400 and "Aucun compte" in r.text
    assert enter(b, private, partner="Club2", code=found.code.lower()).status_code == 303
    r = enter(b, private, partner="Club0", code=found.code)
    assert r.status_code == 400 and "déjà inscrit" in r.text
    r = c.post(f"/tournoi/{private}", {"action": "decline", "entry": "nope"}, "/tournois/nouveau")
    assert r.status_code == 400  # not a proposal of theirs
    entry = client.portal.call(code.entries, private)[0]  # type: ignore[union-attr]
    r = c.post(f"/tournoi/{private}", {"action": "decline", "entry": entry.id}, "/tournois/nouveau")
    assert r.status_code == 303  # pairs only: b's entry goes
    assert client.portal.call(code.entries, private) == []  # type: ignore[union-attr]
    # the organiser alone may cancel, before the start
    assert act(b, private, "cancel").status_code == 400
    assert act(b, private, "start").status_code == 400  # nor start it
    assert act(a, private, "cancel").status_code == 303
    assert enter(c, private, partner="Club1", code=found.code).status_code == 400
    # hostile forms: a clear 400, nothing stored
    for form in (
        {"name": "x" * 61},
        {"name": ""},
        {"rounds": "0"},
        {"rounds": "abc"},
        {"deals": "99"},
        {"minutes_per_deal": "-1"},
        {"profile": "poker"},
        {"format": "knockout"},
        {"level": "god"},
        {"starts_at": "demain"},
        {"starts_at": "1999-01-01T00:00"},
        {"starts_at": "0001-01-01T00:00"},
        {"starts_at": "9999-12-31T23:59"},
        {"break_seconds": "100000"},
    ):
        fields = {
            "name": "T",
            "profile": "classic",
            "format": "swiss",
            "rounds": "2",
            "deals": "2",
            "minutes_per_deal": "2",
            "break_seconds": "0",
            "starts_at": _paris(START),
            "level": "beginner",
            **form,
        }
        r = a.post("/tournois/nouveau", fields, "/tournois/nouveau")
        assert r.status_code == 400, form
    assert a.post("/tournoi/nope", {"action": "enter"}, "/tournois/nouveau").status_code == 404
    public = organise(a)
    assert a.post(f"/tournoi/{public}", {"action": "explode"}, f"/tournoi/{public}").status_code == 400
    assert client.post(f"/tournoi/{public}", data={"action": "enter"}).status_code == 403  # no CSRF
    assert client.get(f"/tournoi/{public}/manche/1").status_code == 404  # not over
    assert client.get(f"/tournoi/{public}/manche/x").status_code == 404
    assert client.get("/tournoi/" + "<script>").status_code == 404
    # entries close at the start
    clock.now = START + timedelta(seconds=1)
    assert enter(b, public).status_code == 400


def test_a_process_stopped_between_rounds_and_mid_round_loses_nothing(tmp_path: Path, clock: Clock) -> None:
    settings = settings_for(tmp_path, clock=clock, tournament_tick_seconds=0.1)
    with TestClient(create_app(settings)) as client:
        group = people(client, 8, "Reprise")
        tournament_id = organise(group[0], rounds="2", deals="1", break_seconds="600")
        for person in group:
            assert enter(person, tournament_id).status_code == 303
        clock.now = START
        wait_for(client, tournament_id, lambda t: t.round_closed_at is not None)  # round 1 over
    clock.now = START + timedelta(minutes=11)  # the break ends while no process runs
    with TestClient(create_app(settings)) as client:
        wait_for(client, tournament_id, lambda t: t.round == 2)
    # stopped mid-round 2 (perhaps between naming its tables and making them): the next
    # process makes what was not made (UNMADE_AFTER later), plays them out and ends it
    clock.now += timedelta(seconds=11)
    with TestClient(create_app(settings)) as client:
        tournament = wait_for(client, tournament_id, lambda t: t.state == "finished")
        tables = client.portal.call(tournaments_of(client).round_tables, tournament_id)  # type: ignore[union-attr]
        assert tournament.rounds == 2 and [t.round for t in tables] == [1, 1, 2, 2]
        assert all(t.result is not None and t.complete for t in tables)


def test_an_arena_pairs_again_whoever_finishes_and_ranks_by_its_points(make_client: MakeClient, clock: Clock) -> None:
    client = make_client(
        clock=clock, tournament_tick_seconds=0.05, grace_seconds=0.3, idle_warning_seconds=3000, idle_move_seconds=3600
    )
    group = people(client, 6, "Arene")
    tournament_id = organise(group[0], format="arena", duration_minutes="5", deals="1", minutes_per_deal="3")
    for i in (0, 2, 4):
        assert enter(group[i], tournament_id, partner=group[i + 1].name).status_code == 303
        assert act(group[i + 1], tournament_id, "accept").status_code == 303
    players = [_player(client, p) for p in group]
    following = client.app.state.following  # type: ignore[attr-defined]
    tournaments = tournaments_of(client)

    def all_seen() -> None:
        for player in players:
            client.portal.call(following.seen, player)  # type: ignore[union-attr]

    clock.now = START - timedelta(seconds=5)
    all_seen()
    clock.now = START
    deadline = time.monotonic() + 120
    for step in range(100_000):  # the server's time runs about 40 times faster; everyone keeps a page open
        found = client.portal.call(tournaments.get, tournament_id)  # type: ignore[union-attr]
        assert found is not None
        if found.state == "finished":
            break
        assert time.monotonic() < deadline, found
        if step % 5 == 0:
            all_seen()
        clock.now += timedelta(seconds=4)
        time.sleep(0.1)
    tables = client.portal.call(tournaments.round_tables, tournament_id)  # type: ignore[union-attr]
    assert all(t.result is not None for t in tables)
    games: dict[str, list[int]] = {}
    for t in tables:
        for pair in (t.ns, t.ew):
            if pair is not None:
                games.setdefault(pair, []).append(t.round)
    assert len(games) == 3 and all(len(rounds) >= 2 for rounds in games.values())  # paired again and again
    assert all(len(set(rounds)) == len(rounds) for rounds in games.values())  # one game at a time
    assert any(t.ew is None for t in tables)  # the odd pair out, after waiting, met computers
    lines = client.portal.call(tournaments.standings, found)  # type: ignore[union-attr]
    points = [line.arena.points for line in lines if line.arena is not None]
    assert len(points) == 3 and points == sorted(points, reverse=True)
    page = client.get(f"/tournoi/{tournament_id}").text
    assert "Arène" in page and "Vague 1" in page


def test_the_site_runs_a_daily_arena(make_client: MakeClient, clock: Clock) -> None:
    clock.now = datetime(2026, 12, 5, 10, 0, tzinfo=UTC)
    client = make_client(clock=clock, daily_arena_hour=20)
    tournaments = tournaments_of(client)
    client.portal.call(tournaments.keep_daily_arena)  # type: ignore[union-attr]
    client.portal.call(tournaments.keep_daily_arena)  # type: ignore[union-attr]  # made once
    listing = client.portal.call(tournaments.listing)  # type: ignore[union-attr]
    arenas = [t for t in listing["open"] if t.id.startswith("arene-")]
    assert [t.id for t in arenas] == ["arene-20261205", "arene-20261206"]
    today = arenas[0]
    assert today.is_arena and today.starts_at == datetime(2026, 12, 5, 19, 0, tzinfo=UTC)  # 20:00 in Paris
    page = client.get("/tournois").text
    assert "Arène du jour · 05/12/2026" in page
    group = people(client, 1, "Quotidien")
    assert enter(group[0], today.id).status_code == 303  # anyone may enter, alone


def test_a_pair_that_drops_mid_round_is_played_for_then_paired_no_more(make_client: MakeClient, clock: Clock) -> None:
    client = make_client(clock=clock, tournament_tick_seconds=0.05, grace_seconds=0.3)
    group = people(client, 8, "Abandon")
    tournament_id = organise(group[0], rounds="2", deals="1")
    for i in range(0, 8, 2):
        assert enter(group[i], tournament_id, partner=group[i + 1].name).status_code == 303
        assert act(group[i + 1], tournament_id, "accept").status_code == 303
    following = client.app.state.following  # type: ignore[attr-defined]
    tournaments = tournaments_of(client)
    clock.now = START - timedelta(seconds=5)
    for person in group[:2]:  # the first pair has its pages open: seated in person
        client.portal.call(following.seen, _player(client, person))  # type: ignore[union-attr]
    clock.now = START
    wait_for(client, tournament_id, lambda t: t.state == "running")
    # it leaves the tournament at once: its seats are stood in for (nobody came), the round
    # goes on, and its game counts
    assert act(group[0], tournament_id, "withdraw").status_code == 303
    found = wait_for(client, tournament_id, lambda t: t.state == "finished")
    tables = client.portal.call(tournaments.round_tables, tournament_id)  # type: ignore[union-attr]
    entries = {e.first: e for e in client.portal.call(tournaments.entries, tournament_id)}  # type: ignore[union-attr]
    dropped = entries[_player(client, group[0])]
    assert dropped.withdrawn
    first = [t for t in tables if dropped.id in (t.ns, t.ew)]
    assert len(first) == 1 and first[0].round == 1 and first[0].complete  # played for, scored
    assert any(s.kind == "human" for s in first[0].seats)
    later = [t for t in tables if t.round == 2]
    assert len(later) == 2 and any(t.ew is None for t in later)  # three pairs left: one bye
    lines = client.portal.call(tournaments.standings, found)  # type: ignore[union-attr]
    assert len(lines) == 4 and next(line for line in lines if line.entry.id == dropped.id).rounds == 1
    assert "retirée" in client.get(f"/tournoi/{tournament_id}").text
    # the game its people held their seats in moved their ratings; their profile says it
    parts = client.app.state.parts  # type: ignore[attr-defined]
    pair = [_player(client, person) for person in group[:2]]
    rated = client.portal.call(parts.db, ratings_of, parts.store, pair)  # type: ignore[union-attr]
    assert set(rated) == set(pair)
    profile = client.get(f"/joueur/{group[1].name}").text
    assert "Concours du samedi" in profile


@pytest.mark.both_databases
def test_two_processes_on_postgresql_run_one_tournament(tmp_path: Path, database_url: str, clock: Clock) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("one process only on SQLite")
    settings = settings_for(tmp_path, database_url, clock=clock, tournament_tick_seconds=0.05)
    with TestClient(create_app(settings)) as a, TestClient(create_app(settings)) as b:
        group = people(a, 8, "Deux")
        tournament_id = organise(group[0], rounds="2", deals="1")
        for person in group:
            assert enter(person, tournament_id).status_code == 303
        clock.now = START
        for client in (a, b):
            wait_for(client, tournament_id, lambda t: t.state == "finished")
        tables = a.portal.call(tournaments_of(a).round_tables, tournament_id)  # type: ignore[union-attr]
        assert [t.round for t in tables] == [1, 1, 2, 2]  # each round started once, by one of them
        assert all(t.result is not None and t.complete for t in tables)
        assert b.get(f"/tournoi/{tournament_id}").text.count("Table 1") == 2


def test_a_club_s_tournament_shows_on_profiles_to_their_owner_alone(make_client: MakeClient, clock: Clock) -> None:
    client = make_client(clock=clock, tournament_tick_seconds=0.05)
    a, b = people(client, 2, "Club")
    tournament_id = organise(a, private="on", name="Le concours du club", rounds="1", deals="1")
    found = client.portal.call(tournaments_of(client).get, tournament_id)  # type: ignore[union-attr]
    assert found is not None and found.code is not None
    assert enter(a, tournament_id, partner="Club1", code=found.code).status_code == 303
    assert act(b, tournament_id, "accept").status_code == 303
    clock.now = START
    wait_for(client, tournament_id, lambda t: t.state == "finished")
    assert "Le concours du club" in a.get("/joueur/Club0").text
    assert "Le concours du club" not in b.get("/joueur/Club0").text
    assert "Le concours du club" not in another_visitor(client).get("/joueur/Club0").text


def test_a_partner_named_twice_answers_each_proposal(make_client: MakeClient, clock: Clock) -> None:
    client = make_client(clock=clock)
    a, b, c = people(client, 3, "Double")
    tournament_id = organise(a)
    assert enter(a, tournament_id, partner="Double1").status_code == 303
    assert enter(c, tournament_id, partner="Double1").status_code == 303
    page = b.get(f"/tournoi/{tournament_id}").text
    assert "Double0 vous propose" in page and "Double2 vous propose" in page
    entries = {e.first: e for e in client.portal.call(tournaments_of(client).entries, tournament_id)}  # type: ignore[union-attr]
    by_c = entries[_player(client, c)]
    form = {"action": "accept", "entry": by_c.id}
    assert b.post(f"/tournoi/{tournament_id}", form, "/tournois/nouveau").status_code == 303
    form["entry"] = entries[_player(client, a)].id
    r = b.post(f"/tournoi/{tournament_id}", form, "/tournois/nouveau")
    assert r.status_code == 400 and "déjà inscrit" in r.text  # one pair per person
    assert "Vous êtes inscrit avec Double2." in b.get(f"/tournoi/{tournament_id}").text


SCORE = re.compile(r"<strong>\d+ – \d+</strong>")


def _watch_refused(visitor: TestClient, table_id: str) -> bool:
    """The table's watching page and socket both refuse ``visitor``."""
    if visitor.get(f"/table/{table_id}/regarder").status_code != 404:
        return False
    with visitor.websocket_connect(f"/ws/watch/{table_id}") as ws, pytest.raises(WebSocketDisconnect) as closed:
        raw_receive(ws, 5.0)
    return closed.value.code == 4404


def _deal_end_seq(live: LiveTable, number: int) -> int:
    """The table's seq just after the step that ended its deal ``number`` (read from its log)."""
    past = LiveTable.build(live.spec, [])
    for step in live.steps:
        past.apply(step)
        if past.deal_ended == number:
            return past.seq
    raise AssertionError(f"deal {number} not ended")


def _play_deal(client: TestClient, table_id: str, number: int, player: str) -> None:
    """Play table ``table_id`` until its deal ``number`` ends: the computers' turns by the
    computers, the people's (``player``'s partner included) by their first legal move."""
    parts = parts_of(client)
    registry, computers, tables = parts.registry, parts.computers, parts.tables
    ids = iter(range(1, 10_000))

    async def play() -> None:
        while True:
            live = await registry.table(table_id, fresh=True)
            assert live is not None and not live.game.is_over
            if len(live.game.history) >= number:
                return
            if live.game.awaiting_deal:
                await tables.next_deal(table_id, player, f"d{next(ids)}")
                continue
            seat = live.game.to_move
            holder = live.seats[seat]
            if holder.played_by_computer:
                await computers.play_turn(table_id, live.seq, seat, 0.0)
            else:
                assert holder.player is not None
                action = live.game.legal_actions()[0]
                await tables.act(table_id, holder.player, action, f"a{next(ids)}")

    client.portal.call(play)  # type: ignore[union-attr]


def _shared_round(make_client: MakeClient, clock: Clock, deals: int) -> tuple[TestClient, list[Person], str, Any, Any]:
    """A round of ``deals`` deals at two tables: the computers' table played to its end
    (fast), the first pair's still on its first deal (slow; its people are seated and play
    only when the test plays for them)."""
    client = make_client(clock=clock, tournament_tick_seconds=0.05, grace_seconds=3600, idle_move_seconds=3600)
    group = people(client, 8, "Fuite")
    tournament_id = organise(group[0], rounds="1", deals=str(deals), minutes_per_deal="1")
    for i in range(0, 8, 2):
        assert enter(group[i], tournament_id, partner=group[i + 1].name).status_code == 303
        assert act(group[i + 1], tournament_id, "accept").status_code == 303
    following = client.app.state.following  # type: ignore[attr-defined]
    clock.now = START - timedelta(seconds=5)
    for person in group[:2]:  # the first pair's pages are open: seated, and they do not play
        client.portal.call(following.seen, _player(client, person))  # type: ignore[union-attr]
    clock.now = START
    wait_for(client, tournament_id, lambda t: t.state == "running")
    deadline = time.monotonic() + 60
    while not any(t.result is not None for t in _tables(client, tournament_id)):  # the computers' table ends first
        assert time.monotonic() < deadline
        time.sleep(0.05)
    (fast,) = [t for t in _tables(client, tournament_id) if t.result is not None]
    (slow,) = [t for t in _tables(client, tournament_id) if t.result is None]
    assert not live_table(client, slow.table_id).game.history  # still on its first deal
    return client, group, tournament_id, fast, slow


def _tables(client: TestClient, tournament_id: str) -> list[Any]:
    return client.portal.call(tournaments_of(client).round_tables, tournament_id)  # type: ignore[union-attr, no-any-return]


def _watched_state(visitor: TestClient, table_id: str) -> dict[str, Any]:
    with visitor.websocket_connect(f"/ws/watch/{table_id}") as ws:
        assert raw_receive(ws)["type"] == "hello"
        return raw_receive(ws)


def test_nobody_sees_a_round_s_deals_before_every_table_has_played_them(make_client: MakeClient, clock: Clock) -> None:
    client, group, tournament_id, fast, slow = _shared_round(make_client, clock, 2)
    tournaments = tournaments_of(client)
    # nobody watches the table ahead: not a stranger's account, not a visitor logged out
    # (the entrant's second account, or the entrant logged out), not an entrant
    (stranger,) = people(client, 1, "Curieux")
    with stranger.acting() as c:
        assert _watch_refused(c, fast.table_id)
    assert _watch_refused(another_visitor(client), fast.table_id)
    with group[0].acting() as c:
        assert _watch_refused(c, fast.table_id)
    assert _watch_refused(another_visitor(client), slow.table_id)
    # the standings show none of its deals while the other table plays them
    fragment = another_visitor(client).get(f"/tournoi/{tournament_id}?part=standings").text
    assert not SCORE.search(fragment)
    running = wait_for(client, tournament_id, lambda t: True)
    lines = client.portal.call(tournaments.standings, running)  # type: ignore[union-attr]
    assert all(line.rounds == 0 and line.standing.wins == 0 and line.standing.points == 0 for line in lines)
    # the round over (its clock ran out), every table may be watched and is counted
    clock.now = START + timedelta(minutes=2, seconds=1)
    finished = wait_for(client, tournament_id, lambda t: t.state == "finished")
    assert stranger.get(f"/table/{fast.table_id}/regarder").status_code == 200
    assert another_visitor(client).get(f"/table/{slow.table_id}/regarder").status_code == 200
    fragment = another_visitor(client).get(f"/tournoi/{tournament_id}?part=standings").text
    assert len(SCORE.findall(fragment)) == 2
    lines = client.portal.call(tournaments.standings, finished)  # type: ignore[union-attr]
    assert all(line.rounds == 1 for line in lines) and sum(line.standing.wins for line in lines) == 2


def test_a_watcher_sees_a_shared_deal_once_every_table_has_played_it(make_client: MakeClient, clock: Clock) -> None:
    client, group, _, fast, slow = _shared_round(make_client, clock, 3)
    fast_live = client.portal.call(parts_of(client).registry.table, fast.table_id, 0, True)  # type: ignore[union-attr]
    assert fast_live is not None and fast_live.game.is_over
    (stranger,) = people(client, 1, "Curieux")
    _play_deal(client, slow.table_id, 1, _player(client, group[0]))
    # every table has played deal 1: anyone watches the faster table as it stood when its
    # deal 1 ended (never a card of deal 2), account or not
    with stranger.acting() as c:
        state = _watched_state(c, fast.table_id)
    assert state["seq"] == _deal_end_seq(fast_live, 1) and state["awaiting_next_deal"] and not state["over"]
    visitor = another_visitor(client)
    with visitor.websocket_connect(f"/ws/watch/{fast.table_id}") as ws:
        assert raw_receive(ws)["type"] == "hello"
        state = raw_receive(ws)
        assert state["seq"] == _deal_end_seq(fast_live, 1)
        # the slower table ends deal 2: the watcher's view moves on to deal 2's end
        _play_deal(client, slow.table_id, 2, _player(client, group[0]))
        while state.get("type") != "state" or state["seq"] == _deal_end_seq(fast_live, 1):
            state = raw_receive(ws, 10.0)
        assert state["seq"] == _deal_end_seq(fast_live, 2) and not state["over"]
    # the slow table watched: up to its own last deal played, not the one it plays
    assert _watched_state(another_visitor(client), slow.table_id)["seq"] == _deal_end_seq(
        live_table(client, slow.table_id), 2
    )


def test_the_standings_count_the_deals_every_table_has_played(make_client: MakeClient, clock: Clock) -> None:
    client, group, tournament_id, fast, slow = _shared_round(make_client, clock, 2)
    assert fast.result is not None
    deal_1 = fast.result.deals[0]
    assert not SCORE.search(another_visitor(client).get(f"/tournoi/{tournament_id}?part=standings").text)
    _play_deal(client, slow.table_id, 1, _player(client, group[0]))
    # deal 1 played everywhere: each table's score counts deal 1, not the fast table's deal 2
    fragment = another_visitor(client).get(f"/tournoi/{tournament_id}?part=standings").text
    assert f"<strong>{deal_1[0]} – {deal_1[1]}</strong>" in fragment
    assert len(SCORE.findall(fragment)) == 2
    running = wait_for(client, tournament_id, lambda t: True)
    lines = client.portal.call(tournaments_of(client).standings, running)  # type: ignore[union-attr]
    points = {line.entry.id: line.standing.points for line in lines}
    assert points[fast.ns] == deal_1[0] - deal_1[1]
    assert all(line.rounds == 1 for line in lines)


def _final_state(make_client: MakeClient, clock: Clock, lang: str = "fr") -> tuple[str, str, dict[str, Any]]:
    """A one-deal round played by computers to its end: (the tournament, the table, the
    table's last state as a watcher gets it)."""
    client = make_client(clock=clock, tournament_tick_seconds=0.05)
    a, b = people(client, 2, "Fin")
    tournament_id = organise(a, rounds="1", deals="1")
    assert enter(a, tournament_id, partner="Fin1").status_code == 303
    assert act(b, tournament_id, "accept").status_code == 303
    clock.now = START
    wait_for(client, tournament_id, lambda t: t.state == "finished")
    (table,) = client.portal.call(tournaments_of(client).round_tables, tournament_id)  # type: ignore[union-attr]
    viewer = another_visitor(client)
    viewer.cookies.set("lang", lang)
    with viewer.websocket_connect(f"/ws/watch/{table.table_id}") as ws:
        assert raw_receive(ws)["type"] == "hello"
        state = raw_receive(ws)
    return tournament_id, table.table_id, state


def test_a_round_s_end_is_told_as_the_protocol_documents_it(make_client: MakeClient, clock: Clock) -> None:
    _, _, state = _final_state(make_client, clock)
    # a round ends after its deals: over, nobody reached a target
    assert state["over"] is True and state["game"]["winner"] is None and state["max_deals"] == 1
    doc = (Path(__file__).parents[3] / "docs" / "protocol.md").read_text()
    documented = {m[1] for m in re.finditer(r"^- `([a-z_]+)`", doc, re.M)}
    assert {"over", "max_deals", "tournament"} <= documented
    assert "When `game.winner` is not null the game is over." not in doc  # not the whole truth


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_round_s_table_says_its_round_and_leads_back_to_the_tournament(
    make_client: MakeClient, clock: Clock, lang: str
) -> None:
    tournament_id, _, state = _final_state(make_client, clock, lang)
    address = {"fr": "/tournoi", "en": "/tournament"}[lang]
    a, b = state["game"]["totals"]
    assert state["tournament"] == {
        "id": tournament_id,
        "round": 1,
        "deals": 1,
        "url": f"{address}/{tournament_id}",
        "ahead": None if a == b else int(b > a),
    }


def test_the_round_1_draw_is_recomputed_from_the_page_alone(make_client: MakeClient, clock: Clock) -> None:
    client = make_client(clock=clock, tournament_tick_seconds=0.05)
    group = people(client, 6, "Tirage")
    tournament_id = organise(group[0], rounds="1", deals="1")
    for i in range(0, 6, 2):  # three pairs: two meet, the last drawn plays two computers
        assert enter(group[i], tournament_id, partner=group[i + 1].name).status_code == 303
        assert act(group[i + 1], tournament_id, "accept").status_code == 303
    clock.now = START
    wait_for(client, tournament_id, lambda t: t.state == "finished")
    page = another_visitor(client).get(f"/tournoi/{tournament_id}").text
    # what the page shows: the entries' ids as the draw takes them, and the secret
    ids = re.findall(r'<code class="draw-entry">([^<]+)</code>', page)
    secret = bytes.fromhex(re.findall(r'<code class="commitment">([0-9a-f]+)</code>', page)[1])
    assert len(ids) == 3 and ids == sorted(ids)
    # docs/tournaments.md's recipe, step by step
    seed = int.from_bytes(hmac.new(secret, b"coinche-tournament-draw", hashlib.sha256).digest()[:8], "big")
    drawn = list(ids)
    random.Random(seed).shuffle(drawn)
    expected = [(drawn[0], drawn[1]), (drawn[2], None)]
    tables = client.portal.call(tournaments_of(client).round_tables, tournament_id)  # type: ignore[union-attr]
    assert [(t.number, t.ns, t.ew) for t in tables] == [(i, ns, ew) for i, (ns, ew) in enumerate(expected, 1)]
    english = another_visitor(client).get(f"/tournament/{tournament_id}").text
    assert re.findall(r'<code class="draw-entry">([^<]+)</code>', english) == ids


def _partner_requests(ws: Any) -> list[dict[str, Any]]:
    """The next list of partner requests the person socket sends (its other messages read past)."""
    for _ in range(20):
        message = raw_receive(ws)
        if message["type"] == "partners":
            found: list[dict[str, Any]] = message["list"]
            return found
    raise AssertionError("no partners message")


def test_a_partner_request_reaches_the_partner_on_any_page(make_client: MakeClient, clock: Clock) -> None:
    client = make_client(clock=clock)
    a, b = people(client, 2, "Appel")
    tournament_id = organise(a, name="Concours <du> samedi")
    with b.acting() as c, c.websocket_connect("/ws/me") as ws:  # b's page, whichever it is
        assert _partner_requests(ws) == []
        assert enter(a, tournament_id, partner="Appel1").status_code == 303
        (request,) = _partner_requests(ws)
    (entry,) = client.portal.call(tournaments_of(client).entries, tournament_id)  # type: ignore[union-attr]
    assert request == {
        "entry": entry.id,
        "text": "Appel0 vous propose de faire équipe au tournoi « Concours <du> samedi ».",
        "url": f"/tournoi/{tournament_id}",
    }
    # the request's own form (person.js) answers it on the tournament's page
    form = {"action": "accept", "entry": request["entry"]}
    assert b.post(request["url"], form, "/tournois/nouveau").status_code == 303
    assert "Vous êtes inscrit avec Appel0." in b.get(f"/tournoi/{tournament_id}").text
    with b.acting() as c, c.websocket_connect("/ws/me") as ws:
        assert _partner_requests(ws) == []  # answered: gone


def test_a_round_s_table_names_its_tournament_with_a_link(make_client: MakeClient, clock: Clock) -> None:
    client = make_client(clock=clock, tournament_tick_seconds=0.1, grace_seconds=3600, idle_move_seconds=3600)
    group = people(client, 2, "Titre")
    tournament_id = organise(group[0], name="Concours <de> Noël", rounds="1", deals="2")
    assert enter(group[0], tournament_id, partner="Titre1").status_code == 303
    assert act(group[1], tournament_id, "accept").status_code == 303
    following = client.app.state.following  # type: ignore[attr-defined]
    clock.now = START - timedelta(seconds=10)
    for person in group:  # their pages are open somewhere: online, seated at the start
        client.portal.call(following.seen, _player(client, person))  # type: ignore[union-attr]
    clock.now = START
    wait_for(client, tournament_id, lambda t: t.state == "running")
    (table,) = client.portal.call(tournaments_of(client).round_tables, tournament_id)  # type: ignore[union-attr]
    # a round's table is named before it is made: its page once it is there
    deadline = time.monotonic() + 30
    while (response := group[0].get(f"/table/{table.table_id}")).status_code == 404:
        assert time.monotonic() < deadline, "the round's table was never made"
        time.sleep(0.05)
    page = response.text
    assert f'<a href="/tournoi/{tournament_id}">Concours &lt;de&gt; Noël</a>' in page
    with group[1].acting() as c:
        c.cookies.set("lang", "en")
        page = c.get(f"/table/{table.table_id}").text
    assert f'<a href="/tournament/{tournament_id}">Concours &lt;de&gt; Noël</a>' in page
