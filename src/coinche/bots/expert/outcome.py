"""From card points to the deal's score: what the expert maximises is its team's score
margin for the deal (made or failed, coinche, belote, melds: RULES.md section 5), not card
points, so that a card that makes the contract counts for more than a card that wins ten
points.

* ``Scorer``: during the play, "points our team takes from now on" to the margin, with
  what is known now (points won, belotes announced, melds shown).
* ``deal_facts``: during the auction, the facts of a whole deal in which our team takes
  some card points (the belotes of the hands given count).
"""

from __future__ import annotations

from collections.abc import Sequence

from ...engine.belote import belote_suits
from ...engine.cards import FULL_DECK, CardSet
from ...engine.deal import View
from ...engine.melds import Meld, compare_teams, melds_points
from ...engine.play import tables
from ...engine.scoring import Contract, DealFacts, DealScore, Sweep, score_deal
from ..knowledge import dealt_belotes


def deal_facts(view: View, contract: Contract, team: int, team_points: int, hands: Sequence[CardSet]) -> DealFacts:
    """Facts of a full deal where our team takes ``team_points`` card points (double dummy
    from the first trick): used by the auction."""
    total = 162
    sweep: Sweep | None = None
    if team_points >= total:
        team_points = total
        sweep = "taker" if contract.team == team else "defense"
    elif team_points <= 0:
        sweep = "defense" if contract.team == team else "taker"
    if sweep is not None and view.rules.last_trick_sweep != 10:
        total = 152 + view.rules.last_trick_sweep
        team_points = total if team_points else 0
    b = dealt_belotes(contract.trump, hands)
    taker_team = contract.team
    t_pts = team_points if taker_team == team else total - team_points
    return DealFacts(
        taker_points=t_pts,
        defense_points=total - t_pts,
        taker_belotes=b[taker_team],
        defense_belotes=b[1 - taker_team],
        sweep=sweep,
    )


class Scorer:
    """Turns 'points our team takes from now on' into the deal's score margin for our team,
    with what is known now (points won, belotes announced, melds shown)."""

    def __init__(self, view: View) -> None:
        contract = view.contract
        assert contract is not None
        self.view = view
        self.contract = contract
        self.team = view.seat & 1
        tt = tables(contract.trump, view.rules.ta_values == "ffb")
        played = 0
        for t in view.tricks:
            for c in t.cards:
                played |= 1 << c
        unplayed = FULL_DECK & ~played
        self.remaining = sum(tt.points[c] for c in range(32) if unplayed >> c & 1) + 10
        self.won = view.card_points
        teams_won = {t.winner & 1 for t in view.tricks}
        self.only_winner = teams_won.pop() if len(teams_won) == 1 else (None if view.tricks else -1)
        belotes = [0, 0]
        for b in view.belotes:
            if b.counts:
                belotes[b.seat & 1] += 1
        # Our own belote not announced yet: we will announce it.
        announced = {(b.seat, b.suit) for b in view.belotes}
        for su in belote_suits(view.hand, contract.trump):
            if (view.seat, su) not in announced:
                belotes[self.team] += 1
        self.belotes = belotes
        self.melds, self.cancelled = known_melds(view)
        self.cache: dict[int, float] = {}
        self._made_cache: dict[int, bool] = {}

    def taker_threshold(self) -> int | None:
        """Fewest points the takers must still win (from the current trick on) to make
        the contract; None for a capot or générale (made by tricks, not points)."""
        if self.contract.kind != "bid":
            return None
        taker_is_us = self.contract.team == self.team
        for x in range(self.remaining + 1):
            mine = x if taker_is_us else self.remaining - x
            if self._made(mine):
                return x
        return self.remaining + 1

    def made(self, value: int) -> bool:
        """Whether the contract is made when our team takes ``value`` points from now."""
        return self._made(value)

    def _made(self, value: int) -> bool:
        m = self._made_cache.get(value)
        if m is None:
            m = self._made_cache[value] = self._score(value).made
        return m

    def margin_if(self, est: float, taker_made: bool) -> float:
        """Score margin for our team when we take about ``est`` points from now and the
        contract is made (or not): ``est`` is moved to the nearest value that agrees."""
        v = round(est)
        lo, hi = 0, self.remaining
        v = max(lo, min(hi, v))
        step = 1 if (self.contract.team == self.team) == taker_made else -1
        while lo <= v <= hi and self._made(v) != taker_made:
            v += step
        if not lo <= v <= hi:
            v = max(lo, min(hi, v))
        return self.margin(v)

    def margin(self, value: int) -> float:
        m = self.cache.get(value)
        if m is None:
            m = self.cache[value] = self._margin(value)
        return m

    def _margin(self, value: int) -> float:
        sc = self._score(value)
        return float(sc.taker - sc.defense) if self.contract.team == self.team else float(sc.defense - sc.taker)

    def _score(self, value: int) -> DealScore:
        team, contract, rules = self.team, self.contract, self.view.rules
        base_value = min(value, self.remaining)
        mine = self.won[team] + base_value
        theirs = self.won[1 - team] + self.remaining - base_value
        sweep: Sweep | None = None
        if theirs == 0 and self.only_winner in (team, -1):
            sweep = "taker" if contract.team == team else "defense"
        elif mine == 0 and self.only_winner in (1 - team, -1):
            sweep = "defense" if contract.team == team else "taker"
        if sweep is not None and rules.last_trick_sweep != 10:
            if mine == 0:
                theirs = 152 + rules.last_trick_sweep
            else:
                mine = 152 + rules.last_trick_sweep
        if sweep == "taker" and contract.kind == "generale":
            sweep = "taker_alone"  # approximation: the générale's partner plays to win nothing
        tt = contract.team
        pts = (mine, theirs) if tt == team else (theirs, mine)
        facts = DealFacts(
            taker_points=pts[0],
            defense_points=pts[1],
            taker_belotes=self.belotes[tt],
            defense_belotes=self.belotes[1 - tt],
            taker_melds=self.melds[tt],
            defense_melds=self.melds[1 - tt],
            sweep=sweep,
            cancelled_melds=self.cancelled,
        )
        return score_deal(rules, contract, facts)


def known_melds(view: View) -> tuple[tuple[int, int], int]:
    """Meld points each team takes as far as this seat knows (its own declaration and the
    melds shown), and the points cancelled by a tie."""
    rules = view.rules
    contract = view.contract
    if not rules.melds or contract is None:
        return (0, 0), 0
    declared: list[list[Meld]] = [[], []]
    for s in range(4):
        melds = view.declared if s == view.seat and view.declared else view.shown_melds[s]
        declared[s & 1].extend(melds)
    best = compare_teams(declared[0], declared[1], contract.trump)
    if rules.meld_scoring == "winner_takes_all":
        total = melds_points(declared[0]) + melds_points(declared[1])
        if best is None:
            return (0, 0), total
        return ((total, 0) if best == 0 else (0, total)), 0
    if best is None:
        return (0, 0), 0
    pts = melds_points(declared[best])
    return ((pts, 0) if best == 0 else (0, pts)), 0
