"""The database: its engine (SQLite or PostgreSQL), its migrations (Alembic, applied at
start, once however many processes start together) and the declarative ``Base`` every
row class is declared on: infra's in ``infra/rows/`` (tables and their logs, people,
ratings, the daily challenge, puzzles, what processes share), a feature's in its own
``rows.py``. The migrations make the schema; the row classes say it to SQLAlchemy, and
``tests/server/test_migrations.py`` checks that the two agree."""

from __future__ import annotations

import functools
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import DeclarativeBase

from .backend import Backend

MIGRATIONS = Path(__file__).parent / "migrations"


def now() -> datetime:
    return datetime.now(UTC)


def aware(moment: datetime) -> datetime:
    """A datetime read from the database, aware: SQLite gives back naive ones (they were
    stored in UTC); PostgreSQL's are aware already."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


class Base(DeclarativeBase):
    """What every row class derives from: one metadata for the whole schema."""


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets WAL and a busy timeout (readers never block the
    writer, a second process waits instead of failing)."""
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(conn: Any, _record: Any) -> None:
            cur = conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


MIGRATION_LOCK = 0x636F696E636865
"""The lock the migrations run under ("coinche" in hex)."""


def migrate(engine: Engine, backend: Backend | None = None) -> None:
    """Bring the schema to the newest migration (a second start changes nothing). Several
    processes starting together migrate once: the first holds the schema for its
    transaction (``Backend.lock_schema``) and the others, waiting on it, then find the
    schema done."""
    backend = backend or Backend.of(engine.url.render_as_string(hide_password=False))
    config = _config()
    with engine.begin() as conn:
        backend.lock_schema(conn, MIGRATION_LOCK)
        if MigrationContext.configure(conn).get_current_revision() == _head():
            return
        config.attributes["connection"] = conn
        command.upgrade(config, "head")


def _config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


@functools.cache
def _head() -> str | None:
    """The newest migration's revision, read once a process: Alembic compiles every
    migration's file each time it reads them, most of a start on a schema already made."""
    return ScriptDirectory.from_config(_config()).get_current_head()
