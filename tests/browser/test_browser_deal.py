"""A guest plays a whole deal from the keyboard: the solo form's "Jouer", every call and
every card by focusing its button and pressing Enter or Space, up to the summary."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect
from table_driver import DealPlayed, Table, bid_pattern, card_sentence, keep_screenshot, start_solo

ME = r"Sud \(vous\)"
COMPUTERS = r"Est|Ouest|Nord \(partenaire\)"


def test_a_guest_plays_a_whole_deal_with_the_keyboard(page: Page) -> None:
    table = start_solo(page, profile="classic", target=700)
    expect(page).to_have_url(re.compile(r"/table/[^/]+$"))
    expect(page.locator("meta[charset]")).to_have_attribute("charset", re.compile("^utf-8$", re.IGNORECASE))
    expect(page.locator("#live")).to_have_attribute("aria-live", "polite")
    expect(table.hand()).to_have_count(8)

    def at_my_turn(t: Table, done: DealPlayed) -> None:
        if not done.cards:
            keep_screenshot(t.page, "table-desktop")
            # "Conseil" from the keyboard: the expert's card, one of the legal ones, marked in
            # the hand and said in one plain sentence.
            t.press(t.page.get_by_role("button", name="Conseil", exact=True))
            hint = t.notice()  # the live region says it too, out of sight
            expect(hint).to_have_text(re.compile(r"(Jouez|Entamez avec|Coupez avec) .+ : .+\."))
            expect(hint).to_be_visible()
            expect(t.page.locator("button.hinted")).to_have_count(1)
            expect(t.page.locator("button.hinted")).to_be_enabled()
            # The live region said the first call.
            said = t.wait_for_live(done.calls[0])
            assert said == f"Sud (vous) : {done.calls[0]}", said
        if len(done.cards) == 1:
            # ... and the cards of the first trick: the player's and the computers'.
            t.wait_for_live_match(card_sentence(ME, done.cards[0]))
            t.wait_for_live_match(card_sentence(COMPUTERS))
        if len(done.cards) == 7:  # seven tricks are over: the last one can be shown again
            last = t.page.get_by_role("button", name="Dernier pli", exact=True)
            expect(last).to_be_enabled()
            t.press(last)
            expect(t.page.get_by_role("heading", name="Dernier pli", exact=True)).to_be_visible()
            t.press(last)
            expect(t.page.get_by_role("heading", name="Dernier pli", exact=True)).to_be_hidden()

    played = table.play_deal(bid=True, before_card=at_my_turn)

    assert played.end == "next", played
    assert bid_pattern("fr").match(played.calls[0]), f"the first call should be a bid: {played.calls}"
    assert len(played.cards) == 8, played
    assert len(set(played.cards)) == 8, played
    assert played.hand_sizes == [8, 7, 6, 5, 4, 3, 2, 1], played

    summary = table.summary()
    expect(summary).to_be_visible()
    expect(summary.get_by_role("button", name="Donne suivante", exact=True)).to_be_visible()

    # The live region says the cards too, the last one included.
    table.wait_for_live_match(card_sentence(ME, played.cards[-1]))
    assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]
