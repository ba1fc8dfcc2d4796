"""Quick play: ``quick_waits`` holds the people waiting (and, once a wave seated them, the
table it made), ``blocks`` the accounts a person blocked (never seated together).

Revision ID: 0021
Revises: 0020
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"


def upgrade() -> None:
    op.create_table(
        "quick_waits",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("rules", sa.String(16), nullable=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=False),
        sa.Column("table_id", sa.String(16), nullable=True),
        sa.Column("seated_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_quick_waits_waiting", "quick_waits", ["table_id", "since"])
    op.create_table(
        "blocks",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("blocked_id", sa.String(32), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_blocks_blocked", "blocks", ["blocked_id"])


def downgrade() -> None:
    op.drop_index("ix_blocks_blocked", table_name="blocks")
    op.drop_table("blocks")
    op.drop_index("ix_quick_waits_waiting", table_name="quick_waits")
    op.drop_table("quick_waits")
