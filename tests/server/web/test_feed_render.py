"""The feed renders a step once for all its audiences (``feed.render`` with the step's
``StepParts``): what each audience is sent is exactly what rendering its state alone and
diffing it with its state of the step before makes (``seat_state`` + ``steps.changes``),
for every seat and the watchers, at every step, in both languages, whatever the order the
audiences are rendered in."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from coinche.engine.rules import PROFILES
from coinche.server.infra.store import new_id
from coinche.server.table.kinds import FriendsTable
from coinche.server.table.live_table import LiveTable
from coinche.server.table.spec import Seat, Step, TableSpec
from coinche.server.web.feed import WATCHED_SEAT, Audience, render
from coinche.server.web.messages import StateMessage, StepMessage, encode
from coinche.server.web.seat_state import SeatState, StepParts, seat_state
from coinche.server.web.steps import changes

PEOPLE = (
    Seat("human", player="p0", name="Paul"),
    Seat("human", player="p1", name="Marie", guest=True),
    Seat("human", player="p2", name="Léa"),
    Seat("human", player="p3", name="Jean"),
)
AUDIENCES: list[Audience] = [
    *((seat, lang, False) for seat in range(4) for lang in ("fr", "en")),
    (WATCHED_SEAT, "fr", True),
    (WATCHED_SEAT, "en", True),
]


def next_step(live: LiveTable, rng: random.Random) -> Step | None:
    """A random next step: mostly a legal move (or the next deal), at times a person
    replaced by a computer and back, two seats swapped, a person leaving for good."""
    game = live.game
    seq = live.seq
    if game.is_over:
        return None
    roll = rng.random()
    if roll < 0.04:
        seat = rng.randrange(4)
        holder = live.seats[seat]
        if holder.kind == "human" and holder.stand_in is None:
            stood_in = Seat("human", player=holder.player, name=holder.name, stand_in="confirmed", guest=holder.guest)
            return Step(seq, "seat", seat, seat_data=stood_in)
        if holder.kind == "human":  # back
            back = Seat("human", player=holder.player, name=holder.name, guest=holder.guest)
            return Step(seq, "seat", seat, seat_data=back)
        return Step(seq, "seat", seat, seat_data=PEOPLE[seat])
    if roll < 0.06:
        seat = rng.randrange(4)
        return Step(seq, "seat", seat, seat_data=Seat("bot", level="beginner", gone=live.seats[seat].player))
    if roll < 0.08:
        seat, other = rng.sample(range(4), 2)
        return Step(seq, "swap", seat, other_seat=other)
    if not live.started or game.awaiting_deal:
        return Step(seq, "deal", rng.randrange(4))
    deal = game.current
    assert deal is not None
    played_by = rng.choice((None, None, None, "away", "idle"))
    return Step(seq, "action", deal.to_move, rng.choice(game.legal_actions()), played_by=played_by)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**31), profile=st.sampled_from(sorted(PROFILES)))
def test_each_audience_is_sent_what_its_state_alone_makes(seed: int, profile: str) -> None:
    rng = random.Random(seed)
    kind = FriendsTable(code="ABCDEF", host_player="p0")
    spec = TableSpec(new_id(), PROFILES[profile], seed, rng.randrange(4), PEOPLE, "confirmed", kind=kind)
    live = LiveTable.build(spec, [])
    rendered: dict[Audience, SeatState] = {}
    alone: dict[Audience, StateMessage] = {}
    for _ in range(160):
        step = next_step(live, rng)
        if step is None:
            break
        live.apply(step)
        presence = [rng.choice(("here", "here", "away")) for _ in range(4)]
        parts = StepParts(live)
        audiences = [a for a in AUDIENCES if rng.random() < 0.9]  # some audiences miss a step
        rng.shuffle(audiences)
        for audience in audiences:
            seat, lang, watching = audience
            message, state = render(live, audience, presence, rendered, parts)
            expected = seat_state(live, seat, lang, None, False, presence, watching=watching).message
            assert encode(state) == encode(expected)
            before = alone.get(audience)
            if before is not None and before["seq"] == live.seq - 1:
                assert isinstance(message, StepMessage)
                made = StepMessage(expected["seq"], expected["last"], changes(before, expected))
                assert encode(message) == encode(made)
            else:
                assert message is state
            alone[audience] = expected
        for audience in AUDIENCES:
            if audience not in audiences:  # its next message is its whole state
                alone.pop(audience, None)
