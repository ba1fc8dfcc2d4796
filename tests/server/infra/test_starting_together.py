"""Several server processes starting together on one new database: the migrations run
once and every process signs cookies with the same key, made once."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

pytestmark = pytest.mark.both_databases

START = """
import sys
from coinche.server.infra.store import Store
store = Store(sys.argv[1])
print(store.secret_key())
store.close()
"""


@pytest.fixture
def empty_database_url(request: pytest.FixtureRequest, database_url: str, tmp_path: Path) -> str:
    """A database with no schema yet (the fixture's PostgreSQL ones have it)."""
    if database_url.startswith("postgresql"):
        cluster = request.getfixturevalue("postgres")
        url: str = cluster.new_database(schema=False)
        return url
    return f"sqlite:///{tmp_path / 'new.db'}"


def test_four_processes_starting_together_migrate_once_and_share_one_key(empty_database_url: str) -> None:
    processes = [
        subprocess.Popen([sys.executable, "-c", START, empty_database_url], stdout=subprocess.PIPE, text=True)
        for _ in range(4)
    ]
    keys = []
    for p in processes:
        out, _ = p.communicate(timeout=120)
        assert p.returncode == 0
        keys.append(out.strip())
    assert len(set(keys)) == 1 and len(keys[0]) >= 32, keys
    engine = create_engine(empty_database_url)
    try:
        with engine.connect() as conn:
            versions = conn.execute(text("SELECT version_num FROM alembic_version")).all()
            settings = conn.execute(text("SELECT count(*) FROM settings WHERE key = 'secret_key'")).scalar()
    finally:
        engine.dispose()
    assert len(versions) == 1 and settings == 1, (versions, settings)
