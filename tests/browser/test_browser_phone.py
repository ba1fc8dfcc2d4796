"""A phone (360 x 740, touch): no horizontal scroll, every card of the hand a button at
least 44 px wide that a finger can reach, and a whole deal played by tapping."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from table_driver import DealPlayed, Table, keep_screenshot, start_solo

MIN_TARGET = 44

HIT_SPAN = """
(button) => {
  const r = button.getBoundingClientRect();
  let left = null, right = null;
  for (let x = Math.ceil(r.left); x < r.right; x += 1) {
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
        # one row: a second row would hide most of the first (the raised playable cards
        # stand 5 px higher)
        tops = [t.hand().nth(i).evaluate("b => b.getBoundingClientRect().top") for i in range(t.hand().count())]
        assert max(tops) - min(tops) <= 6, f"the hand is in more than one row: {tops}"
        if not done.cards:
            keep_screenshot(t.page, "table-phone")

    played = table.play_deal(bid=True, before_card=at_my_turn)
    assert played.end == "next", played
    assert len(played.cards) == 8, played
    expect(table.summary()).to_be_visible()
    expect(table.next_deal_button()).to_be_in_viewport()
    no_horizontal_scroll(page)
    assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]


LAYOUT = """
async () => {
  // where things come to rest: the trick's cards once their entrance or exit is over
  const moving = document.getElementById('trick').getAnimations({subtree: true});
  const ending = moving.filter((a) => a.effect.getTiming().iterations !== Infinity);
  await Promise.all(ending.map((a) => a.finished.catch(() => null)));
  const seen = (el) => el && el.checkVisibility({opacityProperty: true, visibilityProperty: true})
    && el.getBoundingClientRect().width > 0;
  const box = (what, el) => {
    const r = el.getBoundingClientRect();
    return {what, left: r.left, top: r.top, right: r.right, bottom: r.bottom};
  };
  const out = [];
  for (const p of ['north', 'west', 'east', 'south']) {
    const plate = document.querySelector(`#seat-${p} .plate`);
    if (seen(plate)) out.push(box(`plate ${p}`, plate));
    for (const li of document.querySelectorAll(`#seat-${p} .melds li`)) if (seen(li)) out.push(box(`meld ${p}`, li));
  }
  for (const card of document.querySelectorAll('#trick .slot .card')) {
    if (seen(card)) out.push(box(`trick ${card.parentElement.dataset.pos}`, card));
  }
  const score = document.querySelector('.corner-score');
  if (seen(score)) out.push(box('score', score));
  const contract = document.querySelector('.corner-contract');
  if (seen(contract)) out.push(box('contract', contract));
  return out;
}
"""
"""The boxes that must not overlap on a phone: the four name plates, the trick's cards, the
melds shown, the score and contract boxes."""

SHEET = """
() => {
  const sheet = document.getElementById('bidding');
  const r = sheet.getBoundingClientRect();
  const rows = [...sheet.querySelectorAll('.slam-line, .bid-trumps, .bid-values, .bid-big')];
  const last = rows.map((el) => el.getBoundingClientRect().bottom);
  const north = document.querySelector('#seat-north .plate').getBoundingClientRect();
  const score = document.querySelector('.corner-score').getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, scroll: sheet.scrollHeight - sheet.clientHeight, lowest: Math.max(...last),
          north: north.bottom, score: score.bottom, viewport: window.innerHeight};
}
"""


def overlaps(boxes: list[dict[str, Any]]) -> list[tuple[str, str]]:
    found = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            if a["what"] == b["what"] and a["what"].startswith("meld"):
                continue  # one seat's melds are a list, one under the other
            if min(a["right"], b["right"]) - max(a["left"], b["left"]) > 0.5 and (
                min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 0.5
            ):
                found.append((a["what"], b["what"]))
    return found


def check_layout(t: Table, when: str) -> None:
    boxes: list[dict[str, Any]] = t.page.evaluate(LAYOUT)
    assert not overlaps(boxes), f"{when}: overlapping on a phone: {overlaps(boxes)} in {boxes}"


def check_sheet(t: Table) -> None:
    sheet: dict[str, float] = t.page.evaluate(SHEET)
    assert sheet["scroll"] <= 1, f"the bidding box scrolls: {sheet}"
    assert sheet["lowest"] <= sheet["bottom"] + 0.5 and sheet["bottom"] <= sheet["viewport"], sheet
    seen = sheet["top"] >= sheet["north"] and sheet["top"] >= sheet["score"]
    assert seen, f"the bidding box hides the table: {sheet}"


def shown_width(t: Table) -> list[dict[str, Any]]:
    boxes = []
    hand = t.hand()
    for i in range(hand.count()):
        box = hand.nth(i).evaluate(HIT_SPAN)
        box["name"] = Table.name_of(hand.nth(i))
        boxes.append(box)
    return boxes


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_phone_layout_leaves_everything_seen(phone_page: Page, lang: str) -> None:
    page = phone_page
    if lang == "en":
        page.goto("/")
        page.get_by_role("link", name="English", exact=True).click()
        page.wait_for_url(re.compile(r"/$"))
    table = start_solo(page, lang=lang, profile="classic", target=700, how="tap")
    expect(table.pass_button()).to_be_visible()
    page.wait_for_timeout(300)  # the sheet's entrance
    check_layout(table, "auction")
    check_sheet(table)
    narrow = [b for b in shown_width(table) if b["tappable"] < MIN_TARGET]
    assert not narrow, f"during the auction, cards showing less than {MIN_TARGET} px: {narrow}"
    keep_screenshot(page, f"phone-auction-{lang}")

    def at_my_turn(t: Table, done: DealPlayed) -> None:
        check_layout(t, f"card {len(done.cards) + 1}")
        narrow = [b for b in shown_width(t) if b["tappable"] < MIN_TARGET]
        assert not narrow, f"cards showing less than {MIN_TARGET} px: {narrow}"
        if len(done.cards) == 1:
            keep_screenshot(t.page, f"phone-play-{lang}")

    played = table.play_deal(bid=True, before_card=at_my_turn)
    assert played.end == "next", played
    assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]
