"""The backend (``infra/backend.py``): the one place that knows which database it is. Its
locks hold a second transaction until the first ends, on SQLite too; and no module of the
features, the live tables, the web or the compute layer asks the database's kind or
writes its SQL."""

from __future__ import annotations

import ast
import re
import threading
from pathlib import Path

import pytest
from server_helpers import run_async
from sqlalchemy import Connection
from sqlalchemy.orm import Session

from coinche.server.infra.backend import Backend
from coinche.server.infra.hub import LocalHub
from coinche.server.infra.store import Store

pytestmark = pytest.mark.both_databases

SERVER = Path(__file__).resolve().parents[3] / "src" / "coinche" / "server"

ABOVE_THE_BACKEND = ("features", "live", "web", "compute")
"""The layers that ask the backend and never the database's kind."""

DIALECT_NAMES = {"postgresql", "is_postgresql", "dialect", "sqlite_insert", "postgresql_insert", "PostgresHub"}
"""Names whose use is a question about the database's kind."""

DIALECT_SQL = re.compile(r"\bpg_\w+|hashtext|SKIP LOCKED|ON CONFLICT|make_interval|\bLISTEN |\bNOTIFY |sqlite_master")
"""SQL that one of the two databases does not speak."""


def _code_of(path: Path) -> list[tuple[int, str, bool]]:
    """``(line, text, is_string)`` of each name, attribute and string of a module,
    docstrings left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    found: list[tuple[int, str, bool]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            found.append((node.lineno, node.id, False))
        elif isinstance(node, ast.Attribute):
            found.append((node.lineno, node.attr, False))
        elif isinstance(node, ast.alias):
            found.append((node.lineno, node.asname or node.name.rsplit(".", 1)[-1], False))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            found.append((node.lineno, node.value, True))
    return found


@pytest.mark.parametrize("layer", ABOVE_THE_BACKEND)
def test_no_layer_above_the_backend_asks_the_database_kind_nor_writes_its_sql(layer: str) -> None:
    modules = sorted((SERVER / layer).rglob("*.py"))
    assert modules, f"no module in {SERVER / layer}"
    wrong = [
        f"{path.relative_to(SERVER)}:{line}: {text[:60]!r}"
        for path in modules
        for line, text, is_string in _code_of(path)
        if (DIALECT_SQL.search(text) if is_string else text in DIALECT_NAMES)
    ]
    assert not wrong, "ask the backend (Store.backend) instead:\n" + "\n".join(wrong)


def test_the_backend_of_an_sqlite_url_is_one_process_own() -> None:
    backend = Backend.of("sqlite:///somewhere.db")
    assert not backend.shared
    assert backend.work_queue(None) is None  # type: ignore[arg-type]
    assert Backend.of("postgresql+psycopg://coinche@db.example/coinche").shared
    assert not Backend.of("not a url").shared


def test_the_sqlite_hub_is_this_process_own() -> None:
    assert isinstance(run_async(Backend.of("sqlite:///somewhere.db").hub), LocalHub)


def _holding(store: Store, key: str, session: bool) -> tuple[threading.Event, threading.Event, threading.Thread]:
    """A thread whose transaction takes ``key`` and keeps it until ``done`` is set: (it
    holds the lock, done, the thread)."""
    held, done = threading.Event(), threading.Event()

    def hold(transaction: Session | Connection) -> None:
        store.backend.lock(transaction, key)
        held.set()
        assert done.wait(30)

    def run() -> None:
        if session:
            with store.session() as s, s.begin():
                hold(s)
        else:
            with store.engine.begin() as conn:
                hold(conn)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return held, done, thread


@pytest.mark.parametrize("session", [True, False], ids=["session", "connection"])
def test_a_lock_holds_a_second_transaction_until_the_first_ends(database_url: str, session: bool) -> None:
    store = Store(database_url)
    try:
        first_holds, first_done, first = _holding(store, "name-skeleton:abc", session)
        assert first_holds.wait(10)
        second_holds, second_done, second = _holding(store, "name-skeleton:abc", session)
        other_holds, other_done, other = _holding(store, "another key", session)
        assert other_holds.wait(10), "another key is not held by the first transaction"
        assert not second_holds.wait(0.3), "the second transaction took a lock the first holds"
        first_done.set()
        assert second_holds.wait(10), "the lock was not let go at the first transaction's commit"
        second_done.set()
        other_done.set()
        for thread in (first, second, other):
            thread.join(10)
    finally:
        store.close()


def test_a_lock_is_let_go_when_its_transaction_rolls_back(database_url: str) -> None:
    store = Store(database_url)
    try:
        with pytest.raises(RuntimeError), store.session() as s, s.begin():
            store.backend.lock(s, "key")
            raise RuntimeError("a check failed")
        holds, done, thread = _holding(store, "key", session=True)
        assert holds.wait(10), "the lock stayed held after a rollback"
        done.set()
        thread.join(10)
    finally:
        store.close()
