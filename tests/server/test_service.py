"""The table service's computer seats when something goes wrong: a table dropped from
memory (reloaded after a write conflict) stops its old computers, and computers whose task
ended on a fault play on when the player comes back."""

from __future__ import annotations

import time
from typing import Any

import pytest
from conftest import MakeClient
from server_helpers import Human, create_solo, is_my_turn, live_table, new_guest, service_of
from slow_bot import BRIEF, BriefBot

from coinche.engine.rules import RuleSet
from coinche.server.store import Seat


def test_a_dropped_table_stops_its_old_computers(make_client: MakeClient) -> None:
    client = make_client(bot_workers=1)
    guest, _ = new_guest(client)
    bot = Seat("bot", level=BRIEF)
    seats = [Seat("human", guest=guest), bot, bot, bot]
    spec = service_of(client).create_table(RuleSet.profile("classic", target=700), seats, "x")
    with client.websocket_connect(f"/ws/table/{spec.id}") as ws:
        human = Human(ws)
        state = human.next_state()
        if is_my_turn(state):
            human.act(state)
        old = live_table(client, spec.id)
        assert old.bot_task is not None and not old.bot_task.done()
        seq = old.seq
        service_of(client).live.pop(spec.id)  # what a conflict with another writer does
        deadline = time.monotonic() + BriefBot.seconds * 3
        while not old.bot_task.done() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert old.bot_task.done(), "the dropped table's computers think on"
        assert old.seq == seq  # and store nothing
        assert service_of(client).store.load_table(spec.id)[1] == old.game.log  # type: ignore[index]


def test_computers_play_on_after_a_fault(make_client: MakeClient, monkeypatch: pytest.MonkeyPatch) -> None:
    client = make_client()
    table_id = create_solo(client, "classic", 3000, "confirmed")
    store = service_of(client).store
    real = store.append_action
    failed: list[int] = []

    def flaky(table: str, seq: int, seat: int, action: int, explanation: dict[str, Any] | None = None) -> None:
        if seat != 0 and not failed:
            failed.append(seq)
            raise RuntimeError("disk I/O error")
        real(table, seq, seat, action, explanation)

    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        human = Human(ws)
        state = human.until_my_move()
        monkeypatch.setattr(store, "append_action", flaky)
        state = human.act(state)
        for _ in range(50):  # on to a computer's turn
            if state["awaiting_next_deal"]:
                ws.send_json({"type": "next_deal"})
                state = human.next_state()
            elif is_my_turn(state):
                state = human.act(state)
            else:
                break
        live = live_table(client, table_id)
        deadline = time.monotonic() + 10
        while not failed and time.monotonic() < deadline:
            time.sleep(0.01)
        assert failed
        while not (live.bot_task is None or live.bot_task.done()) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert live.bot_task is not None and live.bot_task.done()
        assert live.game.to_move != 0 and live.seq == failed[0]
    # The player comes back (reloads the page): the computers play on.
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        human = Human(ws)
        state = human.until_my_move()
        assert is_my_turn(state) or state["awaiting_next_deal"]
        assert live.seq > failed[0]
