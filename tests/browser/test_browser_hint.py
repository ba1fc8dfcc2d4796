"""The "Conseil" button: the expert's move and its reason, in a box that lies over neither
the hand's cards nor the bidding box nor the bar's buttons, while calling and while playing,
on a laptop and on a phone."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect
from table_driver import Table, keep_screenshot, start_solo
from test_browser_notice import LAPTOP, PHONE, SETTLED, until

REASON = re.compile(r"environ \d+ (points|fois sur 10)|des \d+ donnes essayées|il en faut au moins \d+")
"""The figures of the expert's reason, as the French hint says them."""

OVERLAPS = """() => {
  const seen = (el) => el.checkVisibility({ visibilityProperty: true, opacityProperty: true });
  const box = (el) => el.getBoundingClientRect();
  const meet = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const notice = document.querySelector('#notice');
  const n = box(notice);
  const sheets = [...document.querySelectorAll('#bidding, #declare')].filter(seen);
  const name = (el) => el.getAttribute('aria-label') || el.id || el.textContent.trim();
  const over = [];
  for (const el of sheets) if (meet(n, box(el))) over.push(name(el));
  for (const el of [...document.querySelectorAll('.bottom-bar button')].filter(seen)) {
    if (!notice.contains(el) && meet(n, box(el))) over.push(name(el));
  }
  let cards = 0;
  for (const el of [...document.querySelectorAll('#hand .hand-card')].filter(seen)) {
    if (sheets.some((s) => meet(box(el), box(s)))) continue; // under the phone's bidding box, by design
    cards += 1;
    if (meet(n, box(el))) over.push(name(el));
  }
  const inside = n.left >= 0 && n.top >= 0 && n.right <= innerWidth && n.bottom <= innerHeight;
  return { over, cards, sheets: sheets.length, inside };
}"""
"""What the hint's box lies over (the open panel, a button of the bar, a card of the hand
not under the panel), how many cards were looked at, and whether the box is in view."""


def hint_clear(table: Table, what: str, shot: str, panel: bool) -> None:
    """Ask for a hint: its text says the expert's reason, and its box covers nothing."""
    page = table.page
    button = page.locator("#hint-button")
    expect(button).to_be_enabled(timeout=20_000)
    table.press(button)
    expect(table.notice()).to_have_text(REASON, timeout=20_000)
    page.wait_for_function(SETTLED, polling=50, timeout=5_000)
    found = page.evaluate(OVERLAPS)
    keep_screenshot(page, shot)
    assert found["inside"], f"{what}: the hint's box leaves the screen"
    assert found["sheets"] == int(panel), f"{what}: {found}"
    assert not found["over"], f"{what}: the hint lies over {found['over']}"


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_the_hint_says_why_and_covers_neither_the_hand_nor_the_bidding_box(
    make_page: Any, server: str, size: dict[str, int]
) -> None:
    phone = size is PHONE
    options: dict[str, Any] = {"viewport": size}
    if phone:
        options |= {"has_touch": True, "is_mobile": True, "device_scale_factor": 2}
    page = make_page(server, **options)
    table = start_solo(page, profile="classic", how="click")
    tag = "phone" if phone else "laptop"

    table.pass_button().wait_for(timeout=20_000)
    hint_clear(table, "calling", f"hint-{tag}-calling", panel=True)
    table.call(table.lowest_bid() or table.pass_button())

    def playing() -> bool:  # a choice of cards: the expert says why it plays one
        return table.playable_cards().count() > 1

    def act() -> None:
        if table.playable_cards().count() == 1:
            table.play_card(table.playable_cards().first)
        elif table.no_melds_button().count():
            table.press(table.no_melds_button())
            expect(table.no_melds_button()).to_have_count(0)
        elif table.pass_button().count():
            table.call(table.pass_button())
        elif table.next_deal_button().is_visible():
            table.next_deal()

    until(table, playing, act)
    hint_clear(table, "playing", f"hint-{tag}-playing", panel=False)
    assert not page.js_errors, page.js_errors
