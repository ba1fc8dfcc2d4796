"""What the server processes and the workers share on one PostgreSQL database besides the
logs: the computers' turns and jobs handed to the workers (``bot_turns``, ``bot_jobs``,
``turns.py``, ``worker.py``), the workers alive, the rate limits' tries
(``rate_limits.py``), and a few settings."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    DateTime,
    Index,
    Integer,
    String,
    Text,
)
from sqlalchemy.orm import Mapped, mapped_column

from ..db import Base, now


class BotTurnRow(Base):
    """A computer's turn handed to the workers (``worker.py``): the step it must fill, when
    its move may be stored (the display pause), which worker holds it until when (a lease:
    a worker that dies lets it go), and when it was done (played, or found stale)."""

    __tablename__ = "bot_turns"

    table_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    not_before: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    claimed_by: Mapped[str | None] = mapped_column(String(64), nullable=True)
    claimed_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    done_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    __table_args__ = (Index("ix_bot_turns_waiting", "done_at", "created_at"),)


class BotJobRow(Base):
    """A hint or an analysis asked of the workers: its kind and JSON arguments
    (``jobs.py``: data, never code), who computes it until when, and its JSON answer
    (``{"ok": value}``, ``{"error": text}`` or ``{"refused": text}``); the asker deletes the
    row once it has read the answer."""

    __tablename__ = "bot_jobs"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    priority: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    kind: Mapped[str] = mapped_column(String(32))
    arguments: Mapped[str] = mapped_column(Text)
    claimed_by: Mapped[str | None] = mapped_column(String(64), nullable=True)
    claimed_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    done_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    answer: Mapped[str | None] = mapped_column(Text, nullable=True)

    __table_args__ = (Index("ix_bot_jobs_waiting", "done_at", "priority", "created_at"),)


class WorkerRow(Base):
    """A ``coinche worker`` alive: its heartbeat (``last_seen``) tells the servers to hand
    it their computers' turns."""

    __tablename__ = "workers"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    last_seen: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class RateLimitHitRow(Base):
    """One try a rate limit counts, shared by every process on PostgreSQL (``rate_limits.py``)."""

    __tablename__ = "rate_limit_hits"
    __table_args__ = (Index("ix_rate_limit_hits_key_at", "key", "at"),)

    id: Mapped[int] = mapped_column(
        BigInteger().with_variant(Integer(), "sqlite"), primary_key=True, autoincrement=True
    )
    key: Mapped[str] = mapped_column(String(200))
    """``amount/seconds:`` and the limit's own key (``signup:<address>``...)."""
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SettingRow(Base):
    __tablename__ = "settings"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(String(256))
