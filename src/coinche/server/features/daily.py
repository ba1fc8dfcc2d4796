"""The daily challenge ("le défi du jour"): four deals a day, the same for every player,
and computers whose moves depend on the deal and the player's own actions only. No HTTP
here: the pages call ``DailyChallenge``.

**The day.** A day is a UTC calendar day, ``YYYY-MM-DD``: it starts at 00:00:00 UTC and
ends at the next 00:00:00 UTC (``days.day_of``, ``days.day_end``), by the server's clock
(``Settings.clock``: tests set it). Each day has a row of
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
(``DailyChallengeTable.max_deals``), and a void deal (four passes) is one of the four.

**The computers.** The player sits South (seat 0); West, North and East are computers of
``Settings.challenge_level`` (the expert on the site). ``live_table.decision_seed`` is a
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
(``DailyChallengeTable.uses_free_deals``), and its results are stored flagged ``guest``, outside the
ranking, until it signs up: then its attempt of today and its results are the account's
(``signed_up``), ranked under the account's name. Once the day is over its tables refuse
every move (``TableService`` checks it, ``TableError("challenge_over")``): the seed is
public then; a deal not played counts 0 %.

**Results.** When a deal of a challenge table ends, ``DailyChallenge`` hears of it as a
listener of the tables' commits (``_committed``), from the write that stored the deal's last
action; the insert ignores a result already there, and a table read from the database tells
its listeners again of each finished deal not booked, so a result lost in a crash between
the step and its result comes back the next time the table is used. The fourth deal's result also
marks the attempt finished.

**The ranking.** Stored whole per day with the number of results it counts; a refresh
(the delayed one after a result, a page's) writes only if no refresh with more results was
stored meanwhile (one conditional UPDATE, so processes racing never leave the older one
stored), and a final ranking is replaced only by a final one with more results (a deal the
computers finished just after midnight).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import String, cast, delete, func, insert, select, update

from ...engine.cards import CardSet
from ...engine.dealing import deal_seed, hands_from_seed
from ...engine.rules import RuleSet
from ..compute.bot_pool import Priority
from ..compute.jobs import par_job, standings_job
from ..infra.db import (
    AccountRow,
    ChallengeAttemptRow,
    ChallengeDayRow,
    ChallengeParRow,
    ChallengeResultRow,
    ChallengeStandingRow,
    now,
)
from ..infra.store import Store
from ..live.events import DealEnded
from ..live.tables import TableService
from ..table.days import day_end as day_end
from ..table.days import day_of as day_of
from ..table.days import next_day as next_day
from ..table.kinds import DailyChallengeTable, Dealing, challenge_day
from ..table.live_table import TableError
from ..table.matchpoints import Standing, ranking
from ..table.spec import Seat, TableSpec
from .review import deal_result

log = logging.getLogger("coinche.daily")

DEALS = 4
"""Deals a day."""
TAG = b"coinche-challenge-v1"
FIRST_DEALER = 3
"""West deals the first deal (then South, North... as usual): South speaks first."""
SOUTH = 0
EXPERT_LEVEL = "expert"
"""Who plays the day's deals from South once the day is over, for everyone to compare with."""
KEEP_AHEAD_SECONDS = 300.0
"""How often a running server makes sure today's and tomorrow's days exist, and finishes
the days that are over (their final ranking, the expert's play)."""
RANKING_DELAY_FACTOR = 10.0
RANKING_DELAY_MAX = 30.0
"""A new result makes the stored ranking stale; it is computed again after a pause of ten
times its last computation (so at most about a tenth of a worker goes to it, however many
results come), never more than this many seconds."""
RANKING_PAGE = 100
"""Lines of the ranking a page shows (and the visitor's own line)."""


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
                self.store.backend.insert_ignoring(ChallengeDayRow, ["day"]),
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
                self.store.backend.insert_ignoring(ChallengeAttemptRow, ["day", "player_id"]),
                {"day": day, "player_id": player, "table_id": table_id, "guest": guest, "started_at": now()},
            )
            return bool(done.rowcount == 1)

    def adopt(self, guest: str, player: str, today: str) -> list[str]:
        """A guest signed up as the account playing as ``player`` (the guest's own id, or a
        new one): the guest's attempts of days not over (from ``today``) and their results
        become the account's, ranked. A day the account already has an attempt at keeps
        its own. The days changed."""
        with self.store.engine.begin() as conn:
            theirs = set(
                conn.execute(
                    select(ChallengeAttemptRow.day).where(
                        ChallengeAttemptRow.player_id == player,
                        ChallengeAttemptRow.day >= today,
                        ChallengeAttemptRow.guest.is_(False),
                    )
                ).scalars()
            )
            days = [
                d
                for d in conn.execute(
                    select(ChallengeAttemptRow.day).where(
                        ChallengeAttemptRow.player_id == guest, ChallengeAttemptRow.day >= today
                    )
                ).scalars()
                if d not in theirs
            ]
            for row in (ChallengeAttemptRow, ChallengeResultRow):
                conn.execute(
                    update(row).where(row.player_id == guest, row.day.in_(days)).values(player_id=player, guest=False)
                )
            return days

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
                self.store.backend.insert_ignoring(ChallengeResultRow, ["day", "deal", "player_id"]),
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

    # ----- the ranking, kept ready to read -----

    def ranked_scores(self, day: str) -> list[tuple[str, int, int]]:
        """The day's ranked results ``(player, deal index from 0, net score)`` (accounts'
        only)."""
        with self.store.session() as s:
            rows = s.execute(
                select(ChallengeResultRow.player_id, ChallengeResultRow.deal, ChallengeResultRow.score).where(
                    ChallengeResultRow.day == day, ChallengeResultRow.guest.is_(False)
                )
            )
            return [(player, deal - 1, score) for player, deal, score in rows]

    def ranking_state(self, day: str) -> tuple[int, bool] | None:
        """How many results the stored ranking counts and whether it is final (None: no day)."""
        with self.store.session() as s:
            row = s.execute(
                select(ChallengeDayRow.ranked_results, ChallengeDayRow.ranked_final).where(ChallengeDayRow.day == day)
            ).first()
            return None if row is None else (row.ranked_results, row.ranked_final)

    def save_standings(self, day: str, standings: list[Standing], counted: int, final: bool) -> bool:
        """Replace the day's stored ranking unless what is stored counts more results
        (another process was quicker with newer results: a conditional write, so two
        refreshes racing never leave the older one stored), or is final and this one is
        not, or is final and counts as many. A final ranking is replaced only by a final
        one with more results (a deal the computers finished just after midnight). True if
        written."""
        newer = ChallengeDayRow.ranked_final.is_(False) & (ChallengeDayRow.ranked_results <= counted)
        if final:
            newer = newer | (ChallengeDayRow.ranked_results < counted)
        with self.store.engine.begin() as conn:
            claimed = conn.execute(
                update(ChallengeDayRow)
                .where(ChallengeDayRow.day == day, newer)
                .values(ranked_results=counted, ranked_final=final, ranked_at=now())
            )
            if claimed.rowcount != 1:
                return False
            conn.execute(delete(ChallengeStandingRow).where(ChallengeStandingRow.day == day))
            if standings:
                conn.execute(
                    insert(ChallengeStandingRow),
                    [
                        {
                            "day": day,
                            "player_id": st.player,
                            "position": i,
                            "rank": st.rank,
                            "average": st.average,
                            "finished": st.finished,
                            "percents": list(st.percents),
                        }
                        for i, st in enumerate(standings)
                    ],
                )
            return True

    def standings(self, day: str, limit: int, player: str | None = None) -> list[RankingLine]:
        """The first ``limit`` lines of the day's stored ranking, and ``player``'s own line
        after them if it is further down; with the account names."""
        with self.store.session() as s:
            query = (
                select(ChallengeStandingRow, AccountRow.name)
                .join(AccountRow, AccountRow.player_id == ChallengeStandingRow.player_id, isouter=True)
                .where(ChallengeStandingRow.day == day)
            )
            rows = list(s.execute(query.order_by(ChallengeStandingRow.position).limit(limit)))
            if player is not None and all(r[0].player_id != player for r in rows):
                rows += list(s.execute(query.where(ChallengeStandingRow.player_id == player)))
            return [
                RankingLine(r.player_id, name, r.position, r.rank, r.average, tuple(r.percents), r.finished)
                for r, name in rows
            ]

    def ranked_count(self, day: str) -> int:
        """Players in the day's stored ranking."""
        with self.store.session() as s:
            return s.scalar(select(func.count()).where(ChallengeStandingRow.day == day)) or 0

    # ----- one deal's field -----

    def deal_field(self, day: str, deal: int) -> list[FieldLine]:
        """Deal ``deal``'s ranked results grouped by what happened (contract, taker, made,
        score), most played first."""
        # Grouped by the JSON's text: PostgreSQL's ``json`` has no equality.
        score_text = cast(ChallengeResultRow.deal_score, String)
        with self.store.session() as s:
            rows = s.execute(
                select(
                    ChallengeResultRow.contract,
                    ChallengeResultRow.taker,
                    ChallengeResultRow.made,
                    ChallengeResultRow.score,
                    score_text,
                    func.count(),
                )
                .where(
                    ChallengeResultRow.day == day,
                    ChallengeResultRow.deal == deal,
                    ChallengeResultRow.guest.is_(False),
                )
                .group_by(
                    ChallengeResultRow.contract,
                    ChallengeResultRow.taker,
                    ChallengeResultRow.made,
                    ChallengeResultRow.score,
                    score_text,
                )
            )
            return [
                FieldLine(contract, taker, made, score, (deal_score[0], deal_score[1]), count)
                for contract, taker, made, score, text, count in rows
                for deal_score in [json.loads(text)]
            ]

    def par(self, day: str, deal: int) -> dict[str, Any] | None:
        with self.store.session() as s:
            row = s.get(ChallengeParRow, (day, deal))
            return None if row is None else dict(row.data)

    def save_par(self, day: str, deal: int, data: dict[str, Any]) -> None:
        with self.store.engine.begin() as conn:
            conn.execute(
                self.store.backend.insert_ignoring(ChallengeParRow, ["day", "deal"]),
                {"day": day, "deal": deal, "data": data, "created_at": now()},
            )

    # ----- the expert's play of a finished day -----

    def expert_table(self, day: str) -> str | None:
        with self.store.session() as s:
            return s.scalar(select(ChallengeDayRow.expert_table).where(ChallengeDayRow.day == day))

    def claim_expert_table(self, day: str, table_id: str) -> str | None:
        """Make ``table_id`` the day's expert table unless it has one; the day's expert table."""
        with self.store.engine.begin() as conn:
            conn.execute(
                update(ChallengeDayRow)
                .where(ChallengeDayRow.day == day, ChallengeDayRow.expert_table.is_(None))
                .values(expert_table=table_id)
            )
            found: str | None = conn.execute(
                select(ChallengeDayRow.expert_table).where(ChallengeDayRow.day == day)
            ).scalar()
            return found

    def unfinished_days(self, before: str) -> list[str]:
        """Days before ``before`` whose final ranking or expert's play is not done yet."""
        with self.store.session() as s:
            return list(
                s.scalars(
                    select(ChallengeDayRow.day)
                    .where(
                        ChallengeDayRow.day < before,
                        (ChallengeDayRow.ranked_final.is_(False)) | (ChallengeDayRow.expert_table.is_(None)),
                    )
                    .order_by(ChallengeDayRow.day.desc())
                    .limit(7)
                )
            )


@dataclass(frozen=True)
class RankingLine:
    """A line of a day's stored ranking."""

    player: str
    name: str | None
    """The account's name (None: an account since deleted)."""
    position: int
    rank: int
    average: float
    percents: tuple[float | None, ...]
    finished: int


@dataclass(frozen=True)
class FieldLine:
    """Players who did the same on one deal: the same contract by the same seat, made or
    not, for the same score."""

    contract: str | None
    taker: int | None
    made: bool | None
    score: int
    """South-North's score minus East-West's."""
    deal_score: tuple[int, int]
    count: int


def challenge_rules(profile: str) -> RuleSet:
    """The day's rules: its profile, every deal shuffled from its own seed."""
    rules = RuleSet.profile(profile)
    if rules.real_deal:
        rules = RuleSet.profile(profile, **{**rules.options(), "real_deal": False})
    return rules


def compute_standings(results: list[tuple[str, int, int]], deals: int, final: bool) -> list[Standing]:
    """``matchpoints.ranking`` as a worker's task (the ranking of a big day takes a few
    hundred milliseconds of CPU: never on the event loop)."""
    return ranking(results, deals, final)


def day_hands(day_seed: bytes, day: str, number: int) -> tuple[CardSet, ...]:
    """The hands of the day's deal ``number`` (1..4), as every challenge table deals them."""
    dealer = (FIRST_DEALER + number - 1) % 4
    return hands_from_seed(deal_seed(day_seed, dealing_label(day), number), dealer)


class DailyChallenge:
    """The daily challenge on a table service (a listener of its commits: it records the results)."""

    def __init__(self, tables: TableService) -> None:
        self.tables = tables
        self.store = ChallengeStore(tables.store)
        tables.registry.on(DealEnded, self._deal_ended)
        self._ahead: asyncio.Task[None] | None = None
        self._refreshes: dict[str, asyncio.Task[None]] = {}
        """The ranking refresh waiting to run, per day (one at a time: results coalesce)."""
        self._computing: set[asyncio.Task[None]] = set()
        """Refreshes past their pause, computing: a result that comes meanwhile waits for
        the next one."""
        self._ranking_seconds = 0.0
        """How long the last ranking took to compute (the next pause follows from it)."""
        self._pars: dict[tuple[str, int], asyncio.Task[dict[str, Any] | None]] = {}
        self._experts: dict[str, asyncio.Task[None]] = {}

    def start_keeping_ahead(self, every: float = KEEP_AHEAD_SECONDS) -> None:
        """Make today's and tomorrow's rows now and every ``every`` seconds (the
        application's lifetime), so tomorrow's commitment exists well before it starts
        even if nobody opens the challenge page that day."""
        self._ahead = asyncio.get_running_loop().create_task(self._keep_ahead(every))

    async def _keep_ahead(self, every: float) -> None:
        while True:
            try:
                today = day_of(self.now())
                await self.ensure_day(today)
                await self.finish_days(today)
            except Exception:  # the database may be down a while: the next round tries again
                log.exception("the daily challenge's days could not be made or finished")
            await asyncio.sleep(every)

    async def finish_days(self, today: str) -> None:
        """The days before ``today`` not finished yet get their final ranking and the
        expert's play of their deals (whichever process comes first; a second changes
        nothing)."""
        moment = self.now()
        for day in await self.tables.db(self.store.unfinished_days, today):
            await self.refresh_ranking(day, moment)
            self.expert_play_soon(day)

    async def close(self) -> None:
        tasks: list[asyncio.Task[Any]] = [
            *self._refreshes.values(),
            *self._computing,
            *self._experts.values(),
            *self._pars.values(),
        ]
        if self._ahead is not None:
            tasks.append(self._ahead)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def settle(self) -> None:
        """Wait for the ranking refreshes, pars and experts' plays under way (tests)."""
        while tasks := [*self._refreshes.values(), *self._computing, *self._pars.values(), *self._experts.values()]:
            await asyncio.gather(*tasks, return_exceptions=True)

    def now(self) -> datetime:
        """The server's clock (``Settings.clock``): every "is the day over" asks it."""
        return self.tables.settings.clock()

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
        day = day_of(moment or self.now())
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
            spec = await self.tables.create_table(
                challenge_rules(found.profile),
                (Seat("human", player=player), bot, bot, bot),
                level,
                DailyChallengeTable(day),
                Dealing(found.seed, table_seed(found.seed), FIRST_DEALER),
            )
            if await self.tables.db(self.store.add_attempt, day, player, spec.id, is_guest):
                return spec
            # Another start of the same player won the race: drop this table, use theirs.
            await self.tables.db(self.tables.store.finish_table, spec.id, {"abandoned": True})
        raise TableError("busy")

    async def signed_up(self, guest: str, player: str) -> None:
        """A guest made an account (playing as ``player``): its challenge of today, finished
        or not, is the account's from now on, and ranked under the account's name."""
        for day in await self.tables.db(self.store.adopt, guest, player, day_of(self.now())):
            self._ranking_due(day)

    async def results(self, day: str, player: str | None = None) -> list[Result]:
        return await self.tables.db(self.store.results, day, player)

    # ----- the ranking -----

    async def ranking(self, day: str, moment: datetime) -> list[Standing]:
        """The day's whole ranking by matchpoints (accounts only), brought up to date first;
        final once the day is over."""
        await self.refresh_ranking(day, moment)
        lines = await self.tables.db(self.store.standings, day, 1 << 30)
        return [Standing(line.player, line.rank, line.average, line.percents) for line in lines]

    async def ranking_lines(self, day: str, moment: datetime, player: str | None) -> tuple[list[RankingLine], int]:
        """What a page shows of the day's ranking: its first lines and ``player``'s own, as
        stored (a day over is made final first), and how many players it has."""
        if moment >= day_end(day):
            await self.refresh_ranking(day, moment)
        lines = await self.tables.db(self.store.standings, day, RANKING_PAGE, player)
        return lines, await self.tables.db(self.store.ranked_count, day)

    async def refresh_ranking(self, day: str, moment: datetime) -> None:
        """Compute the day's ranking again if results came since it was stored (or the day
        has ended since): in a worker process, then stored whole, unless a refresh with
        more results was stored meanwhile (``save_standings``)."""
        final = moment >= day_end(day)
        state = await self.tables.db(self.store.ranking_state, day)
        if state is None or (state[1] and not final):
            return  # no such day, or its ranking is final (and this clock says otherwise)
        results = await self.tables.db(self.store.ranked_scores, day)
        if len(results) == state[0] and (state[1] or not final):
            return
        started = asyncio.get_running_loop().time()
        standings = await self.tables.work.run(standings_job(results, DEALS, final), priority=Priority.ANALYSIS)
        await self.tables.db(self.store.save_standings, day, standings, len(results), final)
        self._ranking_seconds = asyncio.get_running_loop().time() - started

    def _ranking_due(self, day: str) -> None:
        """A result came: refresh the day's ranking after a pause (one waiting at a time)."""
        if day in self._refreshes:
            return
        pause = min(RANKING_DELAY_MAX, RANKING_DELAY_FACTOR * self._ranking_seconds)
        self._refreshes[day] = asyncio.get_running_loop().create_task(self._refresh_later(day, pause))

    async def _refresh_later(self, day: str, pause: float) -> None:
        await asyncio.sleep(pause)
        task = self._refreshes.pop(day, None)  # results from now on call for another refresh
        if task is not None:
            self._computing.add(task)  # still waited for by ``settle``
        try:
            await self.refresh_ranking(day, self.now())
        except Exception:  # the next result, or the next page, tries again
            log.exception("the ranking of %s could not be computed", day)
        finally:
            self._computing.discard(task)

    async def _deal_ended(self, event: DealEnded) -> None:
        """A deal of a challenge's table ended: its result is recorded."""
        live, number = event.table, event.number
        day = challenge_day(live.spec.kind)
        if day is None or not 1 <= number <= DEALS:
            return
        finished = live.game.is_over
        await self.tables.db(self.store.record, live.id, day, number, deal_result(live, number), finished)
        self._ranking_due(day)
        self.par_soon(day, number)

    # ----- one deal compared -----

    async def deal_field(self, day: str, number: int) -> list[FieldLine]:
        return await self.tables.db(self.store.deal_field, day, number)

    def par_soon(self, day: str, number: int) -> asyncio.Task[dict[str, Any] | None]:
        """The deal's double-dummy par, computed once in a worker and stored (a task:
        the comparison page waits for it a moment)."""
        key = (day, number)
        task = self._pars.get(key)
        if task is None:
            task = self._pars[key] = asyncio.get_running_loop().create_task(self._par(day, number))
        return task

    async def par(self, day: str, number: int, wait: float = 10.0) -> dict[str, Any] | None:
        """The deal's par (the analysis rows and each side's best contract), None if not
        ready within ``wait`` seconds."""
        found = await self.tables.db(self.store.par, day, number)
        if found is not None:
            return found
        try:
            return await asyncio.wait_for(asyncio.shield(self.par_soon(day, number)), wait)
        except TimeoutError:
            return None

    async def _par(self, day: str, number: int) -> dict[str, Any] | None:
        try:
            found = await self.tables.db(self.store.par, day, number)
            if found is not None:
                return found
            row = await self.tables.db(self.store.day, day)
            if row is None:
                return None
            rules = challenge_rules(row.profile)
            dealer = (FIRST_DEALER + number - 1) % 4
            data = await self.tables.work.run(
                par_job(rules, dealer, day_hands(row.seed, day, number)), priority=Priority.ANALYSIS
            )
            await self.tables.db(self.store.save_par, day, number, data)
            return data
        except Exception:
            log.exception("the par of %s deal %d could not be computed", day, number)
            return None
        finally:
            self._pars.pop((day, number), None)

    # ----- the expert's play -----

    def expert_play_soon(self, day: str) -> None:
        """Have the expert play the finished day's deals from South (in the background)."""
        if day not in self._experts:
            self._experts[day] = asyncio.get_running_loop().create_task(self._expert_play(day))

    async def _expert_play(self, day: str) -> None:
        try:
            table_id = await self.tables.db(self.store.expert_table, day)
            if table_id is None:
                found = await self.tables.db(self.store.day, day)
                if found is None:
                    return
                expert = Seat("bot", level=EXPERT_LEVEL)
                bot = Seat("bot", level=self.tables.settings.challenge_level)
                spec = await self.tables.create_table(
                    challenge_rules(found.profile),
                    (expert, bot, bot, bot),
                    self.tables.settings.challenge_level,
                    DailyChallengeTable(day),
                    Dealing(found.seed, table_seed(found.seed), FIRST_DEALER),
                )
                table_id = await self.tables.db(self.store.claim_expert_table, day, spec.id)
                if table_id != spec.id:  # another process was first: theirs is the one
                    await self.tables.db(self.tables.store.finish_table, spec.id, {"abandoned": True})
            assert table_id is not None
            await self.tables.play_out(table_id)
        except Exception:
            log.exception("the expert's play of %s failed (tried again at the next round)", day)
        finally:
            self._experts.pop(day, None)

    async def expert_results(self, day: str) -> list[dict[str, Any]]:
        """The expert's result on each deal of the day it has finished (empty before)."""
        table_id = await self.tables.db(self.store.expert_table, day)
        if table_id is None:
            return []
        live = await self.tables.table(table_id)
        if live is None:
            return []
        return [
            {"deal": n, "table": table_id, **deal_result(live, n)}
            for n, deal in enumerate(live.game.deals[:DEALS], start=1)
            if deal.is_over
        ]


def challenge_days(store: Store, player: str, since: str) -> dict[str, int]:
    """The challenge days from ``since`` the player played, with their deals finished."""
    with store.session() as s:
        days = s.scalars(
            select(ChallengeAttemptRow.day).where(
                ChallengeAttemptRow.player_id == player, ChallengeAttemptRow.day >= since
            )
        ).all()
        counts = s.execute(
            select(ChallengeResultRow.day, func.count())
            .where(ChallengeResultRow.player_id == player, ChallengeResultRow.day >= since)
            .group_by(ChallengeResultRow.day)
        ).all()
    found = dict.fromkeys(days, 0)
    found.update({day: count for day, count in counts})
    return found
