"""Random double-dummy positions for the solver tests (test_solver.py,
test_solver_exactness.py): a random deal played by random legal cards (engine legality)."""

from __future__ import annotations

import random

from coinche.bots.solver import Position
from coinche.engine.cards import card_list
from coinche.engine.deal import random_hands
from coinche.engine.play import legal_mask, tables, trick_winner


def winner_index(trick: list[int], trump: int, ffb: bool) -> int:
    """Index in ``trick`` of the card winning it so far."""
    return trick_winner(trick, tables(trump, ffb))


def random_position(
    rng: random.Random,
    tricks_left: int,
    *,
    trump: int | None = None,
    in_trick: int | None = None,
    undertrump_forced: bool | None = None,
    sweep: bool | None = None,
    ffb_ta: bool | None = None,
) -> Position:
    """Deal, then play random legal cards (engine legality) until ``tricks_left`` tricks
    remain, plus ``in_trick`` cards (random 0..3 if None) of the current trick. Options left
    at None are drawn at random; ``sweep``: a 90-point sweep bonus when one team won every
    finished trick (``sweep_team`` that team, None before the first trick ends)."""
    hands = list(random_hands(rng))
    trump = rng.randrange(6) if trump is None else trump
    uf = rng.random() < 0.5 if undertrump_forced is None else undertrump_forced
    ffb = rng.random() < 0.5 if ffb_ta is None else ffb_ta
    tt = tables(trump, ffb)
    leader = rng.randrange(4)
    winners: list[int] = []
    trick: list[int] = []
    n_cards = (8 - tricks_left) * 4 + (rng.randrange(4) if in_trick is None else in_trick)
    for _ in range(n_cards):
        seat = (leader + len(trick)) & 3
        if trick:
            w = winner_index(trick, trump, ffb)
            legal = legal_mask(hands[seat], trick, trick[w], (leader + w) & 1 == seat & 1, tt, uf)
        else:
            legal = hands[seat]
        c = rng.choice(card_list(legal))
        hands[seat] &= ~(1 << c)
        trick.append(c)
        if len(trick) == 4:
            leader = (leader + winner_index(trick, trump, ffb)) & 3
            winners.append(leader & 1)
            trick = []
    sweep_bonus, sweep_team = 0, None
    if (rng.random() < 0.3 if sweep is None else sweep) and len(set(winners)) <= 1:
        sweep_bonus = 90
        sweep_team = winners[0] if winners else None
    last = 10 if rng.random() < 0.8 else rng.choice((0, 5, 20))
    return Position(
        (hands[0], hands[1], hands[2], hands[3]), trump, leader, tuple(trick), uf, ffb, last, sweep_bonus, sweep_team
    )


def remaining_total(pos: Position) -> int:
    """Card points still to win plus the last-trick bonus (no sweep bonus)."""
    pts = tables(pos.trump, pos.ffb_ta).points
    cards = [c for h in pos.hands for c in card_list(h)] + list(pos.trick)
    return sum(pts[c] for c in cards) + (pos.last_trick_bonus if cards else 0)
