"""Clubs (issue 51): ``clubs``, ``club_members``, ``club_requests``, ``club_bans`` and the
board's ``club_posts``; a friends' table's ``club_id`` and ``club_only``.

Revision ID: 0041
Revises: 0040
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0041"
down_revision = "0040"


def upgrade() -> None:
    op.create_table(
        "clubs",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(160), nullable=False, unique=True),
        sa.Column("name_skeleton", sa.String(64), nullable=False),
        sa.Column("description", sa.String(300), nullable=False),
        sa.Column("open", sa.Boolean(), nullable=False),
        sa.Column("owner_id", sa.String(32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_clubs_name_skeleton", "clubs", ["name_skeleton"])
    op.create_index("ix_clubs_owner_id", "clubs", ["owner_id"])
    op.create_table(
        "club_members",
        sa.Column("club_id", sa.String(16), primary_key=True),
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("role", sa.String(10), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_club_members_player", "club_members", ["player_id"])
    op.create_table(
        "club_requests",
        sa.Column("club_id", sa.String(16), primary_key=True),
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("by_id", sa.String(32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_club_requests_player", "club_requests", ["player_id"])
    op.create_table(
        "club_bans",
        sa.Column("club_id", sa.String(16), primary_key=True),
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("by_id", sa.String(32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "club_posts",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("club_id", sa.String(16), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("phrase", sa.String(24), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_club_posts_club", "club_posts", ["club_id", "created_at"])
    # plain ADD COLUMN (a batch would copy ``tables``, which other tables' keys point at)
    op.add_column("tables", sa.Column("club_id", sa.String(16), nullable=True))
    op.add_column("tables", sa.Column("club_only", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_index("ix_tables_club_id", "tables", ["club_id"])


def downgrade() -> None:
    op.drop_index("ix_tables_club_id", table_name="tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("club_only")
        batch.drop_column("club_id")
    op.drop_index("ix_club_posts_club", table_name="club_posts")
    op.drop_table("club_posts")
    op.drop_table("club_bans")
    op.drop_index("ix_club_requests_player", table_name="club_requests")
    op.drop_table("club_requests")
    op.drop_index("ix_club_members_player", table_name="club_members")
    op.drop_table("club_members")
    op.drop_index("ix_clubs_owner_id", table_name="clubs")
    op.drop_index("ix_clubs_name_skeleton", table_name="clubs")
    op.drop_table("clubs")
