"""Your mistakes as puzzles (issue 50) in the browser: after a deal played with the
driver's fixed choices, "Vos erreurs" lists the person's costly cards; one is played again
from the keyboard alone, missed, then solved with the best card the answer named."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from table_driver import keep_screenshot, start_solo

MAX_DEALS = 4


@pytest.fixture(scope="module")
def generous_server(tmp_path_factory: pytest.TempPathFactory, server_factory: Callable[..., Any]) -> Iterator[str]:
    with server_factory(tmp_path_factory.mktemp("mistakes"), "--free-deals", "100") as base:
        yield base


def press(page: Page, target: Any) -> None:
    target.focus()
    expect(target).to_be_focused()
    page.keyboard.press("Enter")


@pytest.mark.parametrize(("lang", "width", "height"), [("fr", 1366, 768), ("en", 390, 844)])
def test_a_costly_card_played_again_from_the_keyboard(
    generous_server: str, make_page: Callable[..., Page], lang: str, width: int, height: int
) -> None:
    page = make_page(generous_server, viewport={"width": width, "height": height})
    table = start_solo(page, profile="classic", target=3000)
    listing = "/mes-erreurs" if lang == "fr" else "/my-mistakes"
    card_row = page.locator("table.mistakes-list tbody tr", has_text="Une carte" if lang == "fr" else "A card")
    for _ in range(MAX_DEALS):
        assert table.play_deal(bid=True).end == "next"
        page.goto(listing)
        if card_row.count():
            break
        page.go_back()
        table.next_deal()
    else:
        pytest.skip("no costly card in the deals played (the driver's first cards were all sound)")
    keep_screenshot(page, f"mistakes-list-{lang}-{width}x{height}")
    press(page, card_row.first.locator("a").first)
    page.wait_for_url(re.compile(rf"{listing}/[^/]+$"))
    mistake_url = page.url
    cards = page.locator("form.mistake-hand button.card-button")
    expect(cards.first).to_be_visible()
    keep_screenshot(page, f"mistake-{lang}-{width}x{height}")
    press(page, cards.last)  # any card: the answer names the best
    answer = page.get_by_role("status")
    expect(answer).to_be_visible()
    best = page.locator("table.puzzle-values tr.solution").first.get_attribute("data-answer")
    assert best
    page.goto(mistake_url)
    press(page, page.locator(f'form.mistake-hand button.card-button[value="{best}"]'))
    expect(page.locator("#answer-title")).to_have_class(re.compile(r"\bsolved\b"))
    expect(page.locator(".mistake-line li").first).to_be_visible()  # the solver's line, trick by trick
    keep_screenshot(page, f"mistake-solved-{lang}-{width}x{height}", full_page=True)
    assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]
