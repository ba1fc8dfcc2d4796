"""Computers' turns handed to worker processes (``bot_turns``: one row per table and
step, claimed with a lease), the hints and analyses asked of them (``bot_jobs``: a call
and its answer) and the workers alive (``workers``: a heartbeat each).

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"


def upgrade() -> None:
    op.create_table(
        "bot_turns",
        sa.Column("table_id", sa.String(16), primary_key=True),
        sa.Column("seq", sa.Integer(), primary_key=True),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("not_before", sa.DateTime(timezone=True), nullable=False),
        sa.Column("claimed_by", sa.String(64), nullable=True),
        sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("done_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_bot_turns_waiting", "bot_turns", ["done_at", "created_at"])
    op.create_table(
        "bot_jobs",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("priority", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("call", sa.LargeBinary(), nullable=False),
        sa.Column("claimed_by", sa.String(64), nullable=True),
        sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("done_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("answer", sa.LargeBinary(), nullable=True),
    )
    op.create_index("ix_bot_jobs_waiting", "bot_jobs", ["done_at", "priority", "created_at"])
    op.create_table(
        "workers",
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("workers")
    op.drop_index("ix_bot_jobs_waiting", "bot_jobs")
    op.drop_table("bot_jobs")
    op.drop_index("ix_bot_turns_waiting", "bot_turns")
    op.drop_table("bot_turns")
