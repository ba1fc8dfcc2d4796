"""A small Swiss tournament in Chromium (issue 30), one browser context per person: the
organiser makes it, a pair enters (one names the other, who is asked on the page they
have open and accepts from there), two people enter alone; at the start each is taken from
the tournament's page to their table (the site paired the two alone); the table names the
tournament, the round and its deal, not a target; the round's one deal is played out (four
passes), its end says the round's score and leads to the round's results, every page shows
the final standings, and the standings and the round's comparison fit a 390 px phone."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from browser_helpers import signed_up
from playwright.sync_api import Page, expect
from table_driver import Table, keep_screenshot

from coinche.server.table.days import CLUB_TIME

TABLE_URL = re.compile(r"/table/([^/]+)$")
TOURNAMENT_URL = re.compile(r"/tournoi/([^/?]+)$")
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}


@pytest.fixture(scope="module")
def tournament_server(tmp_path_factory: pytest.TempPathFactory, server_factory: Callable[..., Any]) -> Iterator[str]:
    with server_factory(tmp_path_factory.mktemp("tournament")) as base:
        yield base


def test_a_small_swiss_from_entering_to_the_final_standings(
    make_page: Callable[..., Page], tournament_server: str
) -> None:
    names = ["Gaston", "Hélène", "Inès", "Jules"]
    pages = [make_page(tournament_server) for _ in names]
    for page, name in zip(pages, names, strict=True):
        signed_up(page, name)
    organiser = pages[0]
    organiser.goto("/tournois")
    organiser.get_by_role("link", name="Organiser un tournoi").click()
    organiser.get_by_label("Nom du tournoi").fill("Concours de la Saint-Nicolas")
    organiser.get_by_label("Manches", exact=True).fill("1")
    organiser.get_by_label("Donnes par manche", exact=True).fill("1")
    organiser.get_by_label("Pendule : minutes par donne").fill("5")
    organiser.get_by_label("Pause entre deux manches (secondes)").fill("0")
    organiser.get_by_label("Niveau de l'ordinateur", exact=False).select_option("beginner")
    start = (datetime.now(UTC) + timedelta(hours=2)).astimezone(CLUB_TIME)
    organiser.get_by_label("Début (heure de Paris)").fill(start.strftime("%Y-%m-%dT%H:%M:%S"))
    keep_screenshot(organiser, "tournament-new", full_page=True)
    organiser.get_by_role("button", name="Créer le tournoi").click()
    organiser.wait_for_url(TOURNAMENT_URL)
    address = organiser.url
    expect(organiser.get_by_role("heading", name="Concours de la Saint-Nicolas")).to_be_visible()
    # a pair: Gaston names Hélène, who is asked on the page she has open (not the
    # tournament's) and accepts from there
    pages[1].goto("/tournois")
    organiser.get_by_label("Partenaire (nom de son compte)").fill("Hélène")
    organiser.get_by_role("button", name="S'inscrire").click()
    expect(organiser.get_by_text("Hélène doit encore accepter")).to_be_visible()
    request = pages[1].locator("#invitations form", has_text="Gaston vous propose de faire équipe")
    expect(request).to_contain_text("« Concours de la Saint-Nicolas »")
    for size, name in ((PHONE, "tournament-partner-phone"), (LAPTOP, "tournament-partner")):
        pages[1].set_viewport_size(size)
        keep_screenshot(pages[1], name)
    request.get_by_role("button", name="Accepter").click()
    pages[1].wait_for_url(address)
    expect(pages[1].get_by_text("Vous êtes inscrit avec Gaston.")).to_be_visible()
    expect(pages[1].locator("#invitations")).to_be_hidden()  # answered: gone
    # two alone: the site pairs them at the start
    for page in pages[2:]:
        page.goto(address)
        page.get_by_role("button", name="S'inscrire").click()
        expect(page.get_by_text("Vous êtes inscrit seul")).to_be_visible()
    organiser.goto(address)
    expect(organiser.get_by_role("heading", name="3 inscrits")).to_be_visible()
    keep_screenshot(organiser, "tournament-entries", full_page=True)
    # everyone is there: the organiser starts it now, which takes everyone from the
    # tournament's page to their table
    organiser.get_by_role("button", name="Commencer maintenant").click()
    tables = set()
    for page in pages:
        page.wait_for_url(TABLE_URL, timeout=20_000)
        found = TABLE_URL.search(page.url)
        assert found is not None
        tables.add(found[1])
    assert len(tables) == 1  # two pairs: one table
    for page, name in zip(pages, names, strict=True):
        for other in names:
            if other != name:
                expect(page.locator(".seat .name", has_text=other)).to_have_count(1)
    # the table names its tournament (a link to it), the round and which deal of how many
    phone = pages[3]
    phone.set_viewport_size(PHONE)
    pages[0].set_viewport_size(LAPTOP)
    for page in (pages[0], phone):
        tournament_link = page.locator(".corner-score").get_by_role("link", name="Concours de la Saint-Nicolas")
        expect(tournament_link).to_have_attribute("href", TOURNAMENT_URL)
        expect(page.locator("p.target")).to_have_text("Tournoi · manche 1 · donne 1 sur 1")
    keep_screenshot(pages[0], "tournament-table")
    keep_screenshot(phone, "tournament-table-phone")
    # the round's one deal: everyone passes
    drivers = [Table(page) for page in pages]
    passed: set[int] = set()
    for _ in range(40):
        for i, driver in enumerate(drivers):
            if i not in passed and driver.pass_button().count() and driver.pass_button().is_enabled():
                driver.pass_button().click()
                passed.add(i)
        if len(passed) == 4:
            break
        pages[0].wait_for_timeout(250)
    assert len(passed) == 4
    # the round's end: its score, no target, no new game, the way to the round's results
    expect(pages[0].locator("p.target")).to_have_text("Tournoi · manche 1 · donne 1 sur 1")
    summary = pages[0].get_by_role("dialog")
    results = summary.get_by_role("link", name="Résultats de la manche")
    expect(results).to_be_visible(timeout=20_000)
    # four passes: 0-0
    expect(summary.get_by_text("Manche 1 terminée : 0 à 0, à égalité : une demi-victoire chacun.")).to_be_visible()
    expect(summary.get_by_text("Nouvelle partie")).to_have_count(0)
    expect(summary).not_to_contain_text("objectif")
    keep_screenshot(pages[0], "tournament-round-over")
    results.click()
    pages[0].wait_for_url(address + "#round-1")
    for page in pages:
        page.goto(address)
        expect(page.get_by_text("Terminé : classement final")).to_be_visible(timeout=30_000)
        standings = page.get_by_role("table", name="Classement")
        expect(standings.get_by_role("row")).to_have_count(3)
        expect(standings).to_contain_text("Gaston & Hélène")
        assert page.js_errors == []  # type: ignore[attr-defined]
    keep_screenshot(pages[0], "tournament-final", full_page=True)
    # the standings and the round's comparison fit a phone: nothing wider than its screen
    phone.goto(address)
    expect(phone.get_by_role("table", name="Classement")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    keep_screenshot(phone, "tournament-final-phone", full_page=True)
    phone.get_by_role("link", name="Comparer les donnes").click()
    expect(phone.get_by_role("heading", name="Donne 1")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    keep_screenshot(phone, "tournament-round-phone", full_page=True)
    pages[0].goto(phone.url)
    keep_screenshot(pages[0], "tournament-round", full_page=True)
    pages[0].goto("/tournois")
    expect(pages[0].get_by_role("link", name="Concours de la Saint-Nicolas")).to_be_visible()
