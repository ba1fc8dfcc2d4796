"""Deals anyone can check: each new table's 32-byte dealing secret (docs/dealing.md).
Tables made before it have none and go on dealing from their seed (dealing version 1).

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"


def upgrade() -> None:
    # Plain ADD COLUMN, as in 0005: a batch copy of ``tables`` would trip its foreign keys.
    op.add_column("tables", sa.Column("deal_secret", sa.LargeBinary(32), nullable=True))


def downgrade() -> None:
    op.drop_column("tables", "deal_secret")
