"""Pairing a Swiss "concours" by pairs (issue 30): who meets whom in each round, and the
ranking, pure arithmetic on the results so far (no database, no clock).

The club's rules, as ``docs/tournaments.md`` and the tournament's page say them:

- round 1 is drawn at random (from the tournament's seed, so anyone can check the draw);
- from round 2, pairs with equal wins meet: the pairs are ranked (``rank``), taken from the
  top, and each meets the highest-ranked pair of its score group it has not met yet; a
  pair left alone in its group goes down to the next group (a *floater*);
- no two pairs meet twice (the pairing backtracks when the greedy choice leaves someone
  without an opponent they have not met);
- with an odd number of pairs, the lowest-ranked pair that has not had one yet plays two
  computers (``BYE``: a fixed level said in advance), and scores what it scores.

A field of ``n`` pairs plays at most ``n // 2`` rounds (``max_rounds``): then a pairing
without a rematch always exists (the games not played yet leave each pair at least half
the field to meet: Dirac's theorem gives a perfect matching); with more, the earlier
rounds' choices may leave none, as three rounds of six pairs can.

The ranking: wins, then the sum of point differences, then matchpoints of the duplicate
comparison, then the name (a stable order for exact ties).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Final

BYE: Final = None
"""The opponent of the pair that plays two computers this round."""

Pairing = tuple[str, str | None]
"""Two pairs that meet (the first sits north-south), or a pair and ``BYE``."""


@dataclass(frozen=True)
class Standing:
    """A pair's results so far."""

    pair: str
    wins: float = 0.0
    """Games won (a tied game: half a win)."""
    points: int = 0
    """The sum of its point differences (its score minus its opponents', game by game)."""
    matchpoints: float = 0.0
    byes: int = 0
    """Rounds it played against computers."""


def max_rounds(pairs: int) -> int:
    """The most rounds a field of ``pairs`` plays (see the module)."""
    return max(1, pairs // 2)


def rank(standings: Collection[Standing], by_matchpoints: bool = False) -> list[Standing]:
    """The ranking: wins, point differences, matchpoints, then the name (``by_matchpoints``:
    the duplicate format's, matchpoints first, then wins and points)."""
    if by_matchpoints:
        return sorted(standings, key=lambda s: (-s.matchpoints, -s.wins, -s.points, s.pair))
    return sorted(standings, key=lambda s: (-s.wins, -s.points, -s.matchpoints, s.pair))


def first_round(pairs: Sequence[str], seed: int) -> list[Pairing]:
    """Round 1: a random draw from ``seed``; the odd pair out (the last drawn) plays two
    computers."""
    drawn = sorted(pairs)
    random.Random(seed).shuffle(drawn)
    return _pair_in_order(drawn, frozenset())[0] if len(drawn) % 2 == 0 else _with_bye(drawn, frozenset())


def next_round(
    standings: Collection[Standing], met: Collection[frozenset[str]], by_matchpoints: bool = False
) -> list[Pairing]:
    """A later round: equal wins meet, top-down, nobody twice (``met``: the pairs of pairs
    that have met; ``by_matchpoints``: the duplicate format's ranking orders them). Raises
    ``ValueError`` when no pairing without a rematch exists (more rounds than the field
    allows)."""
    ranked = [s.pair for s in rank(standings, by_matchpoints)]
    seen = frozenset(met)
    if len(ranked) % 2 == 0:
        pairing, ok = _pair_in_order(ranked, seen)
        if not ok:
            raise ValueError("every pairing repeats a game")
        return pairing
    byes = {s.pair: s.byes for s in standings}
    # the lowest-ranked pair with the fewest byes plays the computers; the others pair
    for candidate in sorted(reversed(ranked), key=lambda p: byes[p]):
        rest = [p for p in ranked if p != candidate]
        pairing, ok = _pair_in_order(rest, seen)
        if ok:
            return [*pairing, (candidate, BYE)]
    raise ValueError("every pairing repeats a game")


def _with_bye(drawn: list[str], met: frozenset[frozenset[str]]) -> list[Pairing]:
    pairing, _ = _pair_in_order(drawn[:-1], met)
    return [*pairing, (drawn[-1], BYE)]


def _pair_in_order(order: list[str], met: frozenset[frozenset[str]]) -> tuple[list[Pairing], bool]:
    """Pair ``order`` (an even count) top-down: each unpaired pair meets the first one after
    it it has not met; backtracking when that leaves a later pair with nobody. (False, and
    the greedy pairing, when none avoids every rematch.)"""
    result: list[Pairing] = []

    def solve(left: list[str]) -> bool:
        if not left:
            return True
        first, others = left[0], left[1:]
        for i, other in enumerate(others):
            if frozenset((first, other)) in met:
                continue
            result.append((first, other))
            if solve(others[:i] + others[i + 1 :]):
                return True
            result.pop()
        return False

    if solve(list(order)):
        return result, True
    greedy = [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
    return [(a, b) for a, b in greedy], False


def arena_pairing(waiting: Sequence[str], last_opponent: dict[str, str | None]) -> tuple[list[Pairing], str | None]:
    """The arena's pairing of the pairs ``waiting`` (best ranked first): neighbours in the
    ranking meet, a pair's last opponent swapped for the next one when another is there;
    the pair left over when they are odd (it waits for the next wave)."""
    left = list(waiting)
    pairing: list[Pairing] = []
    while len(left) >= 2:
        first = left.pop(0)
        pick = 0
        if last_opponent.get(first) == left[0] and len(left) > 1:
            pick = 1
        pairing.append((first, left.pop(pick)))
    return pairing, (left[0] if left else None)
