"""The language switch: "English" turns every word of the site to English, "Français"
back, and the choice (a cookie) holds across pages and new tabs."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect
from table_driver import WORDS, Table, card_pattern, start_solo

FRENCH_ONLY = re.compile(
    r"\b(Jouer|Règles|Objectif|Niveau|Donnes?|Passe|pique|cœur|carreau|trèfle|Sud|Ouest|Nord|Est|joue|vous|Retour)\b"
)
"""Words of the French pages that an English page must not show."""
ENGLISH_ONLY = re.compile(
    r"\b(Play|Rules|Target|Level|Deals?|Pass|spades|hearts|diamonds|clubs|South|West|North|East)\b"
)


def body_text(page: Page) -> str:
    text: str = page.locator("body").inner_text()
    return text


def assert_utf8(page: Page) -> None:
    expect(page.locator("meta[charset]")).to_have_attribute("charset", re.compile("^utf-8$", re.IGNORECASE))


def follow(page: Page, name: str) -> None:
    """Follow a link from the keyboard."""
    link = page.get_by_role("link", name=name, exact=True)
    link.focus()
    link.press("Enter")


def test_home_page_switches_language_and_remembers_it(page: Page) -> None:
    page.goto("/")
    assert_utf8(page)
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_role("heading", level=1)).to_have_text("Jouer à la coinche")
    expect(page.get_by_role("button", name="Jouer contre l'ordinateur", exact=True)).to_be_visible()
    expect(page.get_by_text("Donnes gratuites restantes : 3")).to_be_visible()

    follow(page, "English")
    page.wait_for_url(re.compile(r"/$"))
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("heading", level=1)).to_have_text("Play coinche")
    expect(page.get_by_role("button", name="Play against the computer", exact=True)).to_be_visible()
    expect(page.get_by_role("link", name="Français", exact=True)).to_be_visible()
    expect(page.locator(".way-solo .way-text")).to_contain_text("Classic")
    expect(page.get_by_text("Free deals left: 3")).to_be_visible()
    text = body_text(page)
    assert not FRENCH_ONLY.search(text), f"French left on the English home page: {FRENCH_ONLY.findall(text)}"

    # Remembered: other pages, and a new tab of the same browser, are in English too.
    page.goto("/login")
    assert_utf8(page)
    expect(page.get_by_role("heading", level=1)).to_have_text("Log in")
    page.goto("/no-such-page")
    assert_utf8(page)
    expect(page.get_by_role("heading", level=1)).to_have_text("Page not found")
    other = page.context.new_page()
    other.goto("/")
    expect(other.get_by_role("button", name="Play against the computer", exact=True)).to_be_visible()
    other.close()

    page.goto("/account")
    expect(page.get_by_role("heading", level=1)).to_have_text("My account")
    follow(page, "Français")
    page.wait_for_url(re.compile(r"/compte$"))
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_role("heading", level=1)).to_have_text("Mon compte")
    page.goto("/")
    expect(page.get_by_role("button", name="Jouer contre l'ordinateur", exact=True)).to_be_visible()
    text = body_text(page)
    assert not ENGLISH_ONLY.search(text), f"English left on the French home page: {ENGLISH_ONLY.findall(text)}"


def test_table_switches_language(page: Page) -> None:
    page.goto("/")
    follow(page, "English")
    page.wait_for_url(re.compile(r"/$"))
    table = start_solo(page, lang="en")
    assert_utf8(page)

    # English: the bidding box says "Pass", the cards are "Jack of hearts".
    expect(table.pass_button()).to_be_visible()
    expect(table.hand()).to_have_count(8)
    expect(page.get_by_role("button", name=card_pattern("fr"))).to_have_count(0)
    text = body_text(page)
    assert not FRENCH_ONLY.search(text), f"French left on the English table: {FRENCH_ONLY.findall(text)}"
    assert table.bid_buttons().count() > 0, "no bid button named like '90 hearts'"
    expect(page.get_by_role("button", name=re.compile(r"^\d+ no trump$")).first).to_be_visible()
    expect(page.get_by_role("button", name="Capot spades", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name=WORDS["en"]["hint"], exact=True)).to_be_visible()
    expect(page.get_by_role("button", name=WORDS["en"]["last_trick"], exact=True)).to_be_visible()
    said = table.wait_for_live("")  # the live region speaks English too
    log = table.live_log()
    assert not any(FRENCH_ONLY.search(t) for t in log), f"French in the English live region: {log}"
    assert said

    # Back to French on the same table.
    follow(page, "Français")
    page.wait_for_url(re.compile(r"/table/[^/]+$"))
    french = Table(page, "fr")
    expect(french.pass_button()).to_be_visible()
    expect(french.hand()).to_have_count(8)
    expect(page.get_by_role("button", name=card_pattern("en"))).to_have_count(0)
    expect(page.get_by_role("button", name=re.compile(r"^\d+ sans atout$")).first).to_be_visible()
    expect(page.get_by_role("button", name="Capot pique", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name=WORDS["fr"]["hint"], exact=True)).to_be_visible()
    expect(page.get_by_role("button", name=WORDS["fr"]["last_trick"], exact=True)).to_be_visible()
    text = body_text(page)
    assert not ENGLISH_ONLY.search(text), f"English left on the French table: {ENGLISH_ONLY.findall(text)}"
    before = len(french.live_log())
    name = french.call(french.pass_button())
    assert name == "Passe"
    said = french.wait_for_live("Sud (vous) : Passe", since=before)
    assert said == "Sud (vous) : Passe"

    # Remembered on the next page.
    page.goto("/")
    expect(page.get_by_role("button", name="Jouer contre l'ordinateur", exact=True)).to_be_visible()
    assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]
