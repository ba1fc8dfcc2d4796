"""Quick play's matching: who among the people waiting sits together, pure arithmetic on
the queue as it is (no database, no clock: the queue's store claims what a wave returns).

It follows Lichess's pools (``lila/modules/pool``): people wait in a pool per rules; every
few seconds a *wave* seats the ones it can. Four people sit together when their ratings
are close, and the closeness asked for widens the longer each has waited
(``window``); a person whose wait is over (``Waiting.deadline``) is seated at once with
whoever else waits for the same rules, the free seats going to computers at the level
nearest the people's ratings. A pair that blocked each other is never seated together.
At a table, the partners are chosen so the two teams' summed ratings (openskill's team
skill) are as close as can be: seats 0 and 2 play seats 1 and 3.

A person who asks for "any rules" (``rules=None``) joins whichever pool they complete; a
table of such people only plays ``DEFAULT_RULES``.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from ...bots.adaptive import KNOB_LEVELS
from .ratings import Computer, LevelRatings, Person, PlayerId, Rating

TABLE_SIZE: Final = 4
DEFAULT_RULES: Final = "classic"
"""The rules of a table whose people all asked for any rules."""

WINDOW_START: Final = 3.0
"""The widest gap in ``mu`` between two people seated together at once (about three
quarters of a game's spread, ``beta``)..."""
WINDOW_GROWTH: Final = 0.5
"""...widened by this much for each second the one who waited less has waited."""


@dataclass(frozen=True)
class Waiting:
    """One person in the queue: who, for which rules (None: any), at what rating, since
    when and until when (seconds on one clock, the store's)."""

    player: PlayerId
    rules: str | None
    rating: Rating
    since: float
    deadline: float


Seats = tuple[Person | Computer, Person | Computer, Person | Computer, Person | Computer]
"""A table's four seats, in seat order."""


@dataclass(frozen=True)
class Match:
    """A table to make: its rules and its four seats (a ``Person`` or a ``Computer``), seats
    0 and 2 partners against 1 and 3."""

    rules: str
    seats: Seats

    @property
    def players(self) -> tuple[PlayerId, ...]:
        return tuple(s.player_id for s in self.seats if isinstance(s, Person))


Blocks = Collection[frozenset[PlayerId]]
"""The pairs of accounts never seated together (one blocked the other)."""


def window(a: Waiting, b: Waiting, now: float) -> float:
    """The widest gap in ``mu`` allowed between ``a`` and ``b`` now: it widens with the
    shorter of their two waits (neither is matched far off before both have waited)."""
    waited = max(0.0, now - max(a.since, b.since))
    return WINDOW_START + WINDOW_GROWTH * waited


def compatible(a: Waiting, b: Waiting) -> bool:
    return a.rules is None or b.rules is None or a.rules == b.rules


def _together(group: Sequence[Waiting], blocks: Blocks) -> bool:
    return not any(frozenset((x.player, y.player)) in blocks for x, y in itertools.combinations(group, 2))


def rules_of(group: Sequence[Waiting]) -> str:
    """The rules a table of ``group`` plays: those one of them asked for, else the default."""
    named = {w.rules for w in group if w.rules is not None}
    if len(named) > 1:
        raise ValueError(f"people of other rules at one table: {sorted(named)}")
    return named.pop() if named else DEFAULT_RULES


def nearest_level(ratings: Iterable[Rating], levels: LevelRatings) -> str:
    """The computer level whose rating is nearest the people's mean ``mu``."""
    mus = [r.mu for r in ratings]
    mean = sum(mus) / len(mus)
    return min(KNOB_LEVELS, key=lambda name: abs(levels.of(name).mu - mean))


def seating(people: Sequence[Waiting], level: str | None, levels: LevelRatings) -> Seats:
    """The four seats of ``people`` (and computers of ``level`` in the seats left), split
    into the two teams whose summed ``mu`` are closest (ties: the earlier arrivals first)."""
    seats: list[Person | Computer] = [Person(w.player, w.rating) for w in people]
    if len(seats) < TABLE_SIZE:
        if level is None:
            raise ValueError("free seats need a computer level")
        seats += [Computer(level)] * (TABLE_SIZE - len(seats))

    def mu(s: Person | Computer) -> float:
        return s.rating.mu if isinstance(s, Person) else levels.of(s.level).mu

    # seats[0] partners one of the other three: three ways to make the teams.
    best = min(
        (1, 2, 3), key=lambda k: abs(mu(seats[0]) + mu(seats[k]) - sum(mu(seats[j]) for j in (1, 2, 3) if j != k))
    )
    others = [j for j in (1, 2, 3) if j != best]
    return seats[0], seats[others[0]], seats[best], seats[others[1]]


def wave(queue: Sequence[Waiting], now: float, levels: LevelRatings, blocks: Blocks = frozenset()) -> list[Match]:
    """The tables a wave makes of ``queue`` at ``now``: each person in one at most.

    The longest waiting come first. For each, the three others are the nearest in rating
    among those compatible with all, inside the window of every pair and blocked by none;
    a person past their deadline takes whoever fits, nearest first, and computers."""
    free = sorted(queue, key=lambda w: (w.since, w.player))
    matches: list[Match] = []
    taken: set[PlayerId] = set()
    for first in free:
        if first.player in taken:
            continue
        late = now >= first.deadline
        group = [first]
        candidates = sorted(
            (w for w in free if w.player not in taken and w is not first and compatible(first, w)),
            key=lambda w: (abs(w.rating.mu - first.rating.mu), w.since, w.player),
        )
        for w in candidates:
            if len(group) == TABLE_SIZE:
                break
            if not all(compatible(w, g) for g in group) or not _together([*group, w], blocks):
                continue
            if not late and not all(abs(w.rating.mu - g.rating.mu) <= window(w, g, now) for g in group):
                continue
            group.append(w)
        if len(group) < TABLE_SIZE and not late:
            continue
        level = None if len(group) == TABLE_SIZE else nearest_level((w.rating for w in group), levels)
        matches.append(Match(rules_of(group), seating(group, level, levels)))
        taken.update(w.player for w in group)
    return matches
