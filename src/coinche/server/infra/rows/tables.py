"""A table's rows: ``tables`` (its rules, seed, first dealer, first seats and kind) and
``actions``, its numbered log of steps (the engine's actions, the requests for the next
deal, the changes of who sits where), from which the live game is rebuilt: nothing else of
a game needs storing, and ``(table_id, seq)`` as the primary key means two writers never
both append the same step. Beside them: who sat where (``table_players``), what each
finished deal gave (``finished_deals``), each reviewed deal's analysis (``analyses``), the
records visitors upload to review (``uploaded_records``, ``upload_analyses``), and who is
connected to a friends' table through which process (``table_presence``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    false,
    true,
)
from sqlalchemy.orm import Mapped, mapped_column

from ..db import Base, now


class TableRow(Base):
    __tablename__ = "tables"
    __table_args__ = (Index("ix_tables_finished", "finished_at", "id"),)
    """(The open games database reads a month's games in the order of this index.)"""

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    profile: Mapped[str] = mapped_column(String(16))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    """Table options that differ from the profile (``RuleSet.options()``), the target included."""
    seed: Mapped[int] = mapped_column(BigInteger)
    first_dealer: Mapped[int] = mapped_column(Integer)
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    """The first seats, four entries: ``{"kind": "human", "player": id}`` or ``{"kind": "bot",
    "level": name}``; later changes are ``seat`` steps of the log."""
    level: Mapped[str] = mapped_column(String(16))
    """The computers' level as chosen (``adaptive``, ``beginner``...)."""
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """When the game ended (None: in progress), or when its players gave it up."""
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    """How it ended: ``{"totals": [us, them], "winner": team}`` or ``{"abandoned": true}``."""
    code: Mapped[str | None] = mapped_column(String(8), nullable=True, unique=True, index=True)
    """A friends' table's invitation code (None: a solo table)."""
    host: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The player who made a friends' table and controls its seats."""
    late_joins: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Whether a friend may take a computer's seat between deals once the game has started."""
    deal_secret: Mapped[bytes | None] = mapped_column(LargeBinary(32), nullable=True)
    """The 32-byte secret each deal's seed is derived from (docs/dealing.md); never sent to
    anyone. None: a table of before it, dealt from ``seed`` (dealing version 1)."""
    challenge_day: Mapped[str | None] = mapped_column(String(10), nullable=True)
    """The day (``YYYY-MM-DD``) of the daily challenge the table plays; None: another table."""
    adaptive_start: Mapped[float | None] = mapped_column(Float, nullable=True)
    """Where an adaptive table's knob started (from the player's rating); None: 0.5."""
    adaptive_par: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Its adaptive knob follows the player's score against each deal's par (``par`` steps);
    False: against the other side's score (the tables of before it)."""
    quick_play: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Quick play seated its people (strangers; dealt at once, no host)."""
    idle_clock: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    """A person who lets their turn's time run out is warned, then played for."""
    club_id: Mapped[str | None] = mapped_column(String(16), nullable=True, index=True)
    """The club a friends' table was made for (``FriendsTable.club``)."""
    club_only: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Only the club's members may sit there."""
    tournament_id: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """The tournament whose round the table plays (``TournamentTable.tournament``)."""
    tournament_round: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    deal_limit: Mapped[int | None] = mapped_column(Integer, nullable=True)
    closes_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    deals_booked: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """Its first N finished deals had their bookkeeping (the listeners of its commits: history,
    statistics, the daily challenge): reading the table runs it for the later ones only."""
    game_booked: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """The end of its game had its bookkeeping (the listeners) too."""
    ladder_match: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """The engine ladder's match the table is a leg of (``LadderTable.match``)."""


class TablePlayerRow(Base):
    """A player who sat at a table, at which seat (a player's list of games reads these)."""

    __tablename__ = "table_players"
    __table_args__ = (Index("ix_table_players_history", "player_id", "finished_at", "table_id"),)

    table_id: Mapped[str] = mapped_column(String(16), ForeignKey("tables.id"), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), primary_key=True, index=True)
    seat: Mapped[int] = mapped_column(Integer)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """The table's ``finished_at``, copied by ``Store.finish_table``: a player's history
    is a range of the index ``(player_id, finished_at, table_id)``."""


class FinishedDealRow(Base):
    """What a finished deal of a table gave, written by a listener of the commits (``history.py``):
    the history's pages list deals from these rows, never from the tables' logs."""

    __tablename__ = "finished_deals"

    table_id: Mapped[str] = mapped_column(String(16), ForeignKey("tables.id"), primary_key=True)
    deal: Mapped[int] = mapped_column(Integer, primary_key=True)
    """1 for the table's first deal."""
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    dealer: Mapped[int] = mapped_column(Integer)
    contract: Mapped[str | None] = mapped_column(String(24), nullable=True)
    """The contract's call in record notation, `` x2``/`` x4`` when coinched; None: all passed."""
    taker: Mapped[int | None] = mapped_column(Integer, nullable=True)
    made: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    score: Mapped[list[int]] = mapped_column(JSON)
    """The deal's score ``[North-South, East-West]`` (team of seats 0 and 2 first)."""


class ActionRow(Base):
    """One step of a table's log (``kind``: ``action``, ``deal`` or ``seat``)."""

    __tablename__ = "actions"

    table_id: Mapped[str] = mapped_column(String(16), ForeignKey("tables.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    """0 for the table's first step."""
    kind: Mapped[str] = mapped_column(String(8), default="action", server_default="action")
    """``action`` (``seat`` took ``action``), ``deal`` (``seat`` asked for the next deal),
    ``seat`` (``seat`` is now held as ``data`` says), ``swap`` (``seat`` and
    ``data["with"]`` exchange their holders) or ``par`` (the double-dummy par of deal
    ``data["deal"]``, ``data["par"]`` for team 0, which an adaptive knob follows)."""
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[int | None] = mapped_column(Integer, nullable=True)
    data: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    """A ``seat`` step's new seat (``Seat.to_json``); a ``swap`` step's other seat
    (``{"with": n}``); an action a computer played for an absent or idle person
    (``{"by": "away" | "idle"}``); a ``par`` step's deal and par (``{"deal": n, "par": m}``)."""
    request_id: Mapped[str | None] = mapped_column(String(120), nullable=True)
    """``player:id`` of the client request that made the step, so a resend is applied once."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now, index=True)
    """(Indexed: the home page counts the tables played at in the last minutes.)"""
    explanation: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    """A computer's reasons for the action (``{"public", "private", "reason"}``, the
    reason as message JSON), shown in the deal's review; None for a human's action."""


class AnalysisRow(Base):
    """The double-dummy analysis of a finished deal, computed once for its review."""

    __tablename__ = "analyses"

    table_id: Mapped[str] = mapped_column(String(16), ForeignKey("tables.id"), primary_key=True)
    deal: Mapped[int] = mapped_column(Integer, primary_key=True)
    """1 for the table's first deal."""
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class UploadedRecordRow(Base):
    """A record of a deal or a game a visitor uploaded to replay and review it (``/revoir``):
    checked by the engine before it is stored; only its owner may open it."""

    __tablename__ = "uploaded_records"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    """Random and URL-safe."""
    owner: Mapped[str] = mapped_column(String(32), index=True)
    """The player (a guest's or an account's) who uploaded it."""
    record: Mapped[str] = mapped_column(Text)
    """The record's JSON text as uploaded (at most 256 KB)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now, index=True)
    """Uploads older than ``Settings.upload_days`` are deleted."""


class UploadAnalysisRow(Base):
    """The double-dummy analysis of a deal of an uploaded record, computed once for its review."""

    __tablename__ = "upload_analyses"

    upload_id: Mapped[str] = mapped_column(
        String(16), ForeignKey("uploaded_records.id", ondelete="CASCADE"), primary_key=True
    )
    deal: Mapped[int] = mapped_column(Integer, primary_key=True)
    """1 for the record's first deal."""
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class TablePresenceRow(Base):
    """A person's open connections to a friends' table in one server process, and when
    that process last confirmed them (``presence.py``): every process reads who is here
    from these rows, and a process that died stops confirming its own."""

    __tablename__ = "table_presence"

    table_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    process: Mapped[str] = mapped_column(String(64), primary_key=True, index=True)
    connections: Mapped[int] = mapped_column(Integer)
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    """When the process last confirmed the count (0 connections: when the last one closed)."""
