"""Who is at each friends' table, whichever process holds their connection
(``table_presence``): each process's count of a person's connections and when it last
confirmed them, so that every process shows the same presence and runs the grace periods
of people whose process died.

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"


def upgrade() -> None:
    op.create_table(
        "table_presence",
        sa.Column("table_id", sa.String(16), primary_key=True),
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("process", sa.String(64), primary_key=True),
        sa.Column("connections", sa.Integer(), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_table_presence_process", "table_presence", ["process"])


def downgrade() -> None:
    op.drop_index("ix_table_presence_process", "table_presence")
    op.drop_table("table_presence")
