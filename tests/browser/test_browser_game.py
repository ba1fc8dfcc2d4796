"""A whole game on a short target (online rules, 501): every deal up to its summary and
"Donne suivante", until the game-over screen's "Nouvelle partie". The guest's three free
deals would not do: this test has its own server with ``--free-deals 100``."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from accessibility import assert_accessible
from playwright.sync_api import Page, expect
from table_driver import keep_screenshot, start_solo
from test_browser_summary import IN_VIEW

MAX_DEALS = 30
FREE_DEALS = 100


@pytest.fixture(scope="module")
def generous_server(tmp_path_factory: pytest.TempPathFactory, server_factory: Callable[..., Any]) -> Iterator[str]:
    with server_factory(tmp_path_factory.mktemp("generous"), "--free-deals", str(FREE_DEALS)) as base:
        yield base


def check_score_chart(page: Page, deals: int) -> None:
    """The score sheet's chart: one point per deal for each team, ending on the sheet's
    totals, the target line, a text alternative; each deal's number links to its review."""
    summary = page.get_by_role("dialog")
    chart = summary.locator("figure.score-chart svg")
    expect(chart).to_be_visible()
    assert chart.locator("g.team-us circle").count() == deals
    assert chart.locator("g.team-them circle").count() == deals
    assert chart.locator("line.target").count() == 1
    us, them = (int(summary.locator("table.score-sheet tfoot td").nth(i).inner_text()) for i in (0, 1))
    desc = chart.locator("desc").text_content() or ""
    assert f"nous {us}, eux {them}, objectif 501" in desc, desc
    # The last point of each line sits higher for the higher total (SVG y grows downwards).
    ys = [float(chart.locator(f"g.{team} circle").last.get_attribute("cy") or 0) for team in ("team-us", "team-them")]
    assert (ys[0] < ys[1]) == (us > them) or us == them
    links = summary.locator("table.score-sheet tbody th a")
    assert links.count() == deals
    assert re.search(r"/table/[^/]+/donne/1$", links.first.get_attribute("href") or "")
    keep_screenshot(summary, "game-over-score-chart")
    assert_accessible(page)


def test_a_whole_game_to_its_end(generous_server: str, make_page: Callable[..., Page]) -> None:
    page = make_page(generous_server, viewport={"width": 1366, "height": 768})
    table = start_solo(page, profile="online", target=501)
    expect(page).to_have_url(re.compile(r"/table/[^/]+$"))
    ends = []
    for _ in range(MAX_DEALS):
        played = table.play_deal(bid=True)
        ends.append(played.end)
        if played.end == "over":
            break
        assert played.end == "next", played
        expect(table.summary().get_by_role("button", name="Donne suivante", exact=True)).to_be_visible()
        table.next_deal()
    else:
        pytest.fail(f"no end of game after {MAX_DEALS} deals")
    assert len(ends) >= 2, "a game to 501 takes more than one deal"

    # The game-over screen: the summary dialog, with "Nouvelle partie" and no next deal.
    new_game = (
        table.summary()
        .get_by_role("link", name="Nouvelle partie", exact=True)
        .or_(table.summary().get_by_role("button", name="Nouvelle partie", exact=True))
    )
    expect(new_game).to_be_visible()
    expect(table.next_deal_button()).to_have_count(0)
    # at 1366 x 768 the game-over window opens at its top: "Partie terminée", who won
    for first in (table.summary().locator("#summary-title"), table.summary().locator(".winner")):
        where = first.evaluate(IN_VIEW)
        assert where["inside"], f"not in sight when the game-over window opens: {where}"
    check_score_chart(page, len(ends))
    table.press(new_game)
    page.wait_for_url(re.compile(r"/(table/[^/]+)?$"))  # the home page's form, or a new table

    # The server's --free-deals counted every deal of the game.
    page.goto("/")
    expect(page.get_by_text(f"Donnes gratuites restantes : {FREE_DEALS - len(ends)}")).to_be_visible()
    assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]
