"""A phone (360 x 740, touch): no horizontal scroll, every card of the hand a button at
least 44 px wide that a finger can reach, and a whole deal played by tapping."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect
from table_driver import ARTIFACTS, DealPlayed, Table, start_solo

MIN_TARGET = 44

HIT_SPAN = """
(button) => {
  const r = button.getBoundingClientRect();
  let left = null, right = null;
  for (let x = Math.ceil(r.left) + 1; x < r.right - 1; x += 1) {
    for (const f of [0.2, 0.5, 0.8]) {
      const hit = document.elementFromPoint(x, r.top + r.height * f);
      if (hit && button.contains(hit)) {
        left = left === null ? x : left;
        right = x;
        break;
      }
    }
  }
  return {width: r.width, height: r.height, left: r.left, right: r.right,
          tappable: left === null ? 0 : right - left + 1};
}
"""
"""A button's box and the horizontal span where a tap lands on it (not on a card over it)."""


def no_horizontal_scroll(page: Page) -> None:
    sizes = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert sizes[0] <= sizes[1], f"the page scrolls sideways: scrollWidth {sizes[0]} > innerWidth {sizes[1]}"


def check_hand(t: Table, reachable: bool = True) -> list[dict[str, Any]]:
    boxes = []
    hand = t.hand()
    for i in range(hand.count()):
        card = hand.nth(i)
        card.scroll_into_view_if_needed()
        box = card.evaluate(HIT_SPAN)
        box["name"] = Table.name_of(card)
        boxes.append(box)
    narrow = [b for b in boxes if b["width"] < MIN_TARGET]
    assert not narrow, f"cards narrower than {MIN_TARGET} px: {narrow}"
    if reachable:
        # Scrolled into view if need be, a finger finds at least 44 px of each card (not
        # covered by its neighbours).
        hidden = [b for b in boxes if b["tappable"] < MIN_TARGET]
        assert not hidden, f"cards a tap cannot reach over {MIN_TARGET} px: {hidden}"
    return boxes


def test_a_deal_on_a_phone(phone_page: Page) -> None:
    page = phone_page
    table = start_solo(page, profile="classic", target=700, how="tap")
    expect(table.hand()).to_have_count(8)
    no_horizontal_scroll(page)
    check_hand(table, reachable=False)  # the bidding box may cover the hand during the auction

    def at_my_turn(t: Table, done: DealPlayed) -> None:
        no_horizontal_scroll(t.page)
        check_hand(t)
        if not done.cards:
            ARTIFACTS.mkdir(exist_ok=True)
            t.page.screenshot(path=str(ARTIFACTS / "table-phone.png"), animations="disabled")

    played = table.play_deal(bid=True, before_card=at_my_turn)
    assert played.end == "next", played
    assert len(played.cards) == 8, played
    expect(table.summary()).to_be_visible()
    expect(table.next_deal_button()).to_be_in_viewport()
    no_horizontal_scroll(page)
    assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]
