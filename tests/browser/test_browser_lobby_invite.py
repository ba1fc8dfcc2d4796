"""A friends' table's lobby for its host and an invited friend, one browser context each:
the host's "Inviter un joueur par son nom" and "Ouvrir la table à tous" are in sight
without scrolling the panel, at 1366x768 and 390x844; the host invites "zoe" (the account
is "Zoé...") to the North seat, and Zoé's single press on "Accepter" in the banner seats
her there, as both pages show."""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator

import pytest
from browser_helpers import new_context, new_page, signed_up
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect
from table_driver import keep_screenshot
from test_browser_friends import TABLE_URL

SIZES = {"desk": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}


@pytest.fixture
def two(browser: Browser, server: str) -> Iterator[tuple[Page, Page]]:
    made: list[BrowserContext] = [new_context(browser, server, viewport=SIZES["desk"]) for _ in range(2)]
    yield new_page(made[0], server), new_page(made[1], server)
    for ctx in made:
        ctx.close()


def in_sight(page: Page, control: Locator) -> None:
    """``control`` lies whole within the lobby panel's visible box and the viewport, the
    panel not scrolled."""
    expect(control).to_be_visible()
    box, panel = control.bounding_box(), page.locator("#lobby").bounding_box()
    assert box is not None and panel is not None
    view = page.viewport_size
    assert view is not None
    assert page.locator("#lobby").evaluate("el => el.scrollTop") == 0
    assert panel["y"] <= box["y"] and box["y"] + box["height"] <= panel["y"] + panel["height"], (box, panel)
    assert panel["x"] <= box["x"] and box["x"] + box["width"] <= panel["x"] + panel["width"], (box, panel)
    assert box["y"] >= 0 and box["y"] + box["height"] <= view["height"], (box, view)
    assert box["x"] >= 0 and box["x"] + box["width"] <= view["width"], (box, view)


def seat_row(page: Page, position: str) -> Locator:
    return page.locator(".lobby-seat", has=page.locator(".lobby-position", has_text=re.compile(f"^{position}$")))


def test_the_hosts_controls_are_in_sight_and_one_press_seats_the_invited(two: tuple[Page, Page]) -> None:
    host, zoe = two
    tag = secrets.token_hex(3)
    signed_up(host, f"Hote{tag}")
    host.goto("/amis")
    host.get_by_role("button", name="Créer la table", exact=True).click()
    host.wait_for_url(TABLE_URL)
    expect(host.locator(".lobby-seat")).to_have_count(4)
    name_box = host.get_by_label("Inviter un joueur par son nom")
    invite_button = host.get_by_role("button", name="Inviter", exact=True)
    open_button = host.get_by_role("button", name="Ouvrir la table à tous")
    for size, viewport in SIZES.items():
        host.set_viewport_size(viewport)
        for control in (name_box, host.get_by_label("À la place"), invite_button, open_button):
            in_sight(host, control)
        keep_screenshot(host, f"lobby-host-{size}")

    signed_up(zoe, f"Zoé{tag}")  # her page listens for invitations (``/ws/me``)
    name_box.fill(f"zoe{tag.upper()}")
    host.get_by_label("À la place").select_option(label="Nord")
    invite_button.click()
    expect(host.get_by_text("Invitation envoyée.")).to_be_visible()
    in_sight(host, invite_button)
    banner = zoe.locator("#invitations")
    expect(banner).to_contain_text(f"Hote{tag} vous invite à sa table, en Nord.")
    for size, viewport in SIZES.items():
        zoe.set_viewport_size(viewport)
        keep_screenshot(zoe, f"lobby-invited-{size}")
    banner.get_by_role("button", name="Accepter").click()  # the one press
    zoe.wait_for_url(TABLE_URL)
    assert zoe.url == host.url
    expect(seat_row(zoe, "Nord")).to_contain_text(f"Zoé{tag} (vous)")
    expect(seat_row(host, "Nord")).to_contain_text(f"Zoé{tag}")
    expect(seat_row(host, "Sud")).to_contain_text(f"Hote{tag} (vous)")
    expect(host.get_by_label("À la place").locator("option")).to_have_text(["Est", "Ouest"])
    for size, viewport in SIZES.items():
        for who, page in (("host", host), ("guest", zoe)):
            page.set_viewport_size(viewport)
            keep_screenshot(page, f"lobby-seated-{who}-{size}")
