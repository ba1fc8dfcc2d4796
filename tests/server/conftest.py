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
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from postgres_cluster import PostgresCluster, postgres_bin
from server_helpers import MakeClient, settings_for
from starlette.testclient import TestClient

from coinche.server.infra.db import make_engine, migrate
from coinche.server.web.app import create_app
from install_lock import install_lock

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
    with install_lock():  # parallel test processes: one installs, the others then find it
        if postgres_bin() is not None and shutil.which("nginx") is not None:
            return
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


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An SQLite file with the newest schema, made once for the test process: each test's
    database is a copy of it. Migrating a new file took each test's application start
    about 0.2 s of CPU and many synced writes, most of a short test."""
    path = tmp_path_factory.mktemp("template") / "schema.db"
    engine = make_engine(f"sqlite:///{path}")
    migrate(engine)
    engine.dispose()  # the last connection closed: the write-ahead log is folded into the file
    return path


@pytest.fixture
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new database for the test, with the newest schema: a copy of the SQLite template,
    or a PostgreSQL database made from the cluster's template."""
    if getattr(request, "param", "sqlite") == "postgresql":
        cluster: PostgresCluster = request.getfixturevalue("postgres")
        return cluster.new_database()
    path = tmp_path / "x.db"
    shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
    return f"sqlite:///{path}"


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
