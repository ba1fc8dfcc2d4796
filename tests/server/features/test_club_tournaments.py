"""A club's tournament (issue 51): organised from the club by one of its moderators, entered
by its members only, played to its end on the test's clock, listed on the club's page and
not in the site's public listing."""

from __future__ import annotations

import html
from typing import Any

from test_clubs import act as club_act
from test_clubs import make_club, person
from test_tournaments import START, Clock, enter, organise, tournaments_of, wait_for


def test_a_club_tournament_from_entering_to_its_end(make_client: Any) -> None:
    clock = Clock()
    client = make_client(clock=clock, tournament_tick_seconds=0.1)
    ana, bob, cleo, zed = (person(client, n) for n in ("Ana", "Bob", "Cleo", "Zed"))
    club_id = make_club(ana, "Les Belotiers")
    for p in (bob, cleo):
        assert club_act(p, club_id, "join").status_code == 303
    # a member who is not a moderator may not organise the club's tournament
    r = bob.post("/tournois/nouveau", {"name": "Pirate", "club": club_id}, "/tournois/nouveau")
    assert r.status_code == 400
    tournament_id = organise(ana, club=club_id, name="Concours du jeudi", rounds="1")
    assert "Concours du jeudi" in html.unescape(ana.get(f"/club/{club_id}").text)
    assert "Concours du jeudi" not in html.unescape(zed.get("/tournois").text)  # the club's own
    r = enter(zed, tournament_id)
    assert r.status_code == 400 and "réservé aux membres de son club" in html.unescape(r.text)
    for p in (ana, bob, cleo):
        assert enter(p, tournament_id).status_code == 303
    clock.now = START
    finished = wait_for(client, tournament_id, lambda t: t.state == "finished")
    assert finished.club == club_id
    lines = client.portal.call(tournaments_of(client).standings, finished)  # type: ignore[union-attr]
    assert lines and lines[0].rank == 1
    assert "terminé" in html.unescape(bob.get(f"/club/{club_id}").text)
