"""'Apprendre en jouant' in Chromium (issues 32 and 49): the guided deal is played with the
table's own controls, the bidding box and the hand (no plain form buttons once the script
runs), to its end, which says the deal in words and offers a real deal with the coach on;
a wrong move is explained on the same step; the keyboard plays from the box and the hand;
the pages fit a phone."""

from __future__ import annotations

import re
from collections.abc import Callable

from accessibility import assert_accessible, assert_no_horizontal_scroll
from playwright.sync_api import Page, expect
from table_driver import keep_screenshot

from coinche.engine.actions import action_str, is_card
from coinche.server.table import i18n, tutorial


def step_url(step: int, lang: str = "fr") -> re.Pattern[str]:
    return re.compile(rf"/{'apprendre' if lang == 'fr' else 'learn'}/{step}$")


def play(page: Page, code: str) -> None:
    """Plays ``code`` (record notation) with the table's controls: a card of the hand, or
    a call of the bidding box (a bid: its value first, then the trump's button)."""
    if re.fullmatch(r"[2-9TJQKA][SHDC]", code):
        page.locator(f"#hand button.hand-card[data-card='{code}']").click()
        return
    value = re.match(r"\d+", code)
    if value:
        page.locator(f"#bidding .bid-values [data-value='{value.group()}']").click()
    page.locator(f"#bidding button.call[data-call='{code}']").click()


def test_the_guided_deal_is_played_with_the_tables_controls(page: Page) -> None:
    page.goto("/")
    page.get_by_role("link", name="Apprendre", exact=True).click()
    expect(page).to_have_url(re.compile(r"/apprendre$"))
    expect(page.get_by_role("status")).to_contain_text("L'atout est la couleur choisie aux enchères")
    expect(page.get_by_role("img", name="Valet de cœur : 20 points")).to_be_visible()
    page.get_by_role("link", name="Commencer").click()
    for step in range(2, tutorial.STEPS + 1):
        expect(page).to_have_url(step_url(step))
        expect(page.get_by_role("status")).to_contain_text(i18n.gettext("fr", f"tutorial.step.{tutorial.lesson(step)}"))
        expect(page.locator(".tutorial-fallback")).to_have_count(0)  # the script's controls instead
        move = tutorial.expected(step)
        assert move is not None
        if is_card(move):
            expect(page.locator("#bidding")).to_be_hidden()
            expect(page.locator("#hand button.hand-card:not(:disabled)").first).to_be_focused()
        else:
            expect(page.locator("#bidding")).to_be_visible()
            expect(page.locator("#bidding button.call[data-call='pass']")).to_be_focused()
        if step == 2:
            keep_screenshot(page, "tutorial_bidding_1366")
        if step == 5:  # following suit: the Ten first, legal, and explained on the same step
            keep_screenshot(page, "tutorial_card_1366")
            play(page, "TS")
            expect(page.locator("#why")).to_have_text(i18n.gettext("fr", "tutorial.wrong.follow"))
            expect(page.locator("#why")).to_be_focused()  # the explanation is read first
            expect(page).to_have_url(step_url(5))
            expect(page.locator("#hand button.hand-card[data-card='TS']")).to_be_enabled()
        play(page, action_str(move))
    expect(page).to_have_url(step_url(tutorial.END))
    status = page.get_by_role("status")
    expect(status).to_contain_text("Votre camp a promis 100 cœur coinché et fait 149 points sur 162 : contrat réussi.")
    real = page.get_by_role("button", name="Jouer une vraie donne avec le coach")
    expect(real).to_be_focused()
    form = real.locator("xpath=ancestor::form")
    expect(form).to_have_attribute("action", "/solo")
    expect(form.locator("input[name=coach]")).to_have_value("1")
    keep_screenshot(page, "tutorial_end_1366")
    assert not page.js_errors  # type: ignore[attr-defined]


def test_the_keyboard_plays_from_the_box_and_the_hand(page: Page) -> None:
    page.goto("/apprendre/3")
    expect(page.locator("#bidding button.call[data-call='pass']")).to_be_focused()
    page.keyboard.press("Enter")  # "Passe": the raise step's move
    expect(page).to_have_url(step_url(4))
    expect(page.locator("#bidding button.call[data-call='pass']")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page).to_have_url(step_url(5))
    expect(page.locator("#hand")).to_have_attribute("aria-describedby", "lesson")
    page.keyboard.press("End")  # the last playable card: the Seven of spades
    expect(page.locator("#hand button.hand-card[data-card='7S']")).to_be_focused()
    expect(page.locator("#hand button.hand-card[data-card='7S']")).to_have_accessible_name("Sept de pique")
    page.keyboard.press("Enter")
    expect(page).to_have_url(step_url(6))


def test_the_steps_fit_a_phone_in_english(make_page: Callable[..., Page], server: str) -> None:
    page = make_page(server, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    for step, name in ((2, "bidding"), (5, "card"), (tutorial.END, "end")):
        page.goto(f"/learn/{step}")
        expect(page.locator("h1")).to_have_text(i18n.gettext("en", f"tutorial.title.{tutorial.lesson(step)}"))
        if step == 2:
            expect(page.get_by_role("button", name="80 hearts")).to_be_attached()
            expect(page.get_by_role("button", name="Pass", exact=True)).to_be_in_viewport()
        if step == 5:
            expect(page.locator("#hand button.hand-card:not(:disabled)").last).to_be_in_viewport()
        if step == tutorial.END:
            expect(page.get_by_role("button", name="Play a real deal with the coach")).to_be_in_viewport()
        assert_no_horizontal_scroll(page)
        assert_accessible(page)
        keep_screenshot(page, f"tutorial_{name}_390")
