"""What the public read API (``web/public_api.py``, docs/public-api.md) reads that no page
reads the same way: anyone's finished public games, one game and its record, a past day's
whole ranking of the daily challenge, page by page.

Which games are public is decided here, once, in SQL (``public_tables``): a game over for
everyone (the table's ``finished_at``), never a friends' table (private unless its host
listed it, and the listing is gone with the game's end; a club's members-only tables are
friends' tables), never the daily challenge's (its days have their own ranking, and today's
deals are hidden), a tournament's only once the tournament is over and public (no code,
no club): every table of a round deals the same cards, and the round's page shows the
deals once the tournament is over, not before; an engine ladder's match once both its
legs (the same deals) are over. A game that is not public is answered
as one that does not exist.
"""

from __future__ import annotations

import functools
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from sqlalchemy import ColumnElement, and_, exists, func, or_, select

from ...engine.rules import RuleSet
from ..infra.database import Database
from ..infra.db import aware
from ..infra.rows.challenge import ChallengeDayRow, ChallengeStandingRow
from ..infra.rows.people import AccountRow
from ..infra.rows.tables import TablePlayerRow, TableRow
from ..infra.store import Store, result_for
from ..table.live_table import LiveTable
from ..table.spec import Step, TableSpec
from .accounts import find_account
from .bots import BotStore
from .daily.model import RankingLine
from .history import Person, finished_record, seated_by_table
from .ladder.rows import LadderMatchRow
from .player_stats import Profile, StatsStore
from .tournaments.rows import TournamentRow

RECORDS_KEPT: Final = 512
"""Finished games' records kept in memory (a finished game's record never changes)."""


def public_tables() -> ColumnElement[bool]:
    """The ``tables`` rows whose game anyone may read (see the module)."""
    t, tr, lm = TableRow, TournamentRow, LadderMatchRow
    return and_(
        t.finished_at.is_not(None),
        # neither a friends' code nor a challenge's day; one expression, which no index of
        # ``tables`` answers: SQLite would else read every table without a code through
        # ``ix_tables_code`` and sort them, not a player's range of their index
        func.coalesce(t.code, t.challenge_day).is_(None),
        or_(
            t.tournament_id.is_(None),
            exists().where(tr.id == t.tournament_id, tr.state == "finished", tr.code.is_(None), tr.club_id.is_(None)),
        ),
        # an engine ladder's match: its two legs deal the same cards, neither is shown
        # before both are over (the match's end)
        or_(
            t.ladder_match.is_(None),
            exists().where(lm.id == t.ladder_match, lm.finished_at.is_not(None)),
        ),
    )


PUBLIC: Final = public_tables()
"""``public_tables()``, built once (the queries' own compiled forms are kept by SQLAlchemy)."""


@dataclass(frozen=True)
class PublicGame:
    """A finished public game: ``result`` is the table's (``totals``, ``winner``), or for
    one player's list how it ended for them (``{"abandoned": true}`` if they left it)."""

    table_id: str
    finished_at: datetime
    profile: str
    target: int
    kind: str
    """``solo``, ``quick_play``, ``tournament`` or ``ladder``."""
    tournament: str | None
    result: dict[str, Any] | None
    people: tuple[Person, Person, Person, Person]
    seat: int | None
    """The seat of the player whose list it is in (None: the game alone)."""


def _kind(row: Any) -> str:
    if row.tournament_id is not None:
        return "tournament"
    if row.ladder_match is not None:
        return "ladder"
    return "quick_play" if row.quick_play else "solo"


_GAME_COLUMNS: Final = (
    TableRow.id,
    TableRow.finished_at.label("table_finished_at"),
    TableRow.profile,
    TableRow.options,
    TableRow.result,
    TableRow.seats,
    TableRow.quick_play,
    TableRow.tournament_id,
    TableRow.ladder_match,
)


class PublicReads:
    """The reads (blocking: run them on ``db``) and the records kept."""

    def __init__(self, store: Store, db: Database) -> None:
        self.store = store
        self.db = db
        self._bots = BotStore(store)
        self._stats = StatsStore(store)
        self._records: OrderedDict[str, dict[str, Any] | None] = OrderedDict()
        self._lock = threading.Lock()

    def player(self, name: str) -> tuple[str, Profile, str | None] | None:
        """(shown name, ratings and counters, a bot's owner) of the live account ``name``
        (any case), None if there is none: one call on the database's thread."""
        found = find_account(self.store, name)
        if found is None:
            return None
        shown, player = found
        return shown, self._stats.profile(player, history=False), self._bots.owner_of(player)

    def player_games(
        self, name: str, before: tuple[datetime, str] | None, limit: int
    ) -> tuple[str, list[PublicGame]] | None:
        """(shown name, ``games``) of the live account ``name``; None if there is none."""
        found = find_account(self.store, name)
        if found is None:
            return None
        return found[0], self.games(found[1], before, limit)

    def games(self, player: str, before: tuple[datetime, str] | None, limit: int) -> list[PublicGame]:
        """The player's finished public games finished before ``before`` (newest first, at
        most ``limit``): the history's keyset on ``ix_table_players_history``."""
        t, tp = TableRow, TablePlayerRow
        query = (
            select(*_GAME_COLUMNS, tp.finished_at)
            .select_from(tp)
            .join(t, t.id == tp.table_id)
            .where(tp.player_id == player, tp.finished_at.is_not(None), PUBLIC)
        )
        if before is not None:
            moment, table_id = before
            query = query.where(or_(tp.finished_at < moment, and_(tp.finished_at == moment, tp.table_id < table_id)))
        query = query.order_by(tp.finished_at.desc(), tp.table_id.desc()).limit(limit)
        with self.store.session() as s:
            rows = s.execute(query).all()
            seated = seated_by_table(s, [r.id for r in rows])
        out = []
        for r in rows:
            people, seat = _people(r.seats, seated.get(r.id, []), player)
            out.append(
                PublicGame(
                    r.id,
                    aware(r.finished_at),
                    r.profile,
                    _target(r.profile, r.options),
                    _kind(r),
                    r.tournament_id,
                    result_for(r.finished_at, r.table_finished_at, r.result),
                    people,
                    seat,
                )
            )
        return out

    def game(self, table_id: str) -> PublicGame | None:
        """One public game (None: no such table, or not public)."""
        with self.store.session() as s:
            row = s.execute(select(*_GAME_COLUMNS).where(TableRow.id == table_id, PUBLIC)).first()
            if row is None:
                return None
            people, _ = _people(row.seats, seated_by_table(s, [table_id]).get(table_id, []), "")
        return PublicGame(
            row.id,
            aware(row.table_finished_at),
            row.profile,
            _target(row.profile, row.options),
            _kind(row),
            row.tournament_id,
            row.result,
            people,
            None,
        )

    def kept_record(self, table_id: str) -> tuple[bool, dict[str, Any] | None]:
        """(whether it is kept, the record) of a game read before."""
        with self._lock:
            if table_id in self._records:
                self._records.move_to_end(table_id)
                return True, self._records[table_id]
        return False, None

    def record_log(self, table_id: str) -> tuple[TableSpec, list[Step]] | None:
        """A public game's table and log (blocking), None if it is not one."""
        if self.game(table_id) is None:
            return None
        return self.store.load_table(table_id)

    def keep_record(self, table_id: str, loaded: tuple[TableSpec, list[Step]] | None) -> dict[str, Any] | None:
        """The record of a public game's table and log (``history.finished_record``: its
        deals with their revealed seeds; CPU only: the game replayed), kept from then on
        (it never changes)."""
        record = None if loaded is None else finished_record(LiveTable.build(*loaded))
        with self._lock:
            self._records[table_id] = record
            while len(self._records) > RECORDS_KEPT:
                self._records.popitem(last=False)
        return record

    def challenge(
        self, day: str, start: int, limit: int
    ) -> tuple[tuple[str, str, str, bool, int], list[RankingLine]] | None:
        """A stored day and lines of its ranking (``challenge_day``, ``challenge_lines``)."""
        found = self.challenge_day(day)
        return None if found is None else (found, self.challenge_lines(day, start, limit))

    def challenge_day(self, day: str) -> tuple[str, str, str, bool, int] | None:
        """(profile, commitment, seed in hex, ranking final, players ranked) of a stored
        day, None if there is none. The caller shows the seed only of a day over."""
        with self.store.session() as s:
            row = s.get(ChallengeDayRow, day)
            if row is None:
                return None
            count = s.scalar(select(func.count()).where(ChallengeStandingRow.day == day)) or 0
            return row.profile, row.commitment, row.seed, bool(row.ranked_final), count

    def challenge_lines(self, day: str, start: int, limit: int) -> list[RankingLine]:
        """Lines ``start`` to ``start + limit - 1`` (0 the first) of the day's stored ranking,
        by position (a range, no OFFSET)."""
        c = ChallengeStandingRow
        with self.store.session() as s:
            rows = s.execute(
                select(c, AccountRow.name)
                .join(AccountRow, AccountRow.player_id == c.player_id, isouter=True)
                .where(c.day == day, c.position >= start, c.position < start + limit)
                .order_by(c.position)
            ).all()
        return [
            RankingLine(r.player_id, name, r.position, r.rank, r.average, tuple(r.percents), r.finished)
            for r, name in rows
        ]


def _target(profile: str, options: dict[str, Any]) -> int:
    """The target of a table's rules (the same few rules on every table: computed once)."""
    return _target_of(profile, json.dumps(options, sort_keys=True))


@functools.lru_cache(maxsize=256)
def _target_of(profile: str, options: str) -> int:
    return RuleSet.profile(profile, **json.loads(options)).target


def _people(
    first_seats: list[dict[str, Any]], seated: list[Any], player: str
) -> tuple[tuple[Person, Person, Person, Person], int | None]:
    """Each seat's holder as anyone may see it (``history``'s, without the names given at
    a friends' table: a guest is "a guest"): the table's first seats, then where each
    person last sat; and ``player``'s seat."""
    people = [
        Person("bot", data.get("level")) if data.get("kind") == "bot" else Person("guest") for data in first_seats
    ]
    mine = None
    for row in seated:
        if not 0 <= row.seat < 4:
            continue
        if row.player_id == player:
            mine = row.seat
        kind = "account" if row.name is not None else "deleted" if row.deleted_at is not None else "guest"
        people[row.seat] = Person(kind, row.name)
    return (people[0], people[1], people[2], people[3]), mine
