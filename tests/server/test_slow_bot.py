"""A slow computer on one table never delays another table (issue 7).

Table S seats three ``SlowBot``s (two seconds a move, ``slow_bot.py``), table C three
confirmed players; both belong to one guest. While a slow bot thinks, the moves of C are
answered at once and C's computers play on: bot decisions run in the worker processes,
outside the event loop and outside any table's lock.
"""

from __future__ import annotations

import time

from conftest import MakeClient
from server_helpers import (
    Human,
    answers,
    call,
    choose,
    create_solo,
    is_my_turn,
    live_table,
    new_guest,
    request,
    service_of,
)
from slow_bot import NAME, THINKING_SECONDS

from coinche.engine.rules import RuleSet
from coinche.server.store import Seat

FAST = 0.5
"""Seconds within which the other table answers (it takes milliseconds)."""


def test_a_slow_table_does_not_delay_another(make_client: MakeClient) -> None:
    client = make_client(bot_workers=2, free_deals=1000)
    guest, _ = new_guest(client)
    slow = Seat("bot", level=NAME)
    seats = [Seat("human", player=guest), slow, slow, slow]
    spec = call(client, service_of(client).create_table, RuleSet.profile("classic", target=700), seats, "slow")
    fast_id = create_solo(client, "classic", 3000, "confirmed")
    with client.websocket_connect(f"/ws/table/{spec.id}") as slow_ws:
        slow_human = Human(slow_ws)
        state = slow_human.next_state()
        if is_my_turn(state):
            state = slow_human.act(state)  # answered at once: only the slow bots think
        assert not is_my_turn(state)
        thinking_from = time.monotonic()
        slow_table = live_table(client, spec.id)
        seq = slow_table.seq
        assert slow_table.bot_task is not None and not slow_table.bot_task.done()

        answer_times: list[float] = []
        turn_times: list[float] = []
        with client.websocket_connect(f"/ws/table/{fast_id}") as ws:
            human = Human(ws)
            state = human.until_my_move()
            for _ in range(100):
                if len(answer_times) >= 8:
                    break
                if state["awaiting_next_deal"]:
                    ws.send_json(request("next_deal"))
                    state = human.until_my_move()
                    continue
                record = choose(state["game"]["deal"]["legal_actions"], None)
                sent = time.monotonic()
                ws.send_json(request("action", action=record))
                reply = human.next_state()
                assert answers(reply, 0, record), reply
                answered = time.monotonic()
                answer_times.append(answered - sent)
                state = human.until_my_move(reply)
                turn_times.append(time.monotonic() - answered)
        elapsed = time.monotonic() - thinking_from
        # All of that happened while the slow bot was still thinking over its first move.
        assert elapsed < THINKING_SECONDS * 0.8, elapsed
        assert slow_table.seq == seq
        assert len(answer_times) >= 4
        assert max(answer_times) < FAST, answer_times
        assert max(turn_times) < FAST, turn_times

        # And the slow table goes on, a move every two seconds.
        moved = slow_human.next_state()
        assert moved["last"] is not None and moved["last"]["seat"] != 0
        assert time.monotonic() - thinking_from >= THINKING_SECONDS * 0.9
        assert slow_table.seq == seq + 1
