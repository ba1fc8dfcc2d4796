"""The coach at the table: switched on with the table's "Coach" button, its tip shows at the
person's turn in a box that lies over neither the hand's cards, nor the bidding box, nor
the bar's buttons, nor a seat's plate, and is said to the live region; while calling and
while playing, on a laptop and on a phone."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect
from table_driver import Table, keep_screenshot, start_solo
from test_browser_notice import LAPTOP, PHONE, SETTLED, until

OVERLAPS = """() => {
  const seen = (el) => el.checkVisibility({ visibilityProperty: true, opacityProperty: true });
  const box = (el) => el.getBoundingClientRect();
  const meet = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const coach = document.querySelector('#coach');
  const c = box(coach);
  const name = (el) => el.getAttribute('aria-label') || el.id || el.className || el.textContent.trim();
  const what = '#bidding, #declare, .bottom-bar button, #hand .hand-card, .seat .plate, #trick .card';
  const others = [...document.querySelectorAll(what)].filter(seen);
  const over = others.filter((el) => !coach.contains(el) && meet(c, box(el))).map(name);
  const inside = c.left >= 0 && c.top >= 0 && c.right <= innerWidth && c.bottom <= innerHeight;
  return { over, looked: others.length, inside };
}"""
"""What the coach's box lies over, how many boxes were looked at, whether it is in view."""


def tip_clear(table: Table, what: str, shot: str) -> str:
    """The coach's box shows a tip, covers nothing and is in view; its text."""
    page = table.page
    coach = page.locator("#coach")
    expect(coach).to_be_visible(timeout=30_000)
    text = coach.locator(".coach-text").inner_text()
    assert text.strip(), what
    page.wait_for_function(SETTLED, polling=50, timeout=5_000)
    found = page.evaluate(OVERLAPS)
    keep_screenshot(page, shot)
    assert found["inside"], f"{what}: the coach's box leaves the screen"
    assert found["looked"] > 8, f"{what}: {found}"
    assert not found["over"], f"{what}: the coach's box lies over {found['over']}"
    table.wait_for_live(text[:40])
    return text


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_the_coach_shows_a_tip_at_the_persons_turn_over_nothing(
    make_page: Any, server: str, size: dict[str, int]
) -> None:
    phone = size is PHONE
    options: dict[str, Any] = {"viewport": size}
    if phone:
        options |= {"has_touch": True, "is_mobile": True, "device_scale_factor": 2}
    page = make_page(server, **options)
    table = start_solo(page, profile="classic", how="click")
    tag = "phone" if phone else "laptop"
    button = page.locator("#coach-button")
    expect(button).to_have_attribute("aria-pressed", "false")

    table.pass_button().wait_for(timeout=20_000)
    expect(page.locator("#coach")).to_have_count(0)  # off: no tip, no box
    table.press(button)
    expect(button).to_have_attribute("aria-pressed", "true")
    calling = tip_clear(table, "calling", f"coach-{tag}-calling")
    assert "80" in calling or "Passez" in calling or "Annoncez" in calling, calling
    table.call(table.lowest_bid() or table.pass_button())

    def playing() -> bool:  # a choice of cards, after the first trick: the last trick is told
        return table.playable_cards().count() > 1 and page.locator("#last-trick-button").is_enabled()

    def act() -> None:
        if table.playable_cards().count():
            table.play_card(table.playable_cards().first)
        elif table.no_melds_button().count():
            table.press(table.no_melds_button())
            expect(table.no_melds_button()).to_have_count(0)
        elif table.pass_button().count():
            table.call(table.pass_button())
        elif table.next_deal_button().is_visible():
            table.next_deal()

    until(table, playing, act)
    said = tip_clear(table, "playing", f"coach-{tag}-playing")
    expect(page.locator("#coach .coach-trick")).to_contain_text("dernier pli")
    # the person plays: that turn's tip goes. The next turn's may come soon after, with the
    # same words: what went is watched as it happens, not looked for afterwards.
    page.evaluate(
        "(said) => { const box = document.querySelector('#coach'); window.__tipWent = false;"
        " new MutationObserver(() => { if (box.hidden || box.querySelector('.coach-text').textContent !== said)"
        " window.__tipWent = true; }).observe(box, {attributes: true, childList: true, subtree: true,"
        " characterData: true}); }",
        said,
    )
    table.play_card(table.playable_cards().first)
    page.wait_for_function("() => window.__tipWent === true", polling=50, timeout=10_000)
    assert not page.js_errors, page.js_errors
