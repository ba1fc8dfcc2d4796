"""After-deal analysis with the double-dummy solver: what each trump was worth, and the
value of every legal card in a position (what ``coinche solve`` prints)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..engine.actions import is_declaration
from ..engine.cards import TRUMP_NAMES, CardSet, Trump
from ..engine.deal import Deal, Declaration, LogEntry, Phase
from ..engine.rules import RuleSet
from ..engine.scoring import Contract, DealFacts, parse_contract, score_deal
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


@dataclass(frozen=True)
class SideBest:
    """A side's best double-dummy contract: what it scores most by bidding and making
    (melds left out: who would declare them depends on the auction; belotes counted as
    held)."""

    team: int
    call: str | None
    """The contract in record notation (``100H``, ``capotS``), None: the side makes none."""
    taker: int | None
    score: tuple[int, int]
    """The deal's score by team (team 0 = seats 0 and 2) when that contract is played and made."""

    def to_json(self) -> dict[str, object]:
        return {"team": self.team, "call": self.call, "taker": self.taker, "score": list(self.score)}


def best_contracts(
    rules: RuleSet, hands: Sequence[CardSet], rows: Sequence[TrumpAnalysis]
) -> tuple[SideBest, SideBest]:
    """Each side's best contract from the analysis rows of its deal: of every contract one
    of its two players makes double dummy (the highest bid and the sweep of each trump),
    the one that leaves it the most points over the other side (the par of bridge, for
    each side: the deal's review compares the contract played with them)."""
    out: list[SideBest] = []
    bonus = rules.last_trick_sweep - 10
    for team in (0, 1):
        best = SideBest(team, None, None, (0, 0))
        best_net: int | None = None
        for row in rows:
            t = row.trump
            belotes = dealt_belotes(t, hands)
            swept = row.points[team] == 162 + bonus
            for taker in (team, team + 2):
                calls: list[str] = []
                if row.best_bid[taker] is not None:
                    calls.append(f"{row.best_bid[taker]}{TRUMP_NAMES[t]}")
                if row.sweep[taker] is not None:
                    calls.append(f"{row.sweep[taker]}{TRUMP_NAMES[t]}")
                for call in calls:
                    contract = parse_contract(call, rules, taker)
                    alone = row.sweep[taker] == "generale" and contract.kind == "generale"
                    facts = DealFacts(
                        taker_points=row.points[team],
                        defense_points=row.points[1 - team],
                        taker_belotes=belotes[team],
                        defense_belotes=belotes[1 - team],
                        sweep="taker_alone" if alone else "taker" if swept else None,
                    )
                    result = score_deal(rules, contract, facts, explain=False)
                    if not result.made:
                        continue
                    score = result.by_team(team)
                    net = score[team] - score[1 - team]
                    if best_net is None or net > best_net:
                        best, best_net = SideBest(team, contract.call, taker, score), net
        out.append(best)
    return out[0], out[1]


def par_margin(sides: Sequence[tuple[int, Sequence[int]]]) -> int:
    """The deal's par for team 0, from each side's best contract (``(team, score)``, as
    ``SideBest``): the side whose best contract leaves it more over the other takes the
    deal at par, by that margin (negative when it is team 1's); 0 when neither makes one.
    What a side scores against it is its share of the deal that the cards dealt do not
    decide (the adaptive level follows it)."""
    par = 0
    for team, score in sides:
        net = score[team] - score[1 - team]
        if net > abs(par):
            par = net if team == 0 else -net
    return par


def par_of_deal(rules: RuleSet, dealer: int, hands: Sequence[CardSet]) -> dict[str, object]:
    """The analysis rows and each side's best contract as JSON (the daily challenge's
    comparison shows it; one worker task per deal of the day)."""
    rows = analyse_deal(rules, dealer, hands)
    sides = best_contracts(rules, hands, rows)
    return {"trumps": [r.to_json() for r in rows], "sides": [s.to_json() for s in sides]}


def is_step(entry: LogEntry) -> bool:
    """Calls and cards are the review's steps; a meld declaration shows with the next card."""
    return not isinstance(entry, Declaration) and not is_declaration(entry)


def step_indices(log: Sequence[LogEntry]) -> dict[int, int]:
    """Each review step (the deal's first call is step 1) and its index in the deal's
    log: the position before it is the log up to there."""
    out, step = {}, 0
    for index, entry in enumerate(log):
        if is_step(entry):
            step += 1
            out[step] = index
    return out


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
