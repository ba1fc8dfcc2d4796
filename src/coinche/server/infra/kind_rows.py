"""A table's kind as its row in ``tables`` stores it, and back: the one place that knows
which columns each kind of table (``table/kinds.py``) fills."""

from __future__ import annotations

from typing import Any

from ..table.kinds import (
    DailyChallengeTable,
    FriendsTable,
    LadderTable,
    QuickPlayTable,
    SoloTable,
    TableKind,
    TournamentTable,
)
from .db import aware
from .rows.tables import TableRow


def kind_columns(kind: TableKind) -> dict[str, Any]:
    """The ``tables`` columns that say what kind of table a row is."""
    if isinstance(kind, FriendsTable):
        return {
            "code": kind.code,
            "host": kind.host_player,
            "late_joins": kind.joins_late,
            "idle_clock": kind.clock,
            "club_id": kind.club or None,
            "club_only": kind.club_only,
        }
    if isinstance(kind, QuickPlayTable):
        return {"quick_play": True}
    if isinstance(kind, TournamentTable):
        return {
            "tournament_id": kind.tournament,
            "tournament_round": kind.round,
            "deal_limit": kind.deals,
            "closes_at": kind.closes,
        }
    if isinstance(kind, DailyChallengeTable):
        return {"challenge_day": kind.day}
    if isinstance(kind, LadderTable):
        return {"ladder_match": kind.match, "deal_limit": kind.deals}
    return {}


def kind_of_row(row: TableRow) -> TableKind:
    """The kind of table a row of ``tables`` is."""
    if row.code is not None:
        return FriendsTable(
            row.code, row.host or "", bool(row.late_joins), bool(row.idle_clock), row.club_id or "", bool(row.club_only)
        )
    if row.tournament_id is not None:
        closes = None if row.closes_at is None else aware(row.closes_at)
        return TournamentTable(row.tournament_id, row.tournament_round, row.deal_limit or 1, closes)
    if row.challenge_day is not None:
        return DailyChallengeTable(row.challenge_day)
    if row.ladder_match is not None:
        return LadderTable(row.ladder_match, row.deal_limit or 1)
    if row.quick_play:
        return QuickPlayTable()
    return SoloTable()
