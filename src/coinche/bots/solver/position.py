"""The position a double-dummy search starts from: every hand open, the trick in progress."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...engine.cards import FULL_DECK, CardSet
from ...engine.deal import Deal, Phase, View

MAX_BONUS = 1000
"""Largest accepted ``last_trick_bonus`` and ``sweep_bonus`` (values fit 16-bit bounds)."""


@dataclass(frozen=True)
class Position:
    """A card-play position with all four hands known (double dummy).

    The player to move is ``(leader + len(trick)) % 4``. After the current trick completes
    every hand holds the same number of cards.
    """

    hands: tuple[int, int, int, int]
    """Cards each seat still holds (masks); seats 0..3 in playing order, team = seat & 1."""
    trump: int
    """0..3 a suit, 4 no trump (SA), 5 all trump (TA)."""
    leader: int
    """Seat that led the current trick (or leads next when the trick is empty)."""
    trick: tuple[int, ...] = ()
    """Cards already played to the current trick, led first (0..3 cards)."""
    undertrump_forced: bool = True
    """``RuleSet.undertrump == "forced"``."""
    ffb_ta: bool = False
    """``RuleSet.ta_values == "ffb"`` (TA jack 13, queen 2)."""
    last_trick_bonus: int = 10
    """Points of the last trick of the deal (dix de der)."""
    sweep_bonus: int = 0
    """Extra points for a team that wins all remaining tricks (federation: 100 - 10)."""
    sweep_team: int | None = None
    """The only team that may earn ``sweep_bonus`` (the one that won every earlier trick);
    None: either team (no trick finished yet)."""

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) & 3

    @classmethod
    def from_deal(cls, deal: Deal) -> Position:
        """The position of a ``Deal`` in its card-play phase."""
        if deal.contract is None or deal.phase is not Phase.PLAY:
            raise ValueError("Position.from_deal needs a deal in its card-play phase")
        return cls.from_view(deal.view(deal.to_move), deal.hands)

    @classmethod
    def from_view(cls, view: View, hands: Sequence[CardSet]) -> Position:
        """The position of a seat's ``view`` in the card-play phase, with ``hands`` (known
        or sampled) for the cards still held."""
        contract = view.contract
        if contract is None or view.phase is not Phase.PLAY:
            raise ValueError("a position needs a deal in its card-play phase")
        rules = view.rules
        sweep_bonus = rules.last_trick_sweep - 10
        sweep_team: int | None = None
        if view.tricks:
            teams = {t.winner & 1 for t in view.tricks}
            if len(teams) == 1:
                sweep_team = teams.pop()
            else:
                sweep_bonus = 0
        return cls(
            hands=(hands[0], hands[1], hands[2], hands[3]),
            trump=contract.trump,
            leader=view.trick_leader,
            trick=view.trick,
            undertrump_forced=rules.undertrump == "forced",
            ffb_ta=rules.ta_values == "ffb",
            last_trick_bonus=10,
            sweep_bonus=max(sweep_bonus, 0),
            sweep_team=sweep_team if sweep_bonus > 0 else None,
        )


def check_position(pos: Position) -> None:
    """Raise ``ValueError`` unless ``pos`` is a consistent position (the C module checks the
    same things on its side)."""
    if len(pos.hands) != 4:
        raise ValueError(f"a position has 4 hands, not {len(pos.hands)}")
    if not 0 <= pos.trump <= 5:
        raise ValueError(f"trump must be 0..5, not {pos.trump}")
    if not 0 <= pos.leader <= 3:
        raise ValueError(f"leader must be a seat 0..3, not {pos.leader}")
    if len(pos.trick) > 3:
        raise ValueError(f"a trick in progress holds 0..3 cards, not {len(pos.trick)}")
    if not 0 <= pos.last_trick_bonus <= MAX_BONUS or not 0 <= pos.sweep_bonus <= MAX_BONUS:
        raise ValueError(f"last_trick_bonus and sweep_bonus must be 0..{MAX_BONUS}")
    if pos.sweep_team not in (None, 0, 1):
        raise ValueError(f"sweep_team must be None, 0 or 1, not {pos.sweep_team}")
    seen = 0
    for h in pos.hands:
        if not 0 <= h <= FULL_DECK:
            raise ValueError(f"a hand must be a 32-bit card mask, not {h}")
        if seen & h:
            raise ValueError("a card is in two hands")
        seen |= h
    for c in pos.trick:
        if not 0 <= c < 32:
            raise ValueError(f"not a card: {c}")
        if seen >> c & 1:
            raise ValueError(f"card {c} of the trick is also held or played twice")
        seen |= 1 << c
    n = len(pos.trick)
    sizes = {pos.hands[s].bit_count() + (1 if (s - pos.leader) & 3 < n else 0) for s in range(4)}
    if len(sizes) != 1:
        raise ValueError("hand sizes are inconsistent: after the trick every hand must hold as many cards")
    if n and sizes.pop() == 0:
        raise ValueError("the player to move has no card")
