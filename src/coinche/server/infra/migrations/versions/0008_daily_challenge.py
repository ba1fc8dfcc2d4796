"""The daily challenge: its days (seed and commitment), attempts and per-deal results, and
the day a challenge's table plays.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"


def upgrade() -> None:
    # Plain ADD COLUMN, as in 0005 and 0006.
    op.add_column("tables", sa.Column("challenge_day", sa.String(10), nullable=True))
    op.create_table(
        "challenge_days",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("profile", sa.String(16), nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "challenge_attempts",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("day", sa.String(10), sa.ForeignKey("challenge_days.day"), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("guest", sa.Boolean(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("day", "player_id", name="uq_challenge_attempts_day_player"),
    )
    op.create_table(
        "challenge_results",
        sa.Column("day", sa.String(10), sa.ForeignKey("challenge_days.day"), primary_key=True),
        sa.Column("deal", sa.Integer(), primary_key=True),
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("contract", sa.String(24), nullable=True),
        sa.Column("taker", sa.Integer(), nullable=True),
        sa.Column("made", sa.Boolean(), nullable=True),
        sa.Column("deal_score", sa.JSON(), nullable=False),
        sa.Column("guest", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_challenge_results_day_deal_score", "challenge_results", ["day", "deal", "score"])
    op.create_index("ix_challenge_results_day_player", "challenge_results", ["day", "player_id"])


def downgrade() -> None:
    op.drop_table("challenge_results")
    op.drop_table("challenge_attempts")
    op.drop_table("challenge_days")
    op.drop_column("tables", "challenge_day")
