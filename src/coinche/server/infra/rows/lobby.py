"""Where people find a table: quick play's queue (``quick_wait``) and the open tables'
list (``open_tables``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    Index,
    Integer,
    String,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from ..db import Base


class QuickWaitRow(Base):
    """A person in quick play's queue (``features/quick_play.py``): for which rules (None:
    any), at what rating, since when and until when the computers wait; the table a wave
    seated them at (then the row says where to go, until they join again or leave)."""

    __tablename__ = "quick_waits"

    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    rules: Mapped[str | None] = mapped_column(String(16), nullable=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    since: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    deadline: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    table_id: Mapped[str | None] = mapped_column(String(16), nullable=True)
    seated_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    __table_args__ = (Index("ix_quick_waits_waiting", "table_id", "since"),)


class OpenTableRow(Base):
    """A friends' table its host made public (``features/open_tables.py``): what the list
    of open tables shows of it, as of its step ``seq`` (kept by the listener of its
    commits, so listing 2,000 of them reads one table, not 2,000 logs)."""

    __tablename__ = "open_tables"

    table_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    code: Mapped[str] = mapped_column(String(8))
    profile: Mapped[str] = mapped_column(String(16))
    target: Mapped[int] = mapped_column(Integer)
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    """The four seats as listed: ``{"kind": "human", "name", "guest", "rating"}`` or
    ``{"kind": "bot", "level"}``."""
    free_seats: Mapped[int] = mapped_column(Integer)
    """Computers' seats a newcomer may take (0: full, or a game under way without late
    joins): only tables with one are listed."""
    started: Mapped[bool] = mapped_column(Boolean, default=False)
    watchable: Mapped[bool] = mapped_column(Boolean, default=True)
    """Anyone may watch the game (its players may close it to watchers)."""
    bots: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Bots may take its free seats through the bot API (its host says so)."""
    opened_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    seq: Mapped[int] = mapped_column(Integer)

    __table_args__ = (Index("ix_open_tables_listed", "free_seats", "opened_at"),)
