"""Open tables: ``open_tables`` lists the friends' tables their hosts made public, as of
their last step (who sits, how many seats are free, whether it may be watched).

Revision ID: 0023
Revises: 0022
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0023"
down_revision = "0022"


def upgrade() -> None:
    op.create_table(
        "open_tables",
        sa.Column("table_id", sa.String(16), primary_key=True),
        sa.Column("code", sa.String(8), nullable=False),
        sa.Column("profile", sa.String(16), nullable=False),
        sa.Column("target", sa.Integer(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("free_seats", sa.Integer(), nullable=False),
        sa.Column("started", sa.Boolean(), nullable=False),
        sa.Column("watchable", sa.Boolean(), nullable=False, server_default=sa.true()),
        sa.Column("opened_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
    )
    op.create_index("ix_open_tables_listed", "open_tables", ["free_seats", "opened_at"])


def downgrade() -> None:
    op.drop_index("ix_open_tables_listed", table_name="open_tables")
    op.drop_table("open_tables")
