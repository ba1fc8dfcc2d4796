"""The engine ladder's rows (blocking calls: run them with ``Database``).

Pairing is done under one database lock (``ladder-pairing``): with several servers, one
pairs at a time and the next reads the matches the first wrote (each bot's matches still
running count), so nobody is paired beyond its limit twice over. A match's row names its
two tables before they exist: a process that dies between the two leaves a match whose
tables any process makes later (``unmade``). A table's end is booked once (its leg's
column is written only while empty): an end told again books nothing."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, or_, select, update
from sqlalchemy.orm import Session

from ...infra.db import aware
from ...infra.rows.people import AccountRow, OnlineRow
from ...infra.rows.tables import TableRow
from ...infra.store import Store, new_id
from ...table.ladder_pairing import NEW_ENGINE, Candidate, faults_in, match_score, pair, rate_match
from ...table.ratings import LevelRatings, Rating
from .rows import LadderEngineRow, LadderMatchRow

_OWNER = AccountRow.__table__.alias("ladder_owner")


@dataclass(frozen=True)
class Match:
    """A match as the tables are made from it (see ``LadderMatchRow``)."""

    id: str
    profile: str
    secret: bytes
    first: str
    second: str | None
    anchor: str | None
    first_table: str
    second_table: str

    @property
    def seed(self) -> int:
        """Both tables' seed (the computers' decisions), from the match's secret."""
        return int.from_bytes(hashlib.sha256(b"coinche-ladder" + self.secret).digest()[:8], "big") >> 2

    @property
    def first_dealer(self) -> int:
        return self.secret[0] % 4


@dataclass(frozen=True)
class Engine:
    """A bot's place at the ladder as its owner's page shows it."""

    opted_in: bool
    paused: bool


@dataclass(frozen=True)
class LadderLine:
    """A line of the ladder page."""

    name: str
    owner: str
    rating: Rating
    matches: int
    won: int
    drawn: int
    decisions: int
    faults: int
    opted_in: bool
    paused: bool

    @property
    def faults_per_100(self) -> float:
        return 100.0 * self.faults / self.decisions if self.decisions else 0.0


@dataclass(frozen=True)
class Booked:
    """What a table's end changed: the bots paused by it (their players) and whether it
    ended the match."""

    paused: tuple[str, ...]
    finished: bool


def _match(row: LadderMatchRow) -> Match:
    return Match(
        row.id,
        row.profile,
        row.secret,
        row.first_id,
        row.second_id,
        row.anchor,
        row.first_table,
        row.second_table,
    )


class LadderStore:
    """The ladder's rows (see the module)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def _bot_player(self, s: Session, owner_id: str, bot_id: str) -> str | None:
        return s.scalar(
            select(AccountRow.player_id).where(AccountRow.id == bot_id, AccountRow.bot_owner_id == owner_id)
        )

    def _engine(self, s: Session, player: str) -> LadderEngineRow:
        row = s.get(LadderEngineRow, player)
        if row is None:
            row = LadderEngineRow(
                player_id=player,
                opted_in=False,
                mu=NEW_ENGINE.mu,
                sigma=NEW_ENGINE.sigma,
                matches=0,
                won=0,
                drawn=0,
                decisions=0,
                faults=0,
                recent="",
            )
            s.add(row)
        return row

    def opt(self, owner_id: str, bot_id: str, opted_in: bool) -> bool:
        """The owner puts their bot on the ladder or takes it off (False: not their bot)."""
        with self.store.session() as s, s.begin():
            player = self._bot_player(s, owner_id, bot_id)
            if player is None:
                return False
            self._engine(s, player).opted_in = opted_in
            return True

    def resume(self, owner_id: str, bot_id: str) -> bool:
        """The owner resumes their paused bot: its recent faults are forgiven (False: not
        their bot)."""
        with self.store.session() as s, s.begin():
            player = self._bot_player(s, owner_id, bot_id)
            if player is None:
                return False
            row = self._engine(s, player)
            row.paused_at = None
            row.recent = ""
            return True

    def engines(self, players: Sequence[str]) -> dict[str, Engine]:
        """The ladder's state of each of ``players`` that has one."""
        with self.store.session() as s:
            rows = s.scalars(select(LadderEngineRow).where(LadderEngineRow.player_id.in_(list(players))))
            return {r.player_id: Engine(r.opted_in, r.paused_at is not None) for r in rows}

    def claim_pairings(
        self, at: datetime, online_since: datetime, per_bot: int, profile: str, levels: LevelRatings
    ) -> list[Match]:
        """Pair the bots that may play now (opted in, not paused, online since
        ``online_since``, fewer than ``per_bot`` matches running) and write their matches
        (see the module): the matches whose tables are to be made."""
        with self.store.session() as s, s.begin():
            self.store.backend.lock(s, "ladder-pairing")
            running = (
                select(func.count())
                .select_from(LadderMatchRow)
                .where(
                    LadderMatchRow.finished_at.is_(None),
                    or_(
                        LadderMatchRow.first_id == LadderEngineRow.player_id,
                        LadderMatchRow.second_id == LadderEngineRow.player_id,
                    ),
                )
                .scalar_subquery()
            )
            rows = s.scalars(
                select(LadderEngineRow)
                .join(OnlineRow, OnlineRow.player_id == LadderEngineRow.player_id)
                .where(
                    LadderEngineRow.opted_in.is_(True),
                    LadderEngineRow.paused_at.is_(None),
                    OnlineRow.seen_at >= online_since,
                    running < per_bot,
                )
            ).all()
            by_player = {r.player_id: r for r in rows}
            candidates = [Candidate(r.player_id, Rating(r.mu, r.sigma), r.last_opponent) for r in rows]
            made = []
            for pairing in pair(candidates, levels):
                match = Match(
                    new_id(),
                    profile,
                    secrets.token_bytes(32),
                    pairing.first,
                    pairing.second,
                    pairing.anchor,
                    new_id(),
                    new_id(),
                )
                s.add(
                    LadderMatchRow(
                        id=match.id,
                        created_at=at,
                        profile=profile,
                        secret=match.secret,
                        first_id=match.first,
                        second_id=match.second,
                        anchor=match.anchor,
                        first_table=match.first_table,
                        second_table=match.second_table,
                    )
                )
                by_player[match.first].last_opponent = match.second
                if match.second is not None:
                    by_player[match.second].last_opponent = match.first
                made.append(match)
            return made

    def unmade(self, older_than: datetime) -> list[Match]:
        """Matches written before ``older_than`` whose tables were never made (the process
        died in between)."""
        with self.store.session() as s:
            rows = s.scalars(
                select(LadderMatchRow)
                .outerjoin(TableRow, TableRow.id == LadderMatchRow.second_table)
                .where(
                    LadderMatchRow.finished_at.is_(None),
                    LadderMatchRow.created_at < older_than,
                    TableRow.id.is_(None),
                )
            )
            return [_match(r) for r in rows]

    def running(self) -> list[Match]:
        """The matches whose tables still play."""
        with self.store.session() as s:
            return [_match(r) for r in s.scalars(select(LadderMatchRow).where(LadderMatchRow.finished_at.is_(None)))]

    def match(self, match_id: str) -> Match | None:
        with self.store.session() as s:
            row = s.get(LadderMatchRow, match_id)
            return None if row is None else _match(row)

    def book_table(
        self,
        match_id: str,
        table_id: str,
        difference: int,
        decisions: dict[str, str],
        at: datetime,
        levels: LevelRatings,
        fault_limit: int,
        window: int,
    ) -> Booked | None:
        """A table of the match ended with ``difference`` (the first bot's side's points
        minus the other's) and each bot's ``decisions`` there (``1`` a fault, ``0`` its own
        move): its faults counted, a bot over ``fault_limit`` in its last ``window``
        decisions paused, and when both tables ended the match's result and the ratings
        (an anchor's stays fixed). None: booked already (or no such table)."""
        with self.store.session() as s, s.begin():
            row = s.get(LadderMatchRow, match_id)
            if row is None:
                return None
            column = (
                LadderMatchRow.first_leg
                if table_id == row.first_table
                else LadderMatchRow.second_leg
                if table_id == row.second_table
                else None
            )
            if column is None:
                return None
            done = s.execute(
                update(LadderMatchRow)
                .where(LadderMatchRow.id == match_id, column.is_(None))
                .values({column: difference})
                .execution_options(synchronize_session=False)
            )
            if not done.rowcount:  # type: ignore[attr-defined]
                return None
            s.refresh(row)
            paused = []
            for player, moves in decisions.items():
                engine = self._engine(s, player)
                engine.decisions += len(moves)
                engine.faults += moves.count("1")
                engine.recent = (engine.recent + moves)[-window:]
                if engine.paused_at is None and faults_in(engine.recent, window) >= fault_limit:
                    engine.paused_at = at
                    paused.append(player)
            finished = row.first_leg is not None and row.second_leg is not None
            if finished:
                assert row.first_leg is not None and row.second_leg is not None
                score = match_score(row.first_leg, row.second_leg)
                row.score, row.finished_at = score, at
                first = self._engine(s, row.first_id)
                second = self._engine(s, row.second_id) if row.second_id is not None else None
                other = Rating(second.mu, second.sigma) if second is not None else levels.of(row.anchor or "expert")
                new_first, new_other = rate_match(Rating(first.mu, first.sigma), other, score)
                first.mu, first.sigma = new_first.mu, new_first.sigma
                _count(first, score)
                if second is not None:
                    second.mu, second.sigma = new_other.mu, new_other.sigma
                    _count(second, 1.0 - score)
            return Booked(tuple(paused), finished)

    def owner_address(self, player: str) -> tuple[str, str | None] | None:
        """A bot's name and its owner's confirmed address (None: no address), None: no
        such bot."""
        with self.store.session() as s:
            found = s.execute(
                select(AccountRow.name, _OWNER.c.email)
                .join(_OWNER, _OWNER.c.id == AccountRow.bot_owner_id)
                .where(AccountRow.player_id == player)
            ).first()
            return None if found is None else (found[0], found[1])

    def standings(self) -> list[LadderLine]:
        """Every engine that played a match or is opted in, the best first (the lower end of
        its interval: a lucky start does not top the ladder)."""
        with self.store.session() as s:
            rows = s.execute(
                select(LadderEngineRow, AccountRow.name, _OWNER.c.name)
                .join(AccountRow, AccountRow.player_id == LadderEngineRow.player_id)
                .join(_OWNER, _OWNER.c.id == AccountRow.bot_owner_id)
                .where(or_(LadderEngineRow.matches > 0, LadderEngineRow.opted_in.is_(True)))
            ).all()
            lines = [
                LadderLine(
                    name,
                    owner,
                    Rating(e.mu, e.sigma),
                    e.matches,
                    e.won,
                    e.drawn,
                    e.decisions,
                    e.faults,
                    e.opted_in,
                    e.paused_at is not None,
                )
                for e, name, owner in rows
            ]
        return sorted(lines, key=lambda line: (-(line.rating.mu - 1.96 * line.rating.sigma), line.name))

    def finished_at(self, match_id: str) -> datetime | None:
        with self.store.session() as s:
            moment = s.scalar(select(LadderMatchRow.finished_at).where(LadderMatchRow.id == match_id))
            return None if moment is None else aware(moment)


def _count(engine: LadderEngineRow, score: float) -> None:
    engine.matches += 1
    if score == 1.0:
        engine.won += 1
    elif score == 0.5:
        engine.drawn += 1
