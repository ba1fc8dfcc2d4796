"""Names found as people type them, invitations to a seat (issue 49): each account's
``name_search`` (its name folded without accents, ``names.search_key``), indexed and
back-filled from the names, so "zoe" finds "Zoé" in one look-up; ``invitations.seat``,
the computer's seat an invitation is to (None for those made before: the first free).

Revision ID: 0033
Revises: 0032
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from coinche.server.table.names import search_key

revision = "0033"
down_revision = "0032"


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("name_search", sa.String(288), nullable=True))
    accounts = sa.table("accounts", sa.column("id", sa.String), sa.column("name", sa.String), sa.column("name_search"))
    conn = op.get_bind()
    for account_id, name in conn.execute(sa.select(accounts.c.id, accounts.c.name)).all():
        conn.execute(accounts.update().where(accounts.c.id == account_id).values(name_search=search_key(name)))
    with op.batch_alter_table("accounts") as batch:
        batch.alter_column("name_search", existing_type=sa.String(288), nullable=False)
    op.create_index("ix_accounts_name_search", "accounts", ["name_search"])
    op.add_column("invitations", sa.Column("seat", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("invitations") as batch:
        batch.drop_column("seat")
    op.drop_index("ix_accounts_name_search", "accounts")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("name_search")
