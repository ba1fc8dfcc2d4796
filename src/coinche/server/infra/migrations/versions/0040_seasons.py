"""Monthly seasons of quick play (issue 51): ``season_games``, ``season_players``,
``season_finals``, ``season_closes`` and ``season_divisions``.

Revision ID: 0040
Revises: 0039
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0040"
down_revision = "0039"


def upgrade() -> None:
    op.create_table(
        "season_games",
        sa.Column("table_id", sa.String(16), primary_key=True),
        sa.Column("season", sa.String(7), nullable=False),
        sa.Column("profile", sa.String(16), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ratings", sa.JSON(), nullable=False),
        sa.Column("counted", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.create_index("ix_season_games_open", "season_games", ["season", "profile", "counted"])
    op.create_table(
        "season_players",
        sa.Column("season", sa.String(7), primary_key=True),
        sa.Column("profile", sa.String(16), primary_key=True),
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("division", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("losses", sa.Integer(), nullable=False),
        sa.Column("left", sa.Integer(), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_season_players_division", "season_players", ["season", "profile", "division", "points"])
    op.create_index("ix_season_players_player", "season_players", ["player_id"])
    op.create_table(
        "season_finals",
        sa.Column("season", sa.String(7), primary_key=True),
        sa.Column("profile", sa.String(16), primary_key=True),
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("division", sa.Integer(), nullable=False),
        sa.Column("final_rank", sa.Integer(), nullable=False),
        sa.Column("move", sa.String(4), nullable=False),
    )
    op.create_index("ix_season_finals_player", "season_finals", ["player_id"])
    op.create_table(
        "season_closes",
        sa.Column("season", sa.String(7), primary_key=True),
        sa.Column("profile", sa.String(16), primary_key=True),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("seconds", sa.Float(), nullable=False),
    )
    op.create_table(
        "season_divisions",
        sa.Column("profile", sa.String(16), primary_key=True),
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("division", sa.Integer(), nullable=False),
        sa.Column("from_season", sa.String(7), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("season_divisions")
    op.drop_table("season_closes")
    op.drop_index("ix_season_finals_player", table_name="season_finals")
    op.drop_table("season_finals")
    op.drop_index("ix_season_players_player", table_name="season_players")
    op.drop_index("ix_season_players_division", table_name="season_players")
    op.drop_table("season_players")
    op.drop_index("ix_season_games_open", table_name="season_games")
    op.drop_table("season_games")
