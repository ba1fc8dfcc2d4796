"""The daily challenge at work: it makes the days ahead, gives each player their table of
the day, records each deal's result as the table commits it, keeps the ranking fresh (in a
worker), and has each deal's par and the expert's play computed once the day allows."""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime
from typing import Any

from ...compute.bot_pool import Priority
from ...compute.job_kinds import par_job, standings_job
from ...compute.work import Work
from ...infra.config import Settings
from ...infra.database import Database
from ...live.events import DealEnded
from ...live.free_deals import FreeDeals
from ...live.ports import PlaysOut, TableMaker
from ...live.registry import LiveTables
from ...table.days import day_end, day_of, next_day
from ...table.kinds import DailyChallengeTable, Dealing, challenge_day
from ...table.live_table import TableError
from ...table.matchpoints import Standing
from ...table.ratings import Rating
from ...table.spec import Seat, TableSpec
from ..review import deal_result
from .model import DEALS, FIRST_DEALER, Day, FieldLine, RankingLine, Result, challenge_rules, day_hands, table_seed
from .store import ChallengeStore

log = logging.getLogger("coinche.daily")

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


class DailyChallenge:
    """The daily challenge: it makes its tables, listens to the registry's commits (it
    records the results) and has the pars and rankings computed as work."""

    def __init__(
        self,
        store: ChallengeStore,
        db: Database,
        settings: Settings,
        registry: LiveTables,
        tables: TableMaker,
        computers: PlaysOut,
        work: Work,
        free_deals: FreeDeals,
    ) -> None:
        self.store = store
        self.db = db
        self.settings = settings
        self.tables = tables
        """Where the players' tables and the expert's are made and read."""
        self.computers = computers
        """Where the expert's table is played out."""
        self.work = work
        """Where the rankings and the pars are computed."""
        self.free_deals = free_deals
        registry.on(DealEnded, self._deal_ended)
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
        for day in await self.db(self.store.unfinished_days, today):
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
        return self.settings.clock()

    @property
    def _profile(self) -> str:
        return self.settings.challenge_profile

    async def ensure_day(self, day: str) -> Day:
        """The day's row and the next day's (made if missing): tomorrow's commitment exists
        before tomorrow starts."""
        test_seed = self.settings.table_seed
        found = await self.db(self.store.ensure_day, day, self._profile, test_seed)
        await self.db(self.store.ensure_day, next_day(day), self._profile, test_seed)
        return found

    async def day(self, day: str) -> Day | None:
        """The day's row as it is (None: not made yet)."""
        return await self.db(self.store.day, day)

    async def commitment_of(self, day: str) -> str:
        return (await self.ensure_day(day)).commitment

    async def revealed_seed(self, day: str, moment: datetime) -> str | None:
        """The day's seed in hex once the day is over (``moment`` past its end), else None."""
        if moment < day_end(day):
            return None
        found = await self.db(self.store.day, day)
        return None if found is None else found.seed.hex()

    async def start(self, player: str, is_guest: bool, moment: datetime | None = None) -> TableSpec:
        """The player's table of the day (``moment``: now): made at the first start, the
        same one after (resumable); ``TableError("challenge_done")`` once it is finished.
        The player's free deals are read again after it."""
        spec = await self._start(player, is_guest, moment)
        self.free_deals.forget(player)
        return spec

    async def _start(self, player: str, is_guest: bool, moment: datetime | None) -> TableSpec:
        day = day_of(moment or self.now())
        found = await self.ensure_day(day)
        for _ in range(2):
            attempt = await self.db(self.store.attempt, day, player)
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
            level = self.settings.challenge_level
            bot = Seat("bot", level=level)
            spec = await self.tables.create_table(
                challenge_rules(found.profile),
                (Seat("human", player=player), bot, bot, bot),
                level,
                DailyChallengeTable(day),
                Dealing(found.seed, table_seed(found.seed), FIRST_DEALER),
            )
            if await self.db(self.store.add_attempt, day, player, spec.id, is_guest):
                return spec
            # Another start of the same player won the race: drop this table, use theirs.
            await self.db(self.store.abandon_table, spec.id)
        raise TableError("busy")

    async def signed_up(self, guest: str, player: str) -> None:
        """A guest made an account (playing as ``player``): its challenge of today, finished
        or not, is the account's from now on, and ranked under the account's name."""
        for day in await self.db(self.store.adopt, guest, player, day_of(self.now())):
            self._ranking_due(day)

    async def attempt(self, day: str, player: str) -> tuple[str, bool] | None:
        """The player's table of ``day`` and whether it is finished (None: not started)."""
        return await self.db(self.store.attempt, day, player)

    async def ratings(self, players: list[str]) -> dict[str, Rating]:
        """The ratings of a ranking's players (a new player: absent)."""
        return await self.db(self.store.ratings, players)

    async def days_played(self, player: str, since: str) -> dict[str, int]:
        """The days from ``since`` the player played the challenge, with their deals
        finished (a profile's calendar)."""
        return await self.db(self.store.days_played, player, since)

    async def results(self, day: str, player: str | None = None) -> list[Result]:
        return await self.db(self.store.results, day, player)

    # ----- the ranking -----

    async def ranking(self, day: str, moment: datetime) -> list[Standing]:
        """The day's whole ranking by matchpoints (accounts only), brought up to date first;
        final once the day is over."""
        await self.refresh_ranking(day, moment)
        lines = await self.db(self.store.standings, day, 1 << 30)
        return [Standing(line.player, line.rank, line.average, line.percents) for line in lines]

    async def ranking_lines(self, day: str, moment: datetime, player: str | None) -> tuple[list[RankingLine], int]:
        """What a page shows of the day's ranking: its first lines and ``player``'s own, as
        stored (a day over is made final first), and how many players it has."""
        if moment >= day_end(day):
            await self.refresh_ranking(day, moment)
        lines = await self.db(self.store.standings, day, RANKING_PAGE, player)
        return lines, await self.db(self.store.ranked_count, day)

    async def refresh_ranking(self, day: str, moment: datetime) -> None:
        """Compute the day's ranking again if results came since it was stored (or the day
        has ended since): in a worker process, then stored whole, unless a refresh with
        more results was stored meanwhile (``save_standings``)."""
        final = moment >= day_end(day)
        state = await self.db(self.store.ranking_state, day)
        if state is None or (state[1] and not final):
            return  # no such day, or its ranking is final (and this clock says otherwise)
        results = await self.db(self.store.ranked_scores, day)
        if len(results) == state[0] and (state[1] or not final):
            return
        started = asyncio.get_running_loop().time()
        standings = await self.work.run(standings_job(results, DEALS, final), priority=Priority.ANALYSIS)
        await self.db(self.store.save_standings, day, standings, len(results), final)
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
        await self.db(self.store.record, live.id, day, number, deal_result(live, number), finished)
        self._ranking_due(day)
        self.par_soon(day, number)

    # ----- one deal compared -----

    async def deal_field(self, day: str, number: int) -> list[FieldLine]:
        return await self.db(self.store.deal_field, day, number)

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
        found = await self.db(self.store.par, day, number)
        if found is not None:
            return found
        try:
            return await asyncio.wait_for(asyncio.shield(self.par_soon(day, number)), wait)
        except TimeoutError:
            return None

    async def _par(self, day: str, number: int) -> dict[str, Any] | None:
        try:
            found = await self.db(self.store.par, day, number)
            if found is not None:
                return found
            row = await self.db(self.store.day, day)
            if row is None:
                return None
            rules = challenge_rules(row.profile)
            dealer = (FIRST_DEALER + number - 1) % 4
            data = await self.work.run(
                par_job(rules, dealer, day_hands(row.seed, day, number)), priority=Priority.ANALYSIS
            )
            await self.db(self.store.save_par, day, number, data)
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
            table_id = await self.db(self.store.expert_table, day)
            if table_id is None:
                found = await self.db(self.store.day, day)
                if found is None:
                    return
                expert = Seat("bot", level=EXPERT_LEVEL)
                bot = Seat("bot", level=self.settings.challenge_level)
                spec = await self.tables.create_table(
                    challenge_rules(found.profile),
                    (expert, bot, bot, bot),
                    self.settings.challenge_level,
                    DailyChallengeTable(day),
                    Dealing(found.seed, table_seed(found.seed), FIRST_DEALER),
                )
                table_id = await self.db(self.store.claim_expert_table, day, spec.id)
                if table_id != spec.id:  # another process was first: theirs is the one
                    await self.db(self.store.abandon_table, spec.id)
            assert table_id is not None
            await self.computers.play_out(table_id)
        except Exception:
            log.exception("the expert's play of %s failed (tried again at the next round)", day)
        finally:
            self._experts.pop(day, None)

    async def expert_results(self, day: str) -> list[dict[str, Any]]:
        """The expert's result on each deal of the day it has finished (empty before)."""
        table_id = await self.db(self.store.expert_table, day)
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
