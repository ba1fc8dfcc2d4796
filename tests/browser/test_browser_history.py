"""The history in Chromium (issue 18): an account plays a short game to its end, finds it
in its history, opens the game, steps the first deal's replay card by card with the
buttons, downloads the whole game's record, uploads it again at ``/revoir`` and sees the
same deals replayed."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from accessibility import assert_accessible, assert_no_horizontal_scroll
from playwright.sync_api import Page, expect
from table_driver import keep_screenshot, start_solo

from coinche.engine.record import decode_record, parse_record, replay

PASSWORD = "cartes-sur-table-1"
TABLE_URL = re.compile(r"/table/([^/?#]+)$")


@pytest.fixture
def base(server_factory: Any, tmp_path: Path) -> Iterator[str]:
    """A server of the test's own (sign-ups are limited per address); no traceback after."""
    with server_factory(tmp_path) as url:
        yield url
    log = (tmp_path / "server.log").read_text("utf-8")
    assert "Traceback" not in log, log


def review_steps(page: Page) -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = page.evaluate(
        "() => JSON.parse(document.getElementById('review-data').textContent).steps"
    )
    return steps


def cards_of(steps: list[dict[str, Any]]) -> list[Any]:
    """What the steps show of the play: each step's kind and the trick on the table."""
    return [(s["kind"], s.get("trick")) for s in steps]


def test_history_replay_download_and_upload(base: str, make_page: Callable[..., Page], tmp_path: Path) -> None:
    page = make_page(base)
    page.goto("/inscription")
    page.get_by_label("Nom", exact=True).fill("Honorine")
    page.get_by_label("Mot de passe", exact=True).fill(PASSWORD)
    page.get_by_label("Confirmer le mot de passe", exact=True).fill(PASSWORD)
    with page.expect_navigation():
        page.get_by_role("button", name="Créer mon compte", exact=True).click()
    expect(page).to_have_url(re.compile(r"/compte$"))

    table = start_solo(page, profile="classic", target=100)  # a deal or two end the game
    found = TABLE_URL.search(page.url)
    assert found, page.url
    table_id = found[1]
    played = table.play_deal(bid=True)
    deadline = time.monotonic() + 120
    while played.end != "over" and time.monotonic() < deadline:
        assert played.end == "next", played
        table.next_deal()
        played = table.play_deal(bid=True)
    assert played.end == "over", played

    # The history, from the header.
    page.goto("/compte")
    page.get_by_role("link", name="Historique", exact=True).click()
    expect(page).to_have_url(re.compile(r"/historique$"))
    rows = page.get_by_role("table", name="Historique de vos parties").locator("tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text(re.compile("Gagnée|Perdue"))
    expect(rows.first).to_contain_text("Ordinateur Débutant")
    rows.first.get_by_role("link").click()
    expect(page).to_have_url(re.compile(rf"/historique/partie/{re.escape(table_id)}$"))
    deals = page.get_by_role("table", name="Donnes de la partie").locator("tbody tr")
    count = deals.count()
    assert count >= 1
    assert_accessible(page)
    game_url = page.url

    # The first deal's replay, stepped with the buttons.
    page.get_by_role("link", name="Revoir la donne 1", exact=True).click()
    expect(page).to_have_url(re.compile(rf"/table/{re.escape(table_id)}/donne/1$"))
    review = page.locator("#review")
    expect(review).to_have_attribute("data-step", "0")
    original = review_steps(page)
    following = page.get_by_role("button", name="Suivant", exact=True)
    for k in range(1, len(original)):
        following.click()
        expect(review).to_have_attribute("data-step", str(k))
        if original[k]["kind"] == "card":
            expect(page.locator(".board-trick .rcard")).to_have_count(len(original[k]["trick"]))
    page.get_by_role("button", name="Précédent", exact=True).click()
    expect(review).to_have_attribute("data-step", str(len(original) - 2))
    assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]

    # The whole game's record, downloaded.
    page.goto(game_url)
    with page.expect_download() as download_info:
        page.get_by_role("link", name="Télécharger la partie entière (JSON)").click()
    download = download_info.value
    path = tmp_path / "game.json"
    download.save_as(str(path))
    raw = path.read_bytes()
    record = json.loads(raw)
    assert len(record["deals"]) == count
    game = replay(parse_record(decode_record(raw)))  # valid for the engine's reader
    assert game.is_over

    # Uploaded again: the same deals replayed.
    page.goto("/revoir")
    page.get_by_label("ou un fichier").set_input_files(str(path))
    with page.expect_navigation():
        page.get_by_role("button", name="Revoir", exact=True).click()
    if count > 1:
        expect(page.get_by_role("heading", level=1)).to_have_text("Enregistrement envoyé")
        expect(page.locator("ol.replay-deals li")).to_have_count(count)
        page.get_by_role("link", name="Donne 1", exact=True).click()
    expect(page).to_have_url(re.compile(r"/revoir/[A-Za-z0-9_-]+/donne/1$"))
    uploaded = review_steps(page)
    assert cards_of(uploaded) == cards_of(original)
    following = page.get_by_role("button", name="Suivant", exact=True)
    for k in range(1, 6):
        following.click()
        expect(page.locator("#review")).to_have_attribute("data-step", str(k))

    page.goto("/historique")
    keep_screenshot(page, "history-desktop", full_page=True)
    page.set_viewport_size({"width": 360, "height": 740})
    assert_no_horizontal_scroll(page)
    assert_accessible(page)
    page.goto(game_url)
    assert_no_horizontal_scroll(page)
    keep_screenshot(page, "history-game-phone", full_page=True)
    assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]
