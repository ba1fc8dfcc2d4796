"""Quick play's queue in the database (``features/quick_play.py``), on SQLite and on
PostgreSQL: one row per person whatever the presses, leaving, a wave claiming the rows it
seats (two processes' waves at once never seat a person twice), blocks kept apart, and
the tables a dead process claimed but never made found again."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import datetime, timedelta

import pytest
from sqlalchemy import update

from coinche.server.features.following import FollowingStore
from coinche.server.features.quick_play import QuickPlayStore
from coinche.server.infra.db import now
from coinche.server.infra.rows.lobby import QuickWaitRow
from coinche.server.infra.store import Store
from coinche.server.table.ratings import LevelRatings, Rating

pytestmark = pytest.mark.both_databases

LEVELS = LevelRatings.load()
T0 = datetime(2026, 12, 4, 20, 0, tzinfo=now().tzinfo)


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    """The database alone, no application: an application runs waves of its own, on the
    real clock, which would seat these tests' people before the tests' own waves."""
    made = Store(database_url)
    yield made
    made.close()


def store_of(store: Store) -> Store:
    return store


def queue(store: Store) -> QuickPlayStore:
    return QuickPlayStore(store)


def test_joining_twice_keeps_the_place_and_leaving_empties_it(store: Store) -> None:
    q = queue(store)
    first = q.join("anne", "classic", Rating(25, 3), 20, T0)
    again = q.join("anne", "house", Rating(25, 3), 20, T0 + timedelta(seconds=5))  # another tab
    assert again.since == first.since == T0 and again.rules == "house" and again.table_id is None
    assert again.seconds_left(T0 + timedelta(seconds=5)) == 15
    assert q.leave("anne") and q.status("anne") is None
    assert not q.leave("anne")


def test_a_wave_claims_four_people_and_a_seated_person_cannot_leave(store: Store) -> None:
    q = queue(store)
    for name in ("a", "b", "c", "d", "e"):
        q.join(name, "classic", Rating(25, 3), 20, T0)
    [(table_id, match)] = q.claim_wave(T0 + timedelta(seconds=1), LEVELS)
    assert len(match.players) == 4
    for p in match.players:
        status = q.status(p)
        assert status is not None and status.table_id == table_id
        assert not q.leave(p)
    assert q.claim_wave(T0 + timedelta(seconds=2), LEVELS) == []  # the fifth waits...
    [(_, alone)] = q.claim_wave(T0 + timedelta(seconds=20), LEVELS)  # ...until the computers come
    assert len(alone.players) == 1
    again = q.join(match.players[0], "classic", Rating(26, 3), 20, T0 + timedelta(seconds=60))
    assert again.table_id is None and again.since == T0 + timedelta(seconds=60)  # a new wait


def test_blocked_people_are_never_seated_together(store: Store) -> None:
    q = queue(store)
    blocks = FollowingStore(q.store)
    blocks.block("a", "b", T0)
    blocks.block("a", "b", T0)  # twice: once
    for name in "abcd":
        q.join(name, "classic", Rating(25, 3), 20, T0)
    late = q.claim_wave(T0 + timedelta(seconds=30), LEVELS)
    assert all(not {"a", "b"} <= set(m.players) for _, m in late)
    assert sorted(p for _, m in late for p in m.players) == list("abcd")


def test_two_waves_at_once_seat_nobody_twice(store: Store, database_url: str) -> None:
    other = Store(database_url)  # a second process's
    q1, q2 = queue(store), queue(other)
    for i in range(40):
        q1.join(f"p{i:02}", "classic", Rating(25 + (i % 7) * 0.3, 3), 20, T0)
    results: list[list[tuple[str, object]]] = [[], []]

    def run(n: int, q: QuickPlayStore) -> None:
        for k in range(5):
            results[n].extend(q.claim_wave(T0 + timedelta(seconds=1 + k), LEVELS))

    threads = [threading.Thread(target=run, args=(n, q)) for n, q in enumerate((q1, q2))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seated = [p for made in results for _, m in made for p in m.players]  # type: ignore[attr-defined]
    assert len(seated) == len(set(seated)) == 40
    tables = {table_id for made in results for table_id, _ in made}
    assert len(tables) == 10
    for i in range(40):
        status = q2.status(f"p{i:02}")
        assert status is not None and status.table_id in tables
    other.close()


def test_a_table_claimed_but_never_made_is_found_again(store: Store) -> None:
    q = queue(store)
    for name in "abcd":
        q.join(name, None, Rating(25, 3), 20, T0)
    [(table_id, _)] = q.claim_wave(T0 + timedelta(seconds=1), LEVELS)
    assert q.unmade(T0) == []  # claimed just now: its process is making it
    [(found, people)] = q.unmade(T0 + timedelta(seconds=30))
    assert found == table_id and sorted(w.player for w in people) == list("abcd")
    with store_of(store).engine.begin() as conn:  # a wait of a table made long ago
        conn.execute(update(QuickWaitRow).values(table_id=None))
    assert q.unmade(T0 + timedelta(seconds=30)) == []
