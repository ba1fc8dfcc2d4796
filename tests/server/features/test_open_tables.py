"""Open tables through the site: a host opens their friends' table to everyone, the list
shows it (rules, who sits and their ratings, the free seats, how long it has waited) and
says "changed" to its open pages, a signed-in player takes a free seat in one click, and
the table leaves the list once it has no seat to offer."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from friends_helpers import Person, person
from server_helpers import another_visitor, live_table, raw_receive
from starlette.testclient import TestClient

MakeClient = Callable[..., TestClient]


def listed(client: TestClient, query: str = "") -> str:
    r = another_visitor(client).get(f"/tables-ouvertes{query}")
    assert r.status_code == 200
    return r.text


@pytest.mark.both_databases
def test_an_open_table_is_listed_and_a_seat_taken_in_one_click(client: TestClient) -> None:
    host = person(client, "Hélène")
    table_id, code = host.make_table(public="on", late_joins="")
    text = listed(client)
    assert re.search(r"Hélène <span class=\"open-rating\">\(\d+\)</span>", text)
    assert "3 places libres" in text and f'action="/rejoindre/{code}"' not in text  # a guest sees a link
    assert f'href="/rejoindre/{code}"' in text
    guest_list = another_visitor(client)
    with guest_list.websocket_connect("/ws/open-tables") as ws:
        friend = person(client, "Igor")
        page = friend.get("/tables-ouvertes")
        assert f'action="/rejoindre/{code}"' in page.text and 'name="seat" value="1"' in page.text
        r = friend.post(f"/rejoindre/{code}", {"seat": "1"}, "/tables-ouvertes")
        assert r.status_code == 303 and r.headers["location"] == f"/table/{table_id}"
        assert raw_receive(ws) == {"type": "changed"}
    text = listed(client)
    assert "Igor" in text and "2 places libres" in text
    assert "Igor" in listed(client, "?regles=classic") and "Igor" not in listed(client, "?regles=house")
    with host.connect(table_id) as player:  # started without late joins: no seat to offer
        player.next_state()
        sent = player.send("host", op="start")
        assert player.answer(sent)["type"] == "ack"
    text = listed(client)  # no seat to offer: only to watch
    assert f'action="/rejoindre/{code}"' not in text and f'href="/table/{table_id}/regarder"' in text


def test_the_hosts_switch(client: TestClient) -> None:
    host = person(client, "Jade")
    table_id, _ = host.make_table()
    assert "Jade" not in listed(client)
    page = host.get(f"/table/{table_id}")
    assert "Ouvrir la table à tous" in page.text
    r = host.post(f"/table/{table_id}/ouverte", {"public": "on"}, f"/table/{table_id}")
    assert r.status_code == 303
    assert "Jade" in listed(client)
    assert "Cette table est ouverte" in host.get(f"/table/{table_id}").text
    other = person(client, "Karim")
    assert other.post(f"/table/{table_id}/ouverte", {"public": "off"}, "/tables-ouvertes").status_code == 403
    for form in ({"public": "maybe"}, {"public": "on", "x": "1"}):
        assert host.post(f"/table/{table_id}/ouverte", form, f"/table/{table_id}").status_code == 400
    assert host.post("/table/nothere/ouverte", {"public": "on"}, f"/table/{table_id}").status_code == 404
    with host.acting() as c:  # no CSRF token
        assert c.post(f"/table/{table_id}/ouverte", data={"public": "off"}).status_code == 403
    assert another_visitor(client).get("/tables-ouvertes?regles=<script>").status_code == 400
    r = host.post(f"/table/{table_id}/ouverte", {"public": "off"}, f"/table/{table_id}")
    assert r.status_code == 303 and "Jade" not in listed(client)


def test_the_last_seat_goes_to_one_of_two_at_once(client: TestClient) -> None:
    """Two people press "S'asseoir" on the last free seat at the same moment: one sits,
    the other is told the table is full; nobody is seated twice."""
    import threading

    host = person(client, "Olga")
    table_id, code = host.make_table(public="on")
    for name, seat in (("Pia", "1"), ("Quentin", "2")):
        assert person(client, name).post(f"/rejoindre/{code}", {"seat": seat}, "/tables-ouvertes").status_code == 303
    racers = [person(client, "Rosa"), person(client, "Sami")]
    tokens = []
    for racer in racers:
        page = racer.get("/tables-ouvertes").text
        tokens.append(re.search(r'name="csrf" value="([^"]+)"', page)[1])  # type: ignore[index]
    answers: list[int] = []

    def press(racer: Person, token: str) -> None:
        with racer.acting() as c:
            r = c.post(f"/rejoindre/{code}", data={"csrf": token, "seat": "3"}, follow_redirects=False)
            answers.append(r.status_code)

    threads = [threading.Thread(target=press, args=pair) for pair in zip(racers, tokens, strict=True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(answers) == [303, 409], answers
    seats = live_table(client, table_id).seats
    assert [s.kind for s in seats] == ["human"] * 4
    assert sum(1 for s in seats if s.name in ("Rosa", "Sami")) == 1
    assert f"/rejoindre/{code}" not in listed(client)  # full: no longer offered


def test_a_table_not_listed_reads_no_ratings_when_it_moves(database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each deal of every friends' table tells the list: a table that is not listed (most)
    changes nothing there and costs no read of its players' ratings."""
    from coinche.engine.rules import PROFILES
    from coinche.server.features import open_tables
    from coinche.server.infra.store import Store, new_id
    from coinche.server.table.kinds import FriendsTable
    from coinche.server.table.live_table import LiveTable
    from coinche.server.table.spec import Seat, Step, TableSpec

    store = Store(database_url)
    try:
        people = tuple(Seat("human", player=f"p{n}", name=f"P{n}") for n in range(4))
        kind = FriendsTable(code="ABCDEF", host_player="p0")
        spec = TableSpec(new_id(), PROFILES["classic"], 7, 0, people, "confirmed", kind=kind)
        store.create_table(spec)
        live = LiveTable.build(spec, [Step(0, "deal", 0)])
        rows = open_tables.OpenTableStore(store)
        read: list[object] = []
        monkeypatch.setattr(open_tables, "ratings_of", lambda *args: read.append(args) or {})
        assert not rows.moved(live) and not read
        rows.open(live)  # listed: its row follows, its players' ratings read
        read.clear()
        live.apply(Step(1, "action", live.game.to_move, live.game.legal_actions()[0]))
        assert rows.moved(live) and read
    finally:
        store.close()
