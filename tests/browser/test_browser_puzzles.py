"""Puzzles in Chromium (issue 32): from the home page to a puzzle, missed by the keyboard
(the card buttons are real buttons: Tab, Enter), the answer read by a screen reader (a
status region, every card's value), then the next one solved, in French and English."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect
from table_driver import keep_screenshot

from coinche.bots.bidding_puzzles import best_bidding_puzzle, find_bidding_puzzles
from coinche.bots.puzzles import best_puzzle, find_puzzles
from coinche.engine.actions import call_str, is_numeric_bid
from coinche.engine.cards import card_str
from coinche.server.compute.job_kinds import bidding_puzzle_to_json, puzzle_to_json
from coinche.server.features.bidding_puzzles import BiddingPuzzleStore
from coinche.server.features.puzzles import PuzzleStore
from coinche.server.infra.store import Store
from played_deals import played_deal


def stored_puzzles(db: Path, count: int) -> dict[str, str]:
    """``count`` puzzles of played deals stored in the server's database: id -> solution."""
    store = Store(f"sqlite:///{db}")
    try:
        found: dict[str, str] = {}
        for seed in range(400):
            deal = played_deal("classic", seed)
            best = best_puzzle(find_puzzles(deal.rules, deal.dealer, deal.dealt, deal.log))
            if best is None:
                continue
            puzzle_id = PuzzleStore(store).add(f"seed{seed}", 1, deal, puzzle_to_json(best))
            assert puzzle_id is not None
            found[puzzle_id] = card_str(best.solution)
            if len(found) == count:
                return found
        raise AssertionError("too few puzzles")
    finally:
        store.close()


def card_buttons(page: Page) -> list[str]:
    return [b.get_attribute("value") or "" for b in page.locator("button.card-button").all()]


def test_a_puzzle_missed_by_keyboard_then_one_solved(
    browser: Browser, server_factory: Callable[..., Any], tmp_path: Path
) -> None:
    with server_factory(tmp_path) as base:
        solutions = stored_puzzles(tmp_path / "coinche.db", 2)
        context = browser.new_context(base_url=base, locale="fr-FR")
        page = context.new_page()
        page.goto("/")
        page.get_by_role("link", name="Résoudre des problèmes").click()
        expect(page).to_have_url(re.compile(r"/problemes$"))
        page.get_by_role("link", name="Enchaîner les problèmes").click()
        expect(page.get_by_role("heading", level=1)).to_have_text(re.compile(r"^Problème "))
        puzzle_id = page.url.split("?")[0].rsplit("/", 1)[1]
        solution = solutions[puzzle_id]
        legal = card_buttons(page)
        wrong = next(c for c in legal if c != solution)
        # By the keyboard: focus the wrong card's button and press Enter.
        button = page.locator(f'button.card-button[value="{wrong}"]')
        for _ in range(60):
            page.keyboard.press("Tab")
            if button.evaluate("b => b === document.activeElement"):
                break
        else:
            raise AssertionError("Tab never reached the card's button")
        page.keyboard.press("Enter")
        answer = page.get_by_role("status")
        expect(answer).to_contain_text("Manqué")
        expect(answer).to_contain_text("Seul ")
        rows = page.get_by_role("table").get_by_role("row")
        expect(rows).to_have_count(1 + len(legal))  # a row for each card the position allowed
        expect(page.locator("tr.solution")).to_have_count(1)
        expect(page.locator("button.card-button")).to_have_count(0)  # answered: no more buttons
        keep_screenshot(page, "puzzle_missed")

        page.get_by_role("link", name="Problème suivant").click()
        expect(page.get_by_role("heading", level=1)).to_have_text(re.compile(r"^Problème "))
        second = page.url.split("?")[0].rsplit("/", 1)[1]
        assert second != puzzle_id
        page.get_by_role("button", name=re.compile(r"^Jouer ")).first.wait_for()
        page.locator(f'button.card-button[value="{solutions[second]}"]').click()
        expect(page.get_by_role("status")).to_contain_text("Bravo")
        expect(page.get_by_role("status")).to_contain_text("série : 1")

        # The same page in English.
        page.goto(f"/puzzles/{second}")
        expect(page.get_by_role("heading", level=1)).to_have_text(re.compile(r"^Puzzle no\. \d+ · .+ to play$"))
        expect(page.get_by_text(re.compile("find the card that (makes|beats) the contract"))).to_be_visible()
        page.locator(f'button.card-button[value="{solutions[second]}"]').click()
        expect(page.get_by_role("status")).to_contain_text("Well done")
        keep_screenshot(page, "puzzle_solved_en")
        context.close()


def stored_bidding_puzzle(db: Path) -> tuple[str, str]:
    """A bidding puzzle of a played deal stored in the server's database: (id, the expert's call)."""
    store = Store(f"sqlite:///{db}")
    try:
        for seed in range(60):
            deal = played_deal("classic", seed)
            best = best_bidding_puzzle(find_bidding_puzzles(deal.rules, deal.dealer, deal.dealt, deal.auction.calls))
            if best is not None and is_numeric_bid(best.call):
                puzzle_id = BiddingPuzzleStore(store).add(f"seed{seed}", 1, deal, bidding_puzzle_to_json(best))
                assert puzzle_id is not None
                return puzzle_id, call_str(best.call)
        raise AssertionError("no bidding puzzle whose answer is a bid")
    finally:
        store.close()


def test_a_bidding_puzzle_answered_by_keyboard_in_french_and_english(
    browser: Browser, server_factory: Callable[..., Any], tmp_path: Path
) -> None:
    """From the puzzles' page to a bidding puzzle; the expert's bid given with the table's
    own bidding box (no list of every bid), by the keyboard: its value chosen, then its
    trump pressed with Enter; the answer read in a status region, every call's worth in a
    table; the page in English."""
    with server_factory(tmp_path) as base:
        puzzle_id, expert = stored_bidding_puzzle(tmp_path / "coinche.db")
        context = browser.new_context(base_url=base, locale="fr-FR", viewport={"width": 390, "height": 844})
        page = context.new_page()
        page.goto("/problemes")
        page.get_by_role("link", name="Que dites-vous ? Des problèmes d'enchères").click()
        expect(page).to_have_url(re.compile(rf"/problemes/encheres/{puzzle_id}$"))
        expect(page.get_by_role("heading", level=1)).to_contain_text("Que dites-vous ?")
        box = page.locator("#bidding")
        expect(box).to_be_visible()
        expect(page.locator("select")).to_have_count(0)
        value = re.match(r"\d+", expert)
        assert value is not None
        box.get_by_role("radio", name=value.group(0), exact=True).press("Enter")  # the value, on to its trumps
        bid = box.locator(f'button[data-call="{expert}"]')
        expect(bid).to_be_enabled()
        keep_screenshot(page, "bidding_puzzle_box_phone", full_page=True)
        bid.focus()
        page.keyboard.press("Enter")
        answer = page.get_by_role("status")
        expect(answer).to_contain_text("Bien vu")
        expect(answer).to_contain_text("rapporte en moyenne")
        expect(page.get_by_role("table", name="Ce que vaut chaque enchère")).to_be_visible()
        expect(page.locator("tr.solution")).to_have_count(1)
        expect(page.locator("#bidding")).to_have_count(0)  # answered: no more box
        keep_screenshot(page, "bidding_puzzle_solved")
        page.set_viewport_size({"width": 1366, "height": 768})
        page.goto(f"/puzzles/bidding/{puzzle_id}")
        expect(page.get_by_role("heading", level=1)).to_contain_text("What do you call?")
        keep_screenshot(page, "bidding_puzzle_box_laptop", full_page=True)
        page.get_by_role("button", name="Pass", exact=True).press("Enter")
        expect(page.get_by_role("status")).to_contain_text("expert")
        context.close()
