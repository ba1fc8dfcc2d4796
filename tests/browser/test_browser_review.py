"""The deal review in Chromium (issue 8): a guest plays one solo deal, opens its review
from the summary, steps through every call and card with the keyboard only, and sees the
double-dummy table, whose numbers are those of ``coinche solve`` on the deal's record."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from accessibility import assert_accessible, assert_no_horizontal_scroll
from playwright.sync_api import Page, expect
from table_driver import keep_screenshot, start_solo


def test_the_review_steps_through_the_deal_and_shows_the_solvers_table(page: Page, tmp_path: Path) -> None:
    table = start_solo(page, profile="classic", target=700)
    played = table.play_deal(bid=True)
    assert played.end in ("next", "over"), played
    table_id = re.search(r"/table/([^/]+)$", page.url).group(1)  # type: ignore[union-attr]
    review_url = f"/table/{table_id}/donne/1"

    link = table.summary().locator("a.review-link")
    expect(link).to_have_attribute("href", review_url)
    link.focus()
    link.press("Enter")
    expect(page).to_have_url(re.compile(re.escape(review_url) + "$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Revue de la donne 1")
    expect(page.get_by_role("link", name=re.compile("Retour à la table"))).to_have_attribute(
        "href", f"/table/{table_id}"
    )

    stepper = page.locator("#stepper")
    expect(stepper).to_be_visible()
    steps = page.evaluate("() => JSON.parse(document.getElementById('review-data').textContent).steps")
    n = len(steps)
    assert n == 1 + sum(1 for s in steps if s["kind"] == "call") + 32, n  # as dealt, every call, every card
    review = page.locator("#review")
    live = page.locator("#live")
    expect(review).to_have_attribute("data-step", "0")

    # The keyboard only: focus "Suivant", then the arrow keys.
    page.get_by_role("button", name="Suivant", exact=True).focus()
    for k in range(1, n):
        page.keyboard.press("ArrowRight")
        expect(review).to_have_attribute("data-step", str(k))
        expect(live).to_have_text(re.compile(rf"^Étape {k + 1} sur {n} : {re.escape(steps[k]['text'])}$"))
        expect(page.locator("#step-text")).to_have_text(steps[k]["text"])
        if steps[k]["kind"] == "card":
            on_table = page.locator(".board-trick .rcard")
            expect(on_table).to_have_count(len(steps[k]["trick"]))
            held = page.locator(".rhand .rcard")
            expect(held).to_have_count(sum(len(h) for h in steps[k]["hands"]))
    page.keyboard.press("ArrowRight")  # past the end: stays
    expect(review).to_have_attribute("data-step", str(n - 1))
    page.keyboard.press("Home")
    expect(review).to_have_attribute("data-step", "0")
    page.keyboard.press("End")
    expect(review).to_have_attribute("data-step", str(n - 1))
    page.keyboard.press("ArrowLeft")
    expect(review).to_have_attribute("data-step", str(n - 2))

    # The double-dummy table, once ready, is `coinche solve`'s on the downloaded record.
    expect(review).to_have_attribute("data-analysis", "ready", timeout=30_000)
    record = page.request.get(f"{review_url}/record.json")
    assert record.ok, record.status
    path = tmp_path / "deal.json"
    path.write_text(record.text(), encoding="utf-8")
    solved = subprocess.run(
        [sys.executable, "-m", "coinche.cli", "solve", str(path), "--json"], capture_output=True, text=True, check=True
    )
    expected = json.loads(solved.stdout)["trumps"]
    rows = page.locator("#analysis .dd-table tbody tr")
    expect(rows).to_have_count(len(expected))
    for i, want in enumerate(expected):
        row = rows.nth(i)
        expect(row).to_have_attribute("data-trump", want["trump"])
        cells = row.locator("td").all_inner_texts()
        assert [int(cells[0]), int(cells[1])] == want["points"], (want, cells)
        for cell, bid, sweep in zip(cells[2:], want["best_bid"], want["sweep"], strict=True):
            if sweep:
                assert cell.lower().startswith("capot" if sweep == "capot" else "générale"), (cell, want)
            elif bid is None:
                assert cell == "aucun", (cell, want)
            else:
                assert cell.startswith(f"{bid} "), (cell, want)

    # At a card step, the value of each legal card, the card played marked.
    page.keyboard.press("End")
    values = page.locator(".values-table")
    expect(values).to_be_visible()
    expect(values.locator("tr.played")).to_have_count(1)
    expect(values.locator("tr.played")).to_contain_text("jouée")
    expect(values.locator("tr.best").first).to_contain_text("meilleure")

    page.keyboard.press("Home")
    for _ in range(len([s for s in steps if s["kind"] == "call"]) + 6):
        page.keyboard.press("ArrowRight")
    keep_screenshot(page, "review-desktop", full_page=True)
    assert_accessible(page)

    page.set_viewport_size({"width": 360, "height": 740})
    assert_no_horizontal_scroll(page)
    keep_screenshot(page, "review-phone", full_page=True)
    assert_accessible(page)
    assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]
