"""The site's leaderboards: the best ``TOP`` accounts by rating among those with at least
``MIN_GAMES`` rated games, and a signed-in person's own place (docs/ratings.md); one board
for the whole site (the site rating, ``player_stats``) and one for each rules profile (the
rating in that profile, ``profile_ratings``: its games only, those rated since migration
0035).

The order is the rating's (``Rating.ordinal``, kept in the rows' ``ordinal``), read
through the index ``ix_player_stats_leaderboard`` (``ix_profile_ratings_leaderboard``
for a profile): the top is the first rows of the index, a person's place one count of the
rows above theirs. Ties go by player id, so every reader
sees one order. Only accounts are listed (a guest has
no name to show); an account deleted has no row in ``accounts`` and is left out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import and_, func, or_, select

from ..infra.database import Database
from ..infra.rows.people import AccountRow
from ..infra.rows.ratings import PlayerStatsRow, ProfileRatingRow
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


def read_board(store: Store, player: str | None, profile: str | None = None) -> Board:
    """The board of the rules ``profile`` (None: the site's) as ``player`` (None: a
    visitor) sees it (blocking)."""
    row: type[PlayerStatsRow] | type[ProfileRatingRow] = PlayerStatsRow
    board: tuple[Any, ...] = ()
    if profile is not None:
        row = ProfileRatingRow
        board = (ProfileRatingRow.profile == profile,)
    with store.session() as s:
        rows = s.execute(
            select(AccountRow.name, row.mu, row.sigma, row.rated_games)
            .join(AccountRow, AccountRow.player_id == row.player_id)
            .where(*board, row.rated_games >= MIN_GAMES)
            .order_by(row.ordinal.desc(), row.player_id)
            .limit(TOP)
        ).all()
        top = [
            Place(n, name, Rating(mu, sigma).display, games) for n, (name, mu, sigma, games) in enumerate(rows, start=1)
        ]
        own: Place | None = None
        own_games = 0
        if player is not None:
            mine = s.execute(
                select(AccountRow.name, row.mu, row.sigma, row.ordinal)
                .add_columns(row.rated_games)
                .join(AccountRow, AccountRow.player_id == row.player_id)
                .where(*board, row.player_id == player)
            ).first()
            if mine is not None:
                name, mu, sigma, ordinal, own_games = mine
                if own_games >= MIN_GAMES:
                    above = s.scalar(
                        select(func.count())
                        .select_from(row)
                        .join(AccountRow, AccountRow.player_id == row.player_id)
                        .where(
                            *board,
                            row.rated_games >= MIN_GAMES,
                            or_(row.ordinal > ordinal, and_(row.ordinal == ordinal, row.player_id < player)),
                        )
                    )
                    own = Place((above or 0) + 1, name, Rating(mu, sigma).display, own_games)
    return Board(top, own, own_games)


class Leaderboard:
    """The leaderboard, read on the database's threads."""

    def __init__(self, store: Store, db: Database) -> None:
        self.store = store
        self.db = db

    async def board(self, player: str | None, profile: str | None = None) -> Board:
        return await self.db(read_board, self.store, player, profile)
