"""The expert's calls: for each trump worth a search, solve a few sampled deals to see how
many card points our team takes with it, and call what has the best expected score margin
(passing included); coinche and surcoinche by the rate at which the contract fails.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ...engine.actions import COINCHE, PASS, SURCOINCHE, bid_trump, call_str, is_bid, is_capot, is_generale
from ...engine.auction import contract_of
from ...engine.cards import ALL_TRUMP, NO_TRUMP, TRUMP_NAMES, CardSet, Trump
from ...engine.deal import View
from ...engine.messages import Message
from ...engine.scoring import Contract, score_deal
from ..base import Decision
from ..knowledge import AuctionInfo, parse_auction
from ..solver import Position, can_reach
from .config import ExpertConfig
from .deals import Hands, auction_deals, hand_strength
from .outcome import deal_facts, deal_margin


def choose_call(view: View, config: ExpertConfig, rng: random.Random) -> Decision:
    """The call with the best expected score margin over sampled deals."""
    acts = set(view.legal_actions)
    info = parse_auction(view.calls, view.dealer, view.rules)
    team = view.seat & 1
    if SURCOINCHE in acts:
        return _surcoinche(view, info, config, rng)
    samples, weights = auction_deals(view, config, rng)
    if not samples:
        return Decision.reasoned(PASS, Message.of("bot.no_consistent_deal"))
    rules = view.rules
    trumps: list[Trump] = [0, 1, 2, 3] + ([NO_TRUMP, ALL_TRUMP] if rules.sa_ta else [])
    # Double-dummy points of our team for each trump over the sampled deals.
    dd: dict[Trump, list[int]] = {}
    for t in candidate_trumps(view, info, trumps):
        dd[t] = [dd_points(view, t, hands, team) for hands in samples]
    # The value of passing: the current contract played as it stands.
    pass_value = 0.0
    if info.last_bid is not None:
        cur_trump = bid_trump(info.last_bid)
        if cur_trump not in dd:
            dd[cur_trump] = [dd_points(view, cur_trump, hands, team) for hands in samples]
        contract = info.contract()
        assert contract is not None
        pass_value = expected_margin(view, contract, dd[cur_trump], samples, weights)
        if COINCHE in acts:
            coinched = contract_of(info.last_bid, info.bidder, True, False, rules)
            value = expected_margin(view, coinched, dd[cur_trump], samples, weights)
            fails = fail_rate(view, contract, dd[cur_trump], samples, weights)
            if value > pass_value + 20 and fails > 0.65:
                return Decision.reasoned(
                    COINCHE,
                    Message.of(
                        "bot.coinche", call=call_str(info.last_bid), percent=round(100 * fails), samples=len(samples)
                    ),
                )
    best_action, best_value = PASS, pass_value
    for a in acts:
        if not is_bid(a) or is_generale(a):
            continue
        t = bid_trump(a)
        if t not in dd:
            continue
        if is_capot(a) and min(dd[t]) < 162:
            continue
        contract = contract_of(a, view.seat, False, False, rules)
        pts = [max(0, p - config.dd_optimism) for p in dd[t]]
        v = expected_margin(view, contract, pts, samples, weights)
        if v > best_value + 1e-9:
            best_action, best_value = a, v
    if best_action == PASS:
        return Decision.reasoned(PASS, Message.of("bot.pass_no_contract", expected=f"{pass_value:+.0f}"))
    t = bid_trump(best_action)
    mean_pts = sum(dd[t]) / len(dd[t])
    return Decision.reasoned(
        best_action,
        Message.of(
            "bot.bid",
            call=call_str(best_action),
            points=round(mean_pts),
            trump=TRUMP_NAMES[t],
            samples=len(samples),
            expected=f"{best_value:+.0f}",
        ),
    )


def candidate_trumps(view: View, info: AuctionInfo, trumps: Sequence[Trump]) -> list[Trump]:
    """The trumps worth a search: the two strongest for our hand, and any our partner named."""
    hand = view.hand
    ranked = sorted(trumps, key=lambda t: -hand_strength(hand, t))
    out = ranked[:2]
    partner = (view.seat + 2) & 3
    for t in info.trumps_bid(partner):
        if t not in out and t in trumps:
            out.append(t)
    return out


def expected_margin(
    view: View, contract: Contract, team_points: Sequence[int], samples: Sequence[Hands], weights: Sequence[float]
) -> float:
    """Expected score margin of our team if ``contract`` is played, from double-dummy
    card points of our team in each sampled deal."""
    team = view.seat & 1
    total = 0.0
    for pts, hands, w in zip(team_points, samples, weights, strict=True):
        total += w * deal_margin(view, contract, team, pts, hands)
    return total / max(sum(weights), 1e-12)


def fail_rate(
    view: View, contract: Contract, team_points: Sequence[int], samples: Sequence[Hands], weights: Sequence[float]
) -> float:
    """Weighted share of the sampled deals in which ``contract`` fails."""
    team = view.seat & 1
    fails = 0.0
    for pts, hands, w in zip(team_points, samples, weights, strict=True):
        if not score_deal(view.rules, contract, deal_facts(view, contract, team, pts, hands)).made:
            fails += w
    return fails / max(sum(weights), 1e-12)


def _surcoinche(view: View, info: AuctionInfo, config: ExpertConfig, rng: random.Random) -> Decision:
    samples, weights = auction_deals(view, config, rng)
    contract = info.contract()
    assert contract is not None
    pts = [dd_points(view, contract.trump, h, view.seat & 1) for h in samples]
    pts = [max(0, p - 2 * config.dd_optimism) for p in pts]
    fails = fail_rate(view, contract, pts, samples, weights)
    if samples and fails < 0.05:
        return Decision.reasoned(SURCOINCHE, Message.of("bot.surcoinche", percent=round(100 * (1 - fails))))
    return Decision.reasoned(PASS, Message.of("bot.pass_fails", percent=round(100 * fails)))


LEVELS = (0, 42, 62, 72, 82, 92, 102, 112, 122, 132, 142, 152, 162)
"""Point levels the auction distinguishes (contract thresholds, 10 apart around them)."""


def dd_points(view: View, trump: Trump, hands: Sequence[CardSet], team: int) -> int:
    """Double-dummy card points of ``team`` over a whole deal with ``trump``, to the
    nearest auction level: a binary search of null-window tests (a few fast searches
    instead of one exact one); the midpoint of the bracket found is returned."""
    rules = view.rules
    pos = Position(
        (hands[0], hands[1], hands[2], hands[3]),
        trump,
        (view.dealer + 1) & 3,
        (),
        rules.undertrump == "forced",
        rules.ta_values == "ffb",
    )
    lo, hi = 0, len(LEVELS) - 1  # LEVELS[lo] is reachable; find the highest reachable level
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if can_reach(pos, team, LEVELS[mid]):
            lo = mid
        else:
            hi = mid - 1
    if lo == len(LEVELS) - 1:
        return 162
    return (LEVELS[lo] + LEVELS[lo + 1]) // 2
