"""How well each seat played each finished deal (issue 50): ``deal_accuracy``.

Not back-filled: a past deal's accuracy is computed when its review or summary asks for it.

Revision ID: 0036
Revises: 0035
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0036"
down_revision = "0035"


def upgrade() -> None:
    op.create_table(
        "deal_accuracy",
        sa.Column("table_id", sa.String(16), primary_key=True),
        sa.Column("deal", sa.Integer(), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=True),
        sa.Column("level", sa.String(16), nullable=True),
        sa.Column("profile", sa.String(16), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("cards", sa.Integer(), nullable=False),
        sa.Column("cards_kept", sa.Integer(), nullable=False),
        sa.Column("card_loss", sa.Integer(), nullable=False),
        sa.Column("calls", sa.Integer(), nullable=False),
        sa.Column("calls_kept", sa.Integer(), nullable=False),
        sa.Column("call_loss", sa.Float(), nullable=False),
    )
    op.create_index("ix_deal_accuracy_player", "deal_accuracy", ["player_id", "profile", "finished_at"])
    op.create_index("ix_deal_accuracy_level", "deal_accuracy", ["level", "profile"])


def downgrade() -> None:
    op.drop_index("ix_deal_accuracy_level", table_name="deal_accuracy")
    op.drop_index("ix_deal_accuracy_player", table_name="deal_accuracy")
    op.drop_table("deal_accuracy")
