"""The beginner level: legal, simple, human-like habits, and a beginner's mistakes.

Auction: bids only obvious hands, at 80 or 90 in a suit holding the Jack and the 9 with two
more trumps (or the Jack, the Ace and two more), never SA, TA or capot; rarely raises its
partner (only with the partner's trump Jack, now and then); never coinches.

Card play: leads its Aces first (then, as taker, its highest trump; otherwise a small
card), wins a trick with its highest card when it can, and sometimes does so even over
its partner; plays its smallest card when it cannot win. It does not count trumps or
track voids, and about one card in seven is played without thinking (a random legal card).
It still announces belote and declares its melds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..engine.actions import PASS, bid_trump, call_str, card_of, is_card, make_bid
from ..engine.cards import ACE, JACK, NINE, SUIT_MASKS, SUITS, Card, CardSet, card, card_str
from ..engine.deal import View
from ..engine.messages import Message
from ..engine.play import tables, trick_winner
from .base import Bot, Decision, play_card
from .knowledge import parse_auction

RANDOM_CARD: Final = 0.15
"""Share of cards played at random (a forgotten void, a careless discard)."""
OVERTAKE_PARTNER: Final = 0.4
"""Chance to play a high winning card over a partner who is already winning."""
RAISE: Final = 0.2
"""Chance to raise the partner's suit (with its trump Jack)."""


def _has(hand: CardSet, suit: int, rank: int) -> bool:
    return bool(hand >> card(suit, rank) & 1)


def obvious_bid(hand: CardSet) -> tuple[int, int] | None:
    """``(value, suit)`` of an obvious opening, None otherwise."""
    best: tuple[int, int] | None = None
    for s in SUITS:
        n = (hand & SUIT_MASKS[s]).bit_count()
        if n < 4 or not _has(hand, s, JACK):
            continue
        if not (_has(hand, s, NINE) or _has(hand, s, ACE)):
            continue
        aces = sum(1 for o in SUITS if o != s and _has(hand, o, ACE))
        value = 90 if (n >= 5 or aces >= 1) and _has(hand, s, NINE) else 80
        if best is None or value > best[0]:
            best = (value, s)
    return best


class BeginnerBot(Bot):
    """A beginner (see the module docstring)."""

    name = "beginner"

    def choose_card(self, view: View) -> Decision:
        c, why = self._card(view)
        return play_card(c, view.legal_actions, why, Message.of("bot.card_reason", played=card_str(c), reason=why))

    def choose_call(self, view: View) -> Decision:
        legal = view.legal_actions
        a = parse_auction(view.calls, view.dealer, view.rules)
        if a.coinched or a.bidder == view.seat:
            return Decision.reasoned(PASS, Message.of("bot.pass"))
        partner = (view.seat + 2) & 3
        if a.bidder == partner and a.last_bid is not None:
            t = bid_trump(a.last_bid)
            raise_ok = t < 4 and _has(view.hand, t, JACK) and a.current_value < 100
            if raise_ok and self.rng.random() < RAISE:
                bid = make_bid(a.current_value + 10, t)
                if bid in legal:
                    name = call_str(bid)
                    return Decision.reasoned(
                        bid,
                        Message.of("bot.support_partner", call=name),
                        Message.of("bot.support_partner_jack", call=name),
                    )
            return Decision.reasoned(PASS, Message.of("bot.pass_partner_bid"))
        ob = obvious_bid(view.hand)
        if ob is None:
            return Decision.reasoned(PASS, Message.of("bot.pass_no_good_suit"))
        value, s = ob
        bid = make_bid(value, s)
        if bid not in legal:
            return Decision.reasoned(PASS, Message.of("bot.pass_too_high"))
        name = call_str(bid)
        return Decision.reasoned(
            bid, Message.of("bot.long_suit", call=name), Message.of("bot.long_suit_jack", call=name)
        )

    def _card(self, view: View) -> tuple[Card, Message]:
        cards = sorted({card_of(a) for a in view.legal_actions if is_card(a)})
        if len(cards) == 1:
            return cards[0], Message.of("bot.only_legal_card")
        if self.rng.random() < RANDOM_CARD:
            return self.rng.choice(cards), Message.of("bot.random_card")
        contract = view.contract
        assert contract is not None
        tt = tables(contract.trump, view.rules.ta_values == "ffb")
        power, pts = tt.power, tt.points

        def high(cs: Sequence[Card]) -> Card:
            return max(cs, key=lambda c: (power[c], pts[c]))

        def low(cs: Sequence[Card]) -> Card:
            return min(cs, key=lambda c: (pts[c], power[c]))

        trick = view.trick
        if not trick:
            aces = [c for c in cards if c & 7 == ACE and not tt.trump_mask >> c & 1]
            if aces:
                return self.rng.choice(aces), Message.of("bot.aces_first")
            trumps = [c for c in cards if tt.trump_mask >> c & 1]
            if contract.taker == view.seat and trumps:
                return high(trumps), Message.of("bot.trumps_as_taker")
            return low(cards), Message.of("bot.small_card")
        w = trick_winner(trick, tt)
        wcard = trick[w]
        partner_winning = (view.trick_leader + w) & 1 == view.seat & 1
        beating = [c for c in cards if tt.beats(c, wcard)]
        if beating and (not partner_winning or self.rng.random() < OVERTAKE_PARTNER):
            return high(beating), Message.of("bot.take_with_best")
        if partner_winning:
            plain = [c for c in cards if not tt.trump_mask >> c & 1] or list(cards)
            return max(plain, key=lambda c: (pts[c], -power[c])) if self.rng.random() < 0.5 else low(cards), (
                Message.of("bot.partner_has_it")
            )
        return low(cards), Message.of("bot.cannot_win")
