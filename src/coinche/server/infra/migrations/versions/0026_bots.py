"""Bot accounts (issue 31): an account may be a program's, owned by a person's account
(``accounts.bot_owner_id``), and play through the bot API with revocable tokens
(``bot_tokens``: only each token's SHA-256 is kept); the open tables and the tournaments
that bots may join (``open_tables.bots``, ``tournaments.bots``).

Revision ID: 0026
Revises: 0025
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0026"
down_revision = "0025"


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("bot_owner_id", sa.String(16), nullable=True))
        batch.create_index("ix_accounts_bot_owner_id", ["bot_owner_id"])
    op.create_table(
        "bot_tokens",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("bot_id", sa.String(16), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_bot_tokens_bot_id", "bot_tokens", ["bot_id"])
    for table in ("open_tables", "tournaments"):
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("bots", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    for table in ("open_tables", "tournaments"):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("bots")
    op.drop_index("ix_bot_tokens_bot_id", "bot_tokens")
    op.drop_table("bot_tokens")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_index("ix_accounts_bot_owner_id")
        batch.drop_column("bot_owner_id")
