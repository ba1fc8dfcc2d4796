"""Quick play through the site: the page and its button, the wait told over the person's
socket (``/ws/me``), the tables the waves make, leaving the queue, and hostile presses."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from friends_helpers import Person
from server_helpers import RECEIVE_TIMEOUT, another_visitor, call, live_table, raw_receive
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from coinche.server.features.quick_play import QuickPlay
from coinche.server.table.days import utc_now
from coinche.server.table.kinds import QuickPlayTable
from coinche.server.table.spec import TableSpec

MakeClient = Callable[..., TestClient]


def people(client: TestClient, n: int, prefix: str = "Joueur") -> list[Person]:
    out = []
    for i in range(n):
        person = Person(another_visitor(client), f"{prefix}{i}")
        person.sign_up()
        out.append(person)
    return out


def press(person: Person, rules: str = "any") -> Any:
    return person.post("/partie-rapide", {"action": "join", "rules": rules}, "/partie-rapide")


def quick_of(client: TestClient) -> QuickPlay:
    quick: QuickPlay = client.app.state.quick_play  # type: ignore[attr-defined]
    return quick


def seated_at(person: Person, timeout: float = RECEIVE_TIMEOUT) -> str:
    """The table the person's socket sends them to (read until it does)."""
    with person.acting() as c, c.websocket_connect("/ws/me") as ws:
        for _ in range(20):
            message = raw_receive(ws, timeout)
            if message["type"] != "quick":
                continue
            if message["table"] is not None:
                return str(message["table"]).removeprefix("/table/")
            assert message["waiting"], message
    raise AssertionError("never seated")


def spec_of(client: TestClient, table_id: str) -> TableSpec:
    return live_table(client, table_id).spec


@pytest.mark.both_databases
def test_four_people_are_seated_together_at_once(make_client: MakeClient) -> None:
    client = make_client(quick_wait_seconds=60.0)
    four = people(client, 4)
    for person in four:
        r = press(person)
        assert r.status_code == 303 and r.headers["location"] == "/partie-rapide"
    tables = {seated_at(person) for person in four}
    assert len(tables) == 1
    table_id = tables.pop()
    spec = spec_of(client, table_id)
    assert isinstance(spec.kind, QuickPlayTable) and spec.kind.host is None
    assert spec.rules.name == "classic"  # all asked for any rules
    assert sorted(s.name or "" for s in spec.seats) == [p.name for p in four]
    assert all(s.kind == "human" for s in spec.seats)
    live = live_table(client, table_id)
    assert live.started  # dealt at once: nobody hosts it
    for person in four:  # the page takes each back to the table while its game goes on
        r = person.get("/partie-rapide")
        assert r.status_code == 303 and r.headers["location"] == f"/table/{table_id}"
    with four[0].connect(table_id) as player:
        state = player.next_state()
        assert state["table"]["friends"]["quick"] is True
        assert state["game"] is not None


@pytest.mark.both_databases
def test_a_table_claimed_and_not_made_yet_keeps_its_people_waiting(make_client: MakeClient) -> None:
    """A wave claims people for a table, then makes it: in between (or when the process
    died there) nobody is sent to a table that is not there (its page would say it is
    none); the wait shows until it is made."""
    moment = [utc_now()]
    client = make_client(quick_wait_seconds=60.0, clock=lambda: moment[0])
    quick = quick_of(client)
    call(client, quick.close)  # no wave but the test's
    four = people(client, 4)
    for person in four:
        press(person)
    [(table_id, _)] = call(client, quick.db, quick.store.claim_wave, moment[0], quick.levels)
    for person in four:
        with person.acting() as c, c.websocket_connect("/ws/me") as ws:
            message = raw_receive(ws, RECEIVE_TIMEOUT)
            while message["type"] != "quick":
                message = raw_receive(ws, RECEIVE_TIMEOUT)
            assert message["waiting"] and message["table"] is None, message
        page = person.get("/partie-rapide")
        assert page.status_code == 200 and 'id="quick-seconds"' in page.text
    moment[0] += timedelta(seconds=11)  # left unmade that long: the next wave makes it
    assert call(client, quick.wave) == [table_id]
    assert {seated_at(person) for person in four} == {table_id}
    assert live_table(client, table_id).started
    r = four[0].get("/partie-rapide")
    assert r.status_code == 303 and r.headers["location"] == f"/table/{table_id}"


@pytest.mark.both_databases
def test_computers_take_the_free_seats_when_the_wait_is_over(make_client: MakeClient) -> None:
    client = make_client(quick_wait_seconds=1.0)
    two = people(client, 2)
    for person in two:
        press(person, "online")
    page = two[0].get("/partie-rapide")
    assert page.status_code == 200
    assert "(niveau " in page.text and 'id="quick-seconds"' in page.text
    table_id = seated_at(two[0])
    assert seated_at(two[1]) == table_id
    spec = spec_of(client, table_id)
    assert spec.rules.name == "online"
    bots = [s for s in spec.seats if s.kind == "bot"]
    assert len(bots) == 2 and {s.level for s in bots} <= {"beginner", "confirmed", "expert"}
    assert spec.level == bots[0].level


def test_other_rules_never_sit_together(make_client: MakeClient) -> None:
    client = make_client(quick_wait_seconds=1.0)
    a, b = people(client, 2)
    press(a, "classic")
    press(b, "house")
    ta, tb = seated_at(a), seated_at(b)
    assert ta != tb
    assert spec_of(client, ta).rules.name == "classic" and spec_of(client, tb).rules.name == "house"


def test_five_people_make_one_table_and_the_fifth_waits_on(make_client: MakeClient) -> None:
    client = make_client(quick_wait_seconds=60.0)
    five = people(client, 5)
    for person in five[:4]:
        press(person, "classic")
    table_id = seated_at(five[0])
    press(five[4], "classic")
    status = call(client, quick_of(client).status, _player(client, five[4]))
    assert status is not None and status.table_id is None
    assert {seated_at(p) for p in five[:4]} == {table_id}


def _player(client: TestClient, person: Person) -> str:
    with client.app.state.store.session() as s:  # type: ignore[attr-defined]
        from sqlalchemy import select

        from coinche.server.infra.rows.people import AccountRow

        return str(s.execute(select(AccountRow.player_id).where(AccountRow.name == person.name)).scalar_one())


def test_leaving_the_queue(make_client: MakeClient) -> None:
    client = make_client(quick_wait_seconds=60.0)
    (a,) = people(client, 1)
    press(a)
    with a.acting() as c, c.websocket_connect("/ws/me") as ws:
        first = raw_receive(ws)
        assert first["type"] == "quick" and first["waiting"] and 50 < first["seconds_left"] <= 60
        r = a.post("/partie-rapide", {"action": "leave"}, "/partie-rapide")
        assert r.status_code == 303
    assert call(client, quick_of(client).status, _player(client, a)) is None
    page = a.get("/partie-rapide")
    assert page.status_code == 200 and 'id="quick-join"' in page.text


def test_pressing_twice_keeps_the_place(make_client: MakeClient) -> None:
    client = make_client(quick_wait_seconds=60.0)
    (a,) = people(client, 1)
    press(a)
    pid = _player(client, a)
    first = call(client, quick_of(client).status, pid)
    press(a, "online")  # a second tab, other rules: the rules change, not the place
    again = call(client, quick_of(client).status, pid)
    assert first is not None and again is not None
    assert again.since == first.since and again.rules == "online"


def test_hostile_presses(make_client: MakeClient) -> None:
    client = make_client(quick_wait_seconds=60.0)
    (a,) = people(client, 1)
    guest = another_visitor(client)
    assert guest.get("/partie-rapide", follow_redirects=False).headers["location"].startswith("/connexion")
    assert guest.post("/partie-rapide", data={"action": "join"}, follow_redirects=False).status_code == 403
    with a.acting() as c:  # no CSRF token
        assert c.post("/partie-rapide", data={"action": "join"}, follow_redirects=False).status_code == 403
    for form in (
        {"action": "join", "rules": "chess"},
        {"action": "dance"},
        {"action": "join", "rules": "classic", "player": "someone-else"},
        {"action": "join", "rules": "x" * 5000},
    ):
        assert a.post("/partie-rapide", form, "/partie-rapide").status_code == 400, form
    assert call(client, quick_of(client).status, _player(client, a)) is None
    with guest.websocket_connect("/ws/me") as ws, pytest.raises(WebSocketDisconnect) as closed:
        raw_receive(ws, 2.0)  # a guest has no person's socket
    assert closed.value.code == 4404
    with a.acting() as c, c.websocket_connect("/ws/me") as ws:
        raw_receive(ws)
        ws.send_text("hello")  # it listens to nothing: closed
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(5):
                raw_receive(ws, 2.0)
        assert closed.value.code == 1008


def test_a_blocked_pair_is_never_seated_together(make_client: MakeClient) -> None:
    client = make_client(quick_wait_seconds=1.0)
    a, b = people(client, 2, prefix="Bloc")
    assert a.post("/mes-amis", {"action": "block", "name": b.name}, "/mes-amis").status_code == 200
    press(a, "classic")
    press(b, "classic")
    ta, tb = seated_at(a), seated_at(b)
    assert ta != tb  # each alone with computers rather than together
    assert [s.kind for s in spec_of(client, ta).seats].count("human") == 1
