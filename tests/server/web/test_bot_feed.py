"""The bots are an audience of the feed (``feed.py``, ``bot_news.py``): each step's news for
a seat, the bot API stream's events, is rendered once for every bot stream that holds the
seat, and no more once no stream watches the table."""

from __future__ import annotations

import time
from typing import Any

import pytest
from server_helpers import call, create_solo, live_table, parts_of
from starlette.testclient import TestClient

from coinche.server.web import feed as feed_module
from coinche.server.web.bot_news import BotNews, Heard
from coinche.server.web.feed import BotWatch, StateFeed

STEPS = 6
"""Steps heard before the test looks."""


def test_each_step_is_rendered_once_for_the_bots_at_one_seat(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id = create_solo(client, "classic", 1000, "beginner")
    parts = parts_of(client)
    first_read = call(client, parts.tables.table, table_id)  # the table in memory
    player = first_read.seats[0].player if first_read is not None else None
    assert player is not None
    renders: list[BotNews] = []
    real = feed_module.bot_news

    def counted(*args: Any) -> BotNews:
        news = real(*args)
        renders.append(news)
        return news

    monkeypatch.setattr(feed_module, "bot_news", counted)
    feed: StateFeed = client.app.state.feed  # type: ignore[attr-defined]
    heard: tuple[list[tuple[int, Heard]], list[tuple[int, Heard]]] = ([], [])

    async def watch() -> list[BotWatch]:
        return [feed.watch_bot(table_id, player, lambda seq, news, h=h: h.append((seq, news))) for h in heard]

    watches = call(client, watch)
    call(client, parts.tables.attach, first_read, player)  # present, as a stream is: the computers play
    deadline = time.monotonic() + 60
    while len(heard[0]) < STEPS:
        assert time.monotonic() < deadline, "the table did not move on"
        live = live_table(client, table_id)
        if live.person_to_move() == 0:
            call(client, parts.tables.act, table_id, player, live.game.legal_actions()[0], f"a{live.seq}")
        elif live.game.awaiting_deal:
            call(client, parts.tables.next_deal, table_id, player, f"n{live.seq}")
        else:
            time.sleep(0.02)  # the computers play: poll, bounded by the deadline

    async def unwatch() -> None:
        for w in watches:
            feed.unwatch_bot(w)
        parts.tables.detach(table_id, player)

    call(client, unwatch)
    first, second = list(heard[0]), list(heard[1])
    assert [seq for seq, _ in first] == [seq for seq, _ in second]
    assert all(a is b and isinstance(a, BotNews) for (_, a), (_, b) in zip(first, second, strict=True))
    assert len({id(news) for _, news in first}) == len(first) == len({seq for seq, _ in first})
    assert renders == [news for _, news in first]  # rendered once a step, for both
    turns = [news.turn for _, news in first if isinstance(news, BotNews) and news.turn is not None]
    assert turns and all(t.seat == 0 and t.view["legal_actions"] for t in turns)
    rendered = len(renders)
    live = live_table(client, table_id)
    if live.person_to_move() == 0:  # a step after the last stream left renders nothing
        call(client, parts.tables.act, table_id, player, live.game.legal_actions()[0], f"a{live.seq}")
        assert len(renders) == rendered
