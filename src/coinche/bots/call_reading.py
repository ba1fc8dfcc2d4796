"""What a call says: in the terms of the rules the table plays (the conventions of RULES.md
section 8, the raise table of the ``classic`` seed), and what the expert reads into it.

A reading is made from the auction alone (the calls, the dealer, the rules): it cannot name
a card that only the caller holds, whoever asks. The expert's part is its own logic, not a
paraphrase of it: the strength its card play expects of a bid (``deals.promised_strength``
on ``hand_strength``, the same function that weights its sampled deals) and, as partner,
the worth its auction gives the caller's hand (the calibration's partner table, the one
``auction.team_estimate`` feeds to the hand evaluator).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import product

from ..engine.actions import (
    COINCHE,
    PASS,
    SURCOINCHE,
    Action,
    bid_trump,
    call_str,
    is_capot,
    is_generale,
    is_numeric_bid,
)
from ..engine.auction import contract_of
from ..engine.cards import (
    ACE,
    ALL_TRUMP,
    EIGHT,
    HEARTS,
    JACK,
    KING,
    NINE,
    NO_TRUMP,
    QUEEN,
    SEVEN,
    TEN,
    TRUMP_NAMES,
    CardSet,
    Trump,
    card,
)
from ..engine.messages import Message
from ..engine.rules import RuleSet
from .expert.auction import partner_context
from .expert.calibration import UNKNOWN_PARTNER, calibration
from .expert.deals import hand_strength, pass_ceiling, promised_strength
from .hand_evaluator import MAX_POINTS
from .knowledge import AuctionInfo, bid_value, parse_auction

RAISE_ROWS = 3
"""The raise table's rows: one, two, three steps over the partner's bid."""


@dataclass(frozen=True)
class CallReading:
    """One call read: ``said`` in the rules' terms, ``expert`` what the expert reads."""

    seat: int
    call: Action
    said: Message
    expert: tuple[Message, ...]


def read_call(rules: RuleSet, dealer: int, calls: Sequence[Action], index: int) -> CallReading:
    """The reading of call ``index`` of ``calls`` (the first call is by ``dealer + 1``): of
    the auction up to that call, so a later call does not change it."""
    before = parse_auction(calls[:index], dealer, rules)
    upto = parse_auction(calls[: index + 1], dealer, rules)
    seat, call = upto.calls[index]
    return CallReading(seat, call, _said(before, seat, call), _expert(before, upto, seat, call))


def read_calls(rules: RuleSet, dealer: int, calls: Sequence[Action]) -> list[CallReading]:
    """Every call of ``calls`` read."""
    return [read_call(rules, dealer, calls, i) for i in range(len(calls))]


# ----- in the rules' terms -----


def _said(before: AuctionInfo, seat: int, call: Action) -> Message:
    rules = before.rules
    partner = (seat + 2) & 3
    current = before.last_bid
    if call == COINCHE and current is not None:
        factor = contract_of(current, before.bidder, True, False, rules).multiplier
        return Message.of("meaning.coinche", current=call_str(current), factor=factor)
    if call == SURCOINCHE and current is not None:
        factor = contract_of(current, before.bidder, True, True, rules).multiplier
        return Message.of("meaning.surcoinche", current=call_str(current), factor=factor)
    if call == PASS:
        return _said_pass(before, seat)
    if is_generale(call):
        return Message.of("meaning.generale", call=call_str(call))
    if is_capot(call):
        return Message.of("meaning.capot", call=call_str(call))
    trump = bid_trump(call)
    value = bid_value(call, rules)
    step = rules.bid_values.step
    partner_value = before.value_in(partner, trump)
    own_value = before.value_in(seat, trump)
    if partner_value and not own_value:
        steps = (value - partner_value) // step
        earlier = _bid_of(before, partner, trump)
        return _raise(rules, call, earlier, steps)
    if own_value:
        return Message.of("meaning.again", call=call_str(call), earlier=call_str(_bid_of(before, seat, trump)))
    if current is None:
        return Message.of("meaning.open", call=call_str(call), value=value)
    if before.bidder == partner:
        return Message.of("meaning.change", call=call_str(call), current=call_str(current))
    return Message.of("meaning.overcall", call=call_str(call), current=call_str(current))


def _bid_of(info: AuctionInfo, seat: int, trump: Trump) -> Action:
    """The highest bid of ``seat`` in ``trump`` (it made one)."""
    return max((b for b in info.bids[seat] if bid_trump(b) == trump), key=lambda b: bid_value(b, info.rules))


def _raise(rules: RuleSet, call: Action, earlier: Action, steps: int) -> Message:
    """A raise of the partner's bid: the tricks it promises and, in a suit, the typical
    hands (RULES.md section 8: +20 may instead show the trump Jack or the belote; +10 the
    lone trump 9)."""
    if steps > RAISE_ROWS:
        return Message.of("meaning.raise_many", call=call_str(call), earlier=call_str(earlier), count=steps)
    steps = max(steps, 1)
    promise = Message.of(
        "meaning.raise.one" if steps == 1 else "meaning.raise.two" if steps == 2 else "meaning.raise.three"
    )
    if bid_trump(call) >= NO_TRUMP:  # the table's hands are counted in trumps
        return Message.of("meaning.raise_plain", call=call_str(call), earlier=call_str(earlier), promise=promise)
    if steps == 1:
        hands = Message.of("meaning.raise.or_nine", hands=Message.of("meaning.raise.one_hands"))
    elif steps == 2:
        hands = Message.of("meaning.raise.or_jack", hands=Message.of("meaning.raise.two_hands"))
    else:
        hands = Message.of("meaning.raise.three_hands")
    return Message.of("meaning.raise", call=call_str(call), earlier=call_str(earlier), promise=promise, hands=hands)


def _said_pass(before: AuctionInfo, seat: int) -> Message:
    current = before.last_bid
    if current is None:
        return Message.of("meaning.pass_open")
    if before.coinched:
        return Message.of("meaning.pass_coinched", current=call_str(current))
    if before.bidder == (seat + 2) & 3:
        return Message.of("meaning.pass_partner", current=call_str(current))
    if before.bidder == seat:
        return Message.of("meaning.pass_own", current=call_str(current))
    return Message.of("meaning.pass_opponent", current=call_str(current))


# ----- what the expert reads -----


UNKNOWN = round(UNKNOWN_PARTNER)
"""The worth of a hand nothing is known of, as the reading says it."""


def _expert(before: AuctionInfo, upto: AuctionInfo, seat: int, call: Action) -> tuple[Message, ...]:
    """What the expert's own logic takes from the call: the strength its card play weights
    the caller's hand by (``deals.auction_likelihood``: a bid's least strength, a pass's
    most), and as the caller's partner the worth its auction gives the caller's hand."""
    out: list[Message] = []
    if is_numeric_bid(call):
        trump = bid_trump(call)
        example = example_holding(trump, promised_strength(before.value_in((seat + 2) & 3, trump), call))
        out.append(Message.of("meaning.expert_strength", trump=TRUMP_NAMES[trump], example=example))
    elif call == PASS and not before.coinched:
        denied = _pass_denies(before, seat)
        if denied is not None:
            out.append(denied)
    read_in = _trump_read(before, call)
    context = partner_context(upto, (seat + 2) & 3, read_in) if read_in is not None else None
    if read_in is not None and context is not None:
        points = calibration().partner_points(upto.rules, read_in, context)
        points = round(points)
        if call == PASS and before.last_bid is None:  # every suit reads it alike
            line = Message.of("meaning.expert_partner_suit", points=points, total=MAX_POINTS, unknown=UNKNOWN)
        else:
            line = Message.of(
                "meaning.expert_partner", trump=TRUMP_NAMES[read_in], points=points, total=MAX_POINTS, unknown=UNKNOWN
            )
        out.append(line)
    if not out:
        out.append(Message.of("meaning.expert_nothing"))
    return tuple(out)


def _pass_denies(before: AuctionInfo, seat: int) -> Message | None:
    """What the expert's card play reads a pass as denying: a hand beyond the lowest of the
    suits' ceilings (``deals.pass_ceiling``), named when it is the partner's suit (a
    raise refused) or said of any suit; None when no value bid was left."""
    if before.last_bid is not None and not is_numeric_bid(before.last_bid):
        return None  # a capot or a générale: no value bid is left to deny
    partner = (seat + 2) & 3
    ceilings = []
    for suit in range(4):
        ceiling = pass_ceiling(before.current_value, before.value_in(partner, suit), before.rules.max_bid)
        if ceiling is None:
            return None
        ceilings.append((ceiling, suit))
    ceiling, suit = min(ceilings)
    example = example_holding(suit, ceiling + 1)
    if before.value_in(partner, suit):
        return Message.of("meaning.expert_pass_trump", trump=TRUMP_NAMES[suit], example=example)
    return Message.of("meaning.expert_pass_suit", example=example)


def _trump_read(before: AuctionInfo, call: Action) -> Trump | None:
    """The trump in which the expert, as the caller's partner, values the caller's hand
    after this call: the trump bid, else the highest bid's (a pass before any bid: a suit,
    every suit reads a pass alike). None for a coinche or a surcoinche: the stakes change,
    not the expert's count of the hand."""
    if is_numeric_bid(call) or is_capot(call) or is_generale(call):
        return bid_trump(call)
    if call in (COINCHE, SURCOINCHE):
        return None
    return bid_trump(before.last_bid) if before.last_bid is not None else HEARTS


# ----- a holding that shows a strength -----


@cache
def example_holding(trump: Trump, strength: float) -> Message:
    """The fewest cards whose ``hand_strength`` in ``trump`` reaches ``strength``, in words
    ("the trump Jack and 9, a side Ace"): what the expert's reading means at the table. A
    kind of hand, never anyone's cards. Kept: a table's page asks again for every call of the
    deal, and a bid's strength takes a few dozen values."""
    best: tuple[int, float, tuple[int, ...]] | None = None
    for shape in _shapes(trump):
        hand = _hand_of(trump, shape)
        value = hand_strength(hand, trump)
        key = (hand.bit_count(), value)
        if value >= strength and (best is None or key < best[:2]):
            best = (key[0], key[1], shape)
    if best is None:
        return Message.of("meaning.holding_beyond")
    return _words(trump, best[2])


def _shapes(trump: Trump) -> list[tuple[int, ...]]:
    """The holdings tried: for a suit (Jack, 9, Ace of trumps, other trumps, side Aces, side
    Tens with their Ace); at no trump (Aces, Tens); at all trumps (Jacks, 9s, Aces)."""
    if trump < NO_TRUMP:
        return [
            (j, n, a, x, sa, st)
            for j, n, a, x, sa, st in product((0, 1), (0, 1), (0, 1), range(6), range(4), range(4))
            if st <= sa and j + n + a + x <= 8 and j + n + a + x + sa + st <= 8
        ]
    return [
        (a, b, c)
        for a, b, c in product(range(5), range(5), range(5))
        if a + b + c <= 8 and (trump == ALL_TRUMP or c == 0)
    ]


OTHER_TRUMPS = (SEVEN, EIGHT, QUEEN, KING, TEN)
"""The trumps besides the Jack, the 9 and the Ace, lowest first."""


def _hand_of(trump: Trump, shape: tuple[int, ...]) -> CardSet:
    hand = 0
    if trump < NO_TRUMP:
        j, n, a, x, sa, st = shape
        for rank, there in ((JACK, j), (NINE, n), (ACE, a)):
            if there:
                hand |= 1 << card(trump, rank)
        for rank in OTHER_TRUMPS[:x]:
            hand |= 1 << card(trump, rank)
        sides = [s for s in range(4) if s != trump]
        for i in range(sa):
            hand |= 1 << card(sides[i], ACE)
        for i in range(st):
            hand |= 1 << card(sides[i], TEN)
        return hand
    first, second, third = shape
    ranks: tuple[tuple[int, int], ...] = ((ACE, first), (TEN, second))
    if trump == ALL_TRUMP:
        ranks = ((JACK, first), (NINE, second), (ACE, third))
    for rank, count in ranks:
        for s in range(count):
            hand |= 1 << card(s, rank)
    return hand


def _words(trump: Trump, shape: tuple[int, ...]) -> Message:
    parts: list[Message] = []
    if trump < NO_TRUMP:
        j, n, a, x, sa, st = shape
        named = j * 4 + n * 2 + a
        if named:
            parts.append(_trump_honours(named))
        if x:
            parts.append(_counted(COUNTED_OTHER_TRUMPS if named else COUNTED_TRUMPS, x))
        if sa:
            parts.append(_counted(COUNTED_SIDE_ACES, sa))
        if st:
            parts.append(_counted(COUNTED_SIDE_TENS, st))
    else:
        kinds = (COUNTED_ACES, COUNTED_TENS) if trump == NO_TRUMP else (COUNTED_JACKS, COUNTED_NINES, COUNTED_ACES)
        parts = [_counted(kind, c) for kind, c in zip(kinds, shape, strict=False) if c]
    if not parts:
        return Message.of("meaning.holding_nothing")
    out = parts[-1]
    if len(parts) > 1:
        out = Message.of("meaning.and", first=parts[-2], last=parts[-1])
        for part in reversed(parts[:-2]):
            out = Message.of("bot.list", first=part, rest=out)
    return out


def _trump_honours(named: int) -> Message:
    """The trump Jack, 9 and Ace held (bits 4, 2, 1 of ``named``), in words."""
    return Message.of(
        "meaning.part.trumps_jack_nine_ace"
        if named == 7
        else "meaning.part.trumps_jack_nine"
        if named == 6
        else "meaning.part.trumps_jack_ace"
        if named == 5
        else "meaning.part.trumps_jack"
        if named == 4
        else "meaning.part.trumps_nine_ace"
        if named == 3
        else "meaning.part.trumps_nine"
        if named == 2
        else "meaning.part.trumps_ace"
    )


COUNTED_TRUMPS, COUNTED_OTHER_TRUMPS, COUNTED_SIDE_ACES, COUNTED_SIDE_TENS = range(4)
COUNTED_ACES, COUNTED_TENS, COUNTED_JACKS, COUNTED_NINES = range(4, 8)


def _counted(kind: int, count: int) -> Message:
    """``count`` cards of a kind, with their own words for one."""
    if count == 1:
        return Message.of(
            "meaning.part.trumps_one"
            if kind == COUNTED_TRUMPS
            else "meaning.part.other_trumps_one"
            if kind == COUNTED_OTHER_TRUMPS
            else "meaning.part.side_aces_one"
            if kind == COUNTED_SIDE_ACES
            else "meaning.part.side_tens_one"
            if kind == COUNTED_SIDE_TENS
            else "meaning.part.aces_one"
            if kind == COUNTED_ACES
            else "meaning.part.tens_one"
            if kind == COUNTED_TENS
            else "meaning.part.jacks_one"
            if kind == COUNTED_JACKS
            else "meaning.part.nines_one"
        )
    return Message.of(
        "meaning.part.trumps"
        if kind == COUNTED_TRUMPS
        else "meaning.part.other_trumps"
        if kind == COUNTED_OTHER_TRUMPS
        else "meaning.part.side_aces"
        if kind == COUNTED_SIDE_ACES
        else "meaning.part.side_tens"
        if kind == COUNTED_SIDE_TENS
        else "meaning.part.aces"
        if kind == COUNTED_ACES
        else "meaning.part.tens"
        if kind == COUNTED_TENS
        else "meaning.part.jacks"
        if kind == COUNTED_JACKS
        else "meaning.part.nines",
        count=count,
    )
