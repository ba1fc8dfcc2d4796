"""The daily challenge ("le défi du jour"): four deals a day, the same for every player,
and computers whose moves depend on the deal and the player's own actions only. No HTTP
here: the pages call ``DailyChallenge``.

**The day.** A day is a UTC calendar day, ``YYYY-MM-DD``: it starts at 00:00:00 UTC and
ends at the next 00:00:00 UTC (``day_of``, ``day_end``). Each day has a row of
``challenge_days``: its rules profile (``Settings.challenge_profile`` when the row is
made), a random 32-byte seed, and its commitment

    commitment(day) = hex(SHA256("coinche-challenge-v1" || u8(0) || ascii(day) || u8(0) || seed))

(``day`` the 10 ASCII bytes ``YYYY-MM-DD``, ``seed`` the 32 raw bytes). ``ensure_day``
makes the day's row and the next day's, so tomorrow's commitment is shown before tomorrow
starts; two processes racing to make a row are settled by its primary key (the loser's
random seed is dropped, both read the winner's). The seed is secret until the day is over
(``revealed_seed``).

**The deals.** Every challenge table of a day deals as a dealing-v2 table (docs/dealing.md)
whose secret is the day's seed and whose table id is ``defi-YYYY-MM-DD`` (the label, not
the table's own id): deal ``n`` (1..4) has the seed ``HMAC-SHA256(day seed,
label("defi-YYYY-MM-DD", n))``, its commitment is shown before its auction, and once the
day's seed is revealed anyone can recompute everything (``coinche verify`` checks a
deal's record: its ``dealing.table`` is ``defi-YYYY-MM-DD``). The dealers are fixed: West
(seat 3) deals the first deal, then South, North's right... in turn (seats 3, 0, 1, 2), so
South speaks first in deal 1. The game ends after the fourth deal whatever the scores
(``TableSpec.max_deals``), and a void deal (four passes) is one of the four.

**The computers.** The player sits South (seat 0); West, North and East are computers of
``Settings.challenge_level`` (the expert on the site). ``TableService.decision_seed`` is a
function of the table's seed, the step number and the seat; a challenge table's seed is
``HMAC-SHA256(day seed, "coinche-challenge-decisions")`` (its first 62 bits), the same at
every table of the day; the step number counts the table's steps, which are the same for
two players who make the same calls, play the same cards and ask for the next deal alike.
So the computers' moves are a function of the deal and the player's actions, whichever
process computes them. (What breaks it: a computer standing in for an absent or idle
player, whose seat changes are steps of the log; a computer that fails and plays its first
legal action.)

**Attempts.** ``start`` gives a player their table of the day: one row of
``challenge_attempts`` per (day, player), unique, made with the table; a second start
returns the same table (resumable after a disconnection or a restart: it is an ordinary
table, rebuilt from its log); once the four deals are over it is refused
(``TableError("challenge_done")``). A guest may play: its deals use none of its free deals
(``TableSpec.uses_free_deals``), and its results are stored flagged ``guest``, outside the
ranking.

**Results.** When a deal of a challenge table ends, ``TableService`` calls its
``deal_over_hooks`` (this module's ``_record``) from the write that stored the deal's last
action; the insert ignores a result already there, and a table read from the database
calls the hooks again for each finished deal, so a result lost in a crash between the step
and its result comes back the next time the table is used. The fourth deal's result also
marks the attempt finished.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import secrets
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import select, update

from ..engine.rules import RuleSet
from .db import ChallengeAttemptRow, ChallengeDayRow, ChallengeResultRow, now
from .matchpoints import Standing, ranking
from .review import deal_result
from .store import Seat, Store, TableSpec, _insert_ignoring_conflicts
from .tables import LiveTable, TableError, TableService

log = logging.getLogger("coinche.daily")

DEALS = 4
"""Deals a day."""
TAG = b"coinche-challenge-v1"
FIRST_DEALER = 3
"""West deals the first deal (then South, North... as usual): South speaks first."""
SOUTH = 0
KEEP_AHEAD_SECONDS = 3600.0
"""How often a running server makes sure today's and tomorrow's days exist."""


def day_of(moment: datetime) -> str:
    """The challenge day of ``moment`` (an aware datetime): its UTC date, ``YYYY-MM-DD``."""
    if moment.tzinfo is None:
        raise ValueError("an aware datetime is needed (the day is a UTC day)")
    return moment.astimezone(UTC).date().isoformat()


def day_end(day: str) -> datetime:
    """When ``day`` is over: the next day's 00:00 UTC."""
    return datetime.combine(date.fromisoformat(day) + timedelta(days=1), datetime.min.time(), UTC)


def next_day(day: str) -> str:
    return (date.fromisoformat(day) + timedelta(days=1)).isoformat()


def commitment(day: str, seed: bytes) -> str:
    """The day's commitment: hex SHA-256 of the tag, a zero byte, the day, a zero byte, the seed."""
    if len(seed) != 32:
        raise ValueError("a day's seed has 32 bytes")
    return hashlib.sha256(TAG + b"\x00" + day.encode("ascii") + b"\x00" + seed).hexdigest()


def dealing_label(day: str) -> str:
    """The table id the day's deals are dealt under (docs/dealing.md)."""
    return f"defi-{day}"


def table_seed(seed: bytes) -> int:
    """The seed of every challenge table of the day (``decision_seed`` derives from it)."""
    digest = hmac.new(seed, b"coinche-challenge-decisions", hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 2


@dataclass(frozen=True)
class Day:
    day: str
    profile: str
    seed: bytes
    commitment: str


@dataclass(frozen=True)
class Result:
    """One deal of a player's challenge."""

    player: str
    deal: int
    score: int
    """South-North's deal score minus East-West's."""
    contract: str | None
    taker: int | None
    made: bool | None
    deal_score: tuple[int, int]
    guest: bool


class ChallengeStore:
    """The challenge's rows (blocking calls: ``DailyChallenge`` runs them on the database's
    threads)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def ensure_day(self, day: str, profile: str, test_seed: int | str | None = None) -> Day:
        """The day's row, made with a random seed if there is none (the primary key settles
        a race: whoever lost reads the winner's); ``test_seed`` (``Settings.table_seed``,
        tests only): the seed follows from it and the day, so a test deals alike each run."""
        if test_seed is None:
            seed = secrets.token_bytes(32)
        else:
            seed = hashlib.sha256(f"coinche-test-challenge:{test_seed}:{day}".encode()).digest()
        with self.store.engine.begin() as conn:
            conn.execute(
                _insert_ignoring_conflicts(self.store.engine, ChallengeDayRow, ["day"]),
                {
                    "day": day,
                    "profile": profile,
                    "seed": seed.hex(),
                    "commitment": commitment(day, seed),
                    "created_at": now(),
                },
            )
        found = self.day(day)
        assert found is not None
        return found

    def day(self, day: str) -> Day | None:
        with self.store.session() as s:
            row = s.get(ChallengeDayRow, day)
            if row is None:
                return None
            return Day(row.day, row.profile, bytes.fromhex(row.seed), row.commitment)

    def attempt(self, day: str, player: str) -> tuple[str, bool] | None:
        """The player's table of the day and whether it is finished."""
        with self.store.session() as s:
            query = select(ChallengeAttemptRow).where(
                ChallengeAttemptRow.day == day, ChallengeAttemptRow.player_id == player
            )
            row = s.scalar(query)
            return None if row is None else (row.table_id, row.finished_at is not None)

    def add_attempt(self, day: str, player: str, table_id: str, guest: bool) -> bool:
        """Record the player's attempt at this table; False if they already had one (a race)."""
        with self.store.engine.begin() as conn:
            done = conn.execute(
                _insert_ignoring_conflicts(self.store.engine, ChallengeAttemptRow, ["day", "player_id"]),
                {"day": day, "player_id": player, "table_id": table_id, "guest": guest, "started_at": now()},
            )
            return bool(done.rowcount == 1)

    def record(self, table_id: str, day: str, number: int, result: dict[str, Any], finished: bool) -> None:
        """A finished deal of the table's attempt (nothing if already there); ``finished``:
        the attempt is over."""
        with self.store.engine.begin() as conn:
            attempt = conn.execute(
                select(ChallengeAttemptRow.player_id, ChallengeAttemptRow.guest).where(
                    ChallengeAttemptRow.table_id == table_id
                )
            ).first()
            if attempt is None:  # the table of a start that lost a race: not an attempt
                return
            conn.execute(
                _insert_ignoring_conflicts(self.store.engine, ChallengeResultRow, ["day", "deal", "player_id"]),
                {
                    "day": day,
                    "deal": number,
                    "player_id": attempt.player_id,
                    "guest": attempt.guest,
                    "created_at": now(),
                    **result,
                },
            )
            if finished:
                conn.execute(
                    update(ChallengeAttemptRow)
                    .where(ChallengeAttemptRow.table_id == table_id, ChallengeAttemptRow.finished_at.is_(None))
                    .values(finished_at=now())
                )

    def results(self, day: str, player: str | None = None, guests: bool = True) -> list[Result]:
        """The day's results (a player's only; without the guests'), by deal then player."""
        with self.store.session() as s:
            query = select(ChallengeResultRow).where(ChallengeResultRow.day == day)
            if player is not None:
                query = query.where(ChallengeResultRow.player_id == player)
            if not guests:
                query = query.where(ChallengeResultRow.guest.is_(False))
            rows = s.scalars(query.order_by(ChallengeResultRow.deal, ChallengeResultRow.player_id))
            return [
                Result(
                    r.player_id,
                    r.deal,
                    r.score,
                    r.contract,
                    r.taker,
                    r.made,
                    (r.deal_score[0], r.deal_score[1]),
                    r.guest,
                )
                for r in rows
            ]


class DailyChallenge:
    """The daily challenge on a table service (hooked to it: it records the results)."""

    def __init__(self, tables: TableService) -> None:
        self.tables = tables
        self.store = ChallengeStore(tables.store)
        tables.deal_over_hooks.append(self._record)
        self._ahead: asyncio.Task[None] | None = None

    def start_keeping_ahead(self, every: float = KEEP_AHEAD_SECONDS) -> None:
        """Make today's and tomorrow's rows now and every ``every`` seconds (the
        application's lifetime), so tomorrow's commitment exists well before it starts
        even if nobody opens the challenge page that day."""
        self._ahead = asyncio.get_running_loop().create_task(self._keep_ahead(every))

    async def _keep_ahead(self, every: float) -> None:
        while True:
            try:
                await self.ensure_day(day_of(datetime.now(UTC)))
            except Exception:  # the database may be down a while: the next round tries again
                log.exception("the daily challenge's days could not be made")
            await asyncio.sleep(every)

    async def close(self) -> None:
        if self._ahead is not None:
            self._ahead.cancel()
            await asyncio.gather(self._ahead, return_exceptions=True)

    @property
    def _profile(self) -> str:
        return self.tables.settings.challenge_profile

    async def ensure_day(self, day: str) -> Day:
        """The day's row and the next day's (made if missing): tomorrow's commitment exists
        before tomorrow starts."""
        test_seed = self.tables.settings.table_seed
        found = await self.tables.db(self.store.ensure_day, day, self._profile, test_seed)
        await self.tables.db(self.store.ensure_day, next_day(day), self._profile, test_seed)
        return found

    async def day(self, day: str) -> Day | None:
        """The day's row as it is (None: not made yet)."""
        return await self.tables.db(self.store.day, day)

    async def commitment_of(self, day: str) -> str:
        return (await self.ensure_day(day)).commitment

    async def revealed_seed(self, day: str, moment: datetime) -> str | None:
        """The day's seed in hex once the day is over (``moment`` past its end), else None."""
        if moment < day_end(day):
            return None
        found = await self.tables.db(self.store.day, day)
        return None if found is None else found.seed.hex()

    async def start(self, player: str, is_guest: bool, moment: datetime | None = None) -> TableSpec:
        """The player's table of the day (``moment``: now): made at the first start, the
        same one after (resumable); ``TableError("challenge_done")`` once it is finished."""
        day = day_of(moment or datetime.now(UTC))
        found = await self.ensure_day(day)
        for _ in range(2):
            attempt = await self.tables.db(self.store.attempt, day, player)
            if attempt is not None:
                table_id, finished = attempt
                if finished:
                    raise TableError("challenge_done")
                live = await self.tables.table(table_id)
                if live is None:
                    raise TableError("gone")
                if live.game.is_over:
                    raise TableError("challenge_done")
                return live.spec
            level = self.tables.settings.challenge_level
            bot = Seat("bot", level=level)
            rules = RuleSet.profile(found.profile)
            if rules.real_deal:  # every deal is shuffled from its own seed
                rules = RuleSet.profile(found.profile, **{**rules.options(), "real_deal": False})
            spec = await self.tables.create_table(
                rules,
                (Seat("human", player=player), bot, bot, bot),
                level,
                challenge=(day, found.seed, table_seed(found.seed), FIRST_DEALER),
            )
            if await self.tables.db(self.store.add_attempt, day, player, spec.id, is_guest):
                return spec
            # Another start of the same player won the race: drop this table, use theirs.
            await self.tables.db(self.tables.store.finish_table, spec.id, {"abandoned": True})
        raise TableError("busy")

    async def results(self, day: str, player: str | None = None) -> list[Result]:
        return await self.tables.db(self.store.results, day, player)

    async def ranking(self, day: str, moment: datetime) -> list[Standing]:
        """The day's ranking by matchpoints (accounts only), final once the day is over."""
        rows = await self.tables.db(self.store.results, day, None, False)
        return ranking(((r.player, r.deal - 1, r.score) for r in rows), DEALS, final=moment >= day_end(day))

    async def _record(self, live: LiveTable, number: int) -> None:
        day = live.spec.challenge
        if day is None or not 1 <= number <= DEALS:
            return
        finished = live.game.is_over
        await self.tables.db(self.store.record, live.id, day, number, deal_result(live, number), finished)
