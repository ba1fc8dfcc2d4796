"""Your mistakes as puzzles (issue 50) in the browser: after a deal played with the
driver's fixed choices, "Vos erreurs" lists the person's costly cards; one is played again
from the keyboard alone, missed, then solved with the best card the answer named; the
progress page, in French and English, at a laptop's and a phone's size."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from browser_helpers import new_page
from playwright.sync_api import Page, expect
from table_driver import keep_screenshot, start_solo

MAX_DEALS = 8
LIST_WAIT = 20.0


@pytest.fixture(scope="module")
def generous_server(tmp_path_factory: pytest.TempPathFactory, server_factory: Callable[..., Any]) -> Iterator[str]:
    with server_factory(tmp_path_factory.mktemp("mistakes"), "--free-deals", "100", "--deal-accuracy") as base:
        yield base


def press(page: Page, target: Any) -> None:
    target.focus()
    expect(target).to_be_focused()
    page.keyboard.press("Enter")


def card_rows(p: Page, lang: str) -> Any:
    return p.locator("table.mistakes-list tbody tr", has_text="Une carte" if lang == "fr" else "A card")


def test_a_costly_card_played_again_from_the_keyboard(generous_server: str, make_page: Callable[..., Page]) -> None:
    """Deals played until one costly card (in French at a laptop's size); the mistake played
    again there, then by the same person in English on a phone's screen."""
    page = make_page(generous_server, viewport={"width": 1366, "height": 768})
    table = start_solo(page, profile="classic", target=3000)
    lists = page.context.new_page()  # the list, beside the table
    for _ in range(MAX_DEALS):
        assert table.play_deal(bid=True).end == "next"
        # the deal's accuracy first, then its mistakes (the workers keep them just after)
        expect(table.summary().locator(".accuracy-line")).to_have_class(re.compile(r"\bready\b"), timeout=60_000)
        lost = re.search(r"(\d+) points perdus", table.summary().locator(".accuracy-line").inner_text())
        if lost and int(lost[1]) >= 10:
            deadline = time.monotonic() + LIST_WAIT  # the mistake's values come from a worker
            while time.monotonic() < deadline:
                lists.goto("/mes-erreurs")
                if card_rows(lists, "fr").count():
                    break
        if card_rows(lists, "fr").count():
            break
        table.next_deal()
    else:
        raise AssertionError(f"no costly card in {MAX_DEALS} deals played with the driver's first cards")
    answered(page, "fr", 1366, 768)
    phone = new_page(page.context, generous_server)  # the same person, on a phone's screen, in English
    phone.set_viewport_size({"width": 390, "height": 844})
    phone.goto("/langue/en?next=/my-mistakes")
    answered(phone, "en", 390, 844)


def answered(page: Page, lang: str, width: int, height: int) -> None:
    """The mistake opened from the list and answered from the keyboard, wrong then right;
    the progress page after it, in the page's language, fitting the screen."""
    listing = "/mes-erreurs" if lang == "fr" else "/my-mistakes"
    page.goto(listing)
    card_row = card_rows(page, lang)
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
    page.goto("/progres" if lang == "fr" else "/progress")
    expect(page.get_by_role("heading", level=1)).to_have_text("Vos progrès" if lang == "fr" else "Your progress")
    expect(page.locator("table.progress-faults, .progress-page p").first).to_be_visible()
    wide = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"the progress page is {wide} px wider than the screen"
    keep_screenshot(page, f"progress-{lang}-{width}x{height}", full_page=True)
    assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]
