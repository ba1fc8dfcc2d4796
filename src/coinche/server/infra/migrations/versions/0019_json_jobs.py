"""The hints and analyses asked of the workers are data, not code: ``bot_jobs`` keeps a
job's kind and JSON arguments (``kind``, ``arguments``) and its JSON answer (text) instead
of pickled calls and answers.

Rows left by an older version hold pickles: they are deleted, never read (a job lives a few
seconds; whoever asked for it computes it itself once its wait is over). An older process
still running then fails to write the old columns and computes its jobs itself.

Revision ID: 0019
Revises: 0018
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"


def upgrade() -> None:
    op.execute("DELETE FROM bot_jobs")
    with op.batch_alter_table("bot_jobs") as batch:
        batch.drop_column("call")
        batch.drop_column("answer")
        batch.add_column(sa.Column("kind", sa.String(32), nullable=False))
        batch.add_column(sa.Column("arguments", sa.Text(), nullable=False))
        batch.add_column(sa.Column("answer", sa.Text(), nullable=True))


def downgrade() -> None:
    op.execute("DELETE FROM bot_jobs")
    with op.batch_alter_table("bot_jobs") as batch:
        batch.drop_column("answer")
        batch.drop_column("arguments")
        batch.drop_column("kind")
        batch.add_column(sa.Column("call", sa.LargeBinary(), nullable=False))
        batch.add_column(sa.Column("answer", sa.LargeBinary(), nullable=True))
