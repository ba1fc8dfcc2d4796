"""The words at the seams that the pages' scripts write (issue 49 item 3): quick play's
button and how long it waits in the first screen, the deal's verdict said from the
reader's side (a made contract is bad news to the defenders), and the score chart's words
in the singular and the plural."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from browser_helpers import signed_up
from playwright.sync_api import Page, expect
from table_driver import keep_screenshot, start_solo

IN_FIRST_SCREEN = """(el) => {
  const r = el.getBoundingClientRect();
  return r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth;
}"""


@pytest.mark.parametrize(("width", "height"), [(1366, 768), (390, 844)])
def test_quick_play_says_its_wait_and_its_button_is_in_the_first_screen(
    make_page: Callable[..., Page], server: str, width: int, height: int
) -> None:
    page = make_page(server, viewport={"width": width, "height": height})
    signed_up(page, f"Rapide{width}")
    page.goto("/partie-rapide")
    expect(page.get_by_text(re.compile(r"trouvés en \d+ secondes,"))).to_be_visible()
    button = page.get_by_role("button", name="Trouver une partie")
    assert button.evaluate(IN_FIRST_SCREEN), button.bounding_box()
    keep_screenshot(page, f"words-quick-{width}")
    assert page.js_errors == []  # type: ignore[attr-defined]
