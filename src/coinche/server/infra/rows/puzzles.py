"""The puzzles found in finished deals (card play and bidding), the players' tries and
their puzzle ratings (``features/puzzles.py``, ``features/bidding_puzzles.py``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from ..db import Base, now


class PuzzleRow(Base):
    """A card-play puzzle found in a finished deal (``features/puzzles.py``): the deal as
    dealt and its log up to the position, the solver's answer, and the puzzle's rating (it
    wins when a player misses it)."""

    __tablename__ = "puzzles"
    __table_args__ = (UniqueConstraint("table_id", "deal", name="uq_puzzles_table_deal"),)

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(16))
    deal: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now, index=True)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    dealer: Mapped[int] = mapped_column(Integer)
    hands: Mapped[list[int]] = mapped_column(JSON)
    log: Mapped[list[Any]] = mapped_column(JSON)
    """The deal's log up to the position (``job_kinds.analysis_job``'s entries)."""
    seat: Mapped[int] = mapped_column(Integer)
    goal: Mapped[str] = mapped_column(String(8))
    solution: Mapped[str] = mapped_column(String(4))
    values: Mapped[list[Any]] = mapped_column(JSON)
    line: Mapped[list[str]] = mapped_column(JSON)
    themes: Mapped[list[str]] = mapped_column(JSON)
    swing: Mapped[int] = mapped_column(Integer)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    tries: Mapped[int] = mapped_column(Integer, default=0)
    solved: Mapped[int] = mapped_column(Integer, default=0)


class PuzzleTryRow(Base):
    """A player's first try at a puzzle (the one that is rated)."""

    __tablename__ = "puzzle_tries"

    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    puzzle_id: Mapped[str] = mapped_column(String(16), ForeignKey("puzzles.id", ondelete="CASCADE"), primary_key=True)
    card: Mapped[str] = mapped_column(String(4))
    solved: Mapped[bool] = mapped_column(Boolean)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class PuzzlePlayerRow(Base):
    """A player's puzzle rating and streak."""

    __tablename__ = "puzzle_players"

    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    tries: Mapped[int] = mapped_column(Integer, default=0)
    solved: Mapped[int] = mapped_column(Integer, default=0)
    streak: Mapped[int] = mapped_column(Integer, default=0)
    best_streak: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class BiddingPuzzleRow(Base):
    """A bidding puzzle found in a finished deal's auction (``features/puzzles.py``): the
    deal as dealt, the calls before the position, the expert's call and every call's value."""

    __tablename__ = "bidding_puzzles"
    __table_args__ = (UniqueConstraint("table_id", "deal", name="uq_bidding_puzzles_table_deal"),)

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(16))
    deal: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now, index=True)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    dealer: Mapped[int] = mapped_column(Integer)
    hands: Mapped[list[int]] = mapped_column(JSON)
    calls: Mapped[list[str]] = mapped_column(JSON)
    """The calls before the position, in record notation."""
    seat: Mapped[int] = mapped_column(Integer)
    call: Mapped[str] = mapped_column(String(16))
    """The expert's call."""
    played: Mapped[str] = mapped_column(String(16))
    """The call made at the table."""
    values: Mapped[list[Any]] = mapped_column(JSON)
    """Every call open to the seat as ``[call, expected margin, chance or null]``, best first."""
    margin: Mapped[float] = mapped_column(Float)
    tries: Mapped[int] = mapped_column(Integer, default=0)
    solved: Mapped[int] = mapped_column(Integer, default=0)


class BiddingPuzzleTryRow(Base):
    """A player's first answer to a bidding puzzle."""

    __tablename__ = "bidding_puzzle_tries"

    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    puzzle_id: Mapped[str] = mapped_column(
        String(16), ForeignKey("bidding_puzzles.id", ondelete="CASCADE"), primary_key=True
    )
    call: Mapped[str] = mapped_column(String(16))
    solved: Mapped[bool] = mapped_column(Boolean)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
