"""Your mistakes as puzzles (issue 50): a person's costliest decisions of each deal come back
as their own puzzles, from the position they faced, with what they could know then.

When a deal's accuracy is kept (``Accuracies``), each person's decisions that cost enough to
be marked (``bots.accuracy.mark``) become mistakes, the costliest ``PER_DEAL`` of a deal at
most: the position (the deal's log up to it; the hands are kept on the server and never
shown), every legal card's double-dummy value (the analysis has them) or every call's value
by the expert's appraisal (a ``MISTAKE`` job); a card's line, the solver's best play after
the best card, is worked out on a worker when it is first shown. A person's answer is
judged on those values: it solves the mistake when it would not have been marked itself.
A mistake solved on three different days (the server's clock, ``Settings.clock``) leaves
the list: spaced repetition.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from sqlalchemy import JSON, Boolean, DateTime, Float, Index, Integer, String, UniqueConstraint, select, update
from sqlalchemy.orm import Mapped, mapped_column

from ...bots.accuracy import CALL_MISTAKE, CARD_MISTAKE, call_values_of, costly
from ...bots.analysis import step_indices
from ...bots.expert.auction import appraise
from ...bots.expert.config import ExpertConfig
from ...bots.puzzles import best_line
from ...engine.actions import call_str
from ...engine.cards import card_str
from ...engine.deal import Deal, LogEntry, Phase
from ...engine.errors import EngineError
from ...engine.wire import rules_from_json, rules_to_json
from ..compute.bot_pool import PoolBusy, Priority
from ..compute.job_kinds import deal_args, entry_from_json, json_card, log_json, read_deal
from ..compute.jobs import Job, JobKind, JobRefused, json_list, json_number, json_object
from ..compute.work import Work
from ..infra.database import Database
from ..infra.db import Base, now
from ..infra.store import Store, new_id
from ..table.days import day_of
from .accuracy import DealKept

log = logging.getLogger("coinche.mistakes")

PER_DEAL: Final = 2
"""A person's costliest decisions of one deal that become mistakes, at most."""
KEPT: Final = 200
"""A person's mistakes still to solve, at most: past it the oldest leave the list."""
SOLVED_DAYS: Final = 3
"""A mistake solved on this many different days leaves the list."""
MISTAKE_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,16}")


class MistakeRow(Base):
    """A person's costly decision, kept to be played again as a puzzle."""

    __tablename__ = "mistakes"
    __table_args__ = (
        Index("ix_mistakes_player", "player_id", "retired", "created_at"),
        UniqueConstraint("table_id", "deal", "step", name="uq_mistakes_decision"),
    )

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32))
    table_id: Mapped[str] = mapped_column(String(16))
    deal: Mapped[int] = mapped_column(Integer)
    step: Mapped[int] = mapped_column(Integer)
    """The review's step of the decision (the deal's first call is step 1)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    profile: Mapped[str] = mapped_column(String(16))
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    dealer: Mapped[int] = mapped_column(Integer)
    hands: Mapped[list[int]] = mapped_column(JSON)
    """The hands as dealt: never sent, the position is shown from the seat's view."""
    log: Mapped[list[Any]] = mapped_column(JSON)
    """The deal's log up to the position (``job_kinds.log_json``'s entries)."""
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))
    played: Mapped[str] = mapped_column(String(16))
    cost: Mapped[float] = mapped_column(Float)
    values: Mapped[list[Any]] = mapped_column(JSON)
    """Every legal card or call and its value, the best first (``[code, value]``)."""
    line: Mapped[list[str]] = mapped_column(JSON)
    """A card's: the best card, then the solver's best play to the end of the deal (worked
    out when first shown, after an answer: empty until then)."""
    solved_days: Mapped[list[str]] = mapped_column(JSON, default=list)
    tries: Mapped[int] = mapped_column(Integer, default=0)
    retired: Mapped[bool] = mapped_column(Boolean, default=False)


# ----- the workers' part: what a position is worth -----


def mistake_job(deal: Deal, upto: int) -> Job[dict[str, Any]]:
    """The values at the position after ``upto`` entries of the finished deal's log."""
    return Job(MISTAKE, {**deal_args(deal), "log": log_json(deal.log[:upto])})


def position_values(position: Deal, config: ExpertConfig | None = None) -> dict[str, Any]:
    """Every legal card's double-dummy value for the mover's side and the line after the
    best card, or every call's value by the expert's appraisal, the best first."""
    if position.phase is Phase.AUCTION:
        appraisal = appraise(position.view(position.to_move), config or ExpertConfig(), every_bid=True)
        pairs = [(call_str(a), round(e, 1)) for a, e in call_values_of(appraisal).items()]
        pairs.sort(key=lambda p: -p[1])
        return {"kind": "call", "values": [list(p) for p in pairs], "line": []}
    from ...bots.analysis import card_values  # the solver, loaded where it runs

    values = card_values(position)
    best = max(values.values())
    first = min(c for c, v in values.items() if v == best)
    pairs = sorted(((card_str(c), v) for c, v in values.items()), key=lambda p: -p[1])
    line, _ = best_line(position, first)
    return {
        "kind": "card",
        "values": [list(p) for p in pairs],
        "line": [card_str(c) for c in line],
    }


def run_mistake(args: Any) -> Any:
    position = read_deal(json_object(args, ("rules", "dealer", "hands", "log")))
    if position.phase not in (Phase.AUCTION, Phase.PLAY) or not position.legal_actions():
        raise JobRefused("no decision at this position")
    return position_values(position)


def read_mistake(answer: Any) -> dict[str, Any]:
    data = json_object(answer, ("kind", "values", "line"))
    if data["kind"] not in ("card", "call"):
        raise JobRefused("not a kind of decision")
    values = []
    for pair in json_list(data["values"], 128):
        code, value = json_list(pair, 2, 2)
        if not isinstance(code, str) or len(code) > 16:
            raise JobRefused("not a card or a call")
        values.append([code, json_number(value, -100_000, 100_000)])
    return {"kind": data["kind"], "values": values, "line": [json_card(c) for c in json_list(data["line"], 32)]}


MISTAKE: JobKind[dict[str, Any]] = JobKind("mistake", run_mistake, read_mistake)
JOB_KINDS: tuple[JobKind[Any], ...] = (MISTAKE,)


# ----- what is kept -----


@dataclass(frozen=True)
class Mistake:
    """A stored mistake, as its pages use it."""

    id: str
    player: str
    table_id: str
    deal_number: int
    created_at: datetime
    profile: str
    kind: str
    seat: int
    played: str
    cost: float
    values: tuple[tuple[str, float], ...]
    line: tuple[str, ...]
    solved_days: tuple[str, ...]
    tries: int
    retired: bool
    position: Deal
    """The deal at the position, rebuilt by the engine (its hands stay on the server)."""

    @property
    def best(self) -> float:
        return max(v for _, v in self.values)

    def value_of(self, code: str) -> float | None:
        return next((v for c, v in self.values if c == code), None)

    def solves(self, code: str) -> bool | None:
        """Whether answering ``code`` solves the mistake (None: not an answer here)."""
        value = self.value_of(code)
        if value is None:
            return None
        threshold = CARD_MISTAKE if self.kind == "card" else CALL_MISTAKE
        return self.best - value < threshold


def _mistake(row: MistakeRow) -> Mistake:
    rules = rules_from_json(row.rules)
    entries: list[LogEntry] = [entry_from_json(e) for e in row.log]
    return Mistake(
        row.id,
        row.player_id,
        row.table_id,
        row.deal,
        row.created_at,
        row.profile,
        row.kind,
        row.seat,
        row.played,
        row.cost,
        tuple((str(c), float(v)) for c, v in row.values),
        tuple(row.line),
        tuple(row.solved_days),
        row.tries,
        row.retired,
        Deal.from_log(rules, row.dealer, row.hands, entries),
    )


class MistakeStore:
    """The mistakes' reads and writes (blocking: run them on ``Mistakes.db``)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def add(
        self,
        player: str,
        table_id: str,
        n: int,
        step: int,
        deal: Deal,
        upto: int,
        d: Mapping[str, Any],
        data: Mapping[str, Any],
    ) -> bool:
        """Keep a mistake (False: this decision is kept already); the oldest of the person's
        beyond ``KEPT`` leave the list."""
        row = MistakeRow(
            id=new_id(),
            player_id=player,
            table_id=table_id,
            deal=n,
            step=step,
            created_at=now(),
            profile=deal.rules.name,
            rules=rules_to_json(deal.rules),
            dealer=deal.dealer,
            hands=list(deal.dealt),
            log=log_json(deal.log[:upto]),
            seat=d["seat"],
            kind=d["kind"],
            played=d["played"],
            cost=float(d["cost"]),
            values=data["values"],
            line=data["line"],
            solved_days=[],
            tries=0,
            retired=False,
        )
        if not self.store.add_once(row):
            return False
        with self.store.session() as s, s.begin():
            old = s.scalars(
                select(MistakeRow.id)
                .where(MistakeRow.player_id == player, MistakeRow.retired.is_(False))
                .order_by(MistakeRow.created_at.desc(), MistakeRow.id)
                .offset(KEPT)
            ).all()
            if old:
                s.execute(update(MistakeRow).where(MistakeRow.id.in_(old)).values(retired=True))
        return True

    def get(self, mistake_id: str) -> Mistake | None:
        with self.store.session() as s:
            row = s.get(MistakeRow, mistake_id)
            return None if row is None else _mistake(row)

    def of_player(self, player: str) -> list[Mistake]:
        """The person's mistakes still to solve, the newest first."""
        with self.store.session() as s:
            rows = s.scalars(
                select(MistakeRow)
                .where(MistakeRow.player_id == player, MistakeRow.retired.is_(False))
                .order_by(MistakeRow.created_at.desc(), MistakeRow.id)
            ).all()
            return [_mistake(r) for r in rows]

    def keep_line(self, mistake_id: str, line: list[str]) -> None:
        with self.store.engine.begin() as conn:
            conn.execute(update(MistakeRow).where(MistakeRow.id == mistake_id).values(line=line))

    def answered(self, mistake_id: str, solved: bool, day: str) -> tuple[str, ...]:
        """Count a try; a solve on a day not counted yet adds the day, and the third day
        retires the mistake. The days it was solved on."""
        with self.store.session() as s, s.begin():
            row = s.get(MistakeRow, mistake_id, with_for_update=True)
            assert row is not None
            row.tries += 1
            days = list(row.solved_days)
            if solved and day not in days:
                days.append(day)
                row.solved_days = days
                row.retired = len(days) >= SOLVED_DAYS
            return tuple(days)


# ----- the feature -----


class Mistakes:
    """The people's mistakes: found as each deal's accuracy is kept, played again here."""

    def __init__(self, store: MistakeStore, db: Database, work: Work) -> None:
        self.store = store
        self.db = db
        self.work = work

    async def found(self, kept: DealKept) -> None:
        """Keep the costliest decisions of the deal made by its people themselves (a
        computer's, one standing in for them included, are not theirs)."""
        live, n = kept.live, kept.number
        deal = live.game.deals[n - 1]
        index_of = step_indices(deal.log)
        by_seat: dict[int, list[dict[str, Any]]] = {}
        for d in costly(kept.analysis):
            if d["step"] in kept.steps_of(d["seat"]) and d["step"] in index_of:
                by_seat.setdefault(d["seat"], []).append(d)
        cards = {p["step"]: p["values"] for p in kept.analysis["positions"]}
        for seat, found in by_seat.items():
            for d in sorted(found, key=lambda d: -d["cost"])[:PER_DEAL]:
                upto = index_of[d["step"]]
                if d["kind"] == "card":  # the analysis valued every card; the line waits for an answer
                    pairs = sorted(cards[d["step"]].items(), key=lambda p: -p[1])
                    data: dict[str, Any] = {"values": [list(p) for p in pairs], "line": []}
                else:
                    try:
                        data = await self.work.run(mistake_job(deal, upto), priority=Priority.ANALYSIS)
                    except (PoolBusy, EngineError):
                        log.debug("table %s deal %s: no room to keep a mistake", live.id, n)
                        continue
                await self.db(self.store.add, kept.people[seat], live.id, n, d["step"], deal, upto, d, data)

    async def line(self, mistake: Mistake) -> tuple[str, ...]:
        """A card's line, the solver's best play from the best card on: computed on a worker
        the first time it is shown (an answer), then kept."""
        if mistake.kind != "card" or mistake.line:
            return mistake.line
        position = mistake.position
        data = await self.work.run(mistake_job(position, len(position.log)), priority=Priority.HINT)
        line = tuple(data["line"])
        await self.db(self.store.keep_line, mistake.id, list(line))
        return line

    async def get(self, mistake_id: str) -> Mistake | None:
        if MISTAKE_ID.fullmatch(mistake_id) is None:
            return None
        return await self.db(self.store.get, mistake_id)

    async def of_player(self, player: str) -> list[Mistake]:
        return await self.db(self.store.of_player, player)

    async def answer(self, mistake: Mistake, code: str, moment: datetime) -> tuple[bool, tuple[str, ...]] | None:
        """Judge ``code`` (None: not a card or call open at the position) and count it."""
        solved = mistake.solves(code)
        if solved is None:
            return None
        days = await self.db(self.store.answered, mistake.id, solved, day_of(moment))
        return solved, days
