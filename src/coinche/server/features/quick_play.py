"""Quick play's queue in the database: who waits, for which rules, and where a wave seated
them (issue 29; the matching itself is ``table/matchmaking.py``).

Whatever two processes must agree on is here: a person's wait is one row (joining twice,
from two tabs, keeps the first row and its place); a wave claims the waiting rows it reads
(``FOR UPDATE SKIP LOCKED`` on PostgreSQL: a second process's wave at the same moment
skips them and seats nobody twice; SQLite has one writer at a time) and writes each
seated person's new table id in the same transaction, before the table exists: a process
that dies between the two leaves rows naming a table the next wave makes
(``unmade``), never a person seated twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

from sqlalchemy import delete, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ...engine.rules import PROFILES, RuleSet
from ..infra.config import Settings
from ..infra.database import Database
from ..infra.db import aware
from ..infra.hub import Hub, Subscription
from ..infra.rows.lobby import QuickWaitRow
from ..infra.rows.people import AccountRow, BlockRow
from ..infra.rows.tables import TableRow
from ..infra.store import Store, new_id
from ..live.ports import Gate, TableMaker
from ..live.presence import Attendance
from ..table.kinds import QuickPlayTable
from ..table.live_table import LiveTable, TableError
from ..table.matchmaking import TABLE_SIZE, Blocks, Match, Waiting, nearest_level, rules_of, seating, wave
from ..table.ratings import NEW_PLAYER, Computer, LevelRatings, Person, PlayerId, Rating
from ..table.spec import Seat
from .player_stats import levels as level_ratings
from .player_stats import ratings_of

log = logging.getLogger("coinche.quick_play")

QUEUE_CHANNEL: Final = "quick-play"
"""The hub's key on which a press of quick play wakes every process's waves."""
UNMADE_AFTER: Final = timedelta(seconds=10)
"""A table claimed this long ago and still not made: its process died; any process makes it."""
RULES: Final = tuple(PROFILES)
"""The rules a person may ask for (or None: any)."""


def person_channel(player: PlayerId) -> str:
    """The hub's key of what one person is told on any page (``seated``: quick play found
    their table)."""
    return f"person:{player}"


@dataclass(frozen=True)
class Wait:
    """A person's row: waiting (``table_id`` None) or seated at ``table_id`` by a wave."""

    player: PlayerId
    rules: str | None
    rating: Rating
    since: datetime
    deadline: datetime
    table_id: str | None

    def seconds_left(self, at: datetime) -> float:
        return max(0.0, (self.deadline - at).total_seconds())


def _wait_of(row: QuickWaitRow) -> Wait:
    return Wait(
        row.player_id, row.rules, Rating(row.mu, row.sigma), aware(row.since), aware(row.deadline), row.table_id
    )


class QuickPlayStore:
    """The queue's rows (see the module)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def ratings(self, players: list[PlayerId]) -> dict[PlayerId, Rating]:
        """The ratings of ``players`` (a new player: absent)."""
        return ratings_of(self.store, players)

    def names(self, players: list[PlayerId]) -> dict[PlayerId, str]:
        """The account name of each of ``players`` that has one."""
        return account_names(self.store, players)

    def join(self, player: PlayerId, rules: str | None, rating: Rating, wait: float, at: datetime) -> Wait:
        """``player`` waits for ``rules`` (None: any) from ``at``, the computers taking the
        free seats ``wait`` seconds later. Already waiting: the same wait, its place kept
        (a second press, a second tab); the rules chosen last count. Seated before: a new
        wait (the caller checks that their last game is over)."""
        with self.store.session() as s, s.begin():
            s.execute(
                self.store.backend.insert_ignoring(QuickWaitRow, ["player_id"]),
                {
                    "player_id": player,
                    "rules": rules,
                    "mu": rating.mu,
                    "sigma": rating.sigma,
                    "since": at,
                    "deadline": at + timedelta(seconds=wait),
                },
            )
            row = s.execute(select(QuickWaitRow).where(QuickWaitRow.player_id == player)).scalar_one()
            row.rules = rules
            if row.table_id is not None:  # seated before: wait anew
                row.mu, row.sigma = rating.mu, rating.sigma
                row.since, row.deadline = at, at + timedelta(seconds=wait)
                row.table_id = row.seated_at = None
            s.flush()
            return _wait_of(row)

    def leave(self, player: PlayerId) -> bool:
        """``player`` leaves the queue; False when they were not waiting (seated already:
        the table is theirs)."""
        with self.store.engine.begin() as conn:
            gone = conn.execute(
                delete(QuickWaitRow)
                .where(QuickWaitRow.player_id == player, QuickWaitRow.table_id.is_(None))
                .execution_options(preserve_rowcount=True)
            )
            return bool(gone.rowcount)

    def status(self, player: PlayerId) -> Wait | None:
        with self.store.session() as s:
            row = s.get(QuickWaitRow, player)
            return _wait_of(row) if row is not None else None

    def claim_wave(self, at: datetime, levels: LevelRatings) -> list[tuple[str, Match]]:
        """Run one wave on the waiting rows this process can lock: the tables to make, each
        with the id its people's rows now name (see the module)."""
        with self.store.session() as s, s.begin():
            rows = (
                s.execute(
                    select(QuickWaitRow)
                    .where(QuickWaitRow.table_id.is_(None))
                    .order_by(QuickWaitRow.since)
                    .with_for_update(skip_locked=True)
                )
                .scalars()
                .all()
            )
            if not rows:
                return []
            waits = [_wait_of(r) for r in rows]
            queue = [Waiting(w.player, w.rules, w.rating, w.since.timestamp(), w.deadline.timestamp()) for w in waits]
            matches = wave(queue, at.timestamp(), levels, _blocks(s, [w.player for w in waits]))
            made = []
            for match in matches:
                table_id = new_id()
                claimed = s.execute(
                    update(QuickWaitRow)
                    .where(QuickWaitRow.player_id.in_(match.players), QuickWaitRow.table_id.is_(None))
                    .values(table_id=table_id, seated_at=at)
                    .execution_options(synchronize_session=False)
                )
                if claimed.rowcount != len(match.players):  # type: ignore[attr-defined]
                    # Another wave seated one of them since this one read the queue (SQLite
                    # locks no row it reads): this table is not made, the others wait on.
                    s.execute(
                        update(QuickWaitRow)
                        .where(QuickWaitRow.table_id == table_id)
                        .values(table_id=None, seated_at=None)
                        .execution_options(synchronize_session=False)
                    )
                    continue
                made.append((table_id, match))
            return made

    def unmade(self, older_than: datetime) -> list[tuple[str, list[Wait]]]:
        """Tables a wave claimed people for before ``older_than`` that were never made (the
        process died in between): their ids and people."""
        with self.store.session() as s:
            rows = s.execute(
                select(QuickWaitRow)
                .outerjoin(TableRow, TableRow.id == QuickWaitRow.table_id)
                .where(QuickWaitRow.table_id.is_not(None), QuickWaitRow.seated_at < older_than, TableRow.id.is_(None))
            ).scalars()
            found: dict[str, list[Wait]] = {}
            for row in rows:
                found.setdefault(row.table_id or "", []).append(_wait_of(row))
            return sorted(found.items())


def _blocks(s: Session, players: Sequence[PlayerId]) -> Blocks:
    """The blocked pairs among ``players``."""
    found: set[frozenset[PlayerId]] = set()
    for start in range(0, len(players), 500):
        chunk = list(players[start : start + 500])
        rows = s.execute(
            select(BlockRow.player_id, BlockRow.blocked_id).where(
                or_(BlockRow.player_id.in_(chunk), BlockRow.blocked_id.in_(chunk))
            )
        )
        found.update(frozenset((a, b)) for a, b in rows)
    return found


def account_names(store: Store, players: Sequence[PlayerId]) -> dict[PlayerId, str]:
    """The account name of each of ``players`` that has one."""
    with store.session() as s:
        rows = s.execute(select(AccountRow.player_id, AccountRow.name).where(AccountRow.player_id.in_(list(players))))
        return {pid: name for pid, name in rows}


def rebuilt(people: Sequence[Wait], levels: LevelRatings) -> Match:
    """The table of a claim whose process died before making it: seated again as a wave
    would (the same people, so the same teams)."""
    queue = [Waiting(w.player, w.rules, w.rating, w.since.timestamp(), w.deadline.timestamp()) for w in people]
    level = None if len(queue) >= TABLE_SIZE else nearest_level((w.rating for w in queue), levels)
    return Match(rules_of(queue), seating(queue[:TABLE_SIZE], level, levels))


class QuickPlay:
    """Quick play: the queue's requests, and this process's waves.

    Every process runs waves (each second, and at once when anyone presses the button
    anywhere: the hub's ``QUEUE_CHANNEL``); a wave claims what it can in the database
    (``QuickPlayStore.claim_wave``), makes the tables and tells each person seated on their
    own channel (``person_channel``), which their waiting page listens to."""

    def __init__(
        self,
        store: QuickPlayStore,
        db: Database,
        hub: Hub,
        settings: Settings,
        tables: TableMaker,
        attendance: Attendance,
    ) -> None:
        self.store = store
        self.db = db
        self.hub = hub
        self.settings = settings
        self.tables = tables
        """Where the tables of a wave are made and read."""
        self.attendance = attendance
        """Who comes to a table made (the grace of whoever does not)."""
        self.levels = level_ratings()
        self.gates: list[Gate] = []
        """Each asked before a person waits (``TableError`` refuses them: a suspension)."""
        self.made_hooks: list[Callable[[LiveTable], Awaitable[None]]] = []
        """Told of each table made, as its game starts (the seasons note its month)."""
        self._runner: asyncio.Task[None] | None = None
        self._queue: Subscription | None = None
        self._orphans_read: datetime | None = None

    def start(self) -> None:
        """Run the waves for the application's lifetime."""
        self._queue = self.hub.subscribe(QUEUE_CHANNEL, steps=False)
        self._runner = asyncio.get_running_loop().create_task(self._run())

    async def close(self) -> None:
        if self._runner is not None:
            self._runner.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._runner
        if self._queue is not None:
            self._queue.close()

    async def _run(self) -> None:
        assert self._queue is not None
        while True:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.settings.quick_wave_seconds):  # not wait_for: see tournaments
                    await self._queue.wait()
            try:
                await self.wave()
            except asyncio.CancelledError:
                raise
            except Exception:  # the database may be away a moment: the next wave tries again
                log.exception("quick play: a wave failed")

    # ----- what a person asks -----

    async def join(self, player: PlayerId, rules: str | None) -> Wait:
        """``player`` waits for a table of ``rules`` (None: any). At a quick play table
        whose game goes on, that wait is theirs still (the page takes them back to it)."""
        if rules is not None and rules not in RULES:
            raise TableError("bad_rules")
        for gate in self.gates:
            await gate(player)
        current = await self.status(player)
        if current is not None and current.table_id is not None and await self.playing(current.table_id, player):
            return current
        rating = (await self.db(self.store.ratings, [player])).get(player, NEW_PLAYER)
        wait = await self.db(
            self.store.join, player, rules, rating, self.settings.quick_wait_seconds, self.settings.clock()
        )
        await self.hub.signal(QUEUE_CHANNEL, {"kind": "joined"})
        return wait

    async def sanctioned(self, kind: str, player: PlayerId) -> None:
        """A person suspended or banned by the site's team leaves the wait (a table of theirs
        made already plays on)."""
        await self.leave(player)

    async def playing(self, table_id: str, player: PlayerId) -> bool:
        """Whether ``player`` plays at the quick play table ``table_id`` still (or soon)."""
        return await self.seated(table_id, player) is not False

    async def seated(self, table_id: str, player: PlayerId) -> bool | None:
        """Whether ``player`` plays at the quick play table ``table_id`` still; None while
        it is claimed but not made yet (a wave between its two writes, or a process that
        died there): nobody is sent to a table that is not there, the wait goes on."""
        live = await self.tables.table(table_id)
        if live is None:
            return None
        return live.seat_of(player) is not None and not live.game.is_over

    async def leave(self, player: PlayerId) -> bool:
        """``player`` leaves the queue (False: they were seated already)."""
        return await self.db(self.store.leave, player)

    async def status(self, player: PlayerId) -> Wait | None:
        return await self.db(self.store.status, player)

    # ----- the waves -----

    async def wave(self) -> list[str]:
        """Seat who can be seated now, and make the tables of claims left unmade by a
        process that died; the tables made."""
        moment = self.settings.clock()
        claimed = await self.db(self.store.claim_wave, moment, self.levels)
        if self._orphans_read is None or moment - self._orphans_read >= UNMADE_AFTER / 2:
            self._orphans_read = moment  # a claim left unmade waits UNMADE_AFTER: no need to look each second
            orphans = await self.db(self.store.unmade, moment - UNMADE_AFTER)
            claimed += [(table_id, rebuilt(people, self.levels)) for table_id, people in orphans]
        made = []
        for table_id, match in claimed:
            if await self._make(table_id, match):
                made.append(table_id)
        return made

    async def _make(self, table_id: str, match: Match) -> bool:
        names = await self.db(self.store.names, list(match.players))
        seats: list[Seat] = []
        for holder in match.seats:
            if isinstance(holder, Person):
                seats.append(Seat("human", player=holder.player_id, name=names.get(holder.player_id, "?")))
            else:
                assert isinstance(holder, Computer)
                seats.append(Seat("bot", level=holder.level))
        level = next((s.level for s in seats if s.level is not None), "confirmed")
        try:
            await self.tables.create_table(
                RuleSet.profile(match.rules), seats, level, QuickPlayTable(), table_id=table_id
            )
        except IntegrityError:  # another process made it first (a claim left unmade)
            return False
        live = await self.tables.table(table_id)
        if live is not None:
            self.attendance.game_started(live)  # the grace of whoever does not come
            for hook in self.made_hooks:
                await hook(live)
        for player in match.players:
            await self.hub.signal(person_channel(player), {"kind": "seated", "table": table_id})
        return True
