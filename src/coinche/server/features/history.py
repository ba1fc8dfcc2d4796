"""A player's history (issue 18): their finished games, newest first, and each game's deals.

Listing never replays a table's log: a listener of the tables' commits writes one row
of ``finished_deals`` per finished deal of any table (``deal_result``, the daily
challenge's own figures), and the list reads ``tables``, ``table_players`` and those rows.
The listener's insert ignores a row already there: the registry tells it again of a
finished deal whose bookkeeping was not booked (a crash in between) when the table is read
from the database.

The list is paged by keyset, never by OFFSET: a page is the 50 games finished before a
cursor ``(finished_at, table_id)``, the last row of the page before: a range of the index
``ix_table_players_history`` (``player_id, finished_at, table_id``; ``finished_at`` is
the table's, copied there when the game ends).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from sqlalchemy import and_, exists, or_, select
from sqlalchemy.orm import Session

from ...engine.record import game_record
from ...engine.rules import RuleSet
from ..infra.database import Database
from ..infra.db import aware, now
from ..infra.rows.people import AccountRow, PlayerRow
from ..infra.rows.tables import FinishedDealRow, TablePlayerRow, TableRow
from ..infra.store import Store, result_for
from ..live.events import DealEnded
from ..live.registry import LiveTables
from ..table.fair_deals import dealing_info
from ..table.live_table import LiveTable
from ..table.spec import Seat
from .review import deal_result

PAGE_SIZE: Final = 50
TABLE_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,16}")
CURSOR: Final = re.compile(r"([0-9]{1,16})\.([A-Za-z0-9_-]{1,16})")
"""A page's cursor in an address: microseconds since 1970 (UTC), a dot, a table id."""
EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class Person:
    """Who held a seat, as the history names them: ``kind`` is ``account`` (``name``),
    ``deleted`` (a deleted account), ``guest`` (``name``: the name given at a friends'
    table, or None) or ``bot`` (``name``: its level)."""

    kind: str
    name: str | None = None


@dataclass(frozen=True)
class HistoryGame:
    """A finished game in a player's history."""

    table_id: str
    finished_at: datetime
    profile: str
    target: int
    seat: int
    """The player's seat (their last one)."""
    result: dict[str, Any] | None
    people: tuple[Person, Person, Person, Person]
    challenge: str | None


@dataclass(frozen=True)
class FinishedDeal:
    """A finished deal of a table, as ``finished_deals`` keeps it."""

    deal: int
    dealer: int
    contract: str | None
    taker: int | None
    made: bool | None
    score: tuple[int, int]


def cursor_of(game: HistoryGame) -> str:
    """The address form of the cursor after ``game`` (the next page starts below it)."""
    micros = (aware(game.finished_at) - EPOCH) // timedelta(microseconds=1)  # exact: no float on the way
    return f"{micros}.{game.table_id}"


def parse_cursor(text: str) -> tuple[datetime, str] | None:
    """``(finished_at, table_id)`` of an address's cursor; None if it is not one (the
    caller answers 400)."""
    found = CURSOR.fullmatch(text)
    if found is None:
        return None
    try:
        moment = EPOCH + timedelta(microseconds=int(found[1]))
    except OverflowError:
        return None
    return moment, found[2]


def finished_record(live: LiveTable) -> dict[str, Any] | None:
    """The record of a table's game as its players may have it (RECORD.md): its finished
    deals only (an unfinished one would show hidden cards), each with its commitment and
    revealed seed (``coinche verify`` checks them), never the table's seed (it would deal the
    deals still to come), the table's id as an extra key; None when no deal is finished.
    The one way a game's record leaves the site: its page's download and the person's
    archive (``personal_data``)."""
    record = game_record(live.game)
    record.pop("seed", None)
    finished = []
    for n, (d, deal) in enumerate(zip(record["deals"], live.game.deals, strict=True), start=1):
        if not deal.is_over:
            continue
        dealing = dealing_info(live.spec, live.game, n)
        if dealing is not None:
            d["dealing"] = dealing.to_json()  # the deal is over: its seed is revealed
        finished.append(d)
    if not finished:
        return None
    record["deals"] = finished
    record["table"] = live.id  # extra key: kept for information
    return record


class HistoryStore:
    """The history's reads and the listener's write (blocking: run them on ``service.db``)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def record_deal(self, table_id: str, deal: int, dealer: int, result: dict[str, Any]) -> None:
        """Keep a finished deal (nothing if it is already there)."""
        with self.store.engine.begin() as conn:
            conn.execute(
                self.store.backend.insert_ignoring(FinishedDealRow, ["table_id", "deal"]),
                {
                    "table_id": table_id,
                    "deal": deal,
                    "finished_at": now(),
                    "dealer": dealer,
                    "contract": result["contract"],
                    "taker": result["taker"],
                    "made": result["made"],
                    "score": result["deal_score"],
                },
            )

    def games(
        self, player: str, before: tuple[datetime, str] | None = None, limit: int = PAGE_SIZE
    ) -> list[HistoryGame]:
        """The player's finished games finished before ``before`` (newest first), at most
        ``limit``, each with the names of its seats."""
        t, tp = TableRow, TablePlayerRow
        query = (
            select(
                t.id,
                tp.finished_at,
                t.finished_at.label("table_finished_at"),
                t.profile,
                t.options,
                t.result,
                t.seats,
                t.challenge_day,
            )
            .select_from(tp)
            .join(t, t.id == tp.table_id)
            .where(tp.player_id == player, tp.finished_at.is_not(None))
        )
        if before is not None:
            moment, table_id = before
            query = query.where(or_(tp.finished_at < moment, and_(tp.finished_at == moment, tp.table_id < table_id)))
        query = query.order_by(tp.finished_at.desc(), tp.table_id.desc()).limit(limit)
        with self.store.session() as s:
            rows = s.execute(query).all()
            by_table = seated_by_table(s, [r.id for r in rows])
        games = []
        for r in rows:
            people, seat = _people(r.seats, by_table.get(r.id, []), player)
            games.append(
                HistoryGame(
                    r.id,
                    r.finished_at,
                    r.profile,
                    RuleSet.profile(r.profile, **r.options).target,
                    seat,
                    result_for(r.finished_at, r.table_finished_at, r.result),
                    people,
                    r.challenge_day,
                )
            )
        return games

    def game(self, player: str, table_id: str) -> HistoryGame | None:
        """One game of the player's history: None if they never sat at that table."""
        t, tp = TableRow, TablePlayerRow
        with self.store.session() as s:
            row = s.execute(
                select(
                    t.id,
                    t.finished_at,
                    t.created_at,
                    t.profile,
                    t.options,
                    t.result,
                    t.seats,
                    t.challenge_day,
                    select(tp.finished_at)
                    .where(tp.table_id == t.id, tp.player_id == player)
                    .scalar_subquery()
                    .label("player_finished_at"),
                )
                .where(t.id == table_id)
                .where(exists().where(tp.table_id == t.id, tp.player_id == player))
            ).first()
            if row is None:
                return None
            seated = s.execute(
                select(tp.table_id, tp.player_id, tp.seat, AccountRow.name, PlayerRow.deleted_at)
                .outerjoin(AccountRow, AccountRow.player_id == tp.player_id)
                .outerjoin(PlayerRow, PlayerRow.id == tp.player_id)
                .where(tp.table_id == table_id)
            ).all()
        people, seat = _people(row.seats, list(seated), player)
        return HistoryGame(
            row.id,
            row.finished_at or row.created_at,
            row.profile,
            RuleSet.profile(row.profile, **row.options).target,
            seat,
            result_for(row.player_finished_at, row.finished_at, row.result if row.finished_at is not None else None),
            people,
            row.challenge_day,
        )

    def deals(self, table_id: str) -> list[FinishedDeal]:
        """The table's finished deals, in order."""
        d = FinishedDealRow
        with self.store.session() as s:
            rows = s.execute(
                select(d.deal, d.dealer, d.contract, d.taker, d.made, d.score)
                .where(d.table_id == table_id)
                .order_by(d.deal)
            ).all()
        return [FinishedDeal(r.deal, r.dealer, r.contract, r.taker, r.made, (r.score[0], r.score[1])) for r in rows]


def _people(
    first_seats: list[dict[str, Any]], seated: list[Any], player: str
) -> tuple[tuple[Person, Person, Person, Person], int]:
    """Each seat's holder (the table's first seats, then where each person last sat), and
    the player's seat."""
    people: list[Person] = []
    for data in first_seats:
        seat = Seat.from_json(data)
        people.append(Person("bot", seat.level) if seat.kind == "bot" else Person("guest", seat.name))
    names = {Seat.from_json(data).player: Seat.from_json(data).name for data in first_seats}
    mine = 0
    for row in seated:
        if not 0 <= row.seat < 4:
            continue
        if row.player_id == player:
            mine = row.seat
        if row.name is not None:
            people[row.seat] = Person("account", row.name)
        elif row.deleted_at is not None:
            people[row.seat] = Person("deleted")
        else:
            people[row.seat] = Person("guest", names.get(row.player_id))
    return (people[0], people[1], people[2], people[3]), mine


class History:
    """The history: it listens to the tables' commits and keeps every
    finished deal."""

    def __init__(self, store: HistoryStore, db: Database, registry: LiveTables) -> None:
        self.store = store
        self.db = db
        registry.on(DealEnded, self._deal_ended)

    async def _deal_ended(self, event: DealEnded) -> None:
        live, number = event.table, event.number
        deal = live.game.deals[number - 1]
        await self.db(self.store.record_deal, live.id, number, deal.dealer, deal_result(live, number))

    async def games(self, player: str, before: tuple[datetime, str] | None = None) -> list[HistoryGame]:
        return await self.db(self.store.games, player, before)

    async def game(self, player: str, table_id: str) -> HistoryGame | None:
        return await self.db(self.store.game, player, table_id)

    async def deals(self, table_id: str) -> list[FinishedDeal]:
        return await self.db(self.store.deals, table_id)


def seated_by_table(s: Session, ids: list[str]) -> dict[str, list[Any]]:
    """Each table's seats as held (``table_players``), with the account's name and whether
    the player was deleted: how a list of finished games names its people."""
    tp = TablePlayerRow
    rows = (
        s.execute(
            select(tp.table_id, tp.player_id, tp.seat, AccountRow.name, PlayerRow.deleted_at)
            .outerjoin(AccountRow, AccountRow.player_id == tp.player_id)
            .outerjoin(PlayerRow, PlayerRow.id == tp.player_id)
            .where(tp.table_id.in_(ids))
        ).all()
        if ids
        else []
    )
    by_table: dict[str, list[Any]] = {}
    for row in rows:
        by_table.setdefault(row.table_id, []).append(row)
    return by_table
