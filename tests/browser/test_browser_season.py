"""The season page in the browser (issue 51): a division's table with the reader's line and
who goes up and down as it stands, the divisions' and profiles' tabs from the keyboard,
in French at a laptop's size and in English at a phone's; the past season's badge on the
profile."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from accessibility import assert_no_horizontal_scroll
from browser_helpers import signed_up
from playwright.sync_api import Page, expect
from sqlalchemy import select
from table_driver import keep_screenshot

from coinche.server.features.seasons import SeasonStore
from coinche.server.infra.rows.people import AccountRow
from coinche.server.infra.store import Store
from coinche.server.table.divisions import season_of


@pytest.fixture(scope="module")
def season_server(
    tmp_path_factory: pytest.TempPathFactory, server_factory: Callable[..., Any]
) -> Iterator[tuple[str, Path]]:
    workdir = tmp_path_factory.mktemp("season")
    with server_factory(workdir) as base:
        yield base, workdir


def fill_season(workdir: Path, name: str) -> str:
    """Six players' games this month in division 3, the person named one of them; the month."""
    store = Store(f"sqlite:///{workdir / 'coinche.db'}")
    try:
        with store.session() as s:
            player = s.scalar(select(AccountRow.player_id).where(AccountRow.name == name))
        assert player is not None
        now = datetime.now(UTC)
        season = season_of(now)
        seasons = SeasonStore(store)
        people = {player: ["won", "won", "lost"], "x1": ["won"] * 4, "x2": ["lost"] * 3, "x3": ["left"] * 3}
        n = 0
        for who, outcomes in people.items():
            for outcome in outcomes:
                n += 1
                seasons.started(f"b{n}", season, "classic", {who: 25.0}, now)
                seasons.count(f"b{n}", "classic", {who: outcome}, now)
        return season
    finally:
        store.close()


def test_the_season_page_in_french_and_english(season_server: tuple[str, Path], make_page: Callable[..., Page]) -> None:
    base, workdir = season_server
    page = make_page(base, viewport={"width": 1366, "height": 768})
    signed_up(page, "Zoe")
    fill_season(workdir, "Zoe")
    page.goto("/partie-rapide")
    page.get_by_role("link", name="La saison du mois").click()
    expect(page).to_have_url(re.compile(r"/saison$"))
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile(r"^Saison de \S+ \d{4}$"))
    expect(page.locator(".season-you")).to_contain_text("Vous êtes en division 3")
    table = page.locator("table.season-table")
    expect(table.locator("tbody tr")).to_have_count(4)
    mine = table.locator("tr.you")
    expect(mine).to_contain_text("Zoe")
    expect(mine).to_contain_text("(vous)")
    expect(table.locator("tbody tr").first).to_contain_text("monte")  # four games won
    expect(table.locator("tbody tr").last).to_contain_text("descend")  # three games left
    assert_no_horizontal_scroll(page)
    keep_screenshot(page, "season-fr", full_page=True)
    # the tabs from the keyboard
    division_2 = page.get_by_role("navigation", name="Divisions").get_by_role("link", name="Division 2")
    division_2.focus()
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"division=2"))
    expect(page.locator(".season-page")).to_contain_text("Personne n'a encore joué dans cette division")
    assert not page.js_errors  # type: ignore[attr-defined]

    phone = make_page(base, viewport={"width": 390, "height": 844})
    signed_up(phone, "Ana")
    phone.goto("/season?profile=classic&division=3")
    expect(phone.get_by_role("heading", level=1)).to_have_text(re.compile(r"^\S+ \d{4} season$"))
    expect(phone.locator(".season-you")).to_contain_text("your first rated quick game places you in division 3")
    expect(phone.locator("table.season-table tbody tr")).to_have_count(4)
    expect(phone.locator(".season-days")).to_contain_text(re.compile(r"\d+ days? left\."))
    assert_no_horizontal_scroll(phone)
    keep_screenshot(phone, "season-en-phone", full_page=True)
    online = phone.get_by_role("navigation", name="The season's rules").get_by_role("link", name="Online")
    online.focus()
    phone.keyboard.press("Enter")
    expect(phone).to_have_url(re.compile(r"profile=online"))
    assert not phone.js_errors  # type: ignore[attr-defined]
