"""The one place that builds the server's parts from its ``Settings``: the computers' pool,
the hub, the table service and the features that listen to it (the daily challenge, the
history, the players' statistics, the adaptive level's pars). ``coinche serve`` (the web application's start) and
``coinche worker`` both build them here, so a worker plays by the settings the servers
play by."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from .compute import jobs
from .compute.bot_pool import BotPool
from .compute.job_kinds import BUILTIN_KINDS
from .compute.jobs import JobKind
from .features.adaptive_level import AdaptiveLevel
from .features.daily.runner import DailyChallenge
from .features.following import Following, FollowingStore
from .features.history import History
from .features.open_tables import OpenTables
from .features.player_stats import PlayerStats
from .features.puzzles import Puzzles
from .features.quick_play import QuickPlay
from .features.tournaments import jobs as tournament_jobs
from .features.tournaments.runner import Tournaments
from .features.tournaments.store import TournamentStore
from .infra.config import Settings
from .infra.hub import Hub
from .infra.store import Store
from .live.tables import TableService


@dataclass
class Services:
    """What a server or a worker runs, started; ``close()`` stops it all (not the store,
    which its builder owns)."""

    settings: Settings
    store: Store
    pool: BotPool
    tables: TableService
    """Its ``hub`` is the one it was started with."""
    daily: DailyChallenge
    history: History
    player_stats: PlayerStats
    quick_play: QuickPlay
    open_tables: OpenTables
    following: Following
    tournaments: Tournaments
    puzzles: Puzzles
    adaptive_level: AdaptiveLevel

    async def close(self) -> None:
        await self.adaptive_level.close()
        await self.puzzles.close()
        await self.tournaments.close()
        await self.quick_play.close()
        await self.daily.close()
        await self.tables.close()
        await self.pool.aclose()
        self.pool.close()


JOB_KINDS: tuple[JobKind[Any], ...] = (*BUILTIN_KINDS, *tournament_jobs.JOB_KINDS)
"""Every kind of job a server may ask for: the built-in ones, then each feature's own."""


def register_job_kinds() -> None:
    """Register ``JOB_KINDS``: a server and a worker both do (``start_services``,
    ``Worker``), so a worker runs every kind a server asks for and refuses any other."""
    jobs.register(*JOB_KINDS)


async def start_services(settings: Settings, store: Store, hub: Hub | None = None, hands_over: bool = True) -> Services:
    """Everything ``settings`` says, on ``store``: the pool warmed up (its first decision
    answers as fast as the others), the hub (``hub``, else the backend's: ``Backend.hub``), the table
    service and its listeners. ``hands_over``: the computers' turns go to live workers (a
    worker's own service plays them itself)."""
    register_job_kinds()
    pool = BotPool(settings.bot_workers)
    await asyncio.get_running_loop().run_in_executor(None, pool.warm_up)
    tables = TableService(store, pool, settings, hub or await store.backend.hub(), hands_over)
    return Services(
        settings,
        store,
        pool,
        tables,
        DailyChallenge(tables),
        History(tables),
        PlayerStats(tables),
        QuickPlay(tables),
        OpenTables(tables),
        Following(tables),
        tournaments(tables),
        Puzzles(tables),
        AdaptiveLevel(tables),
    )


def tournaments(tables: TableService) -> Tournaments:
    """The tournaments, on what they use of the tables' service: its database threads, hub
    and registry (a round table's results), the tables it makes and plays out, who is at
    them, the computers' work (a round's pars) and the accounts' names."""
    return Tournaments(
        TournamentStore(tables.store),
        tables.db,
        tables.hub,
        tables.settings,
        tables.registry,
        tables,
        tables.attendance,
        tables.work,
        FollowingStore(tables.store),
    )
