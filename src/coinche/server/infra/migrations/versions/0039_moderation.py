"""The site's team (issue 51): ``roles``, the audit log ``moderation_actions``, and what is
said at tables, ``table_said``.

Revision ID: 0039
Revises: 0038
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0039"
down_revision = "0038"


def upgrade() -> None:
    op.create_table(
        "roles",
        sa.Column("account_id", sa.String(16), primary_key=True),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("given_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "moderation_actions",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("moderator_id", sa.String(16), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("undoes", sa.String(16), nullable=True),
        sa.Column("undone_by", sa.String(16), nullable=True),
    )
    op.create_index("ix_moderation_player", "moderation_actions", ["player_id", "created_at"])
    op.create_index("ix_moderation_actions_created_at", "moderation_actions", ["created_at"])
    op.create_table(
        "table_said",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("table_id", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("what", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_table_said_table", "table_said", ["table_id", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_table_said_table", table_name="table_said")
    op.drop_table("table_said")
    op.drop_index("ix_moderation_actions_created_at", table_name="moderation_actions")
    op.drop_index("ix_moderation_player", table_name="moderation_actions")
    op.drop_table("moderation_actions")
    op.drop_table("roles")
