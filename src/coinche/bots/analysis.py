"""After-deal analysis with the double-dummy solver: what each trump was worth, and the
value of every legal card in a position (what ``coinche solve`` prints)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..engine.cards import TRUMP_NAMES, CardSet, Trump
from ..engine.deal import Deal, Phase
from ..engine.rules import RuleSet
from ..engine.scoring import Contract, DealFacts, score_deal
from .knowledge import dealt_belotes
from .solver import Position, can_sweep, move_values, solve


@dataclass(frozen=True)
class TrumpAnalysis:
    """Double-dummy card points of each team with one trump (lead by dealer + 1), and for
    each possible taker the highest numeric contract it makes (None: none) and the sweep
    contract it makes: ``"generale"`` (all tricks alone, where the rules have it),
    ``"capot"`` (all tricks with the partner) or None."""

    trump: Trump
    points: tuple[int, int]
    best_bid: tuple[int | None, int | None, int | None, int | None]
    sweep: tuple[str | None, str | None, str | None, str | None] = (None, None, None, None)

    def to_json(self) -> dict[str, object]:
        """The row as ``coinche solve --json`` prints it (and the review page caches it)."""
        return {
            "trump": TRUMP_NAMES[self.trump],
            "points": list(self.points),
            "best_bid": list(self.best_bid),
            "sweep": list(self.sweep),
        }


def analyse_deal(rules: RuleSet, dealer: int, hands: Sequence[CardSet]) -> list[TrumpAnalysis]:
    """The analysis table of a deal: one row per trump the rules allow."""
    trumps = rules.trumps
    rows = []
    h4 = (hands[0], hands[1], hands[2], hands[3])
    bonus = rules.last_trick_sweep - 10
    for t in trumps:
        pos = Position(
            h4, t, (dealer + 1) & 3, (), rules.undertrump == "forced", rules.ta_values == "ffb", sweep_bonus=bonus
        )
        p0 = solve(pos, 0)
        p1 = solve(pos, 1) if p0 in (0, 162 + bonus) else 162 - p0
        points = (p0, p1)
        belotes = dealt_belotes(t, hands)
        best: list[int | None] = []
        sweeps: list[str | None] = []
        team_sweeps = [points[team] == 162 + bonus and can_sweep(pos, team) for team in (0, 1)]
        for taker in range(4):
            team = taker & 1
            swept = team_sweeps[team]
            alone = swept and rules.generale and can_sweep(pos, team, taker)
            sweeps.append("generale" if alone else "capot" if swept else None)
            facts = DealFacts(
                taker_points=points[team],
                defense_points=points[1 - team],
                taker_belotes=belotes[team],
                defense_belotes=belotes[1 - team],
                sweep="taker" if swept else None,
            )
            made = [v for v in rules.bid_values if score_deal(rules, Contract("bid", v, t, taker), facts).made]
            best.append(max(made) if made else None)
        rows.append(
            TrumpAnalysis(t, points, (best[0], best[1], best[2], best[3]), (sweeps[0], sweeps[1], sweeps[2], sweeps[3]))
        )
    return rows


def card_values(deal: Deal) -> dict[int, int]:
    """For a deal in its card-play phase: the double-dummy card points the team of the
    player to move secures after each of its legal cards (points still to be won)."""
    if deal.phase is not Phase.PLAY or deal.contract is None:
        raise ValueError("card values need a deal in its card-play phase")
    return move_values(Position.from_deal(deal), deal.to_move & 1)


def format_table(rows: Sequence[TrumpAnalysis]) -> str:
    lines = ["trump  team 0  team 1   best contract made by seat 0 / 1 / 2 / 3"]
    for r in rows:
        name = TRUMP_NAMES[r.trump]
        bids = " / ".join(
            f"{sweep}{name}" if sweep else f"{b}{name}" if b is not None else "-"
            for b, sweep in zip(r.best_bid, r.sweep, strict=True)
        )
        lines.append(f"{name:<5}  {r.points[0]:>6}  {r.points[1]:>6}   {bids}")
    return "\n".join(lines)
