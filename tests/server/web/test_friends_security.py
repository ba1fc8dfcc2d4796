"""Friends' tables against their own players (issue 17): four people play a whole game and
every message each of them receives is checked against the engine (no card of another
seat, ever); nobody acts for another seat; a stranger who knows the table's id sees
nothing; a late friend takes a computer's seat only between deals, and only if the host
allowed it."""

from __future__ import annotations

import random
from typing import Any

import pytest
from friends_helpers import PASSWORD, Person, Player, drain
from server_helpers import check_no_leak, live_table, request
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

# What a seat may see does not depend on the database: SQLite, but for the refusals, which
# must leave both databases unchanged.


def four_people(client: TestClient, **form: str) -> tuple[list[Person], str, str]:
    """A host at seat 0 and three guests at seats 1 to 3; (people by seat, id, code)."""
    host = Person(client, "Hote")
    host.sign_up()
    table_id, code = host.make_table(**form)
    guests = [Person(client, name) for name in ("Paul", "Marie", "Leo")]
    for seat, guest in enumerate(guests, start=1):
        assert guest.take_seat(code, seat).status_code == 303
    return [host, *guests], table_id, code


def modest(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A random card, or in the auction mostly a pass and else the lowest bid (random
    calls soon reach a doubled capot that ends the game in one deal)."""
    calls = [a for a in legal if "call" in a]
    if not calls:
        return rng.choice(legal)
    bids = [a for a in calls if a["call"] not in ("pass", "coinche", "surcoinche")]
    if bids and rng.random() < 0.25:
        return bids[0]
    return next(a for a in calls if a["call"] == "pass")


def play_one_move(players: list[Player], client: TestClient, table_id: str, rng: random.Random) -> dict[str, Any]:
    """The seat to move plays a random legal move, after each other seat has tried to play
    for it and been refused; every player has then read up to the new step."""
    live = live_table(client, table_id)
    seq = live.seq
    states = [drain(p, seq) for p in players]
    mover = live.game.to_move
    legal = states[mover]["game"]["deal"]["legal_actions"]
    assert legal, states[mover]
    choice = modest(legal, rng)
    intruder = (mover + 1 + rng.randrange(3)) % 4
    refused = players[intruder].answer(players[intruder].send("action", action=choice))
    assert refused["type"] == "error" and refused["code"] == "not_your_turn", refused
    assert live.seq == seq  # nothing changed
    players[mover].ws.send_json(request("action", action=choice))
    new_seq = seq + 1
    while live_table(client, table_id).seq < new_seq:
        drain(players[mover], new_seq)
    return drain(players[0], live_table(client, table_id).seq)


@pytest.mark.parametrize(("profile", "seed"), [("classic", 17), ("online", 5)])
def test_four_people_play_a_whole_game_and_nobody_sees_another_seats_cards(
    client: TestClient, profile: str, seed: int
) -> None:
    rng = random.Random(seed)
    people, table_id, _code = four_people(client, profile=profile, target="1000")
    with (
        people[0].connect(table_id) as host,
        people[1].connect(table_id) as paul,
        people[2].connect(table_id) as marie,
        people[3].connect(table_id) as leo,
    ):
        players = [host, paul, marie, leo]
        for p in players:
            assert p.next_state()["game"] is None
        assert host.answer(host.send("host", op="start"))["type"] == "ack"
        # Quick messages go through too, and are checked with the rest.
        assert paul.answer(paul.send("say", phrase="good_game"))["type"] == "ack"
        for _ in range(5000):
            live = live_table(client, table_id)
            if live.game.is_over:
                break
            if live.game.awaiting_deal:
                refused = paul.answer(paul.send("action", action={"call": "pass"}))
                assert refused["type"] == "error" and refused["code"] == "waiting", refused
                assert host.answer(host.send("next_deal"))["type"] == "ack"
                continue
            play_one_move(players, client, table_id, rng)
        live = live_table(client, table_id)
        assert live.game.is_over and len(live.game.deals) >= 2
        for p in players:
            drain(p, live.seq)
    # Every message of every seat, from the lobby to the last card.
    for seat, player in enumerate(players):
        kinds = {m["type"] for m in player.messages}
        assert {"state", "ack", "error"} <= kinds, kinds
        assert any(m["type"] == "say" for m in player.messages)
        states = check_no_leak(player.messages, live.game.deals, seat)
        assert states > len(live.game.log) // 2


def test_a_stranger_who_knows_the_tables_id_sees_nothing(client: TestClient) -> None:
    people, table_id, code = four_people(client)
    stranger = Person(client, "Eve")
    r = stranger.get(f"/table/{table_id}")
    assert r.status_code == 404 and "Hote" not in r.text and "Paul" not in r.text
    with (
        stranger.acting() as c,
        pytest.raises(WebSocketDisconnect) as closed,
        c.websocket_connect(f"/ws/table/{table_id}") as ws,
    ):
        ws.receive_json()
    assert closed.value.code == 4404
    # The table is full: the invitation says so, and taking a seat is refused.
    assert "complète" in stranger.get(f"/rejoindre/{code}").text
    assert stranger.take_seat(code, 2).status_code == 409
    assert live_table(client, table_id).seats[2].name == "Marie"
    # A seated guest cannot take another's seat, nor free it.
    with people[1].connect(table_id) as paul:
        paul.next_state()
        assert paul.answer(paul.send("sit", seat=2))["code"] in ("full", "seat_taken")
        assert paul.answer(paul.send("host", op="free", seat=2))["code"] == "not_host"
    assert [s.name for s in live_table(client, table_id).seats] == ["Hote", "Paul", "Marie", "Leo"]


def finish_first_deal(client: TestClient, host: Player, table_id: str) -> None:
    """The host plays the first deal against three computers, until it is over."""
    state = drain(host, live_table(client, table_id).seq)
    for _ in range(2000):
        if state["awaiting_next_deal"]:
            return
        if state["game"]["deal"]["legal_actions"] and state["game"]["deal"]["to_move"] == 0:
            state = host.act(state)
        else:
            state = host.next_state()
    raise AssertionError("the deal never ended")


@pytest.mark.parametrize("allowed", [True, False])
def test_a_late_friend_takes_a_computers_seat_between_deals_if_the_host_allows_it(
    client: TestClient, allowed: bool
) -> None:
    host = Person(client, "Hote")
    host.sign_up()
    table_id, code = host.make_table(late_joins="on" if allowed else "")
    with host.connect(table_id) as h:
        h.next_state()
        assert h.answer(h.send("host", op="start"))["type"] == "ack"
        late = Person(client, "Lea")
        assert late.take_seat(code, 1).status_code == 409  # not during a deal
        finish_first_deal(client, h, table_id)
        r = late.take_seat(code, 1)
        assert r.status_code == (303 if allowed else 409)
        live = live_table(client, table_id)
        assert (live.seats[1].name == "Lea") is allowed
        if allowed:
            # The host sees who sat down; the next deal is dealt with Léa at West.
            seen = drain(h, live.seq)
            assert seen["table"]["seats"][1]["name"] == "Lea"
            assert h.answer(h.send("next_deal"))["type"] == "ack"
            with late.connect(table_id) as lea:
                state = drain(lea, live_table(client, table_id).seq)
                assert state["table"]["you"] == 1 and state["game"]["deal"]["hand"]


def test_a_player_with_an_account_gets_the_seat_back_from_another_device(client: TestClient) -> None:
    """The host logs in on a phone during the game: the phone's connection is the host's
    seat, with the host's hand."""
    host = Person(client, "Hote")
    host.sign_up()
    table_id, _code = host.make_table()
    with host.connect(table_id) as h:
        h.next_state()
        assert h.answer(h.send("host", op="start"))["type"] == "ack"
        laptop = drain(h, live_table(client, table_id).seq)
    phone = Person(client, "Hote")
    with phone.acting() as c:
        assert c.get(f"/table/{table_id}").status_code == 404  # not logged in yet: a stranger
    r = phone.post("/connexion", {"name": "Hote", "password": PASSWORD}, "/connexion")
    assert r.status_code == 303
    with phone.connect(table_id) as p:
        state = p.next_state()
        assert state["table"]["you"] == 0
        assert state["game"]["deal"]["hand"] == laptop["game"]["deal"]["hand"]


HOSTILE_REQUESTS: list[dict[str, Any]] = [
    {"type": "say", "id": "h1"},
    {"type": "say", "id": "h2", "phrase": 7},
    {"type": "say", "id": "h3", "phrase": "<script>alert(1)</script>"},
    {"type": "say", "id": "h4", "phrase": "bravo" * 1000},
    {"type": "sit", "id": "h5"},
    {"type": "sit", "id": "h6", "seat": -1},
    {"type": "sit", "id": "h7", "seat": "2"},
    {"type": "sit", "id": "h8", "seat": 2**70},
    {"type": "sit", "id": "h9", "seat": True},
    {"type": "host", "id": "h10", "op": "explode"},
    {"type": "host", "id": "h11", "op": "move", "seat": 1, "to": None},
    {"type": "host", "id": "h12", "op": "level", "seat": 1, "level": ["expert"]},
    {"type": "host", "id": "h13", "op": "level", "seat": 0, "level": "expert"},
    {"type": "host", "id": "h14", "op": "free", "seat": 4},
    {"type": "host", "id": "h15", "op": {"start": True}},
    {"type": "leave", "id": "not an id!"},
    {"type": "sit", "id": "h16", "seat": 1, "pad": "x" * 5000},
    {"type": "leave"},
]


@pytest.mark.both_databases
def test_hostile_requests_get_a_refusal_and_change_nothing(client: TestClient) -> None:
    host, (paul,), table_id, _code = seated(client)
    with host.connect(table_id) as h, paul.connect(table_id) as p:
        h.next_state()
        p.next_state()
        before = [(s.kind, s.player, s.level) for s in live_table(client, table_id).seats]
        seq = live_table(client, table_id).seq
        for message in HOSTILE_REQUESTS:
            for player in (h, p):
                player.ws.send_json(message)
                answer = player.receive()
                while answer["type"] not in ("error", "ack"):
                    answer = player.receive()
                assert answer["type"] == "error", (message, answer)
                assert "<script>" not in str(answer)
        live = live_table(client, table_id)
        assert [(s.kind, s.player, s.level) for s in live.seats] == before and live.seq == seq
        # The connections still work.
        assert p.answer(p.send("say", phrase="sorry"))["type"] == "ack"


def seated(client: TestClient) -> tuple[Person, list[Person], str, str]:
    host = Person(client, "Hote")
    host.sign_up()
    table_id, code = host.make_table()
    paul = Person(client, "Paul")
    assert paul.take_seat(code, 2).status_code == 303
    return host, [paul], table_id, code
