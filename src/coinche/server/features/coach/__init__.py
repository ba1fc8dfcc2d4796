"""The coach: at each of a person's turns, one short tip about the decision in front of them
(``tips.py``), sent on their own table socket only.

Who is coached: a newcomer's first deals (``Settings.coach_deals``, 3) at a table that
coaches newcomers (``TableKind.coaches_newcomers``: against the computer), counted as a
guest's free deals dealt or an account's deals played; and every deal, at a table that
allows hints, of whoever switched the coach on (their "Coach" switch, kept per person in
``coach_settings``, or a solo table started with ``coach=1``). The expert's decision is
asked of the compute layer as a hint is, after the computers' moves (``Priority.HINT``):
the coach never holds up a table, and a tip not ready when the person plays is dropped by
the socket.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from dataclasses import dataclass

from sqlalchemy import select

from ....bots.base import Decision
from ....engine.actions import is_declaration
from ....engine.deal import Phase, View
from ...compute.bot_pool import BotSpec, PoolBusy, Priority
from ...compute.work import Work
from ...infra.database import Database
from ...infra.db import now
from ...infra.rows.ratings import PlayerStatsRow
from ...infra.store import Store
from ...live.computers import HINT_BOT
from ...table.live_table import LiveTable, decision_seed
from .rows import CoachSettingRow
from .tips import Tip, tip

log = logging.getLogger("coinche.coach")


class CoachStore:
    """The toggles, and the deals a person has played (what makes them a newcomer)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def switched_on(self, player: str) -> bool:
        """Whether ``player`` switched the coach on (never set: off)."""
        with self.store.session() as s:
            return bool(s.scalar(select(CoachSettingRow.on).where(CoachSettingRow.player_id == player)))

    def switch(self, player: str, on: bool) -> None:
        """Keep ``player``'s switch (one row a person, written over)."""
        statement = self.store.backend.insert_ignoring(CoachSettingRow, ["player_id"], update=["on", "updated_at"])
        with self.store.engine.begin() as conn:
            conn.execute(statement, {"player_id": player, "on": on, "updated_at": now()})

    def deals_played(self, player: str) -> int:
        """Deals ``player`` played before the one in progress: a guest's free deals (each
        counted as it is dealt), else the deals of their statistics (an account's)."""
        used = self.store.free_deals_used(player)
        if used is not None:
            return max(0, used - 1)
        with self.store.session() as s:
            return s.scalar(select(PlayerStatsRow.deals_played).where(PlayerStatsRow.player_id == player)) or 0


@dataclass(frozen=True)
class Turn:
    """A person's turn the coach may speak to: the table, the seat, the step, the seat's
    view then and the seed of the expert's decision."""

    table_id: str
    seat: int
    seq: int
    view: View
    seed: int
    reads_partner: bool
    """The partner's calls may be read during the deal (a computer's, not a person's)."""


class Coach:
    """Decides who is coached and composes their tips (``tips.py``) from the expert's
    decision, computed by ``work`` after the computers' moves."""

    def __init__(self, store: CoachStore, db: Database, work: Work, first_deals: int, bot: str = HINT_BOT) -> None:
        self._store = store
        self._first_deals = first_deals
        """A newcomer's deals the coach follows without being asked."""
        self._db = db
        self._work = work
        self._bot = bot
        self._asked: dict[tuple[str, int, int], asyncio.Task[Decision]] = {}
        """The expert's decision being computed for a turn (a person's tabs share it)."""

    async def switched_on(self, player: str) -> bool:
        """Whether ``player`` switched the coach on (read from the database: every process
        sees the switch at once; a socket asks once a deal)."""
        return await self._db(self._store.switched_on, player)

    async def switch(self, player: str, on: bool) -> None:
        """Switch ``player``'s coach on or off, for every table from now on."""
        await self._db(self._store.switch, player, on)

    async def newcomer(self, player: str) -> bool:
        """Whether ``player`` is within their first deals the coach follows unasked."""
        if self._first_deals <= 0:
            return False
        return await self._db(self._store.deals_played, player) < self._first_deals

    async def coached(self, live: LiveTable, player: str) -> bool:
        """Whether ``player``'s turns at ``live`` get tips now (the toggle, else a
        newcomer's first deals at a table that coaches them)."""
        kind = live.spec.kind
        if not kind.allows_hints:
            return False
        if await self.switched_on(player):
            return True
        return kind.coaches_newcomers and await self.newcomer(player)

    @staticmethod
    def turn(live: LiveTable, seat: int) -> Turn | None:
        """The seat's turn at the table as it is now, if it is one the coach speaks to (a
        call or a card: not the choice of melds)."""
        deal = live.game.current
        if deal is None or deal.is_over or live.game.awaiting_deal or deal.to_move != seat:
            return None
        if deal.phase not in (Phase.AUCTION, Phase.PLAY):
            return None
        legal = deal.legal_actions()
        if not legal or is_declaration(legal[0]):
            return None
        reads_partner = live.seats[(seat + 2) & 3].kind == "bot"
        return Turn(live.id, seat, live.seq, deal.view(seat), decision_seed(live, seat), reads_partner)

    async def tip(self, turn: Turn, lang: str) -> Tip | None:
        """The tip for ``turn`` in ``lang`` (None when the expert could not be asked: the
        pool is full, a worker failed)."""
        try:
            decision = await self._decision(turn)
        except PoolBusy:
            return None
        except Exception:  # a tip missed, never the table's trouble
            log.exception("table %s seat %s: no coach's tip", turn.table_id, turn.seat)
            return None
        if decision.action not in turn.view.legal_actions:
            return None
        return tip(lang, turn.view, decision, turn.reads_partner)

    async def _decision(self, turn: Turn) -> Decision:
        """The expert's decision for ``turn``, computed once for every connection of the
        seat that asks while it is computed."""
        key = (turn.table_id, turn.seq, turn.seat)
        task = self._asked.get(key)
        if task is None:
            spec = BotSpec(self._bot, seed=turn.seed)
            task = asyncio.get_running_loop().create_task(self._work.decide(spec, turn.view, Priority.HINT))
            self._asked[key] = task
            task.add_done_callback(functools.partial(self._decided, key))
        return await asyncio.shield(task)

    def _decided(self, key: tuple[str, int, int], task: asyncio.Task[Decision]) -> None:
        if self._asked.get(key) is task:
            del self._asked[key]
        if not task.cancelled():
            task.exception()  # retrieved: every asker may have left
