"""A slow computer on one table never delays another table (issue 7).

Table S seats three ``GatedBot``s, which think until the test lets them through
(``slow_bot.py``); table C three confirmed players; both belong to one guest. While S's
computer thinks, C's moves are answered and C's computers play a whole deal: bot decisions
run in the worker processes, outside the event loop and outside any table's lock. No
clock is read: the slow table is held by the gate, not by a duration. (How fast the other
table answers is measured by ``bench/bench_server.py``.)
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from server_helpers import Human, MakeClient, call, create_solo, live_table, new_guest, parts_of
from slow_bot import GATE, GATED

from coinche.engine.rules import RuleSet
from coinche.server.table.spec import Seat


@pytest.fixture
def gate() -> Iterator[None]:
    GATE.touch()
    try:
        yield
    finally:
        GATE.unlink(missing_ok=True)


def test_a_slow_table_does_not_delay_another(make_client: MakeClient, gate: None) -> None:
    client = make_client(bot_workers=2, free_deals=1000)
    guest, _ = new_guest(client)
    slow = Seat("bot", level=GATED)
    seats = [Seat("bot", level=GATED), Seat("human", player=guest), slow, slow]
    spec = call(client, parts_of(client).tables.create_table, RuleSet.profile("classic", target=700), seats, "slow")
    with client.websocket_connect(f"/ws/table/{spec.id}") as slow_ws:
        slow_human = Human(slow_ws)
        state = slow_human.next_state()
        while state["game"]["deal"]["to_move"] == 1:
            state = slow_human.act(state)  # answered at once: only the gated bots think
        slow_table = live_table(client, spec.id)
        seq = slow_table.seq
        assert parts_of(client).computers.thinking(spec.id)

        # Another table of the same guest: a whole deal, its computers' moves included.
        fast_id = create_solo(client, "classic", 3000, "confirmed")
        with client.websocket_connect(f"/ws/table/{fast_id}") as ws:
            human = Human(ws, max_deals=1)
            last = human.play_game()
            assert last["awaiting_next_deal"]
            assert live_table(client, fast_id).game.deals[0].is_over
        # All of that while the gated computer was still thinking over its move.
        assert slow_table.seq == seq
        assert parts_of(client).computers.thinking(spec.id)

        # The gate opens: the slow table goes on.
        GATE.unlink()
        moved = slow_human.next_state()
        assert moved["last"] is not None and moved["last"]["seat"] != 1
        assert moved["seq"] == seq + 1
