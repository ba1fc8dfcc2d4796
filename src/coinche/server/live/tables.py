"""The table service: what players, hosts and computers ask of a table, and nothing of HTTP.

A table is its ``TableSpec`` (rules, seed, first dealer, first seats) and its log of steps
in the database: the actions, the requests for the next deal, the changes of seat. Each
request is a check of the live table (``LiveTable``) that gives the step to store or
refuses; the registry (``registry.py``) holds the live tables and stores the step through
its one write path (written, then applied, then announced on the hub), reading the log
and checking again when its copy was behind another process's steps. This service listens
to the commits for the free deals a void deal gives back, and follows every step to start
the computers' turns and time the person who must play.

Computer seats play in ``_bot_turns`` while a table is watched: the decision is computed
in the worker pool with the table unlocked, shown after the display pause, and stored only
if the table has not moved on meanwhile. On PostgreSQL with a ``coinche worker`` alive the
turn is handed to the workers instead (``infra/work_queue.py``, ``worker.py``: the worker stores the
move through this same write path and the hub brings it here), and so are hints and
analyses (``work.py``); this process plays itself when no worker answers in time. Idle
tables leave memory (``LiveTables.evict_idle``) and come back from the log on demand;
looking a table up starts nothing.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import functools
import hashlib
import logging
import random
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from limits import RateLimitItemPerMinute
from sqlalchemy.exc import IntegrityError

from ...bots.base import Decision
from ...engine.actions import Action
from ...engine.deal import Phase, View
from ...engine.rules import RuleSet
from ...engine.wire import message_to_json
from ..compute.bot_pool import BotPool, BotSpec, PoolBusy, Priority
from ..compute.work import Work
from ..infra.config import Settings
from ..infra.hub import Hub, LocalHub
from ..infra.process_logs import instance_id
from ..infra.store import Database, Store, new_id
from ..table import requests
from ..table.fair_deals import new_secret
from ..table.kinds import SOLO, Dealing, TableKind
from ..table.live_table import Check, LiveTable, TableError, decision_seed
from ..table.requests import check_turn, request_key, seat_held
from ..table.spec import PlayedBy, Seat, Step, TableSpec
from .events import DealEnded
from .presence import Attendance
from .registry import LiveTables

log = logging.getLogger("coinche.tables")
T = TypeVar("T")

AbandonHook = Callable[["LiveTable", str], Awaitable[None]]
"""Told that a player gave up the table's game (``TableService.abandon``)."""
AdaptiveStart = Callable[[str], Awaitable[float]]
"""The adaptive knob's start for a player (``player_stats.py``: from their rating)."""
"""Told that deal ``n`` (from 1) of a daily challenge's table is over (``features/daily``)."""

LEVELS = ("adaptive", "beginner", "confirmed", "expert")
"""The computer levels a player picks for a solo table."""

TARGETS: dict[str, tuple[int, ...]] = {
    "classic": (700, 3000),
    "federation": (2000,),
    "house": (2010, 3010),
    "online": (501, 1001, 2001),
}
"""The targets each profile's players choose from (RULES.md section 2), default first in
``PROFILES``."""

HINT_BOT = "expert"

DEALS_CACHE = 20_000
"""Players whose count of free deals played is kept in memory."""

"""Seconds a server trusts its last look at whether a worker is alive."""


def explanation_json(decision: Decision) -> dict[str, Any] | None:
    """What the database keeps of a computer's reasons: the public and private texts (in
    English), the translatable reason and, when it says more, the translatable private
    reason (``private_reason``; rows stored before it have none). None when the decision
    gives no reason."""
    if decision.explanation is None and decision.private_explanation is None and decision.reason is None:
        return None
    data: dict[str, Any] = {
        "public": decision.explanation,
        "private": decision.private_explanation,
        "reason": message_to_json(decision.reason) if decision.reason is not None else None,
    }
    if decision.private_reason is not None and decision.private_reason != decision.reason:
        data["private_reason"] = message_to_json(decision.private_reason)
    return data


def seeded_id(seed: int | str, created: int, attempt: int) -> str:
    """A table's id under ``Settings.table_seed`` (tests): reproducible like its deals,
    which are dealt under its id (docs/dealing.md)."""
    digest = hashlib.sha256(f"coinche-test-table:{seed}:{created}:{attempt}".encode()).digest()
    return base64.urlsafe_b64encode(digest[:6]).decode()


@dataclass(frozen=True)
class BotTurn:
    """A computer's turn as it was asked: the seat, the step it was asked at (its move is
    stored at the next step unless the table moved on since: ``LiveTable.moved_on_since``),
    the seat's view, which bot decides (with its seed), and whether a trick was just
    gathered (the longer pause)."""

    seat: int
    seq: int
    view: View
    spec: BotSpec
    trick_done: bool


class TableService:
    def __init__(
        self, store: Store, pool: BotPool, settings: Settings, hub: Hub | None = None, hands_over: bool = True
    ) -> None:
        self.store = store
        self.db = Database(store)
        self.work = Work.of(pool, self.db, settings, store, hands_over)
        """Where hints, analyses and, on PostgreSQL with workers alive, the computers' turns
        are computed (``hands_over``: a server; a worker computes its own)."""
        self.pool = pool
        self.settings = settings
        self.hub: Hub = hub or LocalHub()
        self.registry = LiveTables(store, self.db, settings, self.hub)
        """The live tables, their locks and the one write path (``registry.py``)."""
        self.watchers = self.registry.watchers
        """Connections on each table: a watched table stays in memory and its computers play."""
        self.connections: Counter[tuple[str, str]] = Counter()
        """Connections of each player on each table (bounded by the socket session)."""
        self._deals_played: dict[str, int | None] = {}  # oldest first: a bounded cache
        """Free deals each player has used (None: an account, no limit), as last read here:
        every state message shows it, so it is not read again each time."""
        self._created = 0
        self._autoplay: Counter[str] = Counter()
        """Tables ``play_out`` is playing: their computers play without pauses."""
        self._hints: set[tuple[str, int]] = set()
        self._hint_rate = RateLimitItemPerMinute(settings.hints_per_minute)
        self._bot_tasks: dict[str, asyncio.Task[None]] = {}
        """The computers' turns being played at each table."""
        self.process = instance_id(settings.process_name)
        """This process among the servers sharing the database (its rows of presence)."""
        self.attendance = Attendance(self.registry, self.work, self.process)
        self.rate_limits = store.backend.rate_limits(self.db, store.engine)
        """How often a player may do what is limited (quick messages; the pages' forms)."""
        self.abandon_hooks: list[AbandonHook] = []
        """Called with the table and the player when a player gives up its game (once, by
        ``abandon``; idempotent all the same)."""
        self.adaptive_start: AdaptiveStart | None = None
        """Where a new adaptive solo table's knob starts for its player (None: 0.5)."""
        self.registry.on(DealEnded, self._give_back_void_deal)
        self.registry.follow(self._moved)
        self.registry.keep(self.thinking)

    # ----- tables -----

    async def create_solo(self, player: str, rules: RuleSet, level: str) -> TableSpec:
        """A table with ``player`` at seat 0 and computers of ``level`` at the others."""
        if level not in LEVELS:
            raise TableError("bad_level")
        has_account = await self.free_deals_left(player, fresh=True) is None
        limit = self.settings.open_tables_account if has_account else self.settings.open_tables_guest
        if len(await self.db(self.store.open_games, player)) >= limit:
            raise TableError("too_many_tables")
        if not await self._use_free_deals([player]):  # the first deal is dealt with the table
            raise TableError("limit")
        bot = Seat("bot", level=level)
        try:
            start = None
            if level == "adaptive" and self.adaptive_start is not None:
                start = await self.adaptive_start(player)
            seats = (Seat("human", player=player), bot, bot, bot)
            return await self.create_table(rules, seats, level, adaptive_start=start)
        except BaseException:
            await self._give_back_free_deals([player])
            raise

    async def create_table(
        self,
        rules: RuleSet,
        seats: Sequence[Seat],
        level: str,
        kind: TableKind = SOLO,
        dealing: Dealing | None = None,
        adaptive_start: float | None = None,
        table_id: str | None = None,
    ) -> TableSpec:
        """A new table of ``rules`` and ``kind`` with these four seats, stored: a ``bot``
        seat may have any level the bot loader knows (a name or ``module:attribute``);
        ``level`` is the table's level as shown. Nothing is checked of the players
        (``create_solo`` does). The deals follow ``dealing`` (the daily challenge's, a
        tournament round's), else they are random or follow ``Settings.table_seed`` (tests:
        reproducible). ``adaptive_start``: the adaptive knob's start (None: 0.5).
        ``table_id``: the id it must have (quick play named it in its queue's rows first;
        taken already: ``IntegrityError``)."""
        if len(seats) != 4:
            raise ValueError(f"a table has four seats, not {len(seats)}")
        self._created += 1
        seed = self.settings.table_seed
        rng = random.Random() if seed is None else random.Random(f"{seed}:{self._created}")
        spec = TableSpec(
            id=table_id or (new_id() if seed is None else seeded_id(seed, self._created, 0)),
            rules=rules,
            seed=rng.getrandbits(62),
            first_dealer=rng.randrange(4),
            seats=(seats[0], seats[1], seats[2], seats[3]),
            level=level,
            kind=kind,
            secret=new_secret(seed, self._created),
            adaptive_start=adaptive_start,
            adaptive_par=level == "adaptive",
        )
        if dealing is not None:
            spec = replace(spec, secret=dealing.secret, seed=dealing.seed, first_dealer=dealing.first_dealer)
        for attempt in range(1, 9):
            try:
                await self.db(self.store.create_table, spec)
                return spec
            except IntegrityError:
                # A seeded id (tests) may be another service's on the same database: the
                # next one; a random id is never taken, a code's clash goes up to
                # ``friends.create_table``.
                if seed is None or table_id is not None or attempt == 8:
                    raise
                spec = replace(spec, id=seeded_id(seed, self._created, attempt))
        raise AssertionError("unreachable")

    async def table(self, table_id: str, at_least: int = 0, fresh: bool = False) -> LiveTable | None:
        """The live table (``LiveTables.table``): None if there is none."""
        return await self.registry.table(table_id, at_least, fresh)

    def _moved(self, live: LiveTable, step: Step) -> None:
        """The table moved on (a step stored here, or read from another's): its computers
        play if it is watched here, and who must play is timed; a deal dealt counted free
        deals, in the database: read them again (an account has none to read)."""
        if live.spec.kind.uses_free_deals and step.kind == "deal":
            for player in live.human_players:
                if not self._unlimited(player):
                    self.forget_player(player)
        if self.watchers[live.id]:
            self._schedule_bots(live)
            self.attendance.turn_changed(live)

    async def _give_back_void_deal(self, event: DealEnded) -> None:
        """A void deal (four passes) stored here gives its free deals back."""
        live = event.table
        if not event.again and live.void_deal_ended and live.spec.kind.uses_free_deals:
            await self._give_back_free_deals(live.human_players)

    async def free_deals_left(self, player: str, fresh: bool = False) -> int | None:
        """The free deals ``player`` has left, None without limit (a player with an account);
        ``fresh``: read from the database, else as this process last read them (what pages
        and states show; the limit itself is enforced by ``use_free_deal`` in the database)."""
        if fresh or player not in self._deals_played:
            self._remember_deals(player, await self.db(self.store.free_deals_used, player))
        used = self._deals_played[player]
        return None if used is None else max(0, self.settings.free_deals - used)

    def forget_player(self, player: str) -> None:
        """The player's account changed (made, deleted): read their free deals again."""
        self._deals_played.pop(player, None)

    async def _use_free_deals(self, players: Sequence[str]) -> bool:
        """Count a free deal for each player as a deal is dealt to them; False (none counted)
        if one of them has none left. A player this process knows has an account is not
        asked of the database (accounts have no limit: a table of bots and people with
        accounts deals without a write)."""
        used: list[str] = []
        for player in players:
            if self._unlimited(player):
                continue
            had = await self.db(self.store.use_free_deal, player, self.settings.free_deals)
            if had is None:
                self._remember_deals(player, None)
                continue
            if not had:
                await self._give_back_free_deals(used)
                return False
            used.append(player)
            self.forget_player(player)
        return True

    async def _give_back_free_deals(self, players: Sequence[str]) -> None:
        """Give back the free deal counted for each player (a void deal, a deal not dealt)."""
        for player in players:
            if self._unlimited(player):
                continue
            await self.db(self.store.give_back_free_deal, player)
            self.forget_player(player)

    def _unlimited(self, player: str) -> bool:
        """This process knows ``player`` has an account (an account made since is read
        again: ``forget_player``)."""
        return player in self._deals_played and self._deals_played[player] is None

    def _remember_deals(self, player: str, played: int | None) -> None:
        """Keep a player's count (the most recent ``DEALS_CACHE`` players: a visitor without a
        cookie is a new player at each visit, so the cache must not grow without end)."""
        cache = self._deals_played
        cache.pop(player, None)
        cache[player] = played
        while len(cache) > DEALS_CACHE:
            del cache[next(iter(cache))]

    # ----- watching -----

    async def attach(self, live: LiveTable, player: str) -> None:
        """A connection of ``player`` watches the table: it stays in memory, its computers
        play, and the player is here (``Attendance``)."""
        self.registry.attach(live.id)
        self._schedule_bots(live)
        await self.attendance.arrived(live, player)
        self.attendance.turn_changed(live)

    def detach(self, table_id: str, player: str) -> None:
        """The connection closed (not a coroutine: it may be called as its task is cancelled)."""
        self.attendance.left(table_id, player)
        self.registry.detach(table_id)

    # ----- what players do -----

    async def abandon(self, table_id: str, player: str) -> None:
        """``player``, alone at the table with computers, gives up its game: it is finished
        as abandoned, and the ``abandon_hooks`` hear of it (the ratings count it lost). At a
        table of several people giving up is one person's act, which ends nothing for the
        others: ``friends.give_up``. ``TableError`` (nothing changed): ``gone``,
        ``not_seated``, ``over`` (the game ended, or was given up before)."""
        live = await self._require(table_id)
        if live.seat_of(player) is None:
            raise TableError("not_seated")
        if live.game.is_over or table_id not in await self.db(self.store.open_games, player):
            raise TableError("over")
        await self.db(self.store.finish_table, table_id, {"abandoned": True})
        for hook in self.abandon_hooks:
            try:
                await hook(live, player)
            except Exception:
                log.exception("table %s: a hook of the game given up failed", table_id)

    async def act(self, table_id: str, player: str, action: Action, request_id: str) -> int:
        """``player`` takes ``action`` at their seat; the table's seq after it.
        ``TableError`` (nothing changed) if they may not. A request already applied (same
        ``request_id``) is answered again, not applied again."""
        key = request_key(player, request_id)
        return await self.write(table_id, key, requests.play(player, action, key, self.settings.clock()))

    async def next_deal(self, table_id: str, player: str, request_id: str) -> int:
        """Deal the next hand once the players have seen the last one's summary; the
        table's seq after it (nothing stored if another player asked first). Each player
        seated uses a free deal (accounts have no limit)."""
        key = request_key(player, request_id)
        charged: list[str] = []
        """The players a free deal was counted for by the last check (given back if its
        step is not the one stored)."""

        async def give_back() -> None:
            await self._give_back_free_deals(charged)
            charged.clear()

        async def check(live: LiveTable) -> Step | None:
            await give_back()  # checked again after a lost race: the last count goes back
            step = requests.next_deal(live, player, key, self.settings.clock())
            if step is None or not live.spec.kind.uses_free_deals:  # friends invited, the daily challenge
                return step
            players = live.human_players
            if not await self._use_free_deals(players):  # one atomic count each, in the database
                raise TableError("limit")
            charged.extend(players)
            return step

        try:
            return await self.write(table_id, key, check)
        except Exception:  # nothing stored (a cancelled wait is not that: the write goes on)
            await give_back()
            raise

    async def play_out(self, table_id: str) -> LiveTable:
        """Play a table whose four seats are computers to its end, asking for each next
        deal itself and without the pauses people need (the daily challenge's expert play
        once the day is over). Two processes at it store each step once."""
        self._autoplay[table_id] += 1
        self.watchers[table_id] += 1  # its computers play while it is played out
        try:
            while True:
                live = await self._require(table_id)
                now = self.settings.clock()
                if live.game.is_over or requests.closed(live, now):
                    return live
                if live.game.awaiting_deal:
                    await self.write(table_id, None, requests.pure(functools.partial(requests.deal_on, now=now)))
                    continue
                if live.bot_to_move() is None:
                    raise TableError("not_seated")  # a person holds a seat: not a computers' table
                self._schedule_bots(live)
                task = self._bot_tasks.get(table_id)
                if task is not None:
                    await asyncio.shield(task)
        finally:
            for counter in (self._autoplay, self.watchers):
                counter[table_id] -= 1
                if counter[table_id] <= 0:
                    del counter[table_id]

    async def change_seat(self, table_id: str, seat: int, holder: Seat) -> int:
        """``seat`` is held by ``holder`` from the next step on (recorded in the log, so a
        replay knows who made each action); the table's seq after it."""
        if not 0 <= seat <= 3:
            raise ValueError(f"no seat {seat}")

        return await self.write(
            table_id, None, requests.pure(lambda live: Step(live.seq, "seat", seat, seat_data=holder))
        )

    async def hint(self, table_id: str, player: str) -> tuple[Decision, LiveTable, int]:
        """The expert's choice on ``player``'s own view (never on more), with the table and
        the seat it was asked at: one hint at a time per seat, ``hints_per_minute`` a player."""

        def asked(live: LiveTable) -> tuple[LiveTable, int, View, BotSpec]:
            if not live.spec.kind.allows_hints:
                raise TableError("no_hints")
            seat = seat_held(live, player)
            check_turn(live, seat)
            deal = live.game.current
            assert deal is not None
            return live, seat, deal.view(seat), BotSpec(HINT_BOT, seed=decision_seed(live, seat))

        live, seat, view, spec = await self.registry.look(table_id, asked)
        key = (table_id, seat)
        if key in self._hints:
            raise TableError("hint_limit")
        self._hints.add(key)  # before any wait: two connections of a seat never both pass
        try:
            if await self.rate_limits.hit(self._hint_rate, f"hints:{player}") is not None:
                raise TableError("hint_limit")
            decision = await self.work.decide(spec, view, Priority.HINT)
        except PoolBusy:
            raise TableError("hint_limit") from None
        finally:
            self._hints.discard(key)
        return decision, live, seat

    async def _require(self, table_id: str) -> LiveTable:
        live = await self.table(table_id)
        if live is None:
            raise TableError("gone")
        return live

    # ----- the one write path -----

    async def write(self, table_id: str, key: str | None, check: Check) -> int:
        """Store the step ``check`` makes (``LiveTables.write``: the one write path)."""
        return await self.registry.write(table_id, key, check)

    # ----- computer seats -----

    def _schedule_bots(self, live: LiveTable) -> None:
        if live.bot_to_move() is None:
            return
        task = self._bot_tasks.get(live.id)
        if task is None or task.done():
            task = asyncio.get_running_loop().create_task(self._bot_turns(live.id))
            self._bot_tasks[live.id] = task
            task.add_done_callback(functools.partial(self._bot_turns_done, live.id))

    def _bot_turns_done(self, table_id: str, task: asyncio.Task[None]) -> None:
        if self._bot_tasks.get(table_id) is task:
            del self._bot_tasks[table_id]

    def thinking(self, table_id: str) -> bool:
        """A computer is playing its turn at the table (in this process)."""
        task = self._bot_tasks.get(table_id)
        return task is not None and not task.done()

    async def _bot_turns(self, table_id: str) -> None:
        loop = asyncio.get_running_loop()
        failures = 0
        while True:
            live = self.registry.get(table_id)
            if live is None or not self.watchers[table_id]:
                return
            turn = await self.registry.look(table_id, self._next_turn)
            if turn is None:
                return
            started = loop.time()
            pause = self._pause(table_id, turn)
            if await self.work.workers_alive() and await self._handed_over(live, turn, pause):
                continue  # the table moved on: a worker's move (or anyone's)
            try:
                decision = await self._decide(table_id, turn)
            except PoolBusy:
                await asyncio.sleep(1.0)
                continue
            wait = pause - (loop.time() - started)
            if wait > 0:
                await asyncio.sleep(wait)
            if self.registry.get(table_id) is not live:
                return  # the table left memory: whoever loads it again plays on

            def check(current: LiveTable, turn: BotTurn = turn, decision: Decision = decision) -> Step | None:
                return self._bot_step(current, turn, decision)  # None: the table moved on: think again

            try:
                await self.registry.commit(table_id, None, requests.pure(check))
            except Exception:
                # The database failed: try again after a pause (longer each time), so a
                # passing fault never leaves a table waiting on its computers.
                failures += 1
                log.exception("table %s seat %s: the computer's move could not be stored", table_id, turn.seat)
                await asyncio.sleep(min(30.0, 0.5 * 2**failures))
                continue
            failures = 0

    def _next_turn(self, live: LiveTable) -> BotTurn | None:
        """The computer's turn to play now, if it is one's (none at a closed table)."""
        if requests.closed(live, self.settings.clock()):
            return None
        seat = live.bot_to_move()
        return None if seat is None else self._bot_turn(live, seat)

    def _bot_turn(self, live: LiveTable, seat: int) -> BotTurn:
        """What a computer decides from at ``seat`` now (the table locked)."""
        deal = live.game.current
        assert deal is not None
        trick_done = deal.phase is Phase.PLAY and not deal.trick and bool(deal.tricks)
        return BotTurn(seat, live.seq, deal.view(seat), self._bot_spec(live, seat), trick_done)

    def _pause(self, table_id: str, turn: BotTurn) -> float:
        """How long after the last move a computer's move is shown (none when played out)."""
        if table_id in self._autoplay:
            return 0.0
        delay = self.settings.bot_delay
        return delay + (self.settings.trick_pause if turn.trick_done and delay else 0.0)

    async def _decide(self, table_id: str, turn: BotTurn) -> Decision:
        """The computer's decision, in this process's pool (``PoolBusy`` when it is full); a
        bot that fails plays its first legal action."""
        try:
            return await self.pool.decide(turn.spec, turn.view)
        except PoolBusy:
            raise
        except Exception:
            log.exception(
                "table %s seat %s: bot %s failed; it plays its first legal action", table_id, turn.seat, turn.spec.name
            )
            return Decision(turn.view.legal_actions[0])

    def _bot_step(self, live: LiveTable, turn: BotTurn, decision: Decision) -> Step | None:
        """The step of ``decision`` at the table as it is now; None if it moved on since
        ``turn`` (a late answer for a step already taken is dropped) or closed."""
        moved = live.moved_on_since(turn.seq)
        if moved or live.bot_to_move() != turn.seat or requests.closed(live, self.settings.clock()):
            return None
        action = decision.action
        explanation = explanation_json(decision)
        if action not in live.game.legal_actions():
            log.warning("table %s seat %s: bot %s chose %r, not legal", live.id, turn.seat, turn.spec.name, action)
            action, explanation = turn.view.legal_actions[0], None
        by: PlayedBy | None = "away" if live.seats[turn.seat].kind == "human" else None
        return Step(live.seq, "action", turn.seat, action, explanation=explanation, played_by=by)

    # ----- computers' turns on worker processes (``worker.py``) -----

    async def _handed_over(self, live: LiveTable, turn: BotTurn, pause: float) -> bool:
        """Hand the turn to the workers and wait for the table to move on (True); False
        when it did not within the pause and ``Settings.worker_wait`` (or the workers all
        died): this process plays it then, and a late answer of a worker is dropped."""
        turns = self.work.turns
        assert turns is not None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + pause + self.settings.worker_wait
        sub = self.hub.subscribe(live.id)  # before the turn is queued: its move is not missed
        try:
            try:
                await self.db(turns.hand_over, live.id, turn.seq, turn.seat, pause)
            except Exception:
                log.exception("table %s: could not hand step %s to the workers", live.id, turn.seq)
                return False
            while loop.time() < deadline:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(sub.wait(), timeout=1.0)
                if self.registry.get(live.id) is not live or not self.watchers[live.id]:
                    return True  # nobody to play for here any more
                if not live.moved_on_since(turn.seq):  # read the log: a notification may be lost
                    await self.registry.table(live.id, fresh=True)
                if live.moved_on_since(turn.seq):
                    return True
                if not await self.work.workers_alive():
                    break
            log.warning("table %s: no worker played step %s in time; playing it here", live.id, turn.seq)
            return False
        finally:
            sub.close()

    async def play_turn(self, table_id: str, seq: int, seat: int, wait: float) -> bool:
        """A worker's part (``worker.py``): decide the computer's move at step ``seq`` of
        the table read fresh from the log, wait ``wait`` seconds from now at least (the
        display pause), and store it through the one write path; whether it was stored
        (False: the table had moved on, or moved on meanwhile)."""
        loop = asyncio.get_running_loop()
        start = loop.time()
        if await self.table(table_id, fresh=True) is None:
            return False

        def asked(live: LiveTable) -> BotTurn | None:
            if live.moved_on_since(seq) or live.bot_to_move() != seat:
                return None
            return replace(self._bot_turn(live, seat), seq=seq)

        turn = await self.registry.look(table_id, asked)
        if turn is None:
            return False
        while True:
            try:
                decision = await self._decide(table_id, turn)
                break
            except PoolBusy:
                await asyncio.sleep(1.0)
        rest = wait - (loop.time() - start)
        if rest > 0:
            await asyncio.sleep(rest)
        stored = False

        async def check(live: LiveTable) -> Step | None:
            nonlocal stored
            step = self._bot_step(live, turn, decision)
            stored = step is not None
            return step

        await self.write(table_id, None, check)
        return stored

    def _bot_spec(self, live: LiveTable, seat: int) -> BotSpec:
        holder = live.seats[seat]
        level = holder.stand_in or holder.level or "confirmed"
        seed = decision_seed(live, seat)
        if level == "adaptive" and live.tracker is not None:
            return BotSpec(level, seed, (("level", live.tracker.level), ("human_seat", live.human_seat)))
        return BotSpec(level, seed)

    # ----- the deal review -----

    async def explanations(self, live: LiveTable, start: int, stop: int) -> dict[int, dict[str, Any]]:
        """The stored explanations of entries ``start`` to ``stop - 1`` of ``live.game.log``,
        by entry."""
        seqs = live.action_seqs[start:stop]
        if not seqs:
            return {}
        by_seq = await self.db(self.store.explanations, live.id, seqs[0], seqs[-1] + 1)
        return {start + i: by_seq[s] for i, s in enumerate(seqs) if s in by_seq}

    async def close(self) -> None:
        tasks = list(self._bot_tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.registry.close()
        await self.attendance.close()
        await self.hub.close()
        self.db.close()
