"""Friends' tables (issue 17): a table made by a signed-in host, found by its code, seats
taken by guests and accounts, the host's controls, a whole deal played by several people,
and every refusal: a full table, a seat during a deal, another seat's moves or cards, the
host's controls in other hands."""

from __future__ import annotations

from typing import Any

import pytest
from friends_helpers import Person, Player, drain
from server_helpers import check_no_leak, is_my_turn, live_table, service_of
from starlette.testclient import TestClient

from coinche.server.friends import CODE_ALPHABET, clean_code, clean_person_name, new_code


def people(client: TestClient, *names: str) -> list[Person]:
    return [Person(client, name) for name in names]


def play_deal(players: dict[int, Player], live_seq: Any) -> dict[str, Any]:
    """The people at ``players`` (by seat) play legal moves until the deal is over; the
    last state of the first of them."""
    first = next(iter(players.values()))
    state = first.latest_state()
    for _ in range(500):
        if state["awaiting_next_deal"] or state["game"]["winner"] is not None:
            return state
        to_move = state["game"]["deal"]["to_move"]
        if to_move in players:
            mover = players[to_move]
            mine = drain(mover, state["seq"])
            if is_my_turn(mine):
                mover.act(mine)
        state = drain(first, live_seq() if live_seq() > state["seq"] else state["seq"] + 1)
    raise AssertionError("the deal never ended")


def test_codes_have_no_look_alikes() -> None:
    for bad in "01ILOU":
        assert bad not in CODE_ALPHABET
    code = new_code()
    assert len(code) == 6 and clean_code(code.lower()) == code
    assert clean_code(f" {code[:3]}-{code[3:]} ") == code
    assert clean_code("ABC") is None and clean_code("OOOOOO") is None


@pytest.mark.parametrize("text", ["Paul", "Marie-Claire", "Zoé", "Jean  Pierre", "李雷", "O'Neil"])
def test_names_people_give(text: str) -> None:
    assert clean_person_name(text) == " ".join(text.split())


@pytest.mark.parametrize("text", ["", "   ", "<script>", "a" * 21, "x\u202ey", "bob\x00", "a&b"])
def test_names_refused(text: str) -> None:
    assert clean_person_name(text) is None


def test_a_guest_joins_by_code_and_three_people_play_a_deal(client: TestClient) -> None:
    host, paul, marie = people(client, "Hote", "Paul", "Marie")
    host.sign_up()
    table_id, code = host.make_table()
    # The invitation shows the seats, with a button for each computer's.
    page = paul.get(f"/rejoindre/{code}")
    assert (page.status_code == 200 and "S&#39;asseoir en Nord" in page.text) or "asseoir en Nord" in page.text
    r = paul.take_seat(code, 2)
    assert r.status_code == 303 and r.headers["location"] == f"/table/{table_id}"
    r = marie.post("/rejoindre/" + code, {"name": "Marie", "seat": "1"}, f"/rejoindre/{code}")
    assert r.status_code == 303
    live = live_table(client, table_id)
    assert [s.kind for s in live.seats] == ["human", "human", "human", "bot"]
    assert live.seats[2].name == "Paul" and not live.started
    with host.connect(table_id) as h, paul.connect(table_id) as p, marie.connect(table_id) as m:
        lobby = h.next_state()
        assert lobby["game"] is None and lobby["table"]["friends"]["you_host"]
        assert lobby["table"]["friends"]["code"] == code
        # Only the host starts the game.
        refused = p.answer(p.send("host", op="start"))
        assert refused["type"] == "error" and refused["code"] == "not_host"
        assert h.answer(h.send("host", op="start"))["type"] == "ack"
        seats = {0: h, 2: p, 1: m}
        for player in seats.values():
            state = drain(player, live_table(client, table_id).seq)
            assert state["game"] is not None
        last = play_deal(seats, lambda: live_table(client, table_id).seq)
        assert last["awaiting_next_deal"]
        deals = live_table(client, table_id).game.deals
        for seat, player in seats.items():
            states = [msg for msg in player.messages if msg["type"] == "state" and msg["game"] is not None]
            assert check_no_leak(states, deals, seat) == len(states)
    assert service_of(client).free_deals_left  # guests used none of their free deals
