"""Friends and who is online: ``follows`` (an account following another), ``online`` (when
a person's socket last said they are here), ``invitations`` (by name, to a table) and
``reports`` (a person reported from their table).

Revision ID: 0024
Revises: 0023
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0024"
down_revision = "0023"


def upgrade() -> None:
    op.create_table(
        "follows",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("followed_id", sa.String(32), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "online",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "invitations",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("from_id", sa.String(32), nullable=False),
        sa.Column("to_id", sa.String(32), nullable=False),
        sa.Column("table_id", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_invitations_to_id", "invitations", ["to_id"])
    op.create_table(
        "reports",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("reporter_id", sa.String(32), nullable=False),
        sa.Column("reported_id", sa.String(32), nullable=False),
        sa.Column("reported_name", sa.String(40), nullable=False),
        sa.Column("table_id", sa.String(16), nullable=False),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("reporter_id", "reported_id", "table_id", name="uq_reports_once"),
    )
    op.create_index("ix_reports_reported_id", "reports", ["reported_id"])
    op.create_index("ix_reports_created_at", "reports", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_reports_created_at", table_name="reports")
    op.drop_index("ix_reports_reported_id", table_name="reports")
    op.drop_table("reports")
    op.drop_index("ix_invitations_to_id", table_name="invitations")
    op.drop_table("invitations")
    op.drop_table("online")
    op.drop_table("follows")
