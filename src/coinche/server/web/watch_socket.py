"""Watching a public table (issue 29): ``/table/{id}/regarder`` is the table's page for a
watcher, ``/ws/watch/{id}`` its socket. A watcher sees what a fifth person at the table
would see, from south's chair: the calls, the cards played, the melds shown, the score;
never a card in a hand (``Game.view(watching=True)``), and nothing a seat alone learns.
The socket sends the whole state (``seat_state(watching=True)``), then the watchers' step
of each step from the feed (``feed.py``: rendered once for every watcher of the table in
this process, as a seat's is for its sockets) and the table's passing events (who came,
quick messages, the clock); it takes no request.

Who may watch and what is the table kind's rule (``TableKind.watched``), decided by the
feature given that rule at start-up (``Services.watch_rules``): a listed table
(``open_tables``: its host made it public) while it says so, live; a public tournament's
table as it stood at the end of the last deal every table of its round has played (they
all deal the same cards: ``tournaments.seen_deals``), nothing before. ``sight_of`` asks,
at the connection and again whenever the hub says what may be watched of the table
changed (``WATCHERS_CHANGED``: its host made it private, its players closed it to
watchers, every table of its round played one more deal), in whichever process; a socket
that may no longer watch closes with 4404, one whose view moved on is sent the table as
it stood then, whole. Each watcher is counted as a row of
presence (``Attendance.watcher_arrived``), so the players see how many watch, whichever
process serves them.
"""

from __future__ import annotations

import json
from collections.abc import Hashable
from typing import Any, Final

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket

from ..features.open_tables import WATCHERS_CHANGED
from ..infra.hub import Subscription
from ..infra.store import new_id
from ..live.presence import WATCHER
from ..table import i18n
from ..table.kinds import Sight, WatchRule
from ..table.live_table import LiveTable
from . import rules_pages
from .feed import WATCHED_SEAT, StateFeed, Watch, encoded, follows
from .kind_words import part_of_link
from .messages import ClockMessage, PresenceMessage, ReactMessage, SayMessage
from .pages import lang_of, page, parts_of
from .protocol import event_message, hello_message
from .seat_state import seat_state
from .socket_base import CLOSE_NOT_FOUND, Close, OpenCount, SlowConsumer, Socket

MAX_WATCHERS: Final = 5000
"""Watching connections one process serves."""
MAX_PER_TABLE: Final = 200
"""Watching connections of one table in one process."""

_watching: OpenCount[str] = OpenCount(MAX_PER_TABLE, MAX_WATCHERS)


async def sight_of(request: Request | WebSocket, live: LiveTable) -> Sight | None:
    """What a watcher may see of ``live`` now (None: nothing), as its kind's watching rule
    says (the same for everyone: a watcher is anyone not seated there)."""
    kind = live.spec.kind
    rules: dict[str, WatchRule] = request.app.state.parts.watch_rules
    rule = rules.get(kind.watched)
    return await rule.sight(live.id, kind) if rule is not None else None


def as_of_deal(live: LiveTable, deals: int) -> LiveTable:
    """The table as it stood when its deal ``deals`` ended (or the last deal it ended
    before): rebuilt from its log, nothing of a later deal in it."""
    past = LiveTable.build(live.spec, [])
    cut = 0
    for step in live.steps:
        past.apply(step)
        number = past.deal_ended
        if number is not None:
            cut = past.seq
            if number >= deals:
                return past
    return LiveTable.build(live.spec, live.steps[:cut])


async def watch_page(request: Request) -> Response:
    table_id = request.path_params["table_id"]
    live = await parts_of(request).tables.table(table_id, fresh=True)
    if live is None or await sight_of(request, live) is None:
        raise HTTPException(404)
    lang = lang_of(request)
    words = {k: v for k, v in i18n.js_catalogue(lang).items() if not k.startswith("js.friends.")}
    return page(
        request,
        "table.html",
        table_id=live.id,
        profile=live.spec.rules.name,
        rules_url=rules_pages.rules_url(lang, live.spec.rules.name),
        catalogue=json.dumps(words, ensure_ascii=False),
        friends=False,
        watching=True,
        phrases=(),
        friend_levels=(),
        trick_hold_ms=round(request.app.state.settings.trick_pause * 1000),
        part_of=await part_of_link(request, lang, live.spec.kind),
    )


class WatchSocket(Socket):
    """``/ws/watch/{id}``: the whole state, then the feed's watchers' step of each step,
    and the table's passing events; or, at a table seen up to a deal's end (``Sight``),
    the table as it stood then, sent whole again each time the view moves on."""

    busy = "too many watchers"

    def __init__(self, websocket: WebSocket) -> None:
        super().__init__(websocket)
        self.table_id: str = websocket.path_params["table_id"]
        self.lang = lang_of(websocket)
        self.live: LiveTable | None = None
        self.sight: Sight | None = None
        self._past: tuple[int, LiveTable] | None = None
        """The table as it stood at the end of a deal (its number), rebuilt once: what is
        past does not change while the table plays on."""
        self.sent = -1
        """The seq of the last state or step sent."""

    async def admit(self) -> None:
        """A table that may be watched now (else 4404)."""
        self.live = await self.parts.tables.table(self.table_id, fresh=True)
        if self.live is None or await sight_of(self.ws, self.live) is None:
            raise Close(CLOSE_NOT_FOUND, "not watchable")

    def counted(self) -> tuple[OpenCount[Any], Hashable]:
        return _watching, self.table_id

    async def serve(self) -> None:
        table_id, attendance, live = self.table_id, self.parts.attendance, self.live
        assert live is not None
        feed: StateFeed = self.ws.app.state.feed
        watch = feed.watch(table_id, None, self.lang)  # first: no step is missed
        key = f"{WATCHER}{new_id()}"
        arrived = False
        try:
            async with self.parts.hub.subscribe(table_id, steps=False) as sub:
                self.sight = await sight_of(self.ws, live)  # changed before the subscription?
                if self.sight is None:
                    raise Close(CLOSE_NOT_FOUND, "not watchable")
                live = await self.parts.tables.table(table_id) or live
                await attendance.watcher_arrived(table_id, key)
                arrived = True
                shown = self._shown(live)
                await self.ws.send_text(encoded(hello_message(shown.seq, WATCHED_SEAT, False)))
                await self._send_state(shown)
                if self.sight.deals is not None:  # a view behind the table: no step of it
                    feed.unwatch(watch)
                    await self.race(lambda: self.read_nothing("watchers send nothing"), lambda: self._events(sub))
                    return
                await self.race(
                    lambda: self.read_nothing("watchers send nothing"),
                    lambda: self._follow(watch),
                    lambda: self._events(sub),
                )
        finally:
            feed.unwatch(watch)
            if arrived:
                attendance.watcher_left(table_id, key)

    def _shown(self, live: LiveTable) -> LiveTable:
        """What the watcher is shown of ``live``: all of it, or it as it stood at the end
        of the deal its sight stops at."""
        deals = self.sight.deals if self.sight is not None else None
        if deals is None:
            return live
        if self._past is not None and self._past[0] == deals:
            return self._past[1]
        past = as_of_deal(live, deals)
        if past.deals_over >= deals:  # that deal's end, for good (not the table short of it)
            self._past = (deals, past)
        return past

    async def _send_state(self, live: LiveTable) -> None:
        """The whole state of the table as shown."""
        presence = self.parts.attendance.presence(live)
        message = seat_state(live, WATCHED_SEAT, self.lang, None, True, presence, watching=True).message
        await self.ws.send_text(encoded(message))
        self.sent = live.seq

    async def _follow(self, watch: Watch) -> None:
        """Send the watchers' step of each new step from the feed, in order, none twice; a
        step that does not follow the last one sent (the table was read back whole) has the
        whole state sent instead."""
        while True:
            seq, message, clock = await watch.get()
            if watch.full:
                raise SlowConsumer
            if seq <= self.sent or message is None:
                continue
            if not follows(self.sent, seq, message):
                live = await self.parts.tables.table(self.table_id)
                if live is not None:
                    await self._send_state(live)
                continue
            await self.send_texts([encoded(message)] if clock is None else [encoded(message), encoded(clock)])
            self.sent = seq

    async def _events(self, sub: Subscription) -> None:
        """Send the passing events a watcher sees, until the table may be watched no more
        (4404); a view behind the table is sent again whole when it moves on (and is sent
        no clock or message of the table as it plays)."""
        parts, table_id, attendance = self.parts, self.table_id, self.parts.attendance
        behind = self.sight is not None and self.sight.deals is not None
        while True:
            _, events = await sub.wait()
            if any(e.get("kind") == WATCHERS_CHANGED for e in events) and await self._look_again():
                continue
            live = await parts.tables.table(table_id)
            if live is None:
                continue
            if any(e.get("kind") == "presence" for e in events):
                await attendance.refresh([table_id])
            shown = self._shown(live) if behind else live
            presence = attendance.presence(shown)
            for event in events:
                message = event_message(self.lang, shown, WATCHED_SEAT, event, presence, attendance.watchers(table_id))
                kinds = (PresenceMessage,) if behind else (PresenceMessage, SayMessage, ReactMessage, ClockMessage)
                if isinstance(message, kinds):
                    await self.ws.send_text(encoded(message))

    async def _look_again(self) -> bool:
        """What may be watched of the table changed: close (4404) if nothing may, send the
        table as now shown if the view moved on; whether a state was sent."""
        live = await self.parts.tables.table(self.table_id, fresh=True)
        sight = await sight_of(self.ws, live) if live is not None else None
        if live is None or sight is None:
            raise Close(CLOSE_NOT_FOUND, "not watchable")
        before, self.sight = self.sight, sight
        if before is None or before.deals is None or sight == before:
            return False
        shown = self._shown(live)
        if shown.seq <= self.sent:
            return False
        await self._send_state(shown)
        return True


async def watch_socket(websocket: WebSocket) -> None:
    await WatchSocket(websocket).run()


routes: list[BaseRoute] = [
    Route("/table/{table_id}/regarder", watch_page),
    WebSocketRoute("/ws/watch/{table_id}", watch_socket),
]
