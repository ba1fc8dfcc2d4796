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
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("code", sa.String(8), nullable=True))
        batch.add_column(sa.Column("host", sa.String(32), nullable=True))
        batch.add_column(sa.Column("late_joins", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_index("ix_tables_code", "tables", ["code"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_tables_code", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("late_joins")
        batch.drop_column("host")
        batch.drop_column("code")
