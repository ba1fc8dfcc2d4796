"""The three free deals: after the third deal played (a void deal gives its free deal
back), the summary offers "Créer un compte pour continuer" (a link to the sign-up page,
which comes back to the table) instead of "Donne suivante", and a new solo game lands on
the sign-up page."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect
from table_driver import start_solo

FREE_DEALS = 3


def test_three_free_deals_then_an_account(page: Page) -> None:
    table = start_solo(page, profile="classic", target=3000)
    for n in range(1, 4 * FREE_DEALS):  # a void deal (everybody passed) comes back
        played = table.play_deal(bid=True)  # South bids: a deal that counts
        expect(table.summary()).to_be_visible()
        if played.end == "account":
            break
        assert played.end == "next", (n, played)
        expect(table.account_link()).to_have_count(0)
        table.next_deal()
    assert played.end == "account", played
    assert n >= FREE_DEALS, n

    link = table.summary().get_by_role("link", name="Créer un compte pour continuer", exact=True)
    expect(link).to_be_visible()
    expect(link).to_have_attribute("href", re.compile(r"^(https?://[^/]+)?/inscription\?next=%2Ftable%2F[\w-]+$"))
    expect(table.next_deal_button()).to_have_count(0)

    # The limit is the server's: a reload offers the account again, not the next deal.
    page.reload()
    expect(table.account_link()).to_be_visible()
    expect(table.next_deal_button()).to_have_count(0)

    table.press(table.account_link())
    page.wait_for_url(re.compile(r"/inscription\?next="))
    expect(page.get_by_role("heading", level=1)).to_have_text("Créer un compte")
    expect(page.get_by_text("Vous avez joué vos donnes gratuites.")).to_be_visible()

    page.goto("/")
    expect(page.get_by_text("Donnes gratuites restantes : 0")).to_be_visible()
    start_solo(page)
    expect(page).to_have_url(re.compile(r"/inscription\?next=/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Créer un compte")
    assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]
