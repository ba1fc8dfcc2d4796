"""What the server processes on one PostgreSQL database share (issue 19). The presence,
grace periods and idle clocks of a friends' table whose people are connected to different
processes: each sees the other come and go, a dropped person is replaced after the grace
period and gets the seat back through the other process, and a person whose process died
(its presence no longer confirmed) is replaced by a process still watching. The rate
limits: the tries made through every process count together. The hub: a lost connection
loses nothing."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from friends_helpers import Person
from server_helpers import another_visitor, call, live_table, parts_of, raw_receive, run_async
from sqlalchemy import text
from starlette.websockets import WebSocketDisconnect
from test_accounts import sign_up
from test_friends import seated_table, wait_for
from test_service import two_processes

from coinche.engine.rules import RuleSet
from coinche.server.infra.db import now
from coinche.server.infra.postgres_hub import LISTENER, PostgresHub
from coinche.server.infra.store import Store, new_id
from coinche.server.live.presence import STALE, write_count
from coinche.server.table.spec import Seat, Step, TableSpec

pytestmark = pytest.mark.both_databases


@pytest.fixture
def postgres_url(database_url: str) -> str:
    if not database_url.startswith("postgresql"):
        pytest.skip("one process only on SQLite")
    return database_url


def test_people_on_two_processes_see_each_other_and_the_grace_period_runs(tmp_path: Path, postgres_url: str) -> None:
    clocks: dict[str, Any] = {"grace_seconds": 0.6, "idle_warning_seconds": 60, "idle_move_seconds": 120}
    with two_processes(tmp_path, postgres_url, **clocks) as (a, b):
        host, (paul,), table_id, _code = seated_table(a, ("Paul", 2))
        paul.client = b  # Paul's connections go to the other process
        with host.connect(table_id) as h:
            h.next_state()
            with paul.connect(table_id) as p:
                p.next_state()
                # Each process shows the person the other one holds.
                wait_for(h, lambda m: m["type"] == "presence" and m["seats"][2]["presence"] == "here")
                wait_for(p, lambda m: m["type"] == "presence" and m["seats"][0]["presence"] == "here")
                assert h.answer(h.send("host", op="start"))["type"] == "ack"
            away = wait_for(h, lambda m: m["type"] == "presence" and m["seats"][2]["presence"] == "away")
            assert away["seats"][2]["name"] == "Paul"
            replaced = wait_for(h, lambda m: m["type"] == "state" and m["last"] and m["last"].get("seat_change"))
            assert replaced["table"]["seats"][2]["presence"] == "replaced"
            # Back through the first process: the seat is his again.
            paul.client = a
            with paul.connect(table_id) as p:
                assert p.next_state()["table"]["you"] == 2
                said = wait_for(h, lambda m: m["type"] == "state" and m["last"] and m["last"].get("seat_change"))
                assert said["last"]["text"] == "Nord (Paul, invité) reprend sa place"
                assert live_table(a, table_id).seats[2].stand_in is None


def test_a_person_whose_process_died_is_replaced_by_a_process_still_watching(tmp_path: Path, postgres_url: str) -> None:
    clocks: dict[str, Any] = {"grace_seconds": 0.6, "idle_warning_seconds": 60, "idle_move_seconds": 120}
    with two_processes(tmp_path, postgres_url, **clocks) as (a, _b):
        host, (paul,), table_id, _code = seated_table(a, ("Paul", 2))
        store = parts_of(a).store
        # Paul is connected to another process, which dies: its last confirmation was
        # 9 s ago, so it counts for 6 s more (STALE), then no longer (the host's page,
        # opened meanwhile on a loaded machine, must still find him here).
        call(a, parts_of(a).db, write_count, store, table_id, paul_id(a, table_id), "dead-host:1:abc", 1)
        with store.engine.begin() as conn:
            conn.execute(
                text("UPDATE table_presence SET seen_at = :t WHERE process = 'dead-host:1:abc'"),
                {"t": now() - timedelta(seconds=STALE - 6)},
            )
        with host.connect(table_id) as h:
            assert h.next_state()["table"]["seats"][2]["presence"] == "here"
            assert h.answer(h.send("host", op="start"))["type"] == "ack"
            replaced = wait_for(h, lambda m: m["type"] == "state" and m["last"] and m["last"].get("seat_change"))
            assert replaced["table"]["seats"][2]["presence"] == "replaced"
            assert live_table(a, table_id).seats[2].stand_in is not None
        del paul


def paul_id(client: Any, table_id: str) -> str:
    player = live_table(client, table_id).seats[2].player
    assert player is not None
    return player


def test_a_table_made_private_through_one_process_sends_away_the_watchers_of_another(
    tmp_path: Path, postgres_url: str
) -> None:
    with two_processes(tmp_path, postgres_url) as (a, b):
        host, _, table_id, _code = seated_table(a, public="on")
        viewer = another_visitor(b)
        with viewer.websocket_connect(f"/ws/watch/{table_id}") as w:
            assert raw_receive(w)["type"] == "hello"
            assert raw_receive(w)["type"] == "state"
            r = host.post(f"/table/{table_id}/ouverte", {"public": "off"}, f"/table/{table_id}")
            assert r.status_code == 303
            with pytest.raises(WebSocketDisconnect) as closed:
                for _ in range(20):
                    assert raw_receive(w, 10.0)["type"] not in ("state", "step")
            assert closed.value.code == 4404


def test_a_rate_limit_counts_the_tries_of_every_process(tmp_path: Path, postgres_url: str) -> None:
    """Two sign-ups an hour from one address: one through each process, the third refused
    whichever process it reaches (a count per process would let two through each)."""
    with two_processes(tmp_path, postgres_url, signup_limit="2/hour") as (a, b):
        for client, name in ((a, "Alpha"), (b, "Bravo")):
            client.cookies.clear()
            assert sign_up(client, name).status_code == 303
        for client, name in ((a, "Charlie"), (b, "Delta")):
            client.cookies.clear()
            r = sign_up(client, name)
            assert r.status_code == 429 and int(r.headers["retry-after"]) > 60, r.status_code


def test_a_hub_that_lost_its_connection_tells_its_subscribers_what_they_missed(postgres_url: str) -> None:
    """The listening connection is cut (PostgreSQL restarted, a network fault): a step
    announced meanwhile is never heard, so once connected again the hub reads the newest
    seq of each table subscribed here from the log and tells its subscribers."""
    store = Store(postgres_url)
    bot = Seat("bot", level="beginner")
    spec = TableSpec(new_id(), RuleSet.profile("classic"), 7, 0, (Seat("human", player="p"), bot, bot, bot), "x")
    store.create_table(spec)
    store.append_step(spec.id, Step(0, "deal", 0))

    async def scenario() -> int:
        listening, talking = PostgresHub(postgres_url), PostgresHub(postgres_url)
        await listening.start()
        await talking.start()
        try:
            async with listening.subscribe(spec.id) as sub:
                with store.engine.begin() as conn:  # cut every hub's listening connection
                    conn.execute(
                        text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = :a"),
                        {"a": LISTENER},
                    )
                store.append_step(spec.id, Step(1, "deal", 1))
                await talking.publish(spec.id, 2)  # lost for the hub that is not listening
                seq, _ = await asyncio.wait_for(sub.wait(), 15)
                return seq
        finally:
            await listening.close()
            await talking.close()

    try:
        assert run_async(scenario) == 2
    finally:
        store.close()


def test_a_seat_taken_through_one_process_opens_the_table_through_another(tmp_path: Path, postgres_url: str) -> None:
    """The second process holds an older copy of the table (the host is connected there)
    when a friend takes a seat through the first: the friend's connection to the second
    process reads the table again instead of refusing a seat its copy does not show."""
    with two_processes(tmp_path, postgres_url) as (a, b):
        host, _, table_id, code = seated_table(a)
        host.client = b
        with host.connect(table_id) as h:
            h.next_state()  # b now holds the table, with the host alone
            paul = Person(a, "Paul")
            assert paul.take_seat(code, 2).status_code == 303  # through a
            paul.client = b
            with paul.connect(table_id) as p:
                assert p.next_state()["table"]["you"] == 2


def test_a_burst_of_publishes_reaches_the_other_process_whole_and_in_order(postgres_url: str) -> None:
    """Publishes made together go in one round trip each batch (the moves of many tables
    do not queue for a round trip each): every one returns, and the other process hears
    each table's newest seq and every event, in the order they were sent."""
    tables = [new_id() for _ in range(5)]

    async def scenario() -> tuple[dict[str, int], list[int]]:
        listening, talking = PostgresHub(postgres_url), PostgresHub(postgres_url)
        await listening.start()
        await talking.start()
        try:
            subs = [listening.subscribe(t, events=False) for t in tables]
            heard = listening.subscribe(tables[0], steps=False)
            sends = [talking.publish(t, seq) for seq in range(1, 41) for t in tables]
            sends += [talking.signal(tables[0], {"n": n}) for n in range(12)]
            sends += [talking.signal(tables[0], {"n": "again"}) for _ in range(2)]  # equal, and two
            await asyncio.wait_for(asyncio.gather(*sends), 15)
            newest: dict[str, int] = {}
            for table_id, sub in zip(tables, subs, strict=True):
                while newest.get(table_id) != 40:
                    newest[table_id], _ = await asyncio.wait_for(sub.wait(), 15)
            events: list[int] = []
            while len(events) < 14:
                _, got = await asyncio.wait_for(heard.wait(), 15)
                events += [e["n"] for e in got]
            return newest, events
        finally:
            await listening.close()
            await talking.close()

    newest, events = run_async(scenario)
    assert newest == dict.fromkeys(tables, 40)
    assert events == [*range(12), "again", "again"]
