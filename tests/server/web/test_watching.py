"""Watching a public table: a watcher (anyone, an account or not) sees the calls, the
cards played and the score, never a card in a hand (every message checked against the
engine), sends nothing, and is counted at the table; the players may close the table to
watchers, which sends them away; a table that is not public cannot be watched."""

from __future__ import annotations

import pytest
from friends_helpers import Person
from server_helpers import another_visitor, check_no_leak, live_table, raw_receive
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from test_friends import drain, play_deal


def test_a_watcher_sees_a_whole_deal_and_no_hand(client: TestClient) -> None:
    host = Person(another_visitor(client), "Hote")
    host.sign_up()
    table_id, code = host.make_table(public="on", late_joins="")
    paul = Person(another_visitor(client), "Paul")
    assert paul.take_seat(code, 2).status_code == 303
    viewer = another_visitor(client)  # a guest may watch
    assert viewer.get(f"/table/{table_id}/regarder").status_code == 200
    with (
        host.connect(table_id) as h,
        paul.connect(table_id) as p,
        viewer.websocket_connect(f"/ws/watch/{table_id}") as w,
    ):
        h.next_state()
        p.next_state()
        assert raw_receive(w)["type"] == "hello"
        first = raw_receive(w)
        assert first["type"] == "state" and first["table"]["watching"] and first["game"] is None
        counted = h.until("presence")
        while counted.get("watchers") != 1:
            counted = h.until("presence")
        assert h.answer(h.send("host", op="start"))["type"] == "ack"
        seats = {0: h, 2: p}
        for player in seats.values():
            drain(player, live_table(client, table_id).seq)
        play_deal(seats, lambda: live_table(client, table_id).seq)
        live = live_table(client, table_id)
        messages = []
        while True:
            message = raw_receive(w)
            messages.append(message)
            if message["type"] == "state" and message["seq"] >= live.seq:
                break
        states = [m for m in messages if m["type"] == "state" and m["game"] is not None]
        assert states and all(m["game"]["deal"]["hand"] == [] for m in states)
        assert all(m["game"]["deal"]["legal_actions"] == [] for m in states)
        assert check_no_leak(messages, live.game.deals, 0, watching=True) == len(states)
        assert states[-1]["awaiting_next_deal"] and states[-1]["result_lines"]
        names = states[-1]["table"]["seat_names"]
        assert names[0] == "Sud (Hote)" and "vous" not in " ".join(names)
        w.send_text('{"type": "action"}')  # a watcher acts on nothing: closed
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(50):
                raw_receive(w, 2.0)
        assert closed.value.code == 1008


def test_the_players_close_the_table_to_watchers(client: TestClient) -> None:
    host = Person(another_visitor(client), "Hote")
    host.sign_up()
    table_id, _ = host.make_table(public="on")
    viewer = another_visitor(client)
    with viewer.websocket_connect(f"/ws/watch/{table_id}") as w:
        raw_receive(w)
        raw_receive(w)
        stranger = Person(another_visitor(client), "Intrus")
        stranger.sign_up()  # not seated there: may not close it
        assert stranger.post(f"/table/{table_id}/spectateurs", {"watchable": "off"}, "/").status_code == 403
        assert host.post(f"/table/{table_id}/spectateurs", {"watchable": "maybe"}, "/").status_code == 400
        r = host.post(f"/table/{table_id}/spectateurs", {"watchable": "off"}, f"/table/{table_id}")
        assert r.status_code == 303
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(20):
                raw_receive(w, 5.0)
        assert closed.value.code == 4404
    assert viewer.get(f"/table/{table_id}/regarder").status_code == 404
    with viewer.websocket_connect(f"/ws/watch/{table_id}") as w, pytest.raises(WebSocketDisconnect) as closed:
        raw_receive(w, 2.0)
    assert closed.value.code == 4404
    private_id, _ = host.make_table()
    assert viewer.get(f"/table/{private_id}/regarder").status_code == 404
    assert viewer.get("/table/nothere/regarder").status_code == 404


def test_a_table_made_private_sends_its_watchers_away(client: TestClient) -> None:
    host = Person(another_visitor(client), "Hote")
    host.sign_up()
    table_id, _ = host.make_table(public="on")
    viewer = another_visitor(client)
    with host.connect(table_id) as h, viewer.websocket_connect(f"/ws/watch/{table_id}") as w:
        h.next_state()
        assert raw_receive(w)["type"] == "hello"
        assert raw_receive(w)["type"] == "state"
        r = host.post(f"/table/{table_id}/ouverte", {"public": "off"}, f"/table/{table_id}")
        assert r.status_code == 303
        assert h.answer(h.send("host", op="start"))["type"] == "ack"  # a step after it
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(20):  # who came or went, perhaps; no state of the table
                assert raw_receive(w, 5.0)["type"] not in ("state", "step")
        assert closed.value.code == 4404
    assert viewer.get(f"/table/{table_id}/regarder").status_code == 404
    with viewer.websocket_connect(f"/ws/watch/{table_id}") as w, pytest.raises(WebSocketDisconnect) as closed:
        raw_receive(w, 2.0)
    assert closed.value.code == 4404


def test_a_signed_in_watcher_is_offered_no_sign_up_at_the_end_of_a_deal(client: TestClient) -> None:
    """The summary offers the sign-up page only to a guest who played their free deals:
    never to a watcher (who plays no deal), here one with an account."""
    host = Person(another_visitor(client), "Hote")
    host.sign_up()
    table_id, _ = host.make_table(public="on", late_joins="")
    vera = Person(another_visitor(client), "Vera")
    vera.sign_up()
    with host.connect(table_id) as h, vera.acting() as c, c.websocket_connect(f"/ws/watch/{table_id}") as w:
        h.next_state()
        assert raw_receive(w)["type"] == "hello"
        assert raw_receive(w)["type"] == "state"
        assert h.answer(h.send("host", op="start"))["type"] == "ack"
        drain(h, live_table(client, table_id).seq)
        play_deal({0: h}, lambda: live_table(client, table_id).seq)
        end = raw_receive(w)
        while not (end["type"] == "state" and end["awaiting_next_deal"]):
            end = raw_receive(w)
        assert end["table"]["watching"] and end["table"]["free_deals_left"] is None
        assert end["free_deals_over"] is False  # the summary's sign-up offer
        assert end["can_continue"] is False  # nor the next deal: a watcher asks for nothing


def test_a_watcher_is_told_who_dealt_on_by_name(client: TestClient) -> None:
    """Seen from the host's chair, the watcher is told the host dealt the next deal by the
    host's name, as every seat is named to a watcher: never "Vous avez lancé..."."""
    host = Person(another_visitor(client), "Hote")
    host.sign_up()
    table_id, _ = host.make_table(public="on", late_joins="")
    viewer = another_visitor(client)
    with host.connect(table_id) as h, viewer.websocket_connect(f"/ws/watch/{table_id}") as w:
        h.next_state()
        assert raw_receive(w)["type"] == "hello"
        assert raw_receive(w)["type"] == "state"
        assert h.answer(h.send("host", op="start"))["type"] == "ack"
        drain(h, live_table(client, table_id).seq)
        play_deal({0: h}, lambda: live_table(client, table_id).seq)
        assert h.answer(h.send("next_deal"))["type"] == "ack"
        dealt = raw_receive(w)
        while not (dealt["type"] == "state" and dealt["game"] and dealt["game"]["deal_number"] == 2):
            dealt = raw_receive(w)
        assert dealt["table"]["watching"] and dealt["table"]["seat_names"][0] == "Sud (Hote)"
        assert dealt["dealt_by"] == {"seat": 0, "text": "Sud (Hote) a lancé la donne suivante."}
