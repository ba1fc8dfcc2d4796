"""The expert's knobs, in one frozen value shared by its auction and card-play modules."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ExpertConfig:
    samples: int = 160
    """Sampled deals per card decision, all searched for the cards not dropped as clearly
    worse (unless the work budget runs out first). 100 until the solver became three times
    faster (issue 20)."""
    exact_samples: int = 32
    """Of those, deals on which the exact double-dummy points of the cards left in the race
    are computed."""
    inference: bool = True
    """Weight sampled deals by how well they explain the other seats' calls..."""
    play_inference: bool = True
    """...and the cards they chose (``play_model``), when ``inference`` is on."""
    coinche_fails: float = 0.85
    """Auction: coinche only a contract that fails at least this often (the defenders'
    estimate is noisy, and a coinche stops the auction that might have carried the
    opponents higher: coinching from 65% lost to coinching from 75 to 85% in duels). 0.8
    until issue 33's re-fit; then, auction duel against ``expert-v2`` (1,000 pairs, seed 48,
    with ``their_coinche_width`` 0.12), online +29.9 against +26.1, classic +30.5 against
    +27.5; its coinches set 77 % of the time against 67 %..."""
    coinche_margin: float = 10.0
    """...and whose coinche adds at least this much to the expected score margin."""
    their_coinche_fails: float = 0.65
    """The opponents are expected to coinche a bid of ours about as often as it fails this
    often (the middle of the curve of ``auction.coinche_chance``)."""
    their_coinche_width: float = 0.12
    """...and the width of that curve: how gradually their coinches come as the fall
    grows likely (0.08 until issue 33: alone, online +28.0 against +26.1 in the duel
    above)."""
    surcoinche_made: float = 0.6
    """Surcoinche only a contract made at least this often (and worth more surcoinched:
    the coinched outlook already reads the coinche as a warning)."""
    bid_margin: float = 0.0
    """A bid must beat passing by this much expected margin (and no more than that: a bid
    is judged by its expected score, coinche risk included, however often it fails)."""
    capot_made: float = 0.85
    """A capot only when the sweep is that likely: self-play made 38% of the capots bid
    without this bar (the evaluator's sweep chance is overconfident in bidding hands)."""
    margin_per_deal: bool = True
    """Card play: a card's expected margin is the mean of the margins of the exact deals'
    points (corrected by the made rate of every deal searched), not the margin of their
    mean points."""
    exact_unseen: int = 10
    """Card play: with at most this many unseen cards, try every consistent layout..."""
    exact_layouts: int = 150
    """...when there are at most this many of them (searched exactly, no sampling)."""
    first_batch: int = 20
    """Card play: deals searched for every card before any is dropped as clearly worse."""
    batch: int = 10
    """Deals between two later rejection rounds."""
    z: float = 2.5
    """Standard errors by which a card must trail the leader to be dropped."""
    points_allowance: int = 12
    """Card points the exact stage could still find in a trailing card's favour: a card is
    dropped only when it trails by more than their worth in score margin."""
    work: int = 1_500_000
    """Solver nodes (trick starts) one card decision may spend; reached, no more deals are
    searched (at least ``min_deals``). A budget of work, not time: reproducible."""
    min_deals: int = 8
    """Deals searched whatever the budget."""
    early_tricks: int = 2
    """Card play: the first tricks, where a search has the most unseen cards and cards to
    weigh (in the arena, cards p95 257 ms on tricks 1-2 against 48 ms on tricks 3-5)..."""
    early_share: float = 0.5
    """...spend at most this share of ``work``. Half (issue 33): against the whole budget,
    online, 600 duplicate pairs, +12.0 match points a deal (95 %: +1.3 to +22.8), card
    points +0.9 (-0.5 to +2.3), cards p95 120 ms against 204 ms (tricks 1-2: 131 against
    235 ms): no loss found for 40 % less time."""

    def work_at(self, trick: int) -> int:
        """The solver nodes a card decision of trick ``trick`` (from 1) may spend."""
        return round(self.work * self.early_share) if trick <= self.early_tricks else self.work
