"""How well each person played (issue 50): every finished deal's accuracy, per seat, from
the review's analysis (``bots.accuracy``; ``docs/accuracy.md`` defines the measures).

A listener of the tables' commits asks for the analysis of each finished deal where a
person played (the review's own computation, ``Reviews``: done once, in the workers, and
stored), then keeps one row per seat (``deal_accuracy``): a person's counts over the
decisions they made themselves (a computer standing in for them is left out), a computer's
over its own. The summary, the review, the history and the profile read those rows; a deal
whose row is missing (the work queue was full, the process stopped) is computed when its
summary or review asks for it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from sqlalchemy import func, select

from ...bots.accuracy import Accuracy, accuracy_by_seat
from ...bots.analysis import step_indices
from ..compute.bot_pool import PoolBusy
from ..infra.database import Database
from ..infra.db import now
from ..infra.rows.accuracy import DealAccuracyRow
from ..infra.store import Store
from ..live.events import DealEnded
from ..live.registry import LiveTables
from ..table import i18n
from ..table.live_table import LiveTable
from .review import Reviews, finished_deal, first_step

log = logging.getLogger("coinche.accuracy")

MAX_WAITING: Final = 2000
"""Finished deals waiting for their accuracy in this process; past it a deal waits for its
summary or review to ask (nothing grows without bound when the workers fall behind)."""
RUNNING: Final = 8
"""Deals whose analysis this process awaits at once (the workers' queue does the rest)."""
RECENT_KEPT: Final = 1000
"""Deals' rows a process keeps in memory once computed (the database keeps them all)."""
TREND_GAMES: Final = 20
"""The profile's trend: a person's last games of each rules profile."""


KeptHook = Callable[["DealKept"], Awaitable[None]]


@dataclass(frozen=True)
class SeatAccuracy:
    """One seat's accuracy over a deal: whose decisions they are (a person's id, or the
    computer's level) and the counts."""

    seat: int
    player: str | None
    level: str | None
    accuracy: Accuracy

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "level": self.level, **self.accuracy.to_json()}


@dataclass(frozen=True)
class GameAccuracy:
    """A person's accuracy over one game (the trend's point)."""

    table_id: str
    finished_at: datetime
    accuracy: Accuracy


def _accuracy(row: Any) -> Accuracy:
    return Accuracy(row.cards, row.cards_kept, row.card_loss, row.calls, row.calls_kept, row.call_loss)


def _sums() -> tuple[Any, ...]:
    r = DealAccuracyRow
    return (
        func.sum(r.cards).label("cards"),
        func.sum(r.cards_kept).label("cards_kept"),
        func.sum(r.card_loss).label("card_loss"),
        func.sum(r.calls).label("calls"),
        func.sum(r.calls_kept).label("calls_kept"),
        func.sum(r.call_loss).label("call_loss"),
    )


class AccuracyStore:
    """The rows' reads and writes (blocking: run them on ``Accuracies.db``)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def save(self, table_id: str, deal: int, profile: str, seats: Sequence[SeatAccuracy]) -> None:
        """Keep a deal's rows (a second writer of the same deal changes nothing)."""
        if not seats:
            return
        at = now()
        with self.store.engine.begin() as conn:
            for s in seats:
                a = s.accuracy
                conn.execute(
                    self.store.backend.insert_ignoring(DealAccuracyRow, ["table_id", "deal", "seat"]),
                    {
                        "table_id": table_id,
                        "deal": deal,
                        "seat": s.seat,
                        "player_id": s.player,
                        "level": s.level,
                        "profile": profile,
                        "finished_at": at,
                        "cards": a.cards,
                        "cards_kept": a.cards_kept,
                        "card_loss": a.card_loss,
                        "calls": a.calls,
                        "calls_kept": a.calls_kept,
                        "call_loss": a.call_loss,
                    },
                )

    def deal(self, table_id: str, deal: int) -> list[SeatAccuracy] | None:
        """A deal's rows by seat; None when none is stored."""
        r = DealAccuracyRow
        with self.store.session() as s:
            rows = s.execute(select(r).where(r.table_id == table_id, r.deal == deal).order_by(r.seat)).scalars().all()
        if not rows:
            return None
        return [SeatAccuracy(x.seat, x.player_id, x.level, _accuracy(x)) for x in rows]

    def game(self, table_id: str) -> dict[str, Accuracy]:
        """Each person's accuracy over the table's deals, by player id."""
        r = DealAccuracyRow
        with self.store.session() as s:
            rows = s.execute(
                select(r.player_id, *_sums())
                .where(r.table_id == table_id, r.player_id.is_not(None))
                .group_by(r.player_id)
            ).all()
        return {x.player_id: _accuracy(x) for x in rows}

    def deals_of(self, player: str, table_id: str) -> dict[int, Accuracy]:
        """The person's accuracy over each deal of the table they have one in."""
        r = DealAccuracyRow
        with self.store.session() as s:
            rows = s.execute(select(r).where(r.table_id == table_id, r.player_id == player)).scalars().all()
        out: dict[int, Accuracy] = {}
        for x in rows:
            out[x.deal] = out.get(x.deal, Accuracy()) + _accuracy(x)
        return out

    def games(self, player: str, table_ids: Sequence[str]) -> dict[str, Accuracy]:
        """The person's accuracy over each of the tables ``table_ids`` that has any (the
        history's page)."""
        if not table_ids:
            return {}
        r = DealAccuracyRow
        with self.store.session() as s:
            rows = s.execute(
                select(r.table_id, *_sums())
                .where(r.player_id == player, r.table_id.in_(list(table_ids)))
                .group_by(r.table_id)
            ).all()
        return {x.table_id: _accuracy(x) for x in rows}

    def trend(self, player: str, profile: str, games: int = TREND_GAMES) -> list[GameAccuracy]:
        """The person's accuracy in each of their last ``games`` games of ``profile``,
        oldest first."""
        r = DealAccuracyRow
        with self.store.session() as s:
            rows = s.execute(
                select(r.table_id, func.max(r.finished_at).label("at"), *_sums())
                .where(r.player_id == player, r.profile == profile)
                .group_by(r.table_id)
                .order_by(func.max(r.finished_at).desc())
                .limit(games)
            ).all()
        return [GameAccuracy(x.table_id, x.at, _accuracy(x)) for x in reversed(rows)]

    def profiles(self, player: str) -> list[str]:
        """The rules profiles the person has an accuracy in."""
        r = DealAccuracyRow
        with self.store.session() as s:
            return list(s.scalars(select(r.profile).where(r.player_id == player).distinct().order_by(r.profile)))

    def levels(self, profile: str) -> dict[str, Accuracy]:
        """Each computer level's accuracy over the site's deals of ``profile`` (where a
        person stands against each level)."""
        r = DealAccuracyRow
        with self.store.session() as s:
            rows = s.execute(
                select(r.level, *_sums()).where(r.level.is_not(None), r.profile == profile).group_by(r.level)
            ).all()
        return {x.level: _accuracy(x) for x in rows}


def accuracy_words(lang: str, a: Accuracy | None) -> str | None:
    """A person's accuracy in a line of a page: "cartes 86 % · annonces 100 % · 1,2 pt
    perdu par carte" (None: nothing to measure)."""
    if a is None or not (a.cards or a.calls):
        return None
    none = i18n.gettext(lang, "accuracy.nothing")
    cards = none if a.card_share is None else i18n.percent(lang, a.card_share)
    calls = none if a.call_share is None else i18n.percent(lang, a.call_share)
    per_card = none if a.card_mean is None else i18n.number(lang, a.card_mean, 1)
    return i18n.gettext(lang, "accuracy.short", cards=cards, calls=calls, per_card=per_card)


def decisions(live: LiveTable, n: int) -> dict[int, str | None]:
    """Who decided each step of the table's deal ``n`` (the review's steps): the person
    whose request made it, None for a computer (a seat's own or one standing in)."""
    offset = first_step(live.game, n)
    by_step: dict[int, str | None] = {}
    for step, index in step_indices(live.game.deals[n - 1].log).items():
        made = live.steps[live.action_seqs[offset + index]].request_id
        by_step[step] = None if made is None else made.split(":", 1)[0]
    return by_step


def deal_seats(live: LiveTable, n: int, analysis: dict[str, Any]) -> list[SeatAccuracy]:
    """Each seat's accuracy over the table's finished deal ``n``: a person's over the
    decisions their own requests made (a computer standing in for them is left out), a
    computer's (the seat's holder at the deal's end) over a seat no person decided on."""
    by_step = decisions(live, n)
    out = []
    for seat in range(4):
        people = {by_step.get(p["step"]) for p in analysis["positions"] if p["seat"] == seat}
        people |= {by_step.get(c["step"]) for c in analysis["calls"] if c["seat"] == seat}
        persons = sorted(p for p in people if p is not None)
        holder = live.seats[seat]
        if persons:
            player = persons[0]  # one person decides for a seat during a deal
            mine = _only(analysis, seat, {s for s, p in by_step.items() if p == player})
            out.append(SeatAccuracy(seat, player, None, accuracy_by_seat(mine)[seat]))
        elif holder.kind == "bot" and holder.level is not None and len(holder.level) <= 16:
            out.append(SeatAccuracy(seat, None, holder.level, accuracy_by_seat(analysis)[seat]))
    return out


@dataclass(frozen=True)
class DealKept:
    """A deal whose accuracy was just kept, as the features that learn from it get it."""

    live: LiveTable
    number: int
    analysis: dict[str, Any]
    people: dict[int, str]
    """Each seat a person decided at, and who."""
    decided: dict[int, str | None]
    """Who decided each step (``decisions``)."""

    def steps_of(self, seat: int) -> set[int]:
        """The steps the seat's person decided themselves."""
        player = self.people.get(seat)
        return {s for s, p in self.decided.items() if p is not None and p == player}


def _only(analysis: dict[str, Any], seat: int, steps: set[int]) -> dict[str, Any]:
    """The analysis with only ``seat``'s decisions at ``steps``."""
    return {
        "positions": [p for p in analysis["positions"] if p["seat"] == seat and p["step"] in steps],
        "calls": [c for c in analysis["calls"] if c["seat"] == seat and c["step"] in steps],
    }


def has_person(live: LiveTable) -> bool:
    return any(s.kind == "human" or s.stand_in is not None for s in live.seats)


class Accuracies:
    """The accuracy of the tables' finished deals (see the module)."""

    def __init__(
        self, store: AccuracyStore, db: Database, registry: LiveTables, reviews: Reviews, after_deals: bool = True
    ) -> None:
        self.store = store
        self.db = db
        self.reviews = reviews
        self._waiting: asyncio.Queue[tuple[LiveTable, int]] = asyncio.Queue(MAX_WAITING)
        self._runners: list[asyncio.Task[None]] = []
        self._afters: set[asyncio.Task[None]] = set()
        self._pending: set[tuple[str, int]] = set()
        """The deals waiting here or being computed (their summaries wait without a read)."""
        self._recent: dict[tuple[str, int], list[SeatAccuracy]] = {}
        """The deals computed here lately, the oldest first (``RECENT_KEPT``)."""
        self._busy = 0
        self.kept_hooks: list[KeptHook] = []
        """Told of each deal's accuracy once kept, with its analysis and the people who
        decided at each seat (the mistakes are found there)."""
        if after_deals:  # else computed only when asked (Settings.deal_accuracy)
            registry.on(DealEnded, self._deal_ended)

    async def _deal_ended(self, event: DealEnded) -> None:
        live, n = event.table, event.number
        if not has_person(live):
            return
        if not self._runners:
            loop = asyncio.get_running_loop()
            self._runners = [loop.create_task(self._run()) for _ in range(RUNNING)]
        try:
            self._waiting.put_nowait((live, n))
            self._pending.add((live.id, n))
        except asyncio.QueueFull:
            log.debug("table %s deal %s: too many deals waiting, its accuracy waits to be asked", live.id, n)

    async def _run(self) -> None:
        while True:
            live, n = await self._waiting.get()
            self._busy += 1
            try:
                await self.compute(live, n)
            except PoolBusy:
                log.debug("table %s deal %s: the pool is busy, its accuracy waits to be asked", live.id, n)
            except Exception:
                log.exception("table %s deal %s: the accuracy failed", live.id, n)
            finally:
                self._busy -= 1
                self._pending.discard((live.id, n))
                self._waiting.task_done()

    async def compute(self, live: LiveTable, n: int) -> list[SeatAccuracy] | None:
        """The deal's rows, computed and stored now if need be (None: its analysis failed)."""
        found = await self.db(self.store.deal, live.id, n)
        if found is not None:
            return found
        analysis = await self.reviews.wait(live, n)
        if analysis is None:
            return None
        seats = await self._keep(live, n, analysis)
        await self._told(live, n, analysis, seats)
        return seats

    async def of_deal(self, live: LiveTable, n: int) -> list[SeatAccuracy] | None:
        """The deal's rows if ready; else None, their computation started (once). A deal
        this process computes now, or just did, is answered without the database: every
        summary asks each second until it comes (at 200 tables of four, the asking's
        reads held up the single SQLite thread the accuracies' own writes wait for)."""
        key = (live.id, n)
        if key in self._recent:
            return self._recent[key]
        if key in self._pending:
            return None
        found = await self.db(self.store.deal, live.id, n)
        if found is not None:
            return found
        deal = finished_deal(live, n)
        assert deal is not None, "only a finished deal has an accuracy"
        analysis = await self.reviews.analysis(live, n)
        if analysis is None:
            return None
        seats = await self._keep(live, n, analysis)
        task = asyncio.get_running_loop().create_task(self._told(live, n, analysis, seats))
        self._afters.add(task)
        task.add_done_callback(self._afters.discard)
        return seats

    async def _keep(self, live: LiveTable, n: int, analysis: dict[str, Any]) -> list[SeatAccuracy]:
        seats = deal_seats(live, n, analysis)
        await self.db(self.store.save, live.id, n, live.spec.rules.name, seats)
        self._recent[(live.id, n)] = seats
        while len(self._recent) > RECENT_KEPT:
            self._recent.pop(next(iter(self._recent)))
        return seats

    async def _told(self, live: LiveTable, n: int, analysis: dict[str, Any], seats: Sequence[SeatAccuracy]) -> None:
        kept = DealKept(
            live, n, analysis, {s.seat: s.player for s in seats if s.player is not None}, decisions(live, n)
        )
        for hook in self.kept_hooks:
            try:
                await hook(kept)
            except Exception:
                log.exception("table %s deal %s: after its accuracy", live.id, n)

    async def settle(self) -> None:
        """Wait for the deals waiting here (what a test or a bench waits for)."""
        await self._waiting.join()
        while self._afters:
            await asyncio.gather(*self._afters, return_exceptions=True)

    async def close(self) -> None:
        for task in [*self._runners, *self._afters]:
            task.cancel()
        await asyncio.gather(*self._runners, *self._afters, return_exceptions=True)
        self._runners = []

    async def game(self, table_id: str) -> dict[str, Accuracy]:
        return await self.db(self.store.game, table_id)

    async def deals_of(self, player: str, table_id: str) -> dict[int, Accuracy]:
        return await self.db(self.store.deals_of, player, table_id)

    async def games(self, player: str, table_ids: Sequence[str]) -> dict[str, Accuracy]:
        return await self.db(self.store.games, player, table_ids)

    async def trend(self, player: str, profile: str) -> list[GameAccuracy]:
        return await self.db(self.store.trend, player, profile)

    async def profiles(self, player: str) -> list[str]:
        return await self.db(self.store.profiles, player)

    async def levels(self, profile: str) -> dict[str, Accuracy]:
        return await self.db(self.store.levels, profile)
