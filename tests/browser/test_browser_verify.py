"""Deals anyone can check, in Chromium (issue 17, item 4): the table shows the deal's
commitment before the auction; once the deal is played, its review reveals the seed under
the same commitment; the verification page accepts the deal's record and refuses it with
one card changed."""

from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import Page, expect
from table_driver import keep_screenshot, start_solo


def test_the_verification_page_accepts_a_played_deal_and_refuses_a_changed_card(page: Page, tmp_path: Path) -> None:
    table = start_solo(page, profile="classic", target=700)
    shown = page.locator("p.commitment")
    expect(shown).to_have_text(re.compile(r"^Engagement de la donne 1 : [0-9a-f]{8}…$"))
    title = shown.get_attribute("title") or ""
    committed = re.search(r"[0-9a-f]{64}", title)
    assert committed is not None, title
    played = table.play_deal(bid=True)
    assert played.end in ("next", "over"), played

    table_id = re.search(r"/table/([^/]+)$", page.url).group(1)  # type: ignore[union-attr]
    review_url = f"/table/{table_id}/donne/1"
    page.goto(review_url)
    facts = page.locator(".dealing-facts code")
    expect(facts.first).to_have_text(committed[0])  # the commitment shown before the auction
    expect(facts.nth(1)).to_have_text(re.compile(r"^[0-9a-f]{64}$"))  # the seed, now revealed
    record = page.request.get(f"{review_url}/record.json")
    assert record.ok, record.status
    text = record.text()
    assert json.loads(text)["dealing"]["commitment"] == committed[0]

    page.get_by_role("link", name="Vérifier une donne").click()
    expect(page).to_have_url(re.compile(r"/verifier$"))
    page.get_by_label("Enregistrement (JSON)").fill(text)
    page.get_by_role("button", name="Vérifier", exact=True).click()
    expect(page.get_by_role("status")).to_have_text("Toutes les donnes vérifiables sont conformes.")
    expect(page.locator(".verify-results li.ok")).to_contain_text("engagement vérifié")
    expect(page.locator(".verify-results li.ok")).to_contain_text("Donne 1 : ✓ conforme")

    # One card moved from one hand to another: the seed no longer deals these hands.
    changed = json.loads(text)
    hands = [hand.split() for hand in changed["hands"]]  # "JH 8H ..." per seat
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    changed["hands"] = [" ".join(hand) for hand in hands]
    page.get_by_label("Enregistrement (JSON)").fill(json.dumps(changed))
    page.get_by_role("button", name="Vérifier", exact=True).click()
    expect(page.get_by_role("status")).to_have_text("Au moins une donne ne correspond pas à sa graine.")
    failed = page.locator(".verify-results li.failed")
    expect(failed).to_contain_text("Donne 1 : ✗ ne correspond pas")
    expect(failed).to_contain_text("Sud : la main de l'enregistrement a")
    expect(failed).to_contain_text("Est : la main de l'enregistrement a")
    expect(failed).not_to_contain_text("seat")
    keep_screenshot(page, "verify-failed", full_page=True)

    # Not JSON: a plain sentence with the line and column.
    page.get_by_label("Enregistrement (JSON)").fill('{"rules": "classic",\n  "dealer": }')
    page.get_by_role("button", name="Vérifier", exact=True).click()
    expect(page.get_by_role("alert")).to_have_text("Ce n'est pas du JSON valide : erreur à la ligne 2, colonne 13.")
    assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]
