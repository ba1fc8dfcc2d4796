"""The site's leaderboard: the best ``TOP`` accounts by rating among those with at least
``MIN_GAMES`` rated games, and a signed-in person's own place (docs/ratings.md).

The order is the rating's (``Rating.ordinal``, kept in ``player_stats.ordinal``), read
through the index ``ix_player_stats_leaderboard``: the top is the first rows of the index,
a person's place one count of the rows above theirs. Ties go by player id, so every reader
sees one order. Only accounts are listed (a guest has
no name to show); an account deleted has no row in ``accounts`` and is left out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from sqlalchemy import and_, func, or_, select

from ..infra.database import Database
from ..infra.rows.people import AccountRow
from ..infra.rows.ratings import PlayerStatsRow
from ..infra.store import Store
from ..table.ratings import Rating

TOP: Final = 100
"""The places listed."""
MIN_GAMES: Final = 10
"""Rated games an account needs to be ranked."""


@dataclass(frozen=True)
class Place:
    """One line of the leaderboard."""

    place: int
    """1 for the best."""
    name: str
    rating: int
    """The rating as shown (``Rating.display``)."""
    rated_games: int


@dataclass(frozen=True)
class Board:
    """The top and, for a signed-in person, their own line (None: not ranked yet, with
    how many rated games they have)."""

    top: list[Place]
    own: Place | None
    own_games: int


def read_board(store: Store, player: str | None) -> Board:
    """The board as ``player`` (None: a visitor) sees it (blocking)."""
    with store.session() as s:
        rows = s.execute(
            select(AccountRow.name, PlayerStatsRow.mu, PlayerStatsRow.sigma, PlayerStatsRow.rated_games)
            .join(AccountRow, AccountRow.player_id == PlayerStatsRow.player_id)
            .where(PlayerStatsRow.rated_games >= MIN_GAMES)
            .order_by(PlayerStatsRow.ordinal.desc(), PlayerStatsRow.player_id)
            .limit(TOP)
        ).all()
        top = [
            Place(n, name, Rating(mu, sigma).display, games) for n, (name, mu, sigma, games) in enumerate(rows, start=1)
        ]
        own: Place | None = None
        own_games = 0
        if player is not None:
            mine = s.execute(
                select(AccountRow.name, PlayerStatsRow.mu, PlayerStatsRow.sigma, PlayerStatsRow.ordinal)
                .add_columns(PlayerStatsRow.rated_games)
                .join(AccountRow, AccountRow.player_id == PlayerStatsRow.player_id)
                .where(PlayerStatsRow.player_id == player)
            ).first()
            if mine is not None:
                name, mu, sigma, ordinal, own_games = mine
                if own_games >= MIN_GAMES:
                    above = s.scalar(
                        select(func.count())
                        .select_from(PlayerStatsRow)
                        .join(AccountRow, AccountRow.player_id == PlayerStatsRow.player_id)
                        .where(
                            PlayerStatsRow.rated_games >= MIN_GAMES,
                            or_(
                                PlayerStatsRow.ordinal > ordinal,
                                and_(PlayerStatsRow.ordinal == ordinal, PlayerStatsRow.player_id < player),
                            ),
                        )
                    )
                    own = Place((above or 0) + 1, name, Rating(mu, sigma).display, own_games)
    return Board(top, own, own_games)


class Leaderboard:
    """The leaderboard, read on the database's threads."""

    def __init__(self, store: Store, db: Database) -> None:
        self.store = store
        self.db = db

    async def board(self, player: str | None) -> Board:
        return await self.db(read_board, self.store, player)
