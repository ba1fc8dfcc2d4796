"""An invitation by name carries the seat it invites to, and accepting it seats the
person there in one press: the first free seat if that one was taken meanwhile, a clear
message when the table is full; a seat that is no computer's cannot be offered."""

from __future__ import annotations

import re

import pytest
from friends_helpers import Person, person
from server_helpers import another_visitor, live_table, raw_receive
from starlette.testclient import TestClient

pytestmark = pytest.mark.both_databases


def invite(host: Person, table_id: str, name: str, seat: str | None) -> object:
    form = {"table_id": table_id, "name": name}
    if seat is not None:
        form["seat"] = seat
    return host.post("/inviter", form, f"/table/{table_id}")


def invitation_id(p: Person) -> str:
    found = re.findall(r'action="/invitations/([^"]+)"', p.get("/mes-amis").text)
    assert len(found) == 1, found
    return found[0]


def accept(p: Person) -> object:
    return p.post(f"/invitations/{invitation_id(p)}", {"action": "accept"}, "/mes-amis")


def seat_of(client: TestClient, table_id: str, name: str) -> int | None:
    seats = [holder.name for holder in live_table(client, table_id).seats]
    return seats.index(name) if name in seats else None


def test_accepting_seats_the_person_at_the_seat_they_were_invited_to(client: TestClient) -> None:
    ana, bob = person(client, "Ana"), person(client, "Bob")
    table_id, code = ana.make_table()
    with bob.acting() as c, c.websocket_connect("/ws/me") as ws:
        assert invite(ana, table_id, "bob", "2").status_code == 303  # type: ignore[attr-defined]
        message = raw_receive(ws)
        while message["type"] != "invitations" or not message["list"]:
            message = raw_receive(ws)
        [told] = message["list"]
        assert told["from"] == "Ana" and told["seat"] == "Nord" and told["link"] == f"/rejoindre/{code}"
    assert "Nord" in bob.get("/mes-amis").text
    r = accept(bob)
    assert r.status_code == 303 and r.headers["location"] == f"/table/{table_id}"  # type: ignore[attr-defined]
    assert seat_of(client, table_id, "Bob") == 2
    assert "Ana vous invite" not in bob.get("/mes-amis").text
    r = bob.get(f"/rejoindre/{code}")  # seated: the table, not a seat to pick
    assert r.headers["location"] == f"/table/{table_id}"


def test_an_invitation_without_a_seat_is_to_the_first_free_one(client: TestClient) -> None:
    ana, bob = person(client, "Ana"), person(client, "Bob")
    table_id, _ = ana.make_table()
    invite(ana, table_id, "Bob", None)
    assert accept(bob).status_code == 303  # type: ignore[attr-defined]
    assert seat_of(client, table_id, "Bob") == 1
    invite(ana, table_id, "Bob", "3")  # seated already: accepting again moves nobody
    r = accept(bob)
    assert r.status_code == 303 and r.headers["location"] == f"/table/{table_id}"  # type: ignore[attr-defined]
    assert seat_of(client, table_id, "Bob") == 1


def test_the_seat_taken_meanwhile_gives_the_first_free_one(client: TestClient) -> None:
    ana, bob = person(client, "Ana"), person(client, "Bob")
    table_id, code = ana.make_table()
    invite(ana, table_id, "Bob", "1")
    assert Person(another_visitor(client), "Paul").take_seat(code, 1).status_code == 303
    r = accept(bob)
    assert r.status_code == 303 and r.headers["location"] == f"/table/{table_id}"  # type: ignore[attr-defined]
    assert seat_of(client, table_id, "Paul") == 1 and seat_of(client, table_id, "Bob") == 2


def test_a_table_full_meanwhile_says_so_and_seats_nobody(client: TestClient) -> None:
    ana, bob = person(client, "Ana"), person(client, "Bob")
    table_id, code = ana.make_table()
    invite(ana, table_id, "Bob", "3")
    for name, seat in (("Paul", 1), ("Marie", 2), ("Léa", 3)):
        assert Person(another_visitor(client), name).take_seat(code, seat).status_code == 303
    r = accept(bob)
    assert r.status_code == 409 and "La table est complète" in r.text  # type: ignore[attr-defined]
    assert seat_of(client, table_id, "Bob") is None
    assert "Ana vous invite" not in bob.get("/mes-amis").text  # answered


def test_only_a_computers_seat_may_be_offered(client: TestClient) -> None:
    ana, bob = person(client, "Ana"), person(client, "Bob")
    table_id, code = ana.make_table()
    for seat in ("9", "-1", "x", "", "1.0", "0" * 100):
        assert invite(ana, table_id, "Bob", seat).status_code == 400, seat  # type: ignore[attr-defined]
    invite(ana, table_id, "Bob", "0")  # Ana's own
    assert "Cette place n&#39;est pas libre" in ana.get(f"/table/{table_id}").text
    assert "Ana vous invite" not in bob.get("/mes-amis").text
    for name, seat in (("Paul", 1), ("Marie", 2), ("Léa", 3)):
        Person(another_visitor(client), name).take_seat(code, seat)
    invite(ana, table_id, "Bob", None)
    assert "La table est complète" in ana.get(f"/table/{table_id}").text
    assert "Ana vous invite" not in bob.get("/mes-amis").text
