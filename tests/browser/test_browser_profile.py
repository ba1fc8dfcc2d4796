"""The profile page in a browser (issue 18, item 5): an account plays a short game to its
end, opens its profile from the header, and sees its rating, the chart and its counters;
the page passes the accessibility checks, with no horizontal scroll on a phone."""

from __future__ import annotations

import time
from collections.abc import Callable

from accessibility import assert_accessible, assert_no_horizontal_scroll
from playwright.sync_api import Page, expect
from table_driver import start_solo
from test_browser_accounts import Site, assert_clean, new_account, site  # noqa: F401 (a fixture)


def test_an_account_sees_its_rating_chart_and_stats_after_a_game(site: Site, make_page: Callable[..., Page]) -> None:  # noqa: F811
    page = make_page(site.base)
    new_account(page, "Philomène")
    table = start_solo(page, profile="classic", target=100)  # one played deal ends the game
    played = table.play_deal(bid=True)
    deadline = time.monotonic() + 120
    while played.end != "over" and time.monotonic() < deadline:
        assert played.end == "next", played
        table.next_deal()
        played = table.play_deal(bid=True)
    assert played.end == "over", played

    page.goto("/compte")
    page.get_by_role("link", name="Profil", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Profil de Philomène")
    assert_clean(page)
    ((mu, sigma, games, display),) = site.query(
        "SELECT s.mu, s.sigma, s.games_played, h.display FROM player_stats s JOIN rating_history h"
        " ON h.player_id = s.player_id JOIN accounts a ON a.player_id = s.player_id WHERE a.name = 'Philomène'"
    )
    assert games == 1 and mu != 25.0 and sigma < 25 / 3
    expect(page.locator(".rating-figure")).to_have_text(str(display))
    expect(page.get_by_text("provisoire", exact=True)).to_be_visible()
    chart = page.get_by_role("img", name="Évolution du classement de Philomène")
    expect(chart).to_be_visible()
    assert chart.evaluate("e => e.tagName.toLowerCase()") == "svg"
    expect(page.locator('[data-stat="games"]')).to_have_text("1")
    expect(page.get_by_role("term").filter(has_text="Contrats pris")).to_be_visible()
    expect(page.get_by_role("table", name="Défis du jour joués (12 dernières semaines)")).to_be_visible()
    assert_accessible(page)
    page.set_viewport_size({"width": 360, "height": 740})
    assert_no_horizontal_scroll(page)
    page.goto("/player/philomène")
    expect(page.get_by_role("heading", level=1)).to_have_text("Philomène's profile")
