"""The bot API's event stream: ``GET /api/bot/stream`` (``docs/bot-api.md``), NDJSON (one
JSON object a line): the bot's tables, its turns with the seat's view (``docs/wire.md``:
never more than the seat may see), each deal's end, the invitations it receives; a
``ping`` at most ``Settings.bot_heartbeat`` seconds apart.

The stream holds no state of its own worth keeping: it follows its tables' steps on the
hub and reads each table as it is (``LiveTable``), so a notification merged or lost loses
nothing, and a bot that reconnects (to this process or another) is told where every table
stands. While its stream is open the bot is present at its tables (``attach``); when it
closes, the stand-in rules of friends' tables apply (a computer plays for it after its
time). The requests that act are ``bot_api.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Final

import anyio
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route
from starlette.types import Receive, Scope, Send

from ...engine.wire import rules_to_json, view_to_json
from ..features.accounts import Account
from ..features.bots import BotStore
from ..features.following import Following
from ..features.quick_play import person_channel
from ..infra.hub import Subscription
from ..live.parts import TableParts
from ..table.kinds import invitation_code
from ..table.live_table import LiveTable
from .bot_api import API, ApiError, authenticate, bots_of, error_response, limited
from .drain import drain_of
from .messages import (
    BotDealOver,
    BotDealWait,
    BotEvent,
    BotGameOver,
    BotHello,
    BotInvitation,
    BotPing,
    BotRestarting,
    BotRevoked,
    BotTable,
    BotTableLeft,
    BotTurn,
    BotTurnGame,
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
"""Deals ended while the bot was away that the stream tells of (the last ones)."""

_streams: Counter[str] = Counter()

SendEvent = Callable[[BotEvent], Awaitable[None]]
"""Writes one line of the stream."""


@dataclass
class Followed:
    """A table the stream follows: what it was told of it so far."""

    seat: int
    subscription: Subscription
    watcher: asyncio.Task[None]
    deals_told: int
    turn_told: int = -1
    """The table's count of actions when the turn was told last (a step that is no move, a
    deal's par, does not tell the same turn again)."""
    wait_told: int = -1
    """The deals dealt when the wait for the next one was told last."""


@dataclass(eq=False)
class BotStream:
    """One open stream of one bot (see the module)."""

    parts: TableParts
    following: Following
    bots: BotStore
    bot: Account
    token: str
    heartbeat: float
    tables: dict[str, Followed] = field(default_factory=dict)
    invitations_told: set[str] = field(default_factory=set)
    changed: set[str] = field(default_factory=set)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    restarting: bool = False

    def restart(self) -> None:
        """The server drains: say ``restarting`` and end (the bot connects again)."""
        self.restarting = True
        self.wake.set()

    async def run(self, send: SendEvent) -> None:
        parts = self.parts
        player = self.bot.player
        async with parts.hub.subscribe(person_channel(player), steps=False) as personal:
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
                    if self.changed:
                        continue
                    self.wake.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self.wake.wait(), timeout=max(0.0, beat - loop.time()))
                    if loop.time() >= beat:
                        beats += 1
                        if await parts.db(self.bots.bot_of_token, self.token, datetime.now(UTC)) is None:
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
        for table_id in await self.parts.db(self.parts.store.open_games, player):
            if table_id not in self.tables and len(self.tables) < MAX_TABLES:
                await self._follow(table_id, send)
        invitations = await self.following.invitations(player)
        for invitation in invitations:
            if invitation.id not in self.invitations_told:
                self.invitations_told.add(invitation.id)
                await send(BotInvitation(invitation.id, invitation.from_name, invitation.table_id, invitation.code))
        if len(self.invitations_told) > 1000:
            self.invitations_told = {i.id for i in invitations}

    async def _follow(self, table_id: str, send: SendEvent) -> None:
        parts = self.parts
        subscription = parts.hub.subscribe(table_id, events=False)
        live = await parts.tables.table(table_id, fresh=True)
        seat = live.seat_of(self.bot.player) if live is not None else None
        if live is None or seat is None or live.game.is_over:
            subscription.close()
            return
        watcher = asyncio.ensure_future(self._watch(table_id, subscription))
        done = _deals_over(live)
        self.tables[table_id] = Followed(seat, subscription, watcher, max(0, done - CATCH_UP_DEALS))
        await parts.tables.attach(live, self.bot.player)  # present: a computer standing in steps back
        players = [_holder_name(live, i) for i in range(4)]
        friends = invitation_code(live.spec.kind) is not None
        await send(BotTable(table_id, seat, rules_to_json(live.spec.rules), players, friends))
        self.changed.add(table_id)

    async def _watch(self, table_id: str, subscription: Subscription) -> None:
        while True:
            await subscription.wait()
            self.changed.add(table_id)
            self.wake.set()

    def _unfollow(self, table_id: str) -> None:
        followed = self.tables.pop(table_id, None)
        if followed is not None:
            followed.watcher.cancel()
            followed.subscription.close()
            self.parts.tables.detach(table_id, self.bot.player)

    async def _table_news(self, table_id: str, send: SendEvent) -> None:
        """What changed at a table since the bot was last told (its whole state is read: a
        merged notification loses nothing)."""
        if table_id == "":
            await self._look_around(send)
            return
        followed = self.tables.get(table_id)
        if followed is None:
            return
        live = await self.parts.tables.table(table_id)
        seat = live.seat_of(self.bot.player) if live is not None else None
        if live is None or seat is None:
            await send(BotTableLeft(table_id))
            self._unfollow(table_id)
            return
        followed.seat = seat
        game = live.game
        done = _deals_over(live)
        for number in range(max(followed.deals_told + 1, done - CATCH_UP_DEALS + 1), done + 1):
            deal = game.deals[number - 1]
            result = deal.result()
            score = list(result.score) if result is not None else None
            await send(BotDealOver(table_id, number, view_to_json(deal.view(seat)), score))
        followed.deals_told = max(followed.deals_told, done)
        if game.is_over:
            await send(BotGameOver(table_id, list(game.totals), game.winner))
            self._unfollow(table_id)
            return
        if live.person_to_move() == seat and followed.turn_told != len(live.action_seqs):
            followed.turn_told = len(live.action_seqs)
            view = game.view(seat)
            scores = BotTurnGame(
                view.deal_number, view.target, list(view.totals), [list(h) for h in view.history], view.winner
            )
            time_ms = int(self.parts.settings.idle_move_seconds * 1000)
            await send(BotTurn(table_id, live.seq, seat, view_to_json(view.deal), scores, time_ms))
        elif live.started and game.awaiting_deal and followed.wait_told != len(game.deals):
            followed.wait_told = len(game.deals)
            await send(BotDealWait(table_id, live.seq))


def _deals_over(live: LiveTable) -> int:
    deals = live.game.deals
    return len(deals) if deals and deals[-1].is_over else max(0, len(deals) - 1)


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
    session = BotStream(
        parts_of(request), request.app.state.following, bots_of(request), bot, token, settings.bot_heartbeat
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
