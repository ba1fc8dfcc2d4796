"""One player's WebSocket at a table (docs/protocol.md): it holds no table object.

Four tasks share a connection: the reader turns frames into requests to the table
parts and queues their answers; the follower queues the seat's state of each new step,
as the feed (``feed.py``) rendered it once for this process (steps another process stored
included: the feed has them read from the log); the watcher waits on the hub for the
table's passing events; the sender writes the queue to the socket.
The queue is bounded: a client that does not read is closed (1008), not buffered forever.
When the server drains (SIGTERM, ``drain``), the sender says ``restarting`` after what was
queued, and the connection closes with 4012: the client connects again at once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Hashable, Sequence

from starlette.websockets import WebSocket, WebSocketState

from ..features.account_life import GUEST_RETIRED
from ..features.accounts import AccountService
from ..features.coach import Coach, Turn
from ..features.friends import Friends
from ..infra.config import Settings
from ..infra.hub import Subscription
from ..infra.log_limits import RefusalLog
from ..table import requests
from ..table.live_table import LiveTable, TableError
from .drain import restarting_frame
from .feed import StateFeed, Watch, encoded, follows
from .messages import (
    ClockMessage,
    CoachRequest,
    ErrorMessage,
    HintMessage,
    HintRequest,
    HostRequest,
    LeaveRequest,
    NextDealRequest,
    ReactRequest,
    RestartingMessage,
    SayRequest,
    SeatMessage,
    SitRequest,
    StepMessage,
    TableMessage,
)
from .pages import account_of, lang_of, player_in_session
from .protocol import (
    ActionRequest,
    ProtocolError,
    ack_message,
    coach_message,
    error_message,
    event_message,
    hello_message,
    hint_message,
    read_request,
)
from .seat_state import SeatState, seat_state, with_free_deals, with_free_deals_set
from .socket_base import (
    CLOSE_NOT_FOUND,
    CLOSE_POLICY,
    CLOSE_RESTARTING,
    CLOSE_TOO_BIG,
    Close,
    OpenCount,
    SlowConsumer,
    Socket,
)
from .steps import step_message

log = logging.getLogger("coinche.socket")

MAX_CONNECTIONS = 32
"""Connections one player may have open on one table (tabs, devices)."""


_RESTARTING = RestartingMessage()
"""The outbox's last message when the server drains (compared by identity)."""


def parse_since(text: str | None) -> int | None:
    """The ``since`` of the connection's address: a seq, or None (absent or not a number)."""
    if text is None or not text.isascii() or not text.isdigit() or len(text) > 9:
        return None
    return int(text)


def states_since(
    live: LiveTable,
    player: str,
    seat: int,
    since: int | None,
    lang: str,
    free_left: int | None,
    limit: int,
    presence: Callable[[LiveTable], Sequence[str]] | None = None,
) -> list[SeatMessage]:
    """What a client of ``player`` (at ``seat`` now) that has the table up to ``since``
    needs: one ``step`` per missing step, or one full state when it has nothing, is ahead of
    the table, misses too much, or had another seat then (its state was that seat's).
    ``presence``: who is here at each seat of a state (``Attendance.presence``)."""

    def state(table: LiveTable, full: bool, like: SeatState | None = None) -> SeatState:
        here = presence(table) if presence is not None else None
        return seat_state(table, seat, lang, free_left, full, here, like)

    if since is None or since > live.seq or live.seq - since > limit:
        return [state(live, True).message]
    if since == live.seq:
        return []
    # the seat's state at since (the client's), then each step's; from a table's start, the
    # state of its first step
    past = live.replay(max(since - 1, 0))
    then = next(past)
    if since > 0 and then.seat_of(player) != seat:
        return [state(live, True).message]
    before = state(then, False)
    out: list[SeatMessage] = [] if since > 0 else [before.message]
    for table in past:
        after = state(table, False, before)
        out.append(step_message(before.message, after.message))
        before = after
    return out


class TableSocket(Socket):
    """``/ws/table/{id}?since=N``: the seated player's live table."""

    restarts = True

    def __init__(self, websocket: WebSocket) -> None:
        super().__init__(websocket)
        self.as_guest = account_of(websocket) is None
        """Opened with a guest's cookie (no account's session): it closes when that guest is
        retired (signs up, logs in), see ``features/account_life.py``."""
        self.settings: Settings = self.parts.settings
        self.friends: Friends = websocket.app.state.friends
        self.table_id: str = websocket.path_params["table_id"]
        self.player = player_in_session(websocket) or ""
        self.lang = lang_of(websocket)
        self.outbox: asyncio.Queue[TableMessage] = asyncio.Queue(maxsize=self.settings.outbox_limit)
        self.refusals = RefusalLog(log, self.name)
        self.sent = 0
        """The table's seq of the last state queued."""
        self.hinting: asyncio.Task[None] | None = None
        """The hint being computed (one at a time per connection)."""
        self.coach: Coach = websocket.app.state.coach
        self.coaching: tuple[int, asyncio.Task[None]] | None = None
        """The coach's tip being made, and the step of the turn it is for."""
        self.coached: tuple[int, bool] | None = None
        """Whether the player is coached, as decided for the deal (its number) it was
        decided at."""
        self.restarting = False
        self.answering = False
        """The reader is answering a request (the drain lets it finish)."""
        self.counts_free_deals = False
        """The table counts free deals: each state shows the player's count."""
        self.following = False
        """``_follow`` is handling a message of the feed (none may pass it)."""
        self.writing = False
        """``_send`` holds messages taken from the outbox that are not written yet (none may
        pass them)."""

    @property
    def name(self) -> str:
        return f"table {self.table_id} player {self.player}"

    async def admit(self) -> None:
        """A player seated at the table (else 4404)."""
        parts, table_id, player = self.parts, self.table_id, self.player
        live = await parts.tables.table(table_id) if player else None
        seat = live.seat_of(player) if live is not None and player else None
        if seat is None and player:
            # This process's copy may not have the seat yet (taken through another process),
            # or the table is named and not made yet (a tournament's round just seated).
            live = await parts.tables.opened(table_id)
            seat = live.seat_of(player) if live is not None else None
        if live is None or seat is None or not player:
            raise Close(CLOSE_NOT_FOUND, "no seat")

    def counted(self) -> tuple[OpenCount[tuple[str, str]], Hashable]:
        return OpenCount(MAX_CONNECTIONS, counts=self.parts.tables.connections), (self.table_id, self.player)

    def queue(self, message: TableMessage) -> None:
        """Queue ``message`` for ``_send`` (the answers to the client's requests: a client
        that sends faster than it reads meets the outbox's bound)."""
        try:
            self.outbox.put_nowait(message)
        except asyncio.QueueFull:
            raise SlowConsumer from None

    def _put(self, *messages: TableMessage) -> bool:
        """Send ``messages`` after those queued before them: written at once, in one write,
        when none waits and the client reads what it is sent (no task woken,
        ``write_now``), else queued for ``_send``; False when the outbox is full."""
        if (
            self.outbox.empty()
            and not self.writing
            and not self.restarting
            and self.write_now([encoded(m) for m in messages])
        ):
            return True
        if self.outbox.maxsize and self.outbox.maxsize - self.outbox.qsize() < len(messages):
            return False  # none queued: a step is never queued without its clock
        for message in messages:
            self.outbox.put_nowait(message)
        return True

    async def serve(self) -> None:
        feed: StateFeed = self.ws.app.state.feed
        watch = feed.watch(self.table_id, self.player, self.lang)  # first: no step is missed
        try:
            await self._run(parse_since(self.ws.query_params.get("since")), watch)
        finally:
            feed.unwatch(watch)

    async def _run(self, since: int | None, watch: Watch) -> None:
        parts = self.parts
        async with parts.hub.subscribe(self.table_id, steps=False) as subscription:
            # Read the table once watched (a step stored in between is not missed), and
            # read its log (another process may have moved it on).
            live = await parts.tables.table(self.table_id, fresh=True)
            seat = live.seat_of(self.player) if live is not None else None
            if live is None or seat is None or (self.as_guest and await self._guest_retired()):
                # Retired between the handshake and the subscription: its signal was missed.
                raise Close(CLOSE_NOT_FOUND, "no seat")
            try:
                # attach counts the connection before its first wait
                await parts.tables.attach(live, self.player)  # a computer standing in for them steps back
                seat = live.seat_of(self.player)
                if seat is None:
                    raise Close(CLOSE_NOT_FOUND, "no seat")
                self.counts_free_deals = live.spec.kind.uses_free_deals
                messages = await self.states(live, seat, since)
                resumed = since is not None and not (messages and isinstance(messages[0], dict) and messages[0]["full"])
                self.queue(hello_message(live.seq, seat, resumed))
                for m in messages:
                    self.queue(m)
                clock = parts.attendance.clock(self.table_id)
                if clock is not None:  # the countdown of the person to play, where it stands
                    presence = parts.attendance.presence(live)
                    message = event_message(self.lang, live, seat, clock, presence)
                    if message is not None:
                        self.queue(message)
                self.sent = watch.latest = max(watch.latest, live.seq)
                watch.seat = seat
                if not self.counts_free_deals:  # each step as it comes, without waking a task
                    watch.deliver = self._deliver
                self._coach_turn()
                await self.race(self._send, self._read, lambda: self._watch(subscription), lambda: self._follow(watch))
            finally:
                if self.hinting is not None:
                    self.hinting.cancel()
                if self.coaching is not None:
                    self.coaching[1].cancel()
                parts.tables.detach(self.table_id, self.player)
                self.refusals.close()

    def restart(self) -> None:
        """The server drains: say ``restarting`` after what is queued (and after the answer
        to the request under way, if any), then close (4012); no new request is answered
        (the client sends it again to the next process)."""
        if self.restarting:
            return
        self.restarting = True
        if not self.answering:
            self._queue_restart()

    def _queue_restart(self) -> None:
        """The outbox's last message; a client too far behind to take one more message is
        closed at once, same code."""
        try:
            self.outbox.put_nowait(_RESTARTING)
        except asyncio.QueueFull:
            super().restart()

    async def _send(self) -> None:
        """Send what the outbox holds, in order: every message waiting at once in one write
        (a step and the clock that follows it, say)."""
        while True:
            messages = [await self.outbox.get()]
            while not self.outbox.empty():
                messages.append(self.outbox.get_nowait())
            if self.ws.application_state is not WebSocketState.CONNECTED:
                return
            restarting = next((n for n, m in enumerate(messages) if m is _RESTARTING), None)
            if restarting is not None:  # the last message: what comes before it, then the close
                await self.send_texts([*(encoded(m) for m in messages[:restarting]), restarting_frame()])
                raise Close(CLOSE_RESTARTING, "restarting")
            texts = [encoded(m) for m in messages]
            if self.write_now(texts):  # (not through Starlette's send and its wrappers)
                continue
            self.writing = True
            try:
                await self.send_texts(texts)
            finally:
                self.writing = False

    async def states(self, live: LiveTable, seat: int, since: int | None) -> list[SeatMessage]:
        """The states a client that has the table up to ``since`` needs (``states_since``),
        with the player's free deals left."""
        free_left = await self.parts.free_deals.left(self.player)
        presence = self.parts.attendance.presence
        return states_since(live, self.player, seat, since, self.lang, free_left, self.settings.replay_limit, presence)

    def _deliver(self, seq: int, message: SeatMessage, clock: ClockMessage | None) -> bool:
        """``_follow``'s fast path, called by the feed: a step that follows the last one
        queued, or a whole state, and the clock it started, are sent at once (the feed
        calls it only with nothing of its own queued; while ``_follow`` handles a message,
        none passes it)."""
        if self.following:
            return False
        if seq <= self.sent:
            return True
        if not follows(self.sent, seq, message):
            return False
        if not (self._put(message) if clock is None else self._put(message, clock)):
            return False  # the socket's own task finds the outbox full: it closes
        self.sent = seq
        self._coach_turn()
        return True

    async def _follow(self, watch: Watch) -> None:
        """Queue the seat's step of each new step, in order, none twice, none missed (the
        feed's; those the first states covered are skipped). A step that does not follow
        the last one queued (the table was read back whole, or the feed rendered none of
        the steps between) has the socket read the steps since its last."""
        while True:
            self.following = False
            seq, message, clock = await watch.get()
            self.following = True
            if watch.full:
                raise SlowConsumer
            if seq <= self.sent:
                continue
            if message is None:
                await self._no_seat()
                return
            if not follows(self.sent, seq, message):
                live = await self.parts.tables.table(self.table_id)
                seat = live.seat_of(self.player) if live is not None else None
                if live is None or seat is None:
                    await self._no_seat()
                    return
                for m in await self.states(live, seat, self.sent):
                    self.queue(m)
                if clock is not None and clock.seq == live.seq:
                    self.queue(clock)
                self.sent = live.seq
                self._coach_turn()
                continue
            if self.counts_free_deals:  # the player's own count (the feed renders for the seat)
                free_left = await self.parts.free_deals.left(self.player)
                if isinstance(message, StepMessage):
                    message = with_free_deals_set(message, free_left)
                elif isinstance(message, dict):
                    message = with_free_deals(message, free_left)
            self.queue(message)
            if clock is not None:
                self.queue(clock)
            self.sent = seq
            self._coach_turn()

    def _coach_turn(self) -> None:
        """When the step last sent is the seat's turn, have the coach's tip made for it
        (``_coach``); a tip still being made for an earlier turn is dropped."""
        live = self.parts.registry.get(self.table_id)
        seat = live.seat_of(self.player) if live is not None else None
        if live is None or seat is None or live.seq != self.sent:
            return  # a later step is on its way: it is looked at then
        turn = Coach.turn(live, seat)
        if self.coaching is not None:
            if turn is not None and self.coaching[0] == turn.seq and not self.coaching[1].done():
                return
            self.coaching[1].cancel()
            self.coaching = None
        if turn is not None:
            self.coaching = (turn.seq, asyncio.create_task(self._coach(len(live.game.deals), turn)))

    async def _coach(self, deal: int, turn: Turn) -> None:
        """Queue the coach's tip for ``turn`` if the player is coached at this deal and the
        tip is ready while the turn lasts (the person played: it is dropped)."""
        if self.coached is None or self.coached[0] != deal:
            live = self.parts.registry.get(self.table_id)
            if live is None:
                return
            self.coached = (deal, await self.coach.coached(live, self.player))
        if not self.coached[1]:
            return
        tip = await self.coach.tip(turn, self.lang)
        live = self.parts.registry.get(self.table_id)
        if tip is None or live is None or live.seq != turn.seq or self.sent != turn.seq:
            return
        try:
            self.queue(coach_message(turn.seq, tip))
        except SlowConsumer:
            await self.close(CLOSE_POLICY, "too many unread messages")

    async def _switch_coach(self, on: bool) -> None:
        """The player's "Coach" toggle: kept for every table, and the turn in front of
        them coached at once when it is switched on."""
        await self.coach.switch(self.player, on)
        self.coached = None
        if self.coaching is not None:
            self.coaching[1].cancel()
            self.coaching = None
        if on:
            self._coach_turn()

    async def _no_seat(self) -> None:
        """The player holds no seat at the table any more: the connection closes."""
        if self.as_guest and await self._guest_retired():
            raise Close(CLOSE_RESTARTING, "retired")  # its account took the seat: come back as it
        raise Close(CLOSE_NOT_FOUND, "no seat")

    async def _watch(self, subscription: Subscription) -> None:
        """Queue what the table's passing events say (who came or went, a quick message...);
        the steps come through the feed."""
        while True:
            _, events = await subscription.wait()
            if self.as_guest and any(e.get("kind") == GUEST_RETIRED and e.get("player") == self.player for e in events):
                # The guest is an account now: its browser comes back with the account's
                # session, a copy of the guest's cookie is refused (4404).
                raise Close(CLOSE_RESTARTING, "retired")
            if events:
                live = await self.parts.tables.table(self.table_id)
                seat = live.seat_of(self.player) if live is not None else None
                if live is None or seat is None:
                    continue  # the next state closes the connection
                if live.spec.kind.several_people and any(e.get("kind") == "presence" for e in events):
                    await self.parts.attendance.refresh([self.table_id])  # who came or went elsewhere
                attendance = self.parts.attendance
                for event in events:
                    presence = attendance.presence(live)
                    message = event_message(self.lang, live, seat, event, presence, attendance.watchers(self.table_id))
                    if message is not None:
                        self.queue(message)

    async def _guest_retired(self) -> bool:
        accounts: AccountService = self.ws.app.state.accounts
        return await accounts.guest_retired(self.player)

    async def _read(self) -> None:
        while True:
            frame = await self.ws.receive()
            if frame["type"] == "websocket.disconnect":
                return
            text, data = frame.get("text"), frame.get("bytes")
            size = len(text) if text is not None else len(data or b"")
            if size > self.settings.max_frame_bytes:
                raise Close(CLOSE_TOO_BIG, "message too big")
            if self.restarting:
                continue  # unanswered: the client sends it again after reconnecting
            self.answering = True
            try:
                reply = await self._answer(text, data)
            finally:
                self.answering = False
            if reply is not None:
                self.queue(reply)
            if self.restarting:
                self._queue_restart()

    async def _hint(self, request_id: str | None) -> None:
        """Ask the expert for a hint and queue its answer (or the refusal)."""
        try:
            decision, live, seat = await self.parts.computers.hint(self.table_id, self.player)
            message: HintMessage | ErrorMessage = hint_message(self.lang, request_id, decision, live, seat)
        except TableError as e:
            message = self._refusal(e, request_id)
        try:
            self.queue(message)
        except SlowConsumer:
            await self.close(CLOSE_POLICY, "too many unread messages")

    async def _answer(self, text: str | None, data: bytes | None) -> TableMessage | None:
        """The answer to one frame: an ack, a hint or a refusal."""
        parts = self.parts
        request_id: str | None = None
        try:
            request = read_request(text, data, self.settings.max_message_bytes)
            request_id = request.id
            if isinstance(request, ActionRequest):
                key = requests.request_key(self.player, request.id)
                check = requests.play(self.player, request.action, key, self.settings.clock())
                return ack_message(request.id, await parts.registry.write(self.table_id, key, check))
            if isinstance(request, NextDealRequest):
                seq = await parts.tables.next_deal(self.table_id, self.player, request.id)
                return ack_message(request.id, seq)
            if isinstance(request, SayRequest):
                await self.friends.say(self.table_id, self.player, request.phrase)
                return ack_message(request.id, self.sent)
            if isinstance(request, ReactRequest):
                await self.friends.react(self.table_id, self.player, request.emote)
                return ack_message(request.id, self.sent)
            if isinstance(request, SitRequest):
                live = await parts.tables.table(self.table_id)
                seat = live.seat_of(self.player) if live is not None else None
                name = live.seats[seat].name if live is not None and seat is not None else None
                seq = await self.friends.take_seat(self.table_id, self.player, name or "?", request.seat)
                return ack_message(request.id, seq)
            if isinstance(request, LeaveRequest):
                seq = await self.friends.leave(self.table_id, self.player)
                return ack_message(request.id, seq)
            if isinstance(request, HostRequest):
                return ack_message(request.id, await self._host(request))
            if isinstance(request, CoachRequest):
                await self._switch_coach(request.on)
                return ack_message(request.id, self.sent)
            assert isinstance(request, HintRequest)
            if self.hinting is not None and not self.hinting.done():
                raise TableError("hint_limit")
            # The expert thinks while the player may still act: the reader goes on.
            self.hinting = asyncio.create_task(self._hint(request.id))
            return None
        except ProtocolError as e:
            self.refusals.refused(e.code, e.detail)
            return error_message(self.lang, e.code, e.id, e.detail)
        except TableError as e:
            return self._refusal(e, request_id)

    async def _host(self, request: HostRequest) -> int:
        """One of the host's controls; the table's seq after it."""
        friends, table_id, player = self.friends, self.table_id, self.player
        if request.op == "start":
            return await friends.start(table_id, player, request.id)
        seat = request.seat
        assert seat is not None  # HostRequest checks what each operation needs
        if request.op == "move":
            assert request.to is not None
            return await friends.host_move(table_id, player, seat, request.to)
        if request.op == "level":
            assert request.level is not None
            return await friends.host_level(table_id, player, seat, request.level)
        return await friends.host_free(table_id, player, seat)

    def _refusal(self, e: TableError, request_id: str | None) -> ErrorMessage:
        """The error message of a request the table refused (and its line in the log)."""
        self.refusals.refused(e.code, str(e))
        return error_message(self.lang, e.code, request_id, error=e)


async def table_socket(websocket: WebSocket) -> None:
    """``/ws/table/{id}?since=N``: the seated player's live table."""
    await TableSocket(websocket).run()
