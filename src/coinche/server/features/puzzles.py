"""Puzzles from the site's own deals (issue 32): found by the solver, rated, one a day.

A listener of the tables' commits hands each finished deal with a contract to the
workers' ``puzzle`` job (``bots.puzzles``: one card, and only one, reaches the side's
goal), then, at most every ``Settings.bidding_puzzle_seconds``, to their
``bidding_puzzle`` job (``features/bidding_puzzles.py``), and stores what it finds, one
puzzle of each kind a deal at most. Not every deal: a deal of the daily challenge or of a
tournament stays out (others play the same cards later), and the
search is a bonus, never a wait: it runs after the deal's bookkeeping, a few at a time
(``MAX_SEARCHING``), and is skipped when the pool is busy.

A player's first try at a puzzle is rated (``ratings.rate_puzzle``: the player against the
puzzle, the same model as the games); a later try is only shown. A solved first try adds
one to the player's streak, a missed one ends it. The puzzle of the day is drawn from the
puzzles found before the day began, the same for everyone (``of_day``).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
import time
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Final

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError

from ...bots.puzzles import Goal, cards_left, confirm
from ...engine.actions import call_str, parse_call
from ...engine.cards import CardSet, parse_card
from ...engine.deal import Deal, LogEntry
from ...engine.errors import EngineError
from ...engine.record import deal_record
from ...engine.rules import RuleSet
from ...engine.wire import rules_from_json, rules_to_json
from ..compute.bot_pool import BotPool, PoolBusy, Priority
from ..compute.job_kinds import bidding_puzzle_job, entry_from_json, log_json, puzzle_job
from ..compute.work import Work
from ..infra.config import Settings
from ..infra.database import Database
from ..infra.db import now
from ..infra.rows.puzzles import PuzzlePlayerRow, PuzzleRow, PuzzleTryRow
from ..infra.store import Store, new_id
from ..live.events import DealEnded
from ..live.registry import LiveTables
from ..table.days import day_end
from ..table.ratings import NEW_PLAYER, Rating, puzzle_start, rate_puzzle
from .bidding_puzzles import BiddingPuzzleStore, StoredBiddingPuzzle

log = logging.getLogger("coinche.puzzles")

MAX_SEARCHING: Final = 4
"""Deals searched at once by this process; a deal that ends beyond them is not searched."""
PUZZLE_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,16}")
DAY_POOL: Final = 500
"""The puzzle of the day is drawn among the last this many found before the day."""
DAY_TRIES: Final = 5
"""Candidates checked again by the solver for the day's puzzle before giving up."""


@dataclass(frozen=True)
class StoredPuzzle:
    """A puzzle as stored: its deal up to the position and the solver's answer."""

    id: str
    rules: RuleSet
    dealer: int
    hands: tuple[CardSet, ...]
    log: tuple[LogEntry, ...]
    seat: int
    goal: Goal
    solution: str
    values: tuple[tuple[str, int], ...]
    """Each legal card and the points the mover's team takes from the position with it."""
    line: tuple[str, ...]
    themes: tuple[str, ...]
    swing: int
    rating: Rating
    tries: int
    solved: int

    def position(self) -> Deal:
        """The deal at the position, rebuilt by the engine."""
        return Deal.from_log(self.rules, self.dealer, self.hands, self.log)

    def record(self, answered: bool = True) -> dict[str, Any]:
        """The position as a deal record (``RECORD.md``: an unfinished deal) with, once
        ``answered``, the solution and every card's value, so that anyone can check it;
        before, the position and the goal only (a solution read there was a rated first
        try won from outside)."""
        record = deal_record(self.position())
        record["puzzle"] = {"seat": self.seat, "goal": self.goal}
        if answered:
            record["puzzle"] |= {
                "solution": self.solution,
                "values": {card: value for card, value in self.values},
                "line": list(self.line),
                "themes": list(self.themes),
            }
        return record


@dataclass(frozen=True)
class Tried:
    """What a try at a puzzle gave."""

    solved: bool
    rated: bool
    """The player's first try: it moved both ratings."""
    before: Rating
    after: Rating
    streak: int


@dataclass(frozen=True)
class PuzzlePlayer:
    rating: Rating
    tries: int
    solved: int
    streak: int
    best_streak: int


def _stored(row: PuzzleRow) -> StoredPuzzle:
    return StoredPuzzle(
        id=row.id,
        rules=rules_from_json(row.rules),
        dealer=row.dealer,
        hands=tuple(row.hands),
        log=tuple(entry_from_json(e) for e in row.log),
        seat=row.seat,
        goal="make" if row.goal == "make" else "beat",
        solution=row.solution,
        values=tuple((str(c), int(v)) for c, v in row.values),
        line=tuple(row.line),
        themes=tuple(row.themes),
        swing=row.swing,
        rating=Rating(row.mu, row.sigma),
        tries=row.tries,
        solved=row.solved,
    )


class PuzzleStore:
    """The puzzles' rows (every method one short transaction, on a database thread)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def add(self, table_id: str, number: int, deal: Deal, found: dict[str, Any]) -> str | None:
        """Store the puzzle ``found`` (the ``puzzle`` job's answer) of deal ``number`` of a
        table; its id, None if that deal has one already."""
        log = deal.log[: found["upto"]]
        start = puzzle_start(len(found["values"]), cards_left(deal.dealt[found["seat"]], log))
        row = PuzzleRow(
            id=new_id(8),
            table_id=table_id,
            deal=number,
            created_at=now(),
            rules=rules_to_json(deal.rules),
            dealer=deal.dealer,
            hands=list(deal.dealt),
            log=log_json(log),
            seat=found["seat"],
            goal=found["goal"],
            solution=found["solution"],
            values=found["values"],
            line=found["line"],
            themes=found["themes"],
            swing=found["swing"],
            mu=start.mu,
            sigma=start.sigma,
            tries=0,
            solved=0,
        )
        return row.id if self.store.add_once(row) else None

    def get(self, puzzle_id: str) -> StoredPuzzle | None:
        with self.store.session() as s:
            row = s.get(PuzzleRow, puzzle_id)
            return None if row is None else _stored(row)

    def count(self) -> int:
        with self.store.session() as s:
            return int(s.scalar(select(func.count()).select_from(PuzzleRow)) or 0)

    def number(self, puzzle_id: str) -> int:
        """The puzzle's number in the order puzzles were found (1 for the first; ties of
        time in the order of their ids); 0 if there is no such puzzle."""
        with self.store.session() as s:
            found = s.get(PuzzleRow, puzzle_id)
            if found is None:
                return 0
            earlier = (PuzzleRow.created_at < found.created_at) | (
                (PuzzleRow.created_at == found.created_at) & (PuzzleRow.id < found.id)
            )
            return 1 + int(s.scalar(select(func.count()).select_from(PuzzleRow).where(earlier)) or 0)

    def day_candidates(self, day: str) -> list[str]:
        """The puzzles that may be ``day``'s (the daily challenge's days: ``table.days``),
        in the order they are offered: the ``DAY_POOL`` puzzles found last before the day
        began, ordered by a hash of the day and the puzzle, so the order never changes
        once the day has begun and is the same in every process."""
        start = day_end(day) - timedelta(days=1)
        with self.store.session() as s:
            ids = s.scalars(
                select(PuzzleRow.id)
                .where(PuzzleRow.created_at < start)
                .order_by(PuzzleRow.created_at.desc())
                .limit(DAY_POOL)
            ).all()
        return sorted(ids, key=lambda i: hashlib.sha256(f"{day}/{i}".encode()).digest())

    def next_for(self, player: str, skip: str | None = None) -> str | None:
        """The puzzle the player has not tried whose rating is nearest theirs (the streak
        mode's next one)."""
        mine = self.player(player).rating
        tried = select(PuzzleTryRow.puzzle_id).where(PuzzleTryRow.player_id == player)
        with self.store.session() as s:
            found = s.scalar(
                select(PuzzleRow.id)
                .where(PuzzleRow.id.not_in(tried), PuzzleRow.id != (skip or ""))
                .order_by(func.abs(PuzzleRow.mu - mine.mu), PuzzleRow.id)
                .limit(1)
            )
        return None if found is None else str(found)

    def player(self, player: str) -> PuzzlePlayer:
        with self.store.session() as s:
            row = s.get(PuzzlePlayerRow, player)
            if row is None:
                return PuzzlePlayer(NEW_PLAYER, 0, 0, 0, 0)
            return PuzzlePlayer(Rating(row.mu, row.sigma), row.tries, row.solved, row.streak, row.best_streak)

    def tried(self, player: str, puzzle_id: str) -> str | None:
        """The card the player chose at their first try, None if they have not tried."""
        with self.store.session() as s:
            row = s.get(PuzzleTryRow, (player, puzzle_id))
            return None if row is None else row.card

    def record_try(self, player: str, puzzle_id: str, card: str, solved: bool) -> Tried:
        """A player's try: the first one rates the player and the puzzle and moves the
        streak, in one transaction. Two first tries at once: one is stored, the other is
        read again as a later one."""
        for _ in range(2):
            try:
                return self._record_try(player, puzzle_id, card, solved)
            except IntegrityError:
                continue
        return self._record_try(player, puzzle_id, card, solved)

    def _record_try(self, player: str, puzzle_id: str, card: str, solved: bool) -> Tried:
        with self.store.session() as s, s.begin():
            puzzle = s.get(PuzzleRow, puzzle_id, with_for_update=True)
            assert puzzle is not None
            me = s.get(PuzzlePlayerRow, player, with_for_update=True)
            if me is None:
                me = PuzzlePlayerRow(
                    player_id=player,
                    mu=NEW_PLAYER.mu,
                    sigma=NEW_PLAYER.sigma,
                    tries=0,
                    solved=0,
                    streak=0,
                    best_streak=0,
                    updated_at=now(),
                )
                s.add(me)
                s.flush()
            before = Rating(me.mu, me.sigma)
            if s.get(PuzzleTryRow, (player, puzzle_id)) is not None:
                return Tried(solved, False, before, before, me.streak)
            s.add(PuzzleTryRow(player_id=player, puzzle_id=puzzle_id, card=card, solved=solved, at=now()))
            after, puzzle_after = rate_puzzle(before, Rating(puzzle.mu, puzzle.sigma), solved)
            streak = me.streak + 1 if solved else 0
            s.execute(
                update(PuzzlePlayerRow)
                .where(PuzzlePlayerRow.player_id == player)
                .values(
                    mu=after.mu,
                    sigma=after.sigma,
                    tries=PuzzlePlayerRow.tries + 1,
                    solved=PuzzlePlayerRow.solved + (1 if solved else 0),
                    streak=streak,
                    best_streak=max(me.best_streak, streak),
                    updated_at=now(),
                )
            )
            s.execute(
                update(PuzzleRow)
                .where(PuzzleRow.id == puzzle_id)
                .values(
                    mu=puzzle_after.mu,
                    sigma=puzzle_after.sigma,
                    tries=PuzzleRow.tries + 1,
                    solved=PuzzleRow.solved + (1 if solved else 0),
                )
            )
            return Tried(solved, True, before, after, streak)


def _confirm(puzzle: StoredPuzzle) -> bool:
    """In a pool process: the solver's check of a stored puzzle (``bots.puzzles.confirm``)."""
    return confirm(puzzle.rules, puzzle.dealer, puzzle.hands, puzzle.log, parse_card(puzzle.solution))


class Puzzles:
    """The puzzles: it listens to the registry's commits and searches each finished deal
    (see the module)."""

    def __init__(
        self,
        store: PuzzleStore,
        bidding: BiddingPuzzleStore,
        db: Database,
        settings: Settings,
        registry: LiveTables,
        work: Work,
        pool: BotPool,
    ) -> None:
        self.store = store
        self.bidding = bidding
        self.db = db
        self.settings = settings
        self.work = work
        """Where the searches are run."""
        self.pool = pool
        """Where the day's puzzle is checked (at once, in this process)."""
        self._next_bidding = 0.0
        self._searching: set[asyncio.Task[None]] = set()
        self._days: dict[str, str] = {}
        self._offered = False
        """Some puzzle is stored (once true, true for good: puzzles are never deleted)."""
        registry.on(DealEnded, self._deal_ended)

    async def offered(self) -> bool:
        """Whether the site has a puzzle to offer (of play or of bidding): the pages offer
        puzzles only then."""
        if not self._offered:
            self._offered = bool(await self.db(self.store.count) or await self.db(self.bidding.count))
        return self._offered

    async def number(self, puzzle: StoredPuzzle) -> int:
        """The puzzle's number in the order puzzles were found (1 for the first)."""
        return await self.db(self.store.number, puzzle.id)

    async def _deal_ended(self, event: DealEnded) -> None:
        live, number = event.table, event.number
        if live.spec.kind.shares_deals:
            return
        deal = live.game.deals[number - 1]
        if deal.contract is None or len(self._searching) >= MAX_SEARCHING:
            return
        task = asyncio.get_running_loop().create_task(self._search(live.id, number, deal))
        self._searching.add(task)
        task.add_done_callback(self._searching.discard)

    async def _search(self, table_id: str, number: int, deal: Deal) -> None:
        try:
            found = await self.work.run(puzzle_job(deal), priority=Priority.ANALYSIS)
            if found is not None:
                await self.db(self.store.add, table_id, number, deal, found)
            if self._bidding_due():
                call = await self.work.run(bidding_puzzle_job(deal), priority=Priority.ANALYSIS)
                if call is not None:
                    await self.db(self.bidding.add, table_id, number, deal, call)
        except PoolBusy:
            log.debug("table %s deal %s: the pool is busy, no puzzle search", table_id, number)
        except Exception:
            log.exception("table %s deal %s: the puzzle search failed", table_id, number)

    def _bidding_due(self) -> bool:
        """Whether this deal's auction is searched too: at most once every
        ``Settings.bidding_puzzle_seconds`` in this process (a budget of its workers' time,
        not a fact processes share)."""
        now = time.monotonic()
        if now < self._next_bidding:
            return False
        self._next_bidding = now + self.settings.bidding_puzzle_seconds
        return True

    async def settle(self) -> None:
        """Wait for the searches in flight (what a test waits for)."""
        while self._searching:
            await asyncio.gather(*self._searching, return_exceptions=True)

    async def close(self) -> None:
        """Stop the searches in flight (a bonus: the next deals give puzzles again)."""
        for task in list(self._searching):
            task.cancel()
        await asyncio.gather(*self._searching, return_exceptions=True)

    async def puzzle(self, puzzle_id: str) -> StoredPuzzle | None:
        if PUZZLE_ID.fullmatch(puzzle_id) is None:
            return None
        return await self.db(self.store.get, puzzle_id)

    async def of_day(self, day: str) -> str | None:
        """The puzzle of ``day``: the first candidate that the solver confirms is still a
        puzzle of one card (a puzzle stored by an older engine or solver may not be);
        remembered for the day."""
        if day in self._days:
            return self._days[day]
        chosen = None
        for puzzle_id in (await self.db(self.store.day_candidates, day))[:DAY_TRIES]:
            puzzle = await self.puzzle(puzzle_id)
            if puzzle is not None and await self.pool.run(_confirm, puzzle, priority=Priority.HINT):
                chosen = puzzle_id
                break
        if chosen is not None:
            self._days = {day: chosen}
        return chosen

    async def next_for(self, player: str, skip: str | None = None) -> str | None:
        return await self.db(self.store.next_for, player, skip)

    async def player(self, player: str) -> PuzzlePlayer:
        return await self.db(self.store.player, player)

    async def tried(self, player: str, puzzle_id: str) -> str | None:
        return await self.db(self.store.tried, player, puzzle_id)

    async def attempt(self, player: str, puzzle: StoredPuzzle, card: str) -> Tried:
        """The player plays ``card`` (a legal card of the position: ``ValueError`` if not)."""
        if card not in {c for c, _ in puzzle.values}:
            raise ValueError(f"{card} is not a card the position lets the player play")
        return await self.db(self.store.record_try, player, puzzle.id, card, card == puzzle.solution)

    async def bidding_puzzle(self, puzzle_id: str) -> StoredBiddingPuzzle | None:
        if PUZZLE_ID.fullmatch(puzzle_id) is None:
            return None
        return await self.db(self.bidding.get, puzzle_id)

    async def next_bidding(self, player: str, skip: str | None = None) -> str | None:
        return await self.db(self.bidding.next_for, player, skip)

    async def answer(self, player: str, puzzle: StoredBiddingPuzzle, call: str) -> bool:
        """The player answers ``call`` (a call open at the position: ``ValueError`` if not);
        whether it is as good as the expert's. The first answer is kept."""
        try:
            action = parse_call(call)
        except EngineError:
            raise ValueError(f"{call!r} is not a call") from None
        if puzzle.value_of(action) is None:
            raise ValueError(f"{call} is not a call the position lets the player make")
        good = puzzle.good(action)
        await self.db(self.bidding.record_answer, player, puzzle.id, call_str(action), good)
        return good
