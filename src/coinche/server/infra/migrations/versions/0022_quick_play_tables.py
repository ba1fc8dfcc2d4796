"""A table quick play made is marked as such (``tables.quick_play``): strangers sit there,
its game is dealt at once and nobody hosts it; a friends' table's host may play without
the idle clock (``tables.idle_clock``, on for every table before).

Revision ID: 0022
Revises: 0021
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"


def upgrade() -> None:
    # Plain ALTER TABLE ... ADD COLUMN: a batch copy of ``tables`` would trip over the
    # foreign keys that name it (0020's note).
    op.add_column("tables", sa.Column("quick_play", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.add_column("tables", sa.Column("idle_clock", sa.Boolean(), nullable=False, server_default=sa.true()))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("idle_clock")
        batch.drop_column("quick_play")
