"""The daily challenge's ranking kept ready to read (``challenge_standings``), each day's
ranking state and expert's table (``challenge_days``), and each deal's double-dummy par
(``challenge_pars``).

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"


def upgrade() -> None:
    # Plain ADD COLUMN (nullable or with a default), as in 0005 and 0006.
    op.add_column("challenge_days", sa.Column("ranked_results", sa.Integer(), nullable=False, server_default="0"))
    op.add_column("challenge_days", sa.Column("ranked_final", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.add_column("challenge_days", sa.Column("ranked_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("challenge_days", sa.Column("expert_table", sa.String(16), nullable=True))
    op.create_table(
        "challenge_standings",
        sa.Column("day", sa.String(10), sa.ForeignKey("challenge_days.day"), primary_key=True),
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("average", sa.Float(), nullable=False),
        sa.Column("finished", sa.Integer(), nullable=False),
        sa.Column("percents", sa.JSON(), nullable=False),
    )
    op.create_index("ix_challenge_standings_day_position", "challenge_standings", ["day", "position"])
    op.create_table(
        "challenge_pars",
        sa.Column("day", sa.String(10), sa.ForeignKey("challenge_days.day"), primary_key=True),
        sa.Column("deal", sa.Integer(), primary_key=True),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("challenge_pars")
    op.drop_index("ix_challenge_standings_day_position", "challenge_standings")
    op.drop_table("challenge_standings")
    with op.batch_alter_table("challenge_days") as batch:
        batch.drop_column("expert_table")
        batch.drop_column("ranked_at")
        batch.drop_column("ranked_final")
        batch.drop_column("ranked_results")
