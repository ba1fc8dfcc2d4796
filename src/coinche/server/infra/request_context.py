"""What the code running for one request or one table move knows about it without being
told: the request's id, the table it is about, and the database time it has spent so far.

They are context variables, so each asyncio task (a request, a table's commit, a
computer's turn) sees its own; the log lines read the ids (``process_logs``) and the
metrics read the database time (``features/metrics.py``) with no argument passed down
through every call."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Final


@dataclass
class DatabaseTime:
    """The seconds one request waited on the database (``Database`` adds to it)."""

    seconds: float = 0.0
    calls: int = 0


REQUEST_ID: Final[ContextVar[str | None]] = ContextVar("coinche_request_id", default=None)
"""The id of the HTTP request or WebSocket being served (also its ``X-Request-ID``)."""

TABLE_ID: Final[ContextVar[str | None]] = ContextVar("coinche_table_id", default=None)
"""The table a move, a computer's turn or a table's page is about."""

REQUEST_SCOPE: Final[ContextVar[Mapping[str, Any] | None]] = ContextVar("coinche_request_scope", default=None)
"""The ASGI scope of the request being served: once routed, its ``path_params`` name the
table a table's address is about."""

DATABASE_TIME: Final[ContextVar[DatabaseTime | None]] = ContextVar("coinche_database_time", default=None)
"""Where the database's calls of this request add their time (None: nobody counts)."""


def new_request_id() -> str:
    """A request's id: 12 random hex digits, enough to find one request's lines."""
    return secrets.token_hex(6)


def table_id() -> str | None:
    """The table the running code is about: the one a move or a computer's turn named, else
    the one of the request's address (``/table/{table_id}/...``, ``/ws/table/{table_id}``)."""
    named = TABLE_ID.get()
    if named is not None:
        return named
    scope = REQUEST_SCOPE.get()
    if scope is None:
        return None
    params = scope.get("path_params")
    found = params.get("table_id") if isinstance(params, Mapping) else None
    return found if isinstance(found, str) else None
