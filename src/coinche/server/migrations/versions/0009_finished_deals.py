"""Finished deals (issue 18, history): one row per finished deal of any table, so that a
player's history lists its games and their deals without replaying any log; an index on
``tables.finished_at`` for the history's keyset pagination (newest first).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"


def upgrade() -> None:
    op.create_table(
        "finished_deals",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("deal", sa.Integer(), primary_key=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("dealer", sa.Integer(), nullable=False),
        sa.Column("contract", sa.String(24), nullable=True),
        sa.Column("taker", sa.Integer(), nullable=True),
        sa.Column("made", sa.Boolean(), nullable=True),
        sa.Column("score", sa.JSON(), nullable=False),
    )
    op.create_index("ix_tables_finished_at_id", "tables", ["finished_at", "id"])


def downgrade() -> None:
    op.drop_index("ix_tables_finished_at_id", "tables")
    op.drop_table("finished_deals")
