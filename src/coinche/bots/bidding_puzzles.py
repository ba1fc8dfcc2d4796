"""Bidding puzzles ("what do you call?") from real auctions: a seat's turn to call where
the expert's appraisal (``expert.auction.appraise``: the expected score margin of every call
open to it) names one clear call.

A position is a puzzle when the expert's call is worth at least ``MIN_MARGIN`` more than
every call outside ``CLOSE`` of it, so that the answer is not a matter of a few points, when
few calls are that close (``MAX_GOOD``), and when it teaches something: the expert does more
than pass, or the call made at the table was not one of the good ones. Every call is valued
(bids out of reach included), so that any answer can be shown its worth.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple

from ..engine.actions import COINCHE, PASS, SURCOINCHE, Action, is_generale
from ..engine.auction import contract_of
from ..engine.cards import CardSet
from ..engine.deal import Deal, Phase
from ..engine.rules import RuleSet
from .expert.auction import Appraisal, appraise, decide_call
from .expert.config import ExpertConfig

MIN_MARGIN: Final = 20.0
"""The expert's call beats every call not close to it by at least this expected margin."""
CLOSE: Final = 10.0
"""A call worth this much less than the expert's or less is as good an answer."""
MAX_GOOD: Final = 3
"""At most this many good answers (the expert's and those close to it): a position where
passing, opening and changing suit are all worth the same is no puzzle."""


class CallValue(NamedTuple):
    """A call and what the expert computed of it: the expected score margin of the caller's
    team, and the chance its contract is made (a bid, a surcoinche, a pass under the team's
    own contract) or fails (a coinche, a pass under the other team's); None for a pass
    before any bid."""

    call: Action
    expected: float
    chance: float | None


def value_of(values: Sequence[CallValue], call: Action) -> CallValue | None:
    """``call``'s value among ``values`` (None: not a call valued)."""
    return next((v for v in values if v.call == call), None)


def good_answer(values: Sequence[CallValue], expert: Action, call: Action) -> bool:
    """``call`` is as good an answer as the expert's: valued within ``CLOSE`` of it."""
    found, best = value_of(values, call), value_of(values, expert)
    return found is not None and best is not None and found.expected >= best.expected - CLOSE


@dataclass(frozen=True)
class BiddingPuzzle:
    upto: int
    """The calls made before the position."""
    seat: int
    call: Action
    """The expert's call."""
    values: tuple[CallValue, ...]
    """Every call open to the seat but the générale, the best first."""
    margin: float
    """How much the expert's call beats the best call not close to it."""
    played: Action
    """The call made at the table."""

    def value_of(self, call: Action) -> CallValue | None:
        return value_of(self.values, call)

    def good(self, call: Action) -> bool:
        return good_answer(self.values, self.call, call)


def call_values(view_deal: Deal, config: ExpertConfig, every_bid: bool = True) -> tuple[Action, tuple[CallValue, ...]]:
    """The expert's call at the seat to move of ``view_deal`` (in its auction) and the
    value of every call (``every_bid`` False: of the bids the expert weighs, those in
    reach), the best first."""
    view = view_deal.view(view_deal.to_move)
    weighed = appraise(view, config)
    chosen = decide_call(weighed, config).action
    return chosen, valued_calls(appraise(view, config, every_bid=True) if every_bid else weighed)


def valued_calls(appraisal: Appraisal) -> tuple[CallValue, ...]:
    """The calls of an appraisal with their values, the best first (the générale aside)."""
    view = appraisal.view
    own = appraisal.contract is not None and appraisal.contract.team == view.seat & 1
    pass_chance = None
    if appraisal.pass_fails is not None:
        pass_chance = 1.0 - appraisal.pass_fails if own else appraisal.pass_fails
    values = [CallValue(PASS, appraisal.pass_value, pass_chance)]
    if appraisal.coinche is not None:
        values.append(CallValue(COINCHE, *appraisal.coinche))
    if appraisal.surcoinche is not None:
        values.append(CallValue(SURCOINCHE, *appraisal.surcoinche))
    for value, action, out in appraisal.bids:
        if is_generale(action):
            continue
        values.append(CallValue(action, value, out.made_rate(contract_of(action, view.seat, False, False, view.rules))))
    values.sort(key=lambda v: -v.expected)
    return tuple(values)


def find_bidding_puzzles(
    rules: RuleSet, dealer: int, hands: Sequence[CardSet], calls: Sequence[Action], config: ExpertConfig | None = None
) -> list[BiddingPuzzle]:
    """Every position of the auction ``calls`` that is a bidding puzzle (see the module)."""
    config = config or ExpertConfig()
    deal = Deal(rules, dealer, tuple(hands))
    found = []
    for upto, played in enumerate(calls):
        if deal.phase is not Phase.AUCTION:
            break
        seat = deal.to_move
        chosen, values = call_values(deal, config, every_bid=False)  # the bids out of reach are far below
        best = next(v for v in values if v.call == chosen)
        far = [v.expected for v in values if v.expected < best.expected - CLOSE]
        margin = best.expected - max(far) if far else 0.0
        few_good = len(values) - len(far) <= MAX_GOOD
        if far and few_good and margin >= MIN_MARGIN and (chosen != PASS or not good_answer(values, chosen, played)):
            every = valued_calls(appraise(deal.view(seat), config, every_bid=True))  # every answer's worth, to show it
            found.append(BiddingPuzzle(upto, seat, chosen, every, margin, played))
        deal.apply(played)
    return found


def best_bidding_puzzle(found: Sequence[BiddingPuzzle]) -> BiddingPuzzle | None:
    """The most instructive of a deal's puzzles: one the table got wrong first, then the
    widest margin."""
    if not found:
        return None
    return max(found, key=lambda p: (not p.good(p.played), p.margin))
