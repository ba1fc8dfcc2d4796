"""The bot API's event stream: ``GET /api/bot/stream`` (``docs/bot-api.md``), NDJSON (one
JSON object a line): the bot's tables, its turns with the seat's view (``docs/wire.md``:
never more than the seat may see), each deal's end, the invitations it receives; a
``ping`` at most ``Settings.bot_heartbeat`` seconds apart.

The bot is an audience of the feed (``feed.py``): each step of its tables comes as the
step's news for its seat (``bot_news.py``), rendered once for every bot that holds the
seat, and the stream sends what it has not told yet. It reads a table whole only when it
starts following it (a bot that reconnects, to this process or another, is told where
every table stands), when the feed rendered none of the steps in between (the table was
read back whole) and when it fell too far behind: a step lost loses nothing.

While its stream is open the bot is present at its tables (``attach``); when it closes,
the stand-in rules of friends' tables apply (a computer plays for it after its time).
The requests that act are ``bot_api.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections import Counter, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Final

import anyio
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route
from starlette.types import Receive, Scope, Send

from ...engine.wire import rules_to_json
from ..features.accounts import Account
from ..features.bots import BotStore
from ..features.following import Following
from ..features.quick_play import person_channel
from ..infra.config import Settings
from ..infra.database import Database
from ..infra.hub import Hub, Subscription
from ..infra.store import Store
from ..live.tables import Tables
from ..table.kinds import invitation_code
from ..table.live_table import LiveTable
from .bot_api import API, ApiError, authenticate, bots_of, error_response, limited
from .bot_news import BotNews, Heard, bot_news
from .drain import drain_of
from .feed import BotWatch, StateFeed
from .messages import (
    BotEvent,
    BotHello,
    BotInvitation,
    BotPing,
    BotRestarting,
    BotRevoked,
    BotTable,
    BotTableLeft,
    encode,
)
from .pages import parts_of

MAX_TABLES: Final = 64
"""Tables one stream follows at once."""
MAX_STREAMS: Final = 2
"""Streams one bot may have open in one process."""
BEAT_SPREAD: Final = 0.5
"""Each heartbeat comes a random time between this part of ``Settings.bot_heartbeat`` and
all of it: streams opened together (the bots reconnecting after a restart) do not read
the database all at the same moment, a burst that held every table's moves behind it."""
SEEN_EVERY: Final = 2
"""Heartbeats between two writes that the bot is online (``following.ONLINE_FOR`` is
longer than two of them)."""
LOOK_EVERY: Final = 4
"""Heartbeats between two readings of the bot's games and invitations from the database
(its hub channel tells of them at once: this is for a message lost)."""
CATCH_UP_DEALS: Final = 1
"""Deals ended while the bot was away that the stream tells of (the last one)."""

_streams: Counter[str] = Counter()

SendEvent = Callable[[BotEvent], Awaitable[None]]
"""Writes one line of the stream."""


@dataclass
class Followed:
    """A table the stream follows: what it was told of it so far."""

    seat: int
    watch: BotWatch
    deals_told: int
    seq: int = -1
    """The table's step the bot was last told of (the feed's news of a step up to it is
    old)."""
    turn_told: int = -1
    """The table's count of actions when the turn was told last (a step that is no move, a
    deal's par, does not tell the same turn again)."""
    wait_told: int = -1
    """The deals dealt when the wait for the next one was told last."""


@dataclass(eq=False)
class BotStream:
    """One open stream of one bot (see the module)."""

    settings: Settings
    db: Database
    store: Store
    """The tables' store (the bot's games in progress)."""
    hub: Hub
    live_tables: Tables
    feed: StateFeed
    following: Following
    bots: BotStore
    bot: Account
    token: str
    heartbeat: float
    tables: dict[str, Followed] = field(default_factory=dict)
    invitations_told: set[str] = field(default_factory=set)
    changed: set[str] = field(default_factory=set)
    """The tables to read whole ("": the bot's games and invitations)."""
    news: deque[tuple[str, int, Heard]] = field(default_factory=deque)
    """The feed's news not sent yet, in the order of the steps."""
    newest: dict[str, int] = field(default_factory=dict)
    """Each table's last step the feed told of (its news, if any, is the last queued)."""
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    restarting: bool = False

    def restart(self) -> None:
        """The server drains: say ``restarting`` and end (the bot connects again)."""
        self.restarting = True
        self.wake.set()

    async def run(self, send: SendEvent) -> None:
        player = self.bot.player
        async with self.hub.subscribe(person_channel(player), steps=False) as personal:
            told = asyncio.ensure_future(self._person_events(personal))
            try:
                await send(BotHello(1, self.bot.name))
                await self.following.seen(player)  # online: a tournament's round seats it
                await self._look_around(send)
                loop = asyncio.get_running_loop()
                beat = loop.time() + self.heartbeat * random.uniform(BEAT_SPREAD, 1.0)
                beats = 0
                while not self.restarting:
                    for table_id in list(self.changed):
                        self.changed.discard(table_id)
                        await self._table_news(table_id, send)
                    while self.news and not self.changed:
                        table_id, seq, news = self.news.popleft()
                        await self._step_news(table_id, seq, news, self.newest.get(table_id) == seq, send)
                    if self.changed:
                        continue
                    self.wake.clear()
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout(max(0.0, beat - loop.time())):  # not wait_for (3.11)
                            await self.wake.wait()
                    if loop.time() >= beat:
                        beats += 1
                        if await self.db(self.bots.bot_of_token, self.token, datetime.now(UTC)) is None:
                            await send(BotRevoked())
                            return
                        await send(BotPing())
                        if beats % SEEN_EVERY == 0:
                            await self.following.seen(player)
                        if beats % LOOK_EVERY == 0:  # a safety net: the bot's channel tells at once
                            await self._look_around(send)
                        beat = loop.time() + self.heartbeat * random.uniform(BEAT_SPREAD, 1.0)
                await send(BotRestarting())
            finally:
                told.cancel()
                for table_id in list(self.tables):
                    self._unfollow(table_id)

    async def _person_events(self, personal: Subscription) -> None:
        """Whatever comes on the bot's own channel (an invitation, a table found): look again."""
        while True:
            await personal.wait()
            self.changed.add("")
            self.wake.set()

    async def _look_around(self, send: SendEvent) -> None:
        """Follow the bot's games in progress not followed yet; tell the new invitations."""
        player = self.bot.player
        for table_id in await self.db(self.store.open_games, player):
            if table_id not in self.tables and len(self.tables) < MAX_TABLES:
                await self._follow(table_id, send)
        invitations = await self.following.invitations(player)
        for invitation in invitations:
            if invitation.id not in self.invitations_told:
                self.invitations_told.add(invitation.id)
                await send(
                    BotInvitation(
                        invitation.id, invitation.from_name, invitation.table_id, invitation.code, invitation.seat
                    )
                )
        if len(self.invitations_told) > 1000:
            self.invitations_told = {i.id for i in invitations}

    async def _follow(self, table_id: str, send: SendEvent) -> None:
        watch = self.feed.watch_bot(table_id, self.bot.player, lambda seq, news: self._heard(table_id, seq, news))
        live = await self.live_tables.table(table_id, fresh=True)  # watched first: no step is missed
        seat = live.seat_of(self.bot.player) if live is not None else None
        if live is None or seat is None or live.game.is_over:
            self.feed.unwatch_bot(watch)
            self.newest.pop(table_id, None)
            return
        done = live.deals_over
        self.tables[table_id] = Followed(seat, watch, max(0, done - CATCH_UP_DEALS))
        await self.live_tables.attach(live, self.bot.player)  # present: a computer standing in steps back
        players = [_holder_name(live, i) for i in range(4)]
        friends = invitation_code(live.spec.kind) is not None
        await send(BotTable(table_id, seat, rules_to_json(live.spec.rules), players, friends))
        self.changed.add(table_id)

    def _heard(self, table_id: str, seq: int, news: Heard) -> None:
        """The feed's news of a step (called by the feed: no wait); a step that tells the
        bot nothing wakes nothing. Too far behind, the stream reads its tables whole
        instead."""
        self.newest[table_id] = seq
        if isinstance(news, BotNews) and news.silent:
            return
        if len(self.news) >= self.settings.outbox_limit:
            self.changed.update(t for t, _, _ in self.news)
            self.news.clear()
            self.changed.add(table_id)
        else:
            self.news.append((table_id, seq, news))
        self.wake.set()

    def _unfollow(self, table_id: str) -> None:
        followed = self.tables.pop(table_id, None)
        self.newest.pop(table_id, None)
        if followed is not None:
            self.feed.unwatch_bot(followed.watch)
            self.live_tables.detach(table_id, self.bot.player)

    async def _step_news(self, table_id: str, seq: int, news: Heard, latest: bool, send: SendEvent) -> None:
        """Send what a step's news says that the bot was not told yet (``latest``: the feed
        told of no later step of the table; else its turn or wait is past, not told)."""
        followed = self.tables.get(table_id)
        if followed is None or seq <= followed.seq:
            return
        if news is None:
            await send(BotTableLeft(table_id))
            self._unfollow(table_id)
        elif not isinstance(news, BotNews) or not await self._tell(table_id, followed, news, send, latest):
            await self._table_news(table_id, send)  # BOT_RESYNC, or a deal's end not held

    async def _table_news(self, table_id: str, send: SendEvent) -> None:
        """What changed at a table since the bot was last told, from the table read whole."""
        if table_id == "":
            await self._look_around(send)
            return
        followed = self.tables.get(table_id)
        if followed is None:
            return
        live = await self.live_tables.table(table_id)
        seat = live.seat_of(self.bot.player) if live is not None else None
        if live is None or seat is None:
            await send(BotTableLeft(table_id))
            self._unfollow(table_id)
            return
        time_ms = int(self.settings.idle_move_seconds * 1000)
        await self._tell(table_id, followed, bot_news(live, seat, None, time_ms), send)

    async def _tell(
        self,
        table_id: str,
        followed: Followed,
        news: BotNews,
        send: SendEvent,
        latest: bool = True,
    ) -> bool:
        """Send the events of ``news`` the bot was not told yet (the turn and the wait only
        when ``latest``: where the table stands); False when a deal ended that the news no
        longer holds (the table is to be read whole)."""
        if followed.deals_told < news.deals_over:
            if news.deal_over is None:
                return False
            await send(news.deal_over)
            followed.deals_told = news.deals_over
        followed.seat = news.seat
        followed.seq = news.seq
        if news.game_over is not None:
            await send(news.game_over)
            self._unfollow(table_id)
        elif latest and news.turn is not None and followed.turn_told != news.actions:
            followed.turn_told = news.actions
            await send(news.turn)
        elif latest and news.deal_wait is not None and followed.wait_told != news.deals:
            followed.wait_told = news.deals
            await send(news.deal_wait)
        return True


def _holder_name(live: LiveTable, seat: int) -> str | None:
    holder = live.seats[seat]
    return holder.name if holder.kind == "human" else f"computer ({holder.level})"


class StreamResponse(Response):
    """The NDJSON stream: its lines as they come, until the bot disconnects (read at once
    from ``receive``, not at the next write) or the stream ends."""

    media_type = "application/x-ndjson"

    def __init__(self, stream: BotStream, on_end: Callable[[], None]) -> None:
        super().__init__(headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
        self.stream = stream
        self.on_end = on_end

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = [*self.raw_headers, (b"content-type", self.media_type.encode())]
        headers = [(k, v) for k, v in headers if k != b"content-length"]
        try:
            await send({"type": "http.response.start", "status": 200, "headers": headers})

            async def line(message: BotEvent) -> None:
                body = encode(message) + b"\n"
                await send({"type": "http.response.body", "body": body, "more_body": True})

            async with anyio.create_task_group() as group:

                async def gone() -> None:
                    while (await receive())["type"] != "http.disconnect":
                        pass
                    group.cancel_scope.cancel()

                group.start_soon(gone)
                with contextlib.suppress(OSError):  # the client went while we wrote
                    await self.stream.run(line)
                group.cancel_scope.cancel()
            with contextlib.suppress(Exception):
                await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            self.on_end()


async def stream(request: Request) -> Response:
    try:
        bot = await authenticate(request)
        settings = request.app.state.settings
        await limited(request, bot, settings.bot_request_limit, "stream")
        if _streams[bot.player] >= MAX_STREAMS:
            raise ApiError(429, "too_many_streams", f"a bot has at most {MAX_STREAMS} streams open")
        drain = drain_of(request.app)
        if drain is not None and drain.draining:
            raise ApiError(503, "restarting", "the server restarts: connect again")
    except ApiError as e:
        return error_response(e)
    token = request.headers["authorization"].partition(" ")[2].strip()
    state, parts = request.app.state, parts_of(request)
    session = BotStream(
        settings,
        parts.db,
        parts.store,
        parts.hub,
        parts.tables,
        state.feed,
        state.following,
        bots_of(request),
        bot,
        token,
        settings.bot_heartbeat,
    )
    if drain is not None:
        drain.opened(session)
    _streams[bot.player] += 1  # the response's end takes it back (``ended``)

    def ended() -> None:
        _streams[bot.player] -= 1
        if _streams[bot.player] <= 0:
            del _streams[bot.player]
        if drain is not None:
            drain.closed(session)

    return StreamResponse(session, ended)


routes: list[BaseRoute] = [Route(f"{API}/stream", stream, methods=["GET"])]
