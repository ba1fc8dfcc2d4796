"""The tries the rate limits count, shared by every server process on PostgreSQL
(``rate_limits.py``): one row per try, by key, in time order.

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"


def upgrade() -> None:
    op.create_table(
        "rate_limit_hits",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(200), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_rate_limit_hits_key_at", "rate_limit_hits", ["key", "at"])


def downgrade() -> None:
    op.drop_index("ix_rate_limit_hits_key_at", "rate_limit_hits")
    op.drop_table("rate_limit_hits")
