"""Ratings and the profile's counters: each player's rating and game and deal counts
(``player_stats``), the rating after each rated game (``rating_history``), the guards that
make the per-deal and per-game updates idempotent (``stats_deals``, ``rated_games``), and
the adaptive knob's start of a table (``tables.adaptive_start``).

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"


def upgrade() -> None:
    op.add_column("tables", sa.Column("adaptive_start", sa.Float(), nullable=True))
    op.create_table(
        "player_stats",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("rated_games", sa.Integer(), nullable=False),
        sa.Column("games_played", sa.Integer(), nullable=False),
        sa.Column("games_won", sa.Integer(), nullable=False),
        sa.Column("deals_played", sa.Integer(), nullable=False),
        sa.Column("contracts_taken", sa.Integer(), nullable=False),
        sa.Column("contracts_made", sa.Integer(), nullable=False),
        sa.Column("coinches", sa.Integer(), nullable=False),
        sa.Column("coinches_won", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "rating_history",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("table_id", sa.String(16), primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("display", sa.Integer(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
    )
    op.create_index("ix_rating_history_player_at", "rating_history", ["player_id", "at"])
    op.create_table(
        "stats_deals",
        sa.Column("table_id", sa.String(16), primary_key=True),
        sa.Column("deal", sa.Integer(), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "rated_games",
        sa.Column("table_id", sa.String(16), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rated_games")
    op.drop_table("stats_deals")
    op.drop_index("ix_rating_history_player_at", "rating_history")
    op.drop_table("rating_history")
    op.drop_table("player_stats")
    op.drop_column("tables", "adaptive_start")
