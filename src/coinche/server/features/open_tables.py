"""Open tables: friends' tables their hosts made public, listed for anyone to take a free
seat in one click (issue 29).

A public table has a row in ``open_tables`` saying what the list shows of it: its rules,
who sits (with their ratings) and how many computers' seats a newcomer may take. The row
is kept by this module as a listener of the tables' commits: whichever process stores a
step of a public table writes the row anew, and only over an older one (``seq``), so two
processes never leave it behind. The game's end (or its host making it private again)
removes the row. Every change is told on the hub's ``LIST_CHANNEL``: the open pages of
the list show it within a second.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from sqlalchemy import delete, func, select, update

from ..infra.database import Database
from ..infra.db import aware, now
from ..infra.hub import Hub
from ..infra.rows.lobby import OpenTableRow
from ..infra.store import Store
from ..live.events import DealStarted, GameEnded, SeatsChanged
from ..live.registry import LiveTables
from ..table.kinds import Sight, TableKind, invitation_code
from ..table.live_table import LiveTable, TableError
from ..table.ratings import NEW_PLAYER, PlayerId, Rating
from .player_stats import ratings_of

log = logging.getLogger("coinche.open_tables")

LIST_CHANNEL: Final = "open-tables"
"""The hub's key on which every change of the list is told (the pages reload it)."""
WATCHERS_CHANGED: Final = "watchers_changed"
"""The passing event that tells a table's watching sockets that who may watch it changed
(made private, or closed to watchers): each asks again and closes if it may no longer."""
WATCHED: Final = 20
"""Public games under way the list offers to watch."""
LISTED: Final = 100
"""Tables a page of the list shows at most (the longest waiting first)."""


@dataclass(frozen=True)
class OpenTable:
    """A public table as the list shows it."""

    table_id: str
    code: str
    profile: str
    target: int
    seats: list[dict[str, Any]]
    free_seats: int
    started: bool
    opened_at: datetime
    watchable: bool = True
    bots: bool = False
    """Bots may take its free seats (its host allows them)."""

    def waited(self, at: datetime) -> int:
        """Seconds since the table was opened."""
        return max(0, int((at - self.opened_at).total_seconds()))


def _open_table(row: OpenTableRow) -> OpenTable:
    return OpenTable(
        row.table_id,
        row.code,
        row.profile,
        row.target,
        list(row.seats),
        row.free_seats,
        row.started,
        aware(row.opened_at),
        bool(row.watchable),
        bool(row.bots),
    )


def free_seats(live: LiveTable) -> int:
    """Computers' seats a newcomer may take at the next chance (before the game, or
    between deals when the host allows late joins)."""
    game = live.game
    if game.is_over or (live.started and not live.spec.kind.late_joins):
        return 0
    return sum(1 for holder in live.seats if holder.kind == "bot")


def listed_seats(live: LiveTable, ratings: dict[PlayerId, Rating]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for holder in live.seats:
        if holder.kind == "bot":
            out.append({"kind": "bot", "level": holder.level})
        else:
            rating = ratings.get(holder.player or "", NEW_PLAYER)
            entry: dict[str, Any] = {"kind": "human", "name": holder.name or "?", "rating": rating.display}
            if holder.guest:
                entry["guest"] = True
            out.append(entry)
    return out


class OpenTableStore:
    """The ``open_tables`` rows (blocking; called on the database's threads)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def ratings(self, live: LiveTable) -> dict[PlayerId, Rating]:
        return ratings_of(self.store, [h.player for h in live.seats if h.player is not None])

    def open(self, live: LiveTable) -> None:
        """List ``live`` (again: its row is written anew)."""
        assert invitation_code(live.spec.kind) is not None
        values = self._values(live)
        with self.store.session() as s, s.begin():
            row = s.get(OpenTableRow, live.id)
            if row is None:
                s.add(OpenTableRow(table_id=live.id, code=invitation_code(live.spec.kind), opened_at=now(), **values))
            else:
                for key, value in values.items():
                    setattr(row, key, value)

    def close(self, table_id: str) -> bool:
        with self.store.engine.begin() as conn:
            gone = conn.execute(
                delete(OpenTableRow).where(OpenTableRow.table_id == table_id).execution_options(preserve_rowcount=True)
            )
            return bool(gone.rowcount)

    def moved(self, live: LiveTable) -> bool:
        """The table moved on: its row follows, unless a later step's is there already.
        False when it is not listed."""
        if live.game.is_over:
            return self.close(live.id)
        with self.store.engine.connect() as conn:  # most tables are not listed: no ratings read for them
            listed = conn.execute(select(OpenTableRow.seq).where(OpenTableRow.table_id == live.id)).scalar()
        if listed is None or listed >= live.seq:
            return False
        with self.store.engine.begin() as conn:
            changed = conn.execute(
                update(OpenTableRow)
                .where(OpenTableRow.table_id == live.id, OpenTableRow.seq < live.seq)
                .values(**self._values(live))
                .execution_options(preserve_rowcount=True)
            )
            return bool(changed.rowcount)

    def _values(self, live: LiveTable) -> dict[str, Any]:
        return {
            "profile": live.spec.rules.name,
            "target": live.spec.rules.target,
            "seats": listed_seats(live, self.ratings(live)),
            "free_seats": free_seats(live),
            "started": live.started,
            "seq": live.seq,
        }

    def set_watchable(self, table_id: str, watchable: bool) -> bool:
        """False when the table is not listed (not public: nobody watches it)."""
        with self.store.engine.begin() as conn:
            changed = conn.execute(
                update(OpenTableRow)
                .where(OpenTableRow.table_id == table_id)
                .values(watchable=watchable)
                .execution_options(preserve_rowcount=True)
            )
            return bool(changed.rowcount)

    def set_bots(self, table_id: str, bots: bool) -> bool:
        """False when the table is not listed (bots join open tables only)."""
        with self.store.engine.begin() as conn:
            changed = conn.execute(
                update(OpenTableRow)
                .where(OpenTableRow.table_id == table_id)
                .values(bots=bots)
                .execution_options(preserve_rowcount=True)
            )
            return bool(changed.rowcount)

    def for_bots(self, limit: int = LISTED) -> list[OpenTable]:
        """The tables with a free seat whose hosts welcome bots, the longest waiting first."""
        with self.store.session() as s:
            query = select(OpenTableRow).where(OpenTableRow.free_seats > 0, OpenTableRow.bots)
            rows = s.execute(query.order_by(OpenTableRow.opened_at).limit(limit)).scalars().all()
            return [_open_table(r) for r in rows]

    def is_open(self, table_id: str) -> bool:
        with self.store.session() as s:
            return s.get(OpenTableRow, table_id) is not None

    def listing(self, profile: str | None = None, limit: int = LISTED) -> tuple[list[OpenTable], int]:
        """The tables with a free seat, the longest waiting first (at most ``limit``), and
        how many there are in all."""
        with self.store.session() as s:
            query = select(OpenTableRow).where(OpenTableRow.free_seats > 0)
            counted = select(func.count()).select_from(OpenTableRow).where(OpenTableRow.free_seats > 0)
            if profile is not None:
                query = query.where(OpenTableRow.profile == profile)
                counted = counted.where(OpenTableRow.profile == profile)
            rows = s.execute(query.order_by(OpenTableRow.opened_at).limit(limit)).scalars().all()
            return [_open_table(r) for r in rows], int(s.execute(counted).scalar_one())

    def playing(self, limit: int = WATCHED) -> list[OpenTable]:
        """Public games under way with no seat to offer, that anyone may watch (the
        newest first)."""
        with self.store.session() as s:
            query = (
                select(OpenTableRow)
                .where(OpenTableRow.free_seats == 0, OpenTableRow.started, OpenTableRow.watchable)
                .order_by(OpenTableRow.opened_at.desc())
                .limit(limit)
            )
            return [_open_table(r) for r in s.execute(query).scalars().all()]

    def get(self, table_id: str) -> OpenTable | None:
        with self.store.session() as s:
            row = s.get(OpenTableRow, table_id)
            return _open_table(row) if row is not None else None


class OpenTables:
    """Open tables: its host's switch, the list, and the listener that
    keeps the list true."""

    def __init__(self, store: OpenTableStore, db: Database, hub: Hub, registry: LiveTables) -> None:
        self.store = store
        self.db = db
        self.hub = hub
        self.registry = registry
        """Where the tables are read, and their seats and deals heard."""
        registry.on(SeatsChanged, self._listed_changed)
        registry.on(DealStarted, self._listed_changed)
        registry.on(GameEnded, self._listed_changed)

    async def _listed_changed(self, event: SeatsChanged | DealStarted | GameEnded) -> None:
        """Who sits, the free seats, whether it started: what the list shows changed."""
        live = event.table
        if not live.spec.kind.may_be_listed or (isinstance(event, GameEnded) and event.again):
            return
        try:
            if await self.db(self.store.moved, live):
                await self.hub.signal(LIST_CHANNEL, {"kind": "changed"})
        except Exception:  # the next step writes it again
            log.exception("table %s: its row of the open tables could not be written", live.id)

    async def set_public(self, table_id: str, player: PlayerId, public: bool) -> None:
        """The host opens their table to everyone, or closes it again (its watchers are
        then sent away: ``WATCHERS_CHANGED`` on the table's hub). ``TableError``:
        ``gone``, ``not_host``, ``over``."""
        live = await self.registry.table(table_id, fresh=True)
        if live is None or not live.spec.kind.may_be_listed:
            raise TableError("gone")
        if player != live.spec.kind.host:
            raise TableError("not_host")
        if live.game.is_over:
            raise TableError("over")
        if public:
            await self.db(self.store.open, live)
        else:
            await self.db(self.store.close, table_id)
            await self.hub.signal(table_id, {"kind": WATCHERS_CHANGED})
        await self.hub.signal(LIST_CHANNEL, {"kind": "changed"})

    async def set_watchable(self, table_id: str, player: PlayerId, watchable: bool) -> None:
        """A player of the table opens it to watchers or closes it (the watchers there are
        sent away: ``WATCHERS_CHANGED`` on the table's hub). ``TableError``: ``gone``,
        ``not_seated``, ``not_public``."""
        live = await self.registry.table(table_id, fresh=True)
        if live is None:
            raise TableError("gone")
        if live.seat_of(player) is None:
            raise TableError("not_seated")
        if not await self.db(self.store.set_watchable, table_id, watchable):
            raise TableError("not_public")
        if not watchable:
            await self.hub.signal(table_id, {"kind": WATCHERS_CHANGED})

    async def set_bots(self, table_id: str, player: PlayerId, bots: bool) -> None:
        """The host of a public table lets bots take its free seats, or not. ``TableError``:
        ``gone``, ``not_host``, ``not_public``."""
        live = await self.registry.table(table_id, fresh=True)
        if live is None or not live.spec.kind.may_be_listed:
            raise TableError("gone")
        if player != live.spec.kind.host:
            raise TableError("not_host")
        if not await self.db(self.store.set_bots, table_id, bots):
            raise TableError("not_public")
        await self.hub.signal(LIST_CHANNEL, {"kind": "changed"})

    async def for_bots(self) -> list[OpenTable]:
        return await self.db(self.store.for_bots)

    async def is_public(self, table_id: str) -> bool:
        return await self.db(self.store.is_open, table_id)

    async def listing(self, profile: str | None = None) -> tuple[list[OpenTable], int]:
        return await self.db(self.store.listing, profile)

    async def playing(self) -> list[OpenTable]:
        return await self.db(self.store.playing)

    async def get(self, table_id: str) -> OpenTable | None:
        return await self.db(self.store.get, table_id)

    async def sight(self, table_id: str, kind: TableKind) -> Sight | None:
        """The watching rule of the tables its host may list (``WATCHED_WHILE_LISTED``):
        all of it as it plays while it is listed and its players leave it open to watchers."""
        listed = await self.get(table_id) if kind.may_be_listed else None
        return Sight() if listed is not None and listed.watchable else None
