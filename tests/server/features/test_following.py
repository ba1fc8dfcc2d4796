"""Friends through the site: following an account by its name, the list that says who is
online (their socket on any page) and at which public table, an invitation by name from
a table's lobby told at once on the friend's socket, accepted or declined; blocking, after
which that account's invitations are dropped unseen; hostile input and floods."""

from __future__ import annotations

import argparse
import io
from datetime import UTC, datetime, timedelta
from typing import Any

from friends_helpers import Person, person
from server_helpers import another_visitor, raw_receive
from starlette.testclient import TestClient
from test_friends import seated_table

from coinche.cli.site import cmd_reports
from coinche.server.features.following import FollowingStore


def act(p: Person, action: str, name: str) -> object:
    return p.post("/mes-amis", {"action": action, "name": name}, "/mes-amis")


def test_following_online_and_an_invitation(client: TestClient) -> None:
    ana, bob = person(client, "Ana"), person(client, "Bob")
    r = act(ana, "follow", "bob")  # any case
    assert r.status_code == 200 and "Vous suivez Bob." in r.text  # type: ignore[attr-defined]
    page = ana.get("/mes-amis").text
    assert "Bob" in page and "hors ligne" in page
    table_id, code = ana.make_table(public="on")
    with bob.acting() as c, c.websocket_connect("/ws/me") as ws:
        assert raw_receive(ws)["type"] == "quick"
        assert raw_receive(ws) == {"type": "invitations", "list": []}
        page = ana.get("/mes-amis").text
        assert "en ligne" in page
        r = ana.post("/inviter", {"table_id": table_id, "name": "Bob"}, f"/table/{table_id}")
        assert r.status_code == 303 and r.headers["location"] == f"/table/{table_id}"  # type: ignore[attr-defined]
        assert "Invitation envoyée." in ana.get(f"/table/{table_id}").text
        message = raw_receive(ws)
        while message["type"] != "invitations":
            message = raw_receive(ws)
        [invitation] = message["list"]
        assert invitation["from"] == "Ana" and invitation["link"] == f"/rejoindre/{code}"
    r = bob.post(f"/invitations/{invitation['id']}", {"action": "accept"}, "/mes-amis")
    assert r.status_code == 303 and r.headers["location"] == f"/table/{table_id}"  # type: ignore[attr-defined]
    assert "Ana vous invite" not in bob.get("/mes-amis").text  # answered: gone
    act(bob, "follow", "Ana")
    page = bob.get("/mes-amis").text
    assert f'href="/rejoindre/{code}"' in page  # Ana sits at a public table: named


def test_blocking_drops_invitations_and_floods_stop(client: TestClient) -> None:
    cleo, dan = person(client, "Cleo"), person(client, "Dan")
    table_id, _ = dan.make_table()
    for _ in range(3):
        dan.post("/inviter", {"table_id": table_id, "name": "Cleo"}, f"/table/{table_id}")
    dan.post("/inviter", {"table_id": table_id, "name": "Cleo"}, f"/table/{table_id}")
    assert "déjà trois invitations" in dan.get(f"/table/{table_id}").text
    assert cleo.get("/mes-amis").text.count("Dan vous invite") == 3
    act(cleo, "block", "Dan")
    page = cleo.get("/mes-amis").text
    assert "Dan vous invite" not in page and "Débloquer Dan" in page
    dan.post("/inviter", {"table_id": table_id, "name": "Cleo"}, f"/table/{table_id}")
    assert "Invitation envoyée." in dan.get(f"/table/{table_id}").text  # a block is not announced
    assert "Dan vous invite" not in cleo.get("/mes-amis").text
    act(cleo, "unblock", "Dan")
    assert "Débloquer Dan" not in cleo.get("/mes-amis").text


def test_hostile_input(client: TestClient) -> None:
    eve = person(client, "Eve")
    guest = another_visitor(client)
    assert guest.get("/mes-amis", follow_redirects=False).headers["location"].startswith("/connexion")
    assert guest.post("/inviter", data={"table_id": "x", "name": "Eve"}).status_code == 403
    for name in ("Nobody", "<script>alert(1)</script>", "x" * 5000, ""):
        r = act(eve, "follow", name)
        assert r.status_code == 400 and "<script>alert" not in r.text  # type: ignore[attr-defined]
    assert act(eve, "follow", "eve").status_code == 400  # type: ignore[attr-defined]
    assert eve.post("/mes-amis", {"action": "hack", "name": "Eve"}, "/mes-amis").status_code == 400
    assert eve.post("/mes-amis", {"action": "follow", "name": "Eve", "x": "1"}, "/mes-amis").status_code == 400
    with eve.acting() as c:  # no CSRF token
        assert c.post("/mes-amis", data={"action": "follow", "name": "Ana"}).status_code == 403
    frank = person(client, "Frank")
    assert eve.post("/inviter", {"table_id": "nothere", "name": "Frank"}, "/mes-amis").status_code == 404
    table_id, _ = frank.make_table()
    # Eve is not seated there: she may not invite anyone to it
    assert eve.post("/inviter", {"table_id": table_id, "name": "Frank"}, "/mes-amis").status_code == 404
    # another's invitation cannot be answered by her
    frank.post("/inviter", {"table_id": table_id, "name": "Eve"}, f"/table/{table_id}")
    r = eve.post("/invitations/made-up", {"action": "accept"}, "/mes-amis")
    assert r.status_code == 303 and r.headers["location"] == "/mes-amis"  # type: ignore[attr-defined]


def test_a_report_is_stored_once_limited_and_listed(make_client: Any) -> None:
    client = make_client(report_limit="5/hour")
    host, _, table_id, _ = seated_table(client, ("Paul", 2))
    r = host.post(f"/table/{table_id}/signaler", {"seat": "2", "reason": "stalling"}, f"/table/{table_id}")
    assert r.status_code == 303
    assert "Signalement enregistré" in host.get(f"/table/{table_id}").text
    host.post(f"/table/{table_id}/signaler", {"seat": "2", "reason": "name"}, f"/table/{table_id}")  # once
    for form in ({"seat": "0", "reason": "name"}, {"seat": "1", "reason": "name"}, {"seat": "2", "reason": "rude"}):
        assert host.post(f"/table/{table_id}/signaler", form, f"/table/{table_id}").status_code == 400, form
    r = host.post(f"/table/{table_id}/signaler", {"seat": "2", "reason": "name"}, f"/table/{table_id}")
    assert r.status_code == 429  # the sixth within the hour (refused ones count)
    stranger = person(client, "Zed")
    assert stranger.post(f"/table/{table_id}/signaler", {"seat": "0", "reason": "name"}, "/").status_code == 404
    store = client.app.state.store  # type: ignore[attr-defined]
    [report] = FollowingStore(store).reports(datetime.now(UTC) - timedelta(days=1))
    assert (report.reporter, report.reported, report.reason) == ("Hote", "Paul", "stalling")
    out = io.StringIO()
    url = str(store.engine.url)
    assert cmd_reports(argparse.Namespace(db=url, days=30, json=False), out) == 0
    assert "'Hote' reported 'Paul': stalling" in out.getvalue() and "reported by 1" in out.getvalue()
