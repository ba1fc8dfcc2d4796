"""Monthly seasons of quick play (docs/seasons.md): each rules profile has a season a
month; a person's first rated game of the month places them in a division (the one they
earned last season, else from their rating then), each game adds its points, and at the
month's end the top of each division goes up and the bottom goes down
(``table.divisions``).

A game counts in the season it started in: the month is noted when quick play makes the
table (``QuickPlay.made_hooks``), with each person's rating then; its points are added
when it ends, once (a guard on the game's row, in the same transaction). A season closes
once its month is over on the server's clock and its games have ended (or ``GRACE`` has
passed): the process that inserts the season's ``season_closes`` row does the whole
change in that transaction, so on any number of processes it happens once, and a restart
mid-way leaves nothing half done. Every process looks each ``Settings.season_check_seconds``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Final, cast

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    Index,
    Integer,
    String,
    Table,
    bindparam,
    case,
    delete,
    false,
    insert,
    select,
    update,
)
from sqlalchemy.orm import Mapped, mapped_column

from ..infra.database import Database
from ..infra.db import Base
from ..infra.rows.people import AccountRow
from ..infra.store import Store
from ..live.events import GameEnded
from ..live.registry import LiveTables
from ..table.divisions import (
    POINTS,
    Standing,
    moved,
    moves,
    next_season,
    placement,
    ranked,
    season_of,
    season_start,
)
from ..table.live_table import LiveTable
from ..table.ratings import NEW_PLAYER
from .player_stats import game_plans, ratings_of

log = logging.getLogger("coinche.seasons")

GRACE: Final = timedelta(hours=3)
"""How long a season waits for its last games after its month (a game left hanging is
not waited for longer)."""
CHUNK: Final = 2000
"""Rows written per statement at a season's end."""


class SeasonGameRow(Base):
    """A quick play game and the season it started in (``counted`` once its points are in)."""

    __tablename__ = "season_games"

    table_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    season: Mapped[str] = mapped_column(String(7))
    profile: Mapped[str] = mapped_column(String(16))
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ratings: Mapped[dict[str, float]] = mapped_column(JSON)
    """Each person's rating (mu) as the game started: a newcomer's division."""
    counted: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())

    __table_args__ = (Index("ix_season_games_open", "season", "profile", "counted"),)


class SeasonPlayerRow(Base):
    """A person's season in a profile: their division, points and games."""

    __tablename__ = "season_players"

    season: Mapped[str] = mapped_column(String(7), primary_key=True)
    profile: Mapped[str] = mapped_column(String(16), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    division: Mapped[int] = mapped_column(Integer)
    points: Mapped[int] = mapped_column(Integer, default=0)
    games: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    losses: Mapped[int] = mapped_column(Integer, default=0)
    left: Mapped[int] = mapped_column(Integer, default=0)
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        Index("ix_season_players_division", "season", "profile", "division", "points"),
        Index("ix_season_players_player", "player_id"),
    )


class SeasonFinalRow(Base):
    """A person's result of a closed season: their rank in their division and whether they
    went up or down (written in bulk as the season closes; the profile's badges)."""

    __tablename__ = "season_finals"

    season: Mapped[str] = mapped_column(String(7), primary_key=True)
    profile: Mapped[str] = mapped_column(String(16), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    division: Mapped[int] = mapped_column(Integer)
    final_rank: Mapped[int] = mapped_column(Integer)
    move: Mapped[str] = mapped_column(String(4))

    __table_args__ = (Index("ix_season_finals_player", "player_id"),)


class SeasonCloseRow(Base):
    """A season closed: inserted by the one process that closes it."""

    __tablename__ = "season_closes"

    season: Mapped[str] = mapped_column(String(7), primary_key=True)
    profile: Mapped[str] = mapped_column(String(16), primary_key=True)
    closed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    players: Mapped[int] = mapped_column(Integer)
    seconds: Mapped[float] = mapped_column(Float, default=0.0)


class SeasonDivisionRow(Base):
    """The division a person earned in a profile: where their next season starts."""

    __tablename__ = "season_divisions"

    profile: Mapped[str] = mapped_column(String(16), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    division: Mapped[int] = mapped_column(Integer)
    from_season: Mapped[str] = mapped_column(String(7))


@dataclass(frozen=True)
class SeasonLine:
    """A line of a division's table."""

    rank: int
    player: str
    name: str | None
    """The account's name (None: the account was deleted)."""
    points: int
    games: int
    wins: int
    losses: int
    left: int
    zone: str
    """``up``, ``down`` or ``stay``: where the line stands today (or went, once closed)."""


@dataclass(frozen=True)
class Badge:
    """A past season's result, shown on the profile."""

    season: str
    profile: str
    division: int
    rank: int
    move: str


def _now_utc(moment: datetime) -> datetime:
    return moment.astimezone(UTC)


class SeasonStore:
    """The seasons' reads and writes (blocking: run them on ``Seasons.db``)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def started(self, table_id: str, season: str, profile: str, ratings: dict[str, float], at: datetime) -> None:
        with self.store.engine.begin() as conn:
            conn.execute(
                self.store.backend.insert_ignoring(SeasonGameRow, ["table_id"]),
                {
                    "table_id": table_id,
                    "season": season,
                    "profile": profile,
                    "started_at": at,
                    "ratings": ratings,
                    "counted": False,
                },
            )

    def count(self, table_id: str, profile: str, outcomes: dict[str, str], at: datetime) -> bool:
        """Add a finished game's points (``outcomes``: ``won``, ``lost``, ``left`` by
        person) to its season, once; False: counted already. A game whose month was not
        noted (its process stopped first) counts in the month it ended, its people placed
        from a new player's rating (none was noted) unless they earned a division."""
        backend = self.store.backend
        with self.store.engine.begin() as conn:
            game = conn.execute(select(SeasonGameRow).where(SeasonGameRow.table_id == table_id)).first()
            if game is None:  # made before its month was noted (a process stopped): its end's month
                conn.execute(
                    backend.insert_ignoring(SeasonGameRow, ["table_id"]),
                    {
                        "table_id": table_id,
                        "season": season_of(_now_utc(at)),
                        "profile": profile,
                        "started_at": at,
                        "ratings": {},
                        "counted": False,
                    },
                )
                game = conn.execute(select(SeasonGameRow).where(SeasonGameRow.table_id == table_id)).first()
                assert game is not None
            taken = conn.execute(
                update(SeasonGameRow)
                .where(SeasonGameRow.table_id == table_id, SeasonGameRow.counted.is_(False))
                .values(counted=True)
            ).rowcount
            if taken != 1:
                return False
            season, started = game.season, game.ratings or {}
            for player, outcome in outcomes.items():
                exists = conn.execute(
                    select(SeasonPlayerRow.division).where(
                        SeasonPlayerRow.season == season,
                        SeasonPlayerRow.profile == profile,
                        SeasonPlayerRow.player_id == player,
                    )
                ).first()
                if exists is None:
                    earned = conn.scalar(
                        select(SeasonDivisionRow.division).where(
                            SeasonDivisionRow.profile == profile, SeasonDivisionRow.player_id == player
                        )
                    )
                    mu = started.get(player, NEW_PLAYER.mu)
                    conn.execute(
                        backend.insert_ignoring(SeasonPlayerRow, ["season", "profile", "player_id"]),
                        {
                            "season": season,
                            "profile": profile,
                            "player_id": player,
                            "division": earned if earned is not None else placement(mu),
                            "points": 0,
                            "games": 0,
                            "wins": 0,
                            "losses": 0,
                            "left": 0,
                            "joined_at": at,
                        },
                    )
                delta = POINTS[outcome]
                r = SeasonPlayerRow
                conn.execute(
                    update(r)
                    .where(r.season == season, r.profile == profile, r.player_id == player)
                    .values(
                        points=case((r.points + delta < 0, 0), else_=r.points + delta),
                        games=r.games + 1,
                        wins=r.wins + (1 if outcome == "won" else 0),
                        losses=r.losses + (1 if outcome == "lost" else 0),
                        left=r.left + (1 if outcome == "left" else 0),
                    )
                )
        return True

    def due(self, current: str) -> list[tuple[str, str]]:
        """The seasons before ``current`` with players and not closed."""
        with self.store.session() as s:
            rows = s.execute(
                select(SeasonPlayerRow.season, SeasonPlayerRow.profile)
                .where(SeasonPlayerRow.season < current)
                .group_by(SeasonPlayerRow.season, SeasonPlayerRow.profile)
            ).all()
            closed = {(c.season, c.profile) for c in s.execute(select(SeasonCloseRow.season, SeasonCloseRow.profile))}
        return sorted((season, profile) for season, profile in rows if (season, profile) not in closed)

    def unfinished(self, season: str, profile: str) -> int:
        """The season's games not ended yet."""
        with self.store.session() as s:
            return len(
                s.scalars(
                    select(SeasonGameRow.table_id).where(
                        SeasonGameRow.season == season,
                        SeasonGameRow.profile == profile,
                        SeasonGameRow.counted.is_(False),
                    )
                ).all()
            )

    def close(self, season: str, profile: str, at: datetime) -> int | None:
        """Close a season, once across processes: rank each division, move its top up and
        its bottom down, and note where each person starts next; the players counted
        (None: closed already, by this process or another)."""
        began = datetime.now(UTC)
        backend = self.store.backend
        with self.store.engine.begin() as conn:
            claimed = conn.execute(
                backend.insert_ignoring(SeasonCloseRow, ["season", "profile"]),
                {"season": season, "profile": profile, "closed_at": at, "players": 0, "seconds": 0.0},
            ).rowcount
            if claimed != 1:
                return None
            r = SeasonPlayerRow
            rows = conn.execute(
                select(r.player_id, r.division, r.points, r.games, r.wins, r.left).where(
                    r.season == season, r.profile == profile
                )
            ).all()
            by_division: dict[int, list[Standing]] = defaultdict(list)
            for player, division, points, games, wins, left in rows:
                by_division[division].append(Standing(player, points, games, wins, left))
            finals: list[dict[str, Any]] = []
            for division, standings in by_division.items():
                decided = moves(division, standings)
                for rank, st in ranked(standings):
                    finals.append(
                        {
                            "season": season,
                            "profile": profile,
                            "player_id": st.player,
                            "division": division,
                            "final_rank": rank,
                            "move": decided[st.player],
                        }
                    )
            # set-based and bulk inserts only: a season of 100,000 players closes in seconds
            for start in range(0, len(finals), CHUNK):
                conn.execute(insert(cast(Table, SeasonFinalRow.__table__)), finals[start : start + CHUNK])
            d = cast(Table, SeasonDivisionRow.__table__)  # Core statements: no ORM bulk paths
            played = select(r.player_id).where(r.season == season, r.profile == profile)
            conn.execute(delete(d).where(d.c.profile == profile, d.c.player_id.in_(played)))
            earned = [
                {
                    "profile": profile,
                    "player_id": f["player_id"],
                    "division": moved(f["division"], f["move"]),
                    "from_season": season,
                }
                for f in finals
            ]
            for start in range(0, len(earned), CHUNK):
                conn.execute(insert(d), earned[start : start + CHUNK])
            # whoever began the next season before this one closed starts it where they earned
            following = next_season(season)
            starting = {e["player_id"]: e["division"] for e in earned}
            t = cast(Table, SeasonPlayerRow.__table__)
            begun = conn.execute(select(t.c.player_id).where(t.c.season == following, t.c.profile == profile)).scalars()
            changes = [{"p": p, "d": starting[p]} for p in begun if p in starting]
            if changes:
                fix = (
                    update(t)
                    .where(t.c.season == following, t.c.profile == profile, t.c.player_id == bindparam("p"))
                    .values(division=bindparam("d"))
                )
                conn.execute(fix, changes)
            seconds = (datetime.now(UTC) - began).total_seconds()
            conn.execute(
                update(SeasonCloseRow)
                .where(SeasonCloseRow.season == season, SeasonCloseRow.profile == profile)
                .values(players=len(rows), seconds=seconds)
            )
        return len(rows)

    # ----- reads -----

    def mine(self, player: str, season: str, profile: str) -> SeasonPlayerRow | None:
        with self.store.session() as s:
            found = s.get(SeasonPlayerRow, (season, profile, player))
            if found is not None:
                s.expunge(found)
            return found

    def earned(self, player: str, profile: str) -> int | None:
        with self.store.session() as s:
            return s.scalar(
                select(SeasonDivisionRow.division).where(
                    SeasonDivisionRow.profile == profile, SeasonDivisionRow.player_id == player
                )
            )

    def division(self, season: str, profile: str, division: int, closed: bool) -> list[SeasonLine]:
        """A division's table (its final one once the season is closed)."""
        r = SeasonPlayerRow
        with self.store.session() as s:
            rows = s.execute(
                select(
                    r.player_id,
                    r.points,
                    r.games,
                    r.wins,
                    r.losses,
                    r.left,
                    SeasonFinalRow.final_rank,
                    SeasonFinalRow.move,
                    AccountRow.name,
                )
                .outerjoin(AccountRow, AccountRow.player_id == r.player_id)
                .outerjoin(
                    SeasonFinalRow,
                    (SeasonFinalRow.season == r.season)
                    & (SeasonFinalRow.profile == r.profile)
                    & (SeasonFinalRow.player_id == r.player_id),
                )
                .where(r.season == season, r.profile == profile, r.division == division)
            ).all()
        standings = [Standing(x.player_id, x.points, x.games, x.wins, x.left) for x in rows]
        by_player = {x.player_id: x for x in rows}
        today = moves(division, standings)
        lines = []
        for rank, st in ranked(standings):
            x = by_player[st.player]
            lines.append(
                SeasonLine(
                    x.final_rank if closed and x.final_rank is not None else rank,
                    st.player,
                    x.name,
                    x.points,
                    x.games,
                    x.wins,
                    x.losses,
                    x.left,
                    (x.move if closed and x.move else today[st.player]),
                )
            )
        return lines

    def badges(self, player: str) -> list[Badge]:
        """The person's closed seasons, the latest first."""
        f = SeasonFinalRow
        with self.store.session() as s:
            rows = s.execute(
                select(f.season, f.profile, f.division, f.final_rank, f.move)
                .where(f.player_id == player)
                .order_by(f.season.desc(), f.profile)
            ).all()
        return [Badge(x.season, x.profile, x.division, x.final_rank, x.move) for x in rows]

    def closed(self, season: str, profile: str) -> bool:
        with self.store.session() as s:
            return s.get(SeasonCloseRow, (season, profile)) is not None


class Seasons:
    """Notes each quick play game's month, adds its points as it ends, closes the seasons
    due (see the module)."""

    def __init__(
        self, store: SeasonStore, db: Database, registry: LiveTables, clock: Callable[[], datetime], every: float
    ) -> None:
        self.store = store
        self.db = db
        self.clock = clock
        self.every = every
        self._runner: asyncio.Task[None] | None = None
        registry.on(GameEnded, self._game_ended)

    def start(self) -> None:
        """Look for seasons to close for the application's lifetime."""
        self._runner = asyncio.get_running_loop().create_task(self._run())

    async def close(self) -> None:
        if self._runner is not None:
            self._runner.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._runner

    async def _run(self) -> None:
        while True:
            try:
                await self.tick()
            except Exception:  # a database hiccup: the next look tries again
                log.exception("closing the seasons failed")
            await asyncio.sleep(self.every)

    async def made(self, live: LiveTable) -> None:
        """A quick play table made: its game counts in this month's season."""
        if not live.spec.kind.seasonal:
            return
        people = [s.player for s in live.seats if s.kind == "human" and s.player is not None]
        found = await self.db(ratings_of, self.store.store, people)
        ratings = {p: found.get(p, NEW_PLAYER).mu for p in people}
        moment = self.clock()
        await self.db(self.store.started, live.id, season_of(_now_utc(moment)), live.spec.rules.name, ratings, moment)

    async def _game_ended(self, event: GameEnded) -> None:
        live = event.table
        if not (live.spec.kind.seasonal and live.spec.kind.rated):
            return
        outcomes: dict[str, str] = {}
        for plan in game_plans(live):
            for _, player in plan.persons():
                if plan.only is not None and player not in plan.only:
                    continue
                outcomes[player] = "left" if player in plan.left else "won" if plan.outcome(player) else "lost"
        if outcomes:
            await self.db(self.store.count, live.id, live.spec.rules.name, outcomes, self.clock())

    async def tick(self) -> list[tuple[str, str, int]]:
        """Close every season due now (its month over, its games ended or ``GRACE`` past);
        the seasons this process closed, with their players."""
        moment = _now_utc(self.clock())
        done = []
        for season, profile in await self.db(self.store.due, season_of(moment)):
            over = season_start(next_season(season), UTC)
            if moment < over + GRACE:
                waiting: int = await self.db(self.store.unfinished, season, profile)
                if waiting:
                    continue
            counted = await self.db(self.store.close, season, profile, moment)
            if counted is not None:
                log.info("season %s of %s closed: %d players", season, profile, counted)
                done.append((season, profile, counted))
        return done

    # ----- what the pages read -----

    def current(self) -> str:
        return season_of(_now_utc(self.clock()))

    def days_left(self) -> int:
        moment = _now_utc(self.clock())
        end = season_start(next_season(season_of(moment)), UTC)
        return max(0, (end - moment).days + (1 if (end - moment).seconds else 0))

    async def mine(self, player: str, season: str, profile: str) -> SeasonPlayerRow | None:
        return await self.db(self.store.mine, player, season, profile)

    async def earned(self, player: str, profile: str) -> int | None:
        return await self.db(self.store.earned, player, profile)

    async def division(self, season: str, profile: str, division: int) -> list[SeasonLine]:
        closed = await self.db(self.store.closed, season, profile)
        return await self.db(self.store.division, season, profile, division, closed)

    async def rating(self, player: str) -> float:
        """The person's rating (mu) now: where a newcomer would start."""
        found = await self.db(ratings_of, self.store.store, [player])
        return found.get(player, NEW_PLAYER).mu

    async def badges(self, player: str) -> list[Badge]:
        return await self.db(self.store.badges, player)
