"""A friends' table's lobby names every seat alike for everyone (as the invitation does):
a friend who took "S'asseoir en Est" is "Est" on the host's page and on her own, and the
lobby says plainly that at the table each person sees the table from their own seat."""

from __future__ import annotations

import re

from browser_helpers import DESKTOP, LIVE_RECORDER, new_page
from playwright.sync_api import Browser, BrowserContext, Page, expect
from table_driver import keep_screenshot
from test_browser_friends import TABLE_URL, host_table


def person(browser: Browser, base: str, made: list[BrowserContext]) -> Page:
    ctx = browser.new_context(base_url=base, locale="fr-FR", viewport=DESKTOP)
    ctx.add_init_script(LIVE_RECORDER)
    made.append(ctx)
    return new_page(ctx, base)


def position_of(page: Page, name: str) -> str:
    row = page.locator(".lobby-seat", has_text=name)
    expect(row).to_have_count(1)
    return (row.locator(".lobby-position").text_content() or "").strip()


def test_two_people_see_the_same_seat_names(browser: Browser, server: str) -> None:
    made: list[BrowserContext] = []
    try:
        host = person(browser, server, made)
        code = host_table(host, "Hermine")
        marie = person(browser, server, made)
        marie.goto(f"/rejoindre/{code}")
        invited = {
            (li.locator(".lobby-holder").text_content() or "").strip(): (
                li.locator(".lobby-position").text_content() or ""
            ).strip()
            for li in marie.locator(".lobby-seat").all()
        }
        assert any(k.startswith("Hermine") and v == "Sud" for k, v in invited.items()), invited
        marie.get_by_label("Votre nom à la table").fill("Marie")
        marie.get_by_role("button", name="S'asseoir en Est", exact=True).click()
        marie.wait_for_url(TABLE_URL)
        expect(host.locator(".lobby-seat", has_text="Marie")).to_have_count(1)
        for page in (host, marie):
            assert position_of(page, "Marie") == "Est", page.url
            assert position_of(page, "Hermine") == "Sud", page.url
            names = [(li.text_content() or "").strip() for li in page.locator(".lobby-position").all()]
            assert names == ["Sud", "Est", "Nord", "Ouest"], names
        for page in (host, marie):
            expect(page.locator("#lobby")).to_contain_text(re.compile(r"chacun se voit en bas de l.écran"))
        keep_screenshot(marie, "lobby-marie")
        keep_screenshot(host, "lobby-host")
    finally:
        for ctx in made:
            ctx.close()
