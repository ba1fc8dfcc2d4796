"""The words at the seams (issue 49 item 3), as the pages say them: quick play says how long
it waits, a rate limit says minutes or hours, ``/en`` and an English address's 404 speak
English, puzzles are offered only once there are some and are named by their content, the
tournament's commitments are folded below the standings, and the players' robots are never
mistaken for the site's computer."""

from __future__ import annotations

import html
import re
from typing import Any, Final

import pytest
from friends_helpers import Person
from server_helpers import MakeClient, another_visitor, call
from starlette.testclient import TestClient
from test_bidding_puzzle_pages import add as add_bidding
from test_puzzle_pages import add, deals_with_puzzles, puzzles_of
from test_tournaments import Clock, organise

from coinche.server.table import i18n


def text_of(r: Any) -> str:
    """A response's HTML as a person reads it (entities decoded)."""
    return html.unescape(r.text)


def signed_up(client: TestClient, name: str) -> Person:
    person = Person(another_visitor(client), name)
    person.sign_up()
    return person


def test_quick_play_says_how_long_it_waits(make_client: MakeClient) -> None:
    client = make_client(quick_wait_seconds=45.0)
    page = text_of(signed_up(client, "Patient").get("/partie-rapide"))
    assert "en 45 secondes" in page and "en  secondes" not in page


@pytest.mark.parametrize(
    ("lang", "seconds", "words"),
    [
        ("fr", 1, "1 seconde"),
        ("fr", 45, "45 secondes"),
        ("fr", 60, "1 minute"),
        ("fr", 61, "2 minutes"),
        ("fr", 2640, "44 minutes"),
        ("fr", 3599, "1 heure"),
        ("fr", 5400, "1 heure et 30 minutes"),
        ("fr", 7200, "2 heures"),
        ("en", 1, "1 second"),
        ("en", 2640, "44 minutes"),
        ("en", 9000, "2 hours and 30 minutes"),
    ],
)
def test_a_wait_in_words(lang: str, seconds: int, words: str) -> None:
    assert i18n.duration(lang, seconds) == words


def test_the_sign_up_limit_says_minutes(make_client: MakeClient) -> None:
    client = make_client(signup_limit="1/hour")
    signed_up(client, "Premier")
    second = Person(another_visitor(client), "Second")
    r = second.post("/inscription", {"name": "Second", "password": "correct horse", "confirm": "correct horse"}, "/")
    assert r.status_code == 429 and int(r.headers["retry-after"]) > 3000
    page = text_of(r)
    assert "réessayez dans 1 heure." in page and "secondes" not in page


def test_en_leads_to_the_english_home(client: TestClient) -> None:
    r = client.get("/en", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/"
    assert client.cookies["lang"] == "en"
    assert '<html lang="en">' in client.get("/").text
    r = client.get("/fr", follow_redirects=False)
    assert r.status_code == 303 and client.cookies["lang"] == "fr"


@pytest.mark.parametrize(
    ("path", "lang"), [("/en/nothing", "en"), ("/puzzles/nothing-here", "en"), ("/nulle-part", "fr")]
)
def test_a_404_speaks_the_language_of_its_address(client: TestClient, path: str, lang: str) -> None:
    r = client.get(path)
    assert r.status_code == 404
    assert f'<html lang="{lang}">' in r.text
    assert i18n.gettext(lang, "error.404.title") in text_of(r)
    home = "/en" if lang == "en" else "/"  # the home page in the page's language
    assert f'<a class="button primary" href="{home}">' in r.text


def test_a_404_without_a_language_in_its_address_follows_the_visitor(client: TestClient) -> None:
    client.get("/langue/en")
    r = client.get("/table/nothing")
    assert r.status_code == 404 and '<html lang="en">' in r.text


def test_puzzles_are_offered_once_there_are_some(client: TestClient) -> None:
    home = client.get("/").text
    assert 'href="/problemes"' not in home
    assert add(client, deals_with_puzzles(1)[0], "t1") is not None
    assert 'href="/problemes"' in client.get("/").text


def test_puzzles_are_named_by_their_number_and_content(client: TestClient) -> None:
    ids = [add(client, deal, f"t{i}") for i, deal in enumerate(deals_with_puzzles(2))]
    for number, puzzle_id in enumerate(ids, start=1):
        assert puzzle_id is not None
        puzzle = call(client, puzzles_of(client).puzzle, puzzle_id)
        assert puzzle is not None
        deal = puzzle.position()
        page = text_of(client.get(f"/problemes/{puzzle_id}"))
        heading = page.split("<h1>", 1)[1].split("</h1>", 1)[0]
        assert puzzle_id not in heading
        left = 8 - len(deal.tricks)
        assert heading.startswith(f"Problème n°{number} · "), heading
        assert heading.endswith(f"{left} plis à jouer" if left > 1 else "1 pli à jouer"), heading
        english = text_of(client.get(f"/puzzles/{puzzle_id}"))
        assert f"Puzzle no. {number} · " in english


def test_bidding_puzzles_are_named_by_their_number(client: TestClient) -> None:
    ids = [add_bidding(client, "t1"), add_bidding(client, "t2", start=30)]
    assert 'href="/problemes"' in client.get("/").text  # a bidding puzzle is a puzzle to offer
    for number, puzzle_id in enumerate(ids, start=1):
        page = text_of(client.get(f"/problemes/encheres/{puzzle_id}"))
        heading = page.split("<h1>", 1)[1].split("</h1>", 1)[0]
        assert heading == f"Que dites-vous ? · enchères n°{number}", heading


def test_the_commitments_are_folded_below_the_standings(make_client: MakeClient) -> None:
    client = make_client(clock=Clock())
    organiser = signed_up(client, "Organise")
    tournament_id = organise(organiser)
    page = organiser.get(f"/tournoi/{tournament_id}").text
    standings = page.index('id="standings-title"')
    commitment = page.index('<code class="commitment">')
    assert standings < commitment
    folded = page.rindex("<details", 0, commitment)
    assert standings < folded and "</details>" not in page[folded:commitment]


OWNED: Final = {
    "fr": ("robots des joueurs", "api des robots", r"\brobots?\b"),
    "en": ("players' bots", "bot api", r"\bbots?\b"),
}
"""Per language: how the players' robots are named, the name of their API, and the word
that must never stand alone (it reads as the computer the site seats at every free place)."""


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_players_robots_are_never_taken_for_the_site_s_computer(lang: str) -> None:
    """Outside the robots' own pages, the players' robots are named as theirs."""
    owned, api, word = OWNED[lang]
    said = [
        (key, text.lower())
        for key, text in i18n.catalogue(lang).items()
        if re.search(word, text.lower()) and key.startswith(("open.", "tournament."))
    ]
    assert said
    for key, text in said:
        assert not re.search(word, text.replace(owned, "").replace(api, "")), (key, text)
