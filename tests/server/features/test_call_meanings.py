"""What a call says, at the table and in the review (issue 32, item 4): a computer's calls
read at any moment, a person's once the deal is over; only for a player of the table; never
a card the asker may not know, over many deals."""

from __future__ import annotations

import html
from types import SimpleNamespace
from typing import Any

import pytest
from server_helpers import Human, MakeClient, create_solo, hidden_cards, live_table, named_cards
from test_review import play_one_deal

from coinche.engine.actions import call_str
from coinche.engine.deal import Deal
from coinche.server.features.call_meanings import deal_meanings
from played_deals import played_deal


def test_a_computers_call_is_read_during_the_deal_a_persons_after(make_client: MakeClient) -> None:
    client = make_client(free_deals=100)
    table_id = create_solo(client, "classic", 700, "expert")
    url = f"/table/{table_id}/donne/1/encheres"
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        human = Human(ws, max_deals=1)
        state = human.until_my_move()
        while state["game"]["deal"]["phase"] == "auction" and not state["awaiting_next_deal"]:
            data = client.get(url).json()
            me = state["table"]["you"]
            assert len(data["calls"]) == len(state["game"]["deal"]["calls"])
            for entry in data["calls"]:
                if entry["seat"] == me:
                    assert set(entry) == {"index", "seat", "call", "later"} and "après la donne" in entry["later"]
                else:
                    assert entry["said"] and entry["expert"], entry
            leaked = named_cards(data, hidden_cards(live_table(client, table_id).game.deals[0], me))
            assert not leaked
            state = human.until_my_move(human.act(state))
        human.play_game(state)
    over = client.get(url).json()
    assert over["over"] is True
    assert all("said" in entry for entry in over["calls"])
    client.cookies.set("lang", "en")
    english = client.get(url).json()
    assert english["calls"][0]["said"] != over["calls"][0]["said"]


def test_only_a_player_of_the_table_may_ask(make_client: MakeClient) -> None:
    client = make_client(free_deals=100)
    played = play_one_deal(client, level="beginner")
    url = played.base + "/encheres"
    assert client.get(url).status_code == 200
    for bad in (
        "/table/x/donne/1/encheres",
        played.base.replace("/1", "/2") + "/encheres",
        played.base.replace("/1", "/0") + "/encheres",
        played.base.replace("/1", "/1x") + "/encheres",
    ):
        r = client.get(bad)
        assert r.status_code == 404, bad
        assert "Traceback" not in r.text
    client.cookies.clear()
    client.get("/")  # another guest
    assert client.get(url).status_code == 404


def test_the_review_shows_what_each_call_says(make_client: MakeClient) -> None:
    client = make_client(free_deals=100)
    played = play_one_deal(client, level="expert")
    page = html.unescape(client.get(played.base).text)
    assert "Ce que dit l'enchère" in page
    deal = played.deal()
    count = len(deal.auction.calls)
    assert page.count('"meaning": {') == count


@pytest.mark.parametrize("profile", ["classic", "federation", "house", "online"])
def test_no_reading_names_a_card_over_many_deals(profile: str) -> None:
    """Every call of 60 deals a profile, read in both languages at every step of the
    auction: no card of any hand is named (the reading has only the calls to go by)."""
    for seed in range(60):
        deal = played_deal(profile, seed, "confirmed")
        calls = list(deal.auction.calls)
        hidden = hidden_cards(Deal(deal.rules, deal.dealer, deal.dealt), -1)
        for lang in ("fr", "en"):
            data = _meanings(lang, deal, calls)
            assert len(data["calls"]) == len(calls)
            assert not named_cards(data, hidden), (profile, seed, data)


def _meanings(lang: str, deal: Deal, calls: list[int]) -> dict[str, Any]:
    """``deal_meanings`` of a table whose four seats are computers."""
    table = SimpleNamespace(game=SimpleNamespace(deals=[deal]), seats=[SimpleNamespace(kind="bot")] * 4)
    found = deal_meanings(lang, table, 1)  # type: ignore[arg-type]
    assert found is not None
    assert [entry["call"] for entry in found["calls"]] == [call_str(c) for c in calls]
    return found
