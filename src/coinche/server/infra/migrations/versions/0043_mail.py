"""Mail and account recovery (issue 52): the queue ``mail_queue``, the one-use links
``account_tokens`` (a password reset, an address to confirm: their SHA-256 only) and the
index that finds an account by its confirmed address.

Revision ID: 0043
Revises: 0042
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0043"
down_revision = "0042"


def upgrade() -> None:
    op.create_table(
        "mail_queue",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("to_address", sa.String(254), nullable=False),
        sa.Column("subject", sa.String(200), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("next_try_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("failed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.String(500), nullable=True),
    )
    op.create_index("ix_mail_queue_due", "mail_queue", ["sent_at", "failed_at", "next_try_at"])
    op.create_table(
        "account_tokens",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(16), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_account_tokens_account", "account_tokens", ["account_id", "kind"])
    op.create_index("ix_accounts_email", "accounts", ["email"])


def downgrade() -> None:
    op.drop_index("ix_accounts_email", table_name="accounts")
    op.drop_index("ix_account_tokens_account", table_name="account_tokens")
    op.drop_table("account_tokens")
    op.drop_index("ix_mail_queue_due", table_name="mail_queue")
    op.drop_table("mail_queue")
