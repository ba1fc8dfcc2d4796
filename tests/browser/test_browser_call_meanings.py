"""What a call says, at the table in Chromium (issue 32, item 4): a computer's call read by
the keyboard (its button in the auction's table) and by the key 7 (the last call), shown
and said to a screen reader; the player's own call is read after the deal; in French and
English."""

from __future__ import annotations

import re
from typing import Any

import pytest
from accessibility import assert_accessible
from playwright.sync_api import Page, Route, expect
from table_driver import keep_screenshot, start_solo

WORDS = {
    "fr": ("Ce que l'ordinateur expert en déduit", "se lira après la donne", "relance|ouvre|passe|surenchérit|coinche"),
    "en": ("What the expert computer reads into it", "shows after the deal", "raises|opens|pass|outbids|coinche"),
}


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_computers_call_explained_by_keyboard_and_by_key(page: Page, lang: str) -> None:
    page.goto(f"/langue/{lang}?next=/")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    table = start_solo(page, lang=lang, profile="classic", target=700)
    expect(table.pass_button()).to_be_visible(timeout=30_000)  # the player's turn to call
    expert_words, later_words, said = WORDS[lang]
    asks = page.locator("#history button.call-ask")
    panel = page.locator("#call-meaning")
    mine = None
    if asks.count() == 0:  # the player speaks first: a bid (four passes would end the deal), then a computer speaks
        lowest = table.lowest_bid()
        assert lowest is not None
        table.call(lowest)
        expect(asks.nth(1)).to_be_attached(timeout=30_000)
        mine, computer = asks.nth(0), asks.nth(1)
    else:  # the seat before the player's is a computer's
        computer = asks.last
    since = len(table.live_log())
    table.press(computer)
    expect(panel).to_be_visible()
    expect(panel).to_contain_text(expert_words)
    table.wait_for_live(expert_words.lower(), since=since)
    assert_accessible(page)
    keep_screenshot(page.locator("#history"), f"call-meaning-{lang}")
    panel.get_by_role("button").click()
    expect(panel).to_be_hidden()
    page.keyboard.press("7")
    expect(panel).to_be_visible()
    expect(panel).to_contain_text(re.compile(said, re.IGNORECASE))
    if mine is not None:
        table.press(mine)
        expect(panel).to_contain_text(later_words)
    assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]


REACHED = """(el) => {
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return hit !== null && (hit === el || el.contains(hit));
}"""
"""Whether a click at the element's middle reaches it (nothing lies over it)."""


@pytest.mark.parametrize("size", [(1280, 900), (1366, 768), (844, 390)], ids=["1280x900", "1366x768", "844x390"])
def test_a_long_meaning_keeps_its_close_button_in_reach(make_page: Any, server: str, size: tuple[int, int]) -> None:
    """The panel grows down beside the table in the contract's box as long as the reading is:
    its "Fermer" stays in the window where a click reaches it (it once ended under the tools'
    bar, which took the click, and a longer reading took it past the table's bottom). The
    server's reading, lengthened fourfold on its way to the page: which calls read long is
    chance."""
    width, height = size
    page = make_page(server, viewport={"width": width, "height": height})

    def lengthened(route: Route) -> None:
        answer = route.fetch()
        data = answer.json()
        for call in data["calls"]:
            if "expert" in call:
                call["expert"] = call["expert"] * 4
        route.fulfill(response=answer, json=data)

    page.route(re.compile(r"/donne/\d+/encheres$"), lengthened)
    table = start_solo(page, profile="classic", target=700)
    expect(table.pass_button()).to_be_visible(timeout=30_000)
    page.keyboard.press("7")  # the last call: a computer's, or (the player first to speak) none yet
    panel = page.locator("#call-meaning")
    if not panel.is_visible():  # the player's call, then the computers': the last is theirs
        table.call(table.lowest_bid() or table.pass_button())
        expect(page.locator("#history button.call-ask").nth(1)).to_be_attached(timeout=30_000)
        page.keyboard.press("7")
    expect(panel).to_be_visible()
    close = panel.get_by_role("button", name="Fermer")
    close.scroll_into_view_if_needed()  # in its box, which scrolls: the table does not move
    assert page.evaluate("() => document.querySelector('.table').scrollTop") == 0, "the table moved"
    keep_screenshot(page, f"call-meaning-long-{width}x{height}")
    assert close.evaluate(REACHED), "a click on Fermer lands on something else"
    close.click()
    expect(panel).to_be_hidden()
    assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]
