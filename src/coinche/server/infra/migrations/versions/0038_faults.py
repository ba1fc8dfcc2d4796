"""The kinds of mistake a rule can tell, per person and deal (issue 50's progress page):
``faults``.

Revision ID: 0038
Revises: 0037
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0038"
down_revision = "0037"


def upgrade() -> None:
    op.create_table(
        "faults",
        sa.Column("table_id", sa.String(16), primary_key=True),
        sa.Column("deal", sa.Integer(), primary_key=True),
        sa.Column("step", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(24), primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("profile", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_faults_player", "faults", ["player_id", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_faults_player", table_name="faults")
    op.drop_table("faults")
