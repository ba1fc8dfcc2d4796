"""Cards, suits, trumps and card sets.

A card is an ``int`` from 0 to 31 (``suit * 8 + rank``) and a set of cards is an
``int`` bitmask, as squares and square sets are in python-chess: set operations are
single machine-word operations, which keeps legal-move generation and the solver fast.

Text notation (RULES.md section 1): rank ``7 8 9 T J Q K A`` then suit ``S H D C``,
e.g. ``JH`` is the jack of hearts. Trumps are ``S H D C SA TA``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

from .errors import NotACard, short_repr

Card = int
"""A card, 0..31: ``suit * 8 + rank``."""

CardSet = int
"""A set of cards as a 32-bit mask: bit ``c`` is set when card ``c`` is in the set."""

Trump = int
"""A trump mode: 0..3 a suit (``S H D C``), 4 no trump (``SA``), 5 all trump (``TA``)."""

SPADES: Final = 0
HEARTS: Final = 1
DIAMONDS: Final = 2
CLUBS: Final = 3
SUITS: Final = (SPADES, HEARTS, DIAMONDS, CLUBS)
NO_TRUMP: Final = 4
ALL_TRUMP: Final = 5
TRUMPS: Final = (SPADES, HEARTS, DIAMONDS, CLUBS, NO_TRUMP, ALL_TRUMP)

SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(8)
RANKS: Final = tuple(range(8))

SUIT_CHARS: Final = "SHDC"
RANK_CHARS: Final = "789TJQKA"
TRUMP_NAMES: Final = ("S", "H", "D", "C", "SA", "TA")

FULL_DECK: Final[CardSet] = (1 << 32) - 1
EMPTY: Final[CardSet] = 0
SUIT_MASKS: Final = tuple(0xFF << (8 * s) for s in SUITS)


def card(suit: int, rank: int) -> Card:
    """The card of ``rank`` (0 = seven .. 7 = ace) in ``suit``."""
    return suit * 8 + rank


def suit_of(c: Card) -> int:
    return c >> 3


def rank_of(c: Card) -> int:
    return c & 7


def card_str(c: Card) -> str:
    """``JH`` for the jack of hearts."""
    return RANK_CHARS[c & 7] + SUIT_CHARS[c >> 3]


_CARD_BY_NAME: Final = {card_str(c): c for c in range(32)}


def parse_card(text: str) -> Card:
    """Parse ``JH``, ``TS``, ``7d`` (case-insensitive); ``10S`` is accepted for ``TS``."""
    c = _CARD_BY_NAME.get(text)
    if c is not None:
        return c
    t = text.strip().upper()
    if t.startswith("10"):
        t = "T" + t[2:]
    try:
        return _CARD_BY_NAME[t]
    except KeyError:
        raise NotACard(
            f"not a card: {short_repr(text)} (expected rank 7 8 9 T J Q K A then suit S H D C, e.g. JH)"
        ) from None


def parse_trump(text: str) -> Trump:
    """Parse a trump code ``S H D C SA TA``."""
    try:
        return TRUMP_NAMES.index(text.strip().upper())
    except ValueError:
        raise NotACard(f"not a trump: {short_repr(text)} (expected S, H, D, C, SA or TA)") from None


def bit(c: Card) -> CardSet:
    return 1 << c


def cards_of(mask: CardSet) -> Iterator[Card]:
    """The cards of a set, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


_BYTE_CARDS: Final = tuple(
    tuple(tuple(8 * s + r for r in range(8) if b >> r & 1) for b in range(256)) for s in range(4)
)


def card_list(mask: CardSet) -> list[Card]:
    """The cards of a set as a list, lowest first (the hot-path variant of ``cards_of``:
    four table look-ups, one per suit byte)."""
    b = _BYTE_CARDS
    return [
        *b[0][mask & 255],
        *b[1][mask >> 8 & 255],
        *b[2][mask >> 16 & 255],
        *b[3][mask >> 24 & 255],
    ]


def count(mask: CardSet) -> int:
    return mask.bit_count()


def mask_of(cards: Iterable[Card]) -> CardSet:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def parse_cards(text: str) -> CardSet:
    """Parse a space-separated list of cards into a set; a repeated card is an error."""
    m = 0
    for word in text.split():
        c = parse_card(word)
        if m >> c & 1:
            raise NotACard(f"card {card_str(c)} is listed twice")
        m |= 1 << c
    return m


def cards_str(mask: CardSet, trump: Trump | None = None) -> str:
    """A set as text, grouped by suit, strongest first under ``trump`` (plain order if None)."""
    return " ".join(card_str(c) for c in sorted_cards(mask, trump))


# Strength order of ranks, weakest first, as indexes into RANKS.
PLAIN_ORDER: Final = (SEVEN, EIGHT, NINE, JACK, QUEEN, KING, TEN, ACE)
TRUMP_ORDER: Final = (SEVEN, EIGHT, QUEEN, KING, TEN, ACE, NINE, JACK)
PLAIN_STRENGTH: Final = tuple(PLAIN_ORDER.index(r) for r in RANKS)
TRUMP_STRENGTH: Final = tuple(TRUMP_ORDER.index(r) for r in RANKS)

# Card points by rank (RULES.md section 1).
TRUMP_POINTS: Final = (0, 0, 14, 10, 20, 3, 4, 11)
PLAIN_POINTS: Final = (0, 0, 0, 10, 2, 3, 4, 11)
SA_POINTS: Final = (0, 0, 0, 10, 2, 3, 4, 19)
TA_POINTS: Final = (0, 0, 9, 5, 14, 1, 3, 6)
TA_POINTS_FFB: Final = (0, 0, 9, 5, 13, 2, 3, 6)


def is_trump_card(c: Card, trump: Trump) -> bool:
    """True for a card of the trump suit, and for every card at TA."""
    return trump == ALL_TRUMP or (trump < 4 and c >> 3 == trump)


def strength(c: Card, trump: Trump) -> int:
    """Order of a card inside its own suit under ``trump`` (0 weakest .. 7 strongest)."""
    if is_trump_card(c, trump):
        return TRUMP_STRENGTH[c & 7]
    return PLAIN_STRENGTH[c & 7]


def points_table(trump: Trump, ffb_ta: bool = False) -> tuple[int, ...]:
    """Card points of each of the 32 cards under ``trump``."""
    if trump == NO_TRUMP:
        return tuple(SA_POINTS[c & 7] for c in range(32))
    if trump == ALL_TRUMP:
        table = TA_POINTS_FFB if ffb_ta else TA_POINTS
        return tuple(table[c & 7] for c in range(32))
    return tuple(TRUMP_POINTS[c & 7] if c >> 3 == trump else PLAIN_POINTS[c & 7] for c in range(32))


def above_table(trump: Trump) -> tuple[CardSet, ...]:
    """For each card, the set of cards of its suit that beat it under ``trump``."""
    out = []
    for c in range(32):
        s = strength(c, trump)
        m = 0
        for r in RANKS:
            d = card(c >> 3, r)
            if strength(d, trump) > s:
                m |= 1 << d
        out.append(m)
    return tuple(out)


def sorted_cards(mask: CardSet, trump: Trump | None = None) -> list[Card]:
    """Cards grouped by suit (trump suit first), strongest first within a suit."""
    t = NO_TRUMP if trump is None else trump

    def key(c: Card) -> tuple[int, int]:
        s = c >> 3
        suit_key = -1 if t < 4 and s == t else s
        return (suit_key, -strength(c, t))

    return sorted(cards_of(mask), key=key)
