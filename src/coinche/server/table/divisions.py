"""The monthly seasons' rules (docs/seasons.md), as pure functions: which month a moment
belongs to, a newcomer's division from their rating, the points of a game, and who goes
up or down at a season's end.

Divisions are numbered from 1 (the top) to ``DIVISIONS``. In each division the players
are ranked by points, then wins, then fewer games left; a player with fewer than
``MIN_GAMES`` games stays where they are. Of the others, the best fifth (at least one when
two or more are ranked) goes up and the worst fifth goes down; a tie at either line is
decided in the players' favour (everyone tied with the last one up goes up, everyone tied
with the last one who stays, stays).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final, Literal

DIVISIONS: Final = 5
MIN_GAMES: Final = 3
"""Games a player needs in a season to go up or down at its end."""
POINTS: Final = {"won": 3, "lost": 1, "left": -2}
"""A game's season points: won, lost when played to the end, left (a season's points
never go below 0)."""
PLACEMENT: Final = (28.0, 26.0, 24.0, 22.0)
"""The rating (mu) from which a newcomer starts in division 1, 2, 3, 4; below: the last."""
SHARE: Final = 5
"""A fifth of each division goes up, a fifth goes down."""

Move = Literal["up", "down", "stay"]


SEASON_FORMAT: Final = re.compile(r"\d{4}-(0[1-9]|1[0-2])")
"""A season's (a month's) name as an address may give it: ``YYYY-MM``."""


def season_of(moment: datetime) -> str:
    """The season (``YYYY-MM``) of ``moment``, on the server's clock (UTC)."""
    return f"{moment.year:04d}-{moment.month:02d}"


def next_season(season: str) -> str:
    year, month = (int(x) for x in season.split("-"))
    return f"{year + month // 12:04d}-{month % 12 + 1:02d}"


def previous_season(season: str) -> str:
    year, month = (int(x) for x in season.split("-"))
    return f"{year - 1:04d}-12" if month == 1 else f"{year:04d}-{month - 1:02d}"


def season_start(season: str, tz: object) -> datetime:
    year, month = (int(x) for x in season.split("-"))
    return datetime(year, month, 1, tzinfo=tz)  # type: ignore[arg-type]


def placement(mu: float) -> int:
    """A newcomer's division from their rating at their first game of the season."""
    for division, floor in enumerate(PLACEMENT, start=1):
        if mu >= floor:
            return division
    return DIVISIONS


def game_points(points: int, outcome: str) -> int:
    """The season's points after a game ``won``, ``lost`` or ``left``."""
    return max(0, points + POINTS[outcome])


@dataclass(frozen=True)
class Standing:
    """A player's season in a division: points and games."""

    player: str
    points: int
    games: int
    wins: int
    left: int

    def key(self) -> tuple[int, int, int]:
        """Better first when sorted in reverse: points, wins, fewer games left."""
        return (self.points, self.wins, -self.left)


def ranked(standings: Sequence[Standing]) -> list[tuple[int, Standing]]:
    """The division's table: (rank, standing), the best first; ties share a rank, then
    the name's order keeps the table stable."""
    order = sorted(standings, key=lambda s: (tuple(-k for k in s.key()), s.player))
    out: list[tuple[int, Standing]] = []
    for i, s in enumerate(order):
        rank = out[-1][0] if out and out[-1][1].key() == s.key() else i + 1
        out.append((rank, s))
    return out


def zone_size(count: int) -> int:
    """How many go up (and how many go down) of ``count`` ranked players."""
    return 0 if count < 2 else max(1, count // SHARE)


def moves(division: int, standings: Sequence[Standing]) -> dict[str, Move]:
    """Who goes up, down or stays at the season's end in ``division``."""
    out: dict[str, Move] = {s.player: "stay" for s in standings}
    eligible = sorted((s for s in standings if s.games >= MIN_GAMES), key=lambda s: s.key(), reverse=True)
    k = zone_size(len(eligible))
    if k == 0:
        return out
    if division > 1:
        line = eligible[k - 1].key()
        for s in eligible:
            if s.key() >= line:
                out[s.player] = "up"
    if division < DIVISIONS:
        safe = eligible[len(eligible) - k - 1].key()  # the last who stays
        for s in eligible[len(eligible) - k :]:
            if s.key() < safe and out[s.player] == "stay":
                out[s.player] = "down"
    return out


def moved(division: int, move: Move) -> int:
    """The division a player starts the next season in."""
    if move == "up":
        return max(1, division - 1)
    if move == "down":
        return min(DIVISIONS, division + 1)
    return division
