"""Alembic environment: migrations run on the connection the server hands over. The
metadata holds the rows of the modules imported (infra's, here; a feature's once loaded:
``services.py`` loads them all, ``tests/server/test_migrations.py`` compares them with
the migrations); an upgrade reads none of it."""

from __future__ import annotations

from alembic import context

import coinche.server.infra.rows  # noqa: F401  (infra's rows, in the metadata)
from coinche.server.infra.db import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
