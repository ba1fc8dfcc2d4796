"""A guest's identity is retired when the guest becomes an account or logs in to one
(``players.retired_at``): a copy of the guest's cookie is then a new guest with nothing.
The players that already belong to an account, or whose account was deleted, are retired
now: their guests' old cookies die with this migration.

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"


def upgrade() -> None:
    op.add_column("players", sa.Column("retired_at", sa.DateTime(timezone=True), nullable=True))
    op.execute(
        "UPDATE players SET retired_at = CURRENT_TIMESTAMP "
        "WHERE deleted_at IS NOT NULL OR id IN (SELECT player_id FROM accounts)"
    )


def downgrade() -> None:
    op.drop_column("players", "retired_at")
