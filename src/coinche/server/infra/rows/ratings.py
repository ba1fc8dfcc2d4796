"""Ratings and a profile's counters: ``player_stats`` (each player's rating and counters),
``profile_ratings`` (each player's rating in each rules profile), ``rating_history`` (the
rating after each rated game), and ``stats_deals`` and ``rated_games``, the deals and games
counted already, so that counting again (a table read back from its log) changes nothing
(``features/player_stats.py``)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    Boolean,
    DateTime,
    Float,
    Index,
    Integer,
    String,
)
from sqlalchemy.orm import Mapped, mapped_column

from ..db import Base, now


class PlayerStatsRow(Base):
    """A player's rating (openskill ``mu``, ``sigma``) and the profile's counters; only
    persons are counted (``player_stats.py``)."""

    __tablename__ = "player_stats"
    __table_args__ = (Index("ix_player_stats_leaderboard", "ordinal", "rated_games"),)

    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float, default=0.0, server_default="0")
    """``mu - 3 sigma``, what the shown rating grows with (``Rating.ordinal``), kept with
    them so the leaderboard reads the best in the order of an index."""
    rated_games: Mapped[int] = mapped_column(Integer, default=0)
    games_played: Mapped[int] = mapped_column(Integer, default=0)
    """Rated games (an abandoned one counts: it is a loss)."""
    games_won: Mapped[int] = mapped_column(Integer, default=0)
    deals_played: Mapped[int] = mapped_column(Integer, default=0)
    contracts_taken: Mapped[int] = mapped_column(Integer, default=0)
    contracts_made: Mapped[int] = mapped_column(Integer, default=0)
    coinches: Mapped[int] = mapped_column(Integer, default=0)
    """Coinches and surcoinches the player called."""
    coinches_won: Mapped[int] = mapped_column(Integer, default=0)
    """Of them, those that paid: a coinche that set the contract, a surcoinche made."""
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class ProfileRatingRow(Base):
    """A player's rating in one rules profile (``RuleSet.name``: the boards of each
    profile), moved with ``player_stats``' by the same games, those of that profile only.
    Counted from migration 0035 on: the games rated before are in the site rating only."""

    __tablename__ = "profile_ratings"
    __table_args__ = (Index("ix_profile_ratings_leaderboard", "profile", "ordinal", "rated_games"),)

    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    profile: Mapped[str] = mapped_column(String(16), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float)
    """``mu - 3 sigma`` (``Rating.ordinal``), as in ``player_stats``: a board's order."""
    rated_games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class RatingHistoryRow(Base):
    """A player's rating after one rated game (the profile's chart)."""

    __tablename__ = "rating_history"
    __table_args__ = (Index("ix_rating_history_player_at", "player_id", "at"),)

    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    display: Mapped[int] = mapped_column(Integer)
    won: Mapped[bool] = mapped_column(Boolean)


class StatsDealRow(Base):
    """A finished deal whose counters were added (inserted in the same transaction)."""

    __tablename__ = "stats_deals"

    table_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    deal: Mapped[int] = mapped_column(Integer, primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class RatedGameRow(Base):
    """A game whose ratings were updated (inserted in the same transaction)."""

    __tablename__ = "rated_games"

    table_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
