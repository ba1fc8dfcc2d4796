"""The database: its engine (SQLite or PostgreSQL), its migrations (Alembic, applied at
start, once however many processes start together) and the declarative ``Base`` every
row class is declared on: infra's in ``infra/rows/`` (tables and their logs, people,
ratings, the daily challenge, puzzles, what processes share), a feature's in its own
``rows.py``. The migrations make the schema; the row classes say it to SQLAlchemy, and
``tests/server/test_migrations.py`` checks that the two agree."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError
from sqlalchemy.orm import DeclarativeBase

MIGRATIONS = Path(__file__).parent / "migrations"


def now() -> datetime:
    return datetime.now(UTC)


def aware(moment: datetime) -> datetime:
    """A datetime read from the database, aware: SQLite gives back naive ones (they were
    stored in UTC); PostgreSQL's are aware already."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


class Base(DeclarativeBase):
    """What every row class derives from: one metadata for the whole schema."""


def is_postgresql(database: str | Engine) -> bool:
    """Whether ``database`` (a URL, or an engine) is PostgreSQL: the one place that tells.
    PostgreSQL is what several processes share (LISTEN/NOTIFY, workers, advisory locks, rate
    limits counted in the database); SQLite is one process's own."""
    if isinstance(database, Engine):
        return database.dialect.name == "postgresql"
    try:
        return make_url(database).get_backend_name() == "postgresql"
    except ArgumentError:
        return False


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
"""The PostgreSQL advisory lock the migrations run under ("coinche" in hex)."""


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest migration (a second start changes nothing). Several
    processes starting together migrate once: on PostgreSQL the first holds an advisory
    lock for its transaction and the others, waiting on it, then find the schema done; on
    SQLite a process that lost the race to another's DDL reads the schema again."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    for attempt in range(3):
        try:
            with engine.begin() as conn:
                if is_postgresql(engine):
                    conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
                config.attributes["connection"] = conn
                command.upgrade(config, "head")
            return
        except DBAPIError:
            if is_postgresql(engine) or attempt == 2:
                raise
            time.sleep(0.5)
