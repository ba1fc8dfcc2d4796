"""A club's tournament (issue 51): organised from the club by one of its moderators, entered
by its members only, played to its end on the test's clock, listed on the club's page and
not in the site's public listing."""

from __future__ import annotations

import html
import re
from typing import Any
from urllib.parse import quote

from friends_helpers import person
from test_clubs import act as club_act
from test_clubs import make_club
from test_tournaments import START, Clock, enter, organise, tournaments_of, wait_for

from coinche.server.features.club_points import place_points

SHEET_ROW = re.compile(
    r'<tr><td>(\d+)</td><th scope="row" class="pair">([^<]*)</th>.*?<td class="sheet-total">(\d+) – (\d+)</td>', re.S
)
MONTH_ROW = re.compile(
    r'<tr><td>(\d+)</td><th scope="row"><a href="[^"]*">([^<]*)</a></th><td>(\d+)</td><td>(\d+)</td>'
)


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
    assert bob.get(f"/tournoi/{tournament_id}/feuille").status_code == 404  # nothing played yet
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

    # the result sheet: every pair with its round's score and its total, to print
    page = html.unescape(zed.get(f"/tournoi/{tournament_id}").text)
    assert f"/tournoi/{tournament_id}/feuille" in page
    sheet = html.unescape(zed.get(f"/tournoi/{tournament_id}/feuille").text)
    assert "Feuille de résultats" in sheet and "Les Belotiers" in sheet and "Manche 1" in sheet
    rows = SHEET_ROW.findall(sheet)
    assert [int(r[0]) for r in rows] == [line.rank for line in lines]
    assert sorted(name for r in rows for name in r[1].split(" & ")) == ["Ana", "Bob", "Cleo"]
    first, second = (int(x) for x in rows[0][2:]), (int(x) for x in rows[1][2:])
    (a_for, a_against), (b_for, b_against) = first, second
    assert a_for == b_against and a_against == b_for  # the same game from both sides
    assert a_for >= a_against  # the winners first
    assert "print.js" in sheet and "@media print" in client.get("/static/css/tournaments.css").text
    english = html.unescape(zed.get(f"/tournament/{tournament_id}/sheet").text)
    assert "Result sheet" in english and "Round 1" in english
    assert zed.get("/tournoi/nope/feuille").status_code == 404

    # the club's points of the month: each player the points of their pair's place
    club = html.unescape(bob.get(f"/club/{club_id}").text)
    assert "Points du mois · décembre 2026" in club
    month = {name: (int(rank), int(points), int(played)) for rank, name, points, played in MONTH_ROW.findall(club)}
    assert set(month) == {"Ana", "Bob", "Cleo"}
    assert sorted(v[1] for v in month.values()) == sorted(place_points(x.rank) for x in lines for _ in x.entry.players)
    assert all(played == 1 for _, _, played in month.values())
    # the month's table is kept: the page asks again without reading the standings again
    tournaments = tournaments_of(client)
    read = []
    standings = tournaments.standings

    async def counted(t: Any) -> Any:
        read.append(t.id)
        return await standings(t)

    tournaments.standings = counted  # type: ignore[method-assign]
    assert "Points du mois" in bob.get(f"/club/{club_id}").text and read == []
    # another month, and anything else in its place, shows the page as it should
    before = html.unescape(bob.get(f"/club/{club_id}?month=2026-11").text)
    assert "novembre 2026" in before and "Aucun concours du club n'est terminé ce mois-là." in before
    for hostile in ("9999-99", "<script>", "2027-01", "x" * 5000):
        r = bob.get(f"/club/{club_id}?month={quote(hostile)}")
        assert r.status_code == 200 and "Points du mois · décembre 2026" in html.unescape(r.text)
