"""The ``step`` messages (docs/protocol.md): a seat's state of each step, sent as what
changed since the state of the step before, makes exactly the state a client would have
been sent whole; the server builds each state like the one before it, and the result is
the same as building it afresh."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from coinche.engine.rules import PROFILES
from coinche.server.infra.store import new_id
from coinche.server.table.live_table import LiveTable
from coinche.server.table.spec import Seat, Step, TableSpec
from coinche.server.web.messages import encode
from coinche.server.web.seat_state import SeatState, seat_state
from coinche.server.web.steps import apply_step, changes, step_message

BOT = Seat("bot", level="confirmed")


def play(profile: str, seed: int, steps: int) -> LiveTable:
    """A solo table after ``steps`` random legal moves (the next deal dealt after each)."""
    spec = TableSpec(new_id(), PROFILES[profile], seed, 0, (Seat("human", player="p"), BOT, BOT, BOT), "confirmed")
    live = LiveTable.build(spec, [])
    rng = random.Random(seed)
    for _ in range(steps):
        game = live.game
        if game.is_over:
            break
        if game.awaiting_deal:
            live.apply(Step(live.seq, "deal", 0))
            continue
        deal = game.current
        assert deal is not None
        live.apply(Step(live.seq, "action", deal.to_move, rng.choice(game.legal_actions())))
    return live


@settings(max_examples=12, deadline=None)
@given(profile=st.sampled_from(sorted(PROFILES)), seed=st.integers(0, 2**31), seat=st.integers(0, 3))
def test_each_step_makes_the_state_a_client_would_have_been_sent(profile: str, seed: int, seat: int) -> None:
    live = play(profile, seed, 150)
    past = live.replay(0)
    before: SeatState = seat_state(next(past), seat, "fr", None, False)
    client = before.message
    for table in past:
        after = seat_state(table, seat, "fr", None, False, like=before)
        afresh = seat_state(table, seat, "fr", None, False).message
        assert after.message == afresh  # built like the state before: the same state
        step = json.loads(encode(step_message(before.message, after.message)))  # over the wire
        client = apply_step(client, step)
        assert client == afresh
        assert len(json.dumps(step)) < len(json.dumps(afresh))
        before = after


json_leaf = st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=3)
json_values = st.recursive(
    json_leaf,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from("abcd"), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(before=json_values, after=json_values)
def test_the_changes_of_any_two_values_make_the_one_of_the_other(before: Any, after: Any) -> None:
    state = {"type": "state", "seq": 1, "full": False, "last": None, "x": before}
    target = {"type": "state", "seq": 2, "full": False, "last": {"seat": 0}, "x": after}
    kept = json.dumps(state)
    made = apply_step(state, json.loads(encode(step_message(state, target))))
    assert made == target
    assert json.dumps(state) == kept  # the state before is left as it was (the page compares)


def test_a_grown_list_is_appended_to_and_shared_parts_cost_nothing() -> None:
    calls = [{"seat": 1, "call": "pass"}]
    before = {"game": {"calls": calls, "rules": {"profile": "classic"}}}
    after = {"game": {"calls": [*calls, {"seat": 2, "call": "80H"}], "rules": before["game"]["rules"]}}
    assert changes(before, after) == [[["game", "calls", 1], {"seat": 2, "call": "80H"}]]
