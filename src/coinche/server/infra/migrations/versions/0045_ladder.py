"""The engine ladder (issue 53): ``ladder_engines`` (who opted in, paused, ratings,
faults), ``ladder_matches`` (the duplicate matches) and the tables' ``ladder_match``.

Revision ID: 0045
Revises: 0044
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0045"
down_revision = "0044"


def upgrade() -> None:
    op.create_table(
        "ladder_engines",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("opted_in", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("paused_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("won", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("drawn", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("decisions", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("faults", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("recent", sa.String(1000), nullable=False, server_default=""),
        sa.Column("last_opponent", sa.String(32), nullable=True),
    )
    op.create_table(
        "ladder_matches",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("profile", sa.String(16), nullable=False),
        sa.Column("secret", sa.LargeBinary(32), nullable=False),
        sa.Column("first_id", sa.String(32), nullable=False),
        sa.Column("second_id", sa.String(32), nullable=True),
        sa.Column("anchor", sa.String(16), nullable=True),
        sa.Column("first_table", sa.String(16), nullable=False),
        sa.Column("second_table", sa.String(16), nullable=False),
        sa.Column("first_leg", sa.Integer(), nullable=True),
        sa.Column("second_leg", sa.Integer(), nullable=True),
        sa.Column("score", sa.Float(), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_ladder_matches_first_id", "ladder_matches", ["first_id"])
    op.create_index("ix_ladder_matches_second_id", "ladder_matches", ["second_id"])
    op.create_index("ix_ladder_matches_finished_at", "ladder_matches", ["finished_at"])
    op.add_column("tables", sa.Column("ladder_match", sa.String(16), nullable=True))


def downgrade() -> None:
    op.drop_column("tables", "ladder_match")
    op.drop_index("ix_ladder_matches_finished_at", table_name="ladder_matches")
    op.drop_index("ix_ladder_matches_second_id", table_name="ladder_matches")
    op.drop_index("ix_ladder_matches_first_id", table_name="ladder_matches")
    op.drop_table("ladder_matches")
    op.drop_table("ladder_engines")
