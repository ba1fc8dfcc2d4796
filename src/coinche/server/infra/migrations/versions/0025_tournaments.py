"""Tournaments (issue 30): ``tournaments`` (their rules, format, schedule, committed
secret and where they stand), ``tournament_entries`` (a pair, or a person alone waiting to
be paired), ``tournament_players`` (one entry per person per tournament, by its primary
key) and ``tournament_tables`` (each round's tables, named before they are made, with
their results); the ``tables`` of a tournament's round say so.

Revision ID: 0025
Revises: 0024
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0025"
down_revision = "0024"


def upgrade() -> None:
    op.add_column("tables", sa.Column("tournament_id", sa.String(16), nullable=True))
    op.add_column("tables", sa.Column("tournament_round", sa.Integer(), nullable=False, server_default="0"))
    op.add_column("tables", sa.Column("deal_limit", sa.Integer(), nullable=True))
    op.add_column("tables", sa.Column("closes_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("organiser_id", sa.String(32), nullable=False),
        sa.Column("profile", sa.String(16), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("format", sa.String(12), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("deals", sa.Integer(), nullable=False),
        sa.Column("minutes_per_deal", sa.Float(), nullable=False),
        sa.Column("break_seconds", sa.Integer(), nullable=False),
        sa.Column("duration_minutes", sa.Integer(), nullable=False, server_default="60"),
        sa.Column("opens_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("code", sa.String(8), nullable=True, unique=True),
        sa.Column("alone", sa.Boolean(), nullable=False),
        sa.Column("computer_partner", sa.Boolean(), nullable=False),
        sa.Column("level", sa.String(16), nullable=False),
        sa.Column("secret", sa.LargeBinary(32), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("state", sa.String(12), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("round_ends_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("round_closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_tournaments_state", "tournaments", ["state", "starts_at"])
    op.create_table(
        "tournament_entries",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("tournament_id", sa.String(16), nullable=False),
        sa.Column("first_id", sa.String(32), nullable=False),
        sa.Column("second_id", sa.String(32), nullable=True),
        sa.Column("second_ok", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("withdrawn_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_tournament_entries_tournament", "tournament_entries", ["tournament_id"])
    op.create_table(
        "tournament_players",
        sa.Column("tournament_id", sa.String(16), primary_key=True),
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("entry_id", sa.String(16), nullable=False),
    )
    op.create_index("ix_tournament_players_player", "tournament_players", ["player_id"])
    op.create_table(
        "tournament_tables",
        sa.Column("table_id", sa.String(16), primary_key=True),
        sa.Column("tournament_id", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("ns_entry", sa.String(16), nullable=False),
        sa.Column("ew_entry", sa.String(16), nullable=True),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.UniqueConstraint("tournament_id", "round", "number", name="uq_tournament_tables_number"),
    )


def downgrade() -> None:
    op.drop_table("tournament_tables")
    op.drop_index("ix_tournament_players_player", table_name="tournament_players")
    op.drop_table("tournament_players")
    op.drop_index("ix_tournament_entries_tournament", table_name="tournament_entries")
    op.drop_table("tournament_entries")
    op.drop_index("ix_tournaments_state", table_name="tournaments")
    op.drop_table("tournaments")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("closes_at")
        batch.drop_column("deal_limit")
        batch.drop_column("tournament_round")
        batch.drop_column("tournament_id")
