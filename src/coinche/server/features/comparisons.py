"""The expert in the player's seat ("Rejouer comme l'expert", issue 32): a finished deal
played again by the workers (``compare`` job, ``bots.compare``), and what the page shows of
the two deals side by side.

A comparison is computed once per deal and seat on demand and kept in memory (a few
hundred): it is a function of the deal, so a restart only computes it again. Only a
finished deal is compared, for a player of its table (the review's rule).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any, Final

from ...engine.actions import call_str, card_of, is_card, is_declaration
from ...engine.cards import card_str
from ...engine.deal import Deal, LogEntry
from ..compute.bot_pool import Priority
from ..compute.job_kinds import COMPARE_LEVELS, compare_job
from ..compute.work import Work
from ..table import i18n
from ..table.live_table import LiveTable

log = logging.getLogger("coinche.compare")

KEPT: Final = 256
"""Comparisons a process keeps in memory."""

Key = tuple[str, int, int]
"""(table id, deal number, seat)."""


@dataclass
class Comparisons:
    """The comparisons with the expert a process computed (as work) and keeps."""

    work: Work
    running: dict[Key, asyncio.Task[dict[str, Any] | None]] = field(default_factory=dict)
    finished: dict[Key, dict[str, Any]] = field(default_factory=dict)

    def of(self, live: LiveTable, n: int, seat: int) -> dict[str, Any] | None:
        """The comparison if computed; else None, its computation started (once)."""
        key = (live.id, n, seat)
        found = self.finished.get(key)
        if found is not None:
            return found
        if key not in self.running:
            deal = live.game.deals[n - 1]
            level = live.spec.level if live.spec.level in COMPARE_LEVELS else "confirmed"
            self.running[key] = asyncio.get_running_loop().create_task(self._compute(key, deal, seat, level))
        return None

    async def wait(self, live: LiveTable, n: int, seat: int) -> dict[str, Any] | None:
        """The comparison, computed now if need be (tests)."""
        found = self.of(live, n, seat)
        if found is not None:
            return found
        return await asyncio.shield(self.running[(live.id, n, seat)])

    async def _compute(self, key: Key, deal: Deal, seat: int, level: str) -> dict[str, Any] | None:
        try:
            data = await self.work.run(compare_job(deal, seat, level), priority=Priority.ANALYSIS)
            self.finished[key] = data
            while len(self.finished) > KEPT:
                self.finished.pop(next(iter(self.finished)))
            return data
        except Exception:  # computed again at the next request
            log.exception("table %s deal %s seat %s: the comparison failed", *key)
            return None
        finally:
            self.running.pop(key, None)


def deal_lines(lang: str, deal: Deal, names: list[str], first: int | None) -> dict[str, Any]:
    """A deal as the comparison shows it: its calls, its tricks (each card with its seat),
    the entry ``first`` marked, its contract and result."""
    replay = Deal(deal.rules, deal.dealer, deal.dealt)
    calls: list[dict[str, Any]] = []
    tricks: list[list[dict[str, Any]]] = []
    for i, entry in enumerate(deal.log):
        seat = replay.to_move
        marked = i == first
        if isinstance(entry, int) and is_card(entry):
            if not replay.trick:
                tricks.append([])
            tricks[-1].append({"seat": names[seat], "code": card_str(card_of(entry)), "first": marked})
        elif isinstance(entry, int) and not is_declaration(entry):  # a call (a declaration shows nothing here)
            calls.append({"seat": names[seat], "call": i18n.call_name(lang, call_str(entry)), "first": marked})
        replay.replay_entry(entry)
    return {"calls": calls, "tricks": tricks, "result": deal.result()}


def first_entry(deal: Deal, index: int) -> tuple[str, LogEntry]:
    """The kind (``call`` or ``card``) of entry ``index`` of the deal's log, and the entry."""
    entry = deal.log[index]
    return ("card" if isinstance(entry, int) and is_card(entry) else "call"), entry
