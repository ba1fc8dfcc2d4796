"""The open games database (issue 53): whether an account's owner chose to be named in the
monthly files of finished rated games (``features/open_data.py``); off by default, when
they are named by a pseudonym. And the index the export reads a month's games by, in the
order of their ends (``ix_tables_finished``).

Revision ID: 0044
Revises: 0043
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0044"
down_revision = "0043"


def upgrade() -> None:
    # Plain ALTER TABLE ... ADD COLUMN: a batch copy of ``accounts`` would trip over the
    # foreign keys that name it (``sessions``).
    op.add_column("accounts", sa.Column("open_data_named", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_index("ix_tables_finished", "tables", ["finished_at", "id"])


def downgrade() -> None:
    op.drop_index("ix_tables_finished", table_name="tables")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("open_data_named")
