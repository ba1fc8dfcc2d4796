"""The score calculator page in real Chromium (issue 8): every worked example of the seeds
typed into the page, its result shown as the fields change (no submit) with JavaScript and
after submitting the form without it; impossible input shows its message next to the field;
no serious axe-core violation; a phone never scrolls sideways."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from accessibility import assert_accessible, assert_no_horizontal_scroll
from browser_helpers import DESKTOP, new_context, new_page
from playwright.sync_api import Browser, Page, expect

from coinche.server.table import i18n

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from worked_examples import ALL, Example

PAGES = {"fr": "/calculateur", "en": "/calculator"}
LAST_LINE = {"fr": "score : preneurs {t}, défense {d}", "en": "score: takers {t}, defense {d}"}


@pytest.fixture(scope="module")
def js_page(browser: Browser, server: str) -> Iterator[Page]:
    """One desktop page for the module's worked examples: the calculator keeps nothing
    between two visits (no cookie, no storage), so each test only opens its address."""
    context = new_context(browser, server, viewport=DESKTOP)
    page = new_page(context, server)
    yield page
    context.close()


@pytest.fixture(scope="module")
def no_js_page(browser: Browser, server: str) -> Iterator[Page]:
    """A desktop page with JavaScript turned off: the form goes to the server."""
    context = browser.new_context(base_url=server, java_script_enabled=False, viewport=DESKTOP)
    yield context.new_page()
    context.close()


def type_in(page: Page, ex: Example) -> None:
    """Enter ``ex`` field by field, as a player would (the rules first: they decide which
    contracts and fields the form offers)."""
    page.select_option("#profile", ex.profile)
    for name, value in ex.options.items():
        if name == "target":
            page.select_option("#target", value)
            continue
        if page.locator("details.calc-options[open]").count() == 0:
            page.click("details.calc-options summary")
        page.select_option(f"#opt-{name}", value)
    page.select_option("#bid", ex.bid)
    page.check(f'input[name="trump"][value="{ex.trump}"]')
    page.check(f'input[name="double"][value="{ex.double}"]')
    page.check(f'input[name="sweep"][value="{ex.sweep}"]')
    page.select_option("#taker_belote", str(ex.taker_belote))
    page.select_option("#defense_belote", str(ex.defense_belote))
    if ex.taker_melds or ex.defense_melds:
        page.fill("#taker_melds", str(ex.taker_melds))
        page.fill("#defense_melds", str(ex.defense_melds))
    page.fill("#points", str(ex.points))


def expect_result(page: Page, ex: Example, lang: str) -> None:
    expect(page.locator("#calc-lines li").last).to_have_text(LAST_LINE[lang].format(t=ex.taker, d=ex.defense))
    expect(page.locator("#score-taker")).to_have_text(str(ex.taker))
    expect(page.locator("#score-defense")).to_have_text(str(ex.defense))
    verdict = i18n.gettext(lang, "calc_page.made" if ex.made else "calc_page.failed")
    expect(page.locator("#calc-verdict")).to_have_text(verdict)
    expect(page.locator(".field-error:visible")).to_have_count(0)


def lang_of(index: int) -> str:
    return "fr" if index % 2 == 0 else "en"


CASES = [pytest.param(ex, lang_of(i), id=f"{ex.id}-{lang_of(i)}") for i, ex in enumerate(ALL)]

WITHOUT_JAVASCRIPT = {
    "online-90D-surcoinche",  # a surcoinche, the online rules
    "online-110H-sweep",  # the takers' sweep
    "online-sa-option",  # an option opened, SA offered by it
    "online-rounding-option",  # another option
    "house-100-116-belote",  # the takers' belote, the house rules
    "house-capot-made",  # a capot called
    "house-coinche",  # a coinche
    "house-surcoinche-3010",  # the target chosen
    "federation-melds-count",  # the takers' melds, the federation's rules
    "classic-defense-belote",  # the defense's belote, the classic rules
    "classic-defense-sweep",  # the defense's sweep
    "classic-TA-two-belotes",  # TA and two belotes
}
"""The worked examples typed into the form without JavaScript: each field and each kind of
value at least once (every example goes through the form's GET and POST in
``tests/server/web/test_calculator_page.py``, and through this page with JavaScript above)."""
assert {ex.id for ex in ALL} >= WITHOUT_JAVASCRIPT, WITHOUT_JAVASCRIPT - {ex.id for ex in ALL}


@pytest.mark.parametrize(("ex", "lang"), CASES)
def test_worked_example_with_javascript(js_page: Page, ex: Example, lang: str) -> None:
    page = js_page
    page.goto(PAGES[lang])
    expect(page.locator("#calc-form[data-ready]")).to_have_count(1)
    type_in(page, ex)
    expect_result(page, ex, lang)  # no submit: the result follows the fields
    summary = i18n.gettext(
        lang, "calc_page.summary_made" if ex.made else "calc_page.summary_failed", takers=ex.taker, defense=ex.defense
    )
    expect(page.locator("#calc-summary")).to_have_text(summary)
    assert re.search(rf"points={ex.points}\b", page.url), page.url  # the address is the result's
    assert page.js_errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize(("ex", "lang"), [case for case in CASES if case.values[0].id in WITHOUT_JAVASCRIPT])
def test_worked_example_without_javascript(no_js_page: Page, ex: Example, lang: str) -> None:
    page = no_js_page
    page.goto(PAGES[lang])
    type_in(page, ex)
    expect(page.locator("#calc-score")).to_be_hidden()
    page.click("button[type=submit]")
    expect_result(page, ex, lang)
    assert re.search(rf"points={ex.points}\b", page.url), page.url


def test_a_shared_address_shows_its_result_and_follows_changes(page: Page) -> None:
    page.goto("/calculator?profile=online&bid=100&trump=H&points=112")
    expect(page.locator("#score-taker")).to_have_text("212")
    expect(page.locator("#calc-form[data-ready]")).to_have_count(1)
    page.fill("#points", "110")
    expect(page.locator("#score-taker")).to_have_text("210")
    page.check('input[name="double"][value="coinche"]')
    expect(page.locator("#score-taker")).to_have_text("360")


def test_the_form_follows_the_rules(page: Page) -> None:
    """Which contracts and fields show comes from the server's rule set."""
    page.goto("/calculateur")
    expect(page.locator("#calc-form[data-ready]")).to_have_count(1)
    expect(page.locator("#melds-group")).to_be_visible()
    page.select_option("#profile", "online")
    expect(page.locator("#melds-group")).to_be_hidden()
    expect(page.locator("#no-melds")).to_be_visible()
    expect(page.locator('[data-trump="SA"]')).to_be_hidden()
    expect(page.locator("#target option")).to_have_count(4)  # the rules' default, 501, 1001, 2001
    expect(page.locator("#surcoinche-x")).to_have_text("4")
    page.click("details.calc-options summary")
    page.select_option("#opt-sa_ta", "yes")
    expect(page.locator('[data-trump="SA"]')).to_be_visible()
    page.select_option("#opt-melds", "yes")
    expect(page.locator("#melds-group")).to_be_visible()
    page.select_option("#profile", "house")
    expect(page.locator("#surcoinche-x")).to_have_text("3")
    page.select_option("#target", "3010")
    expect(page.locator("#surcoinche-x")).to_have_text("4")
    expect(page.locator('#bid option[value="180"]')).to_have_count(1)


IMPOSSIBLE = [
    # (fields typed after the example's, the field holding the message, its words)
    ("points", "170", "#err-points", "#points", {"fr": "de 0 à 162, pas 170", "en": "between 0 and 162, not 170"}),
    ("points", "douze", "#err-points", "#points", {"fr": "pas un nombre entier", "en": "not a whole number"}),
    ("taker_melds", "25", "#err-taker_melds", "#taker_melds", {"fr": "multiple positif de 10", "en": "multiple of 10"}),
]


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize(("field", "value", "slot", "control", "words"), IMPOSSIBLE, ids=["range", "text", "melds"])
def test_impossible_input_with_javascript(
    page: Page, lang: str, field: str, value: str, slot: str, control: str, words: dict[str, str]
) -> None:
    page.goto(PAGES[lang])
    expect(page.locator("#calc-form[data-ready]")).to_have_count(1)
    page.fill("#points", "100")
    expect(page.locator("#score-taker")).to_have_text("180")
    page.fill(f"#{field}", value)
    expect(page.locator(slot)).to_be_visible()
    expect(page.locator(slot)).to_contain_text(words[lang])
    expect(page.locator(control)).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#calc-score")).to_be_hidden()
    expect(page.locator("#calc-summary")).to_contain_text(words[lang])
    assert page.js_errors == []  # type: ignore[attr-defined]
    page.fill(f"#{field}", "100" if field == "points" else "20")  # corrected: the message goes
    expect(page.locator(slot)).to_be_hidden()
    expect(page.locator(control)).not_to_have_attribute("aria-invalid", "true")
    expect(page.locator("#calc-score")).to_be_visible()


def test_impossible_contract_with_javascript(page: Page) -> None:
    page.goto("/calculator?profile=classic&bid=90&trump=SA&points=100")
    expect(page.locator("#calc-form[data-ready]")).to_have_count(1)
    page.select_option("#taker_belote", "1")
    expect(page.locator("#err-belote")).to_contain_text("at most 0 belote")
    page.select_option("#taker_belote", "0")
    page.select_option("#profile", "online")  # no SA under the online rules
    expect(page.locator("#err-contract")).to_contain_text("SA and TA contracts are not played")
    expect(page.locator("#bid")).to_have_attribute("aria-invalid", "true")


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize(("field", "value", "slot", "control", "words"), IMPOSSIBLE, ids=["range", "text", "melds"])
def test_impossible_input_without_javascript(
    no_js_page: Page, lang: str, field: str, value: str, slot: str, control: str, words: dict[str, str]
) -> None:
    page = no_js_page
    page.goto(PAGES[lang])
    page.fill("#points", "100")
    page.fill(f"#{field}", value)
    page.click("button[type=submit]")
    expect(page.locator(slot)).to_be_visible()
    expect(page.locator(slot)).to_contain_text(words[lang])
    expect(page.locator(control)).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#calc-score")).to_be_hidden()


def test_missing_points_are_asked_for_only_once_sent(page: Page) -> None:
    page.goto("/calculator")
    expect(page.locator("#calc-form[data-ready]")).to_have_count(1)
    page.select_option("#profile", "house")
    page.check('input[name="trump"][value="S"]')
    # The server's answer for the house rules is in the page (their générale is worth 300):
    # the errors it carried are shown by now.
    expect(page.locator('#bid option[value="generale"]')).to_have_text("Générale (300)")
    expect(page.locator("#err-points")).to_be_hidden()  # not yet typed: no complaint
    page.click("button[type=submit]")
    expect(page.locator("#err-points")).to_contain_text("Enter the takers' card points")


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_accessible_in_every_state(page: Page, lang: str) -> None:
    page.goto(PAGES[lang])
    expect(page.locator("#calc-form[data-ready]")).to_have_count(1)
    assert_accessible(page)
    page.fill("#points", "100")
    expect(page.locator("#score-taker")).to_have_text("180")
    page.click("details.calc-options summary")
    assert_accessible(page)
    page.fill("#points", "999")
    expect(page.locator("#err-points")).to_be_visible()
    assert_accessible(page)


def test_accessible_as_the_server_renders_it(page: Page) -> None:
    """The pages the form without JavaScript gets (axe-core itself needs JavaScript, so the
    same server-rendered pages are checked before the script changes anything)."""
    page.goto("/calculateur?profile=classic&bid=90&trump=H&points=abc&taker_melds=25")
    expect(page.locator("#err-points")).to_be_visible()
    assert_accessible(page)
    page.goto("/calculateur?profile=house&bid=100&trump=H&points=96&taker_belote=1")
    expect(page.locator("#score-taker")).to_have_text("220")
    assert_accessible(page)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_phone_has_no_horizontal_scroll(phone_page: Page, lang: str) -> None:
    page = phone_page
    page.goto(PAGES[lang])
    expect(page.locator("#calc-form[data-ready]")).to_have_count(1)
    assert_no_horizontal_scroll(page)
    page.click("details.calc-options summary")
    page.fill("#points", "100")
    page.fill("#taker_melds", "50")
    expect(page.locator("#score-taker")).to_have_text("230")
    assert_no_horizontal_scroll(page)
    page.fill("#points", "8" * 40)
    expect(page.locator("#err-points")).to_be_visible()
    assert_no_horizontal_scroll(page)
    assert_accessible(page)
