"""What of a table's ends has been booked: ``tables.deals_booked`` (its first N finished
deals had their deal-over bookkeeping: history, statistics, the daily challenge) and
``tables.game_booked`` (the end of its game too). Reading a table runs the bookkeeping only
for what is not booked: a read no longer writes the same rows again.

Tables of before start at nothing booked: their next read books them once (the
bookkeeping is idempotent).

Revision ID: 0020
Revises: 0019
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"


def upgrade() -> None:
    # Plain ALTER TABLE ... ADD COLUMN (with a default, SQLite takes NOT NULL too): a batch
    # would copy ``tables``, which the logs' foreign keys forbid dropping.
    op.add_column("tables", sa.Column("deals_booked", sa.Integer(), nullable=False, server_default="0"))
    op.add_column("tables", sa.Column("game_booked", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("game_booked")
        batch.drop_column("deals_booked")
