"""axe-core on the pages of the table issue, in both languages: the home page, the account
page, the 404 page, the table during the auction and during the card play, the end-of-deal
summary with its score sheet and chart, and the help dialog; no serious violation, and at
phone size no horizontal scroll. (The review, calculator and rules pages check themselves
in their own tests.)"""

from __future__ import annotations

import pytest
from accessibility import animations_done, assert_accessible, assert_no_horizontal_scroll
from playwright.sync_api import Page, expect
from table_driver import DealPlayed, Table, start_solo

LANGS = ["fr", "en"]


def set_language(page: Page, lang: str) -> None:
    page.goto(f"/langue/{lang}?next=/")
    expect(page.locator("html")).to_have_attribute("lang", lang)


@pytest.mark.parametrize("lang", LANGS)
def test_plain_pages(page: Page, phone_page: Page, lang: str) -> None:
    for p in (page, phone_page):
        set_language(p, lang)
        for path in ("/", "/compte", "/no-such-page"):
            p.goto(path)
            assert_accessible(p)
            assert_no_horizontal_scroll(p)


@pytest.mark.parametrize("lang", LANGS)
def test_the_table_in_each_phase(page: Page, lang: str) -> None:
    set_language(page, lang)
    table = start_solo(page, lang=lang, profile="classic", target=700)
    table.hand().first.wait_for(state="visible")
    checked: list[str] = []

    def check_play(t: Table, done: DealPlayed) -> None:
        if "play" not in checked:  # once, at the player's first card
            checked.append("play")
            assert_accessible(t.page)

    expect(table.pass_button()).to_be_visible(timeout=30_000)
    assert_accessible(page)  # the auction, with the bidding box open
    played = table.play_deal(bid=True, before_card=check_play)
    assert played.end == "next", played
    assert checked == ["play"]
    expect(table.summary()).to_be_visible()
    assert_accessible(page)  # the summary dialog: score sheet, chart, review link
    page.keyboard.press("Escape")
    page.get_by_role("button", name="?").or_(page.locator("#help-button")).first.click()
    expect(page.locator("#help")).to_be_visible()
    animations_done(page, "#help")  # the opening fade is over: axe reads the colours as they end
    assert_accessible(page)
    assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]
