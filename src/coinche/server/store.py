"""Reading and writing what the server keeps: tables, their action logs, guests.

Every method is one short transaction. ``append_action`` is the write that matters: the
table service calls it, and only once it returns does anything reach a client.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import Engine, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from ..engine.rules import RuleSet
from .db import ActionRow, AnalysisRow, GuestRow, SettingRow, TableRow, make_engine, migrate

SeatKind = Literal["human", "bot"]


@dataclass(frozen=True)
class Seat:
    kind: SeatKind
    guest: str | None = None
    """The guest seated here (``human`` seats)."""
    level: str | None = None
    """The bot's level (``bot`` seats): ``beginner``, ``confirmed``, ``expert``, ``adaptive``
    or any ``module:attribute`` the bot loader knows."""

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "guest": self.guest, "level": self.level}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Seat:
        return Seat(data["kind"], data.get("guest"), data.get("level"))


@dataclass(frozen=True)
class TableSpec:
    """What a table is before any action: its rules, dealing seed, first dealer, seats."""

    id: str
    rules: RuleSet
    seed: int
    first_dealer: int
    seats: tuple[Seat, Seat, Seat, Seat]
    level: str

    def seat_of(self, guest: str) -> int | None:
        for i, seat in enumerate(self.seats):
            if seat.kind == "human" and seat.guest == guest:
                return i
        return None


class ConflictError(Exception):
    """Another writer stored this step of the table first."""


def new_id(nbytes: int = 6) -> str:
    """A short random id, safe in a URL (8 characters for 6 bytes)."""
    return secrets.token_urlsafe(nbytes)


class Store:
    def __init__(self, url: str) -> None:
        self.engine: Engine = make_engine(url)
        migrate(self.engine)
        self._session = sessionmaker(self.engine, expire_on_commit=False)

    def close(self) -> None:
        self.engine.dispose()

    def session(self) -> Session:
        return self._session()

    # ----- tables -----

    def create_table(self, spec: TableSpec) -> None:
        with self.session() as s, s.begin():
            s.add(
                TableRow(
                    id=spec.id,
                    profile=spec.rules.name,
                    options=spec.rules.options(),
                    seed=spec.seed,
                    first_dealer=spec.first_dealer,
                    seats=[seat.to_json() for seat in spec.seats],
                    level=spec.level,
                )
            )

    def load_table(self, table_id: str) -> tuple[TableSpec, list[int]] | None:
        """The table and its action log, or None when there is no such table."""
        with self.session() as s:
            row = s.get(TableRow, table_id)
            if row is None:
                return None
            actions = s.scalars(
                select(ActionRow.action).where(ActionRow.table_id == table_id).order_by(ActionRow.seq)
            ).all()
            seats = tuple(Seat.from_json(x) for x in row.seats)
            assert len(seats) == 4
            spec = TableSpec(
                id=row.id,
                rules=RuleSet.profile(row.profile, **row.options),
                seed=row.seed,
                first_dealer=row.first_dealer,
                seats=(seats[0], seats[1], seats[2], seats[3]),
                level=row.level,
            )
            return spec, list(actions)

    def append_action(
        self, table_id: str, seq: int, seat: int, action: int, explanation: dict[str, Any] | None = None
    ) -> None:
        """Store step ``seq`` of the table's log, with a computer's ``explanation`` of it
        (the same write); ``ConflictError`` if the step is taken."""
        row = {"table_id": table_id, "seq": seq, "seat": seat, "action": action, "explanation": explanation}
        try:
            with self.engine.begin() as conn:  # a plain INSERT: the ORM's unit of work costs more than it
                conn.execute(insert(ActionRow), row)
        except IntegrityError:
            raise ConflictError(f"table {table_id}: step {seq} is already stored") from None

    def explanations(self, table_id: str, start: int, stop: int) -> dict[int, dict[str, Any]]:
        """The stored explanations of steps ``start`` to ``stop - 1`` of a table, by step."""
        with self.session() as s:
            rows = s.execute(
                select(ActionRow.seq, ActionRow.explanation).where(
                    ActionRow.table_id == table_id,
                    ActionRow.seq >= start,
                    ActionRow.seq < stop,
                    ActionRow.explanation.is_not(None),
                )
            ).all()
        return {seq: data for seq, data in rows if isinstance(data, dict)}

    # ----- analyses -----

    def load_analysis(self, table_id: str, deal: int) -> dict[str, Any] | None:
        """The cached analysis of deal ``deal`` (1-based) of a table, None if not computed."""
        with self.session() as s:
            row = s.get(AnalysisRow, (table_id, deal))
            return row.data if row is not None else None

    def save_analysis(self, table_id: str, deal: int, data: dict[str, Any]) -> None:
        """Cache an analysis; a second writer of the same deal changes nothing (the
        analysis of a finished deal is always the same)."""
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(AnalysisRow), {"table_id": table_id, "deal": deal, "data": data})
        except IntegrityError:
            pass

    def table_ids(self) -> Sequence[str]:
        with self.session() as s:
            return s.scalars(select(TableRow.id)).all()

    # ----- guests -----

    def add_deal_played(self, guest_id: str) -> int:
        """Count one more finished deal for the guest; the new count."""
        with self.session() as s, s.begin():
            if s.get(GuestRow, guest_id) is None:
                s.add(GuestRow(id=guest_id, deals_played=0))
                s.flush()
            s.execute(update(GuestRow).where(GuestRow.id == guest_id).values(deals_played=GuestRow.deals_played + 1))
            return s.scalar(select(GuestRow.deals_played).where(GuestRow.id == guest_id)) or 0

    def deals_played(self, guest_id: str) -> int:
        with self.session() as s:
            return s.scalar(select(GuestRow.deals_played).where(GuestRow.id == guest_id)) or 0

    # ----- settings -----

    def secret_key(self) -> str:
        """The key that signs cookies: made once, kept in the database."""
        with self.session() as s, s.begin():
            row = s.get(SettingRow, "secret_key")
            if row is None:
                row = SettingRow(key="secret_key", value=secrets.token_urlsafe(32))
                s.add(row)
            return row.value
