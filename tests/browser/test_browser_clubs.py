"""A club in the browser (issue 51): made from the form at a laptop's size in French, joined
from a phone in English, a message of the board sent and seen by the other, the members
online; every person's page looked at, nothing scrolls sideways."""

from __future__ import annotations

import re
from collections.abc import Callable

from accessibility import assert_no_horizontal_scroll
from browser_helpers import signed_up
from playwright.sync_api import Page, expect
from table_driver import keep_screenshot


def test_a_club_made_joined_and_its_board(server: str, make_page: Callable[..., Page]) -> None:
    ana = make_page(server, viewport={"width": 1366, "height": 768})
    signed_up(ana, "Anaclub")
    ana.get_by_role("link", name="Clubs").click()
    expect(ana).to_have_url(re.compile(r"/clubs$"))
    ana.get_by_label("Nom du club").fill("Les Belotiers du jeudi")
    ana.get_by_label("Présentation (300 caractères au plus)").fill("On joue le jeudi soir, tous niveaux.")
    create = ana.get_by_role("button", name="Créer le club")
    create.focus()
    ana.keyboard.press("Enter")
    expect(ana).to_have_url(re.compile(r"/club/[^/]+$"))
    club_url = ana.url
    expect(ana.get_by_role("heading", level=1)).to_have_text("Les Belotiers du jeudi")
    expect(ana.locator("table.club-members")).to_contain_text("fondateur")
    assert_no_horizontal_scroll(ana)

    bob = make_page(server, viewport={"width": 390, "height": 844})
    signed_up(bob, "Bobclub")
    bob.goto("/langue/en?next=/clubs")
    bob.get_by_role("link", name="Les Belotiers du jeudi").click()
    bob.get_by_role("button", name="Join the club").click()
    expect(bob.locator(".form-notice")).to_contain_text("You are a member of the club.")
    bob.get_by_role("button", name="Hello everyone!").click()
    expect(bob.locator(".club-posts")).to_contain_text("Bobclub : Hello everyone!")
    expect(bob.locator(".club-online")).to_contain_text("Bobclub")  # his page's socket says he is here
    assert_no_horizontal_scroll(bob)
    keep_screenshot(bob, "club-en-phone", full_page=True)

    ana.goto(club_url)
    expect(ana.locator("table.club-members")).to_contain_text("Bobclub")
    expect(ana.locator(".club-posts")).to_contain_text("Bobclub : Bonjour à tous !")
    expect(ana.get_by_role("heading", name="Gestion du club")).to_be_visible()
    keep_screenshot(ana, "club-fr", full_page=True)
    for p in (ana, bob):
        assert not p.js_errors, p.js_errors  # type: ignore[attr-defined]
