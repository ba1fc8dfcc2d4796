"""The daily challenge in a browser: a guest opens ``/defi``, sees the day's commitment,
plays its four deals against the computers (the tests' server sets them to the confirmed
level), ends on the link back to the challenge page,
which then shows their four results and refuses a second attempt."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect
from table_driver import Table, keep_screenshot

from coinche.server.features.daily.model import DEALS

PASSWORD = "correct horse battery"


def test_a_guest_plays_the_day_s_four_deals(server: str, make_page: Callable[..., Page]) -> None:
    page = make_page(server)
    page.goto(f"{server}/defi")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Le défi du jour")
    assert page.locator("code.hash").count() >= 2  # today's and tomorrow's commitments
    page.get_by_role("button", name="Jouer le défi").click()
    expect(page).to_have_url(re.compile(r"/table/[^/]+$"))
    table = Table(page)
    # A challenge has four deals and no target: the score says which deal of the four it is.
    score = page.locator("#score")
    expect(score).to_contain_text(f"Défi du jour · donne 1 sur {DEALS}")
    expect(score).not_to_contain_text("Objectif")
    ends = []
    for _ in range(DEALS):
        played = table.play_deal(bid=True)
        ends.append(played.end)
        if played.end == "over":
            break
        assert played.end == "next", played
        table.next_deal()
    assert ends == ["next"] * (DEALS - 1) + ["over"], ends
    summary = table.summary()
    link = summary.get_by_role("link", name=re.compile("Défi terminé"))
    expect(link).to_be_visible()
    # No game to start again and no target to reach: what fits a challenge instead.
    expect(summary).not_to_contain_text("Nouvelle partie")
    expect(summary).not_to_contain_text("Objectif")
    expect(summary.get_by_role("link", name="Classement du jour", exact=True)).to_be_visible()
    expect(summary.get_by_role("table", name=re.compile("Feuille de marque du défi"))).to_be_visible()
    expect(score).to_contain_text(f"donne {DEALS} sur {DEALS}")
    link.click()
    expect(page).to_have_url(re.compile(r"/defi$"))
    expect(page.get_by_role("status")).to_contain_text("déjà joué")
    assert page.locator("table.daily-results tbody tr").count() == DEALS
    assert page.get_by_role("button", name="Jouer le défi").count() == 0
    assert not page.js_errors  # type: ignore[attr-defined]


def play_challenge(page: Page) -> list[str]:
    """From ``/defi``, play the day's four deals with the driver's fixed choices (the lowest
    bid at the first call, then passes, the first playable card); the summaries' texts."""
    page.goto("/defi")
    page.get_by_role("button", name=re.compile("(Jouer|Reprendre) le défi")).click()
    expect(page).to_have_url(re.compile(r"/table/[^/]+$"))
    table = Table(page)
    summaries = []
    for n in range(1, DEALS + 1):
        played = table.play_deal(bid=True)
        summaries.append(table.summary().inner_text())
        if n < DEALS:
            assert played.end == "next", played
            table.next_deal()
        else:
            assert played.end == "over", played
    return summaries


def deal_records(page: Page) -> list[dict[str, Any]]:
    """The records of the four deals of the page's table, as its player downloads them."""
    table_id = page.url.rstrip("/").rsplit("/", 1)[1]
    out = []
    for n in range(1, DEALS + 1):
        answer = page.request.get(f"/table/{table_id}/donne/{n}/record.json")
        assert answer.ok, answer.status
        out.append(answer.json())
    return out


def test_two_accounts_same_deals_same_moves_ranking_comparison_and_par(
    server_factory: Any, tmp_path: Path, make_page: Callable[..., Page]
) -> None:
    """Two accounts, each in their own browser: the same four deals, and for the same
    calls and cards the same computer moves; both ranked, each deal compared with the par;
    a second attempt refused with a clear message."""
    # The computers at the confirmed level keep the test short: what the test checks
    # (the same moves for the same actions) does not depend on the level.
    with server_factory(tmp_path, "--challenge-level", "confirmed") as base:
        anne, bruno = make_page(base), make_page(base)
        stale = make_page(base)  # Bruno's second tab, opened before he plays
        for page, name in ((anne, "Anne"), (bruno, "Bruno")):
            page.goto("/inscription")
            page.get_by_label("Nom", exact=True).fill(name)
            page.get_by_label("Mot de passe", exact=True).fill(PASSWORD)
            page.get_by_label("Confirmer le mot de passe", exact=True).fill(PASSWORD)
            page.get_by_role("button", name="Créer mon compte").click()
            expect(page).to_have_url(re.compile(r"/compte$"))
        stale.context.add_cookies(bruno.context.cookies())
        stale.goto("/defi")
        expect(stale.get_by_role("button", name="Jouer le défi")).to_be_visible()

        summaries = {name: play_challenge(page) for page, name in ((anne, "Anne"), (bruno, "Bruno"))}
        assert summaries["Anne"] == summaries["Bruno"]
        records = {name: deal_records(page) for page, name in ((anne, "Anne"), (bruno, "Bruno"))}
        for a, b in zip(records["Anne"], records["Bruno"], strict=True):
            assert a["hands"] == b["hands"] and a["dealer"] == b["dealer"]
            assert a["dealing"] == b["dealing"]  # the day's deal: the same label, seed, commitment
            assert a["auction"] == b["auction"] and a["play"] == b["play"]  # every computer move alike

        # The last deal's summary leads to its comparison: both players, the par, the review.
        compare = bruno.get_by_role("link", name="Comparer avec les autres joueurs")
        expect(compare).to_be_visible()
        compare.click()
        expect(bruno).to_have_url(re.compile(r"/defi/\d{4}-\d\d-\d\d/donne/4$"))
        expect(bruno.get_by_role("heading", name="Votre résultat")).to_be_visible()
        expect(bruno.get_by_text("50 % des points de match")).to_be_visible()  # a tie with Anne
        expect(bruno.get_by_role("heading", name="Le par (double mort)")).to_be_visible()
        expect(bruno.locator("ul.daily-par li")).to_have_count(2)
        expect(bruno.locator("table.daily-field tbody tr")).to_have_count(1)
        expect(bruno.locator("table.daily-field tbody td").nth(4)).to_have_text("2")
        keep_screenshot(bruno, "daily-comparison", full_page=True)
        bruno.get_by_role("link", name="Revoir la donne").click()
        expect(bruno).to_have_url(re.compile(r"/table/[^/]+/donne/4$"))

        # The day's page: both ranked, equal.
        bruno.goto("/defi")
        rows = bruno.locator("table.daily-ranking tbody tr")
        expect(rows).to_have_count(2)
        expect(rows.nth(0)).to_contain_text("50,0\u00a0%")  # French numbers: a comma, a no-break space
        expect(rows.nth(1)).to_contain_text("50,0\u00a0%")
        expect(bruno.locator("table.daily-ranking")).to_contain_text("Anne")
        expect(bruno.locator("table.daily-ranking tr[aria-current]")).to_contain_text("Bruno")
        keep_screenshot(bruno, "daily-day", full_page=True)

        # Bruno's page from before he played: a second attempt is refused, said clearly.
        stale.get_by_role("button", name="Jouer le défi").click()
        expect(stale.get_by_role("alert")).to_contain_text("Vous avez déjà joué le défi d'aujourd'hui")
        for page in (anne, bruno, stale):
            assert not page.js_errors  # type: ignore[attr-defined]
