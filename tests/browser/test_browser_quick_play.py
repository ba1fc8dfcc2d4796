"""Quick play in Chromium (issue 29), one browser context per person: three people press
"Trouver une partie" together, each page counts down, then the three sit at one table
with a computer in the fourth seat and see each other's names; a person who stops waiting
is back at the choice of rules."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from browser_helpers import signed_up
from playwright.sync_api import Page, expect
from table_driver import keep_screenshot

TABLE_URL = re.compile(r"/table/([^/]+)$")


@pytest.fixture(scope="module")
def quick_server(tmp_path_factory: pytest.TempPathFactory, server_factory: Callable[..., Any]) -> Iterator[str]:
    """A server whose quick play waits 3 s for others."""
    with server_factory(tmp_path_factory.mktemp("quick"), "--quick-wait", "3") as base:
        yield base


def test_three_people_are_seated_together_with_a_computer(make_page: Callable[..., Page], quick_server: str) -> None:
    names = ["Alix", "Bastien", "Chloé"]
    pages = [make_page(quick_server) for _ in names]
    for page, name in zip(pages, names, strict=True):
        signed_up(page, name)
        page.goto("/")
        page.goto("/partie-rapide")
        page.get_by_label("Classique", exact=True).check()
    for page in pages:
        page.get_by_role("button", name="Trouver une partie").click()
    expect(pages[0].get_by_role("heading", name="Recherche de joueurs…")).to_be_visible()
    expect(pages[0].get_by_role("timer")).to_have_text(re.compile(r"^[0-3] s$"))
    expect(pages[0].get_by_text(re.compile(r"l'ordinateur \(niveau [^)]+\) prendra les places libres"))).to_be_visible()
    keep_screenshot(pages[0], "quick-wait")
    tables = set()
    for page in pages:
        page.wait_for_url(TABLE_URL, timeout=15_000)
        found = TABLE_URL.search(page.url)
        assert found is not None
        tables.add(found[1])
    assert len(tables) == 1
    for page, name in zip(pages, names, strict=True):
        others = [n for n in names if n != name]
        for other in others:
            expect(page.locator(".seat .name", has_text=other)).to_have_count(1)
        expect(page.locator(".seat .presence-computer")).to_have_count(1)
        assert page.js_errors == []  # type: ignore[attr-defined]
    keep_screenshot(pages[0], "quick-table")
    # a stranger may be reported from the table: who, why, sent
    reporter = pages[0]
    reporter.get_by_role("button", name="Signaler").click()
    dialog = reporter.get_by_role("dialog", name="Signaler un joueur")
    expect(dialog.get_by_role("radio")).to_have_count(2 + 5)  # the two others, five reasons
    dialog.get_by_label("Fait traîner la partie").check()
    keep_screenshot(reporter, "quick-report")
    dialog.get_by_role("button", name="Envoyer le signalement").click()
    expect(reporter.get_by_text("Signalement enregistré. Merci.")).to_be_visible()
    assert reporter.js_errors == []  # type: ignore[attr-defined]


def test_stopping_the_wait(make_page: Callable[..., Page], quick_server: str) -> None:
    page = make_page(quick_server)
    signed_up(page, "Dorian")
    page.goto("/partie-rapide")
    page.get_by_role("button", name="Trouver une partie").click()
    expect(page.get_by_role("heading", name="Recherche de joueurs…")).to_be_visible()
    page.get_by_role("button", name="Ne plus attendre").click()
    expect(page.get_by_role("button", name="Trouver une partie")).to_be_visible()
    assert page.js_errors == []  # type: ignore[attr-defined]
