"""The daily challenge's model: a day, its commitment and deals, a player's results, the
lines of its ranking and of one deal's field (docs/daily-challenge.md). Pure: no I/O."""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass

from ....engine.cards import CardSet
from ....engine.dealing import deal_seed, hands_from_seed
from ....engine.rules import RuleSet
from ...table.matchpoints import Standing, ranking

DEALS = 4
"""Deals a day."""
TAG = b"coinche-challenge-v1"
FIRST_DEALER = 3
"""West deals the first deal (then South, North... as usual): South speaks first."""
SOUTH = 0


def commitment(day: str, seed: bytes) -> str:
    """The day's commitment: hex SHA-256 of the tag, a zero byte, the day, a zero byte, the seed."""
    if len(seed) != 32:
        raise ValueError("a day's seed has 32 bytes")
    return hashlib.sha256(TAG + b"\x00" + day.encode("ascii") + b"\x00" + seed).hexdigest()


def dealing_label(day: str) -> str:
    """The table id the day's deals are dealt under (docs/dealing.md)."""
    return f"defi-{day}"


def table_seed(seed: bytes) -> int:
    """The seed of every challenge table of the day (``decision_seed`` derives from it)."""
    digest = hmac.new(seed, b"coinche-challenge-decisions", hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 2


@dataclass(frozen=True)
class Day:
    day: str
    profile: str
    seed: bytes
    commitment: str


@dataclass(frozen=True)
class Result:
    """One deal of a player's challenge."""

    player: str
    deal: int
    score: int
    """South-North's deal score minus East-West's."""
    contract: str | None
    taker: int | None
    made: bool | None
    deal_score: tuple[int, int]
    guest: bool


@dataclass(frozen=True)
class RankingLine:
    """A line of a day's stored ranking."""

    player: str
    name: str | None
    """The account's name (None: an account since deleted)."""
    position: int
    rank: int
    average: float
    percents: tuple[float | None, ...]
    finished: int


@dataclass(frozen=True)
class FieldLine:
    """Players who did the same on one deal: the same contract by the same seat, made or
    not, for the same score."""

    contract: str | None
    taker: int | None
    made: bool | None
    score: int
    """South-North's score minus East-West's."""
    deal_score: tuple[int, int]
    count: int


def challenge_rules(profile: str) -> RuleSet:
    """The day's rules: its profile, every deal shuffled from its own seed."""
    rules = RuleSet.profile(profile)
    if rules.real_deal:
        rules = RuleSet.profile(profile, **{**rules.options(), "real_deal": False})
    return rules


def compute_standings(results: list[tuple[str, int, int]], deals: int, final: bool) -> list[Standing]:
    """``matchpoints.ranking`` as a worker's task (the ranking of a big day takes a few
    hundred milliseconds of CPU: never on the event loop)."""
    return ranking(results, deals, final)


def day_hands(day_seed: bytes, day: str, number: int) -> tuple[CardSet, ...]:
    """The hands of the day's deal ``number`` (1..4), as every challenge table deals them."""
    dealer = (FIRST_DEALER + number - 1) % 4
    return hands_from_seed(deal_seed(day_seed, dealing_label(day), number), dealer)
