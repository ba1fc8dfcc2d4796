"""The daily challenge in a browser: a guest opens ``/defi``, sees the day's commitment,
plays its four deals against the expert, ends on the link back to the challenge page,
which then shows their four results and refuses a second attempt."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Page, expect
from table_driver import Table

from coinche.server.daily import DEALS


def test_a_guest_plays_the_day_s_four_deals(server: str, make_page: Callable[..., Page]) -> None:
    page = make_page(server)
    page.goto(f"{server}/defi")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Le défi du jour")
    assert page.locator("code.hash").count() >= 2  # today's and tomorrow's commitments
    page.get_by_role("button", name="Jouer le défi").click()
    expect(page).to_have_url(re.compile(r"/table/[^/]+$"))
    table = Table(page)
    ends = []
    for _ in range(DEALS):
        played = table.play_deal(bid=True)
        ends.append(played.end)
        if played.end == "over":
            break
        assert played.end == "next", played
        table.next_deal()
    assert ends == ["next"] * (DEALS - 1) + ["over"], ends
    link = table.summary().get_by_role("link", name=re.compile("Défi terminé"))
    expect(link).to_be_visible()
    link.click()
    expect(page).to_have_url(re.compile(r"/defi$"))
    expect(page.get_by_role("status")).to_contain_text("déjà joué")
    assert page.locator("table.daily-results tbody tr").count() == DEALS
    assert page.get_by_role("button", name="Jouer le défi").count() == 0
    assert not page.js_errors  # type: ignore[attr-defined]
