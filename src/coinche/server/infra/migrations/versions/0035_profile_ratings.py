"""The leaderboards of each rules profile (issue 49): ``profile_ratings``, a player's
rating in each profile, and the index a board reads in order.

Not back-filled: rating the past games again per profile would replay every table's log in
the order the games ended, so the boards of each profile count the rated games that end
from this migration on (the site rating, ``player_stats``, keeps them all).

Revision ID: 0035
Revises: 0034
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0035"
down_revision = "0034"


def upgrade() -> None:
    op.create_table(
        "profile_ratings",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("profile", sa.String(16), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("rated_games", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_profile_ratings_leaderboard", "profile_ratings", ["profile", "ordinal", "rated_games"])


def downgrade() -> None:
    op.drop_index("ix_profile_ratings_leaderboard", table_name="profile_ratings")
    op.drop_table("profile_ratings")
