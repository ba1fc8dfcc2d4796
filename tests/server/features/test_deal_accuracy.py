"""Each finished deal's accuracy (issue 50): computed by a listener from the review's
analysis, once, in the workers; kept per seat; a person's over their own decisions."""

from __future__ import annotations

import html
import time
from typing import Any
from urllib.parse import quote

import pytest
from friends_helpers import Person
from server_helpers import Human, MakeClient, another_visitor, create_solo, live_table, post_form
from sqlalchemy import select
from starlette.testclient import TestClient

from coinche.bots.accuracy import accuracy_by_seat
from coinche.server.compute.job_kinds import analyse
from coinche.server.infra.rows.accuracy import DealAccuracyRow
from coinche.server.table import i18n
from coinche.server.web.history_pages import GAME_PATHS

DEADLINE = 60.0


def rows(client: TestClient, table_id: str) -> list[DealAccuracyRow]:
    store = client.app.state.store  # type: ignore[attr-defined]
    with store.session() as s:
        return list(s.scalars(select(DealAccuracyRow).where(DealAccuracyRow.table_id == table_id)))


def wait_rows(client: TestClient, table_id: str, count: int) -> list[DealAccuracyRow]:
    deadline = time.monotonic() + DEADLINE
    while len(found := rows(client, table_id)) < count:
        assert time.monotonic() < deadline, "the accuracy never came"
        time.sleep(0.05)
    return found


def wait_json(client: TestClient, url: str) -> dict[str, Any]:
    deadline = time.monotonic() + DEADLINE
    while (r := client.get(url)).status_code == 202:
        assert r.json() == {"status": "pending"}
        assert time.monotonic() < deadline, "the accuracy never came"
        time.sleep(0.05)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


@pytest.mark.both_databases
def test_a_played_deal_gets_each_seats_accuracy_without_being_asked(make_client: MakeClient) -> None:
    client = make_client(free_deals=100, deal_accuracy=True)
    table_id = create_solo(client, "classic", 700, "beginner")
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        Human(ws, max_deals=1).play_game()
    found = {r.seat: r for r in wait_rows(client, table_id, 4)}  # nobody asked: the listener did
    live = live_table(client, table_id)
    deal = live.game.deals[0]
    expected = accuracy_by_seat(analyse(deal.rules, deal.dealer, deal.dealt, deal.log))
    me = live.human_seat
    for seat, row in found.items():
        a = expected[seat]
        got = (row.cards, row.cards_kept, row.card_loss, row.calls, row.calls_kept, round(row.call_loss, 1))
        assert got == (a.cards, a.cards_kept, a.card_loss, a.calls, a.calls_kept, round(a.call_loss, 1))
        assert row.profile == "classic"
        if seat == me:
            assert row.player_id == live.seats[me].player and row.level is None
        else:
            assert row.player_id is None and row.level == "beginner"
    data = wait_json(client, f"/table/{table_id}/donne/1/precision")
    assert data["you"] == me and [s["seat"] for s in data["seats"]] == [0, 1, 2, 3]
    mine = data["seats"][me]
    assert mine["cards"] == found[me].cards and mine["level"] is None
    assert mine["card_share"] == (None if not mine["cards"] else round(100 * mine["cards_kept"] / mine["cards"], 1))
    assert data["seats"][(me + 1) % 4]["level"] == "beginner"


def test_only_a_seated_person_reads_a_finished_deals_accuracy(make_client: MakeClient) -> None:
    client = make_client(free_deals=100, deal_accuracy=True)
    table_id = create_solo(client, "classic", 700, "beginner")
    assert client.get(f"/table/{table_id}/donne/1/precision").status_code == 404  # not over yet
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        Human(ws, max_deals=1).play_game()
    assert client.get(f"/table/{table_id}/donne/2/precision").status_code == 404
    assert client.get(f"/table/{table_id}/donne/x/precision").status_code == 404
    assert client.get("/table/nosuchtable/donne/1/precision").status_code == 404
    stranger = TestClient(client.app)
    assert stranger.get(f"/table/{table_id}/donne/1/precision").status_code == 404


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_history_and_the_profile_show_the_accuracy(make_client: MakeClient, lang: str) -> None:
    """The game's history entry, its page (each deal) and the player's profile (the trend of
    the profile's last games, and the site's computers of that profile)."""
    client = make_client(free_deals=100, deal_accuracy=True)
    person = Person(another_visitor(client), "Précise")
    person.sign_up()
    with person.acting() as c:
        c.cookies.set("lang", lang)
        table_id = create_solo(c, "classic", 700, "confirmed")
        with c.websocket_connect(f"/ws/table/{table_id}") as ws:
            Human(ws, max_deals=1).play_game()
        assert post_form(c, f"/partie/{table_id}/abandonner", {}).status_code == 303  # in the history now
        wait_rows(c, table_id, 4)
        me = live_table(c, table_id).human_seat
        mine = next(r for r in rows(c, table_id) if r.seat == me)
        history = "/history" if lang == "en" else "/historique"
        listing = html.unescape(c.get(history).text)
        assert i18n.gettext(lang, "accuracy.column") in listing
        per_card = "—" if not mine.cards else i18n.number(lang, mine.card_loss / mine.cards, 1)
        words = i18n.gettext(lang, "accuracy.short", cards="", calls="", per_card=per_card).split("·")[-1].strip()
        assert words in listing
        game = html.unescape(c.get(f"{GAME_PATHS[lang]}/{table_id}").text)
        assert i18n.gettext(lang, "accuracy.yours") in game and words in game
        profile = "/player/" if lang == "en" else "/joueur/"
        page = html.unescape(c.get(profile + quote("Précise")).text)
        assert i18n.gettext(lang, "accuracy.title") in page
        assert i18n.gettext(lang, "accuracy.last_games", count=1) in page  # a line from two games on
        assert i18n.gettext(lang, "level.confirmed") in page  # the computers' own, beside
