"""Names people can trust, uploads that expire (issue 27): each account's TR39 name
skeleton (its SHA-256), indexed, back-filled from the names; an index on the uploads'
creation time, by which they expire.

Revision ID: 0018
Revises: 0015
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from coinche.server.table.names import name_skeleton

revision = "0018"
down_revision = "0015"


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("name_skeleton", sa.String(64), nullable=True))
    accounts = sa.table(
        "accounts", sa.column("id", sa.String), sa.column("name", sa.String), sa.column("name_skeleton")
    )
    conn = op.get_bind()
    for account_id, name in conn.execute(sa.select(accounts.c.id, accounts.c.name)).all():
        conn.execute(accounts.update().where(accounts.c.id == account_id).values(name_skeleton=name_skeleton(name)))
    with op.batch_alter_table("accounts") as batch:
        batch.alter_column("name_skeleton", existing_type=sa.String(64), nullable=False)
    op.create_index("ix_accounts_name_skeleton", "accounts", ["name_skeleton"])
    op.create_index("ix_uploaded_records_created_at", "uploaded_records", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_uploaded_records_created_at", "uploaded_records")
    op.drop_index("ix_accounts_name_skeleton", "accounts")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("name_skeleton")
