"""The coach's toggle of each person (issue 49): ``coach_settings``.

Revision ID: 0034
Revises: 0033
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0034"
down_revision = "0033"


def upgrade() -> None:
    op.create_table(
        "coach_settings",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("on", sa.Boolean(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("coach_settings")
