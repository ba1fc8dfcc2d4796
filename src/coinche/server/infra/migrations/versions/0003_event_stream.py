"""Tables as numbered event streams, and players.

A step of a table's log may now be a request for the next deal or a change of seat as well
as an action (``kind``, ``data``), and carries the id of the client request that made it.
Guests become players (same ids: a guest's cookie still finds its player), and the seats
of every table name players.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"


def upgrade() -> None:
    with op.batch_alter_table("actions") as batch:
        batch.add_column(sa.Column("kind", sa.String(8), nullable=False, server_default="action"))
        batch.add_column(sa.Column("data", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("request_id", sa.String(120), nullable=True))
        batch.alter_column("action", existing_type=sa.Integer(), nullable=True)
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deals_played", sa.Integer(), nullable=False),
    )
    conn = op.get_bind()
    conn.execute(
        sa.text("INSERT INTO players (id, created_at, deals_played) SELECT id, created_at, deals_played FROM guests")
    )
    op.drop_table("guests")
    tables = sa.table("tables", sa.column("id", sa.String), sa.column("seats", sa.JSON))
    for table_id, seats in conn.execute(sa.select(tables.c.id, tables.c.seats)).all():
        entries: list[dict[str, Any]] = json.loads(seats) if isinstance(seats, str) else seats
        renamed = [
            {"kind": e["kind"], "player": e.get("player", e.get("guest")), "level": e.get("level")} for e in entries
        ]
        conn.execute(tables.update().where(tables.c.id == table_id).values(seats=renamed))


def downgrade() -> None:
    conn = op.get_bind()
    op.create_table(
        "guests",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deals_played", sa.Integer(), nullable=False),
    )
    conn.execute(
        sa.text("INSERT INTO guests (id, created_at, deals_played) SELECT id, created_at, deals_played FROM players")
    )
    op.drop_table("players")
    conn.execute(sa.text("DELETE FROM actions WHERE kind != 'action'"))
    with op.batch_alter_table("actions") as batch:
        batch.alter_column("action", existing_type=sa.Integer(), nullable=False)
        batch.drop_column("request_id")
        batch.drop_column("data")
        batch.drop_column("kind")
