"""The belote (king and queen of trumps): which pairs a hand holds, and what one is worth.

One place for the rule fact, used by the deal, the records and the bots: under a suit
contract the pair of the trump suit, under TA one pair per suit, under SA none.
"""

from __future__ import annotations

from typing import Final

from .cards import ALL_TRUMP, KING, NO_TRUMP, QUEEN, SUITS, CardSet, Trump, card

BELOTE_POINTS: Final = 20
"""What one belote (and rebelote) adds to its team's score."""


def belote_suits_of(trump: Trump) -> tuple[int, ...]:
    """Suits whose king and queen make a belote under ``trump``."""
    if trump == NO_TRUMP:
        return ()
    return SUITS if trump == ALL_TRUMP else (trump,)


def pair_mask(suit: int) -> CardSet:
    """The king and queen of ``suit``."""
    return 1 << card(suit, KING) | 1 << card(suit, QUEEN)


def belote_suits(hand: CardSet, trump: Trump) -> tuple[int, ...]:
    """Suits in which ``hand`` holds a belote under ``trump``."""
    return tuple(s for s in belote_suits_of(trump) if hand & pair_mask(s) == pair_mask(s))


def belote_cards(hand: CardSet, trump: Trump) -> CardSet:
    """Every card of ``hand`` that belongs to a belote pair under ``trump``."""
    out = 0
    for s in belote_suits_of(trump):
        pair = pair_mask(s)
        if hand & pair == pair:
            out |= pair
    return out
