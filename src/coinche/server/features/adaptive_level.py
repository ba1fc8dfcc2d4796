"""The adaptive level on a luck-free signal (issue 33): at a table whose computers adapt to
the player, each finished deal's double-dummy par is computed by the workers (the ``par``
job, as the daily challenge's and the tournaments'), then stored as a ``par`` step of the
table's log; applying that step moves the knob by the player's score *against the par*
(``AdaptiveBot.observe_against_par``), not by the raw score that the cards dealt decide.

The move is a step of the log, not a side effect of the job's answer: a table read again
(a restart, another process) moves its knob at the same point of its history, so the
computers' level is the same whoever rebuilds it. A par that never comes (the pool full,
the process stopped before the answer) leaves the knob where it was for that deal.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Final

from ...bots.analysis import par_margin
from ..compute.bot_pool import PoolBusy, Priority
from ..compute.job_kinds import par_job
from ..compute.work import Work
from ..live.events import DealEnded
from ..live.registry import LiveTables
from ..table.live_table import LiveTable
from ..table.spec import Step

log = logging.getLogger("coinche.adaptive")

MAX_PENDING: Final = 64
"""Pars computed at once in this process; a deal beyond them keeps the knob where it is."""


class AdaptiveLevel:
    """Listens to the tables' commits: each deal ended at a table that follows the par gets
    its par step (see the module)."""

    def __init__(self, registry: LiveTables, work: Work) -> None:
        self.registry = registry
        """Where the par step is written, and the deals ended heard."""
        self.work = work
        """Where the pars are computed."""
        self._pending: set[asyncio.Task[None]] = set()
        registry.on(DealEnded, self._deal_ended)

    async def _deal_ended(self, event: DealEnded) -> None:
        live, number = event.table, event.number
        if not live.wants_par(number) or len(self._pending) >= MAX_PENDING:
            return
        task = asyncio.get_running_loop().create_task(self._store_par(live, number))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _store_par(self, live: LiveTable, number: int) -> None:
        deal = live.game.deals[number - 1]
        try:
            par = await self.work.run(par_job(deal.rules, deal.dealer, deal.dealt), priority=Priority.ANALYSIS)
            margin = par_margin([(side["team"], side["score"]) for side in par["sides"]])

            async def check(table: LiveTable) -> Step | None:
                if not table.wants_par(number):
                    return None  # stored already (by another process, or told twice)
                return Step(table.seq, "par", table.human_seat, par=(number, margin))

            await self.registry.write(live.id, None, check)
        except PoolBusy:
            log.info("table %s deal %s: the pool is busy, no par (the level stays)", live.id, number)
        except Exception:
            log.exception("table %s deal %s: the par could not be stored", live.id, number)

    async def settle(self) -> None:
        """Wait for the pars in flight (what a test waits for)."""
        while self._pending:
            await asyncio.gather(*self._pending, return_exceptions=True)

    async def close(self) -> None:
        for task in list(self._pending):
            task.cancel()
        await asyncio.gather(*self._pending, return_exceptions=True)
