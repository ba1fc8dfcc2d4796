"""The end-of-deal summary on laptop and phone screens: it opens at its top (the result
first, its way on in sight), and from the keyboard alone "Donne suivante" leads to the next
deal's first useful control, the bidding box when the player speaks first, with a visible
focus ring."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from table_driver import Table, keep_screenshot, start_solo

FREE_DEALS = 100
MAX_DEALS = 6

IN_VIEW = """(el) => {
  const r = el.getBoundingClientRect();
  const d = el.closest('dialog').getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, dialogTop: d.top, dialogBottom: d.bottom,
          viewport: window.innerHeight, scrollTop: el.closest('dialog').scrollTop,
          inside: r.top >= Math.max(0, d.top) - 0.5 && r.bottom <= Math.min(window.innerHeight, d.bottom) + 0.5};
}"""
"""Where an element of the summary sits: inside both the dialog's box and the window."""

FOCUS_RING = """() => {
  const el = document.activeElement;
  const style = getComputedStyle(el);
  const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
  return {name: el.getAttribute('aria-label') || el.textContent.trim(), visible: el.matches(':focus-visible'),
          ring: outline || style.boxShadow !== 'none', inBox: !!el.closest('#bidding')};
}"""


@pytest.fixture(scope="module")
def generous_server(tmp_path_factory: pytest.TempPathFactory, server_factory: Callable[..., Any]) -> Iterator[str]:
    with server_factory(tmp_path_factory.mktemp("summary"), "--free-deals", str(FREE_DEALS)) as base:
        yield base


def check_summary_top(table: Table, name: str) -> None:
    summary = table.summary()
    expect(summary).to_be_visible()
    heading = summary.locator("#summary-title")
    expect(heading).to_be_visible()
    table.page.wait_for_function("() => document.getElementById('summary').getAnimations().length === 0", polling=50)
    for what in (heading, summary.locator(".verdict, .winner").first, table.next_deal_button()):
        where = what.evaluate(IN_VIEW)
        assert where["inside"], f"{name}: not in sight when the summary opens: {where}"
    keep_screenshot(table.page, f"summary-{name}")


@pytest.mark.parametrize(("width", "height", "how"), [(1366, 768, "keyboard"), (1440, 900, "click"), (390, 844, "tap")])
def test_the_summary_opens_at_its_top(
    generous_server: str, make_page: Callable[..., Page], width: int, height: int, how: Any
) -> None:
    phone = width < 500
    options: dict[str, Any] = {"viewport": {"width": width, "height": height}}
    if phone:
        options.update(has_touch=True, is_mobile=True, device_scale_factor=2)
    page = make_page(generous_server, **options)
    table = start_solo(page, profile="classic", target=700, how=how)
    played = table.play_deal(bid=True)
    assert played.end == "next", played
    check_summary_top(table, f"{width}x{height}")
    assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]


def test_the_keyboard_goes_on_to_the_bidding_box(generous_server: str, make_page: Callable[..., Page]) -> None:
    """Enter on "Donne suivante" when the player speaks first in the next deal: the focus
    is on the bidding box, ringed, and the keyboard calls from there."""
    page = make_page(generous_server, viewport={"width": 1366, "height": 768})
    table = start_solo(page, profile="classic", target=2000)
    for _ in range(MAX_DEALS):
        played = table.play_deal(bid=False)
        assert played.end == "next", played
        # the next dealer sits after this one: the player speaks first after North's deal
        if page.locator("#seat-north .dealer").is_visible():
            break
        table.next_deal()
    else:
        pytest.fail(f"North never dealt in {MAX_DEALS} deals")
    before = len(table.live_log())
    button = table.next_deal_button()
    expect(button).to_be_focused()
    page.keyboard.press("Enter")
    expect(button).to_be_hidden()
    expect(table.pass_button()).to_be_focused()
    ring = page.evaluate(FOCUS_RING)
    assert ring["visible"] and ring["ring"] and ring["inBox"], f"no visible focus in the bidding box: {ring}"
    keep_screenshot(page, "summary-keyboard-next-deal")
    # the bidding from the keyboard: back to the values, Enter to the trumps, Enter calls
    for _ in range(8):
        page.keyboard.press("Shift+Tab")
        if page.evaluate("() => document.activeElement.getAttribute('role')") == "radio":
            break
    page.keyboard.press("Enter")
    call = page.evaluate(FOCUS_RING)
    assert call["visible"] and call["ring"] and call["inBox"], call
    page.keyboard.press("Enter")
    table.wait_for_live(f"Sud (vous) : {call['name']}", since=before)
    assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]
