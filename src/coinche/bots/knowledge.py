"""What a careful player knows from one seat's ``View``: shared helpers of the bot levels.

``knowledge(view)`` walks the auction and the cards played once and returns a small frozen
``Knowledge``: who played what, the cards still unseen, what each other seat is known to
lack (voids, no higher trump...) or to hold (the other belote card, shown melds), the master
cards, the trumps still out, the state of the trick in progress, and the auction read as
bids per seat (``AuctionInfo``). Only sure facts are drawn from the play, those the rules of
RULES.md section 3 force:

* a card of another suit than the one led: void in the suit led;
* suit contract, an opponent of the player winning the trick: a discard over no trump
  (had to cut) shows no trump; a discard over an opponent's trump shows no higher trump,
  and no trump at all where undertrumping is forced; a lower trump shows no higher trump;
* trump led (or any suit at TA): a card that does not beat the trick shows no higher card
  of that suit;
* a ``belote`` announcement: the seat holds the other of K/Q until it plays it;
* shown melds: the seat holds their cards until it plays them.

Everything is bitmask arithmetic; one call costs a few microseconds per card played.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..engine.actions import COINCHE, PASS, SURCOINCHE, Action, bid_trump, is_bid
from ..engine.auction import contract_of
from ..engine.belote import belote_suits, pair_mask
from ..engine.cards import (
    ACE,
    ALL_TRUMP,
    FULL_DECK,
    KING,
    NO_TRUMP,
    SUIT_MASKS,
    TEN,
    Card,
    CardSet,
    Trump,
)
from ..engine.deal import Phase, View
from ..engine.play import TrumpTables, tables
from ..engine.rules import RuleSet
from ..engine.scoring import Contract

NO_SEAT: Final = -1

# ----- the auction -----


@dataclass(frozen=True, slots=True)
class AuctionInfo:
    """The auction read from ``view.calls`` (the first call is by ``dealer + 1``)."""

    calls: tuple[tuple[int, Action], ...]
    """Every call as ``(seat, call)``, in order."""
    bids: tuple[tuple[Action, ...], ...]
    """Per seat, its bids (numeric, capot, générale) in order."""
    last_bid: Action | None
    """The current highest bid, None before the first one."""
    bidder: int
    """Author of ``last_bid`` (-1 when none)."""
    coincher: int
    """Seat that coinched (-1 when none)."""
    surcoinched: bool
    opener: int
    """Author of the first bid (-1 when none)."""
    rules: RuleSet
    """The table's rules (what a capot or a générale is worth)."""

    def first_bid(self, seat: int) -> Action | None:
        b = self.bids[seat]
        return b[0] if b else None

    def last_bid_of(self, seat: int) -> Action | None:
        b = self.bids[seat]
        return b[-1] if b else None

    def trumps_bid(self, seat: int) -> tuple[Trump, ...]:
        """The trumps ``seat`` named, first named first, without repeats."""
        out: list[Trump] = []
        for b in self.bids[seat]:
            t = bid_trump(b)
            if t not in out:
                out.append(t)
        return tuple(out)

    def partner_bid(self, seat: int) -> tuple[Trump, int] | None:
        """The trump and value of the last bid of ``seat``'s partner (None if it never bid)."""
        b = self.last_bid_of((seat + 2) & 3)
        return None if b is None else (bid_trump(b), bid_value(b, self.rules))

    def value_in(self, seat: int, trump: Trump) -> int:
        """The highest value ``seat`` bid in ``trump`` (0 when it never named it)."""
        return max((bid_value(b, self.rules) for b in self.bids[seat] if bid_trump(b) == trump), default=0)

    @property
    def current_value(self) -> int:
        return bid_value(self.last_bid, self.rules) if self.last_bid is not None else 0

    @property
    def coinched(self) -> bool:
        return self.coincher >= 0

    def contract(self) -> Contract | None:
        """The contract the auction stands at now, with its coinche or surcoinche (what
        ``Auction.contract`` would give if the auction stopped here); None before a bid."""
        if self.last_bid is None:
            return None
        return contract_of(self.last_bid, self.bidder, self.coinched, self.surcoinched, self.rules)


def unseen_cards(view: View) -> CardSet:
    """The cards neither in the seat's hand nor played: the three other seats hold them."""
    played = 0
    for t in view.tricks:
        for c in t.cards:
            played |= 1 << c
    for c in view.trick:
        played |= 1 << c
    return FULL_DECK & ~played & ~view.hand


def bid_value(action: Action, rules: RuleSet) -> int:
    """The value a bid claims, as its contract would score it: its number, ``CAPOT_VALUE``
    for a capot, ``rules.generale_value`` for a générale."""
    return contract_of(action, 0, False, False, rules).value


def dealt_belotes(trump: Trump, hands: Sequence[CardSet]) -> tuple[int, int]:
    """Belotes each team holds in full hands (``engine.belote``: the K and Q of trump;
    every suit at TA, none at SA), as if every belote were announced."""
    out = [0, 0]
    for s, h in enumerate(hands):
        out[s & 1] += len(belote_suits(h, trump))
    return (out[0], out[1])


def parse_auction(calls: Sequence[Action], dealer: int, rules: RuleSet) -> AuctionInfo:
    """Read a sequence of calls whose first one was made by ``dealer + 1``, at a table
    playing ``rules``."""
    seq: list[tuple[int, Action]] = []
    bids: list[list[Action]] = [[], [], [], []]
    last: Action | None = None
    bidder = coincher = opener = NO_SEAT
    sur = False
    for i, a in enumerate(calls):
        seat = (dealer + 1 + i) & 3
        seq.append((seat, a))
        if a == PASS:
            continue
        if a == COINCHE:
            coincher = seat
        elif a == SURCOINCHE:
            sur = True
        elif is_bid(a):
            bids[seat].append(a)
            last, bidder = a, seat
            if opener < 0:
                opener = seat
    return AuctionInfo(tuple(seq), tuple(tuple(b) for b in bids), last, bidder, coincher, sur, opener, rules)


# ----- the cards -----


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What ``seat`` knows at one moment of a deal (see the module docstring)."""

    seat: int
    partner: int
    auction: AuctionInfo
    contract: Contract | None
    trump: Trump
    """The contract's trump, or -1 during the auction."""
    tt: TrumpTables
    """Card tables under the contract's trump (SA tables during the auction)."""
    points: tuple[int, ...]
    """Card points of the 32 cards under the contract."""
    hand: CardSet
    played: CardSet
    """Every card played so far, the trick in progress included."""
    played_by: tuple[CardSet, ...]
    plays: tuple[tuple[int, Card], ...]
    """Every card played as ``(seat, card)``, in order."""
    led_by: tuple[CardSet, ...]
    """Per seat, the cards it led."""
    unseen: CardSet
    """Cards neither in the hand nor played: held by the three other seats."""
    voids: tuple[int, ...]
    """Per seat, a 4-bit mask of the suits it is known to lack."""
    excluded: tuple[CardSet, ...]
    """Per seat, unseen cards it cannot hold (its voids, the higher trumps it lacks...)."""
    known: tuple[CardSet, ...]
    """Per seat, unseen cards it surely holds (announced belote, shown melds); the
    observing seat's entry is its hand."""
    possible: tuple[CardSet, ...]
    """Per seat, the cards it may hold now (the hand itself for the observing seat)."""
    signals: tuple[int, ...]
    """Per seat, a 4-bit mask of suits it asked for by discarding a high card (A, 10 or K)
    on a trick its partner was not winning."""
    masters: CardSet
    """Unplayed cards that are the highest unplayed of their suit (wherever they are)."""
    sure: CardSet
    """Cards of the hand that no other seat can beat within their suit (a higher one is
    played or in the hand)."""
    trumps_out: int
    """Trumps (suit contract) held by the three other seats; 0 at SA or TA."""
    trick_winner: int
    """Seat winning the trick in progress (-1 when no card is on the table)."""
    winning_card: Card
    """Its card (-1 when none)."""
    trick_points: int
    """Card points on the table in the trick in progress."""

    # ----- small questions -----

    @property
    def partner_winning(self) -> bool:
        return self.trick_winner >= 0 and self.trick_winner & 1 == self.seat & 1

    @property
    def taker(self) -> int:
        return self.contract.taker if self.contract is not None else NO_SEAT

    @property
    def attacking(self) -> bool:
        """True when the seat's team holds the contract."""
        return self.contract is not None and self.contract.taker & 1 == self.seat & 1

    @property
    def opponents(self) -> tuple[int, int]:
        return ((self.seat + 1) & 3, (self.seat + 3) & 3)

    @property
    def trump_mask(self) -> CardSet:
        """The trump suit's cards in a suit contract, none otherwise."""
        return self.tt.trump_mask

    def is_void(self, seat: int, suit: int) -> bool:
        return bool(self.voids[seat] >> suit & 1)

    def is_master(self, c: Card) -> bool:
        """No unplayed card of its suit beats ``c``."""
        return not self.tt.above[c] & ~self.played

    def beats(self, c: Card, winner: Card) -> bool:
        return self.tt.beats(c, winner)

    def may_hold(self, seat: int, cards: CardSet) -> bool:
        return bool(self.possible[seat] & cards)

    def may_ruff(self, seat: int, suit: int) -> bool:
        """``seat`` may cut ``suit`` (suit contract): it is void in it or may be, and may
        hold a trump. Void counts only when known, or when the suit has no unseen card
        left for it."""
        if self.trump < 0 or self.trump >= NO_TRUMP or suit == self.trump:
            return False
        if not self.possible[seat] & self.tt.trump_mask:
            return False
        return self.is_void(seat, suit) or not self.possible[seat] & SUIT_MASKS[suit]

    def opponents_may_ruff(self, suit: int) -> bool:
        return any(self.may_ruff(s, suit) for s in self.opponents)

    def opponent_trumps(self) -> CardSet:
        """Trumps the opponents may still hold."""
        o1, o2 = self.opponents
        return (self.possible[o1] | self.possible[o2]) & self.tt.trump_mask

    def unseen_in(self, suit: int) -> CardSet:
        return self.unseen & SUIT_MASKS[suit]


_SA: Final = tables(NO_TRUMP)
_HIGH_RANKS: Final = 1 << ACE | 1 << TEN | 1 << KING


def knowledge(view: View) -> Knowledge:
    """Everything ``view.seat`` can infer now (see the module docstring)."""
    seat = view.seat
    auction = parse_auction(view.calls, view.dealer, view.rules)
    contract = view.contract
    hand = view.hand
    if contract is None or view.phase is Phase.AUCTION:
        tt = _SA
        trump = -1
    else:
        trump = contract.trump
        tt = tables(trump, view.rules.ta_values == "ffb")
    voids = [0, 0, 0, 0]
    excluded = [0, 0, 0, 0]
    known = [0, 0, 0, 0]
    signals = [0, 0, 0, 0]
    played_by = [0, 0, 0, 0]
    led_by = [0, 0, 0, 0]
    plays: list[tuple[int, Card]] = []
    played = 0
    undertrump_forced = view.rules.undertrump == "forced"
    above = tt.above
    trump_suit = trump if 0 <= trump < NO_TRUMP else -1
    trumps = SUIT_MASKS[trump_suit] if trump_suit >= 0 else 0

    tricks: list[tuple[int, Sequence[Card]]] = [(t.leader, t.cards) for t in view.tricks]
    if view.trick:
        tricks.append((view.trick_leader, view.trick))
    win_seat, win_card, trick_pts = NO_SEAT, -1, 0
    for leader, cards in tricks:
        led = cards[0] >> 3
        win_idx = 0  # the card winning the trick so far (``tt.beats`` decides, card by card)
        for i, c in enumerate(cards):
            p = (leader + i) & 3
            played |= 1 << c
            played_by[p] |= 1 << c
            plays.append((p, c))
            if i == 0:
                led_by[p] |= 1 << c
                continue
            win = cards[win_idx]  # the card winning before ``c``
            partner_winning = (leader + win_idx) & 1 == p & 1
            suit = c >> 3
            if suit != led:
                voids[p] |= 1 << led
                excluded[p] |= SUIT_MASKS[led]
                if not partner_winning and suit != trump_suit and (1 << (c & 7)) & _HIGH_RANKS:
                    signals[p] |= 1 << suit
            if trump == ALL_TRUMP:
                if suit == led and not above[win] >> c & 1:
                    excluded[p] |= above[win]
            elif trump_suit >= 0:
                c_trump = suit == trump_suit
                if led == trump_suit:
                    if not c_trump:
                        voids[p] |= 1 << trump_suit
                        excluded[p] |= trumps
                    elif not above[win] >> c & 1:
                        excluded[p] |= above[win]
                elif suit != led and not partner_winning:
                    win_trump = win >> 3 == trump_suit
                    if not win_trump and not c_trump:
                        voids[p] |= 1 << trump_suit
                        excluded[p] |= trumps
                    elif win_trump and c_trump and not above[win] >> c & 1:
                        excluded[p] |= above[win]
                    elif win_trump and not c_trump:
                        if undertrump_forced:
                            voids[p] |= 1 << trump_suit
                            excluded[p] |= trumps
                        else:
                            excluded[p] |= above[win]
            if tt.beats(c, win):
                win_idx = i
        if len(cards) < 4:
            win_seat, win_card = (leader + win_idx) & 3, cards[win_idx]
            pts = tt.points
            trick_pts = sum(pts[x] for x in cards)

    for b in view.belotes:
        if b.at == "belote":
            known[b.seat] |= pair_mask(b.suit) & ~played
    for s, melds in enumerate(view.shown_melds):
        for m in melds:
            known[s] |= m.cards & ~played
    unseen = FULL_DECK & ~played & ~hand
    known[seat] = hand
    possible = [0, 0, 0, 0]
    for s in range(4):
        if s == seat:
            possible[s] = hand
            continue
        known[s] &= unseen
        free = unseen & ~excluded[s] & ~(known[0] | known[1] | known[2] | known[3])
        possible[s] = known[s] | (free if view.hand_sizes[s] > known[s].bit_count() else 0)
        excluded[s] &= unseen & ~known[s]
        # A suit with no possible card left is a void too (every card of it is elsewhere).
        for su in range(4):
            if not possible[s] & SUIT_MASKS[su]:
                voids[s] |= 1 << su
    excluded[seat] = FULL_DECK & ~hand

    masters = 0
    left = FULL_DECK & ~played
    for su in range(4):
        rest = left & SUIT_MASKS[su]
        while rest:
            low = rest & -rest
            c = low.bit_length() - 1
            if not above[c] & left:
                masters |= low
                break
            rest ^= low
    sure = 0
    h = hand
    while h:
        low = h & -h
        c = low.bit_length() - 1
        if not above[c] & unseen:
            sure |= low
        h ^= low

    return Knowledge(
        seat=seat,
        partner=(seat + 2) & 3,
        auction=auction,
        contract=contract,
        trump=trump,
        tt=tt,
        points=tt.points,
        hand=hand,
        played=played,
        played_by=tuple(played_by),
        plays=tuple(plays),
        led_by=tuple(led_by),
        unseen=unseen,
        voids=tuple(voids),
        excluded=tuple(excluded),
        known=tuple(known),
        possible=tuple(possible),
        signals=tuple(signals),
        masters=masters,
        sure=sure,
        trumps_out=(unseen & trumps).bit_count(),
        trick_winner=win_seat,
        winning_card=win_card,
        trick_points=trick_pts,
    )
