"""Friends' tables: a table's invitation code, its host, and whether friends may take a
computer's seat between deals.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"


def upgrade() -> None:
    # Plain ADD COLUMN: a batch (copy and drop) of ``tables`` would trip the foreign keys
    # of the steps and players that point at it.
    op.add_column("tables", sa.Column("code", sa.String(8), nullable=True))
    op.add_column("tables", sa.Column("host", sa.String(32), nullable=True))
    op.add_column("tables", sa.Column("late_joins", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_index("ix_tables_code", "tables", ["code"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_tables_code", "tables")
    for column in ("late_joins", "host", "code"):
        op.drop_column("tables", column)
