"""Finished deals (issue 18, history): one row per finished deal of any table, so that a
player's history lists its games and their deals without replaying any log; and
``table_players.finished_at`` (a copy of the table's, filled in for the games already
finished) with the index ``(player_id, finished_at, table_id)``: a page of the history is
a range of that index, newest first, whatever the number of the player's games.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"


def upgrade() -> None:
    op.create_table(
        "finished_deals",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("deal", sa.Integer(), primary_key=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("dealer", sa.Integer(), nullable=False),
        sa.Column("contract", sa.String(24), nullable=True),
        sa.Column("taker", sa.Integer(), nullable=True),
        sa.Column("made", sa.Boolean(), nullable=True),
        sa.Column("score", sa.JSON(), nullable=False),
    )
    op.add_column("table_players", sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True))
    op.execute(
        "UPDATE table_players SET finished_at ="
        " (SELECT tables.finished_at FROM tables WHERE tables.id = table_players.table_id)"
    )
    op.create_index("ix_table_players_history", "table_players", ["player_id", "finished_at", "table_id"])


def downgrade() -> None:
    op.drop_index("ix_table_players_history", "table_players")
    op.drop_column("table_players", "finished_at")
    op.drop_table("finished_deals")
