"""Fixtures of the server tests: settings on a temporary SQLite file with no bot delay,
and the application in process (Starlette's ``TestClient``, lifespan and bot workers
included).

The database: ``database_url`` is a new SQLite file; a test module marked
``pytestmark = pytest.mark.both_databases`` runs once on SQLite and once on a PostgreSQL
database of its own (a cluster the session starts, ``tests/postgres_cluster.py``).
``COINCHE_TEST_DATABASE=postgresql`` runs every test that uses ``database_url`` on
PostgreSQL only.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from postgres_cluster import PostgresCluster, postgres_bin
from starlette.testclient import TestClient

from coinche.server.app import create_app
from coinche.server.config import Settings

BACKENDS = ("sqlite", "postgresql")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "both_databases: run the test on SQLite and on PostgreSQL")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "database_url" not in metafunc.fixturenames:
        return
    only = os.environ.get("COINCHE_TEST_DATABASE")
    if only:
        backends: tuple[str, ...] = (only,)
    elif metafunc.definition.get_closest_marker("both_databases"):
        backends = BACKENDS
    else:
        backends = ("sqlite",)
    metafunc.parametrize("database_url", backends, indirect=True)


def _install_postgres_and_nginx() -> None:
    """As root on Debian, like the browser tests' Chromium: ``apt-get install postgresql
    nginx`` (the packages only; the tests start their own cluster and nginx)."""
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (["apt-get", "update"], ["apt-get", "install", "-y", "postgresql", "nginx"]):
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=1200, check=False)
        if done.returncode != 0:
            pytest.fail(
                f"`{' '.join(command)}` failed (status {done.returncode}):\n{(done.stdout + done.stderr)[-2000:]}"
            )


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresCluster]:
    """The session's PostgreSQL cluster, the package installed first when missing (as root
    with apt-get); else skipped, except in CI (``CI=true``), where it must run."""
    if postgres_bin() is None and os.geteuid() == 0 and shutil.which("apt-get"):
        _install_postgres_and_nginx()
    if postgres_bin() is None:
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL is not installed and could not be (CI=true: the PostgreSQL tests must run)")
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql)")
    cluster = PostgresCluster()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new database for the test: an SQLite file, or a PostgreSQL database with the schema."""
    if getattr(request, "param", "sqlite") == "postgresql":
        cluster: PostgresCluster = request.getfixturevalue("postgres")
        return cluster.new_database()
    return f"sqlite:///{tmp_path}/x.db"


def settings_for(tmp_path: Path, database_url: str | None = None, **overrides: Any) -> Settings:
    """Settings for a test: its own database, computers that answer at once, deals that
    follow from a seed (a failure can be played again)."""
    values: dict[str, Any] = {
        "database_url": database_url or f"sqlite:///{tmp_path}/x.db",
        "bot_delay": 0,
        "trick_pause": 0,
        "bot_workers": 1,
        "table_seed": "test",
        # Tests open many tables as one guest, from one address: the limits have tests of
        # their own, which set them.
        "open_tables_guest": 1000,
        "table_limit": "10000/minute",
        "table_limit_per_address": "10000/minute",
        "login_limit": "10000/minute",
        "signup_limit": "10000/minute",
        # A cheap hash: the argon2 parameters of the site have a test of their own.
        "argon2_time_cost": 1,
        "argon2_memory_kib": 8,
        "argon2_parallelism": 1,
    }
    values.update(overrides)
    return Settings(**values)


MakeClient = Callable[..., TestClient]


@pytest.fixture
def make_client(tmp_path: Path, database_url: str) -> Iterator[MakeClient]:
    """``make_client(**settings)``: a started application and its test client (closed at
    the end of the test); ``raise_server_exceptions`` goes to the client."""
    with contextlib.ExitStack() as stack:

        def make(raise_server_exceptions: bool = True, **overrides: Any) -> TestClient:
            app = create_app(settings_for(tmp_path, database_url, **overrides))
            client = TestClient(app, raise_server_exceptions=raise_server_exceptions)
            return stack.enter_context(client)

        yield make


@pytest.fixture
def client(make_client: MakeClient) -> TestClient:
    """The application with the default test settings (three free deals)."""
    return make_client()
