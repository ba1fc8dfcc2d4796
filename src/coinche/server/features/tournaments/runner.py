"""The tournaments' runner in each process: what people ask of a tournament, the listener
that records a round table's result, and the loop (woken by the hub, else every
``Settings.tournament_tick_seconds``) that starts rounds, makes their tables, plays out the
tables of computers, closes a round when its tables are done or its clock ran out, and
keeps the daily arena."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime, timedelta
from typing import Any, Final

from sqlalchemy.exc import IntegrityError

from ...compute.bot_pool import Priority
from ...compute.work import Work
from ...infra.config import Settings
from ...infra.database import Database
from ...infra.hub import Hub, Subscription
from ...live.events import DealEnded, GameEnded
from ...live.ports import Gate, PlaysOut, TableMaker
from ...live.presence import Attendance
from ...live.registry import LiveTables
from ...table.days import CLUB_TIME
from ...table.kinds import Sight, TableKind, TournamentTable
from ...table.live_table import TableError
from ...table.spec import Seat
from ..following import FollowingStore, one_account
from ..open_tables import WATCHERS_CHANGED
from ..quick_play import account_names, person_channel
from .jobs import round_par_job
from .model import (
    SITE,
    Entry,
    Plan,
    RoundTable,
    Snapshot,
    StandingLine,
    Tournament,
    channel,
    daily_arena_id,
    daily_arena_plan,
    result_json,
    seen_deals,
)
from .store import TournamentStore

log = logging.getLogger("coinche.tournaments")

RUN_CHANNEL: Final = "tournaments"
"""The hub's key on which a result or a change wakes every process's runner (and the list)."""
UNMADE_AFTER: Final = timedelta(seconds=10)
SNAPSHOTS_KEPT: Final = 64
"""Tournaments whose standings a process keeps computed."""
MAKING_AT_ONCE: Final = 16
"""Tables of a round made together (the database's threads do the writes)."""
PARS_KEPT: Final = 512
"""Deals' pars a process keeps (a finished tournament's comparison pages)."""
DAILY_ARENA_EVERY: Final = 60.0
"""How often a runner makes sure today's and tomorrow's daily arenas exist."""


class Tournaments:
    """The tournaments of one process: what people ask, the listener that records each
    round table's result, and the runner that moves every tournament due one stage on
    (see the package)."""

    def __init__(
        self,
        store: TournamentStore,
        db: Database,
        hub: Hub,
        settings: Settings,
        registry: LiveTables,
        tables: TableMaker,
        computers: PlaysOut,
        attendance: Attendance,
        work: Work,
        following: FollowingStore,
    ) -> None:
        self.store = store
        self.db = db
        self.hub = hub
        self.settings = settings
        self.tables = tables
        """Where a round's tables are made and read."""
        self.computers = computers
        """Where a round's tables of computers are played out."""
        self.attendance = attendance
        self.work = work
        """Where a finished round's pars are computed."""
        self.following = following
        """The accounts' names (a partner named, the names at a round's tables)."""
        self.entry_gates: list[Callable[[Tournament, str], Awaitable[None]]] = []
        """Each asked with the tournament before a person enters or accepts (a club's
        tournament: its members alone)."""
        self.gates: list[Gate] = []
        """Each asked before a person enters, is entered as a partner or accepts
        (``TableError`` refuses them: a suspension)."""
        self._runner: asyncio.Task[None] | None = None
        self._wake: Subscription | None = None
        self._playing: dict[str, asyncio.Task[None]] = {}
        self._snapshots: dict[str, Snapshot] = {}
        self._pars: dict[tuple[str, int, int], asyncio.Task[dict[str, Any] | None]] = {}
        registry.on(DealEnded, self._deal_ended)
        registry.on(GameEnded, self._game_ended)

    def now(self) -> datetime:
        return self.settings.clock()

    def start(self) -> None:
        self._wake = self.hub.subscribe(RUN_CHANNEL, steps=False)
        self._runner = asyncio.get_running_loop().create_task(self._run())

    async def close(self) -> None:
        for task in list(self._playing.values()):
            task.cancel()
        if self._runner is not None:
            self._runner.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._runner
        if self._wake is not None:
            self._wake.close()

    async def keep_daily_arena(self) -> None:
        """Today's and tomorrow's daily arenas exist (``Settings.daily_arena_hour``, club
        time; None: the site runs none)."""
        hour = self.settings.daily_arena_hour
        if hour is None:
            return
        moment = self.now()
        today = moment.astimezone(CLUB_TIME).date()
        for day in (today, today + timedelta(days=1)):
            plan = daily_arena_plan(day, hour, moment)
            if plan.starts_at + timedelta(minutes=plan.duration_minutes) <= moment:
                continue
            if await self.get(daily_arena_id(day)) is not None:
                continue
            with contextlib.suppress(IntegrityError):  # another process made it first
                await self.db(self.store.create, plan, SITE, moment, self.settings.table_seed, daily_arena_id(day))

    async def _run(self) -> None:
        assert self._wake is not None
        loop = asyncio.get_running_loop()
        kept = -DAILY_ARENA_EVERY
        while True:
            if loop.time() - kept >= DAILY_ARENA_EVERY:
                kept = loop.time()
                try:
                    await self.keep_daily_arena()
                except Exception:
                    log.exception("tournaments: the daily arena could not be made")
            with contextlib.suppress(TimeoutError):
                # asyncio.timeout, not wait_for: Python 3.11's wait_for can swallow a
                # cancellation that comes as its wait ends, and close() then waits forever
                async with asyncio.timeout(self.settings.tournament_tick_seconds):
                    await self._wake.wait()
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:  # the database may be away a moment: the next tick tries again
                log.exception("tournaments: a tick failed")

    async def _changed(self, tournament_id: str) -> None:
        await self.hub.signal(channel(tournament_id), {"kind": "changed"})

    # ----- what people ask -----

    async def create(self, plan: Plan, organiser: str) -> Tournament:
        plan.check(self.now())
        found = await self.db(self.store.create, plan, organiser, self.now(), self.settings.table_seed)
        await self.hub.signal(RUN_CHANNEL, {"kind": "created"})
        return found

    async def get(self, tournament_id: str) -> Tournament | None:
        return await self.db(self.store.get, tournament_id[:16])

    async def listing(self) -> dict[str, list[Tournament]]:
        return await self.db(self.store.listing)

    async def cancel(self, tournament_id: str, player: str) -> None:
        await self.db(self.store.cancel, tournament_id, player)
        await self._changed(tournament_id)

    async def start_now(self, tournament_id: str, player: str) -> None:
        await self.db(self.store.start_now, tournament_id, player, self.now())
        await self.hub.signal(RUN_CHANNEL, {"kind": "start"})

    async def enter(self, tournament_id: str, player: str, partner: str | None, code: str | None) -> Entry:
        tournament = await self.get(tournament_id)
        if tournament is not None:
            for entry_gate in self.entry_gates:
                await entry_gate(tournament, player)
                if partner is not None:
                    await entry_gate(tournament, partner)
        for gate in self.gates:
            await gate(player)
            if partner is not None:
                try:
                    await gate(partner)
                except TableError:  # their why is theirs: the other is told only no
                    raise TableError("partner_refused") from None
        entry = await self.db(self.store.enter, tournament_id, player, partner, code, self.now())
        await self._changed(tournament_id)
        if partner is not None:
            await self.hub.signal(person_channel(partner), {"kind": "tournament"})
        return entry

    async def answer(self, tournament_id: str, player: str, entry_id: str, accept: bool) -> None:
        tournament = await self.get(tournament_id) if accept else None
        if tournament is not None:
            for entry_gate in self.entry_gates:
                await entry_gate(tournament, player)
        if accept:
            for gate in self.gates:
                await gate(player)
        await self.db(self.store.answer, tournament_id, player, entry_id[:16], accept, self.now())
        await self._changed(tournament_id)
        await self.hub.signal(person_channel(player), {"kind": "tournament"})  # their other pages

    async def withdraw(self, tournament_id: str, player: str) -> None:
        await self.db(self.store.withdraw, tournament_id, player, self.now())
        await self._changed(tournament_id)

    async def of_club(self, club_id: str) -> list[Tournament]:
        return await self.db(self.store.of_club, club_id)

    async def finished_of_club(self, club_id: str, since: datetime, until: datetime, limit: int) -> list[Tournament]:
        return await self.db(self.store.finished_of_club, club_id, since, until, limit)

    async def entries(self, tournament_id: str) -> list[Entry]:
        return await self.db(self.store.entries, tournament_id)

    async def proposals(self, tournament_id: str, player: str) -> list[Entry]:
        return await self.db(self.store.proposals, tournament_id, player)

    async def partner_requests(self, player: str) -> list[tuple[Tournament, Entry]]:
        """Who asks ``player`` to be their partner, in which tournament (still to answer)."""
        return await self.db(self.store.partner_requests, player, self.now())

    async def round_tables(self, tournament_id: str) -> list[RoundTable]:
        return await self.db(self.store.tables, tournament_id, None)

    async def person_table(self, player: str) -> str | None:
        return await self.db(self.store.person_table, player)

    async def played_by(self, player: str, private: bool = False) -> list[tuple[Tournament, str]]:
        return await self.db(self.store.played_by, player, private)

    async def account_named(self, name: str) -> str:
        """The player of the account a person means by ``name`` (any case, any accents;
        ``TableError``: ``no_account``, ``ambiguous_name``)."""
        return one_account(await self.db(self.following.accounts, name[:64]))[0]

    async def sight(self, table_id: str, kind: TableKind) -> Sight | None:
        """The watching rule of a round's tables (``WATCHED_AFTER_SHARED_DEALS``), the same
        for anyone (an account or not, an entrant or not): a public tournament's table as
        it stood at the end of the last deal every table of its round has played
        (``seen_deals``), nothing before the first; all of it once the round's tables play
        no more."""
        if not isinstance(kind, TournamentTable):
            return None
        tournament = await self.get(kind.tournament)
        if tournament is None or tournament.code is not None:
            return None
        tables = await self.db(self.store.tables, tournament.id, kind.round)
        seen = seen_deals(tournament, tables).get(kind.round, 0)
        if seen <= 0:
            return None
        return Sight() if seen >= kind.deals else Sight(seen)

    async def _seen_moved(self, tournament_id: str, number: int) -> None:
        """A table of round ``number`` ended a deal or was scored: its tables' watchers ask
        again what they may see (``WATCHERS_CHANGED`` on each table's hub)."""
        for table in await self.db(self.store.tables, tournament_id, number):
            await self.hub.signal(table.table_id, {"kind": WATCHERS_CHANGED})

    async def names(self, players: Sequence[str]) -> dict[str, str]:
        return await self.db(account_names, self.following.store, list(players))

    async def pars(self, tournament: Tournament, number: int, wait: float = 10.0) -> list[dict[str, Any] | None]:
        """Each deal's double-dummy par of round ``number`` of a finished tournament
        (computed once per process in the computers' pool; None: not ready in ``wait``)."""
        if tournament.state != "finished":
            return [None] * tournament.deals
        tasks = [self._par_soon(tournament, number, deal) for deal in range(1, tournament.deals + 1)]
        await asyncio.wait([asyncio.shield(t) for t in tasks], timeout=wait)
        return [t.result() if t.done() and not t.cancelled() and t.exception() is None else None for t in tasks]

    def _par_soon(self, tournament: Tournament, number: int, deal: int) -> asyncio.Task[dict[str, Any] | None]:
        key = (tournament.id, number, deal)
        task = self._pars.get(key)
        if task is None:
            if len(self._pars) >= PARS_KEPT:
                self._pars.pop(next(iter(self._pars))).cancel()
            task = self._pars[key] = asyncio.get_running_loop().create_task(self._par(tournament, number, deal))
        return task

    async def _par(self, tournament: Tournament, number: int, deal: int) -> dict[str, Any] | None:
        try:
            return await self.work.run(round_par_job(tournament, number, deal), priority=Priority.ANALYSIS)
        except Exception:
            log.exception("tournament %s round %d deal %d: no par", tournament.id, number, deal)
            self._pars.pop((tournament.id, number, deal), None)
            return None

    async def results_of(self, player: str, private: bool) -> list[tuple[Tournament, StandingLine | None, int]]:
        """The tournaments ``player`` played (latest first; the private ones if
        ``private``): their line of the standings (None when their entry ended before any
        game) and the field's size."""
        out = []
        for tournament, entry_id in await self.played_by(player, private):
            lines = await self.standings(tournament)
            mine = next((line for line in lines if line.entry.id == entry_id), None)
            out.append((tournament, mine, len(lines)))
        return out

    async def standings(self, tournament: Tournament) -> list[StandingLine]:
        """The standings from the results so far (a round under way counts once scored)."""
        return (await self.snapshot(tournament)).lines

    async def snapshot(self, tournament: Tournament) -> Snapshot:
        """Its entries, tables and standings as of now: computed on the database's threads
        (256 pairs after eleven rounds: about 50 ms, which the event loop must not spend),
        and kept while nothing changes (``TournamentStore.version``: every standings read
        of a round under way between two results is one small query)."""
        if tournament.state == "open":  # entries come and go: nothing kept
            return await self.db(self.store.snapshot, tournament, None)
        version = await self.db(self.store.version, tournament.id)
        key = (tournament.state, tournament.round, tournament.round_closed_at, version)
        found = self._snapshots.get(tournament.id)
        if found is not None and found.key == key:
            return found
        found = await self.db(self.store.snapshot, tournament, key)
        self._snapshots[tournament.id] = found
        while len(self._snapshots) > SNAPSHOTS_KEPT:
            self._snapshots.pop(next(iter(self._snapshots)))
        return found

    # ----- the runner -----

    async def tick(self) -> None:
        """Move every tournament that is due one stage on (see the module)."""
        moment = self.now()
        for tournament in await self.db(self.store.due, moment):
            if tournament.state == "open":
                await self._start_round(tournament.id, 1)
                continue
            number = tournament.round
            if tournament.is_arena:
                await self._arena(tournament, moment)
                continue
            if tournament.round_closed_at is None:
                await self._make_unmade(tournament, moment)
                if await self._round_over(tournament, moment):
                    await self._changed(tournament.id)
                continue
            next_at = tournament.next_round_at()
            if next_at is None:
                if await self.db(self.store.finish, tournament.id, number, moment):
                    await self._changed(tournament.id)
                    await self.hub.signal(RUN_CHANNEL, {"kind": "finished"})
            elif moment >= next_at:
                await self._start_round(tournament.id, number + 1)

    async def _start_round(self, tournament_id: str, number: int) -> None:
        made = await self.db(self.store.start_round, tournament_id, number, self.now())
        tournament = await self.get(tournament_id)
        if tournament is not None:
            await self._make_all(tournament, made)
        await self._changed(tournament_id)

    async def _arena(self, tournament: Tournament, moment: datetime) -> None:
        """An arena under way: seat the pairs waiting (a wave), follow its tables; at its
        end, score the tables still playing as they stand and finish it."""
        await self._make_unmade(tournament, moment)
        ends = tournament.ends_at
        assert ends is not None
        if moment < ends:
            made = await self.db(self.store.arena_wave, tournament.id, tournament.round, moment)
            await self._make_all(tournament, made)
            if made:
                await self._changed(tournament.id)
        tables = await self.db(self.store.tables, tournament.id, None)
        waiting = []
        for table in tables:
            if table.result is not None:
                continue
            closes_at = tournament.round_closes_at(table.claimed_at)
            if moment >= closes_at:  # its clock ran out: scored as it stands, its pairs free
                if await self._score_as_it_stands(tournament, table, moment):
                    await self._changed(tournament.id)
                continue
            waiting.append(table)
            await self._play_computers(table)
        if moment < ends:
            return
        for table in waiting:
            await self._score_as_it_stands(tournament, table, moment)
        await self.db(self.store.close_round, tournament.id, tournament.round, moment)
        if await self.db(self.store.finish, tournament.id, tournament.round, moment):
            await self._changed(tournament.id)

    async def _make_unmade(self, tournament: Tournament, moment: datetime) -> None:
        number = None if tournament.is_arena else tournament.round
        await self._make_all(tournament, await self.db(self.store.unmade, tournament.id, number, moment - UNMADE_AFTER))

    async def _make_all(self, tournament: Tournament, tables: Sequence[RoundTable]) -> None:
        """Make a round's tables, ``MAKING_AT_ONCE`` at a time (128 one after the other took
        seconds: each is a write and a read), their people's names read at once."""
        if not tables:
            return
        names = await self.names(sorted({s.player for t in tables for s in t.seats if s.player is not None}))
        for start in range(0, len(tables), MAKING_AT_ONCE):
            batch = tables[start : start + MAKING_AT_ONCE]
            await asyncio.gather(*(self._make(tournament, table, names) for table in batch))

    async def make_named(self, table_id: str) -> bool:
        """Make now the round's table ``table_id`` if it is named and not made yet (the
        round is seated in the database before its tables are made): a person sent to it
        opens it at any moment. Whether it was such a table (made now, here or elsewhere).
        A ``Tables.unmade_hooks`` hook."""
        named = await self.db(self.store.named, table_id)
        if named is None:
            return False
        tournament_id, table = named
        tournament = await self.get(tournament_id)
        if tournament is None:
            return False
        names = await self.names(sorted(s.player for s in table.seats if s.player is not None))
        # its own task: a connection closed meanwhile leaves the table made whole
        await asyncio.shield(asyncio.ensure_future(self._make(tournament, table, names)))
        return True

    async def _make(self, tournament: Tournament, table: RoundTable, names: dict[str, str]) -> None:
        players = [s.player for s in table.seats if s.player is not None]
        seats = [
            s if s.player is None else Seat("human", player=s.player, name=names.get(s.player, "?"))
            for s in table.seats
        ]
        try:
            kind, dealing = tournament.round_table(table.round, table.claimed_at)
            await self.tables.create_table(
                tournament.rules, seats, tournament.level, kind, dealing, table_id=table.table_id
            )
        except IntegrityError:  # made already (by another process, for a table left unmade)
            return
        live = await self.tables.table(table.table_id)
        if live is not None:
            self.attendance.game_started(live)
        await self._play_computers(table)
        for player in players:
            await self.hub.signal(person_channel(player), {"kind": "tournament", "table": table.table_id})

    async def _play_computers(self, table: RoundTable) -> None:
        """A table of computers only (its people all away at the start, or all stood in for
        since) is played out here, and by any process that finds it so (each step is stored
        once): nobody watches it, so nothing else would play its computers' turns."""
        task = self._playing.get(table.table_id)
        if task is not None and not task.done():
            return
        if any(s.kind == "human" for s in table.seats):
            live = await self.tables.table(table.table_id)
            if live is None or not all(seat.played_by_computer for seat in live.seats):
                return
        if task is None or task.done():
            task = asyncio.get_running_loop().create_task(self._play_out(table.table_id))
            self._playing[table.table_id] = task

    async def _play_out(self, table_id: str) -> None:
        try:
            await self.computers.play_out(table_id)
        except TableError as e:
            # gone: named, not made yet (``_make_unmade`` makes it); not_seated: a person
            # came back to their seat (they play it, their table is watched again)
            if e.code not in ("gone", "not_seated"):
                log.exception("tournament table %s: its computers could not play it out", table_id)
        except Exception:
            log.exception("tournament table %s: its computers could not play it out", table_id)
        finally:
            self._playing.pop(table_id, None)

    async def _score_as_it_stands(self, tournament: Tournament, table: RoundTable, moment: datetime) -> bool:
        """Record a table whose clock ran out as it stands (its table read afresh: another
        process may have stored its last steps); False if it had a result already."""
        live = await self.tables.table(table.table_id, fresh=True)
        if not await self.db(self.store.record, table.table_id, result_json(live, tournament.deals), moment):
            return False
        await self._seen_moved(tournament.id, table.round)
        return True

    async def _round_over(self, tournament: Tournament, moment: datetime) -> bool:
        """Close the round under way when its tables all have a result, or its clock ran
        out (the tables still playing are scored as they stand)."""
        tables = await self.db(self.store.tables, tournament.id, tournament.round)
        waiting = [t for t in tables if t.result is None]
        for table in waiting:
            await self._play_computers(table)
        ends = tournament.round_ends_at
        if waiting and (ends is None or moment < ends):
            return False
        for table in waiting:
            await self._score_as_it_stands(tournament, table, moment)
        return await self.db(self.store.close_round, tournament.id, tournament.round, moment)

    async def _deal_ended(self, event: DealEnded) -> None:
        """Keep the deal's points; when every table of the round has now played it, its
        watchers see it (``_seen_moved``)."""
        live, number = event.table, event.number
        kind = live.spec.kind
        if not isinstance(kind, TournamentTable):
            return
        played = [[points[0], points[1]] for points in live.game.history[:number]]
        if await self.db(self.store.deal_played, live.id, played):
            tournament = await self.get(kind.tournament)
            tables = await self.db(self.store.tables, kind.tournament, kind.round)
            if tournament is not None and seen_deals(tournament, tables).get(kind.round, 0) >= number:
                await self._seen_moved(kind.tournament, kind.round)
        await self._changed(kind.tournament)

    async def _game_ended(self, event: GameEnded) -> None:
        live = event.table
        if not isinstance(live.spec.kind, TournamentTable):
            return
        result = result_json(live, live.spec.kind.max_deals or 0)
        if await self.db(self.store.record, live.id, result, self.now()):
            await self.hub.signal(RUN_CHANNEL, {"kind": "result"})
