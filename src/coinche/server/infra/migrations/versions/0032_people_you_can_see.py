"""People you can see (issue 49): ``player_stats.ordinal`` (``mu - 3 sigma``, back-filled)
and the leaderboard's index on it; indexes on ``online.seen_at`` and ``actions.created_at``
for the home page's counts of who is online and of the games being played.

Revision ID: 0032
Revises: 0031
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0032"
down_revision = "0031"


def upgrade() -> None:
    op.add_column("player_stats", sa.Column("ordinal", sa.Float(), nullable=False, server_default="0"))
    op.execute("UPDATE player_stats SET ordinal = mu - 3 * sigma")
    op.create_index("ix_player_stats_leaderboard", "player_stats", ["ordinal", "rated_games"])
    op.create_index("ix_online_seen_at", "online", ["seen_at"])
    op.create_index("ix_actions_created_at", "actions", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_actions_created_at", table_name="actions")
    op.drop_index("ix_online_seen_at", table_name="online")
    op.drop_index("ix_player_stats_leaderboard", table_name="player_stats")
    with op.batch_alter_table("player_stats") as batch:
        batch.drop_column("ordinal")
