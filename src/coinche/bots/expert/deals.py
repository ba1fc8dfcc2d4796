"""The deals the expert searches: the unseen cards dealt consistent with everything seen
(``sampling``), each deal weighted by how well it explains the other seats' calls and the
cards they chose (``play_model``).

The weighting is the expert's own reading of the auction (a soft score on a quick hand
strength, not a probability model); the sure facts (voids, belote, shown melds) come from
``knowledge`` through ``sampling``, shared with the other levels.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Final

from ...engine.actions import PASS, Action, bid_rank, bid_trump, is_numeric_bid
from ...engine.cards import ACE, ALL_TRUMP, JACK, NINE, NO_TRUMP, SUIT_MASKS, TEN, CardSet, Trump, card
from ...engine.deal import View
from ...engine.play import tables
from ..knowledge import AuctionInfo, parse_auction
from ..sampling import constraints_from_view, relaxed, sample_deals
from .config import ExpertConfig
from .play_model import clues, play_model

Hands = tuple[CardSet, ...]


def play_deals(view: View, n: int, config: ExpertConfig, rng: random.Random) -> tuple[list[Hands], list[float]]:
    """``n`` deals of the hands still held, consistent with the view (the inferences
    relaxed when they seem contradictory), and their weights."""
    c = constraints_from_view(view)
    samples = sample_deals(c, n, rng)
    if len(samples) < n // 2:
        samples += sample_deals(relaxed(c), n - len(samples), rng)
    return samples, play_weights(view, samples, config)


def play_weights(view: View, samples: Sequence[Hands], config: ExpertConfig) -> list[float]:
    """Weights of deals of the hands still held: the auction's likelihood of the dealt
    hands (the cards played put back), times the play's (``play_model``: how well the
    deal explains the cards the other seats chose); uniform when no deal explains them."""
    if not config.inference:
        return [1.0] * len(samples)
    info = parse_auction(view.calls, view.dealer, view.rules)
    played = played_by_seat(view)
    weights = [auction_likelihood(view, info, [h | p for h, p in zip(hands, played, strict=True)]) for hands in samples]
    if config.play_inference:
        model = play_model()
        found = clues(view)
        if found:
            weights = [w * model.likelihood(found, hands) for w, hands in zip(weights, samples, strict=True)]
    if sum(weights) <= 0:
        weights = [1.0] * len(samples)
    return weights


def played_by_seat(view: View) -> list[CardSet]:
    """Per seat, the cards it has played (the trick in progress included)."""
    played = [0, 0, 0, 0]
    tricks = [(t.leader, t.cards) for t in view.tricks] + [(view.trick_leader, view.trick)]
    for leader, cards in tricks:
        for i, x in enumerate(cards):
            played[(leader + i) & 3] |= 1 << x
    return played


def hand_strength(hand: CardSet, trump: Trump) -> float:
    """A quick estimate of a hand's worth with ``trump`` (points it brings), for choosing
    which trumps to search and for reading the other seats' bids."""
    tt = tables(trump)
    score = 0.0
    if trump < NO_TRUMP:
        trumps = hand & SUIT_MASKS[trump]
        n = trumps.bit_count()
        score += 18 * (trumps >> card(trump, JACK) & 1) + 12 * (trumps >> card(trump, NINE) & 1)
        score += 6 * n + 4 * (trumps >> card(trump, ACE) & 1)
        for s in range(4):
            if s != trump:
                score += 10 * (hand >> card(s, ACE) & 1) + 4 * (hand >> card(s, TEN) & 1 and hand >> card(s, ACE) & 1)
        return score
    for c in range(32):
        if hand >> c & 1:
            score += tt.points[c] * 0.6
            if trump == ALL_TRUMP and c & 7 in (JACK, NINE):
                score += 6
            if trump == NO_TRUMP and c & 7 == ACE:
                score += 6
    return score


def auction_likelihood(view: View, info: AuctionInfo, hands: Sequence[CardSet]) -> float:
    """How well a deal explains the other seats' calls: a seat that bid a trump is likely
    strong in it; a seat that passed is unlikely to hold a hand that would have bid over
    the auction as it stood (before any bid, or over its partner's bid, or over the
    opponents'). A soft score (not a probability model) on ``hand_strength``."""
    logw = 0.0
    # Each seat's highest value bid in each trump so far: a call is read against its
    # partner's earlier bid in that trump, not against what came after it.
    bid_so_far: dict[tuple[int, Trump], int] = {}
    highest = 0
    """The highest value bid so far (0: none)."""
    closed = False
    """A coinche was said (a pass then declines the surcoinche, it does not deny a bid), or a
    capot or a générale (no value bid is left to deny)."""
    for seat, call in info.calls:
        if is_numeric_bid(call):
            t = bid_trump(call)
            if seat != view.seat:
                promised = promised_strength(bid_so_far.get(((seat + 2) & 3, t), 0), call)
                logw -= max(0.0, promised - hand_strength(hands[seat], t)) ** 2 / STRENGTH_SPREAD
            bid_so_far[seat, t] = max(bid_so_far.get((seat, t), 0), bid_rank(call) // 10)
            highest = max(highest, bid_rank(call) // 10)
        elif call == PASS and seat != view.seat and not closed:
            excess = passed_excess(hands[seat], seat, highest, bid_so_far, view.rules.max_bid)
            logw -= max(0.0, excess) ** 2 / STRENGTH_SPREAD
        elif call != PASS:  # a coinche, a surcoinche, a capot or a générale
            closed = True
    return math.exp(max(logw, -50.0))


STRENGTH_SPREAD: Final = 200.0
"""How soft the reading is: a hand ``d`` strength short of a call's promise is
``exp(-d**2 / STRENGTH_SPREAD)`` as likely (10 short: 0.6; 20 short: 0.14)."""

PASS_STRENGTH: Final = 55
"""A seat that passed while nobody had bid is read as holding no trump stronger than this."""

PASS_SLACK: Final = PASS_STRENGTH - 40
"""A pass is read as denying a suit this much stronger than the cheapest bid open to the
seat would have shown (an opening of 80 shows 40: a pass before any bid denies 55)."""


def pass_ceiling(highest: int, partner_value: int, max_bid: int) -> float | None:
    """The strongest ``hand_strength`` in a suit that a pass over ``highest`` (the highest
    value bid so far, 0 for none) leaves likely, given the passer's partner's earlier bid in
    that suit (0: none): the cheapest bid open there would have shown ``promised_strength``,
    and a pass denies more than ``PASS_SLACK`` above it. None: no value bid is left (the
    table's ``max_bid`` reached)."""
    value = max(80, highest + 10)
    if value > max_bid:
        return None
    return _promised_at(partner_value, value) + PASS_SLACK


def passed_excess(
    hand: CardSet, seat: int, highest: int, bid_so_far: dict[tuple[int, Trump], int], max_bid: int
) -> float:
    """How much stronger in its best suit a hand is than a pass over ``highest`` allows
    (``pass_ceiling``). Negative: the pass fits."""
    partner = (seat + 2) & 3
    excess = -math.inf
    for t in range(4):
        ceiling = pass_ceiling(highest, bid_so_far.get((partner, t), 0), max_bid)
        if ceiling is not None:
            excess = max(excess, hand_strength(hand, t) - ceiling)
    return excess


def promised_strength(partner_value: int, call: Action) -> float:
    """The ``hand_strength`` in its trump that a numeric bid is read as showing, given the
    highest value the bidder's partner had bid in that trump before it (0: none): an opening
    of 80 about 40, each step above 80, or above the partner's bid, about as much more."""
    return _promised_at(partner_value, bid_rank(call) // 10)


def _promised_at(partner_value: int, value: int) -> float:
    """``promised_strength`` of a bid of ``value``."""
    return 40 + (value - max(80, partner_value + 10 if partner_value else 80))
