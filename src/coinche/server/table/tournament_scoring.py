"""Scoring a tournament's rounds (issue 30): pure arithmetic on the tables' results, no
database, no clock. ``docs/tournaments.md`` says the same rules to players.

A round is a game of a fixed number of deals between two pairs (or a pair and two
computers: a bye), every table of the round on the same deals (duplicate). Of each table:

- **the game:** the pair with more points over the round's deals wins it (1), a tie is
  half a win each (0.5); the point difference (its points minus its opponents') adds up
  round after round;
- **matchpoints:** each deal's result, as its score from one side (that side's points
  minus the other's), is compared with the same side's result at every other table that
  played the deal (``matchpoints.DealField``: one point per result beaten, a half per
  tie), as a percentage; a pair's matchpoints are its average over the deals of the rounds
  it played;
- **a deal not played** before the round's clock ran out scores no points to either pair
  and ``UNPLAYED_PERCENT`` (Funbridge's rule) to both in matchpoints.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Final

from .matchpoints import DealField
from .tournament_pairing import Standing

UNPLAYED_PERCENT: Final = 25.0
"""A deal a table did not play before its round's clock ran out, in matchpoints."""

DealScore = tuple[int, int] | None
"""A deal's points (South-North's, East-West's), None when it was not played."""


@dataclass(frozen=True)
class TableResult:
    """One table of one round: who sat South-North (``ns``) and East-West (``ew``, None:
    computers) and the points of each of the round's deals."""

    round: int
    ns: str
    ew: str | None
    deals: tuple[DealScore, ...]

    @property
    def totals(self) -> tuple[int, int]:
        played = [d for d in self.deals if d is not None]
        return sum(d[0] for d in played), sum(d[1] for d in played)


@dataclass(frozen=True)
class PairRound:
    """What one round gave one pair."""

    round: int
    opponent: str | None
    win: float
    points: int
    """Its points minus its opponents' over the round."""
    percents: tuple[float, ...]
    """Each deal's matchpoints (%)."""


@dataclass
class _Sums:
    wins: float = 0.0
    points: int = 0
    percents: list[float] = field(default_factory=list)
    byes: int = 0


def win_of(ours: int, theirs: int) -> float:
    """A round's game: 1 won, 0.5 tied, 0 lost, on the points."""
    return 1.0 if ours > theirs else 0.5 if ours == theirs else 0.0


def deal_percents(results: Sequence[TableResult], deal: int) -> list[tuple[float, float]]:
    """Deal ``deal`` (from 0) of one round: each table's (South-North %, East-West %)."""
    nets = [(r.deals[deal][0] - r.deals[deal][1]) for r in results if r.deals[deal] is not None]  # type: ignore[index]
    ns_field = DealField.of(nets)
    ew_field = DealField.of(-n for n in nets)
    out = []
    for r in results:
        score = r.deals[deal]
        if score is None:
            out.append((UNPLAYED_PERCENT, UNPLAYED_PERCENT))
        else:
            net = score[0] - score[1]
            out.append((ns_field.percent(net), ew_field.percent(-net)))
    return out


def round_results(results: Sequence[TableResult]) -> list[PairRound]:
    """What one round gave each pair (its tables all play the same number of deals)."""
    if not results:
        return []
    deals = len(results[0].deals)
    if any(len(r.deals) != deals for r in results):
        raise ValueError("the tables of a round play the same deals")
    per_deal = [deal_percents(results, d) for d in range(deals)]
    out = []
    for i, r in enumerate(results):
        ns, ew = r.totals
        out.append(PairRound(r.round, r.ew, win_of(ns, ew), ns - ew, tuple(p[i][0] for p in per_deal)))
        if r.ew is not None:
            out.append(PairRound(r.round, r.ns, win_of(ew, ns), ew - ns, tuple(p[i][1] for p in per_deal)))
    return out


def pair_rounds(results: Iterable[TableResult]) -> dict[str, list[PairRound]]:
    """Every pair's rounds, in order."""
    by_round: dict[int, list[TableResult]] = {}
    for r in results:
        by_round.setdefault(r.round, []).append(r)
    out: dict[str, list[PairRound]] = {}
    for number in sorted(by_round):
        tables = by_round[number]
        lines = round_results(tables)
        it = iter(lines)
        for table in tables:
            out.setdefault(table.ns, []).append(next(it))
            if table.ew is not None:
                out.setdefault(table.ew, []).append(next(it))
    return out


def standings(pairs: Iterable[str], results: Iterable[TableResult]) -> list[Standing]:
    """Each pair's standing (``tournament_pairing.Standing``) after these results; a pair
    without a result yet stands at zero."""
    sums = {pair: _Sums() for pair in pairs}
    for pair, rounds in pair_rounds(results).items():
        s = sums.setdefault(pair, _Sums())
        for line in rounds:
            s.wins += line.win
            s.points += line.points
            s.percents.extend(line.percents)
            s.byes += line.opponent is None
    return [
        Standing(
            pair,
            s.wins,
            s.points,
            round(sum(s.percents) / len(s.percents), 6) if s.percents else 0.0,
            s.byes,
        )
        for pair, s in sums.items()
    ]


def met(results: Iterable[TableResult]) -> set[frozenset[str]]:
    """The pairs of pairs that have met."""
    return {frozenset((r.ns, r.ew)) for r in results if r.ew is not None}


ARENA_WIN: Final = 2
ARENA_TIE: Final = 1
ON_FIRE_AFTER: Final = 2
"""The arena's streak (Lichess's): after this many games won in a row a pair is *on fire*:
its games count double (a win 4, a tie 2) until one is not won."""


@dataclass(frozen=True)
class ArenaScore:
    """A pair's arena score after its games, in the order they ended."""

    points: int
    games: int
    on_fire: bool
    """Its next game counts double."""


def arena_score(wins: Sequence[float]) -> ArenaScore:
    """The arena's points of a pair whose games gave ``wins`` (1, 0.5, 0), in order: 2 a
    win, 1 a tie, 0 a loss, doubled while on fire (see ``ON_FIRE_AFTER``)."""
    points = 0
    streak = 0
    for win in wins:
        fire = streak >= ON_FIRE_AFTER
        base = ARENA_WIN if win == 1.0 else ARENA_TIE if win == 0.5 else 0
        points += base * (2 if fire else 1)
        streak = streak + 1 if win == 1.0 else 0
    return ArenaScore(points, len(wins), streak >= ON_FIRE_AFTER)


def arena_scores(results: Iterable[TableResult]) -> dict[str, ArenaScore]:
    """Every pair's arena score (its games in the order of their waves)."""
    return {
        pair: arena_score([line.win for line in sorted(rounds, key=lambda r: r.round)])
        for pair, rounds in pair_rounds(results).items()
    }
