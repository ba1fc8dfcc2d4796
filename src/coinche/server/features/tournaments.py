"""Tournaments (issue 30): the club's "concours" online, every table of a round on the same
deals, computers in every gap. No HTTP here: ``web/tournament_pages.py`` calls
``Tournaments``; the pairing and the scoring are pure (``table/tournament_pairing.py``,
``table/tournament_scoring.py``); ``docs/tournaments.md`` says the rules to players.

**What two processes must agree on lives in the database.** A tournament's row says where
it stands (``state``, the ``round`` under way, its clock, whether it is closed); every
move from one stage to the next is one conditional UPDATE of that row (``WHERE round = r
AND ...``), so when every process's runner sees the moment at once, one of them moves it
and the others find nothing to do. The transaction that starts a round also names its
tables and writes their seats (``tournament_tables``); the tables are made just after, and
a table named but never made (its process died in between) is made by any runner
``UNMADE_AFTER`` later: a restart of any process, at any moment, loses nothing.

**The round.** A round is a game of ``deals`` deals at each table (``TournamentTable.deals``),
dealt under the label ``tournoi-<id>-<round>`` from the tournament's secret (committed on
its page from its creation, revealed when it is over: ``coinche verify`` checks any of its
deals then), with the same first dealer and table seed everywhere, so the computers'
choices depend on the cards and the people's moves only. Its clock is ``deals ×
minutes_per_deal``: then its tables take no move (``requests.closed``) and the round is
scored as it stands. Its results come from the commits of its tables (a game's end writes
its table's result once, whichever process stores it); the round closes when its last
table has one or its clock ran out, and the next starts ``break_seconds`` later.

**People.** At a round's start, a person whose page is not open anywhere (not online: no
person socket within ``following.ONLINE_FOR``) is replaced by a computer of the
tournament's level for that round; their pair scores what it scores. Those online are taken
to their table from whatever page they have open (their person socket's ``tournament``
message). One who does not come within the grace period or drops during the round is stood
in for, and one who stalls meets the idle clock, even alone with computers
(``TableKind.clocks_run_alone``): a round waits for nobody.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from datetime import time as dtime
from typing import Any, Final

from sqlalchemy import and_, delete, func, or_, select, true, update
from sqlalchemy.exc import IntegrityError

from ...engine.dealing import deal_seed, hands_from_seed
from ...engine.rules import PROFILES, RuleSet
from ..compute.bot_pool import Priority
from ..compute.jobs import par_job
from ..infra.db import (
    AccountRow,
    OnlineRow,
    TableRow,
    TournamentEntryRow,
    TournamentPlayerRow,
    TournamentRow,
    TournamentTableRow,
    aware,
)
from ..infra.hub import Subscription
from ..infra.store import Store, new_id
from ..live.events import DealEnded, GameEnded
from ..live.tables import TableService
from ..table.days import CLUB_TIME
from ..table.kinds import Dealing, TournamentTable, tournament_of
from ..table.live_table import LiveTable, TableError
from ..table.spec import Seat
from ..table.tournament_pairing import BYE, Pairing, Standing, arena_pairing, first_round, max_rounds, next_round, rank
from ..table.tournament_scoring import ArenaScore, DealScore, TableResult, arena_scores, met, standings
from .following import ONLINE_FOR, FollowingStore
from .quick_play import account_names, person_channel

log = logging.getLogger("coinche.tournaments")

FORMATS: Final = ("swiss", "duplicate", "arena")
"""``swiss``: ranked by wins, then points, then matchpoints; ``duplicate``: by matchpoints;
``arena``: for a fixed time, a pair that ends a game meets another that waits at once,
ranked by the arena's points (``tournament_scoring.arena_score``)."""
ARENA_BYE_AFTER: Final = timedelta(seconds=20)
"""In an arena, a pair left over by the waves this long plays two computers."""
LEVELS: Final = ("beginner", "confirmed", "expert")
"""The computers' levels an organiser may choose (byes, absent people, a computer partner)."""
STATES: Final = ("open", "running", "finished", "cancelled")
RUN_CHANNEL: Final = "tournaments"
"""The hub's key on which a result or a change wakes every process's runner (and the list)."""
UNMADE_AFTER: Final = timedelta(seconds=10)
LIMITS: Final = {
    "rounds": (1, 12),
    "deals": (1, 24),
    "minutes_per_deal": (0.5, 15.0),
    "break_seconds": (0, 900),
    "duration_minutes": (5, 240),
}
"""What an organiser may choose (inclusive)."""
TAG: Final = b"coinche-tournament-v1"
SNAPSHOTS_KEPT: Final = 64
"""Tournaments whose standings a process keeps computed."""
MAKING_AT_ONCE: Final = 16
"""Tables of a round made together (the database's threads do the writes)."""
PARS_KEPT: Final = 512
"""Deals' pars a process keeps (a finished tournament's comparison pages)."""
SITE: Final = "site"
"""The organiser of the tournaments the site runs by itself (the daily arena)."""
DAILY_ARENA_EVERY: Final = 60.0
"""How often a runner makes sure today's and tomorrow's daily arenas exist."""


def daily_arena_id(day: date) -> str:
    """The daily arena of ``day`` (club time): its id is the day's, so two processes
    making it at once make one (the primary key)."""
    return f"arene-{day:%Y%m%d}"


def daily_arena_plan(day: date, hour: int, now: datetime) -> Plan:
    """What the site runs every day at ``hour`` (club time): an hour's arena of the
    classic rules, games of four deals, anyone alone or in pairs, computers confirmed."""
    starts_at = datetime.combine(day, dtime(hour), CLUB_TIME).astimezone(UTC)
    return Plan(
        name=f"Arène du jour · {day:%d/%m/%Y}",
        profile="classic",
        format="arena",
        rounds=1,
        deals=4,
        minutes_per_deal=2.0,
        starts_at=starts_at,
        opens_at=min(now, starts_at),
        level="confirmed",
        duration_minutes=60,
    )


def channel(tournament_id: str) -> str:
    """The hub's key of one tournament's page (its standings change)."""
    return f"tournament:{tournament_id}"


def commitment(tournament_id: str, secret: bytes) -> str:
    """The tournament's commitment: hex SHA-256 of the tag, a zero byte, its id, a zero
    byte, its 32-byte secret (shown from its creation; the secret once it is over)."""
    return hashlib.sha256(TAG + b"\x00" + tournament_id.encode("ascii") + b"\x00" + secret).hexdigest()


def round_seed(secret: bytes, number: int) -> int:
    """The table seed of every table of round ``number`` (the computers' decisions)."""
    digest = hmac.new(secret, f"coinche-tournament-round-{number}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 2


def draw_seed(secret: bytes) -> int:
    """The seed of round 1's draw and of the pairing of people entered alone."""
    return int.from_bytes(hmac.new(secret, b"coinche-tournament-draw", hashlib.sha256).digest()[:8], "big")


@dataclass(frozen=True)
class Plan:
    """What an organiser asks for (checked by ``Plan.check``)."""

    name: str
    profile: str
    format: str
    rounds: int
    deals: int
    minutes_per_deal: float
    starts_at: datetime
    opens_at: datetime
    private: bool = False
    alone: bool = True
    """People may enter alone: the start pairs them (by their order of entry, drawn)."""
    computer_partner: bool = True
    """One left alone at the start plays with a computer partner (else their entry ends)."""
    level: str = "confirmed"
    break_seconds: int = 60
    target: int | None = None
    duration_minutes: int = 60
    """An arena's length."""
    bots: bool = False
    """Bots (``bots.py``) may enter."""

    def check(self, now: datetime) -> None:
        if not 1 <= len(self.name.strip()) <= 60:
            raise TableError("bad_name")
        if self.profile not in PROFILES or self.format not in FORMATS or self.level not in LEVELS:
            raise TableError("bad_rules")
        for key, (low, high) in LIMITS.items():
            if not low <= getattr(self, key) <= high:
                raise TableError("bad_" + key)
        if not self.opens_at <= self.starts_at or self.starts_at < now - timedelta(seconds=5):
            raise TableError("bad_start")
        if self.starts_at > now + timedelta(days=60):
            raise TableError("bad_start")

    @property
    def rules(self) -> RuleSet:
        base = PROFILES[self.profile]
        return base if self.target is None else RuleSet.profile(self.profile, target=self.target)


@dataclass(frozen=True)
class Tournament:
    """A tournament as its row says."""

    id: str
    name: str
    organiser: str
    rules: RuleSet
    format: str
    rounds: int
    deals: int
    minutes_per_deal: float
    break_seconds: int
    duration_minutes: int
    opens_at: datetime
    starts_at: datetime
    code: str | None
    alone: bool
    computer_partner: bool
    level: str
    commitment: str
    state: str
    round: int
    round_ends_at: datetime | None
    round_closed_at: datetime | None
    finished_at: datetime | None
    secret: bytes
    bots: bool = False
    """Bots may enter."""

    @property
    def revealed_secret(self) -> str | None:
        """The secret, hex, once the tournament is over (every deal checkable then)."""
        return self.secret.hex() if self.state in ("finished", "cancelled") else None

    @property
    def by_matchpoints(self) -> bool:
        return self.format == "duplicate"

    @property
    def is_arena(self) -> bool:
        return self.format == "arena"

    @property
    def ends_at(self) -> datetime | None:
        """When an arena ends (its tables close then, as they stand)."""
        return self.starts_at + timedelta(minutes=self.duration_minutes) if self.is_arena else None

    @property
    def round_seconds(self) -> float:
        return self.deals * self.minutes_per_deal * 60.0

    def next_round_at(self) -> datetime | None:
        if self.is_arena or self.state != "running" or self.round_closed_at is None or self.round >= self.rounds:
            return None
        return self.round_closed_at + timedelta(seconds=self.break_seconds)

    def round_closes_at(self, started: datetime) -> datetime:
        """When the clock of a round started at ``started`` runs out."""
        closes_at = started + timedelta(seconds=self.round_seconds)
        return closes_at if self.ends_at is None else min(closes_at, self.ends_at)

    def round_table(self, number: int, started: datetime) -> tuple[TournamentTable, Dealing]:
        """The kind of each table of round ``number`` and how they all deal (the same)."""
        kind = TournamentTable(self.id, number, self.deals, self.round_closes_at(started))
        return kind, Dealing(self.secret, round_seed(self.secret, number), (number - 1) % 4)


def _tournament_of(row: TournamentRow) -> Tournament:
    def maybe(moment: datetime | None) -> datetime | None:
        return None if moment is None else aware(moment)

    return Tournament(
        row.id,
        row.name,
        row.organiser_id,
        RuleSet.profile(row.profile, **row.options),
        row.format,
        row.rounds,
        row.deals,
        row.minutes_per_deal,
        row.break_seconds,
        row.duration_minutes,
        aware(row.opens_at),
        aware(row.starts_at),
        row.code,
        row.alone,
        row.computer_partner,
        row.level,
        row.commitment,
        row.state,
        row.round,
        maybe(row.round_ends_at),
        maybe(row.round_closed_at),
        maybe(row.finished_at),
        row.secret,
        bool(row.bots),
    )


@dataclass(frozen=True)
class Entry:
    """A pair (``second`` accepted: ``second_ok``), or a person alone."""

    id: str
    first: str
    second: str | None
    second_ok: bool
    withdrawn: bool

    @property
    def players(self) -> tuple[str, ...]:
        return (self.first,) if self.second is None or not self.second_ok else (self.first, self.second)


@dataclass(frozen=True)
class RoundTable:
    """A table of a round: its pairs (``ew`` None: computers), first seats and result."""

    table_id: str
    round: int
    number: int
    ns: str
    ew: str | None
    seats: tuple[Seat, ...]
    result: TableResult | None
    complete: bool
    claimed_at: datetime
    ended_at: datetime | None = None
    """When its result came."""


def _round_table_of(row: TournamentTableRow) -> RoundTable:
    result = None
    complete = False
    ended_at = None
    if row.result is not None:
        if isinstance(row.result.get("at"), str):
            ended_at = aware(datetime.fromisoformat(row.result["at"]))
        deals: tuple[DealScore, ...] = tuple(None if d is None else (int(d[0]), int(d[1])) for d in row.result["deals"])
        result = TableResult(row.round, row.ns_entry, row.ew_entry, deals)
        complete = bool(row.result.get("complete"))
    return RoundTable(
        row.table_id,
        row.round,
        row.number,
        row.ns_entry,
        row.ew_entry,
        tuple(Seat.from_json(x) for x in row.seats),
        result,
        complete,
        aware(row.claimed_at),
        ended_at,
    )


def result_json(live: LiveTable | None, deals: int) -> dict[str, Any]:
    """A table's result as stored: each deal's points (None: not played), complete or not."""
    scores: list[list[int] | None] = [None] * deals
    complete = False
    if live is not None:
        for i, points in enumerate(live.game.history[:deals]):
            scores[i] = [points[0], points[1]]
        complete = live.game.is_over
    return {"deals": scores, "complete": complete}


class TournamentStore:
    """The tournaments' rows (blocking calls: ``Tournaments`` runs them on the database's
    threads)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # ----- organising, entering -----

    def create(
        self,
        plan: Plan,
        organiser: str,
        at: datetime,
        test_seed: int | str | None = None,
        tournament_id: str | None = None,
    ) -> Tournament:
        """A new tournament (``tournament_id``: the id it must have; taken: ``IntegrityError``)."""
        for attempt in range(8):
            try:
                return self._create(plan, organiser, at, test_seed, tournament_id)
            except IntegrityError:
                if tournament_id is not None or not plan.private or attempt == 7:
                    raise  # a private one's code (six hex digits) may clash: another code
        raise AssertionError("unreachable")

    def _create(
        self, plan: Plan, organiser: str, at: datetime, test_seed: int | str | None, tournament_id: str | None
    ) -> Tournament:
        tournament_id = tournament_id or new_id()
        if test_seed is None:
            secret = secrets.token_bytes(32)
        else:
            secret = hashlib.sha256(f"coinche-test-tournament:{test_seed}:{tournament_id}".encode()).digest()
        rules = plan.rules
        with self.store.session() as s, s.begin():
            row = TournamentRow(
                id=tournament_id,
                name=plan.name.strip(),
                organiser_id=organiser,
                profile=rules.name,
                options=rules.options(),
                format=plan.format,
                rounds=plan.rounds,
                deals=plan.deals,
                minutes_per_deal=plan.minutes_per_deal,
                break_seconds=plan.break_seconds,
                duration_minutes=plan.duration_minutes,
                opens_at=plan.opens_at,
                starts_at=plan.starts_at,
                code=secrets.token_hex(3).upper() if plan.private else None,
                alone=plan.alone,
                computer_partner=plan.computer_partner,
                bots=plan.bots,
                level=plan.level,
                secret=secret,
                commitment=commitment(tournament_id, secret),
                state="open",
                round=0,
                created_at=at,
            )
            s.add(row)
            s.flush()
            return _tournament_of(row)

    def get(self, tournament_id: str) -> Tournament | None:
        with self.store.session() as s:
            row = s.get(TournamentRow, tournament_id)
            return None if row is None else _tournament_of(row)

    def listing(self, limit: int = 50) -> dict[str, list[Tournament]]:
        """The public tournaments: upcoming (soonest first), running, finished (latest
        first)."""
        out: dict[str, list[Tournament]] = {}
        with self.store.session() as s:
            for state, order in (
                ("open", TournamentRow.starts_at),
                ("running", TournamentRow.starts_at),
                ("finished", TournamentRow.finished_at.desc()),
            ):
                rows = s.execute(
                    select(TournamentRow)
                    .where(TournamentRow.state == state, TournamentRow.code.is_(None))
                    .order_by(order)
                    .limit(limit)
                ).scalars()
                out[state] = [_tournament_of(r) for r in rows]
        return out

    def cancel(self, tournament_id: str, player: str) -> None:
        """The organiser cancels before the start (``not_open`` for anyone else, or after)."""
        self._organise(tournament_id, player, state="cancelled")

    def start_now(self, tournament_id: str, player: str, at: datetime) -> None:
        """The organiser starts it now (everyone is there): the next tick of any runner
        starts it as at its hour."""
        self._organise(tournament_id, player, starts_at=at)

    def _organise(self, tournament_id: str, player: str, **values: Any) -> None:
        with self.store.engine.begin() as conn:
            done = conn.execute(
                update(TournamentRow)
                .where(
                    TournamentRow.id == tournament_id,
                    TournamentRow.organiser_id == player,
                    TournamentRow.state == "open",
                )
                .values(**values)
                .execution_options(preserve_rowcount=True)
            )
            if not done.rowcount:
                raise TableError("not_open")

    def enter(self, tournament_id: str, player: str, partner: str | None, code: str | None, at: datetime) -> Entry:
        """``player`` enters, with ``partner`` (who must accept) or alone."""
        with self.store.session() as s, s.begin():
            row = s.get(TournamentRow, tournament_id)
            if row is None:
                raise TableError("gone")
            if row.state != "open" or at < aware(row.opens_at) or at >= aware(row.starts_at):
                raise TableError("not_open")
            if row.code is not None and (code or "").strip().upper() != row.code:
                raise TableError("bad_code")
            if partner == player:
                raise TableError("yourself")
            if partner is None and not row.alone:
                raise TableError("pairs_only")
            if not row.bots:
                named = [p for p in (player, partner) if p is not None]
                robots = select(AccountRow.id).where(
                    AccountRow.player_id.in_(named), AccountRow.bot_owner_id.is_not(None)
                )
                if s.execute(robots.limit(1)).first() is not None:
                    raise TableError("no_bots")
            taken = s.execute(
                select(TournamentPlayerRow.player_id).where(
                    TournamentPlayerRow.tournament_id == tournament_id,
                    TournamentPlayerRow.player_id.in_([p for p in (player, partner) if p is not None]),
                )
            ).scalars()
            for who in taken:
                raise TableError("entered" if who == player else "partner_entered")
            entry = TournamentEntryRow(
                id=new_id(),
                tournament_id=tournament_id,
                first_id=player,
                second_id=partner,
                second_ok=False,
                created_at=at,
            )
            s.add(entry)
            s.add(TournamentPlayerRow(tournament_id=tournament_id, player_id=player, entry_id=entry.id))
            try:
                s.flush()
            except IntegrityError:
                raise TableError("entered") from None
            return _entry_of(entry)

    def answer(self, tournament_id: str, player: str, entry_id: str, accept: bool, at: datetime) -> None:
        """``player``, named as a partner in the entry ``entry_id`` (several may name
        them), accepts (their entry is the pair's) or declines (the one who named them is
        entered alone, or not at all where nobody may be)."""
        with self.store.session() as s, s.begin():
            row = s.get(TournamentRow, tournament_id)
            if row is None or row.state != "open" or at >= aware(row.starts_at):
                raise TableError("not_open")
            entry = s.execute(
                select(TournamentEntryRow).where(
                    TournamentEntryRow.id == entry_id,
                    TournamentEntryRow.tournament_id == tournament_id,
                    TournamentEntryRow.second_id == player,
                    TournamentEntryRow.second_ok.is_(False),
                )
            ).scalar_one_or_none()
            if entry is None:
                raise TableError("no_proposal")
            if not accept:
                entry.second_id = None
                if not row.alone:
                    s.execute(delete(TournamentPlayerRow).where(TournamentPlayerRow.entry_id == entry.id))
                    s.delete(entry)
                return
            s.add(TournamentPlayerRow(tournament_id=tournament_id, player_id=player, entry_id=entry.id))
            try:
                s.flush()
            except IntegrityError:
                raise TableError("entered") from None
            entry.second_ok = True

    def withdraw(self, tournament_id: str, player: str, at: datetime) -> None:
        """``player``'s pair leaves: before the start, its entry goes; after, it is not
        paired again (a round under way goes on: a computer stands in)."""
        with self.store.session() as s, s.begin():
            row = s.get(TournamentRow, tournament_id)
            link = s.get(TournamentPlayerRow, (tournament_id, player))
            if row is None or link is None:
                raise TableError("not_entered")
            entry = s.get(TournamentEntryRow, link.entry_id)
            assert entry is not None
            if row.state == "open":
                s.execute(delete(TournamentPlayerRow).where(TournamentPlayerRow.entry_id == entry.id))
                s.delete(entry)
            elif row.state == "running":
                entry.withdrawn_at = at
            else:
                raise TableError("not_open")

    def entries(self, tournament_id: str) -> list[Entry]:
        with self.store.session() as s:
            rows = s.execute(
                select(TournamentEntryRow)
                .where(TournamentEntryRow.tournament_id == tournament_id)
                .order_by(TournamentEntryRow.created_at, TournamentEntryRow.id)
            ).scalars()
            return [_entry_of(r) for r in rows]

    def proposals(self, tournament_id: str, player: str) -> list[Entry]:
        """Entries that name ``player`` as a partner, not accepted yet."""
        with self.store.session() as s:
            rows = s.execute(
                select(TournamentEntryRow).where(
                    TournamentEntryRow.tournament_id == tournament_id,
                    TournamentEntryRow.second_id == player,
                    TournamentEntryRow.second_ok.is_(False),
                )
            ).scalars()
            return [_entry_of(r) for r in rows]

    def tables(self, tournament_id: str, number: int | None = None) -> list[RoundTable]:
        with self.store.session() as s:
            query = select(TournamentTableRow).where(TournamentTableRow.tournament_id == tournament_id)
            if number is not None:
                query = query.where(TournamentTableRow.round == number)
            rows = s.execute(query.order_by(TournamentTableRow.round, TournamentTableRow.number)).scalars()
            return [_round_table_of(r) for r in rows]

    def version(self, tournament_id: str) -> tuple[int, ...]:
        """What the standings of a tournament under way depend on, counted: withdrawals,
        tables, results."""
        with self.store.session() as s:
            withdrawn = s.execute(
                select(func.count(TournamentEntryRow.withdrawn_at)).where(
                    TournamentEntryRow.tournament_id == tournament_id
                )
            ).scalar_one()
            tables = s.execute(
                select(func.count(), func.count(TournamentTableRow.result)).where(
                    TournamentTableRow.tournament_id == tournament_id
                )
            ).one()
            return int(withdrawn), int(tables[0]), int(tables[1])

    def snapshot(self, tournament: Tournament, key: Any) -> Snapshot:
        entries = self.entries(tournament.id)
        tables = self.tables(tournament.id)
        return Snapshot(key, entries, tables, standings_of(tournament, entries, tables))

    def played_by(self, player: str, private: bool, limit: int = 20) -> list[tuple[Tournament, str]]:
        """The tournaments ``player`` entered (latest first) and their entry; a club's
        (private) ones only when ``private`` (the player's own eyes)."""
        with self.store.session() as s:
            rows = s.execute(
                select(TournamentRow, TournamentPlayerRow.entry_id)
                .join(TournamentPlayerRow, TournamentPlayerRow.tournament_id == TournamentRow.id)
                .where(
                    TournamentPlayerRow.player_id == player,
                    TournamentRow.state.in_(("running", "finished")),
                    true() if private else TournamentRow.code.is_(None),
                )
                .order_by(TournamentRow.starts_at.desc())
                .limit(limit)
            ).all()
            return [(_tournament_of(t), entry) for t, entry in rows]

    def person_table(self, player: str) -> str | None:
        """The table of a round under way where ``player`` sits, its game not over."""
        with self.store.session() as s:
            found = s.execute(
                select(TournamentTableRow.table_id, TournamentTableRow.seats)
                .join(TournamentPlayerRow, TournamentPlayerRow.tournament_id == TournamentTableRow.tournament_id)
                .join(TournamentRow, TournamentRow.id == TournamentTableRow.tournament_id)
                .where(
                    TournamentPlayerRow.player_id == player,
                    or_(
                        TournamentTableRow.ns_entry == TournamentPlayerRow.entry_id,
                        TournamentTableRow.ew_entry == TournamentPlayerRow.entry_id,
                    ),
                    or_(TournamentTableRow.round == TournamentRow.round, TournamentRow.format == "arena"),
                    TournamentTableRow.result.is_(None),
                    TournamentRow.state == "running",
                    TournamentRow.round_closed_at.is_(None),
                )
            ).all()
            for table_id, seats in found:
                if any(seat.get("player") == player for seat in seats):
                    return str(table_id)
            return None

    # ----- running -----

    def due(self, at: datetime) -> list[Tournament]:
        """The tournaments a runner looks at: those due to start, and those running."""
        with self.store.session() as s:
            rows = s.execute(
                select(TournamentRow).where(
                    or_(
                        and_(TournamentRow.state == "open", TournamentRow.starts_at <= at),
                        TournamentRow.state == "running",
                    )
                )
            ).scalars()
            return [_tournament_of(r) for r in rows]

    def start_round(self, tournament_id: str, number: int, at: datetime) -> list[RoundTable]:
        """Start round ``number`` if it is still to start (one process does: the row's
        conditional UPDATE): pair it, name and seat its tables; the tables to make (none:
        another process started it, or the tournament ended for want of entrants)."""
        with self.store.session() as s, s.begin():
            row = s.get(TournamentRow, tournament_id)
            if row is None:
                return []
            if number == 1:
                moved = s.execute(
                    update(TournamentRow)
                    .where(TournamentRow.id == tournament_id, TournamentRow.state == "open")
                    .values(state="running", round=1, round_closed_at=None)
                    .execution_options(synchronize_session=False)
                )
            else:
                moved = s.execute(
                    update(TournamentRow)
                    .where(
                        TournamentRow.id == tournament_id,
                        TournamentRow.state == "running",
                        TournamentRow.round == number - 1,
                        TournamentRow.round_closed_at.is_not(None),
                    )
                    .values(round=number, round_closed_at=None)
                    .execution_options(synchronize_session=False)
                )
            if moved.rowcount != 1:  # type: ignore[attr-defined]
                return []
            s.refresh(row)
            tournament = _tournament_of(row)
            if number == 1:
                _pair_people_alone(s, tournament, at)
            entries = _entries_in_play(s, tournament_id)
            if not entries:
                row.state, row.finished_at = ("cancelled" if number == 1 else "finished"), at
                return []
            if tournament.is_arena:  # its waves seat the pairs from now on
                row.round, row.round_ends_at = 0, tournament.ends_at
                return []
            ids = sorted(e.id for e in entries)
            if number == 1:
                row.rounds = min(row.rounds, max_rounds(len(ids)))
                pairing = first_round(ids, draw_seed(tournament.secret))
            else:
                done = [t.result for t in map(_round_table_of, _table_rows(s, tournament_id)) if t.result is not None]
                field = [st for st in standings(ids, done) if st.pair in ids]
                try:
                    pairing = next_round(field, met(done), tournament.by_matchpoints)
                except ValueError:  # every pairing repeats a game (entrants withdrew): it ends
                    row.state, row.finished_at, row.round = "finished", at, number - 1
                    row.round_closed_at = at
                    return []
            row.round_ends_at = at + timedelta(seconds=tournament.round_seconds)
            return _name_tables(s, tournament, number, pairing, entries, at)

    def record(self, table_id: str, result: dict[str, Any], at: datetime) -> bool:
        """A table's result, once (False: it had one), with when it came."""
        with self.store.engine.begin() as conn:
            done = conn.execute(
                update(TournamentTableRow)
                .where(TournamentTableRow.table_id == table_id, TournamentTableRow.result.is_(None))
                .values(result={**result, "at": at.isoformat()})
                .execution_options(preserve_rowcount=True)
            )
            return bool(done.rowcount)

    def _move(self, tournament_id: str, number: int, closed: bool, **values: Any) -> bool:
        """One stage change of a running tournament at round ``number`` (closed or not
        yet): the conditional UPDATE only one process wins."""
        closing = TournamentRow.round_closed_at
        with self.store.engine.begin() as conn:
            done = conn.execute(
                update(TournamentRow)
                .where(
                    TournamentRow.id == tournament_id,
                    TournamentRow.state == "running",
                    TournamentRow.round == number,
                    closing.is_not(None) if closed else closing.is_(None),
                )
                .values(**values)
                .execution_options(preserve_rowcount=True)
            )
            return bool(done.rowcount)

    def close_round(self, tournament_id: str, number: int, at: datetime) -> bool:
        """Round ``number`` is scored (every table has its result): once."""
        return self._move(tournament_id, number, False, round_closed_at=at)

    def finish(self, tournament_id: str, number: int, at: datetime) -> bool:
        """The last round closed: the tournament is over (once)."""
        return self._move(tournament_id, number, True, state="finished", finished_at=at)

    def arena_wave(self, tournament_id: str, wave: int, at: datetime) -> list[RoundTable]:
        """An arena's wave ``wave`` (one process runs it: the row's conditional UPDATE of
        ``round``): the pairs waiting (no game under way, one of them online at least),
        ranked by their arena points, meet their neighbours; one left over waits for the
        next wave, or plays two computers once it has waited ``ARENA_BYE_AFTER``. Nothing
        to seat: nothing written."""
        with self.store.session() as s, s.begin():
            row = s.get(TournamentRow, tournament_id)
            if row is None or row.state != "running" or row.round != wave:
                return []
            tournament = _tournament_of(row)
            tables = [_round_table_of(t) for t in _table_rows(s, tournament_id)]
            busy = {p for t in tables if t.result is None for p in (t.ns, t.ew) if p is not None}
            entries = _entries_in_play(s, tournament_id)
            online = _online(s, [p for e in entries for p in e.players], at)
            waiting = [e for e in entries if e.id not in busy and any(p in online for p in e.players)]
            if not waiting:
                return []
            scores = arena_scores(t.result for t in tables if t.result is not None)
            free_since: dict[str, datetime] = {}
            last_opponent: dict[str, str | None] = {}
            for t in sorted(tables, key=lambda t: t.round):
                ended = t.ended_at or tournament.starts_at
                for pair, other in ((t.ns, t.ew), (t.ew, t.ns)):
                    if pair is not None:
                        free_since[pair], last_opponent[pair] = ended, other

            def order(entry: Entry) -> tuple[int, datetime, str]:
                found = scores.get(entry.id)
                return (-(found.points if found else 0), free_since.get(entry.id, tournament.starts_at), entry.id)

            pairing, left = arena_pairing([e.id for e in sorted(waiting, key=order)], last_opponent)
            pairings: list[Pairing] = list(pairing)
            if left is not None and at - free_since.get(left, tournament.starts_at) >= ARENA_BYE_AFTER:
                pairings.append((left, BYE))
            if not pairings:
                return []
            moved = s.execute(
                update(TournamentRow)
                .where(TournamentRow.id == tournament_id, TournamentRow.round == wave)
                .values(round=wave + 1)
                .execution_options(synchronize_session=False)
            )
            if moved.rowcount != 1:  # type: ignore[attr-defined]
                return []
            return _name_tables(s, tournament, wave + 1, pairings, entries, at)

    def unmade(self, tournament_id: str, number: int | None, older_than: datetime) -> list[RoundTable]:
        """Tables of the round (None: of any) named before ``older_than`` and never made."""
        with self.store.session() as s:
            rows = s.execute(
                select(TournamentTableRow)
                .outerjoin(TableRow, TableRow.id == TournamentTableRow.table_id)
                .where(
                    TournamentTableRow.tournament_id == tournament_id,
                    TournamentTableRow.round == number if number is not None else true(),
                    TournamentTableRow.claimed_at < older_than,
                    TableRow.id.is_(None),
                )
            ).scalars()
            return [_round_table_of(r) for r in rows]


def _entry_of(row: TournamentEntryRow) -> Entry:
    return Entry(row.id, row.first_id, row.second_id, bool(row.second_ok), row.withdrawn_at is not None)


def _entries_in_play(s: Any, tournament_id: str) -> list[Entry]:
    """The entries still in the tournament (not withdrawn)."""
    rows = s.execute(
        select(TournamentEntryRow).where(
            TournamentEntryRow.tournament_id == tournament_id, TournamentEntryRow.withdrawn_at.is_(None)
        )
    ).scalars()
    return [_entry_of(e) for e in rows]


def _name_tables(
    s: Any, tournament: Tournament, number: int, pairings: Sequence[Pairing], entries: Sequence[Entry], at: datetime
) -> list[RoundTable]:
    """Name round ``number``'s tables (or an arena wave's) and write their seats, in the
    transaction that claimed the round: a person not online is a computer for it."""
    online = _online(s, [p for e in entries for p in e.players], at)
    by_id = {e.id: e for e in entries}
    made = []
    for i, (ns, ew) in enumerate(pairings, start=1):
        seats = _seats(tournament, by_id[ns], None if ew is BYE else by_id[ew], online)
        table = TournamentTableRow(
            table_id=new_id(),
            tournament_id=tournament.id,
            round=number,
            number=i,
            ns_entry=ns,
            ew_entry=ew,
            seats=[seat.to_json() for seat in seats],
            claimed_at=at,
        )
        s.add(table)
        made.append(table)
    s.flush()
    return [_round_table_of(t) for t in made]


def _table_rows(s: Any, tournament_id: str) -> Sequence[TournamentTableRow]:
    query = select(TournamentTableRow).where(TournamentTableRow.tournament_id == tournament_id)
    rows: Sequence[TournamentTableRow] = s.execute(query).scalars().all()
    return rows


def _online(s: Any, players: Sequence[str], at: datetime) -> set[str]:
    if not players:
        return set()
    rows = s.execute(select(OnlineRow.player_id, OnlineRow.seen_at).where(OnlineRow.player_id.in_(list(players))))
    return {pid for pid, seen in rows if at - aware(seen) <= ONLINE_FOR}


def _pair_people_alone(s: Any, tournament: Tournament, at: datetime) -> None:
    """At the start: a partner who never answered leaves the one who named them alone; the
    people alone are paired in a draw; one left over plays with a computer partner, if the
    organiser allows it, else their entry ends (``withdrawn``)."""
    rows = (
        s.execute(select(TournamentEntryRow).where(TournamentEntryRow.tournament_id == tournament.id)).scalars().all()
    )
    alone = []
    for row in rows:
        if not row.second_ok:
            row.second_id = None
            if tournament.alone:
                alone.append(row)
            else:  # pairs only: a partner who never answered leaves no pair
                row.withdrawn_at = at
    alone.sort(key=lambda r: r.id)
    random.Random(draw_seed(tournament.secret) + 1).shuffle(alone)
    while len(alone) >= 2:
        keep, merged = alone.pop(), alone.pop()
        keep.second_id, keep.second_ok = merged.first_id, True
        s.execute(
            update(TournamentPlayerRow)
            .where(TournamentPlayerRow.entry_id == merged.id)
            .values(entry_id=keep.id)
            .execution_options(synchronize_session=False)
        )
        s.delete(merged)
    if alone and not tournament.computer_partner:
        alone[0].withdrawn_at = at
    s.flush()


def _seats(tournament: Tournament, ns: Entry, ew: Entry | None, online: set[str]) -> tuple[Seat, ...]:
    """South and North: the first pair (its first entrant South); East and West: the
    second, or computers. A person not online is a computer for the round."""
    computer = Seat("bot", level=tournament.level)

    def of(player: str | None) -> Seat:
        return Seat("human", player=player) if player is not None and player in online else computer

    ns_players = ns.players + (None,) * (2 - len(ns.players))
    if ew is None:
        return (of(ns_players[0]), computer, of(ns_players[1]), computer)
    ew_players = ew.players + (None,) * (2 - len(ew.players))
    return (of(ns_players[0]), of(ew_players[0]), of(ns_players[1]), of(ew_players[1]))


@dataclass(frozen=True)
class Snapshot:
    """A tournament's entries, tables and standings, as of ``key`` (its version)."""

    key: Any
    entries: list[Entry]
    tables: list[RoundTable]
    lines: list[StandingLine]


@dataclass(frozen=True)
class StandingLine:
    """One line of a tournament's standings, as the page shows it."""

    rank: int
    entry: Entry
    standing: Standing
    rounds: int
    arena: ArenaScore | None = None
    """An arena's points (and whether the pair is on fire)."""


class Tournaments:
    """Tournaments on a table service: what people ask, the listener that records each
    round table's result, and this process's runner (see the module)."""

    def __init__(self, tables: TableService) -> None:
        self.tables = tables
        self.store = TournamentStore(tables.store)
        self._runner: asyncio.Task[None] | None = None
        self._wake: Subscription | None = None
        self._playing: dict[str, asyncio.Task[None]] = {}
        self._snapshots: dict[str, Snapshot] = {}
        self._pars: dict[tuple[str, int, int], asyncio.Task[dict[str, Any] | None]] = {}
        tables.registry.on(DealEnded, self._deal_ended)
        tables.registry.on(GameEnded, self._game_ended)

    def now(self) -> datetime:
        return self.tables.settings.clock()

    def start(self) -> None:
        self._wake = self.tables.hub.subscribe(RUN_CHANNEL, steps=False)
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
        hour = self.tables.settings.daily_arena_hour
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
                await self.tables.db(
                    self.store.create, plan, SITE, moment, self.tables.settings.table_seed, daily_arena_id(day)
                )

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
                await asyncio.wait_for(self._wake.wait(), self.tables.settings.tournament_tick_seconds)
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:  # the database may be away a moment: the next tick tries again
                log.exception("tournaments: a tick failed")

    async def _changed(self, tournament_id: str) -> None:
        await self.tables.hub.signal(channel(tournament_id), {"kind": "changed"})

    # ----- what people ask -----

    async def create(self, plan: Plan, organiser: str) -> Tournament:
        plan.check(self.now())
        found = await self.tables.db(self.store.create, plan, organiser, self.now(), self.tables.settings.table_seed)
        await self.tables.hub.signal(RUN_CHANNEL, {"kind": "created"})
        return found

    async def get(self, tournament_id: str) -> Tournament | None:
        return await self.tables.db(self.store.get, tournament_id[:16])

    async def listing(self) -> dict[str, list[Tournament]]:
        return await self.tables.db(self.store.listing)

    async def cancel(self, tournament_id: str, player: str) -> None:
        await self.tables.db(self.store.cancel, tournament_id, player)
        await self._changed(tournament_id)

    async def start_now(self, tournament_id: str, player: str) -> None:
        await self.tables.db(self.store.start_now, tournament_id, player, self.now())
        await self.tables.hub.signal(RUN_CHANNEL, {"kind": "start"})

    async def enter(self, tournament_id: str, player: str, partner: str | None, code: str | None) -> Entry:
        entry = await self.tables.db(self.store.enter, tournament_id, player, partner, code, self.now())
        await self._changed(tournament_id)
        if partner is not None:
            await self.tables.hub.signal(person_channel(partner), {"kind": "tournament"})
        return entry

    async def answer(self, tournament_id: str, player: str, entry_id: str, accept: bool) -> None:
        await self.tables.db(self.store.answer, tournament_id, player, entry_id[:16], accept, self.now())
        await self._changed(tournament_id)

    async def withdraw(self, tournament_id: str, player: str) -> None:
        await self.tables.db(self.store.withdraw, tournament_id, player, self.now())
        await self._changed(tournament_id)

    async def entries(self, tournament_id: str) -> list[Entry]:
        return await self.tables.db(self.store.entries, tournament_id)

    async def proposals(self, tournament_id: str, player: str) -> list[Entry]:
        return await self.tables.db(self.store.proposals, tournament_id, player)

    async def round_tables(self, tournament_id: str) -> list[RoundTable]:
        return await self.tables.db(self.store.tables, tournament_id, None)

    async def person_table(self, player: str) -> str | None:
        return await self.tables.db(self.store.person_table, player)

    async def played_by(self, player: str, private: bool = False) -> list[tuple[Tournament, str]]:
        return await self.tables.db(self.store.played_by, player, private)

    async def account_named(self, name: str) -> str:
        """The player of the account called ``name`` (any case)."""
        found = await self.tables.db(FollowingStore(self.tables.store).account, name[:64])
        if found is None:
            raise TableError("no_account")
        return found[0]

    async def may_watch(self, tournament_id: str, number: int) -> bool:
        """Whether anyone (an account or not, an entrant or not: all alike) may watch a
        table of round ``number`` of ``tournament_id``: a public tournament's, once the
        round is seen (``seen_rounds``)."""
        tournament = await self.get(tournament_id)
        if tournament is None or tournament.code is not None:
            return False
        tables = await self.tables.db(self.store.tables, tournament_id, number)
        return number in seen_rounds(tournament, tables)

    async def names(self, players: Sequence[str]) -> dict[str, str]:
        return await self.tables.db(account_names, self.tables.store, list(players))

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
        dealer = ((number - 1) % 4 + deal - 1) % 4
        hands = hands_from_seed(deal_seed(tournament.secret, f"tournoi-{tournament.id}-{number}", deal), dealer)
        try:
            return await self.tables.work.run(par_job(tournament.rules, dealer, hands), priority=Priority.ANALYSIS)
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
            return await self.tables.db(self.store.snapshot, tournament, None)
        version = await self.tables.db(self.store.version, tournament.id)
        key = (tournament.state, tournament.round, tournament.round_closed_at, version)
        found = self._snapshots.get(tournament.id)
        if found is not None and found.key == key:
            return found
        found = await self.tables.db(self.store.snapshot, tournament, key)
        self._snapshots[tournament.id] = found
        while len(self._snapshots) > SNAPSHOTS_KEPT:
            self._snapshots.pop(next(iter(self._snapshots)))
        return found

    # ----- the runner -----

    async def tick(self) -> None:
        """Move every tournament that is due one stage on (see the module)."""
        moment = self.now()
        for tournament in await self.tables.db(self.store.due, moment):
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
                if await self.tables.db(self.store.finish, tournament.id, number, moment):
                    await self._changed(tournament.id)
                    await self.tables.hub.signal(RUN_CHANNEL, {"kind": "finished"})
            elif moment >= next_at:
                await self._start_round(tournament.id, number + 1)

    async def _start_round(self, tournament_id: str, number: int) -> None:
        made = await self.tables.db(self.store.start_round, tournament_id, number, self.now())
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
            made = await self.tables.db(self.store.arena_wave, tournament.id, tournament.round, moment)
            await self._make_all(tournament, made)
            if made:
                await self._changed(tournament.id)
        tables = await self.tables.db(self.store.tables, tournament.id, None)
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
        await self.tables.db(self.store.close_round, tournament.id, tournament.round, moment)
        if await self.tables.db(self.store.finish, tournament.id, tournament.round, moment):
            await self._changed(tournament.id)

    async def _make_unmade(self, tournament: Tournament, moment: datetime) -> None:
        number = None if tournament.is_arena else tournament.round
        await self._make_all(
            tournament, await self.tables.db(self.store.unmade, tournament.id, number, moment - UNMADE_AFTER)
        )

    async def _make_all(self, tournament: Tournament, tables: Sequence[RoundTable]) -> None:
        """Make a round's tables, ``MAKING_AT_ONCE`` at a time (128 one after the other took
        seconds: each is a write and a read), their people's names read at once."""
        if not tables:
            return
        names = await self.names(sorted({s.player for t in tables for s in t.seats if s.player is not None}))
        for start in range(0, len(tables), MAKING_AT_ONCE):
            batch = tables[start : start + MAKING_AT_ONCE]
            await asyncio.gather(*(self._make(tournament, table, names) for table in batch))

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
            self.tables.attendance.game_started(live)
        await self._play_computers(table)
        for player in players:
            await self.tables.hub.signal(person_channel(player), {"kind": "tournament", "table": table.table_id})

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
            await self.tables.play_out(table_id)
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
        return await self.tables.db(self.store.record, table.table_id, result_json(live, tournament.deals), moment)

    async def _round_over(self, tournament: Tournament, moment: datetime) -> bool:
        """Close the round under way when its tables all have a result, or its clock ran
        out (the tables still playing are scored as they stand)."""
        tables = await self.tables.db(self.store.tables, tournament.id, tournament.round)
        waiting = [t for t in tables if t.result is None]
        for table in waiting:
            await self._play_computers(table)
        ends = tournament.round_ends_at
        if waiting and (ends is None or moment < ends):
            return False
        for table in waiting:
            await self._score_as_it_stands(tournament, table, moment)
        return await self.tables.db(self.store.close_round, tournament.id, tournament.round, moment)

    async def _deal_ended(self, event: DealEnded) -> None:
        tournament_id = tournament_of(event.table.spec.kind)
        if tournament_id is not None:
            await self._changed(tournament_id)

    async def _game_ended(self, event: GameEnded) -> None:
        live = event.table
        if tournament_of(live.spec.kind) is None:
            return
        result = result_json(live, live.spec.kind.max_deals or 0)
        if await self.tables.db(self.store.record, live.id, result, self.now()):
            await self.tables.hub.signal(RUN_CHANNEL, {"kind": "result"})


def seen_rounds(tournament: Tournament, tables: Sequence[RoundTable]) -> set[int]:
    """The rounds (an arena's waves) whose deals anyone may see: watch their tables, read
    their scores and count them in the standings. A round is seen once every one of its
    tables has its result (or the tournament is over), not before: every table of a round
    deals the same cards, so a table ahead, or its score, would show a deal to someone
    (an entrant's second account, the entrant logged out) whose own table still plays it.
    A watcher gets no delayed replay of a table: the whole round, once it is over."""
    rounds = {t.round for t in tables}
    if tournament.state in ("finished", "cancelled"):
        return rounds
    return rounds - {t.round for t in tables if t.result is None}


def standings_of(tournament: Tournament, entries: Sequence[Entry], tables: Sequence[RoundTable]) -> list[StandingLine]:
    """The standings lines, best first (equal lines share a rank), from the rounds seen
    (``seen_rounds``)."""
    paired = {t.ns for t in tables} | {t.ew for t in tables if t.ew is not None}
    shown = [e for e in entries if e.id in paired or tournament.state == "open" or tournament.state == "cancelled"]
    seen = seen_rounds(tournament, tables)
    results = [t.result for t in tables if t.result is not None and t.round in seen]
    by_id = {e.id: e for e in shown}
    found = {st.pair: st for st in standings(by_id, results)}
    played: dict[str, int] = {}
    for r in results:
        for pair in (r.ns, r.ew):
            if pair is not None:
                played[pair] = played.get(pair, 0) + 1
    ordered = rank([found[e] for e in by_id], tournament.by_matchpoints)
    arena = arena_scores(results) if tournament.is_arena else {}
    if tournament.is_arena:  # the arena's points first, then the usual order
        ordered.sort(key=lambda st: -(arena[st.pair].points if st.pair in arena else 0))

    def key(st: Standing) -> tuple[float, ...]:
        return (arena[st.pair].points if st.pair in arena else 0, st.wins, st.points, st.matchpoints)

    lines: list[StandingLine] = []
    for i, st in enumerate(ordered):
        rank_now = lines[-1].rank if lines and key(lines[-1].standing) == key(st) else i + 1
        score = arena.get(st.pair, ArenaScore(0, 0, False)) if tournament.is_arena else None
        lines.append(StandingLine(rank_now, by_id[st.pair], st, played.get(st.pair, 0), score))
    return lines
