"""Puzzles (issue 32): card-play puzzles found in finished deals (``puzzles``), each
player's first try at each (``puzzle_tries``), and each player's puzzle rating and streak
(``puzzle_players``).

Revision ID: 0027
Revises: 0026
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0027"
down_revision = "0026"


def upgrade() -> None:
    op.create_table(
        "puzzles",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("table_id", sa.String(16), nullable=False),
        sa.Column("deal", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("dealer", sa.Integer(), nullable=False),
        sa.Column("hands", sa.JSON(), nullable=False),
        sa.Column("log", sa.JSON(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("goal", sa.String(8), nullable=False),
        sa.Column("solution", sa.String(4), nullable=False),
        sa.Column("values", sa.JSON(), nullable=False),
        sa.Column("line", sa.JSON(), nullable=False),
        sa.Column("themes", sa.JSON(), nullable=False),
        sa.Column("swing", sa.Integer(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("tries", sa.Integer(), nullable=False),
        sa.Column("solved", sa.Integer(), nullable=False),
        sa.UniqueConstraint("table_id", "deal", name="uq_puzzles_table_deal"),
    )
    op.create_index("ix_puzzles_created_at", "puzzles", ["created_at"])
    op.create_table(
        "puzzle_tries",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("puzzle_id", sa.String(16), sa.ForeignKey("puzzles.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("card", sa.String(4), nullable=False),
        sa.Column("solved", sa.Boolean(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "puzzle_players",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("tries", sa.Integer(), nullable=False),
        sa.Column("solved", sa.Integer(), nullable=False),
        sa.Column("streak", sa.Integer(), nullable=False),
        sa.Column("best_streak", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("puzzle_players")
    op.drop_table("puzzle_tries")
    op.drop_index("ix_puzzles_created_at", "puzzles")
    op.drop_table("puzzles")
