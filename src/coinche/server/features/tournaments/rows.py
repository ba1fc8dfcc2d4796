"""The tournaments' rows, on the server's one declarative ``Base`` (its metadata holds them
once this module is imported: ``services.py`` does, through the store), and the model's
value each row says."""

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
    LargeBinary,
    String,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from ....engine.rules import RuleSet
from ...infra.db import Base, aware
from ...table.spec import Seat
from ...table.tournament_scoring import DealScore, TableResult
from .model import Entry, RoundTable, Tournament


class TournamentRow(Base):
    """A tournament (``features/tournaments``): what its page says of it, its committed
    secret (every round's deals derive from it; revealed once it is over) and where it
    stands: ``state`` (``open``, ``running``, ``finished``, ``cancelled``), the ``round``
    under way (0 before the start), its clock and whether it is closed (scored)."""

    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(60))
    organiser_id: Mapped[str] = mapped_column(String(32))
    profile: Mapped[str] = mapped_column(String(16))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    format: Mapped[str] = mapped_column(String(12))
    rounds: Mapped[int] = mapped_column(Integer)
    deals: Mapped[int] = mapped_column(Integer)
    minutes_per_deal: Mapped[float] = mapped_column(Float)
    break_seconds: Mapped[int] = mapped_column(Integer)
    duration_minutes: Mapped[int] = mapped_column(Integer, default=60, server_default="60")
    """An arena's length (the other formats: unused)."""
    opens_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    starts_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    code: Mapped[str | None] = mapped_column(String(8), nullable=True, unique=True)
    alone: Mapped[bool] = mapped_column(Boolean)
    computer_partner: Mapped[bool] = mapped_column(Boolean)
    bots: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Bots may enter (alone, or in a pair)."""
    level: Mapped[str] = mapped_column(String(16))
    secret: Mapped[bytes] = mapped_column(LargeBinary(32))
    commitment: Mapped[str] = mapped_column(String(64))
    state: Mapped[str] = mapped_column(String(12))
    round: Mapped[int] = mapped_column(Integer)
    round_ends_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    round_closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    club_id: Mapped[str | None] = mapped_column(String(16), nullable=True, index=True)
    """The club whose tournament it is: its members enter, its page lists it."""

    __table_args__ = (Index("ix_tournaments_state", "state", "starts_at"),)


class TournamentEntryRow(Base):
    """A pair entered in a tournament (``second_ok``: the partner named accepted), or a
    person alone (``second_id`` None) whom the start pairs with another."""

    __tablename__ = "tournament_entries"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    tournament_id: Mapped[str] = mapped_column(String(16))
    """Indexed by ``ix_tournament_entries_tournament`` (its migration's one index)."""
    first_id: Mapped[str] = mapped_column(String(32))
    second_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    second_ok: Mapped[bool] = mapped_column(Boolean)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    withdrawn_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    __table_args__ = (Index("ix_tournament_entries_tournament", "tournament_id"),)


class TournamentPlayerRow(Base):
    """A person's entry in a tournament: one per person (the primary key)."""

    __tablename__ = "tournament_players"

    tournament_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    entry_id: Mapped[str] = mapped_column(String(16))

    __table_args__ = (Index("ix_tournament_players_player", "player_id"),)


class TournamentTableRow(Base):
    """A table of a tournament's round, named (and its seats written) in the transaction
    that starts the round, before the table exists; its ``result`` once it is over or its
    round's clock ran out: ``{"deals": [[ns, ew] | null, ...], "complete": bool}``."""

    __tablename__ = "tournament_tables"

    table_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    tournament_id: Mapped[str] = mapped_column(String(16))
    round: Mapped[int] = mapped_column(Integer)
    number: Mapped[int] = mapped_column(Integer)
    ns_entry: Mapped[str] = mapped_column(String(16))
    ew_entry: Mapped[str | None] = mapped_column(String(16), nullable=True)
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    claimed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    deals_played: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """How many of its deals have ended (written as each ends: a round's deals are shown
    once every table of the round has played them)."""
    played: Mapped[list[list[int]] | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    """Those deals' points ``[[ns, ew], ...]``; None before its first deal ended."""

    __table_args__ = (UniqueConstraint("tournament_id", "round", "number", name="uq_tournament_tables_number"),)


def tournament_of_row(row: TournamentRow) -> Tournament:
    """The tournament its row says (times read back aware)."""

    def maybe(moment: datetime | None) -> datetime | None:
        return None if moment is None else aware(moment)

    return Tournament(
        row.id,
        row.name,
        row.organiser_id,
        RuleSet.profile(row.profile, **row.options),
        row.format,
        row.rounds,
        row.deals,
        row.minutes_per_deal,
        row.break_seconds,
        row.duration_minutes,
        aware(row.opens_at),
        aware(row.starts_at),
        row.code,
        row.alone,
        row.computer_partner,
        row.level,
        row.commitment,
        row.state,
        row.round,
        maybe(row.round_ends_at),
        maybe(row.round_closed_at),
        maybe(row.finished_at),
        row.secret,
        bool(row.bots),
        row.club_id,
    )


def round_table_of_row(row: TournamentTableRow) -> RoundTable:
    """The round table its row says, with its result once it has one."""
    result = None
    complete = False
    ended_at = None
    if row.result is not None:
        if isinstance(row.result.get("at"), str):
            ended_at = aware(datetime.fromisoformat(row.result["at"]))
        deals: tuple[DealScore, ...] = tuple(None if d is None else (int(d[0]), int(d[1])) for d in row.result["deals"])
        result = TableResult(row.round, row.ns_entry, row.ew_entry, deals)
        complete = bool(row.result.get("complete"))
    return RoundTable(
        row.table_id,
        row.round,
        row.number,
        row.ns_entry,
        row.ew_entry,
        tuple(Seat.from_json(x) for x in row.seats),
        result,
        complete,
        aware(row.claimed_at),
        ended_at,
        tuple((int(d[0]), int(d[1])) for d in row.played or ()),
    )


def entry_of_row(row: TournamentEntryRow) -> Entry:
    return Entry(row.id, row.first_id, row.second_id, bool(row.second_ok), row.withdrawn_at is not None)
