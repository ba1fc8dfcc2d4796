"""Double-dummy solver: card points a team secures when all hands are known.

The search runs in the C extension ``_dds`` (``dds.c``); ``reference`` is its pure-Python
twin, slow but plain, which gives the same answers and is used to check it::

    from coinche.bots.solver import Position, solve
    pos = Position.from_deal(deal)           # a Deal in its card-play phase
    solve(pos, team=0)                       # points team 0 takes from here with best play

Values count every point not yet won: the cards of the trick in progress, the cards still
held, the last-trick bonus and, when one team wins every remaining trick, the sweep bonus.
The team counted maximizes them, the other team minimizes them.
"""

from __future__ import annotations

from . import _dds
from .position import Position

__all__ = [
    "Position",
    "PositionArgs",
    "can_reach",
    "can_sweep",
    "last_nodes",
    "legal_cards",
    "move_values",
    "position_args",
    "solve",
]

PositionArgs = tuple[tuple[int, int, int, int], int, int, tuple[int, ...], bool, bool, int, int, int | None]


def position_args(pos: Position) -> PositionArgs:
    """The nine leading arguments of every function of the C module, for ``pos``."""
    return (
        pos.hands,
        pos.trump,
        pos.leader,
        pos.trick,
        pos.undertrump_forced,
        pos.ffb_ta,
        pos.last_trick_bonus,
        pos.sweep_bonus,
        pos.sweep_team,
    )


def legal_cards(pos: Position) -> int:
    """Legal card mask of the player to move (the engine's ``play.legal_mask``)."""
    return _dds.legal_cards(*position_args(pos))


def solve(pos: Position, team: int) -> int:
    """Card points not yet won (the current trick's cards, the cards still held, the
    last-trick bonus and the sweep bonus when earned) that ``team`` secures with perfect
    play by both sides."""
    return _dds.solve(*position_args(pos), team)


def can_reach(pos: Position, team: int, target: int) -> bool:
    """``solve(pos, team) >= target``, decided by one null-window search (much faster)."""
    return _dds.can_reach(*position_args(pos), team, target)


def can_sweep(pos: Position, team: int, seat: int | None = None) -> bool:
    """Can ``team`` win every remaining trick (the current one included)? With ``seat``
    (a seat of ``team``): can that seat alone win them all, its partner winning none (the
    générale)."""
    return _dds.can_sweep(*position_args(pos), team, seat)


def move_values(pos: Position, team: int) -> dict[int, int]:
    """For each legal card of the player to move: ``solve`` after playing it, on the scale
    of ``solve(pos, team)`` (so the best card of ``team``'s player has the value of
    ``solve``)."""
    return _dds.move_values(*position_args(pos), team)


def last_nodes() -> int:
    """Trick starts visited by the last call into the C solver (for benchmarks)."""
    return _dds.last_nodes()
