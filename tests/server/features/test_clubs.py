"""Clubs (issue 51): making one, joining an open club, asking to join one on request and
being accepted, invitations, leaving, moderators named by the owner, removing and banning,
the board of predefined messages, deletion by the owner; the limits; and hostile input
(another club's moderation, forged roles and fields, floods, names like the site's)."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from friends_helpers import Person, person
from server_helpers import another_visitor, player_of
from sqlalchemy import select
from starlette.testclient import TestClient

from coinche.server.features.clubs import OWNED_MAX, ClubError, ClubMemberRow, check_club_name
from coinche.server.infra.rows.people import AccountRow


def make_club(p: Person, name: str, is_open: bool = True, description: str = "Le club du jeudi") -> str:
    form = {"name": name, "description": description}
    if is_open:
        form["open"] = "on"
    r = p.post("/clubs", form, "/clubs")
    assert r.status_code == 303, r.text
    return str(r.headers["location"]).removeprefix("/club/")


def act(p: Person, club_id: str, action: str, **fields: str) -> Any:
    return p.post(f"/club/{club_id}", {"action": action, **fields}, "/clubs")


def members(client: TestClient, club_id: str) -> dict[str, str]:
    with client.app.state.store.session() as s:  # type: ignore[attr-defined]
        rows = s.execute(
            select(AccountRow.name, ClubMemberRow.role)
            .join(AccountRow, AccountRow.player_id == ClubMemberRow.player_id)
            .where(ClubMemberRow.club_id == club_id)
        ).all()
    return {name: role for name, role in rows}


def test_an_open_club_joined_left_and_its_board(client: TestClient) -> None:
    ana, bob = person(client, "Ana"), person(client, "Bob")
    club_id = make_club(ana, "Les Belotiers")
    assert members(client, club_id) == {"Ana": "owner"}
    listing = html.unescape(bob.get("/clubs").text)
    assert "Les Belotiers" in listing and "1 membre" in listing and "ouvert à tous" in listing
    assert act(bob, club_id, "join").status_code == 303
    assert members(client, club_id) == {"Ana": "owner", "Bob": "member"}
    page = html.unescape(bob.get(f"/club/{club_id}").text)
    assert "2 membres" in page and "Bob" in page and "Quitter le club" in page
    assert "Gestion du club" not in page  # a member does not run the club
    assert act(bob, club_id, "post", phrase="game_tonight").status_code == 303
    assert "Bob</strong> : Partie ce soir ?" in html.unescape(ana.get(f"/club/{club_id}").text)
    assert act(bob, club_id, "leave").status_code == 303
    assert members(client, club_id) == {"Ana": "owner"}
    r = act(ana, club_id, "leave")
    assert r.status_code == 400 and "Le fondateur ne quitte pas son club" in html.unescape(r.text)


def test_a_club_on_request_accepts_refuses_invites_and_bans(client: TestClient) -> None:
    ana, bob, cleo, dan = (person(client, n) for n in ("Ana", "Bob", "Cleo", "Dan"))
    club_id = make_club(ana, "Le Cercle", is_open=False)
    assert act(bob, club_id, "join").status_code == 303  # asks
    assert "Bob" not in members(client, club_id)
    assert "Vous avez demandé à entrer" in html.unescape(bob.get(f"/club/{club_id}").text)
    assert "demande à entrer" in html.unescape(ana.get(f"/club/{club_id}").text)
    assert act(ana, club_id, "accept", player=player_of(client, "Bob")).status_code == 303
    assert members(client, club_id)["Bob"] == "member"
    act(cleo, club_id, "join")
    assert act(ana, club_id, "refuse", player=player_of(client, "Cleo")).status_code == 303
    assert "Cleo" not in members(client, club_id)
    # an invitation lets a person in without a moderator's answer
    assert act(ana, club_id, "invite", name="dan").status_code == 303
    assert "Ce club vous invite." in html.unescape(dan.get(f"/club/{club_id}").text)
    assert "Le Cercle" in dan.get("/clubs").text
    assert act(dan, club_id, "join").status_code == 303
    assert members(client, club_id)["Dan"] == "member"
    # the owner names a moderator; a moderator removes and bans members, not moderators
    assert act(ana, club_id, "promote", player=player_of(client, "Bob")).status_code == 303
    assert members(client, club_id)["Bob"] == "moderator"
    assert act(bob, club_id, "ban", player=player_of(client, "Dan")).status_code == 303
    assert "Dan" not in members(client, club_id)
    r = act(dan, club_id, "join")
    assert r.status_code == 400 and "Ce club vous a banni." in html.unescape(r.text)
    assert act(bob, club_id, "invite", name="Dan").status_code == 400  # banned: not invited either
    assert act(bob, club_id, "remove", player=player_of(client, "Ana")).status_code == 400  # the owner
    act(ana, club_id, "promote", player=player_of(client, "Dan"))  # not a member: refused
    assert "Dan" not in members(client, club_id)
    assert act(bob, club_id, "unban", player=player_of(client, "Dan")).status_code == 303
    assert act(dan, club_id, "join").status_code == 303  # asks again
    # the owner deletes the club; nobody else can
    assert act(bob, club_id, "delete", confirm="on").status_code == 400
    assert act(ana, club_id, "delete").status_code == 400  # the box not ticked
    assert act(ana, club_id, "delete", confirm="on").status_code == 303
    assert ana.get(f"/club/{club_id}").status_code == 404


def test_the_limits(client: TestClient) -> None:
    ana = person(client, "Ana")
    clubs = [make_club(ana, f"Club numero {i}") for i in range(OWNED_MAX)]
    r = ana.post("/clubs", {"name": "Un de trop", "open": "on"}, "/clubs")
    assert r.status_code == 400 and "Vous avez déjà fondé 3 clubs." in html.unescape(r.text)
    assert len(clubs) == OWNED_MAX
    # invitations a minute
    bob = person(client, "Bob")
    for i in range(10):
        person(client, f"Guest{i}")
        assert act(ana, clubs[0], "invite", name=f"Guest{i}").status_code == 303
    r = act(ana, clubs[0], "invite", name="Bob")
    assert r.status_code == 400 and "Trop d'invitations" in html.unescape(r.text)
    # board messages a minute
    for _ in range(5):
        assert act(ana, clubs[0], "post", phrase="hello").status_code == 303
    assert act(ana, clubs[0], "post", phrase="hello").status_code == 400
    del bob


@pytest.mark.parametrize(
    "name",
    [
        "Coinche",
        "Les amis de Coinche",
        "COINCHE club",
        "Cοinche",
        "Admin",
        "L'équipe",
        "Modération",
        "Support officiel",
        "ab",
        "x" * 41,
        "<b>Club</b>",
        "Club\u200bX",
        "Deux  espaces",
    ],
)
def test_names_like_the_sites_and_bad_names_are_refused(name: str) -> None:
    with pytest.raises(ClubError):
        check_club_name(name)


def test_hostile_input_on_the_club_routes(client: TestClient) -> None:
    ana, bob, eve = person(client, "Ana"), person(client, "Bob"), person(client, "Eve")
    club_id = make_club(ana, "Les Belotiers")
    other = make_club(eve, "Chez Eve")
    act(bob, club_id, "join")
    bob_player = player_of(client, "Bob")
    # another club's moderator (Eve) has no say here
    for action in ("remove", "ban", "promote", "accept"):
        r = act(eve, club_id, action, player=bob_player)
        assert r.status_code == 400, action
    for action in ("delete",):
        r = act(eve, club_id, action, confirm="on")
        assert r.status_code == 400, action
    assert members(client, club_id)["Bob"] == "member"
    # a forged role field, an unknown action, a made-up phrase, free text
    assert act(bob, club_id, "promote", player=bob_player, role="owner").status_code == 400
    assert act(bob, club_id, "promote", player=bob_player).status_code == 400  # not the owner
    assert act(bob, club_id, "make_owner").status_code == 400
    assert act(bob, club_id, "post", phrase="<script>alert(1)</script>").status_code == 400
    assert act(bob, club_id, "post", phrase="x" * 5000).status_code == 400
    # no token, no account, another site
    with bob.acting() as c:
        assert c.post(f"/club/{club_id}", data={"action": "leave"}).status_code == 403
    guest = another_visitor(client)
    assert guest.post("/clubs", data={"name": "X"}).status_code == 403
    assert guest.get(f"/club/{club_id}").status_code == 200  # reading is open
    assert ana.get("/club/nothere").status_code == 404
    assert ana.get("/club/" + "x" * 5000).status_code == 404
    # markup in a description is text
    r = ana.post("/clubs", {"name": "Les Fous", "description": "<img src=x onerror=alert(1)>", "open": "on"}, "/clubs")
    page = ana.get(str(r.headers["location"])).text
    assert "<img src=x" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page
    assert re.search(r"Chez Eve", ana.get("/clubs").text)
    del other


def test_a_club_table_for_members_only_refuses_a_non_member(client: TestClient) -> None:
    ana, bob, zed = person(client, "Ana"), person(client, "Bob"), person(client, "Zed")
    club_id = make_club(ana, "Les Belotiers")
    act(bob, club_id, "join")
    r = act(zed, club_id, "table", profile="classic", members_only="on")
    assert r.status_code == 400  # not a member: no club table
    r = act(ana, club_id, "table", profile="classic", members_only="on")
    assert r.status_code == 303
    table_id = str(r.headers["location"]).removeprefix("/table/")
    page = html.unescape(bob.get(f"/club/{club_id}").text)
    assert "réservée aux membres" in page
    code = re.search(r'href="/rejoindre/([A-Z0-9]{6})"', page)
    assert code is not None
    assert "/rejoindre/" not in zed.get(f"/club/{club_id}").text  # not listed to a non-member
    r = zed.take_seat(code[1], 1)
    assert r.status_code == 409 and "Cette table est réservée aux membres de son club." in html.unescape(r.text)
    assert bob.take_seat(code[1], 1).status_code == 303
    # a club table open to all lets anyone sit
    r = act(bob, club_id, "table", profile="online")
    open_table = str(r.headers["location"]).removeprefix("/table/")
    open_code = re.search(
        r'href="/rejoindre/([A-Z0-9]{6})"[^<]*</a> · ouverte à tous', html.unescape(zed.get(f"/club/{club_id}").text)
    )
    assert open_code is not None
    assert zed.take_seat(open_code[1], 2).status_code == 303
    # hostile: a made-up profile, a forged box
    assert act(ana, club_id, "table", profile="poker").status_code == 400
    assert act(ana, club_id, "table", profile="classic", members_only="yes").status_code == 400
    del table_id, open_table
