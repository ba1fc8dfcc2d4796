"""People one can see at the table, in Chromium (issue 49, item 8): a reaction sent by one
person shows over their name plate on the other's page (and their own), not once the other
muted reactions (a choice kept in the browser); the sounds are off by default, switched on
by one button, remembered, and their module is fetched only once they are on."""

from __future__ import annotations

import secrets
from typing import Any

from playwright.sync_api import Page, expect
from table_driver import ARTIFACTS, Table, start_solo
from test_browser_friends import host_table, plate_of, take_a_seat

SCREENS = {"desktop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}


def shot(page: Page, name: str) -> None:
    """The page at both sizes (test-artifacts/), then back to the desktop's."""
    ARTIFACTS.mkdir(exist_ok=True)
    for size, viewport in SCREENS.items():
        page.set_viewport_size(viewport)
        page.screenshot(path=str(ARTIFACTS / f"people-{name}-{size}.png"), animations="disabled")
    page.set_viewport_size(SCREENS["desktop"])


def test_a_reaction_shows_on_the_senders_plate_on_every_page_unless_muted(make_page: Any, server: str) -> None:
    host = make_page(server, viewport=SCREENS["desktop"])
    host_name = "Hote" + secrets.token_hex(3)
    code = host_table(host, host_name)
    paul = make_page(server, viewport=SCREENS["desktop"])
    paul.goto(f"/rejoindre/{code}")
    take_a_seat(paul, "Paul")
    host.get_by_role("button", name="Commencer la partie").click()
    for p in (host, paul):
        expect(Table(p).hand()).to_have_count(8)
    expect(plate_of(paul, host_name).locator(".plate-avatar")).to_have_attribute("src", f"/avatar/{host_name}.svg")

    paul.get_by_role("button", name="Messages", exact=True).click()
    shot(paul, "emotes")
    paul.get_by_role("button", name="applaudit", exact=True).click()
    badge = plate_of(host, "Paul").locator(".reaction")
    expect(badge).to_have_text("👏")
    expect(badge).to_be_visible()
    shot(host, "reaction")
    expect(paul.locator("#seat-south .reaction")).to_have_text("👏")  # the sender's own plate
    Table(host).wait_for_live("Paul", "applaudit")
    expect(host.locator("#seat-south .plate-avatar")).to_have_attribute("src", f"/avatar/{host_name}.svg")

    # The host hides the reactions: Paul's next one is not shown on the host's page (his
    # quick message, sent after it, is: the reaction had come and was left out).
    host.get_by_role("button", name="Messages", exact=True).click()
    host.get_by_label("Masquer les réactions").check()
    host.keyboard.press("Escape")
    expect(badge).to_be_hidden(timeout=10_000)
    paul.get_by_role("button", name="Messages", exact=True).click()
    paul.get_by_role("button", name="est surpris", exact=True).click()
    expect(paul.locator("#seat-south .reaction")).to_have_text("😮")
    paul.get_by_role("button", name="Messages", exact=True).click()
    paul.get_by_role("button", name="Bravo !", exact=True).click()
    expect(plate_of(host, "Paul").locator(".say")).to_have_text("Bravo !")
    expect(badge).to_be_hidden()
    expect(badge).not_to_have_text("😮")
    host.reload()
    expect(host.get_by_label("Masquer les réactions")).to_be_checked()


def test_the_sounds_are_off_until_switched_on_and_their_module_comes_only_then(page: Page) -> None:
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url))
    table = start_solo(page)
    expect(table.hand()).to_have_count(8)
    button = page.get_by_role("button", name="Sons")
    expect(button).to_have_attribute("aria-pressed", "false")
    assert not [u for u in fetched if u.endswith("/sounds.js")], fetched
    assert page.evaluate("() => localStorage.getItem('coinche.sounds')") is None

    with page.expect_request(lambda r: r.url.endswith("/static/js/sounds.js")):
        button.click()
    expect(button).to_have_attribute("aria-pressed", "true")
    shot(page, "sounds-on")

    fetched.clear()
    with page.expect_request(lambda r: r.url.endswith("/static/js/sounds.js")):
        page.reload()
    expect(button).to_have_attribute("aria-pressed", "true")
    button.click()
    expect(button).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("() => localStorage.getItem('coinche.sounds')") == "off"
