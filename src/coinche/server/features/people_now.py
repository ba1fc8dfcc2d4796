"""How many people are on the site and how many games are being played now (the home page).

Counted from the database's rows, never from one process's memory, so every server process
of a site on PostgreSQL says the same:

* **online**: the people seen recently, counted once each whatever shows them: a
  signed-in person's socket (``online``, within ``following.ONLINE_FOR``), a connection to
  a table of several people (``table_presence``, confirmed within ``presence.STALE``;
  watchers are not counted), a person seated at a table played at within ``PLAYING_FOR``
  (a guest alone against the computer has no other row);
* **games**: the tables not finished whose last step is younger than ``PLAYING_FOR``.

Each process keeps the answer ``CACHE_FOR`` seconds: the home page is read often, the
counts change slowly.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

from sqlalchemy import select

from ..infra.database import Database
from ..infra.rows.people import OnlineRow
from ..infra.rows.tables import ActionRow, TablePlayerRow, TablePresenceRow, TableRow
from ..infra.store import Store
from ..live.presence import STALE, WATCHER
from .following import ONLINE_FOR

PLAYING_FOR: Final = timedelta(minutes=5)
"""A table with a step this recent is being played; its people are online."""
CACHE_FOR: Final = 5.0
"""Seconds a process keeps the counts before reading them again."""


@dataclass(frozen=True)
class SiteNow:
    """What the home page says of the site now."""

    online: int
    games: int


def count_now(store: Store, at: datetime) -> SiteNow:
    """The counts at ``at`` (blocking: on the database's threads)."""
    people: set[str] = set()
    with store.session() as s:
        people.update(s.scalars(select(OnlineRow.player_id).where(OnlineRow.seen_at > at - ONLINE_FOR)))
        people.update(
            p
            for p in s.scalars(
                select(TablePresenceRow.player_id)
                .where(TablePresenceRow.connections > 0, TablePresenceRow.seen_at > at - timedelta(seconds=STALE))
                .distinct()
            )
            if not p.startswith(WATCHER)
        )
        recent = (
            select(ActionRow.table_id)
            .join(TableRow, TableRow.id == ActionRow.table_id)
            .where(ActionRow.created_at > at - PLAYING_FOR, TableRow.finished_at.is_(None))
            .distinct()
        )
        tables = set(s.scalars(recent))
        if tables:
            people.update(
                s.scalars(
                    select(TablePlayerRow.player_id).where(
                        TablePlayerRow.table_id.in_(list(tables)), TablePlayerRow.finished_at.is_(None)
                    )
                )
            )
    return SiteNow(len(people), len(tables))


class PeopleNow:
    """The counts, read again from the database at most every ``CACHE_FOR`` seconds."""

    def __init__(self, store: Store, db: Database) -> None:
        self.store = store
        self.db = db
        self._kept: tuple[float, SiteNow] | None = None
        self._lock = asyncio.Lock()

    async def now(self, at: datetime) -> SiteNow:
        async with self._lock:  # one read at a time, the others take its answer
            kept = self._kept
            if kept is not None and time.monotonic() - kept[0] < CACHE_FOR:
                return kept[1]
            counts = await self.db(count_now, self.store, at)
            self._kept = (time.monotonic(), counts)
            return counts
