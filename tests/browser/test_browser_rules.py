"""The rules pages in Chromium (issue 8, part 3): every page in French and English has no
missing translation, its worked examples and legal cards are the engine's answers, it
passes axe-core with no serious violation, and on a phone it never scrolls sideways."""

from __future__ import annotations

import re

import pytest
from accessibility import assert_accessible, assert_no_horizontal_scroll
from playwright.sync_api import Page, expect
from table_driver import keep_screenshot

from coinche.engine.rules import PROFILES
from coinche.engine.scoring import calculate
from coinche.server.table import rules_content
from coinche.server.web import rules_pages

PAGES = [(lang, profile) for lang in ("fr", "en") for profile in (None, *PROFILES)]
RAW = re.compile(r"\b(rules|rank|suit|trump|meld|profile|score|base)\.[a-z_]+|\{[a-z_]*\}")
"""A catalogue key shown as is, or a placeholder left unfilled."""


def page_id(lang: str, profile: str | None) -> str:
    return f"{lang}-{profile or 'all'}"


def check_page(page: Page, lang: str, profile: str | None) -> None:
    """What every rules page must hold, wherever it is shown."""
    expect(page.locator("html")).to_have_attribute("lang", lang)
    text = page.locator("body").inner_text()
    assert not RAW.search(text), RAW.search(text)
    if profile is None:
        return
    rules = PROFILES[profile]
    content = rules_content.content(rules)
    # every example's data and text in one look (a round trip each made the page slow to check)
    shown = page.locator("[data-example]").evaluate_all(
        "els => els.map(e => ({data: {...e.dataset}, text: e.textContent}))"
    )
    assert [x["data"]["example"] for x in shown] == [ex.id for ex in content.examples]
    for x in shown:
        data = x["data"]
        score = calculate(
            rules,
            data["contract"],
            int(data["points"]),
            int(data["multiplier"]),
            taker_belotes=int(data.get("takerBelotes") or 0),
            taker_melds=int(data.get("takerMelds") or 0),
            sweep=(data.get("sweep") or None),  # type: ignore[arg-type]
        )
        assert data["taker"] == str(score.taker) and data["defense"] == str(score.defense), (data, score)
        assert data["made"] == ("true" if score.made else "false"), (data, score)
        # What a reader sees says the same numbers.
        assert str(score.taker) in x["text"] and str(score.defense) in x["text"], x["text"]
    legal = page.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('[data-play]')].map(f => [f.dataset.play,"
        " [...f.querySelectorAll('.hand [data-legal=\"true\"] [data-card]')].map(e => e.dataset.card)]))"
    )
    for play in content.plays:
        assert sorted(legal[play.id]) == sorted(play.legal), play.id


@pytest.mark.parametrize(("lang", "profile"), PAGES, ids=[page_id(*p) for p in PAGES])
def test_rules_page_desktop(page: Page, lang: str, profile: str | None) -> None:
    page.goto(rules_pages.rules_url(lang, profile))
    check_page(page, lang, profile)
    assert_accessible(page)
    assert page.locator("script").count() == 0
    keep_screenshot(page, f"rules-{page_id(lang, profile)}-desktop", full_page=True)


@pytest.mark.parametrize(("lang", "profile"), PAGES, ids=[page_id(*p) for p in PAGES])
def test_rules_page_phone(phone_page: Page, lang: str, profile: str | None) -> None:
    """On a phone the page must not scroll sideways. Its numbers and its axe-core check are
    the desktop test's (the same HTML): they are run again here for the overview only."""
    phone_page.goto(rules_pages.rules_url(lang, profile))
    check_page(phone_page, lang, None)
    assert_no_horizontal_scroll(phone_page)
    if profile is None:
        assert_accessible(phone_page)
    keep_screenshot(phone_page, f"rules-{page_id(lang, profile)}-phone", full_page=True)


def test_the_overview_leads_to_each_profile_and_back(page: Page) -> None:
    page.goto("/rules")
    page.get_by_role("link", name="House rules").click()
    expect(page).to_have_url(re.compile(r"/rules/house$"))
    page.get_by_role("link", name="Français").click()
    expect(page).to_have_url(re.compile(r"/regles/house$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Règles Maison")
