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

from ....engine.cards import FULL_DECK, CardSet, card_list
from ....engine.deal import View
from .knowledge import knowledge


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
    """Everything certain about the hidden hands that ``view`` reveals, as ``knowledge``
    reads it (voids, failures to cut or overtrump, belote, shown melds)."""
    k = knowledge(view)
    seat = view.seat
    known = list(k.known)
    known[seat] = view.hand
    forbidden = list(k.excluded)
    forbidden[seat] = FULL_DECK & ~view.hand
    unseen = k.unseen & ~(known[0] | known[1] | known[2] | known[3])
    return Constraints(seat, tuple(known), tuple(view.hand_sizes), tuple(forbidden), unseen)


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


def all_deals(c: Constraints, limit: int) -> list[tuple[CardSet, ...]] | None:
    """Every deal of ``c.unseen`` honouring sizes and forbidden cards, in a fixed order;
    None when there are more than ``limit`` of them (then sample instead)."""
    need = [c.sizes[s] - c.hands[s].bit_count() for s in range(4)]
    if sum(need) != c.unseen.bit_count() or min(need) < 0:
        return []
    cards = card_list(c.unseen)
    allowed = [[s for s in range(4) if need[s] and not c.forbidden[s] >> x & 1] for x in cards]
    order = sorted(range(len(cards)), key=lambda i: (len(allowed[i]), cards[i]))
    out: list[tuple[CardSet, ...]] = []
    hands = list(c.hands)

    def place(k: int) -> bool:
        """Deal the cards from ``order[k]`` on; False once over the limit."""
        if k == len(order):
            out.append(tuple(hands))
            return len(out) <= limit
        i = order[k]
        for s in allowed[i]:
            if need[s]:
                need[s] -= 1
                hands[s] |= 1 << cards[i]
                ok = place(k + 1)
                hands[s] &= ~(1 << cards[i])
                need[s] += 1
                if not ok:
                    return False
        return True

    return out if place(0) else None
