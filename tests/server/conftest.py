"""Fixtures of the server tests: settings on a temporary SQLite file with no bot delay,
and the application in process (Starlette's ``TestClient``, lifespan and bot workers
included)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from coinche.server.app import create_app
from coinche.server.config import Settings


def settings_for(tmp_path: Path, **overrides: Any) -> Settings:
    """Settings for a test: its own database, computers that answer at once, deals that
    follow from a seed (a failure can be played again)."""
    values: dict[str, Any] = {
        "database_url": f"sqlite:///{tmp_path}/x.db",
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
def make_client(tmp_path: Path) -> Iterator[MakeClient]:
    """``make_client(**settings)``: a started application and its test client (closed at
    the end of the test); ``raise_server_exceptions`` goes to the client."""
    with contextlib.ExitStack() as stack:

        def make(raise_server_exceptions: bool = True, **overrides: Any) -> TestClient:
            app = create_app(settings_for(tmp_path, **overrides))
            client = TestClient(app, raise_server_exceptions=raise_server_exceptions)
            return stack.enter_context(client)

        yield make


@pytest.fixture
def client(make_client: MakeClient) -> TestClient:
    """The application with the default test settings (three free deals)."""
    return make_client()
