"""Quick play's queue in the database: who waits, for which rules, and where a wave seated
them (issue 29; the matching itself is ``table/matchmaking.py``).

Whatever two processes must agree on is here: a person's wait is one row (joining twice,
from two tabs, keeps the first row and its place); a wave claims the waiting rows it reads
(``FOR UPDATE SKIP LOCKED`` on PostgreSQL: a second process's wave at the same moment
skips them and seats nobody twice; SQLite has one writer at a time) and writes each
seated person's new table id in the same transaction, before the table exists: a process
that dies between the two leaves rows naming a table the next wave makes
(``unmade``), never a person seated twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, or_, select, update
from sqlalchemy.orm import Session

from ..infra.db import BlockRow, QuickWaitRow, TableRow, aware, now
from ..infra.store import Store, _insert_ignoring_conflicts, new_id
from ..table.matchmaking import Blocks, Match, Waiting, wave
from ..table.ratings import LevelRatings, PlayerId, Rating


@dataclass(frozen=True)
class Wait:
    """A person's row: waiting (``table_id`` None) or seated at ``table_id`` by a wave."""

    player: PlayerId
    rules: str | None
    rating: Rating
    since: datetime
    deadline: datetime
    table_id: str | None

    def seconds_left(self, at: datetime) -> float:
        return max(0.0, (self.deadline - at).total_seconds())


def _wait_of(row: QuickWaitRow) -> Wait:
    return Wait(
        row.player_id, row.rules, Rating(row.mu, row.sigma), aware(row.since), aware(row.deadline), row.table_id
    )


class QuickPlayStore:
    """The queue's rows (see the module)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def join(self, player: PlayerId, rules: str | None, rating: Rating, wait: float, at: datetime) -> Wait:
        """``player`` waits for ``rules`` (None: any) from ``at``, the computers taking the
        free seats ``wait`` seconds later. Already waiting: the same wait, its place kept
        (a second press, a second tab); the rules chosen last count. Seated before: a new
        wait (the caller checks that their last game is over)."""
        engine = self.store.engine
        with self.store.session() as s, s.begin():
            s.execute(
                _insert_ignoring_conflicts(engine, QuickWaitRow, ["player_id"]),
                {
                    "player_id": player,
                    "rules": rules,
                    "mu": rating.mu,
                    "sigma": rating.sigma,
                    "since": at,
                    "deadline": at + timedelta(seconds=wait),
                },
            )
            row = s.execute(select(QuickWaitRow).where(QuickWaitRow.player_id == player)).scalar_one()
            row.rules = rules
            if row.table_id is not None:  # seated before: wait anew
                row.mu, row.sigma = rating.mu, rating.sigma
                row.since, row.deadline = at, at + timedelta(seconds=wait)
                row.table_id = row.seated_at = None
            s.flush()
            return _wait_of(row)

    def leave(self, player: PlayerId) -> bool:
        """``player`` leaves the queue; False when they were not waiting (seated already:
        the table is theirs)."""
        with self.store.engine.begin() as conn:
            gone = conn.execute(
                delete(QuickWaitRow)
                .where(QuickWaitRow.player_id == player, QuickWaitRow.table_id.is_(None))
                .execution_options(preserve_rowcount=True)
            )
            return bool(gone.rowcount)

    def status(self, player: PlayerId) -> Wait | None:
        with self.store.session() as s:
            row = s.get(QuickWaitRow, player)
            return _wait_of(row) if row is not None else None

    def block(self, player: PlayerId, blocked: PlayerId) -> None:
        """``player`` blocks ``blocked`` (again: nothing changes)."""
        engine = self.store.engine
        with engine.begin() as conn:
            conn.execute(
                _insert_ignoring_conflicts(engine, BlockRow, ["player_id", "blocked_id"]),
                {"player_id": player, "blocked_id": blocked, "created_at": now()},
            )

    def claim_wave(self, at: datetime, levels: LevelRatings) -> list[tuple[str, Match]]:
        """Run one wave on the waiting rows this process can lock: the tables to make, each
        with the id its people's rows now name (see the module)."""
        with self.store.session() as s, s.begin():
            rows = (
                s.execute(
                    select(QuickWaitRow)
                    .where(QuickWaitRow.table_id.is_(None))
                    .order_by(QuickWaitRow.since)
                    .with_for_update(skip_locked=True)
                )
                .scalars()
                .all()
            )
            if not rows:
                return []
            waits = [_wait_of(r) for r in rows]
            queue = [Waiting(w.player, w.rules, w.rating, w.since.timestamp(), w.deadline.timestamp()) for w in waits]
            matches = wave(queue, at.timestamp(), levels, _blocks(s, [w.player for w in waits]))
            made = []
            for match in matches:
                table_id = new_id()
                claimed = s.execute(
                    update(QuickWaitRow)
                    .where(QuickWaitRow.player_id.in_(match.players), QuickWaitRow.table_id.is_(None))
                    .values(table_id=table_id, seated_at=at)
                    .execution_options(synchronize_session=False)
                )
                if claimed.rowcount != len(match.players):  # type: ignore[attr-defined]
                    # Another wave seated one of them since this one read the queue (SQLite
                    # locks no row it reads): this table is not made, the others wait on.
                    s.execute(
                        update(QuickWaitRow)
                        .where(QuickWaitRow.table_id == table_id)
                        .values(table_id=None, seated_at=None)
                        .execution_options(synchronize_session=False)
                    )
                    continue
                made.append((table_id, match))
            return made

    def unmade(self, older_than: datetime) -> list[tuple[str, list[Wait]]]:
        """Tables a wave claimed people for before ``older_than`` that were never made (the
        process died in between): their ids and people."""
        with self.store.session() as s:
            rows = s.execute(
                select(QuickWaitRow)
                .outerjoin(TableRow, TableRow.id == QuickWaitRow.table_id)
                .where(QuickWaitRow.table_id.is_not(None), QuickWaitRow.seated_at < older_than, TableRow.id.is_(None))
            ).scalars()
            found: dict[str, list[Wait]] = {}
            for row in rows:
                found.setdefault(row.table_id or "", []).append(_wait_of(row))
            return sorted(found.items())


def _blocks(s: Session, players: Sequence[PlayerId]) -> Blocks:
    """The blocked pairs among ``players``."""
    found: set[frozenset[PlayerId]] = set()
    for start in range(0, len(players), 500):
        chunk = list(players[start : start + 500])
        rows = s.execute(
            select(BlockRow.player_id, BlockRow.blocked_id).where(
                or_(BlockRow.player_id.in_(chunk), BlockRow.blocked_id.in_(chunk))
            )
        )
        found.update(frozenset((a, b)) for a, b in rows)
    return found
