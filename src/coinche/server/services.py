"""The one place that builds the server's parts from its ``Settings``: the computers' pool,
the database's threads, the hub, the live tables and what acts on them (the tables, the
free deals, the computers, who is here), and each feature on the parts it uses. ``coinche
serve`` (the web application's start) and ``coinche worker`` both build them here, so a
worker plays by the settings the servers play by."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, fields
from typing import Any

from .compute import jobs
from .compute.bot_pool import BotPool
from .compute.job_kinds import BUILTIN_KINDS
from .compute.jobs import JobKind
from .features.account_recovery import RecoveryStore
from .features.accuracy import Accuracies, AccuracyStore
from .features.adaptive_level import AdaptiveLevel
from .features.bidding_puzzles import BiddingPuzzleStore
from .features.club_points import ClubPoints
from .features.clubs import Clubs, ClubStore
from .features.coach import Coach, CoachStore
from .features.comparisons import Comparisons
from .features.daily.runner import DailyChallenge
from .features.daily.store import ChallengeStore
from .features.following import Following, FollowingStore
from .features.friends import Friends
from .features.history import History, HistoryStore
from .features.ladder.runner import Ladder
from .features.ladder.store import LadderStore
from .features.mail import Mailer, MailStore
from .features.mistakes import JOB_KINDS as MISTAKE_JOB_KINDS
from .features.mistakes import Mistakes, MistakeStore
from .features.moderation import Moderation, ModerationStore
from .features.open_tables import OpenTables, OpenTableStore
from .features.player_stats import PlayerStats, StatsStore
from .features.progress import Progress, ProgressStore
from .features.puzzles import Puzzles, PuzzleStore
from .features.quick_play import QuickPlay, QuickPlayStore
from .features.review import Reviews
from .features.seasons import Seasons, SeasonStore
from .features.tournaments import jobs as tournament_jobs
from .features.tournaments.runner import Tournaments
from .features.tournaments.store import TournamentStore
from .infra.config import Settings
from .infra.hub import Hub
from .infra.store import Store
from .live.parts import TableParts, table_parts
from .table.kinds import WATCHED_AFTER_SHARED_DEALS, WATCHED_WHILE_LISTED, WatchRule


@dataclass(repr=False)
class Services(TableParts):
    """What a server or a worker runs, started; ``close()`` stops it all (not the store,
    which its builder owns)."""

    daily: DailyChallenge
    friends: Friends
    history: History
    player_stats: PlayerStats
    quick_play: QuickPlay
    open_tables: OpenTables
    following: Following
    tournaments: Tournaments
    puzzles: Puzzles
    adaptive_level: AdaptiveLevel
    reviews: Reviews
    accuracies: Accuracies
    mistakes: Mistakes
    progress: Progress
    comparisons: Comparisons
    coach: Coach
    moderation: Moderation
    seasons: Seasons
    clubs: Clubs
    club_points: ClubPoints
    mailer: Mailer
    ladder: Ladder
    recovery_store: RecoveryStore
    watch_rules: dict[str, WatchRule]
    """Each watching rule of the table kinds (``TableKind.watched``), by the feature that
    decides it; a rule not here: nobody watches."""

    async def close(self) -> None:
        await self.ladder.close()
        await self.mailer.close()
        await self.adaptive_level.close()
        await self.accuracies.close()
        await self.seasons.close()
        await self.puzzles.close()
        await self.tournaments.close()
        await self.quick_play.close()
        await self.daily.close()
        await super().close()
        await self.pool.aclose()
        self.pool.close()


JOB_KINDS: tuple[JobKind[Any], ...] = (*BUILTIN_KINDS, *tournament_jobs.JOB_KINDS, *MISTAKE_JOB_KINDS)
"""Every kind of job a server may ask for: the built-in ones, then each feature's own."""


def register_job_kinds() -> None:
    """Register ``JOB_KINDS``: a server and a worker both do (``start_services``,
    ``Worker``), so a worker runs every kind a server asks for and refuses any other."""
    jobs.register(*JOB_KINDS)


async def start_services(settings: Settings, store: Store, hub: Hub | None = None, hands_over: bool = True) -> Services:
    """Everything ``settings`` says, on ``store``: the pool warmed up (its first decision
    answers as fast as the others), the hub (``hub``, else the backend's: ``Backend.hub``), the
    live tables and each feature listening to them. ``hands_over``: the computers' turns go
    to live workers (a worker's own services play them itself)."""
    register_job_kinds()
    pool = BotPool(settings.bot_workers)
    await asyncio.get_running_loop().run_in_executor(None, pool.warm_up)
    parts = table_parts(store, pool, settings, hub or await store.backend.hub(), hands_over)
    p = parts
    player_stats = PlayerStats(StatsStore(store), p.db, p.registry)
    p.tables.abandon_hooks.append(player_stats.abandoned)
    p.tables.adaptive_start = player_stats.adaptive_start
    open_tables = OpenTables(OpenTableStore(store), p.db, p.hub, p.registry)
    tournament_runner = tournaments(parts)
    p.tables.unmade_hooks.append(tournament_runner.make_named)
    reviews = Reviews(store, p.db, p.work)
    accuracies = Accuracies(AccuracyStore(store), p.db, p.registry, reviews, settings.deal_accuracy)
    mistakes = Mistakes(MistakeStore(store), p.db, p.work)
    progress = Progress(ProgressStore(store), p.db)
    accuracies.kept_hooks += [mistakes.found, progress.found]
    quick_play = QuickPlay(QuickPlayStore(store), p.db, p.hub, settings, p.tables, p.attendance)
    moderation = Moderation(ModerationStore(store), p.db, settings.clock)
    quick_play.gates.append(moderation.may_meet_strangers)
    tournament_runner.gates.append(moderation.may_meet_strangers)
    moderation.acted_hooks.append(quick_play.sanctioned)
    seasons = Seasons(SeasonStore(store), p.db, p.registry, settings.clock, settings.season_check_seconds)
    quick_play.made_hooks.append(seasons.made)
    clubs = Clubs(ClubStore(store), p.db, p.rate_limits, settings.clock, settings.club_invite_limit)
    friends = Friends(store, p.db, settings, p.tables, p.attendance, p.rate_limits, p.hub)
    friends.seat_gates.append(clubs.may_sit)
    tournament_runner.entry_gates.append(clubs.may_enter)
    mailer = Mailer(
        MailStore(store), p.db, settings.clock, settings.smtp_url, settings.mail_from, settings.mail_check_seconds
    )
    ladder = Ladder(LadderStore(store), p.db, p.hub, settings, p.registry, p.tables, p.computers, p.attendance, mailer)
    p.tables.abandon_hooks.append(ladder.abandoned)
    return Services(
        **{f.name: getattr(parts, f.name) for f in fields(TableParts)},
        daily=DailyChallenge(
            ChallengeStore(store), p.db, settings, p.registry, p.tables, p.computers, p.work, p.free_deals
        ),
        friends=friends,
        history=History(HistoryStore(store), p.db, p.registry),
        player_stats=player_stats,
        quick_play=quick_play,
        open_tables=open_tables,
        following=Following(FollowingStore(store), p.db, p.hub, settings, p.registry),
        tournaments=tournament_runner,
        puzzles=Puzzles(PuzzleStore(store), BiddingPuzzleStore(store), p.db, settings, p.registry, p.work, p.pool),
        adaptive_level=AdaptiveLevel(p.registry, p.work),
        reviews=reviews,
        accuracies=accuracies,
        mistakes=mistakes,
        progress=progress,
        comparisons=Comparisons(p.work),
        moderation=moderation,
        seasons=seasons,
        clubs=clubs,
        club_points=ClubPoints(tournament_runner),
        recovery_store=RecoveryStore(store),
        mailer=mailer,
        ladder=ladder,
        coach=Coach(CoachStore(store), p.db, p.work, settings.coach_deals, settings.coach_bot),
        watch_rules={WATCHED_WHILE_LISTED: open_tables, WATCHED_AFTER_SHARED_DEALS: tournament_runner},
    )


def tournaments(parts: TableParts) -> Tournaments:
    """The tournaments, on the parts they use: the database's threads, hub and registry (a
    round table's results), the tables it makes and the computers that play them out, who
    is at them, the computers' work (a round's pars) and the accounts' names."""
    return Tournaments(
        TournamentStore(parts.store),
        parts.db,
        parts.hub,
        parts.settings,
        parts.registry,
        parts.tables,
        parts.computers,
        parts.attendance,
        parts.work,
        FollowingStore(parts.store),
    )
