"""Reading and writing what the server keeps: tables, their logs of steps, players.

Every method is one short, blocking transaction: the table service runs them on its
database threads (``Database``), never on the event loop. ``append_step`` is the write
that matters: the table service calls it, and only once it returns does anything reach a
client.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import Connection, Engine, delete, insert, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from ...engine.rules import RuleSet
from ..table.spec import Seat, Step, StepKind, TableSpec
from .backend import Backend
from .db import Base, make_engine, migrate, now
from .held_connection import HeldConnection
from .kind_rows import kind_columns, kind_of_row
from .rows.people import AccountRow, PlayerRow
from .rows.processes import SettingRow
from .rows.tables import ActionRow, AnalysisRow, TablePlayerRow, TableRow, UploadAnalysisRow, UploadedRecordRow

P = ParamSpec("P")
T = TypeVar("T")


@dataclass(frozen=True)
class GameEntry:
    """A game in a player's list."""

    table_id: str
    created_at: datetime
    profile: str
    level: str
    target: int
    seat: int
    """The player's seat."""
    finished_at: datetime | None
    result: dict[str, Any] | None


class ConflictError(Exception):
    """Another writer stored this step of the table first."""


def new_id(nbytes: int = 6) -> str:
    """A short random id, safe in a URL (8 characters for 6 bytes)."""
    return secrets.token_urlsafe(nbytes)


def table_spec(row: TableRow) -> TableSpec:
    """The table a row of ``tables`` describes (its log's steps apart)."""
    seats = tuple(Seat.from_json(x) for x in row.seats)
    assert len(seats) == 4
    return TableSpec(
        id=row.id,
        rules=RuleSet.profile(row.profile, **row.options),
        seed=row.seed,
        first_dealer=row.first_dealer,
        seats=(seats[0], seats[1], seats[2], seats[3]),
        level=row.level,
        kind=kind_of_row(row),
        secret=row.deal_secret,
        adaptive_start=row.adaptive_start,
        adaptive_par=bool(row.adaptive_par),
    )


def step_of(row: Any) -> Step:
    """A step of a table's log from its row of ``actions``."""
    kind: StepKind = row.kind if row.kind in ("action", "deal", "seat", "swap", "par") else "action"
    data = row.data if isinstance(row.data, dict) else {}
    seat_data = Seat.from_json(data) if kind == "seat" else None
    other = data.get("with") if kind == "swap" else None
    by = data.get("by") if kind == "action" else None
    par = (data.get("deal"), data.get("par")) if kind == "par" else None
    return Step(
        row.seq,
        kind,
        row.seat,
        row.action,
        seat_data,
        row.request_id,
        other_seat=other if isinstance(other, int) else None,
        played_by=by if by in ("away", "idle") else None,
        par=(par[0], par[1]) if par is not None and isinstance(par[0], int) and isinstance(par[1], int) else None,
    )


class Store:
    def __init__(self, url: str) -> None:
        self.url = url
        self.backend = Backend.of(url)
        """What depends on the database's kind (its SQL, locks, hub, work queue, rate
        limits): decided here once, asked by everything else."""
        self.engine: Engine = make_engine(url)
        migrate(self.engine, self.backend)
        self._session = sessionmaker(self.engine, expire_on_commit=False)

    def close(self) -> None:
        self.engine.dispose()

    def ping(self) -> None:
        """The cheapest query that proves the database answers (the readiness probe)."""
        with self.engine.connect() as connection:
            connection.execute(text("SELECT 1"))

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
                    deal_secret=spec.secret,
                    adaptive_start=spec.adaptive_start,
                    adaptive_par=spec.adaptive_par,
                    **kind_columns(spec.kind),
                )
            )
            s.flush()
            for i, seat in enumerate(spec.seats):
                if seat.player is not None:
                    s.add(TablePlayerRow(table_id=spec.id, player_id=seat.player, seat=i))

    def load_table(self, table_id: str) -> tuple[TableSpec, list[Step]] | None:
        """The table and its log, or None when there is no such table."""
        with self.session() as s:
            row = s.get(TableRow, table_id)
            if row is None:
                return None
            return table_spec(row), self._steps(s, table_id, 0)

    def booked(self, table_id: str) -> tuple[int, bool]:
        """How many of the table's first deals, and whether its game's end, were booked."""
        with self.engine.begin() as conn:
            row = conn.execute(
                select(TableRow.deals_booked, TableRow.game_booked).where(TableRow.id == table_id)
            ).first()
        return (int(row[0]), bool(row[1])) if row is not None else (0, False)

    def book_deal(self, table_id: str, number: int) -> None:
        """Deal ``number``'s bookkeeping has run: booked if every deal before it is (an
        earlier deal whose bookkeeping failed is run again, with this one, at the next read)."""
        with self.engine.begin() as conn:
            conn.execute(
                update(TableRow)
                .where(TableRow.id == table_id, TableRow.deals_booked == number - 1)
                .values(deals_booked=number)
            )

    def book_game(self, table_id: str) -> None:
        """The game's end had its bookkeeping."""
        with self.engine.begin() as conn:
            conn.execute(update(TableRow).where(TableRow.id == table_id).values(game_booked=True))

    def table_by_code(self, code: str) -> str | None:
        """The id of the friends' table with this invitation code, None if there is none."""
        with self.session() as s:
            return s.scalar(select(TableRow.id).where(TableRow.code == code))

    def steps_since(self, table_id: str, seq: int) -> list[Step]:
        """The steps of a table's log from ``seq`` on, in order."""
        with self.session() as s:
            return self._steps(s, table_id, seq)

    @staticmethod
    def _steps(s: Session, table_id: str, start: int) -> list[Step]:
        row = ActionRow
        rows = s.execute(
            select(row.seq, row.kind, row.seat, row.action, row.data, row.request_id)
            .where(ActionRow.table_id == table_id, ActionRow.seq >= start)
            .order_by(ActionRow.seq)
        ).all()
        return [step_of(r) for r in rows]

    def last_seq(self, table_id: str) -> int:
        """How many steps the table's log holds."""
        with self.session() as s:
            top = s.scalar(select(ActionRow.seq).where(ActionRow.table_id == table_id).order_by(ActionRow.seq.desc()))
            return 0 if top is None else top + 1

    def append_step(self, table_id: str, step: Step) -> None:
        """Store ``step`` of the table's log (with a computer's explanation, the same write);
        ``ConflictError`` if its number is taken (any other fault, such as a table that does
        not exist, raises as it is)."""
        if not self.append_steps([(table_id, step)])[0]:
            raise ConflictError(f"table {table_id}: step {step.seq} is already stored")

    def append_steps(self, steps: Sequence[tuple[str, Step]], held: HeldConnection | None = None) -> list[bool]:
        """Store several tables' next steps in one transaction: one commit for all of them
        (under load, the moves of many tables share it); for each, whether it was stored
        (False: its number was taken). Any other error stores none of them. The rows go in
        one statement run over all of them; should its count say that a number was taken
        (rare: another process stored it first), the transaction is rolled back and the
        steps written one statement each, to know which. ``held``: the calling thread's
        own connection (the writer's), else one of the pool's."""
        transaction = held.transaction if held is not None else self._transaction
        if len(steps) > 1:
            with contextlib.suppress(_Taken):
                return transaction(lambda conn: self._append_steps(conn, steps, together=True))
        return transaction(lambda conn: self._append_steps(conn, steps, together=False))

    def _transaction(self, work: Callable[[Connection], T]) -> T:
        with self.engine.begin() as conn:
            return work(conn)

    def _append_steps(self, conn: Connection, steps: Sequence[tuple[str, Step]], together: bool) -> list[bool]:
        """``append_steps`` in the transaction of ``conn``: ``together``, one statement for
        every row (``_Taken``, all rolled back, unless it stored every one), else a
        statement a row."""
        insert_ignoring = self.backend.insert_ignoring(ActionRow, ["table_id", "seq"])
        if together:
            rows = [_step_row(table_id, step) for table_id, step in steps]
            if conn.execute(insert_ignoring, rows).rowcount != len(rows):
                raise _Taken
            stored = [True] * len(rows)
        else:
            stored = [
                conn.execute(insert_ignoring, _step_row(table_id, step)).rowcount == 1 for table_id, step in steps
            ]
        seated = [
            {"table_id": table_id, "player_id": step.seat_data.player, "seat": step.seat}
            for (table_id, step), ok in zip(steps, stored, strict=True)
            if ok and step.seat_data is not None and step.seat_data.player is not None
        ]
        if seated:  # who sat at the table, for the players' lists of games
            self._record_seats(conn, seated)
        self._record_gone(conn, [(t, step) for (t, step), ok in zip(steps, stored, strict=True) if ok])
        return stored

    def _record_gone(self, conn: Any, steps: Sequence[tuple[str, Step]]) -> None:
        """A person who has gone from a game still going on (``Seat.gone``) has it over in
        their lists of games (no longer in progress, in their history as given up); the
        table's end writes its own moment over it. Seated again, it is theirs again."""
        moment = now()
        for table_id, step in steps:
            holder = step.seat_data
            if holder is None:
                continue
            row = TablePlayerRow
            if holder.gone is not None:
                conn.execute(
                    update(row)
                    .where(row.table_id == table_id, row.player_id == holder.gone, row.finished_at.is_(None))
                    .values(finished_at=moment)
                )
            elif holder.kind == "human" and holder.player is not None:
                running = select(TableRow.id).where(TableRow.id == table_id, TableRow.finished_at.is_(None)).exists()
                conn.execute(
                    update(row)
                    .where(row.table_id == table_id, row.player_id == holder.player, row.finished_at.is_not(None))
                    .where(running)
                    .values(finished_at=None)
                )

    def record_seats(self, table_id: str, seats: Sequence[tuple[str, int]]) -> None:
        """Where players sit now (after a swap of seats): each ``(player, seat)``."""
        if seats:
            with self.engine.begin() as conn:
                self._record_seats(conn, [{"table_id": table_id, "player_id": p, "seat": n} for p, n in seats])

    def _record_seats(self, conn: Any, rows: list[dict[str, Any]]) -> None:
        """Who sat at a table, at which seat (their last one), for the players' lists of games."""
        upsert = self.backend.insert_ignoring(TablePlayerRow, ["table_id", "player_id"], update=["seat"])
        for row in rows:
            conn.execute(upsert, row)

    def forget_seat(self, table_id: str, player_id: str) -> None:
        """``player_id`` left a table before its game started: it is not one of their games."""
        with self.engine.begin() as conn:
            conn.execute(
                delete(TablePlayerRow).where(TablePlayerRow.table_id == table_id, TablePlayerRow.player_id == player_id)
            )

    def finish_table(self, table_id: str, result: dict[str, Any]) -> None:
        """The table's game ended (or was given up): ``result`` says how; the first call
        counts (a second writer that saw the same end changes nothing)."""
        moment = now()
        with self.engine.begin() as conn:
            ended = conn.execute(
                update(TableRow)
                .where(TableRow.id == table_id, TableRow.finished_at.is_(None))
                .values(finished_at=moment, result=result)
            )
            if ended.rowcount == 1:  # the players' histories are ordered by it
                conn.execute(  # (not a person who had gone: their own moment stays, see ``result_for``)
                    update(TablePlayerRow)
                    .where(TablePlayerRow.table_id == table_id, TablePlayerRow.finished_at.is_(None))
                    .values(finished_at=moment)
                )

    def games_of(self, player_id: str, limit: int = 100) -> list[GameEntry]:
        """The player's games, newest first."""
        with self.session() as s:
            rows = s.execute(
                select(
                    TableRow.id,
                    TableRow.created_at,
                    TableRow.profile,
                    TableRow.level,
                    TableRow.options,
                    TablePlayerRow.finished_at,  # the table's, or when the player had gone
                    TableRow.finished_at.label("table_finished_at"),
                    TableRow.result,
                    TablePlayerRow.seat,
                )
                .join(TablePlayerRow, TablePlayerRow.table_id == TableRow.id)
                .where(TablePlayerRow.player_id == player_id)
                .order_by(TableRow.created_at.desc(), TableRow.id)
                .limit(limit)
            ).all()
        return [
            GameEntry(
                r.id,
                r.created_at,
                r.profile,
                r.level,
                RuleSet.profile(r.profile, **r.options).target,
                r.seat,
                r.finished_at,
                result_for(r.finished_at, r.table_finished_at, r.result),
            )
            for r in rows
        ]

    def open_games(self, player_id: str) -> list[str]:
        """The player's games in progress, newest first."""
        with self.session() as s:
            return list(
                s.scalars(
                    select(TableRow.id)
                    .join(TablePlayerRow, TablePlayerRow.table_id == TableRow.id)
                    .where(TablePlayerRow.player_id == player_id, TableRow.finished_at.is_(None))
                    .where(TablePlayerRow.finished_at.is_(None))  # not a game they have gone from
                    .order_by(TableRow.created_at.desc(), TableRow.id)
                )
            )

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
        """Cache an analysis; a second writer of the same deal writes what was there (the
        analysis of a finished deal is always the same), or completes an analysis stored
        before it had every part (``current_analysis``)."""
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(AnalysisRow), {"table_id": table_id, "deal": deal, "data": data})
        except IntegrityError:
            with self.engine.begin() as conn:
                conn.execute(
                    update(AnalysisRow)
                    .where(AnalysisRow.table_id == table_id, AnalysisRow.deal == deal)
                    .values(data=data)
                )

    def add_once(self, row: Base) -> bool:
        """Insert ``row``; False (nothing written) when one of its unique keys is taken
        already: what a second finder of the same thing gets."""
        try:
            with self.session() as s, s.begin():
                s.add(row)
        except IntegrityError:
            return False
        return True

    # ----- uploaded records -----

    def save_upload(self, owner: str, record: str, kept: int, days: int) -> str:
        """Keep a checked record for its owner; its new random id. In the same transaction,
        the uploads older than ``days`` (anyone's) and the owner's beyond their newest
        ``kept`` are deleted, with their analyses: what uploads store stays bounded."""
        upload_id = new_id(12)
        expired = datetime.now(UTC) - timedelta(days=days)
        with self.engine.begin() as conn:
            conn.execute(delete(UploadedRecordRow).where(UploadedRecordRow.created_at < expired))
            conn.execute(insert(UploadedRecordRow), {"id": upload_id, "owner": owner, "record": record})
            newest = (
                select(UploadedRecordRow.id)
                .where(UploadedRecordRow.owner == owner)
                .order_by(UploadedRecordRow.created_at.desc(), UploadedRecordRow.id.desc())
                .limit(max(kept, 1))
            )
            conn.execute(
                delete(UploadedRecordRow).where(
                    UploadedRecordRow.owner == owner, UploadedRecordRow.id.not_in(newest.scalar_subquery())
                )
            )
        return upload_id

    def load_upload(self, upload_id: str) -> tuple[str, str] | None:
        """(owner, record text) of an uploaded record, None if there is none."""
        with self.session() as s:
            row = s.get(UploadedRecordRow, upload_id)
            return (row.owner, row.record) if row is not None else None

    def load_upload_analysis(self, upload_id: str, deal: int) -> dict[str, Any] | None:
        with self.session() as s:
            row = s.get(UploadAnalysisRow, (upload_id, deal))
            return row.data if row is not None else None

    def save_upload_analysis(self, upload_id: str, deal: int, data: dict[str, Any]) -> None:
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(UploadAnalysisRow), {"upload_id": upload_id, "deal": deal, "data": data})
        except IntegrityError:  # as ``save_analysis``
            with self.engine.begin() as conn:
                conn.execute(
                    update(UploadAnalysisRow)
                    .where(UploadAnalysisRow.upload_id == upload_id, UploadAnalysisRow.deal == deal)
                    .values(data=data)
                )

    def table_ids(self) -> Sequence[str]:
        with self.session() as s:
            return s.scalars(select(TableRow.id)).all()

    # ----- players -----

    def use_free_deal(self, player_id: str, free: int) -> bool | None:
        """Count one free deal for the player as it is dealt, if they have one left: whether
        they had; None for a player with an account (no limit, nothing counted). One atomic
        update: two tables, or two processes, dealing at once never both get the last one."""
        with self.engine.begin() as conn:
            if conn.scalar(select(AccountRow.id).where(AccountRow.player_id == player_id)) is not None:
                return None
            conn.execute(self.backend.insert_ignoring(PlayerRow, ["id"]), {"id": player_id, "deals_played": 0})
            used = conn.execute(
                update(PlayerRow)
                .where(PlayerRow.id == player_id, PlayerRow.deals_played < free)
                .values(deals_played=PlayerRow.deals_played + 1)
            )
            return used.rowcount == 1

    def give_back_free_deal(self, player_id: str) -> None:
        """A void deal (four passes) uses no free deal: give back the one counted at its deal."""
        with self.engine.begin() as conn:
            conn.execute(
                update(PlayerRow)
                .where(PlayerRow.id == player_id, PlayerRow.deals_played > 0)
                .values(deals_played=PlayerRow.deals_played - 1)
            )

    def free_deals_used(self, player_id: str) -> int | None:
        """The free deals the player has used; None for a player with an account (no limit)."""
        with self.session() as s:
            if s.scalar(select(AccountRow.id).where(AccountRow.player_id == player_id)) is not None:
                return None
            return s.scalar(select(PlayerRow.deals_played).where(PlayerRow.id == player_id)) or 0

    def deals_played(self, player_id: str) -> int:
        with self.session() as s:
            return s.scalar(select(PlayerRow.deals_played).where(PlayerRow.id == player_id)) or 0

    # ----- settings -----

    def secret_key(self) -> str:
        """The key that signs cookies: made once, kept in the database."""
        with self.engine.begin() as conn:  # processes starting together: the first one's key
            made = {"key": "secret_key", "value": secrets.token_urlsafe(32)}
            conn.execute(self.backend.insert_ignoring(SettingRow, ["key"]), made)
            value = conn.scalar(select(SettingRow.value).where(SettingRow.key == "secret_key"))
            assert value is not None
            return value


def result_for(
    player_finished_at: datetime | None, table_finished_at: datetime | None, result: dict[str, Any] | None
) -> dict[str, Any] | None:
    """How a table's game ended for one player: given up (``{"abandoned": true}``) when they
    had gone from it before its end (their ``table_players.finished_at`` is earlier than the
    table's, or the table goes on), else the table's ``result``."""
    if player_finished_at is not None and (table_finished_at is None or player_finished_at < table_finished_at):
        return {"abandoned": True}
    return result


def _step_data(step: Step) -> dict[str, Any] | None:
    """What a step keeps in its ``data`` column (see ``ActionRow.data``)."""
    if step.seat_data is not None:
        return step.seat_data.to_json()
    if step.other_seat is not None:
        return {"with": step.other_seat}
    if step.played_by is not None:
        return {"by": step.played_by}
    if step.par is not None:
        return {"deal": step.par[0], "par": step.par[1]}
    return None


class _Taken(Exception):
    """A step's number was taken in a group written in one statement (``append_steps``)."""


def _step_row(table_id: str, step: Step) -> dict[str, Any]:
    return {
        "table_id": table_id,
        "seq": step.seq,
        "kind": step.kind,
        "seat": step.seat,
        "action": step.action,
        "data": _step_data(step),
        "request_id": step.request_id,
        "explanation": step.explanation,
    }
