"""The engine ladder's rows, on the server's one declarative ``Base`` (its metadata holds
them once this module is imported: ``services.py`` does)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, Float, Integer, LargeBinary, String, false
from sqlalchemy.orm import Mapped, mapped_column

from ...infra.db import Base


class LadderEngineRow(Base):
    """A bot at the ladder: whether its owner opted it in, whether it is paused (too many
    faults), its ladder rating, its matches and its decisions and faults (``recent``: its
    last decisions, one character each, ``1`` a fault)."""

    __tablename__ = "ladder_engines"

    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    opted_in: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    paused_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    won: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    drawn: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    decisions: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    faults: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    recent: Mapped[str] = mapped_column(String(1000), default="", server_default="")
    last_opponent: Mapped[str | None] = mapped_column(String(32), nullable=True)


class LadderMatchRow(Base):
    """A duplicate match: ``first`` against ``second`` (a bot's player) or the computer level
    ``anchor``, at two tables dealt from ``secret`` (``first`` at seat 0 of the first, seat
    1 of the second), each table's point difference for ``first`` once it ended, and the
    result once both did."""

    __tablename__ = "ladder_matches"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    profile: Mapped[str] = mapped_column(String(16))
    secret: Mapped[bytes] = mapped_column(LargeBinary(32))
    first_id: Mapped[str] = mapped_column(String(32), index=True)
    second_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    anchor: Mapped[str | None] = mapped_column(String(16), nullable=True)
    first_table: Mapped[str] = mapped_column(String(16))
    second_table: Mapped[str] = mapped_column(String(16))
    first_leg: Mapped[int | None] = mapped_column(Integer, nullable=True)
    second_leg: Mapped[int | None] = mapped_column(Integer, nullable=True)
    score: Mapped[float | None] = mapped_column(Float, nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True, index=True)
