"""expert-v2's solver: the functions of ``coinche.bots.solver`` of commit 023e446 on the C
module of that commit (``_dds``, built from this folder's ``dds.c``), frozen with the
baseline so that it searches, and counts its work, as when it was frozen.
"""

from __future__ import annotations

from ...solver.position import Position
from . import _dds

__all__ = ["Position", "can_reach", "can_sweep", "last_nodes", "legal_cards", "move_values", "solve"]


def _args(
    pos: Position,
) -> tuple[tuple[int, int, int, int], int, int, tuple[int, ...], bool, bool, int, int, int | None]:
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
    return _dds.legal_cards(*_args(pos))


def solve(pos: Position, team: int) -> int:
    """Card points not yet won (the current trick's cards, the cards still held, the
    last-trick bonus and the sweep bonus when earned) that ``team`` secures with perfect
    play by both sides."""
    return _dds.solve(*_args(pos), team)


def can_reach(pos: Position, team: int, target: int) -> bool:
    """``solve(pos, team) >= target``, decided by one null-window search (much faster)."""
    return _dds.can_reach(*_args(pos), team, target)


def can_sweep(pos: Position, team: int, seat: int | None = None) -> bool:
    """Can ``team`` win every remaining trick (the current one included)? With ``seat``
    (a seat of ``team``): can that seat alone win them all, its partner winning none (the
    générale)."""
    return _dds.can_sweep(*_args(pos), team, seat)


def move_values(pos: Position, team: int) -> dict[int, int]:
    """For each legal card of the player to move: ``solve`` after playing it, on the scale
    of ``solve(pos, team)`` (so the best card of ``team``'s player has the value of
    ``solve``)."""
    return _dds.move_values(*_args(pos), team)


def last_nodes() -> int:
    """Trick starts visited by the last call into the C solver (for benchmarks)."""
    return _dds.last_nodes()
