"""Accuracy (issue 50) in the browser: the summary of a deal fills in the reader's accuracy
once the workers have it, and the review shows each seat's and lists the moves that cost,
each a button that takes the review to its step (from the keyboard)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from table_driver import keep_screenshot, start_solo

ACCURACY_WAIT = 60_000


@pytest.fixture(scope="module")
def valuing_server(tmp_path_factory: pytest.TempPathFactory, server_factory: Callable[..., Any]) -> Iterator[str]:
    """A server that values each deal as it ends (the others' tests run without)."""
    with server_factory(tmp_path_factory.mktemp("accuracy"), "--deal-accuracy") as base:
        yield base


def test_the_summary_and_the_review_show_the_accuracy(valuing_server: str, make_page: Callable[..., Page]) -> None:
    page = make_page(valuing_server)
    table = start_solo(page, profile="classic", target=700)
    played = table.play_deal(bid=True)
    assert played.end == "next", played
    line = table.summary().locator(".accuracy-line")
    expect(line).to_have_class(re.compile(r"\bready\b"), timeout=ACCURACY_WAIT)
    expect(line).to_contain_text("Votre précision :")
    expect(line).to_contain_text(re.compile(r"cartes \d+/\d+ au meilleur|aucune carte"))
    keep_screenshot(page, "accuracy-summary")

    review = table.summary().locator("a.review-link")
    review.focus()
    review.press("Enter")
    page.wait_for_url(re.compile(r"/table/[^/]+/donne/1$"))
    rows = page.locator("#accuracy-body table tbody tr")
    expect(rows).to_have_count(4, timeout=ACCURACY_WAIT)
    costly = page.locator("#accuracy-body .costly button")
    if costly.count():
        first = costly.first
        mark = first.locator("xpath=..").locator(".mark").inner_text()
        first.focus()
        first.press("Enter")
        expect(page.locator("#step-mark")).to_contain_text(mark)
        expect(page.locator("#step-text")).to_be_focused()
    else:
        expect(page.locator("#accuracy-body")).to_contain_text("Aucun coup n'a coûté")
    keep_screenshot(page, "accuracy-review", full_page=True)
    assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]
