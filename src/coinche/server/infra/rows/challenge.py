"""The daily challenge's rows: its days, their standings, each deal's par, the players'
attempts and results (``features/daily.py``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from ..db import Base, now


class ChallengeDayRow(Base):
    """A day of the daily challenge (``daily.py``): its seed stays secret until the day is
    over; its commitment is shown before the day starts."""

    __tablename__ = "challenge_days"

    day: Mapped[str] = mapped_column(String(10), primary_key=True)
    """``YYYY-MM-DD`` (UTC)."""
    profile: Mapped[str] = mapped_column(String(16))
    seed: Mapped[str] = mapped_column(String(64))
    """32 bytes in hex: the dealing secret of the day's tables (docs/dealing.md)."""
    commitment: Mapped[str] = mapped_column(String(64))
    """hex SHA-256 of ``coinche-challenge-v1 || u8(0) || day || u8(0) || seed`` (``daily.commitment_of``)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    ranked_results: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """How many ranked results ``challenge_standings`` was computed from (a newer result
    makes it stale)."""
    ranked_final: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """The standings are the final ranking (computed after the day's end)."""
    ranked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    expert_table: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """The table where the expert played the day's deals from South, once the day is over."""


class ChallengeStandingRow(Base):
    """A line of a day's ranking as last computed (``daily.py``): reading the ranking is
    one indexed range, whatever the number of results behind it."""

    __tablename__ = "challenge_standings"
    __table_args__ = (Index("ix_challenge_standings_day_position", "day", "position"),)

    day: Mapped[str] = mapped_column(String(10), ForeignKey("challenge_days.day"), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    position: Mapped[int] = mapped_column(Integer)
    """0 for the first line: the order of the page."""
    rank: Mapped[int] = mapped_column(Integer)
    """Shared by equal averages (1, 2, 2, 4)."""
    average: Mapped[float] = mapped_column(Float)
    finished: Mapped[int] = mapped_column(Integer)
    percents: Mapped[list[float | None]] = mapped_column(JSON)


class ChallengeParRow(Base):
    """The double-dummy par of one of a day's deals (the same cards for everyone: solved once)."""

    __tablename__ = "challenge_pars"

    day: Mapped[str] = mapped_column(String(10), ForeignKey("challenge_days.day"), primary_key=True)
    deal: Mapped[int] = mapped_column(Integer, primary_key=True)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class ChallengeAttemptRow(Base):
    """A player's attempt at a day's challenge: one per player and day (an account's one
    attempt; a guest's lasts as long as its cookie)."""

    __tablename__ = "challenge_attempts"
    __table_args__ = (UniqueConstraint("day", "player_id", name="uq_challenge_attempts_day_player"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    day: Mapped[str] = mapped_column(String(10), ForeignKey("challenge_days.day"))
    player_id: Mapped[str] = mapped_column(String(32))
    table_id: Mapped[str] = mapped_column(String(16), ForeignKey("tables.id"))
    guest: Mapped[bool] = mapped_column(Boolean, default=False)
    """Played without an account: no place in the ranking."""
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class ChallengeResultRow(Base):
    """One deal of a day's challenge as a player finished it."""

    __tablename__ = "challenge_results"
    __table_args__ = (
        Index("ix_challenge_results_day_deal_score", "day", "deal", "score"),
        Index("ix_challenge_results_day_player", "day", "player_id"),
    )

    day: Mapped[str] = mapped_column(String(10), ForeignKey("challenge_days.day"), primary_key=True)
    deal: Mapped[int] = mapped_column(Integer, primary_key=True)
    """1..4."""
    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    score: Mapped[int] = mapped_column(Integer)
    """South-North's score minus East-West's (what the matchpoints compare)."""
    contract: Mapped[str | None] = mapped_column(String(24), nullable=True)
    """The contract's call in record notation, ``x2``/``x4`` when coinched; None: all passed."""
    taker: Mapped[int | None] = mapped_column(Integer, nullable=True)
    made: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    deal_score: Mapped[list[int]] = mapped_column(JSON)
    """The deal's score ``[South-North, East-West]``."""
    guest: Mapped[bool] = mapped_column(Boolean, default=False)
    """A guest's result: stored, not ranked."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
