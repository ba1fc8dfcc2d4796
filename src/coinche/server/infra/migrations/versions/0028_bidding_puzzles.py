"""Bidding puzzles (issue 32): "what do you call?" at a seat's turn in a finished deal's
auction, with every call's value as the expert computed it (``bidding_puzzles``), and each
player's first answer to each (``bidding_puzzle_tries``).

Revision ID: 0028
Revises: 0027
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0028"
down_revision = "0027"


def upgrade() -> None:
    op.create_table(
        "bidding_puzzles",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("table_id", sa.String(16), nullable=False),
        sa.Column("deal", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("dealer", sa.Integer(), nullable=False),
        sa.Column("hands", sa.JSON(), nullable=False),
        sa.Column("calls", sa.JSON(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("call", sa.String(16), nullable=False),
        sa.Column("played", sa.String(16), nullable=False),
        sa.Column("values", sa.JSON(), nullable=False),
        sa.Column("margin", sa.Float(), nullable=False),
        sa.Column("tries", sa.Integer(), nullable=False),
        sa.Column("solved", sa.Integer(), nullable=False),
        sa.UniqueConstraint("table_id", "deal", name="uq_bidding_puzzles_table_deal"),
    )
    op.create_index("ix_bidding_puzzles_created_at", "bidding_puzzles", ["created_at"])
    op.create_table(
        "bidding_puzzle_tries",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column(
            "puzzle_id", sa.String(16), sa.ForeignKey("bidding_puzzles.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("call", sa.String(16), nullable=False),
        sa.Column("solved", sa.Boolean(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("bidding_puzzle_tries")
    op.drop_index("ix_bidding_puzzles_created_at", "bidding_puzzles")
    op.drop_table("bidding_puzzles")
