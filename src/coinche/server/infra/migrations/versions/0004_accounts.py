"""Accounts and their sessions, who sat at each table, and when a game ended.

``table_players`` is filled from the tables' first seats and their ``seat`` steps, so a
player's list of games includes the games of before it.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("result", sa.JSON(), nullable=True))
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("name_key", sa.String(96), nullable=False, unique=True),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("password_hash", sa.String(256), nullable=False),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False, unique=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column(
            "account_id", sa.String(16), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "table_players",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("player_id", sa.String(32), primary_key=True, index=True),
        sa.Column("seat", sa.Integer(), nullable=False),
    )
    conn = op.get_bind()
    tables = sa.table("tables", sa.column("id", sa.String), sa.column("seats", sa.JSON))
    actions = sa.table(
        "actions",
        sa.column("table_id", sa.String),
        sa.column("kind", sa.String),
        sa.column("seat", sa.Integer),
        sa.column("data", sa.JSON),
    )
    sat: dict[tuple[str, str], int] = {}
    for table_id, seats in conn.execute(sa.select(tables.c.id, tables.c.seats)).all():
        for seat, entry in enumerate(_json(seats)):
            if entry.get("player"):
                sat.setdefault((table_id, entry["player"]), seat)
    changes = sa.select(actions.c.table_id, actions.c.seat, actions.c.data).where(actions.c.kind == "seat")
    for table_id, seat, data in conn.execute(changes).all():
        entry = _json(data) if data is not None else {}
        if isinstance(entry, dict) and entry.get("player"):
            sat.setdefault((table_id, entry["player"]), seat)
    if sat:
        rows = [{"table_id": t, "player_id": p, "seat": s} for (t, p), s in sat.items()]
        conn.execute(
            sa.table("table_players", sa.column("table_id"), sa.column("player_id"), sa.column("seat")).insert(),
            rows,
        )


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def downgrade() -> None:
    op.drop_table("table_players")
    op.drop_table("sessions")
    op.drop_table("accounts")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("result")
        batch.drop_column("finished_at")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("deleted_at")
