"""The site's team in the browser (issue 51): a person reported from a friends' table shows
on the moderator's report page; the moderator opens their page, suspends them from the
form (keyboard), and the person is told why and until when on the quick play page; the
moderator's pages in French at a laptop's size and in English at a phone's, every
person's page looked at."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from accessibility import assert_no_horizontal_scroll
from browser_helpers import signed_up
from playwright.sync_api import Page, expect
from table_driver import keep_screenshot


@pytest.fixture(scope="module")
def team_server(
    tmp_path_factory: pytest.TempPathFactory, server_factory: Callable[..., Any]
) -> Iterator[tuple[str, Path]]:
    workdir = tmp_path_factory.mktemp("team")
    with server_factory(workdir) as base:
        yield base, workdir


def give_role(workdir: Path, name: str, role: str) -> None:
    command = [sys.executable, "-m", "coinche.cli", "role", "--db", f"sqlite:///{workdir / 'coinche.db'}", name, role]
    subprocess.run(command, check=True, capture_output=True, timeout=60)


def csrf(page: Page, path: str) -> str:
    page.goto(path)
    return str(page.locator("input[name=csrf]").first.get_attribute("value"))


def post(page: Page, path: str, form: dict[str, str], token_page: str) -> Any:
    """A form of the site sent from ``page``'s context (its cookies, its token)."""
    token = csrf(page, token_page)
    return page.request.post(path, form={"csrf": token, **form}, max_redirects=0)


def reported_at_a_table(zoe: Page, reporter: Page) -> str:
    """Zoe makes a friends' table, the reporter sits there and reports her; the table's id."""
    r = post(
        zoe, "/amis", {"profile": "classic", "target": "1000", "level_1": "beginner", "level_2": "beginner"}, "/amis"
    )
    assert r.status == 303, r.status
    table_id = r.headers["location"].removeprefix("/table/")
    zoe.goto(f"/table/{table_id}")
    expect(zoe.locator("#invite-code")).to_have_text(re.compile(r"^[A-Z2-9]{6}$"))
    code = zoe.locator("#invite-code").text_content() or ""
    assert re.fullmatch(r"[A-Z2-9]{6}", code), code
    r = post(reporter, f"/rejoindre/{code}", {"name": "Temoin", "seat": "3"}, f"/rejoindre/{code}")
    assert r.status == 303, r.status
    r = post(reporter, f"/table/{table_id}/signaler", {"seat": "0", "reason": "name"}, f"/table/{table_id}")
    assert r.status == 303, r.status
    return table_id


def test_a_moderator_suspends_a_reported_person_who_is_told(
    team_server: tuple[str, Path], make_page: Callable[..., Page]
) -> None:
    base, workdir = team_server
    zoe = make_page(base)
    reporter = make_page(base)
    moderator = make_page(base, viewport={"width": 1366, "height": 768})
    signed_up(zoe, "Zoe")
    signed_up(moderator, "Modo")
    table_id = reported_at_a_table(zoe, reporter)

    assert moderator.goto("/equipe").status == 404  # not on the team yet
    give_role(workdir, "Modo", "moderator")
    moderator.goto("/compte")
    moderator.get_by_role("link", name="Pages de l'équipe du site").click()
    expect(moderator).to_have_url(re.compile(r"/equipe$"))
    row = moderator.locator("table.team-reported tbody tr", has_text="Zoe")
    expect(row).to_contain_text("Nom inapproprié")
    assert_no_horizontal_scroll(moderator)
    keep_screenshot(moderator, "team-reports-fr", full_page=True)
    row.get_by_role("link", name="Zoe").click()
    expect(moderator.get_by_role("heading", level=1)).to_have_text("Zoe")
    expect(moderator.locator(".team-reports")).to_contain_text("un invité")
    expect(moderator.locator(f"#table-{table_id}")).to_be_visible()

    # the form, from the keyboard: suspension, 3 days, a reason
    moderator.get_by_label("Suspension (partie rapide et tournois)").check()
    moderator.get_by_label("Durée en jours").fill("3")
    moderator.get_by_label("Raison", exact=True).fill("Nom choquant à la table.")
    moderator.get_by_role("button", name="Enregistrer l'action").focus()
    moderator.keyboard.press("Enter")
    expect(moderator.locator(".team-restriction")).to_contain_text("Nom choquant à la table.")
    expect(moderator.locator("table.team-actions")).to_contain_text("Modo")
    keep_screenshot(moderator, "team-person-fr", full_page=True)
    assert not moderator.js_errors  # type: ignore[attr-defined]

    # the person is told, where they are refused
    zoe.goto("/partie-rapide")
    expect(zoe.locator(".refused")).to_contain_text("Vous êtes suspendu de la partie rapide et des tournois jusqu'au")
    expect(zoe.locator(".refused")).to_contain_text("Nom choquant à la table.")
    expect(zoe.get_by_role("button", name=re.compile("Trouver|Chercher|Jouer"))).to_have_count(0)
    keep_screenshot(zoe, "team-suspended-fr")

    # in English at a phone's size: the log, and the undo
    phone = moderator.context.new_page()
    phone.set_viewport_size({"width": 390, "height": 844})
    phone.goto("/team/log")
    expect(phone.locator("table.team-actions")).to_contain_text("Suspension (quick play and tournaments)")
    assert_no_horizontal_scroll(phone)
    keep_screenshot(phone, "team-log-en-phone", full_page=True)
    phone.locator("table.team-actions a", has_text="Zoe").first.click()
    expect(phone).to_have_url(re.compile(r"/team/player/"))
    assert_no_horizontal_scroll(phone)
    phone.get_by_placeholder("Why undo it").first.fill("Appeal accepted")
    phone.get_by_role("button", name="Undo").first.press("Enter")
    expect(phone.locator(".team-restriction")).to_have_count(0)
    expect(phone.locator("table.team-actions")).to_contain_text("Appeal accepted")
    keep_screenshot(phone, "team-person-en-phone", full_page=True)
    zoe.goto("/partie-rapide")
    expect(zoe.locator(".refused")).to_have_count(0)
    for p in (zoe, reporter, moderator):
        assert not p.js_errors, p.js_errors  # type: ignore[attr-defined]
