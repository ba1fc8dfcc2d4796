"""The store's group commit: the steps waiting at once share one transaction, and a step
whose number is taken fails alone."""

from __future__ import annotations

import asyncio

import pytest
from postgres_cluster import PostgresCluster
from server_helpers import run_async
from sqlalchemy import event, text

from coinche.engine.rules import PROFILES
from coinche.server.infra.database import Database
from coinche.server.infra.store import ConflictError, Store, new_id
from coinche.server.table.spec import Seat, Step, TableSpec

pytestmark = pytest.mark.both_databases


def _table(store: Store) -> str:
    bot = Seat("bot", level="confirmed")
    spec = TableSpec(new_id(), PROFILES["classic"], 7, 0, (Seat("human", player="p"), bot, bot, bot), "confirmed")
    store.create_table(spec)
    return spec.id


def test_a_taken_step_fails_alone_in_a_group_commit(database_url: str) -> None:
    store = Store(database_url)
    try:
        a, b = _table(store), _table(store)
        store.append_step(a, Step(0, "deal", 0))
        assert store.append_steps([(a, Step(0, "action", 0, 3)), (b, Step(0, "deal", 1)), (a, Step(1, "deal", 2))]) == [
            False,
            True,
            True,
        ]
        steps = store.load_table(a)[1]  # type: ignore[index]
        assert [(s.seq, s.kind, s.seat) for s in steps] == [(0, "deal", 0), (1, "deal", 2)]
    finally:
        store.close()


def test_steps_written_together_are_answered_each(database_url: str) -> None:
    """Many tables write at once: every step is stored, in one commit or several, and the
    one whose number is taken gets ``ConflictError``; a batch that fails as a whole (a table
    that does not exist) is written again step by step, so only its own step fails."""
    store = Store(database_url)
    tables = [_table(store) for _ in range(20)]
    store.append_step(tables[0], Step(0, "deal", 0))

    async def run() -> list[BaseException | None]:
        db = Database(store)
        try:
            writes = [db.append_step(t, Step(0, "deal", 1)) for t in tables]
            writes.append(db.append_step("no-such-table", Step(0, "deal", 1)))
            return await asyncio.gather(*writes, return_exceptions=True)
        finally:
            db.close()

    try:
        outcomes = run_async(run)
        assert isinstance(outcomes[0], ConflictError)
        assert outcomes[1:20] == [None] * 19
        assert isinstance(outcomes[20], Exception) and not isinstance(outcomes[20], ConflictError)
        for t in tables[1:]:
            assert [s.seat for s in store.load_table(t)[1]] == [1]  # type: ignore[index]
    finally:
        store.close()


def test_free_steps_of_several_tables_are_one_statement(database_url: str) -> None:
    """A group whose numbers are all free is written by one statement run over its rows
    (not one statement a row: the writer thread's cost under load), each step stored."""
    store = Store(database_url)
    tables = [_table(store) for _ in range(5)]
    inserts: list[bool] = []

    def seen(conn: object, cursor: object, statement: str, params: object, context: object, many: bool) -> None:
        if statement.lstrip().upper().startswith("INSERT INTO ACTIONS"):
            inserts.append(many)

    event.listen(store.engine, "before_cursor_execute", seen)
    try:
        assert store.append_steps([(t, Step(0, "deal", n % 4)) for n, t in enumerate(tables)]) == [True] * 5
        assert len(inserts) == 1
        for n, t in enumerate(tables):
            assert [(s.seq, s.seat) for s in store.load_table(t)[1]] == [(0, n % 4)]  # type: ignore[index]
    finally:
        event.remove(store.engine, "before_cursor_execute", seen)
        store.close()


@pytest.mark.parametrize("n", [1, 3])
def test_a_step_alone_is_written_at_once(database_url: str, n: int) -> None:
    store = Store(database_url)
    table = _table(store)

    async def run() -> None:
        db = Database(store)
        try:
            for seq in range(n):
                await asyncio.wait_for(db.append_step(table, Step(seq, "deal", 0)), 10)
        finally:
            db.close()

    try:
        run_async(run)
        assert store.last_seq(table) == n
    finally:
        store.close()


def test_a_stop_iteration_on_a_database_thread_is_an_error_not_a_hang(database_url: str) -> None:
    """A blocking call that lets a StopIteration escape (``next()`` on an empty iterator)
    fails its caller instead of leaving it waiting forever."""
    store = Store(database_url)
    db = Database(store)

    def empty() -> int:
        return next(iter([]))

    async def run() -> None:
        with pytest.raises(RuntimeError):
            await asyncio.wait_for(db(empty), 5)

    run_async(run)
    db.close()
    store.close()


def test_the_writer_keeps_its_connection(database_url: str) -> None:
    """The steps' writer holds one connection from one group commit to the next: a group
    checks none out of the pool (nor pings it, on PostgreSQL)."""
    store = Store(database_url)
    table = _table(store)
    checkouts: list[object] = []

    def checked_out(*_: object) -> None:
        checkouts.append(None)

    async def run() -> None:
        db = Database(store)
        try:
            for seq in range(5):
                await asyncio.wait_for(db.append_step(table, Step(seq, "deal", 0)), 10)
        finally:
            db.close()

    event.listen(store.engine, "checkout", checked_out)
    try:
        run_async(run)
        assert store.last_seq(table) == 5
        assert len(checkouts) <= 2  # the writer's own (and the last_seq read), not one a group
    finally:
        event.remove(store.engine, "checkout", checked_out)
        store.close()


def test_the_writer_opens_a_lost_connection_again(postgres: PostgresCluster) -> None:
    """The writer's connection ended by the server between two steps (a restart, an
    administrator): the next step is stored on a new connection, its writer none the wiser."""
    store = Store(postgres.new_database())
    table = _table(store)
    ended = text(
        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
        " WHERE datname = current_database() AND pid <> pg_backend_pid()"
    )

    async def run() -> int:
        db = Database(store)
        try:
            await asyncio.wait_for(db.append_step(table, Step(0, "deal", 0)), 10)
            store.engine.dispose()  # the pool's idle connections closed: only the writer's is left
            with store.engine.connect() as conn:
                killed = int(conn.execute(ended).scalar_one())
            await asyncio.wait_for(db.append_step(table, Step(1, "deal", 1)), 10)
            await asyncio.wait_for(db.append_step(table, Step(2, "deal", 2)), 10)
            return killed
        finally:
            db.close()

    try:
        assert run_async(run) >= 1
        assert [s.seat for s in store.load_table(table)[1]] == [0, 1, 2]  # type: ignore[index]
    finally:
        store.close()
