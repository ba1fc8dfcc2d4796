"""What a client may not do (issue 7): out-of-turn, illegal, malformed and oversized
messages are refused with the documented ``error`` codes (docs/protocol.md), and change
nothing: the game's log is the same before and after, no state is sent, and the next
legal move is answered as usual."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from server_helpers import (
    Human,
    MakeClient,
    answers,
    call,
    check_no_leak,
    create_solo,
    is_my_turn,
    live_table,
    new_guest,
    parts_of,
    receive,
    request,
)
from starlette.testclient import TestClient, WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from coinche.engine.actions import DECLARE_BASE, Action, announce, parse_call
from coinche.engine.cards import card_list
from coinche.engine.deal import Deal, Phase
from coinche.engine.errors import IllegalAction
from coinche.engine.rules import RuleSet
from coinche.engine.wire import action_from_json, action_to_json
from coinche.server.table.spec import Seat

MALFORMED_TEXTS = [
    "{",
    "not json at all",
    "",
    "[1, 2]",
    '"action"',
    "42",
    "null",
    "NaN",
    "{}",
    '{"type": "dance"}',
    '{"type": 5}',
    '{"type": null}',
    '{"type": ["action"]}',
    '{"type": "action"}',
    '{"type": "action", "action": "JH"}',
    '{"type": "action", "action": ["JH"]}',
    '{"type": "action", "action": {}}',
    '{"type": "action", "action": {"play": "JH"}}',
    '{"type": "action", "action": {"card": "ZZ"}}',
    '{"type": "action", "action": {"card": 12}}',
    '{"type": "action", "action": {"card": null}}',
    '{"type": "action", "action": {"call": "bid"}}',
    '{"type": "action", "action": {"declare": -1}}',
    '{"type": "action", "action": {"declare": true}}',
    '{"type": "action", "action": {"declare": "0"}}',
    '{"type": "action", "action": {"declare": 1e9}}',
    "[" * 2000 + "]" * 2000,
    '{"a":' * 680 + "1" + "}" * 680,
    '{"type": "action", "action": {"card": "' + "9" * 4000 + '"}}',
]


def send_text(ws: WebSocketTestSession, text: str) -> None:
    ws.send({"type": "websocket.receive", "text": text})


def refused(ws: WebSocketTestSession, code: str) -> dict[str, Any]:
    error = receive(ws)
    assert error["type"] == "error", error
    assert error["code"] == code, error
    assert isinstance(error["message"], str) and error["message"]
    assert "Traceback" not in error["message"]
    return error


def engine_rule(client: TestClient, table_id: str, action: Action) -> str:
    """The rule the engine says ``action`` breaks now, on a copy of the live deal."""
    deal = live_table(client, table_id).game.current
    assert deal is not None
    try:
        deal.copy().apply(action)
    except IllegalAction as e:
        return e.rule
    raise AssertionError(f"{action} is legal")


def test_malformed_and_oversized_messages_change_nothing(client: TestClient) -> None:
    table_id = create_solo(client, "classic", 700, "confirmed")
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        human = Human(ws)
        state = human.until_my_move()
        assert is_my_turn(state)
        log = list(live_table(client, table_id).game.log)
        for text in MALFORMED_TEXTS:
            send_text(ws, text)
            refused(ws, "malformed")
        for data in (b"", b"\x00\xff", json.dumps({"type": "next_deal"}).encode()):
            ws.send_bytes(data)
            refused(ws, "malformed")
        record = state["game"]["deal"]["legal_actions"][0]
        padded = json.dumps({"type": "action", "id": "pad1", "action": record, "pad": ""})
        too_long = padded.replace('"pad": ""', '"pad": "' + "x" * (4097 - len(padded)) + '"')
        assert len(too_long.encode()) == 4097
        send_text(ws, too_long)
        refused(ws, "too_large")
        wide = padded.replace('"pad": ""', '"pad": "' + "é" * 2100 + '"')  # 2100 characters, 4200 bytes
        assert len(wide) < 4096 < len(wide.encode())
        send_text(ws, wide)
        refused(ws, "too_large")
        send_text(ws, "x" * 65_536)
        refused(ws, "too_large")
        ws.send_bytes(b"\x00" * 5000)
        refused(ws, "too_large")
        assert live_table(client, table_id).game.log == log
        # 4096 bytes exactly is still a message: the legal action it carries is taken.
        exact = padded.replace('"pad": ""', '"pad": "' + "x" * (4096 - len(padded)) + '"')
        assert len(exact.encode()) == 4096
        send_text(ws, exact)
        answer = receive(ws)
        assert answers(answer, 0, record), answer
        assert live_table(client, table_id).game.log[: len(log)] == log
        assert len(live_table(client, table_id).game.log) > len(log)
    # A frame over 64 KB closes the connection (1009); the table is intact.
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        Human(ws).until_my_move()
        log = list(live_table(client, table_id).game.log)
        send_text(ws, "x" * 65_537)
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(ws)
        assert closed.value.code == 1009
    assert live_table(client, table_id).game.log == log


CALLS = ["coinche", "surcoinche", "95H", "80S", "90H", "100D", "160C", "80SA", "90TA", "capotS", "generaleH", "pass"]


WANTED = {"follow_suit", "not_in_hand", "no_belote", "declare_first", "no_such_declaration", "bid_value"}


def illegal_candidates(deal: Deal, rng: random.Random) -> list[Action]:
    """A few actions the player to move may not take now: calls above or below the
    auction, a card in the auction; declarations out of range, a card before declaring;
    cards of the hand that break a rule of play, cards it does not hold, a belote it does
    not have."""
    legal = set(deal.legal_actions())
    hand = card_list(deal.hands[deal.to_move])
    if deal.phase is Phase.AUCTION:
        pool = [parse_call(c) for c in CALLS] + hand[:1]
    elif deal.declared[deal.to_move] is None:
        pool = [DECLARE_BASE + len(legal), DECLARE_BASE + 99, hand[0]]
    else:
        in_hand = [c for c in hand if c not in legal and announce(c) not in legal]
        elsewhere = [c for c in range(32) if c not in hand]
        no_belote = [announce(c) for c in hand if c in legal]
        pool = in_hand + rng.sample(elsewhere, 1) + no_belote[:1]
    return [a for a in pool if a not in legal][:6]


def test_illegal_calls_and_cards_name_the_engines_rule(make_client: MakeClient) -> None:
    """Every refused call, declaration or card carries the rule id the engine gives for
    it, and changes nothing; among them a card that does not follow suit."""
    client = make_client(free_deals=1000)
    rng = random.Random(5)
    rules_seen: set[str] = set()
    for _ in range(40):  # until every rule was met (a declaration needs a hand with melds)
        table_id = create_solo(client, "classic", 3000, "confirmed")
        with client.websocket_connect(f"/ws/table/{table_id}") as ws:
            human = Human(ws, rng=rng)
            state = human.until_my_move()
            for _ in range(200):
                if state["awaiting_next_deal"] or state["game"]["winner"] is not None:
                    break
                live = live_table(client, table_id)
                deal = live.game.current
                assert deal is not None and deal.to_move == 0
                view = deal.view(0)
                for action in illegal_candidates(deal, rng):
                    record = action_to_json(action, view)
                    assert action_from_json(record) == action
                    log = list(live.game.log)
                    ws.send_json(request("action", action=record))
                    error = refused(ws, "illegal")
                    assert error["rule"] == engine_rule(client, table_id, action), (record, error)
                    rules_seen.add(error["rule"])
                    assert live.game.log == log
                state = human.until_my_move(human.act(state))
            check_no_leak(human.messages, live_table(client, table_id).game.deals, seat=0)
        if rules_seen >= WANTED and rules_seen & {"coinche_no_bid", "bid_too_low"}:
            break
    assert rules_seen >= WANTED, rules_seen
    assert rules_seen & {"coinche_no_bid", "bid_too_low"}, rules_seen


def test_out_of_turn_and_between_deals(client: TestClient) -> None:
    """A human seat's turn is only its own: seat 1 is another guest's (who never comes),
    so once it is to move nothing moves and every action of seat 0 is ``not_your_turn``;
    after a deal, actions wait for ``next_deal`` (``waiting``)."""
    guest, _ = new_guest(client)
    other = "another-guest"
    bot = Seat("bot", level="confirmed")
    spec = call(
        client,
        parts_of(client).tables.create_table,
        RuleSet.profile("classic", target=700),
        [Seat("human", player=guest), Seat("human", player=other), bot, bot],
        "x",
    )
    with client.websocket_connect(f"/ws/table/{spec.id}") as ws:
        human = Human(ws)
        state = human.next_state()
        for _ in range(20):
            if state["game"]["deal"]["to_move"] == 1:
                break
            state = human.act(state) if is_my_turn(state) else human.next_state()
        assert state["game"]["deal"]["to_move"] == 1 and not state["game"]["deal"]["legal_actions"]
        live = live_table(client, spec.id)
        log = list(live.game.log)
        hand = state["game"]["deal"]["hand"]
        for record in [{"call": "pass"}, {"call": "80H"}, {"card": hand[0]}, {"declare": 0}]:
            ws.send_json(request("action", action=record))
            refused(ws, "not_your_turn")
        ws.send_json({"type": "hint"})
        refused(ws, "not_your_turn")
        assert live.game.log == log
        assert live.game.to_move == 1
    # Between deals: the summary waits for next_deal.
    table_id = create_solo(client, "classic", 3000, "beginner")
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        human = Human(ws, max_deals=1)
        state = human.play_game()
        assert state["awaiting_next_deal"] and not state["game"]["deal"]["legal_actions"]
        log = list(live_table(client, table_id).game.log)
        ws.send_json(request("action", action={"call": "pass"}))
        refused(ws, "waiting")
        ws.send_json({"type": "hint"})
        refused(ws, "waiting")
        assert live_table(client, table_id).game.log == log
        ws.send_json(request("next_deal"))
        assert human.next_state()["game"]["deal_number"] == 2


def test_a_finished_game_refuses_everything(make_client: MakeClient) -> None:
    client = make_client(free_deals=1000)
    table_id = create_solo(client, "online", 501, "confirmed")
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        human = Human(ws)
        state = human.play_game()
        assert state["game"]["winner"] is not None
        assert not state["awaiting_next_deal"]
        log = list(live_table(client, table_id).game.log)
        for message in (request("action", action={"call": "pass"}), request("next_deal"), {"type": "hint"}):
            ws.send_json(message)
            refused(ws, "over")
        assert live_table(client, table_id).game.log == log
    # Reconnecting shows the finished game again.
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        again = receive(ws)
        assert again["game"] == state["game"]
