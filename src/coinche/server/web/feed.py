"""The tables' new steps, rendered once in this process for the sockets that watch them.

The registry of live tables hands each step to its followers as a table moves on, one step
at a time, whether it was stored here or read from the log that another process stored.
The feed is one of them: for each table watched here it renders the state of each
audience (a seat, or the watchers, who see the table from south's chair with no hand), in
each language asked for, once per step, and hands the sockets of that audience
(``Watch``) the ``step`` that makes the seat's state of the step before into it (what
changed: a card played, the hand, the legal actions), or the whole state when it rendered
none for the step before. Each state is built like the one before it (``SeatState``: the
rules, the calls, the tricks played are built once), so what changed is found fast. A
socket so never reads the table back to render its own copy, and a client two steps behind
gets the two steps rendered when they came, never a replay of the game from its first step.

A seat that no longer holds the socket's player gets ``None``: the socket closes. The idle
clock a step starts (``Attendance.step_clock``) goes with the step, in the same write.

Steps another process stored arrive as a hub notification: the feed has one subscription
per table watched here (the sockets' own subscriptions hear only the passing events), and
has the registry read the log once for all the table's sockets; its catch-up hands the
steps to the feed like the others. Should the registry have read the table back whole (it
left memory), the feed had none of its steps: the sockets are told to ``RESYNC``.

The bots are an audience too (``BotWatch``): each step's news for a seat (``bot_news.py``:
the bot API stream's events) is rendered once for every bot stream that holds the seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Final

from ..infra.hub import Subscription
from ..live.parts import TableParts
from ..table.live_table import LiveTable
from ..table.spec import Step
from .bot_news import BOT_RESYNC, BotNews, Heard, bot_news
from .messages import ClockMessage, ResyncMessage, SeatMessage, StateMessage, StepMessage, encode
from .protocol import clock_message
from .seat_state import SeatState, StepParts, seat_state
from .steps import step_message

log = logging.getLogger("coinche.feed")

Rendered = tuple[int, SeatMessage | None, ClockMessage | None]
"""A step's seq and the seat's ``step`` message (from the seat's state at seq - 1), or its
whole ``state`` after it (None: the player holds no seat any more; ``RESYNC``: the steps up
to seq were not rendered, the socket reads the table); and the clock the step started, sent
right after it (in the same write)."""

RESYNC: Final = ResyncMessage()
"""Handed to the sockets of a table read back whole (compared by identity)."""

WATCHED_SEAT: Final = 0
"""The chair a watcher sees the table from (south)."""


_last_encoded: list[tuple[object, str]] = []


def encoded(message: object) -> str:
    """The JSON text of a message (``messages.encode``), encoded once for all the sockets
    that send the same object one after the other: the feed hands one message to every
    socket of an audience (a table's watchers, a player's tabs), and never changes a
    message it handed out. The last message encoded is kept, so its identity says it is
    the same."""
    if _last_encoded and _last_encoded[0][0] is message:
        return _last_encoded[0][1]
    text = encode(message).decode()
    _last_encoded[:] = [(message, text)]
    return text


def follows(sent: int, seq: int, message: SeatMessage) -> bool:
    """Whether the feed's ``message`` of step ``seq`` may be sent as it is to a socket that
    sent up to ``sent``: a whole state, or the step right after it (not a ``RESYNC``)."""
    return message is not RESYNC and (not isinstance(message, StepMessage) or seq == sent + 1)


class Watch:
    """One socket's share of the feed: the steps of its player's seat (``player`` None: a
    watcher's), in its language, in the order of the steps. ``full`` past ``limit`` states
    unread: the socket is closed."""

    def __init__(self, table_id: str, player: str | None, lang: str, limit: int) -> None:
        self.table_id = table_id
        self.player = player
        self.lang = lang
        self.latest = -1
        """The seq of the last message handed here."""
        self.seat: int | None = None
        """The seat of the last message handed here (a ``step`` follows the state of the
        same seat: a player who moved seats gets the whole state)."""
        self.full = False
        self.deliver: Callable[[int, SeatMessage, ClockMessage | None], bool] | None = None
        """The socket's fast path: takes a message (and the step's clock) at once and says
        so (True), when it needs no wait (else it is queued for the socket's own task)."""
        self._queue: asyncio.Queue[Rendered] = asyncio.Queue(maxsize=limit)

    def put(self, rendered: Rendered) -> None:
        seq, message, clock = rendered
        self.latest = seq
        if (
            self.deliver is not None
            and message is not None
            and self._queue.empty()
            and self.deliver(seq, message, clock)
        ):
            return
        try:
            self._queue.put_nowait(rendered)
        except asyncio.QueueFull:
            self.full = True

    async def get(self) -> Rendered:
        return await self._queue.get()


class BotWatch:
    """A bot stream's share of the feed at one table: ``tell`` is handed the news of each
    step for the bot's seat, in the order of the steps (``Heard``), and must not wait."""

    def __init__(self, table_id: str, player: str, tell: Callable[[int, Heard], None]) -> None:
        self.table_id = table_id
        self.player = player
        self.tell = tell
        self.latest = -1
        """The seq of the last news handed here."""


Audience = tuple[int, str, bool]
"""Who a state is rendered for: the seat (a watcher's chair), the language, and whether
it is a watcher's."""


def render(
    live: LiveTable,
    audience: Audience,
    presence: Sequence[str] | None,
    before: dict[Audience, SeatState],
    parts: StepParts,
) -> tuple[SeatMessage, StateMessage]:
    """An audience's message of the step ``live`` is at and its whole state: the ``step``
    from its state of the step before (kept in ``before``), or the whole state when there
    is none. ``parts``: what the step's other audiences rendered of it, shared (the message
    is the same as rendered alone)."""
    seat, lang, watching = audience
    like = before.get(audience)
    # The free deals left are the player's own: the socket adds them (a table that counts
    # them has one person).
    state = seat_state(live, seat, lang, None, False, presence, like, watching, parts)
    before[audience] = state
    if like is not None and like.message["seq"] == live.seq - 1:
        return step_message(like.message, state.message, parts.diffs), state.message
    return state.message, state.message


class StateFeed:
    """The states of each table's watched seats, rendered once per step (see the module)."""

    def __init__(self, parts: TableParts) -> None:
        self.parts = parts
        self._watches: defaultdict[str, set[Watch]] = defaultdict(set)
        self._rendered: dict[str, dict[Audience, SeatState]] = {}
        """Each watched table's last state of each audience (seat, language, watching)."""
        self._pumps: dict[str, asyncio.Task[None]] = {}
        self._bots: defaultdict[str, set[BotWatch]] = defaultdict(set)
        self._bot_news: dict[str, dict[int, BotNews]] = {}
        """Each table's last news of each seat a bot holds."""
        parts.registry.follow(self.moved)
        parts.registry.follow(self.bots_moved)

    def watch(self, table_id: str, player: str | None, lang: str) -> Watch:
        """A new socket's watch (``player`` None: a watcher's): from now on it is handed
        every step's state."""
        watch = Watch(table_id, player, lang, self.parts.settings.outbox_limit)
        self._watches[table_id].add(watch)
        self._start_pump(table_id)
        return watch

    def unwatch(self, watch: Watch) -> None:
        watches = self._watches.get(watch.table_id)
        if watches is not None:
            watches.discard(watch)
            if not watches:
                del self._watches[watch.table_id]
                self._rendered.pop(watch.table_id, None)
                self._stop_pump(watch.table_id)

    def watch_bot(self, table_id: str, player: str, tell: Callable[[int, Heard], None]) -> BotWatch:
        """A bot stream's watch of a table: from now on ``tell`` is handed every step's news
        for the bot's seat."""
        watch = BotWatch(table_id, player, tell)
        self._bots[table_id].add(watch)
        self._start_pump(table_id)
        return watch

    def unwatch_bot(self, watch: BotWatch) -> None:
        watches = self._bots.get(watch.table_id)
        if watches is not None:
            watches.discard(watch)
            if not watches:
                del self._bots[watch.table_id]
                self._bot_news.pop(watch.table_id, None)
                self._stop_pump(watch.table_id)

    def _start_pump(self, table_id: str) -> None:
        if table_id not in self._pumps:  # subscribed now: no step another process stores is missed
            registry = self.parts.registry

            def behind(seq: int) -> bool:  # not a step stored here, whose followers ran
                live = registry.get(table_id)
                return live is None or live.seq < seq

            subscription = self.parts.hub.subscribe(table_id, events=False, behind=behind)
            self._pumps[table_id] = asyncio.get_running_loop().create_task(self._pump(table_id, subscription))

    def _stop_pump(self, table_id: str) -> None:
        if table_id not in self._watches and table_id not in self._bots:
            pump = self._pumps.pop(table_id, None)
            if pump is not None:
                pump.cancel()

    async def _pump(self, table_id: str, subscription: Subscription) -> None:
        """Have the registry read the steps other processes store (once for the table's
        sockets here; its catch-up hands them to ``moved``)."""
        with contextlib.closing(subscription):
            while True:
                seq, _ = await subscription.wait()
                live = self.parts.registry.get(table_id)
                if live is not None and live.seq >= seq:
                    continue  # stored here, or read already
                try:
                    live = await self.parts.tables.table(table_id, at_least=seq)
                except Exception:  # the database failed: the next step, or a reconnection, reads it
                    log.exception("table %s: its new steps could not be read", table_id)
                    continue
                if live is None:
                    continue
                for watch in list(self._watches.get(table_id, ())):
                    if watch.latest < live.seq:  # read back whole: the feed rendered none of it
                        watch.put((live.seq, RESYNC, None))
                for bot in list(self._bots.get(table_id, ())):
                    if bot.latest < live.seq:
                        bot.latest = live.seq
                        bot.tell(live.seq, BOT_RESYNC)

    async def close(self) -> None:
        pumps = list(self._pumps.values())
        self._pumps.clear()
        for pump in pumps:
            pump.cancel()
        await asyncio.gather(*pumps, return_exceptions=True)

    def moved(self, live: LiveTable, step: Step) -> None:
        """The registry's follower: ``live`` is the table just after ``step``."""
        watches = self._watches.get(live.id)
        if not watches:
            return
        attendance = self.parts.attendance
        presence = attendance.presence(live)
        clock = clock_message(attendance.step_clock(live))  # alike for every audience
        before = self._rendered.setdefault(live.id, {})
        sent: dict[Audience, tuple[SeatMessage, StateMessage]] = {}
        parts = StepParts(live)
        for watch in list(watches):
            watching = watch.player is None
            seat = WATCHED_SEAT if watch.player is None else live.seat_of(watch.player)
            if seat is None:
                watch.put((live.seq, None, None))
                continue
            key = (seat, watch.lang, watching)
            messages = sent.get(key)
            if messages is None:
                messages = sent[key] = render(live, key, presence, before, parts)
            watch.put((live.seq, messages[0] if watch.seat == seat else messages[1], clock))
            watch.seat = seat

    def bots_moved(self, live: LiveTable, step: Step) -> None:
        """The registry's follower for the bots: each seat's news of the step, rendered once
        for the bot streams that hold the seat."""
        watches = self._bots.get(live.id)
        if not watches:
            return
        before = self._bot_news.setdefault(live.id, {})
        made: dict[int, BotNews] = {}
        time_ms = int(self.parts.settings.idle_move_seconds * 1000)
        for watch in list(watches):
            watch.latest = live.seq
            seat = live.seat_of(watch.player)
            if seat is None:
                watch.tell(live.seq, None)
                continue
            news = made.get(seat)
            if news is None:
                news = made[seat] = before[seat] = bot_news(live, seat, before.get(seat), time_ms)
            watch.tell(live.seq, news)
