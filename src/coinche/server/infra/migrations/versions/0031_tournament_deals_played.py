"""A tournament table's deals as they end (issue 48): ``tournament_tables.deals_played``
and ``played``, so a round's deals are shown (watched, counted in the standings) one by
one once every table of the round has played them, not the round whole at its end.

Revision ID: 0031
Revises: 0030
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0031"
down_revision = "0030"


def upgrade() -> None:
    op.add_column("tournament_tables", sa.Column("deals_played", sa.Integer(), nullable=False, server_default="0"))
    op.add_column("tournament_tables", sa.Column("played", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournament_tables") as batch:
        batch.drop_column("played")
        batch.drop_column("deals_played")
