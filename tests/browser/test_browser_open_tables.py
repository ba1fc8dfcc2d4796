"""Open tables in Chromium (issue 29), one browser context per person: a player keeps the
list open while a host makes a public table; the list shows it without a reload, and one
press of "S'asseoir" seats the player in the table's lobby, under their account's name; a
watcher follows a public game to the deal's summary, which offers them no sign-up."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from browser_helpers import signed_up
from playwright.sync_api import Page, expect
from table_driver import Table, keep_screenshot

TABLE_URL = re.compile(r"/table/([^/]+)$")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, server_factory: Callable[..., Any]) -> Iterator[str]:
    """A server of this module's own: its five sign-ups are all one address may make in an
    hour, which the session's server keeps for the other modules."""
    with server_factory(tmp_path_factory.mktemp("open-tables")) as base:
        yield base


def test_a_public_table_shows_live_and_a_seat_is_one_press(make_page: Callable[..., Page], server: str) -> None:
    host, player = make_page(server), make_page(server)
    signed_up(host, "Lucie")
    signed_up(player, "Marius")
    player.goto("/tables-ouvertes")
    expect(player.get_by_role("heading", name="Tables ouvertes")).to_be_visible()
    host.goto("/amis")
    host.get_by_label("Table ouverte : visible de tous dans la liste des tables ouvertes").check()
    host.get_by_role("button", name="Créer la table", exact=True).click()
    host.wait_for_url(TABLE_URL)
    expect(host.get_by_text("Cette table est ouverte")).to_be_visible()
    row = player.get_by_role("row").filter(has_text="Lucie")
    expect(row).to_be_visible()  # no reload: the list's socket said it changed
    expect(row).to_contain_text("3 places libres")
    keep_screenshot(player, "open-tables")
    row.get_by_role("button", name="S'asseoir").click()
    player.wait_for_url(TABLE_URL)
    assert TABLE_URL.search(player.url)[1] == TABLE_URL.search(host.url)[1]  # type: ignore[index]
    expect(host.locator(".lobby-seat", has_text="Marius")).to_be_visible()
    assert host.js_errors == [] and player.js_errors == []  # type: ignore[attr-defined]


def test_a_watcher_follows_a_public_game(make_page: Callable[..., Page], server: str) -> None:
    host, watcher = make_page(server), make_page(server)
    signed_up(host, "Noé")
    host.goto("/amis")
    host.get_by_label("Table ouverte : visible de tous dans la liste des tables ouvertes").check()
    host.get_by_label("Un ami qui arrive en retard peut prendre la place d'un ordinateur entre deux donnes").uncheck()
    host.get_by_role("button", name="Créer la table", exact=True).click()
    host.wait_for_url(TABLE_URL)
    host.get_by_role("button", name="Commencer la partie").click()
    expect(host.locator("#hand .card")).to_have_count(8)
    watcher.goto("/tables-ouvertes")
    watcher.get_by_role("listitem").filter(has_text="Noé").get_by_role("link", name="Regarder").click()
    watcher.wait_for_url(re.compile(r"/regarder$"))
    expect(watcher.get_by_text("Vous regardez cette partie")).to_be_visible()
    expect(watcher.locator("#seat-south .name")).to_have_text("Sud (Noé)")
    expect(watcher.locator("#hand")).to_be_hidden()
    expect(host.locator("#watchers")).to_have_text("1 spectateur")
    keep_screenshot(watcher, "watching")
    assert Table(host).play_deal().end == "next"
    # The watcher sees the deal's summary, with no offer meant for a guest out of free deals.
    watching = Table(watcher)
    expect(watching.summary()).to_be_visible(timeout=20_000)
    expect(watching.summary()).to_contain_text("Feuille de marque")
    expect(watching.account_link()).to_have_count(0)
    expect(watching.next_deal_button()).to_have_count(0)
    expect(watcher.get_by_text("Vous avez joué vos donnes gratuites")).to_have_count(0)
    assert watcher.js_errors == [] and host.js_errors == []  # type: ignore[attr-defined]


def test_an_invitation_shows_on_any_page_and_is_accepted(make_page: Callable[..., Page], server: str) -> None:
    host, friend = make_page(server), make_page(server)
    signed_up(host, "Romy")
    signed_up(friend, "Simon")
    friend.goto("/regles")  # any page of the site
    host.goto("/amis")
    host.get_by_role("button", name="Créer la table", exact=True).click()
    host.wait_for_url(TABLE_URL)
    host.get_by_label("Inviter un joueur par son nom").fill("simon")
    host.get_by_role("button", name="Inviter", exact=True).click()
    expect(host.get_by_text("Invitation envoyée.")).to_be_visible()
    banner = friend.get_by_role("complementary", name="Invitations reçues")
    expect(banner).to_contain_text("Romy vous invite à sa table, en Est.")  # no reload: the person's socket
    keep_screenshot(friend, "invitation")
    banner.get_by_role("button", name="Accepter").click()  # seated at once, at the seat offered
    friend.wait_for_url(TABLE_URL)
    expect(host.locator(".lobby-seat", has_text="Simon")).to_be_visible()
    expect(friend.get_by_role("complementary", name="Invitations reçues")).to_be_hidden()
    assert host.js_errors == [] and friend.js_errors == []  # type: ignore[attr-defined]
