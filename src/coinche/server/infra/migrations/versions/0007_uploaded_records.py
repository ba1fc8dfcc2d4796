"""Uploaded records (issue 18, history and replays): a visitor's record of a deal or a
game, checked by the engine, kept to be replayed and reviewed; the analyses of its deals.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"


def upgrade() -> None:
    op.create_table(
        "uploaded_records",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("owner", sa.String(32), nullable=False),
        sa.Column("record", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_uploaded_records_owner", "uploaded_records", ["owner"])
    op.create_table(
        "upload_analyses",
        sa.Column(
            "upload_id",
            sa.String(16),
            sa.ForeignKey("uploaded_records.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("deal", sa.Integer(), primary_key=True),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("upload_analyses")
    op.drop_index("ix_uploaded_records_owner", "uploaded_records")
    op.drop_table("uploaded_records")
