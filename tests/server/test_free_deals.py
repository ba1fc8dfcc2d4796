"""Three free deals for a guest (issue 7), counted on the server: then ``next_deal`` is
refused (``limit``), the state says ``can_continue: false``, and POST /solo sends the guest
to /compte; an older copy of the cookie changes nothing, a new visitor is a new guest."""

from __future__ import annotations

import random

from server_helpers import Human, call, create_solo, live_table, new_guest, receive, request, service_of
from starlette.testclient import TestClient

FORM = {"profile": "classic", "target": "3000", "level": "beginner"}


def test_three_free_deals_then_the_account_page(client: TestClient) -> None:
    guest, first_cookie = new_guest(client)
    assert call(client, service_of(client).free_deals_left, guest) == 3
    table_id = create_solo(client, "classic", 3000, "beginner")
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        human = Human(ws, rng=random.Random(1))
        state = human.next_state()
        assert state["table"]["free_deals_left"] == 3 and state["can_continue"]
        summaries = []
        for n in (1, 2, 3):
            human.max_deals = n
            state = human.play_game(state)
            summaries.append(state)
        assert [s["game"]["deal_number"] for s in summaries] == [1, 2, 3]
        assert [s["table"]["free_deals_left"] for s in summaries] == [2, 1, 0]
        assert [s["can_continue"] for s in summaries] == [True, True, False]
        assert all(s["awaiting_next_deal"] for s in summaries)
        ws.send_json(request("next_deal"))
        error = receive(ws)
        assert error["type"] == "error" and error["code"] == "limit", error
        assert len(live_table(client, table_id).game.deals) == 3
    assert call(client, service_of(client).free_deals_left, guest) == 0
    assert client.app.state.store.deals_played(guest) == 3  # type: ignore[attr-defined]

    # No new table: the account page instead.
    r = client.post("/solo", data=FORM, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/compte"
    # The table itself still shows the summary, and still refuses.
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        again = receive(ws)
        assert again["awaiting_next_deal"] and not again["can_continue"]
        ws.send_json(request("next_deal"))
        assert receive(ws)["code"] == "limit"

    # The count is the server's: the cookie from before the deals does not bring them back.
    client.cookies.clear()
    client.cookies.set("session", first_cookie)
    r = client.post("/solo", data=FORM, follow_redirects=False)
    assert r.headers["location"] == "/compte"

    # A visitor without a cookie is a new guest, with three deals.
    client.cookies.clear()
    r = client.post("/solo", data=FORM, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/table/")
    assert client.cookies["session"] != first_cookie
