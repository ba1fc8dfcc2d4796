"""The home page is a hub: every way to play shows in the first screen (1366x768 and
390x844), each one press from playing, and the solo choice plays the settings used last.
The solo settings (``/solo``): "Plus d'options" sets any per-table option and any target
of the range, and the table plays by them; Back from a table then "Jouer" again makes
another table (it used to answer "Code 400": the restored form sent the first rules'
target with the rules chosen before)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from accessibility import assert_accessible, assert_no_horizontal_scroll
from playwright.sync_api import Page, expect
from table_driver import Table, keep_screenshot

TABLE_URL = re.compile(r"/table/[^/]+$")


def test_more_options_and_a_free_target_reach_the_table(page: Page) -> None:
    page.goto("/solo")
    page.get_by_role("radio", name="En ligne", exact=True).check()
    page.get_by_role("radio", name="Débutant", exact=True).check()
    target = page.get_by_role("spinbutton", name="Objectif")
    expect(target).to_have_value("1001")  # the chosen rules' default
    target.fill("777")
    options = page.locator("details#more-options")
    sa_ta = page.get_by_role("combobox", name="Sans atout et tout atout")
    expect(sa_ta).to_be_hidden()  # folded until opened
    options.locator("summary").click()
    expect(sa_ta).to_be_visible()
    expect(sa_ta.locator("option").first).to_have_text("Selon les règles (non)")  # online: no SA/TA
    sa_ta.select_option("true")
    page.get_by_role("combobox", name="Enchère la plus haute").select_option("180")
    page.get_by_role("button", name="Jouer", exact=True).click()
    page.wait_for_url(TABLE_URL)

    expect(page.get_by_text("Objectif 777", exact=False)).to_be_visible()
    table = Table(page)
    expect(table.pass_button()).to_be_visible(timeout=30_000)  # South speaks in the first round
    names = [Table.name_of(b) for b in table.bid_buttons().all()]
    assert any(n.endswith("sans atout") for n in names), names
    assert any(n.endswith("tout atout") for n in names), names
    values = {
        int(v) for v in page.locator(".bid-values [role=radio]").evaluate_all("bs => bs.map(b => b.dataset.value)")
    }
    assert 180 in values, sorted(values)


def test_back_from_a_table_then_play_again_makes_another_table(
    tmp_path: Path, server_factory: Callable[..., Any], make_page: Callable[..., Page]
) -> None:
    # Four tables: a server whose guests have more than three free deals.
    with server_factory(tmp_path, "--free-deals", "100") as base:
        back_and_play_again(make_page(base))


def back_and_play_again(page: Page) -> None:
    page.goto("/solo")
    page.get_by_role("radio", name="Fédération", exact=True).check()
    page.get_by_role("radio", name="Débutant", exact=True).check()
    page.get_by_role("button", name="Jouer", exact=True).click()
    page.wait_for_url(TABLE_URL)
    first = page.url
    expect(page.get_by_text("Objectif 2000", exact=False)).to_be_visible()

    page.go_back()
    page.wait_for_url(re.compile(r"/solo$"))
    expect(page.get_by_role("radio", name="Fédération", exact=True)).to_be_checked()
    expect(page.get_by_role("spinbutton", name="Objectif")).to_have_value("2000")
    page.get_by_role("button", name="Jouer", exact=True).click()
    page.wait_for_url(TABLE_URL)
    assert page.url != first
    expect(page.get_by_text("Objectif 2000", exact=False)).to_be_visible()
    expect(page.get_by_text("Code 400")).to_have_count(0)

    # Back again after choosing an option: the restored choice is in sight, and sent.
    page.go_back()
    page.wait_for_url(re.compile(r"/solo$"))
    page.locator("details#more-options summary").click()
    page.get_by_role("combobox", name="Générale").select_option("true")
    page.get_by_role("button", name="Jouer", exact=True).click()
    page.wait_for_url(TABLE_URL)
    page.go_back()
    page.wait_for_url(re.compile(r"/solo$"))
    expect(page.get_by_role("combobox", name="Générale")).to_be_visible()
    expect(page.get_by_role("combobox", name="Générale")).to_have_value("true")

    # Other rules on the restored page: the target follows them, and the form still works.
    page.get_by_role("radio", name="Classique", exact=True).check()
    expect(page.get_by_role("spinbutton", name="Objectif")).to_have_value("3000")
    page.get_by_role("button", name="Jouer", exact=True).click()
    page.wait_for_url(TABLE_URL)
    expect(page.get_by_text("Objectif 3000", exact=False)).to_be_visible()


def test_a_refused_form_says_what_to_do(page: Page) -> None:
    """A target out of range sent anyway (the browser's own check bypassed): the 400 page
    tells the visitor to reload and try again, not that the server failed."""
    page.goto("/solo")
    page.locator("#solo-form").evaluate("f => f.noValidate = true")
    page.get_by_role("spinbutton", name="Objectif").fill("99")
    page.get_by_role("button", name="Jouer", exact=True).click()
    expect(page.get_by_text("Code 400")).to_be_visible()
    expect(page.get_by_text("La demande n'a pas pu être lue. Rechargez la page et réessayez.")).to_be_visible()
    expect(page.get_by_text("Le serveur n'a pas pu répondre")).to_have_count(0)


def test_the_options_fit_a_phone_and_are_accessible(phone_page: Page) -> None:
    page = phone_page
    page.goto("/solo")
    page.locator("details#more-options summary").tap()
    expect(page.get_by_role("combobox", name="Arrondi des scores")).to_be_visible()
    assert_no_horizontal_scroll(page)
    assert_accessible(page)


WAYS = ("Jouer contre l'ordinateur", "Créer un compte pour jouer", "Créer une table", "Jouer le défi")


def test_every_way_to_play_is_in_the_first_screen(make_page: Callable[..., Page], server: str) -> None:
    for viewport in ({"width": 1366, "height": 768}, {"width": 390, "height": 844}):
        page = make_page(server, viewport=viewport)
        page.goto("/")
        for name in WAYS:
            button = page.get_by_role("button", name=name, exact=True).or_(
                page.get_by_role("link", name=name, exact=True)
            )
            box = button.bounding_box()
            assert box is not None and box["y"] + box["height"] <= viewport["height"], (name, viewport, box)
        assert_no_horizontal_scroll(page)
    assert_accessible(page)


def test_the_solo_choice_plays_the_settings_used_last(make_page: Callable[..., Page], server: str) -> None:
    page = make_page(server)
    page.goto("/")
    page.get_by_role("link", name="Réglages de la partie").click()
    page.wait_for_url(re.compile(r"/solo$"))
    page.get_by_role("radio", name="Fédération", exact=True).check()
    page.get_by_role("radio", name="Débutant", exact=True).check()
    page.get_by_role("button", name="Jouer", exact=True).click()
    page.wait_for_url(TABLE_URL)
    first = page.url
    page.goto("/")
    expect(page.locator(".way-solo .way-text")).to_have_text("Fédération · en 2000 · Débutant")
    page.get_by_role("button", name="Jouer contre l'ordinateur").click()  # one press
    page.wait_for_url(TABLE_URL)
    assert page.url != first
    expect(page.get_by_text("Objectif 2000", exact=False)).to_be_visible()
    expect(page.get_by_text("Ordinateur : Débutant")).to_be_visible()


def test_learn_is_in_the_first_screen(make_page: Callable[..., Page], server: str) -> None:
    """A newcomer sees "Apprendre" ("Learn") without scrolling, on a laptop and a phone."""
    for viewport in ({"width": 1366, "height": 768}, {"width": 390, "height": 844}):
        for lang, name in (("fr", "Apprendre"), ("en", "Learn")):
            page = make_page(server, viewport=viewport)
            page.goto(f"/langue/{lang}?next=/")
            button = page.get_by_role("link", name=name, exact=True)
            expect(button).to_be_visible()
            box = button.bounding_box()
            assert box is not None, (lang, viewport)
            assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], (lang, viewport, box)
            assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], (lang, viewport, box)
            assert page.evaluate("() => window.scrollY") == 0
            keep_screenshot(page, f"home_learn_{lang}_{viewport['width']}")
