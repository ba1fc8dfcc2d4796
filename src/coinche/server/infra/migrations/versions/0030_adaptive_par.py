"""The adaptive knob on a luck-free signal (issue 33): a table whose knob follows the
player's score against each deal's double-dummy par (its ``par`` steps), apart from the
tables of before it, whose knob followed the raw score.

Revision ID: 0030
Revises: 0029
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0030"
down_revision = "0029"


def upgrade() -> None:
    # Plain ALTER TABLE ... ADD COLUMN: a batch copy of ``tables`` would trip over the
    # foreign keys that name it (0020's note).
    op.add_column("tables", sa.Column("adaptive_par", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    op.execute("DELETE FROM actions WHERE kind = 'par'")  # a step the older code cannot read
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("adaptive_par")
