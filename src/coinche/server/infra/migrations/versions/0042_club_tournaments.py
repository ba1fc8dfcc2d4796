"""A club's tournaments (issue 51): ``tournaments.club_id``.

Revision ID: 0042
Revises: 0041
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0042"
down_revision = "0041"


def upgrade() -> None:
    op.add_column("tournaments", sa.Column("club_id", sa.String(16), nullable=True))
    op.create_index("ix_tournaments_club_id", "tournaments", ["club_id"])


def downgrade() -> None:
    op.drop_index("ix_tournaments_club_id", table_name="tournaments")
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("club_id")
