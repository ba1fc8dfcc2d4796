"""Melds (annonces): squares and runs, their detection, choice and comparison.

RULES.md section 4 with interpretations I-3, I-4, I-5, I-9 and I-10. Every meld that can
exist is one of 66 fixed card patterns (6 squares, and 60 runs of 3, 4 or 5 cards), built
once at import as interned ``Meld`` objects, so detection is a handful of mask tests and
the best disjoint choice of runs in a suit is a table lookup on the suit's 8-bit pattern.

A run of 6, 7 or 8 cards is not a pattern of its own: it scores as a cent (I-3), which
is one of the 5-card patterns, and its remaining cards may make another meld.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import Final

from coinche.engine.cards import (
    ACE,
    JACK,
    KING,
    NINE,
    QUEEN,
    RANK_CHARS,
    SUITS,
    TEN,
    Card,
    CardSet,
    Trump,
    card,
    card_str,
    cards_of,
    parse_card,
)

from .errors import NotAMeld, short_repr
from .messages import Message

CARRE: Final = "carre"
TIERCE: Final = "tierce"
CINQUANTE: Final = "cinquante"
CENT: Final = "cent"
KINDS: Final = (CARRE, TIERCE, CINQUANTE, CENT)

# Run kind by length and back; a run longer than 5 is represented by a cent (I-3).
RUN_KIND_BY_LENGTH: Final = {3: TIERCE, 4: CINQUANTE, 5: CENT}
RUN_LENGTH_BY_KIND: Final = {kind: n for n, kind in RUN_KIND_BY_LENGTH.items()}
RUN_POINTS: Final = {TIERCE: 20, CINQUANTE: 50, CENT: 100}

# Square points by rank; ranks absent here (7 and 8) make no meld.
SQUARE_POINTS: Final = {JACK: 200, NINE: 150, ACE: 100, TEN: 100, KING: 100, QUEEN: 100}
# Order among squares of equal points (I-4: A > 10 > K > Q); J and 9 differ by points.
_SQUARE_ORDER: Final = {QUEEN: 0, KING: 1, TEN: 2, ACE: 3, NINE: 4, JACK: 5}
# Squares strongest first, for a stable listing order.
_SQUARE_RANKS_BY_STRENGTH: Final = (JACK, NINE, ACE, TEN, KING, QUEEN)

# Bit r set for each rank r that can make a square (ranks 9..A), used on the AND of the
# four suit bytes of a hand.
_SQUARE_RANK_BITS: Final = sum(1 << r for r in SQUARE_POINTS)
# Lowest card of a possible tierce in each suit: ranks 7..Q (a tierce needs 2 cards above).
_RUN_LOW_BITS: Final = 0x3F3F3F3F
_FOUR_OF_A_RANK: Final = 0x01010101


@dataclass(frozen=True)
class Meld:
    """One meld: a square of a rank or a run of one suit.

    ``cards`` is the set of cards making it (a run of 6+ cards: only its highest five,
    I-3). ``top`` is, for a run, its highest card in sequence order A K Q J 10 9 8 7,
    and for a square the card of its rank in spades, so a meld is named by ``top``.
    """

    kind: str
    cards: CardSet
    top: Card
    points: int

    @property
    def name(self) -> str:
        """Record notation: ``tierce AH``, ``cent AS``, ``carre J``."""
        if self.kind == CARRE:
            return f"{CARRE} {RANK_CHARS[self.top & 7]}"
        return f"{self.kind} {card_str(self.top)}"

    def is_square(self) -> bool:
        return self.kind == CARRE

    def __str__(self) -> str:
        return self.name


def _square(rank: int) -> Meld:
    return Meld(CARRE, _FOUR_OF_A_RANK << rank, card(0, rank), SQUARE_POINTS[rank])


def _run(suit: int, top_rank: int, length: int) -> Meld:
    kind = RUN_KIND_BY_LENGTH[length]
    low = top_rank - length + 1
    cards = ((1 << length) - 1) << (suit * 8 + low)
    return Meld(kind, cards, card(suit, top_rank), RUN_POINTS[kind])


SQUARES: Final[tuple[Meld, ...]] = tuple(_square(r) for r in _SQUARE_RANKS_BY_STRENGTH)
_SQUARE_BY_RANK: Final = {m.top & 7: m for m in SQUARES}

# Every run pattern, longest first, then by top card (A first), then by suit.
RUNS: Final[tuple[Meld, ...]] = tuple(_run(s, top, n) for n in (5, 4, 3) for top in range(7, n - 2, -1) for s in SUITS)

ALL_MELDS: Final[tuple[Meld, ...]] = SQUARES + RUNS
"""The 66 possible melds, strongest first ignoring trump: the listing order of hand_melds."""

_MELD_BY_NAME: Final = {m.name: m for m in ALL_MELDS}
_MELD_SET: Final = frozenset(ALL_MELDS)


@cache
def _suit_best_runs(pattern: int) -> tuple[int, tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
    """Best disjoint runs in one suit's 8-bit ``pattern``: (points, sorted keys, runs).

    Runs are (top rank, length). Candidates compare by points, then by their run keys
    (points, top rank) sorted strongest first; the highest held card is either left out
    or the top of a run, which makes this recursion exhaustive. Fixed-length windows
    with the top-first choice give I-3: a run of 6+ yields a cent on its highest five.
    """
    if pattern == 0:
        return (0, (), ())
    top = pattern.bit_length() - 1
    best = _suit_best_runs(pattern & ~(1 << top))
    for n in (3, 4, 5):
        low = top - n + 1
        if low < 0:
            break
        window = ((1 << n) - 1) << low
        if (pattern & window) != window:
            break
        pts, keys, runs = _suit_best_runs(pattern & ~window)
        points = RUN_POINTS[RUN_KIND_BY_LENGTH[n]]
        cand = (
            pts + points,
            tuple(sorted((*keys, (points, top)), reverse=True)),
            ((top, n), *runs),
        )
        if cand[:2] > best[:2]:
            best = cand
    return best


_RUN_BY_PLACE: Final = {(m.top, RUN_LENGTH_BY_KIND[m.kind]): m for m in RUNS}

# _SUIT_BEST[suit][pattern]: the best disjoint runs of that suit, as interned Melds.
_SUIT_BEST: Final[tuple[tuple[tuple[Meld, ...], ...], ...]] = tuple(
    tuple(tuple(_RUN_BY_PLACE[(card(s, top), n)] for top, n in _suit_best_runs(p)[2]) for p in range(256))
    for s in SUITS
)


def parse_meld(text: str) -> Meld:
    """Parse record notation (``tierce AH``, ``carre J``) into the interned ``Meld``."""
    words = text.split()
    if len(words) != 2:
        raise NotAMeld(f"not a meld: {short_repr(text)} (expected a kind and a card, e.g. 'tierce AH' or 'carre J')")
    kind = words[0].lower().replace("é", "e")
    what = words[1].upper()
    if kind == CARRE:
        rank_text = "T" if what == "10" else what
        if len(rank_text) != 1 or rank_text not in RANK_CHARS:
            raise NotAMeld(
                f"not a meld: {short_repr(text)} (a square is named by its rank, 7 8 9 T J Q K A, e.g. 'carre J')"
            )
        rank = RANK_CHARS.index(rank_text)
        if rank not in _SQUARE_BY_RANK:
            raise NotAMeld(f"not a meld: {short_repr(text)} (four 7s or four 8s score nothing)")
        return _SQUARE_BY_RANK[rank]
    if kind not in RUN_LENGTH_BY_KIND:
        raise NotAMeld(
            f"not a meld: {short_repr(text)} (unknown kind {short_repr(words[0])}; expected {', '.join(KINDS)})"
        )
    try:
        top = parse_card(what)
    except ValueError as exc:
        raise NotAMeld(f"not a meld: {short_repr(text)} ({exc})") from None
    n = RUN_LENGTH_BY_KIND[kind]
    if (top & 7) < n - 1:
        raise NotAMeld(
            f"not a meld: {short_repr(text)} (a {kind} is {n} cards down from its top card; "
            f"{card_str(top)} has only {top & 7} below it)"
        )
    return _MELD_BY_NAME[f"{kind} {card_str(top)}"]


def hand_melds(hand: CardSet) -> list[Meld]:
    """Every meld the hand can form, overlapping ones included (what a player may declare).

    A run of 5 also yields its tierces and cinquantes; a run of 6+ yields a cent for each
    5 consecutive cards of it. Listed strongest first, ignoring trump.
    """
    return [m for m in ALL_MELDS if (hand & m.cards) == m.cards]


def is_valid_declaration(hand: CardSet, melds: Sequence[Meld]) -> str | None:
    """None if ``melds`` may be declared from ``hand``; otherwise a one-line reason."""
    problem = declaration_problem(hand, melds)
    return None if problem is None else problem.text


def declaration_problem(hand: CardSet, melds: Sequence[Meld]) -> Message | None:
    """None if ``melds`` may be declared from ``hand``; otherwise why not.

    Checks only that each meld is a real meld held in the hand and that no card counts
    in two melds (RULES.md section 4); declaring fewer melds than held is allowed.
    """
    used = 0
    for m in melds:
        if m not in _MELD_SET:
            return Message.of("meld.not_a_meld", meld=short_repr(m))
        if (hand & m.cards) != m.cards:
            return Message.of("meld.not_in_hand", meld=m.name)
        shared = used & m.cards
        if shared:
            return Message.of("meld.card_twice", card=card_str(next(cards_of(shared))))
        used |= m.cards
    return None


def meld_key(meld: Meld, trump: Trump) -> tuple[int, ...]:
    """Comparison key, bigger is better; equal keys tie (RULES.md section 4, I-4).

    Squares: (1, points, A > 10 > K > Q order). Runs: (0, points as length category,
    top rank in sequence order, 1 for a run of the trump suit in a suit contract).
    """
    if meld.kind == CARRE:
        return (1, meld.points, _SQUARE_ORDER[meld.top & 7], 0)
    trump_run = 1 if trump < 4 and meld.top >> 3 == trump else 0
    return (0, meld.points, meld.top & 7, trump_run)


def best_meld(melds: Sequence[Meld], trump: Trump) -> Meld | None:
    """The meld with the biggest key (the first one on a tie), None for no meld."""
    best: Meld | None = None
    best_key: tuple[int, ...] = ()
    for m in melds:
        k = meld_key(m, trump)
        if best is None or k > best_key:
            best, best_key = m, k
    return best


def compare_teams(team0: Sequence[Meld], team1: Sequence[Meld], trump: Trump) -> int | None:
    """The team (0 or 1) whose best meld wins; None if neither has one or they tie (I-5)."""
    b0 = best_meld(team0, trump)
    b1 = best_meld(team1, trump)
    if b0 is None:
        return None if b1 is None else 1
    if b1 is None:
        return 0
    k0 = meld_key(b0, trump)
    k1 = meld_key(b1, trump)
    if k0 == k1:
        return None
    return 0 if k0 > k1 else 1


def melds_points(melds: Sequence[Meld]) -> int:
    return sum(m.points for m in melds)


def _runs_of(hand: CardSet) -> list[Meld]:
    """The best disjoint runs of a hand: each suit is independent, so one lookup a suit."""
    return [
        *_SUIT_BEST[0][hand & 0xFF],
        *_SUIT_BEST[1][hand >> 8 & 0xFF],
        *_SUIT_BEST[2][hand >> 16 & 0xFF],
        *_SUIT_BEST[3][hand >> 24 & 0xFF],
    ]


def _choice_key(melds: list[Meld], trump: Trump) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """I-9 order of meld sets: points, then meld keys strongest first (best meld first)."""
    keys = sorted((meld_key(m, trump) for m in melds), reverse=True)
    return (sum(m.points for m in melds), tuple(keys))


def declaration_choices(best: Sequence[Meld]) -> list[tuple[Meld, ...]]:
    """What a player holding the melds ``best`` may declare: every subset of them, all of
    them first and nothing last (``DECLARE_BASE + k`` declares the ``k``-th)."""
    return [c for n in range(len(best), -1, -1) for c in combinations(best, n)]


def best_melds(hand: CardSet, trump: Trump) -> tuple[Meld, ...]:
    """The melds a player holding ``hand`` scores when none were recorded (I-9, I-3).

    The disjoint set with the most points; at equal points the one whose best meld
    ranks higher, then the next best, and so on. That order picks one set: squares
    differ by rank, and within a suit equal run keys mean equal runs. Strongest first.
    """
    squares = hand & hand >> 8 & hand >> 16 & hand >> 24 & _SQUARE_RANK_BITS
    if not squares:
        if not hand & hand >> 1 & hand >> 2 & _RUN_LOW_BITS:
            return ()
        chosen = _runs_of(hand)
    else:
        # A square may be worth leaving out for runs that need its cards, so try each
        # subset of the held squares (at most two in an 8-card hand) with the best runs
        # of the remaining cards; runs per suit are optimal and independent.
        held = [_SQUARE_BY_RANK[r] for r in range(8) if squares >> r & 1]
        chosen = []
        chosen_key: tuple[int, tuple[tuple[int, ...], ...]] = (-1, ())
        for subset in range(1 << len(held)):
            picked = [m for i, m in enumerate(held) if subset >> i & 1]
            rest = hand
            for m in picked:
                rest &= ~m.cards
            cand = picked + _runs_of(rest)
            k = _choice_key(cand, trump)
            if k > chosen_key:
                chosen, chosen_key = cand, k
    chosen.sort(key=lambda m: meld_key(m, trump), reverse=True)
    return tuple(chosen)


# The most meld points a deal can give. Squares are worth more per card than runs (a J
# 50 a card, a 9 37.5, the others 25; a cent 20 a card, a run of 3 or 4 less) and the 7s
# and 8s make no square, so the best hand holds the two best squares (J and 9: 350 on its
# 8 cards), the best team the four best squares (550), and the best deal all six (750, the
# remaining hand holding the 7s and 8s, which make no run without a 9). Giving up a square
# for runs never pays: the four 9s in tierces 7-8-9 score 80 for the square's 150.
_SQUARES_BEST_FIRST: Final = sorted((m.points for m in SQUARES), reverse=True)
MAX_HAND_MELDS: Final = sum(_SQUARES_BEST_FIRST[:2])
"""The most meld points one hand holds (two squares: 350)."""
MAX_TEAM_MELDS: Final = sum(_SQUARES_BEST_FIRST[:4])
"""The most meld points the two hands of one team hold (550)."""
MAX_DEAL_MELDS: Final = sum(_SQUARES_BEST_FIRST)
"""The most meld points the four hands of a deal hold (750)."""
