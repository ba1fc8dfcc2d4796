"""Sampling the hidden hands: deals consistent with everything one seat has seen.

The expert plays perfect-information Monte Carlo: it deals the unseen cards among the
other seats many times, each deal consistent with the constraints the play has revealed
(a seat that failed to follow suit holds none of it, a seat that announced belote holds
the other card...), and scores candidate actions on those deals with the solver.
``deal_unseen`` is the dealing step, kept fast and simple: cards with the fewest
possible holders are placed first, each at random among the seats that may still take it,
in proportion to their free places; a dead end (rare) restarts the draw.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..engine.cards import ALL_TRUMP, FULL_DECK, KING, NO_TRUMP, QUEEN, SUIT_MASKS, CardSet, card, card_list
from ..engine.deal import View
from ..engine.play import TrumpTables, tables


@dataclass(frozen=True)
class Constraints:
    """What is known of the hidden hands, from one seat's point of view."""

    seat: int
    """The observing seat (its hand is known)."""
    hands: tuple[CardSet, ...]
    """Cards known to be in each hand now: the seat's own hand, plus cards of other seats
    revealed by shown melds or an announced belote and not yet played."""
    sizes: tuple[int, ...]
    """How many cards each seat holds now."""
    forbidden: tuple[CardSet, ...]
    """Cards each seat cannot hold (voids and failures to overtrump)."""
    unseen: CardSet
    """Cards not played and not known: what remains to be dealt."""


def constraints_from_view(view: View) -> Constraints:
    """Everything certain about the hidden hands that ``view`` reveals.

    Only sure facts are used (what the rules of RULES.md section 3 force): a card that did
    not follow suit shows a void, a discard when trumping was compulsory shows no trump, a
    trump that did not beat the trick when overtrumping was compulsory shows no higher trump
    (in TA: no higher card of the suit led). Belote announcements and shown melds place
    cards in hands.
    """
    seat = view.seat
    forbidden = [0, 0, 0, 0]
    known = [0, 0, 0, 0]
    known[seat] = view.hand
    played = 0
    contract = view.contract
    if contract is not None:
        tt = tables(contract.trump, view.rules.ta_values == "ffb")
        undertrump_forced = view.rules.undertrump == "forced"
        tricks = [(t.leader, t.cards) for t in view.tricks]
        if view.trick:
            tricks.append((view.trick_leader, view.trick))
        for leader, cards in tricks:
            _infer_trick(leader, cards, tt, undertrump_forced, forbidden)
            for c in cards:
                played |= 1 << c
        for b in view.belotes:
            if b.at == "belote":
                pair = 1 << card(b.suit, KING) | 1 << card(b.suit, QUEEN)
                known[b.seat] |= pair & ~played
        for s, melds in enumerate(view.shown_melds):
            for m in melds:
                known[s] |= m.cards & ~played
    for s in range(4):
        if s != seat:
            known[s] &= ~known[seat]
    unseen = FULL_DECK & ~played & ~(known[0] | known[1] | known[2] | known[3])
    forbidden[seat] = FULL_DECK & ~view.hand
    return Constraints(seat, tuple(known), tuple(view.hand_sizes), tuple(forbidden), unseen)


def _infer_trick(
    leader: int, cards: Sequence[int], tt: TrumpTables, undertrump_forced: bool, forbidden: list[int]
) -> None:
    """Add to ``forbidden`` what each card after the lead proves its player lacked."""
    trump = tt.trump
    led = cards[0] >> 3
    win, win_idx = cards[0], 0
    for i in range(1, len(cards)):
        c = cards[i]
        p = (leader + i) & 3
        partner_winning = (leader + win_idx) & 1 == p & 1
        if c >> 3 != led:
            forbidden[p] |= SUIT_MASKS[led]
        if trump == ALL_TRUMP:
            if c >> 3 == led and not tt.above[win] >> c & 1:
                forbidden[p] |= tt.above[win]
        elif trump != NO_TRUMP:
            trumps = SUIT_MASKS[trump]
            c_trump = c >> 3 == trump
            if led == trump:
                if not c_trump:
                    forbidden[p] |= trumps
                elif not tt.above[win] >> c & 1:
                    forbidden[p] |= tt.above[win]
            elif c >> 3 != led and not partner_winning:
                win_trump = win >> 3 == trump
                if not win_trump and not c_trump:
                    forbidden[p] |= trumps  # had to cut
                elif win_trump and c_trump and not tt.above[win] >> c & 1:
                    forbidden[p] |= tt.above[win]  # had to overtrump
                elif win_trump and not c_trump:
                    # A discard over an opponent's trump: no higher trump, and with a forced
                    # undertrump no trump at all.
                    forbidden[p] |= trumps if undertrump_forced else tt.above[win]
        if tt.beats(c, win):
            win, win_idx = c, i


def deal_unseen(c: Constraints, rng: random.Random, tries: int = 50) -> tuple[CardSet, ...] | None:
    """One random deal of ``c.unseen`` to the seats, honouring sizes and forbidden cards;
    None when the constraints seem contradictory (no deal found in ``tries`` draws)."""
    need = [c.sizes[s] - c.hands[s].bit_count() for s in range(4)]
    if sum(need) != c.unseen.bit_count() or min(need) < 0:
        return None
    cards = card_list(c.unseen)
    allowed = {x: [s for s in range(4) if need[s] and not c.forbidden[s] >> x & 1] for x in cards}
    order = sorted(cards, key=lambda x: len(allowed[x]))
    for _ in range(tries):
        free = need.copy()
        hands = list(c.hands)
        for x in order:
            seats = [s for s in allowed[x] if free[s]]
            if not seats:
                break
            if len(seats) == 1:
                s = seats[0]
            else:
                r = rng.randrange(sum(free[s] for s in seats))
                for s in seats:
                    r -= free[s]
                    if r < 0:
                        break
            hands[s] |= 1 << x
            free[s] -= 1
        else:
            return tuple(hands)
    return None


def sample_deals(c: Constraints, n: int, rng: random.Random) -> list[tuple[CardSet, ...]]:
    """Up to ``n`` deals; fewer only when the constraints are (nearly) contradictory."""
    out = []
    for _ in range(n):
        hands = deal_unseen(c, rng)
        if hands is None:
            break
        out.append(hands)
    return out


def relaxed(c: Constraints) -> Constraints:
    """The same constraints without the inferred forbidden cards: the fallback when the
    inferences contradict each other (an opponent who misplayed on purpose)."""
    return Constraints(c.seat, c.hands, c.sizes, (0, 0, 0, 0), c.unseen)


def normalise(weights: Sequence[float]) -> list[float]:
    total = sum(weights)
    if total <= 0:
        return [1.0 / len(weights)] * len(weights) if weights else []
    return [w / total for w in weights]
