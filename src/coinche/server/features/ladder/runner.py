"""The engine ladder of one process: its bots' owners' requests (opt in, resume), the
pairing loop (every ``Settings.ladder_seconds``; one process pairs at a time, through the
database: ``store.py``), the tables it makes, and the listeners that book each table's
end (the faults, the match's result and ratings, a bot paused and its owner told)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Coroutine
from datetime import timedelta
from typing import Any, Final

from sqlalchemy.exc import IntegrityError

from ....engine.rules import RuleSet
from ...infra.config import Settings
from ...infra.database import Database
from ...infra.hub import Hub
from ...live.events import DealEnded, GameEnded
from ...live.ports import PlaysOut, TableMaker
from ...live.presence import Attendance
from ...live.registry import LiveTables
from ...table import i18n, requests
from ...table.kinds import Dealing, LadderTable, ladder_match_of
from ...table.live_table import LiveTable, TableError
from ...table.ratings import LevelRatings
from ...table.spec import Seat
from ..following import ONLINE_FOR
from ..mail import Mailer
from ..player_stats import levels as level_ratings
from ..quick_play import account_names, person_channel
from .store import Booked, Engine, LadderLine, LadderStore, Match

log = logging.getLogger("coinche.ladder")

PARTNER: Final = "expert"
"""The computer level of both bots' partners (the same at both tables: they cancel)."""
UNMADE_AFTER: Final = timedelta(seconds=10)
"""A match written this long ago whose tables do not exist: its process died; any makes them."""


def seats_of(match: Match, leg: int, names: dict[str, str]) -> tuple[Seat, Seat, Seat, Seat]:
    """The seats of the match's table ``leg`` (0 or 1): the first bot at seat ``leg``, its
    opponent (a bot, or the anchor computer) at the other seat of the first two, the site's
    expert as each one's partner."""

    def bot(player: str) -> Seat:
        return Seat("human", player=player, name=names.get(player, "?"))

    first = bot(match.first)
    other = bot(match.second) if match.second is not None else Seat("bot", level=match.anchor or PARTNER)
    partner = Seat("bot", level=PARTNER)
    return (first, other, partner, partner) if leg == 0 else (other, first, partner, partner)


def decisions_at(live: LiveTable, players: list[str]) -> dict[str, str]:
    """Each bot's decisions at the table, in order: ``0`` its own move, ``1`` a fault (a
    computer played for it: it let its time run out, or had gone)."""
    seats = {seat: holder.player for seat, holder in enumerate(live.spec.seats) if holder.player in players}
    out = {player: "" for player in seats.values() if player is not None}
    for step in live.steps:
        if step.kind == "action" and step.seat in seats:
            player = seats[step.seat]
            assert player is not None
            out[player] += "0" if step.played_by is None else "1"
    return out


def difference(live: LiveTable, first: str) -> int:
    """The first bot's side's points minus the other side's at the table."""
    seat = live.spec.seat_of(first)
    team = 0 if seat is None else seat % 2
    totals = live.game.totals
    return totals[team] - totals[1 - team]


class Ladder:
    """The ladder of one process (see the module)."""

    def __init__(
        self,
        store: LadderStore,
        db: Database,
        hub: Hub,
        settings: Settings,
        registry: LiveTables,
        tables: TableMaker,
        computers: PlaysOut,
        attendance: Attendance,
        mailer: Mailer,
    ) -> None:
        self.store = store
        self.db = db
        self.hub = hub
        self.settings = settings
        self.registry = registry
        self.tables = tables
        self.computers = computers
        self.attendance = attendance
        self.mailer = mailer
        self.levels: LevelRatings = level_ratings()
        self._runner: asyncio.Task[None] | None = None
        self._tasks: dict[str, asyncio.Task[None]] = {}
        """The tables this process plays out or deals on (one task a table)."""
        registry.on(DealEnded, self._deal_ended)
        registry.on(GameEnded, self._game_ended)

    # ----- what an owner asks -----

    async def opt(self, owner_id: str, bot_id: str, opted_in: bool) -> bool:
        return await self.db(self.store.opt, owner_id, bot_id, opted_in)

    async def resume(self, owner_id: str, bot_id: str) -> bool:
        return await self.db(self.store.resume, owner_id, bot_id)

    async def engines(self, players: list[str]) -> dict[str, Engine]:
        return await self.db(self.store.engines, players)

    async def standings(self) -> list[LadderLine]:
        return await self.db(self.store.standings)

    # ----- the loop -----

    def start(self) -> None:
        self._runner = asyncio.get_running_loop().create_task(self._run())

    async def close(self) -> None:
        tasks = [t for t in (self._runner, *self._tasks.values()) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        while True:
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:  # the database may be away a moment: the next tick tries again
                log.exception("ladder: a tick failed")
            await asyncio.sleep(self.settings.ladder_seconds)

    async def tick(self) -> list[Match]:
        """Pair who may play, make the tables of matches left unmade, and keep every running
        table moving (a table nobody connected watches is played out by its computers); the
        matches made."""
        moment = self.settings.clock()
        made = await self.db(
            self.store.claim_pairings,
            moment,
            moment - ONLINE_FOR,
            self.settings.ladder_matches_per_bot,
            self.settings.ladder_rules,
            self.levels,
        )
        made += await self.db(self.store.unmade, moment - UNMADE_AFTER)
        for match in made:
            await self._make(match)
        for match in await self.db(self.store.running):
            for table_id in (match.first_table, match.second_table):
                await self._keep_moving(table_id)
        return made

    async def _make(self, match: Match) -> None:
        names = await self.db(account_names, self.store.store, [p for p in (match.first, match.second) if p])
        kind = LadderTable(match.id, self.settings.ladder_deals)
        dealing = Dealing(match.secret, match.seed, match.first_dealer)
        for leg, table_id in enumerate((match.first_table, match.second_table)):
            try:
                await self.tables.create_table(
                    RuleSet.profile(match.profile),
                    seats_of(match, leg, names),
                    PARTNER,
                    kind,
                    dealing,
                    table_id=table_id,
                )
            except IntegrityError:  # made already (a match left unmade, made by another process)
                continue
            live = await self.tables.table(table_id)
            if live is not None:
                self.attendance.game_started(live)  # the grace of a bot not connected
        for player in (match.first, match.second):
            if player is not None:
                await self.hub.signal(person_channel(player), {"kind": "ladder", "table": match.first_table})

    async def _keep_moving(self, table_id: str) -> None:
        """A bot away from the table (a server restarted since it went) is given its grace
        period, then a computer; a table whose every seat a computer plays (its bots gone)
        is played out here; a table waiting for its next deal is dealt it."""
        task = self._tasks.get(table_id)
        if task is not None and not task.done():
            return
        live = await self.tables.table(table_id)
        if live is None or live.game.is_over:
            return
        self.attendance.game_started(live)  # starts no second grace period, stands in nobody here
        if all(seat.played_by_computer for seat in live.seats):
            self._spawn(table_id, self._play_out(table_id))
        elif live.game.awaiting_deal:
            self._spawn(table_id, self._deal_on(table_id, 0.0))

    def _spawn(self, table_id: str, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks[table_id] = task
        task.add_done_callback(
            lambda done: self._tasks.pop(table_id, None) if self._tasks.get(table_id) is done else None
        )

    async def _play_out(self, table_id: str) -> None:
        try:
            await self.computers.play_out(table_id)
        except TableError:  # a bot came back (it plays its seat), or the table is gone
            pass
        except Exception:
            log.exception("ladder table %s: its computers could not play it out", table_id)

    async def _deal_on(self, table_id: str, pause: float) -> None:
        """Deal the table's next deal after ``pause`` seconds (a bot need not ask: a table
        waits for nobody)."""
        await asyncio.sleep(pause)
        try:
            await self.registry.write(
                table_id, None, requests.pure(functools.partial(requests.deal_on, now=self.settings.clock()))
            )
        except TableError:
            pass
        except Exception:
            log.exception("ladder table %s: the next deal could not be dealt", table_id)

    # ----- the tables' ends -----

    async def _deal_ended(self, event: DealEnded) -> None:
        live = event.table
        if ladder_match_of(live.spec.kind) is None or live.game.is_over or event.again:
            return
        task = self._tasks.get(live.id)
        if task is None or task.done():
            self._spawn(live.id, self._deal_on(live.id, self.settings.ladder_deal_pause))

    async def _game_ended(self, event: GameEnded) -> None:
        await self._book(event.table)

    async def _book(self, live: LiveTable, left: str | None = None) -> None:
        """Book a ladder table's result and its bots' decisions (``left``: a bot that gave
        it up, its leaving one fault more), then tell the owners of bots it paused."""
        match_id = ladder_match_of(live.spec.kind)
        if match_id is None:
            return
        match = await self.db(self.store.match, match_id)
        if match is None:
            return
        players = [p for p in (match.first, match.second) if p is not None]
        decisions = decisions_at(live, players)
        if left is not None:
            decisions[left] = decisions.get(left, "") + "1"
        booked = await self.db(
            self.store.book_table,
            match_id,
            live.id,
            difference(live, match.first),
            decisions,
            self.settings.clock(),
            self.levels,
            self.settings.ladder_fault_limit,
            self.settings.ladder_fault_window,
        )
        if booked is not None:
            await self._told(booked)

    async def _told(self, booked: Booked) -> None:
        for player in booked.paused:
            found = await self.db(self.store.owner_address, player)
            if found is None:
                continue
            name, address = found
            if address is None:
                continue
            params = {
                "name": name,
                "faults": self.settings.ladder_fault_limit,
                "window": self.settings.ladder_fault_window,
                "url": self.settings.public_url.rstrip("/") + "/robots",
            }
            subject = i18n.gettext("fr", "ladder.mail.subject", **params)
            body = "\n\n".join(i18n.gettext(lang, "ladder.mail.body", **params) for lang in ("fr", "en"))
            try:
                await self.mailer.send_soon(address, subject, body)
            except Exception:
                log.exception("ladder: the mail to the owner of %s could not be queued", name)

    async def abandoned(self, live: LiveTable, player: str) -> None:
        """A bot gave up a ladder table alone with computers (a ``Tables.abandon_hooks``
        hook): the table is booked as it stands, its leaving a fault."""
        await self._book(live, left=player)
