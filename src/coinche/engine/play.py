"""Card play: which cards are legal (RULES.md section 3) and who wins a trick.

Everything works on card-set bitmasks with tables computed once per trump mode, so a
legal-move mask costs a handful of integer operations.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .cards import (
    ALL_TRUMP,
    NO_TRUMP,
    SUIT_CHARS,
    SUIT_MASKS,
    TRUMPS,
    Card,
    CardSet,
    Trump,
    above_table,
    card_list,
    card_str,
    points_table,
    strength,
)
from .errors import IllegalAction


@dataclass(frozen=True)
class TrumpTables:
    """Precomputed facts about the 32 cards under one trump mode."""

    trump: Trump
    points: tuple[int, ...]
    above: tuple[CardSet, ...]
    """For each card, the cards of its suit that beat it."""
    power: tuple[int, ...]
    """Strength within a suit, +8 for trumps: a card beats the winner of a trick when it
    is of the winner's suit and stronger, or a trump over a non-trump."""
    trump_mask: CardSet
    """Cards that can cut: the trump suit in a suit contract, none at SA or TA."""
    beaten_by: tuple[CardSet, ...] = ()
    """For each card, every card that beats it in a trick it is winning: ``beats`` as a
    table, for the deal's hot path (one look-up per card played)."""

    def __post_init__(self) -> None:
        if not self.beaten_by:
            table = tuple(sum(1 << c for c in range(32) if self.beats(c, w)) for w in range(32))
            object.__setattr__(self, "beaten_by", table)

    def beats(self, c: Card, winner: Card) -> bool:
        """Whether ``c`` takes a trick that ``winner`` is winning: the one rule of it."""
        if c >> 3 == winner >> 3:
            return self.power[c] > self.power[winner]
        return bool(self.trump_mask >> c & 1) and not self.trump_mask >> winner & 1


def trick_winner(cards: Sequence[Card], tt: TrumpTables) -> int:
    """Index of the card winning ``cards`` (a trick so far, led first); -1 when empty.
    The one place that decides a trick: everything else asks this or ``TrumpTables.beats``."""
    if not cards:
        return -1
    best = 0
    for i in range(1, len(cards)):
        if tt.beats(cards[i], cards[best]):
            best = i
    return best


def _tables(trump: Trump, ffb: bool) -> TrumpTables:
    tm = SUIT_MASKS[trump] if trump < NO_TRUMP else 0
    power = tuple(strength(c, trump) + (8 if tm >> c & 1 else 0) for c in range(32))
    return TrumpTables(trump, points_table(trump, ffb), above_table(trump), power, tm)


_TABLES: Final = {(t, ffb): _tables(t, ffb) for t in TRUMPS for ffb in (False, True)}


def tables(trump: Trump, ffb_ta: bool = False) -> TrumpTables:
    return _TABLES[trump, ffb_ta and trump == ALL_TRUMP]


def legal_mask(
    hand: CardSet,
    trick: Sequence[Card],
    winner: Card,
    partner_winning: bool,
    tt: TrumpTables,
    undertrump_forced: bool,
) -> CardSet:
    """The cards of ``hand`` that may be played on ``trick`` (cards so far, led first),
    whose currently winning card is ``winner``."""
    if not trick:
        return hand
    led = trick[0] >> 3
    trump = tt.trump
    follow = hand & SUIT_MASKS[led]
    if trump == NO_TRUMP:
        return follow or hand
    if trump == ALL_TRUMP:
        if not follow:
            return hand
        return (follow & tt.above[winner]) or follow
    trumps = hand & tt.trump_mask
    if led == trump:
        if not trumps:
            return hand
        return (trumps & tt.above[winner]) or trumps
    if follow:
        return follow
    if partner_winning or not trumps:
        return hand
    if tt.trump_mask >> winner & 1:
        over = trumps & tt.above[winner]
        if over:
            return over
        return trumps if undertrump_forced else hand
    return trumps


def explain_illegal(
    c: Card,
    hand: CardSet,
    trick: Sequence[Card],
    winner: Card,
    partner_winning: bool,
    tt: TrumpTables,
    undertrump_forced: bool,
) -> IllegalAction:
    """The error for playing ``c`` when it is not in ``legal_mask``: which rule it breaks."""
    name = card_str(c)
    if not hand >> c & 1:
        return IllegalAction("not_in_hand", card=name)
    led = trick[0] >> 3
    follow = hand & SUIT_MASKS[led]
    trump = tt.trump

    def cards(mask: CardSet) -> str:
        return " ".join(card_str(x) for x in sorted(card_list(mask), key=lambda x: -tt.power[x]))

    if follow and c >> 3 != led:
        return IllegalAction("follow_suit", card=name, suit=SUIT_CHARS[led], cards=cards(follow))
    if trump == ALL_TRUMP or (trump < NO_TRUMP and led == trump):
        over = (follow if trump == ALL_TRUMP else hand & tt.trump_mask) & tt.above[winner]
        return IllegalAction("must_go_higher", card=name, winner=card_str(winner), cards=cards(over))
    trumps = hand & tt.trump_mask
    if tt.trump_mask >> winner & 1:
        over = trumps & tt.above[winner]
        if over:
            return IllegalAction("must_overtrump", card=name, winner=card_str(winner), cards=cards(over))
        return IllegalAction("must_undertrump", card=name, winner=card_str(winner), cards=cards(trumps))
    return IllegalAction("must_trump", card=name, suit=SUIT_CHARS[led], cards=cards(trumps))
