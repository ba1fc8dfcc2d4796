"""Matchpoints: how the players of the daily challenge compare on the same cards (issue 18).

Everyone plays the same four deals, so a deal's score says as much about the cards as about
the player. As at duplicate bridge, each result is compared with every other result of the
same deal: one matchpoint per player beaten, a half per tie, out of one per other player,
shown as a percentage. The day's ranking orders the players by their average percentage
over the day's deals.

A result is the deal's score from the player's side (South and North): their points minus
their opponents' (a made 90 with 0 for the defence and a failed 80 compare by these nets).
With nobody else on a deal yet, a result is worth 50 %: average, since nothing tells it
better or worse.

Only counts per score are needed (``DealField``): a deal with 100,000 results has a few
hundred different scores, so each percentage is one lookup.
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

ALONE_PERCENT = 50.0
"""A result with no other to compare with: average."""


@dataclass(frozen=True)
class DealField:
    """The results of one deal, as the number of players who scored each net score."""

    counts: Mapping[int, int]
    _scores: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _below: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        scores = tuple(sorted(score for score, n in self.counts.items() if n > 0))
        below: list[int] = []
        total = 0
        for score in scores:
            below.append(total)
            total += self.counts[score]
        object.__setattr__(self, "_scores", scores)
        object.__setattr__(self, "_below", tuple(below))

    @staticmethod
    def of(scores: Iterable[int]) -> DealField:
        return DealField(Counter(scores))

    @property
    def size(self) -> int:
        """How many players finished the deal."""
        return sum(self.counts.values())

    def matchpoints(self, score: int) -> float:
        """The matchpoints of one of these results: players beaten, plus a half per other
        player with the same score (the player's own result is in the field)."""
        i = bisect.bisect_left(self._scores, score)
        if i == len(self._scores) or self._scores[i] != score:
            raise ValueError(f"no result of {score} on this deal")
        return self._below[i] + 0.5 * (self.counts[score] - 1)

    def percent(self, score: int) -> float:
        """The matchpoints of a result of this field as a percentage of the top (one
        point per other player)."""
        others = self.size - 1
        if others == 0:
            return ALONE_PERCENT
        return 100.0 * self.matchpoints(score) / others


@dataclass(frozen=True)
class Standing:
    """One player's line of the day's ranking."""

    player: str
    rank: int
    """1 for the best; players with the same average share a rank (1, 2, 2, 4)."""
    average: float
    """The average percentage over the day's deals (unplayed deals count 0 once the day
    is over; until then, the average is over the deals the player finished)."""
    percents: tuple[float | None, ...]
    """Each deal's percentage, None for a deal the player has not finished."""

    @property
    def finished(self) -> int:
        return sum(p is not None for p in self.percents)


def ranking(results: Iterable[tuple[str, int, int]], deals: int, final: bool) -> list[Standing]:
    """The day's ranking from its results ``(player, deal index from 0, net score)``,
    best first (ties in the order of the players' ids, so a page is stable). ``final``:
    the day is over, a deal a player did not finish counts 0 %; before that, a player's
    average is over the deals finished so far, and players who finished more deals come
    first among equal averages."""
    by_player: dict[str, list[int | None]] = {}
    per_deal: list[list[int]] = [[] for _ in range(deals)]
    for player, deal, score in results:
        if not 0 <= deal < deals:
            raise ValueError(f"deal {deal} is not one of the day's {deals}")
        scores = by_player.setdefault(player, [None] * deals)
        if scores[deal] is not None:
            raise ValueError(f"two results of {player} on deal {deal}")
        scores[deal] = score
        per_deal[deal].append(score)
    fields = [DealField.of(scores) for scores in per_deal]
    lines: list[tuple[tuple[float, int], str, float, tuple[float | None, ...]]] = []
    for player, scores in by_player.items():
        percents = tuple(None if s is None else fields[d].percent(s) for d, s in enumerate(scores))
        played = [p for p in percents if p is not None]
        average = sum(played) / (deals if final else len(played))
        # What orders and ties the players: the average (rounded: sums of halves), then,
        # during the day, how many deals it is over.
        key = (-round(average, 9), 0 if final else -len(played))
        lines.append((key, player, average, percents))
    lines.sort(key=lambda line: (line[0], line[1]))
    out: list[Standing] = []
    for i, (key, player, average, percents) in enumerate(lines):
        rank = out[-1].rank if i and lines[i - 1][0] == key else i + 1
        out.append(Standing(player, rank, average, percents))
    return out
