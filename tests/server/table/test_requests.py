"""The requests as pure checks of the live table (``table/requests.py``): the step they
give, None when there is nothing to store, or a refusal, with no parts around them."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from test_steps import play

from coinche.server.table import requests
from coinche.server.table.kinds import TournamentTable
from coinche.server.table.live_table import TableError
from coinche.server.table.spec import Step

NOW = datetime(2026, 12, 4, tzinfo=UTC)


def test_a_stand_in_comes_once_and_never_for_a_person_who_is_here() -> None:
    live = play("classic", 5, 3)
    step = requests.stand_in(live, "p", "expert", here=False)
    assert step is not None and step.kind == "seat" and step.seat_data is not None
    assert step.seat_data.stand_in == "expert" and step.seat_data.player == "p"
    assert requests.stand_in(live, "p", "expert", here=True) is None  # they came back meanwhile
    assert requests.stand_in(live, "p", None, here=True) is None  # no stand-in to take back
    assert requests.stand_in(live, "nobody", "expert", here=False) is None
    live.apply(step)
    assert requests.stand_in(live, "p", "expert", here=False) is None  # so already
    back = requests.stand_in(live, "p", None, here=True)
    assert back is not None and back.seat_data is not None and back.seat_data.stand_in is None


def test_an_idle_move_is_dropped_once_the_table_moved_on() -> None:
    live = play("classic", 5, 0)
    seat = live.game.to_move
    action = live.game.legal_actions()[0]
    step = requests.idle_move(live, live.seq, seat, action, NOW)
    assert step == Step(live.seq, "action", seat, action, played_by="idle")
    assert requests.idle_move(live, live.seq - 1, seat, action, NOW) is None
    live.apply(step)
    assert requests.idle_move(live, live.seq, seat, 10_000, NOW) is None  # not a legal action


def test_a_tournament_table_takes_no_move_once_its_round_is_closed() -> None:
    live = play("classic", 5, 0)
    live.spec = replace(live.spec, kind=TournamentTable("t1", 1, 4, NOW))
    seat = live.game.to_move
    action = live.game.legal_actions()[0]
    assert requests.idle_move(live, live.seq, seat, action, NOW - timedelta(seconds=1)) is not None
    assert requests.idle_move(live, live.seq, seat, action, NOW) is None  # the computer neither
    with pytest.raises(TableError) as refused:
        asyncio.run(requests.play("p", action, "p:x", NOW)(live))
    assert refused.value.code == "round_over"


def test_the_next_deal_is_dealt_once_and_only_after_a_deal() -> None:
    live = play("classic", 5, 0)
    assert requests.next_deal(live, "p", "p:n1", NOW) is None  # a deal is in progress
    with pytest.raises(TableError) as refused:
        requests.next_deal(live, "stranger", "stranger:n1", NOW)
    assert refused.value.code == "not_seated"
    while not live.game.awaiting_deal:
        seat = live.game.to_move
        live.apply(Step(live.seq, "action", seat, live.game.legal_actions()[0]))
    step = requests.next_deal(live, "p", "p:n2", NOW)
    assert step == Step(live.seq, "deal", 0, request_id="p:n2")
    live.apply(step)
    assert requests.next_deal(live, "p", "p:n2", NOW) is None  # the same request again
    assert requests.deal_on(live, NOW) is None
