"""'Apprendre en jouant' in Chromium (issue 32): from the home page, the whole guided deal
played by the keyboard alone (the page puts the focus on the first playable button; Tab to
the move, Enter), one wrong move explained on the way, the time of each step measured and
printed, the whole run well under two minutes; then the first steps in English.

The time of a step is the browser's (load, find the move by Tab, post, next page), not a
reader's: the test also prints each step's words and a newcomer's reading time at 200
words a minute plus three seconds a move, and checks that estimate stays under two
minutes too."""

from __future__ import annotations

import re
import time

from playwright.sync_api import Page, expect
from table_driver import keep_screenshot

from coinche.engine.actions import action_str
from coinche.server.table import i18n, tutorial

READING_WORDS_PER_MINUTE = 200
SECONDS_A_MOVE = 3.0


def focused_value(page: Page) -> str | None:
    value = page.evaluate("() => document.activeElement && document.activeElement.getAttribute('value')")
    return value if isinstance(value, str) else None


def tab_to(page: Page, value: str) -> int:
    """Tab from the focused button to the one of ``value``; the number of presses."""
    for presses in range(40):
        if focused_value(page) == value:
            return presses
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached the button {value!r}")


def newcomer_seconds(lang: str, step: int) -> float:
    words = len(i18n.gettext(lang, f"tutorial.step.{tutorial.lesson(step)}").split())
    return words * 60 / READING_WORDS_PER_MINUTE + SECONDS_A_MOVE


def test_the_first_deal_by_keyboard_in_under_two_minutes(page: Page) -> None:
    started = time.monotonic()
    page.goto("/")
    page.get_by_role("link", name="Jouer la donne guidée").click()
    expect(page).to_have_url(re.compile(r"/apprendre$"))
    times: list[tuple[int, str, float]] = []

    # Step 1: read the cards' order; the focus is on the link that starts the deal.
    step_start = time.monotonic()
    expect(page.get_by_role("status")).to_contain_text("Valet, 9, As, 10")
    expect(page.get_by_role("link", name="Commencer la donne")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/apprendre/2$"))
    times.append((1, "order", time.monotonic() - step_start))

    for step in range(2, tutorial.STEPS + 1):
        step_start = time.monotonic()
        expect(page.get_by_text(f"Étape {step} / {tutorial.STEPS}")).to_be_visible()
        lesson = i18n.gettext("fr", f"tutorial.step.{tutorial.lesson(step)}")
        expect(page.get_by_role("status")).to_contain_text(lesson)
        # the page's autofocus: the first playable button (Chromium applies it once rendered)
        expect(page.locator("form.tutorial-moves button").first).to_be_focused()
        if step == 5:  # following suit: first the Ten, which is legal, and explained
            tab_to(page, "TS")
            page.keyboard.press("Enter")
            expect(page.get_by_role("status")).to_contain_text(i18n.gettext("fr", "tutorial.wrong.follow"))
            expect(page).to_have_url(re.compile(r"/apprendre/5$"))
            expect(page.get_by_text("Étape 5 / 12")).to_be_visible()
            expect(page.locator("#why")).to_be_focused()  # the explanation is read first
            keep_screenshot(page, "tutorial_wrong_move", full_page=True)
            page.locator("button.card-button").first.focus()  # back to the cards, as Shift+Tab would
        expected = tutorial.expected(step)
        assert expected is not None
        tab_to(page, action_str(expected))
        page.keyboard.press("Enter")
        expect(page).to_have_url(re.compile(rf"/apprendre/{step + 1}$"))
        times.append((step, tutorial.lesson(step), time.monotonic() - step_start))

    expect(page.get_by_text("Contrat gagné")).to_be_visible()
    result = tutorial.position(tutorial.END).result()
    assert result is not None
    for line in result.lines:  # the engine's count, line by line
        expect(page.locator(".tutorial-count")).to_contain_text(i18n.render("fr", line))
    expect(page.get_by_role("link", name="Jouer une vraie partie")).to_be_focused()
    keep_screenshot(page, "tutorial_count", full_page=True)
    total = time.monotonic() - started

    print("\nApprendre en jouant, by keyboard (browser time / a newcomer's reading estimate):")
    estimate = 0.0
    for step, key, seconds in times:
        reading = newcomer_seconds("fr", step)
        estimate += reading
        print(f"  step {step:2d} {key:<11} {seconds:6.2f} s   ~{reading:5.1f} s to read and move")
    estimate += newcomer_seconds("fr", tutorial.END)
    print(f"  total {total:6.2f} s in the browser; a newcomer's estimate {estimate:5.1f} s")
    assert total < 60, total  # well under two minutes for the machine
    assert estimate < 120, estimate


def test_the_first_steps_in_english(page: Page) -> None:
    page.goto("/learn")
    expect(page.get_by_role("status")).to_contain_text("Jack, 9, Ace, 10")
    expect(page.get_by_role("link", name="Start the deal")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/learn/2$"))
    expect(page.get_by_text(f"Step 2 / {tutorial.STEPS}")).to_be_visible()
    expect(page.get_by_role("status")).to_contain_text("open 80 hearts")
    # A pass is legal, not the move: explained, the same step.
    expect(page.get_by_role("button", name="Pass", exact=True)).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_role("status")).to_contain_text(i18n.gettext("en", "tutorial.wrong.open_pass"))
    expect(page).to_have_url(re.compile(r"/learn/2$"))
    page.get_by_role("button", name="80 hearts", exact=True).focus()
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/learn/3$"))
    expect(page.get_by_role("status")).to_contain_text("two more tricks")
    expect(page.get_by_role("list").filter(has_text="North (partner): 100 hearts").first).to_be_visible()
    expect(page.get_by_role("button", name="Pass", exact=True)).to_be_focused()
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/learn/4$"))
    expect(page.get_by_role("status")).to_contain_text("East coinches")
    expect(page.get_by_role("button", name="Surcoinche")).to_be_visible()
