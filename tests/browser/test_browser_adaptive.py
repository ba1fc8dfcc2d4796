"""The adaptive level says what it follows (issue 33, item 5): after a deal at an adaptive
table, the score corner shows the player's score against the deal's par, and opens (a
native disclosure, from the keyboard) on why: the level follows the play, not the cards."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from table_driver import keep_screenshot, start_solo

FREE_DEALS = 20


@pytest.fixture(scope="module")
def adaptive_server(tmp_path_factory: pytest.TempPathFactory, server_factory: Callable[..., Any]) -> Iterator[str]:
    with server_factory(tmp_path_factory.mktemp("adaptive"), "--free-deals", str(FREE_DEALS)) as base:
        yield base


@pytest.mark.parametrize(
    ("lang", "before", "after", "why"),
    [
        ("fr", "Suit votre jeu face au par", r"Dernière donne : [+\u2212]?\d+ face au par\.", "ne le font pas baisser"),
        ("en", "Follows your play against par", r"Last deal: [+\u2212]?\d+ against par\.", "cards do not lower it"),
    ],
)
def test_the_level_says_it_follows_the_score_against_par(
    adaptive_server: str, make_page: Callable[..., Page], lang: str, before: str, after: str, why: str
) -> None:
    page = make_page(adaptive_server)
    page.goto(f"/langue/{lang}?next=/")
    table = start_solo(page, lang, level="adaptive", target=2000)
    follows = page.locator("#level-follows")
    expect(follows.locator("summary")).to_have_text(before)
    table.play_deal()
    table.press(table.next_deal_button())
    expect(follows).to_be_visible()
    # the deal has a contract (the player bids); its par comes from the workers soon after
    expect(follows.locator("summary")).to_have_text(re.compile(after), timeout=20_000)
    # at the player's turn (the table moves the focus to the bidding box when it comes)
    expect(table.pass_button()).to_be_visible(timeout=30_000)
    follows.locator("summary").press("Enter")
    expect(follows.locator("p")).to_be_visible()
    expect(follows.locator("p")).to_contain_text(why)
    keep_screenshot(follows, f"adaptive-follows-{lang}")
    keep_screenshot(page, f"adaptive-table-{lang}")
