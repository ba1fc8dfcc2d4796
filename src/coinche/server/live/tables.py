"""The tables: made, looked up, and what players and hosts ask of them, nothing of HTTP.

A table is its ``TableSpec`` (rules, seed, first dealer, first seats) and its log of steps
in the database: the actions, the requests for the next deal, the changes of seat. Each
request is a check of the live table (``LiveTable``) that gives the step to store or
refuses; the registry (``registry.py``) holds the live tables and stores the step through
its one write path (written, then applied, then announced on the hub), reading the log
and checking again when its copy was behind another process's steps. The guests' free
deals are counted by ``free_deals.py``, the computers play in ``computers.py``; idle
tables leave memory (``LiveTables.evict_idle``) and come back from the log on demand.
"""

from __future__ import annotations

import base64
import hashlib
import logging
import random
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import Any

from sqlalchemy.exc import IntegrityError

from ...engine.actions import Action
from ...engine.rules import RuleSet
from ..infra.config import Settings
from ..infra.database import Database
from ..infra.store import GameEntry, Store, new_id
from ..table import requests
from ..table.fair_deals import new_secret
from ..table.kinds import SOLO, Dealing, TableKind
from ..table.live_table import Check, LiveTable, TableError
from ..table.requests import request_key
from ..table.spec import Seat, Step, TableSpec
from .computers import Computers
from .free_deals import FreeDeals
from .presence import Attendance
from .registry import LiveTables

log = logging.getLogger("coinche.tables")

AbandonHook = Callable[["LiveTable", str], Awaitable[None]]
"""Told that a player gave up the table's game (``Tables.abandon``)."""
AdaptiveStart = Callable[[str], Awaitable[float]]
"""The adaptive knob's start for a player (``player_stats.py``: from their rating)."""
UnmadeHook = Callable[[str], Awaitable[bool]]
"""Makes a table its feature named and has not made yet (a tournament's round is seated
in the database, its tables made just after); whether it was such a table."""

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


def seeded_id(seed: int | str, created: int, attempt: int) -> str:
    """A table's id under ``Settings.table_seed`` (tests): reproducible like its deals,
    which are dealt under its id (docs/dealing.md)."""
    digest = hashlib.sha256(f"coinche-test-table:{seed}:{created}:{attempt}".encode()).digest()
    return base64.urlsafe_b64encode(digest[:6]).decode()


class Tables:
    """The tables of this process: made (a solo table, any table a feature asks for),
    looked up, and the requests of their players (a move, the next deal, a seat changed, a
    game given up); it times the person who must play at each table watched here."""

    def __init__(
        self,
        store: Store,
        db: Database,
        settings: Settings,
        registry: LiveTables,
        free_deals: FreeDeals,
        computers: Computers,
        attendance: Attendance,
    ) -> None:
        self._store = store
        self._db = db
        self._settings = settings
        self._registry = registry
        self._free_deals = free_deals
        self._computers = computers
        self._attendance = attendance
        self.connections: Counter[tuple[str, str]] = Counter()
        """Connections of each player on each table (bounded by the socket session)."""
        self._created = 0
        self.abandon_hooks: list[AbandonHook] = []
        """Called with the table and the player when a player gives up its game (once, by
        ``abandon``; idempotent all the same)."""
        self.adaptive_start: AdaptiveStart | None = None
        """Where a new adaptive solo table's knob starts for its player (None: 0.5)."""
        self.unmade_hooks: list[UnmadeHook] = []
        """Asked, by ``opened``, to make a table the database does not have yet."""
        registry.follow(self._moved)

    # ----- tables -----

    async def create_solo(self, player: str, rules: RuleSet, level: str, name: str | None = None) -> TableSpec:
        """A table with ``player`` at seat 0 (named ``name``: a bot's table names it for its
        stream's ``players``) and computers of ``level`` at the others."""
        if level not in LEVELS:
            raise TableError("bad_level")
        has_account = await self._free_deals.left(player, fresh=True) is None
        limit = self._settings.open_tables_account if has_account else self._settings.open_tables_guest
        if len(await self.games_in_progress(player)) >= limit:
            raise TableError("too_many_tables")
        if not await self._free_deals.use([player]):  # the first deal is dealt with the table
            raise TableError("limit")
        bot = Seat("bot", level=level)
        try:
            start = None
            if level == "adaptive" and self.adaptive_start is not None:
                start = await self.adaptive_start(player)
            seats = (Seat("human", player=player, name=name), bot, bot, bot)
            return await self.create_table(rules, seats, level, adaptive_start=start)
        except BaseException:
            await self._free_deals.give_back([player])
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
        seed = self._settings.table_seed
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
                await self._db(self._store.create_table, spec)
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
        return await self._registry.table(table_id, at_least, fresh)

    async def opened(self, table_id: str) -> LiveTable | None:
        """The table a page or a connection opens, read afresh; one that a feature named
        but has not made yet is made first (``unmade_hooks``): whoever was sent to a table
        finds it, however soon they come. None if there is none."""
        live = await self._registry.table(table_id, fresh=True)
        if live is not None:
            return live
        for make in self.unmade_hooks:
            if await make(table_id):
                return await self._registry.table(table_id, fresh=True)
        return None

    async def games_in_progress(self, player: str) -> list[str]:
        """The ids of ``player``'s games in progress (not given up, not gone from), newest
        first."""
        return await self._db(self._store.open_games, player)

    async def games(self, player: str) -> list[GameEntry]:
        """``player``'s games, in progress and finished, newest first (the account page)."""
        return await self._db(self._store.games_of, player)

    def _moved(self, live: LiveTable, step: Step) -> None:
        """The table moved on: who must play is timed, if it is watched here (the clock
        goes with the step to its sockets: a follower registered before the feed)."""
        if self._registry.watchers[live.id]:
            self._attendance.turn_changed(live, tell=False)

    # ----- watching -----

    async def attach(self, live: LiveTable, player: str) -> None:
        """A connection of ``player`` watches the table: it stays in memory, its computers
        play, and the player is here (``Attendance``)."""
        self._registry.attach(live.id)
        self._computers.schedule(live)
        await self._attendance.arrived(live, player)
        self._attendance.turn_changed(live)

    def detach(self, table_id: str, player: str) -> None:
        """The connection closed (not a coroutine: it may be called as its task is cancelled)."""
        self._attendance.left(table_id, player)
        self._registry.detach(table_id)

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
        if live.game.is_over or table_id not in await self.games_in_progress(player):
            raise TableError("over")
        await self._db(self._store.finish_table, table_id, {"abandoned": True})
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
        return await self.write(table_id, key, requests.play(player, action, key, self._settings.clock()))

    async def next_deal(self, table_id: str, player: str, request_id: str) -> int:
        """Deal the next hand once the players have seen the last one's summary; the
        table's seq after it (nothing stored if another player asked first). Each player
        seated uses a free deal (accounts have no limit)."""
        key = request_key(player, request_id)
        charged: list[str] = []
        """The players a free deal was counted for by the last check (given back if its
        step is not the one stored)."""

        async def give_back() -> None:
            await self._free_deals.give_back(charged)
            charged.clear()

        async def check(live: LiveTable) -> Step | None:
            await give_back()  # checked again after a lost race: the last count goes back
            step = requests.next_deal(live, player, key, self._settings.clock())
            if step is None or not live.spec.kind.uses_free_deals:  # friends invited, the daily challenge
                return step
            players = live.human_players
            if not await self._free_deals.use(players):  # one atomic count each, in the database
                raise TableError("limit")
            charged.extend(players)
            return step

        try:
            return await self.write(table_id, key, check)
        except Exception:  # nothing stored (a cancelled wait is not that: the write goes on)
            await give_back()
            raise

    async def change_seat(self, table_id: str, seat: int, holder: Seat) -> int:
        """``seat`` is held by ``holder`` from the next step on (recorded in the log, so a
        replay knows who made each action); the table's seq after it."""
        if not 0 <= seat <= 3:
            raise ValueError(f"no seat {seat}")

        return await self.write(
            table_id, None, requests.pure(lambda live: Step(live.seq, "seat", seat, seat_data=holder))
        )

    async def _require(self, table_id: str) -> LiveTable:
        live = await self.table(table_id)
        if live is None:
            raise TableError("gone")
        return live

    # ----- the one write path -----

    async def write(self, table_id: str, key: str | None, check: Check) -> int:
        """Store the step ``check`` makes (``LiveTables.write``: the one write path)."""
        return await self._registry.write(table_id, key, check)

    # ----- the deal review -----

    async def explanations(self, live: LiveTable, start: int, stop: int) -> dict[int, dict[str, Any]]:
        """The stored explanations of entries ``start`` to ``stop - 1`` of ``live.game.log``,
        by entry."""
        seqs = live.action_seqs[start:stop]
        if not seqs:
            return {}
        by_seq = await self._db(self._store.explanations, live.id, seqs[0], seqs[-1] + 1)
        return {start + i: by_seq[s] for i, s in enumerate(seqs) if s in by_seq}
