"""A table's bookkeeping (what the listeners of its events do at a deal's end and at the
game's end: history, statistics, the daily challenge) runs once: reading the table again writes nothing again,
and only what failed runs again at the next read."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from server_helpers import MakeClient, call, parts_of

from coinche.engine.rules import RuleSet
from coinche.server.live.events import DealEnded, GameEnded
from coinche.server.live.parts import TableParts
from coinche.server.table.live_table import LiveTable
from coinche.server.table.spec import Seat

pytestmark = pytest.mark.both_databases


async def _reload(parts: TableParts, table_id: str) -> LiveTable:
    parts.registry.forget(table_id)  # out of memory, as an idle table or a restart leaves it
    live = await parts.tables.table(table_id)
    assert live is not None
    return live


def played_out(client: Any) -> tuple[TableParts, str, int]:
    """A table of four computers played to its end: the parts, the table, its deals."""
    parts = parts_of(client)
    bot = Seat("bot", level="beginner")
    spec = call(client, parts.tables.create_table, RuleSet.profile("classic", target=300), [bot] * 4, "beginner")
    live = call(client, parts.computers.play_out, spec.id)
    assert live.game.is_over
    return parts, spec.id, len(live.game.deals)


def test_reading_a_finished_table_again_books_nothing_twice(make_client: MakeClient) -> None:
    client = make_client()
    parts = parts_of(client)
    deals: Counter[int] = Counter()
    games: list[str] = []

    async def deal_ended(event: DealEnded) -> None:
        deals[event.number] += 1

    async def game_ended(event: GameEnded) -> None:
        games.append(event.table.id)

    parts.registry.on(DealEnded, deal_ended)
    parts.registry.on(GameEnded, game_ended)
    parts, table_id, count = played_out(client)
    assert deals == Counter(range(1, count + 1)) and games == [table_id]
    for _ in range(2):
        call(client, _reload, parts, table_id)
    assert deals == Counter(range(1, count + 1)) and games == [table_id]  # no hook ran again
    assert parts.store.booked(table_id) == (count, True)


def test_a_failed_bookkeeping_runs_again_at_the_next_read_and_then_no_more(make_client: MakeClient) -> None:
    client = make_client()
    parts = parts_of(client)
    calls: Counter[int] = Counter()
    failing = {1}

    async def flaky(event: DealEnded) -> None:
        number = event.number
        calls[number] += 1
        if number in failing:
            raise RuntimeError("the database went away")

    parts.registry.on(DealEnded, flaky)
    parts, table_id, count = played_out(client)
    assert count >= 2, "a game of several deals"
    assert parts.store.booked(table_id) == (0, True)  # deal 1 failed: nothing after it is booked
    failing.clear()
    call(client, _reload, parts, table_id)
    assert calls == Counter({n: 2 for n in range(1, count + 1)})  # each deal once more, then booked
    assert parts.store.booked(table_id) == (count, True)
    call(client, _reload, parts, table_id)
    assert calls == Counter({n: 2 for n in range(1, count + 1)})
