"""A person's costly decisions, kept to be played again as their own puzzles (issue 50):
``mistakes``.

Revision ID: 0037
Revises: 0036
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0037"
down_revision = "0036"


def upgrade() -> None:
    op.create_table(
        "mistakes",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("table_id", sa.String(16), nullable=False),
        sa.Column("deal", sa.Integer(), nullable=False),
        sa.Column("step", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("profile", sa.String(16), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("dealer", sa.Integer(), nullable=False),
        sa.Column("hands", sa.JSON(), nullable=False),
        sa.Column("log", sa.JSON(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("played", sa.String(16), nullable=False),
        sa.Column("cost", sa.Float(), nullable=False),
        sa.Column("values", sa.JSON(), nullable=False),
        sa.Column("line", sa.JSON(), nullable=False),
        sa.Column("solved_days", sa.JSON(), nullable=False),
        sa.Column("tries", sa.Integer(), nullable=False),
        sa.Column("retired", sa.Boolean(), nullable=False),
        sa.UniqueConstraint("table_id", "deal", "step", name="uq_mistakes_decision"),
    )
    op.create_index("ix_mistakes_player", "mistakes", ["player_id", "retired", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_mistakes_player", table_name="mistakes")
    op.drop_table("mistakes")
