"""Inference from the play: what the cards the other seats chose say of the cards they hold.

The sampler (``bots.sampling``) deals the unseen cards consistent with the hard facts
(voids, failures to overtrump, belote). Beyond those, a card played is a choice, and the
project's own players make it by rules (``bots.confirmed``'s text names them): win a trick
the opponents hold with the master card when you can, keep master cards when discarding,
the taker draws trumps with the master trump, cash side masters. A sampled deal in which a
seat held a card that would have made its observed play break such a rule explains that
play less well, by a factor self-play measured (``scripts/fit_play_model.py``, shipped as
``data/play_model.json``).

Each play becomes a ``Clue``: the rule, the seat, and the cards whose holding at the time
would have made the play a break of it. Checking a sampled deal is then one AND per clue.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Final

from .....engine.cards import ALL_TRUMP, FULL_DECK, NO_TRUMP, SUIT_MASKS, CardSet
from .....engine.deal import View
from .....engine.play import TrumpTables, tables

DATA_FILE: Final = "data/play_model.json"

RULES: Final = ("win_with_master", "discard_keeps_master", "taker_draws_trumps", "lead_side_master")
"""The rules of play the model knows, in the order of the data file."""


@dataclass(frozen=True)
class Clue:
    """One observed play: had ``seat`` held any of ``cards`` when it played, the play would
    have broken ``rule``."""

    rule: str
    seat: int
    cards: CardSet
    index: int
    """The play's place in the deal's card play (0 for the first card)."""


def _master(suit_unplayed: CardSet, tt: TrumpTables) -> CardSet:
    """The master card of a suit (as a one-card set) among its unplayed cards."""
    for c in range(32):
        if suit_unplayed >> c & 1 and not tt.above[c] & suit_unplayed:
            return 1 << c
    return 0


def clues(view: View) -> list[Clue]:
    """The clues of every card the other seats played so far (the trick in progress too)."""
    contract = view.contract
    if contract is None:
        return []
    trump = contract.trump
    tt = tables(trump, view.rules.ta_values == "ffb")
    trump_suit = trump if 0 <= trump < NO_TRUMP else -1
    tricks = [(t.leader, t.cards) for t in view.tricks]
    if view.trick:
        tricks.append((view.trick_leader, view.trick))
    # Cards each seat played from each point on: a clue naming a card the seat played later
    # is certain (the seat held it), the same for every sampled deal: no information.
    order: list[tuple[int, int]] = []
    for leader, cards in tricks:
        for i, c in enumerate(cards):
            order.append(((leader + i) & 3, c))
    later = [0, 0, 0, 0]
    later_at: list[list[int]] = []
    for p, c in reversed(order):
        later_at.append(later.copy())
        later[p] |= 1 << c
    later_at.reverse()
    unplayed_now = FULL_DECK
    for _, c in order:
        unplayed_now &= ~(1 << c)

    out: list[Clue] = []
    unplayed = FULL_DECK
    k = 0
    for number, (leader, cards) in enumerate(tricks):
        win = -1
        for i, c in enumerate(cards):
            p = (leader + i) & 3
            after = later_at[k][p]
            k += 1
            if p != view.seat:
                found = _clue(view, tt, trump_suit, p, c, i, cards, win, leader, unplayed, number)
                if found is not None:
                    rule, trigger = found
                    trigger &= ~(1 << c)
                    if trigger and not trigger & after:
                        trigger &= unplayed_now
                        if trigger:
                            out.append(Clue(rule, p, trigger, k - 1))
            if win < 0 or tt.beats(c, cards[win]):
                win = i
            unplayed &= ~(1 << c)
    return out


def _clue(
    view: View,
    tt: TrumpTables,
    trump_suit: int,
    p: int,
    c: int,
    i: int,
    cards: Sequence[int],
    win: int,
    leader: int,
    unplayed: CardSet,
    number: int,
) -> tuple[str, CardSet] | None:
    """The rule a play may break and the cards that would have made it break it."""
    contract = view.contract
    assert contract is not None
    suit = c >> 3
    if i == 0:
        if p == contract.taker and trump_suit >= 0 and suit != trump_suit and number < 3:
            master = _master(unplayed & SUIT_MASKS[trump_suit], tt)
            return ("taker_draws_trumps", master) if master else None
        if contract.trump == ALL_TRUMP:
            return None
        masters = 0
        for s in range(4):
            if s != suit and s != trump_suit:
                masters |= _master(unplayed & SUIT_MASKS[s], tt)
        if _master(unplayed & SUIT_MASKS[suit], tt) >> c & 1 or suit == trump_suit:
            return None  # it led a master (or a trump): no rule broken whatever it held
        return ("lead_side_master", masters) if masters else None
    led = cards[0] >> 3
    winner_seat = (leader + win) & 3
    if suit == led:
        # Followed suit without winning a trick the opponents hold, in a plain suit.
        if winner_seat & 1 == p & 1 or led == trump_suit or tt.beats(c, cards[win]):
            return None
        if cards[win] >> 3 != led:
            return None  # already ruffed: the master of the suit would not win
        master = _master(unplayed & SUIT_MASKS[led], tt)
        if master and tt.beats(master.bit_length() - 1, cards[win]):
            return "win_with_master", master
        return None
    if suit != trump_suit:
        # A discard: from a suit whose master it holds.
        master = _master(unplayed & SUIT_MASKS[suit], tt)
        return ("discard_keeps_master", master) if master else None
    return None


@dataclass(frozen=True)
class PlayModel:
    """Per rule, the factor by which a sampled deal that would make a play break the rule
    explains it (below 1: less well; 1: the rule says nothing)."""

    ratios: dict[str, float]
    meta: dict[str, object]

    def likelihood(self, found: Sequence[Clue], hands: Sequence[CardSet]) -> float:
        """How well a deal (the hands still held) explains the clues, up to a constant."""
        w = 1.0
        for clue in found:
            if hands[clue.seat] & clue.cards:
                w *= self.ratios.get(clue.rule, 1.0)
        return w


def parse_play_model(raw: dict[str, object]) -> PlayModel:
    ratios = raw.get("ratios", {})
    meta = raw.get("meta", {})
    if not isinstance(ratios, dict) or not isinstance(meta, dict):
        raise ValueError("play model: 'ratios' and 'meta' must be objects")
    return PlayModel({str(k): min(max(float(v), 0.02), 3.0) for k, v in ratios.items()}, meta)


@cache
def play_model() -> PlayModel:
    """The shipped model, read once."""
    text = resources.files("coinche.bots.baselines.expert_v2").joinpath(DATA_FILE).read_text(encoding="utf-8")
    return parse_play_model(json.loads(text))
