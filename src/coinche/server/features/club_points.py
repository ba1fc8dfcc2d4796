"""A club's points of the month: every finished tournament of the club ("concours") gives
each of its players points by their pair's place, as French clubs keep a challenge
through the season: 10 to the winners, then 8, 6, 5, 4, 3, 2, and 1 to every pair
further down; pairs sharing a place share its points. The month is the club's (Paris
time), read from each tournament's standings (``Tournaments.standings``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Final

from ..table.days import CLUB_TIME
from ..table.divisions import next_season, season_of, season_start
from .tournaments.model import StandingLine
from .tournaments.runner import Tournaments

PLACE_POINTS: Final = (10, 8, 6, 5, 4, 3, 2)
"""The points of the first seven places; every place after them gives ``LAST_POINTS``."""
LAST_POINTS: Final = 1
MONTH_TOURNAMENTS: Final = 100
"""The most tournaments of one month a club's points count (the latest)."""


def place_points(rank: int) -> int:
    """The points of a pair ranked ``rank`` (from 1)."""
    return PLACE_POINTS[rank - 1] if 1 <= rank <= len(PLACE_POINTS) else LAST_POINTS


@dataclass(frozen=True)
class MonthLine:
    """A player's line of the month: their place (shared on equal points), points, the
    tournaments they played and how many of them they won."""

    rank: int
    player: str
    points: int
    played: int
    won: int


def month_points(standings: Iterable[Sequence[StandingLine]]) -> list[MonthLine]:
    """The month's table from each of its tournaments' standings: most points first, then
    most tournaments won, then most played (a line's players in a pair each get its
    points)."""
    points: dict[str, int] = {}
    played: dict[str, int] = {}
    won: dict[str, int] = {}
    for lines in standings:
        for line in lines:
            for player in line.entry.players:
                points[player] = points.get(player, 0) + place_points(line.rank)
                played[player] = played.get(player, 0) + 1
                won[player] = won.get(player, 0) + (line.rank == 1)
    order = sorted(points, key=lambda p: (-points[p], -won[p], -played[p], p))
    out: list[MonthLine] = []
    for i, player in enumerate(order):
        tied = out and out[-1].points == points[player]
        out.append(MonthLine(out[-1].rank if tied else i + 1, player, points[player], played[player], won[player]))
    return out


def club_month(moment: datetime) -> str:
    """The club's month (``YYYY-MM``, Paris time) of ``moment``."""
    return season_of(moment.astimezone(CLUB_TIME))


class ClubPoints:
    """The clubs' tables of the month. A finished tournament's standings never change, so a
    month's table is kept for the tournaments it was made of: a page asks the database which
    tournaments finished in the month (one small query) and reads their standings again only
    when one more has finished (a club of thirty tournaments a month, its page asked by
    every member)."""

    KEPT: Final = 256
    """Tables kept by a process (the latest asked)."""

    def __init__(self, tournaments: Tournaments) -> None:
        self.tournaments = tournaments
        self._kept: dict[tuple[str, str], tuple[tuple[str, ...], list[MonthLine]]] = {}

    async def month(self, club_id: str, month: str) -> list[MonthLine]:
        """The club's table of ``month`` (``YYYY-MM``): its tournaments finished in it."""
        since = season_start(month, CLUB_TIME).astimezone(UTC)  # the rows' clock (SQLite keeps no zone)
        until = season_start(next_season(month), CLUB_TIME).astimezone(UTC)
        finished = await self.tournaments.finished_of_club(club_id, since, until, MONTH_TOURNAMENTS)
        made_of = tuple(t.id for t in finished)
        key = (club_id, month)
        kept = self._kept.pop(key, None)
        if kept is None or kept[0] != made_of:
            kept = (made_of, month_points([await self.tournaments.standings(t) for t in finished]))
        self._kept[key] = kept
        while len(self._kept) > self.KEPT:
            self._kept.pop(next(iter(self._kept)))
        return kept[1]
