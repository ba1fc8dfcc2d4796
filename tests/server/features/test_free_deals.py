"""Three free deals for a guest, counted in the database as each deal is dealt: then
``next_deal`` is refused (``limit``), the state says ``can_continue: false`` and POST /solo
leads to the sign-up page; a void deal uses none; five tables opened at once give no more
than three deals; an older copy of the cookie changes nothing; a new visitor is a new
guest; an account has no limit."""

from __future__ import annotations

import asyncio
import html
import random

from server_helpers import (
    Human,
    MakeClient,
    call,
    create_solo,
    is_my_turn,
    live_table,
    new_guest,
    parts_of,
    post_form,
    receive,
    request,
)
from slow_bot import FIRST
from starlette.testclient import TestClient

from coinche.engine.rules import RuleSet
from coinche.server.features.accounts import AccountStore
from coinche.server.infra.store import new_id
from coinche.server.table.live_table import TableError
from coinche.server.table.spec import Seat

FORM = {"profile": "classic", "target": "3000", "level": "beginner"}


def contracts_played(client: TestClient, table_id: str) -> int:
    """Deals of the table that were dealt and not void (the ones that use a free deal)."""
    deals = live_table(client, table_id).game.deals
    return sum(1 for d in deals if not (d.is_over and d.result() is not None and d.result().contract is None))  # type: ignore[union-attr]


def test_three_free_deals_then_the_signup_page(client: TestClient) -> None:
    guest, first_cookie = new_guest(client)
    assert call(client, parts_of(client).free_deals.left, guest) == 3
    table_id = create_solo(client, "classic", 3000, "beginner")
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        human = Human(ws, rng=random.Random(1))
        state = human.next_state()
        # The first deal is dealt with the table: it is one of the three.
        assert state["table"]["free_deals_left"] == 2 and state["can_continue"] and not state["free_deals_over"]
        for _ in range(12):  # three deals, and the void ones given back
            human.max_deals = state["game"]["deal_number"]
            state = human.play_game(state)
            if not state["can_continue"]:
                break
            ws.send_json(request("next_deal"))
            state = human.until_my_move()
        assert state["awaiting_next_deal"] and not state["can_continue"] and state["free_deals_over"]
        assert state["table"]["free_deals_left"] == 0
        ws.send_json(request("next_deal"))
        error = receive(ws)
        assert error["type"] == "error" and error["code"] == "limit", error
        assert contracts_played(client, table_id) == 3
    assert call(client, parts_of(client).free_deals.left, guest) == 0

    # No new table: the sign-up page instead (it says why).
    r = post_form(client, "/solo", FORM)
    assert r.status_code == 303 and r.headers["location"] == "/inscription?next=/"
    page = client.get("/inscription?next=/")
    assert "Vous avez joué vos donnes gratuites" in page.text
    # The table itself still shows the summary, and still refuses.
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        again = receive(ws)
        assert again["awaiting_next_deal"] and not again["can_continue"] and again["free_deals_over"]
        ws.send_json(request("next_deal"))
        assert receive(ws)["code"] == "limit"

    # The count is the server's: the cookie from before the deals does not bring them back.
    client.cookies.clear()
    client.cookies.set("session", first_cookie)
    r = post_form(client, "/solo", FORM)
    assert r.headers["location"] == "/inscription?next=/"

    # A visitor without a cookie is a new guest, with three deals.
    client.cookies.clear()
    r = post_form(client, "/solo", FORM)
    assert r.status_code == 303 and r.headers["location"].startswith("/table/")
    assert client.cookies["session"] != first_cookie


def test_a_void_deal_uses_no_free_deal(client: TestClient) -> None:
    """Four passes: the deal is void and its free deal comes back."""
    guest, _ = new_guest(client)
    parts = parts_of(client)
    passer = Seat("bot", level=FIRST)
    rules = RuleSet.profile("classic", target=3000)
    assert call(client, parts.free_deals.use, [guest])  # as create_solo counts the first deal
    spec = call(
        client, parts.tables.create_table, rules, (Seat("human", player=guest), passer, passer, passer), "first"
    )
    assert call(client, parts.free_deals.left, guest, True) == 2
    with client.websocket_connect(f"/ws/table/{spec.id}") as ws:
        state = receive(ws)
        while not state["awaiting_next_deal"]:
            if is_my_turn(state):  # pass: the first legal action
                ws.send_json(request("action", action=state["game"]["deal"]["legal_actions"][0]))
            state = receive(ws)
        assert state["game"]["deal"]["contract"] is None  # void
        assert call(client, parts.free_deals.left, guest, True) == 3
        ws.send_json(request("next_deal"))
        state = receive(ws)
        assert state["game"]["deal_number"] == 2
    assert call(client, parts.free_deals.left, guest, True) == 2


def test_five_tables_at_once_give_three_deals_at_most(client: TestClient) -> None:
    guest, _ = new_guest(client)
    parts = parts_of(client)
    rules = RuleSet.profile("classic", target=3000)

    async def five() -> list[object]:
        tables = (parts.tables.create_solo(guest, rules, "beginner") for _ in range(5))
        return await asyncio.gather(*tables, return_exceptions=True)

    results = call(client, five)
    made = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, TableError)]
    assert len(made) <= 3 and len(made) + len(refused) == 5, results
    assert {r.code for r in refused} <= {"limit", "too_many_tables"}
    assert call(client, parts.free_deals.left, guest, True) == 3 - len(made)


def test_a_guest_has_a_few_games_in_progress_at_most(make_client: MakeClient) -> None:
    """With free deals to spare (a site that gives more), a guest still may not keep more
    than ``open_tables_guest`` games going: the account page says what to do."""
    client = make_client(free_deals=50, open_tables_guest=3)
    new_guest(client)
    for _ in range(3):
        create_solo(client, "classic", 3000, "beginner")
    r = post_form(client, "/solo", FORM)
    assert r.status_code == 409
    assert "trop de parties en cours" in r.text
    # Give one up: a new game may start.
    table_id = r.text.split('action="/partie/', 1)[1].split("/", 1)[0]
    gave_up = post_form(client, f"/partie/{table_id}/abandonner", {}, page="/")
    assert gave_up.status_code == 303
    create_solo(client, "classic", 3000, "beginner")
    # Someone else's game cannot be given up.
    new_guest(client)
    assert post_form(client, f"/partie/{table_id}/abandonner", {}, page="/").status_code == 404


def test_a_player_may_open_only_so_many_tables_a_minute(make_client: MakeClient) -> None:
    client = make_client(free_deals=50, table_limit="2/minute")
    new_guest(client)
    create_solo(client, "classic", 3000, "beginner")
    create_solo(client, "classic", 3000, "beginner")
    r = post_form(client, "/solo", FORM)
    assert r.status_code == 429 and int(r.headers["retry-after"]) > 0
    assert "Trop d'essais" in html.unescape(r.text)


def test_the_account_page_says_one_free_deal_in_the_singular(make_client: MakeClient) -> None:
    client = make_client(free_deals=1)
    client.get("/")
    page = client.get("/compte").text
    assert "il vous reste 1 donne gratuite." in page and "1 donnes" not in page
    assert "you have 1 free deal left." in client.get("/account").text


def test_an_account_has_no_limit_and_its_deals_write_no_count(client: TestClient) -> None:
    """The database says once that the player has an account; after that this process
    deals to them without a write (a table of bots and people with accounts deals as fast
    as it plays)."""
    parts = parts_of(client)
    account = AccountStore(parts.store).create("Sans Limite", None, "a long enough password", new_id(12))
    used: list[str] = []
    count = parts.store.use_free_deal

    def counting(player: str, free: int) -> bool | None:
        used.append(player)
        return count(player, free)

    parts.store.use_free_deal = counting  # type: ignore[method-assign]
    try:
        for _ in range(parts.settings.free_deals + 3):
            assert call(client, parts.free_deals.use, [account.player])
            call(client, parts.free_deals.give_back, [account.player])
    finally:
        del parts.store.use_free_deal
    assert used == [account.player]
    assert call(client, parts.free_deals.left, account.player, True) is None
    assert parts.store.deals_played(account.player) == 0
