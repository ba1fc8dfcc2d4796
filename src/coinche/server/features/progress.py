"""A person's progress (issue 50): their mistakes grouped by the kind a rule can tell
(``bots.patterns``), counted over time, each with its deal.

As each deal's accuracy is kept (``Accuracies``), the faults of each person's own decisions
are kept, one row each (``faults``); the progress page counts them by kind and by week and
links every one to its deal's review.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

from sqlalchemy import DateTime, Index, Integer, String, select
from sqlalchemy.orm import Mapped, mapped_column

from ...bots.patterns import faults
from ..infra.database import Database
from ..infra.db import Base, now
from ..infra.store import Store
from .accuracy import DealKept

WEEKS: Final = 8
"""The progress page counts the faults of this many last weeks, week by week."""
LISTED: Final = 10
"""The latest faults of each kind the page links to."""


class FaultRow(Base):
    """A fault of a kind (``bots.patterns``) a person made at a step of a deal."""

    __tablename__ = "faults"
    __table_args__ = (Index("ix_faults_player", "player_id", "created_at"),)

    table_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    deal: Mapped[int] = mapped_column(Integer, primary_key=True)
    step: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(24), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32))
    profile: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


@dataclass(frozen=True)
class Fault:
    kind: str
    table_id: str
    deal: int
    step: int
    profile: str
    at: datetime


class ProgressStore:
    """The faults' reads and writes (blocking: run them on ``Progress.db``)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def add(self, player: str, table_id: str, deal: int, profile: str, found: Sequence[tuple[str, int]]) -> None:
        """Keep a deal's faults of a person (``(kind, step)``); kept already: nothing."""
        at = now()
        with self.store.engine.begin() as conn:
            for kind, step in found:
                conn.execute(
                    self.store.backend.insert_ignoring(FaultRow, ["table_id", "deal", "step", "kind"]),
                    {
                        "table_id": table_id,
                        "deal": deal,
                        "step": step,
                        "kind": kind,
                        "player_id": player,
                        "profile": profile,
                        "created_at": at,
                    },
                )

    def of_player(self, player: str, since: datetime) -> list[Fault]:
        """The person's faults from ``since`` on, the newest first."""
        r = FaultRow
        with self.store.session() as s:
            rows = s.execute(
                select(r.kind, r.table_id, r.deal, r.step, r.profile, r.created_at)
                .where(r.player_id == player, r.created_at >= since)
                .order_by(r.created_at.desc(), r.table_id, r.deal, r.step)
            ).all()
        return [Fault(x.kind, x.table_id, x.deal, x.step, x.profile, x.created_at) for x in rows]


class Progress:
    """Keeps each person's faults as their deals' accuracies are kept."""

    def __init__(self, store: ProgressStore, db: Database) -> None:
        self.store = store
        self.db = db

    async def found(self, kept: DealKept) -> None:
        deal = kept.live.game.deals[kept.number - 1]
        for seat, player in kept.people.items():
            mine = faults(deal, kept.analysis, seat, kept.steps_of(seat))
            if mine:
                found = [(f.kind, f.step) for f in mine]
                await self.db(self.store.add, player, kept.live.id, kept.number, deal.rules.name, found)

    async def of_player(self, player: str, moment: datetime) -> list[Fault]:
        """The person's faults of the last ``WEEKS`` weeks before ``moment``."""
        return await self.db(self.store.of_player, player, moment - timedelta(weeks=WEEKS))
