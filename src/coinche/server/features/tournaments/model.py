"""What a tournament is, without storage or clock: the organiser's plan and its limits,
a tournament, an entry, a round's table and its result, the seeds its deals and draw come
from (committed from its creation), which deals of a round anyone may see, and the
standings."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from datetime import time as dtime
from typing import Any, Final

from ....engine.rules import PROFILES, RuleSet
from ...table.days import CLUB_TIME
from ...table.kinds import Dealing, TournamentTable
from ...table.live_table import LiveTable, TableError
from ...table.spec import Seat
from ...table.tournament_pairing import Standing, rank
from ...table.tournament_scoring import ArenaScore, DealScore, TableResult, arena_scores, standings, win_of

FORMATS: Final = ("swiss", "duplicate", "arena")
"""``swiss``: ranked by wins, then points, then matchpoints; ``duplicate``: by matchpoints;
``arena``: for a fixed time, a pair that ends a game meets another that waits at once,
ranked by the arena's points (``tournament_scoring.arena_score``)."""
ARENA_BYE_AFTER: Final = timedelta(seconds=20)
"""In an arena, a pair left over by the waves this long plays two computers."""
LEVELS: Final = ("beginner", "confirmed", "expert")
"""The computers' levels an organiser may choose (byes, absent people, a computer partner)."""
STATES: Final = ("open", "running", "finished", "cancelled")
LIMITS: Final = {
    "rounds": (1, 12),
    "deals": (1, 24),
    "minutes_per_deal": (0.5, 15.0),
    "break_seconds": (0, 900),
    "duration_minutes": (5, 240),
}
"""What an organiser may choose (inclusive)."""
TAG: Final = b"coinche-tournament-v1"
SITE: Final = "site"
"""The organiser of the tournaments the site runs by itself (the daily arena)."""


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
    club: str | None = None
    """A club's tournament: its members alone enter, its organiser is the club's."""

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
    club: str | None = None
    """The club whose tournament it is (its members alone enter; its page lists it)."""

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
    played: tuple[tuple[int, int], ...] = ()
    """The points of the deals it has ended so far (``[ns, ew]`` each, in order)."""

    def deals_done(self, deals: int) -> int:
        """How many of the round's ``deals`` it will play no more: all once it has its
        result (its clock may have run out), else the deals it has ended."""
        return deals if self.result is not None else len(self.played)

    def scores(self, deals: int) -> tuple[DealScore, ...]:
        """Each of the round's ``deals``' points at this table, None while not played."""
        if self.result is not None:
            return self.result.deals
        return (*self.played[:deals], *(None,) * (deals - len(self.played[:deals])))


def result_json(live: LiveTable | None, deals: int) -> dict[str, Any]:
    """A table's result as stored: each deal's points (None: not played), complete or not."""
    scores: list[list[int] | None] = [None] * deals
    complete = False
    if live is not None:
        for i, points in enumerate(live.game.history[:deals]):
            scores[i] = [points[0], points[1]]
        complete = live.game.is_over
    return {"deals": scores, "complete": complete}


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


def seen_deals(tournament: Tournament, tables: Sequence[RoundTable]) -> dict[int, int]:
    """For each round (an arena's wave), how many of its first deals anyone may see: watch
    them, read their scores and count them in the standings. A deal is seen once every
    table of its round has played it (or will play it no more: its result is in, or the
    tournament is over), not before: every table of a round deals the same cards, so a
    table ahead, or its score, would show a deal to someone (an entrant's second account,
    the entrant logged out) whose own table still plays it."""
    over = tournament.state in ("finished", "cancelled")
    seen: dict[int, int] = {}
    for t in tables:
        done = tournament.deals if over else t.deals_done(tournament.deals)
        seen[t.round] = min(seen.get(t.round, done), done)
    return seen


def shown_results(tournament: Tournament, tables: Sequence[RoundTable]) -> dict[str, TableResult]:
    """Each table's result as anyone may see it (by table id): its points of the deals of
    its round seen (``seen_deals``); no entry for a table of a round none of whose deals is."""
    seen = seen_deals(tournament, tables)
    return {
        t.table_id: TableResult(t.round, t.ns, t.ew, t.scores(tournament.deals)[: seen[t.round]])
        for t in tables
        if seen[t.round] > 0
    }


def standings_of(tournament: Tournament, entries: Sequence[Entry], tables: Sequence[RoundTable]) -> list[StandingLine]:
    """The standings lines, best first (equal lines share a rank), from the deals seen
    (``shown_results``): a round under way counts as it stands after them."""
    paired = {t.ns for t in tables} | {t.ew for t in tables if t.ew is not None}
    shown = [e for e in entries if e.id in paired or tournament.state == "open" or tournament.state == "cancelled"]
    results = list(shown_results(tournament, tables).values())
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


@dataclass(frozen=True)
class SheetGame:
    """One game of a pair on the result sheet: its round, its opponents (an entry's id;
    None: computers) and the points on each side."""

    round: int
    opponent: str | None
    ours: int
    theirs: int

    @property
    def win(self) -> float:
        return win_of(self.ours, self.theirs)


@dataclass(frozen=True)
class SheetLine:
    """A line of the result sheet: the standings' line and the pair's games, one a column
    (``None``: no game in that column: a round it did not play)."""

    line: StandingLine
    games: tuple[SheetGame | None, ...]

    @property
    def scored(self) -> int:
        return sum(g.ours for g in self.games if g is not None)

    @property
    def conceded(self) -> int:
        return sum(g.theirs for g in self.games if g is not None)


def result_sheet(
    tournament: Tournament, tables: Sequence[RoundTable], lines: Sequence[StandingLine]
) -> list[SheetLine]:
    """The club's result sheet ("feuille de concours"): every line of the standings with
    the pair's game of each round (a round a column) as seen by anyone (``shown_results``);
    an arena's pairs play as many games as they can, so its columns are each pair's games
    in the order it played them. The number of columns is the longest line's."""
    games: dict[str, list[SheetGame]] = {}
    shown = shown_results(tournament, tables)
    for result in sorted(shown.values(), key=lambda r: r.round):
        ns, ew = result.totals
        games.setdefault(result.ns, []).append(SheetGame(result.round, result.ew, ns, ew))
        if result.ew is not None:
            games.setdefault(result.ew, []).append(SheetGame(result.round, result.ns, ew, ns))
    if tournament.is_arena:
        width = max((len(g) for g in games.values()), default=0)
        return [SheetLine(line, tuple((*games.get(line.entry.id, ()), *(None,) * width)[:width])) for line in lines]
    width = max((g.round for played in games.values() for g in played), default=0)
    out = []
    for line in lines:
        by_round = {g.round: g for g in games.get(line.entry.id, ())}
        out.append(SheetLine(line, tuple(by_round.get(n) for n in range(1, width + 1))))
    return out
