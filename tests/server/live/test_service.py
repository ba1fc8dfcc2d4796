"""Tables as numbered event streams (issue 15): resuming from a seq, requests applied once,
two table services on one database (with one hub, and each with its own), seats in the
log, idle tables leaving memory, and the computers when something goes wrong."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import (
    Human,
    MakeClient,
    ServerProcess,
    call,
    check_no_leak,
    create_solo,
    is_my_turn,
    live_table,
    new_guest,
    parts_of,
    raw_receive,
    receive,
    request,
    settings_for,
    ws_receive,
)
from slow_bot import BRIEF, ILLEGAL, RAISING, BriefBot
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed

from coinche.engine.actions import parse_call
from coinche.engine.rules import RuleSet
from coinche.server.infra.held_connection import HeldConnection
from coinche.server.infra.hub import LocalHub
from coinche.server.table.live_table import LiveTable, TableError
from coinche.server.table.spec import Seat, Step
from coinche.server.web.app import create_app
from coinche.server.web.table_socket import MAX_CONNECTIONS


def wait_until(condition: Any, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the condition never came"
        time.sleep(0.01)


def test_a_client_that_comes_back_gets_exactly_the_missing_events(client: TestClient) -> None:
    table_id = create_solo(client, "classic", 3000, "confirmed")
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        hello = raw_receive(ws)
        assert hello["type"] == "hello" and not hello["resumed"]
        human = Human(ws)
        first = human.next_state()
        assert first["full"] and first["seq"] == hello["seq"]
        state = human.until_my_move(first)
        seen = state["seq"]
        for _ in range(3):  # a few moves, the computers' included (or the next deal after four passes)
            if state["awaiting_next_deal"]:
                human.ws.send_json(request("next_deal"))
                state = human.next_state()
            else:
                state = human.until_my_move(human.act(state)) if is_my_turn(state) else human.next_state()
        states = [m for m in human.messages if m["type"] == "state"]
        seqs = [m["seq"] for m in states]
        assert seqs == sorted(set(seqs)) and seqs[-1] == live_table(client, table_id).seq
        # Every step after the first state was sent, once, in order.
        assert seqs == list(range(seqs[0], seqs[-1] + 1)) or seqs[1:] == list(range(seqs[1], seqs[-1] + 1))
        now = live_table(client, table_id).seq
    # Back from `seen`: one state per missing step, the same ones as sent live.
    live_states = {m["seq"]: m for m in states}
    with client.websocket_connect(f"/ws/table/{table_id}?since={seen}") as ws:
        ws.coinche_state = live_states[seen]  # the page keeps its state across connections
        hello = raw_receive(ws)
        assert hello == {"type": "hello", "seq": now, "you": 0, "resumed": True}
        missed = [receive(ws) for _ in range(now - seen)]
        assert [m["seq"] for m in missed] == list(range(seen + 1, now + 1))
        assert check_no_leak(missed, live_table(client, table_id).game.deals, seat=0) == len(missed)
        for m in missed:
            if m["seq"] in live_states:
                assert m["game"] == live_states[m["seq"]]["game"] and m["last"] == live_states[m["seq"]]["last"]
    # Up to date: nothing but the hello. Too far behind, or ahead: one full state.
    with client.websocket_connect(f"/ws/table/{table_id}?since={now}") as ws:
        assert raw_receive(ws)["resumed"]
        ws.send_json({"type": "hint", "id": "h1"})
        assert receive(ws)["type"] in ("hint", "error")  # the next message is not a state
    for since in (now + 5, 0 if now > 64 else None, "abc", "-1", "9" * 40):
        query = "" if since is None else f"?since={since}"
        with client.websocket_connect(f"/ws/table/{table_id}{query}") as ws:
            hello = raw_receive(ws)
            state = receive(ws)
            if since == 0:
                continue
            assert not hello["resumed"] and state["full"] and state["seq"] == now, (since, hello)


def test_a_request_sent_twice_is_applied_once_and_answered_twice(client: TestClient) -> None:
    table_id = create_solo(client, "classic", 3000, "beginner")
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        human = Human(ws)
        state = human.until_my_move()
        record = state["game"]["deal"]["legal_actions"][0]
        message = request("action", action=record)
        ws.send_json(message)
        acks = []
        while not acks:
            m = raw_receive(ws)
            if m["type"] == "ack":
                acks.append(m)
        seq = acks[0]["seq"]
        log = list(live_table(client, table_id).game.log)
        ws.send_json(message)  # the resend of a page that lost its connection
        while len(acks) < 2:
            m = raw_receive(ws)
            assert m["type"] != "error", m
            if m["type"] == "ack":
                acks.append(m)
        assert acks[1] == {"type": "ack", "id": message["id"], "seq": seq}
        assert live_table(client, table_id).game.log[: len(log)] == log
        assert live_table(client, table_id).action_seqs.count(seq - 1) == 1
    # From another connection (the page reloaded), the same answer.
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        ws.send_json(message)
        for _ in range(100):
            m = raw_receive(ws)
            if m["type"] == "ack":
                assert m == {"type": "ack", "id": message["id"], "seq": seq}
                break
            assert m["type"] != "error", m


@contextlib.contextmanager
def two_servers(tmp_path: Path, database_url: str, shared_hub: bool) -> Iterator[tuple[TestClient, TestClient]]:
    """Two applications (two table services) on one database, with one hub or two."""
    hub = LocalHub()
    settings = settings_for(tmp_path, database_url, free_deals=100, table_seed="a")
    with contextlib.ExitStack() as stack:
        first = stack.enter_context(TestClient(create_app(settings, hub=hub if shared_hub else LocalHub())))
        second = stack.enter_context(TestClient(create_app(settings, hub=hub if shared_hub else LocalHub())))
        yield first, second


@contextlib.contextmanager
def two_processes(tmp_path: Path, database_url: str, **overrides: Any) -> Iterator[tuple[TestClient, TestClient]]:
    """Two applications on one PostgreSQL database, each with the hub of its database as a
    server process has: they hear each other through PostgreSQL alone."""
    settings = settings_for(tmp_path, database_url, **{"free_deals": 100, "table_seed": "a", **overrides})
    with contextlib.ExitStack() as stack:
        first = stack.enter_context(TestClient(create_app(settings)))
        second = stack.enter_context(TestClient(create_app(settings)))
        yield first, second


def two_humans(client: TestClient) -> tuple[str, str, str, str]:
    """A table where two guests sit (North-South), computers East-West: (table, first
    guest's cookie, second guest's cookie, second guest's id)."""
    first, first_cookie = new_guest(client)
    second, second_cookie = new_guest(client)
    bot = Seat("bot", level="beginner")
    seats = [Seat("human", player=first), bot, Seat("human", player=second), bot]
    spec = call(
        client, parts_of(client).tables.create_table, RuleSet.profile("classic", target=3000), seats, "beginner"
    )
    return spec.id, first_cookie, second_cookie, second


@pytest.mark.parametrize("through", ["one hub", "postgresql"])
@pytest.mark.both_databases
def test_two_services_sharing_a_hub_see_each_others_moves(tmp_path: Path, database_url: str, through: str) -> None:
    if through == "postgresql" and not database_url.startswith("postgresql"):
        pytest.skip("SQLite's hub is one process's own")
    servers = (
        two_servers(tmp_path, database_url, shared_hub=True)
        if through == "one hub"
        else two_processes(tmp_path, database_url)
    )
    with servers as (a, b):
        table_id, cookie_a, cookie_b, _ = two_humans(a)
        a.cookies.clear()
        a.cookies.set("session", cookie_a)
        b.cookies.set("session", cookie_b)
        with a.websocket_connect(f"/ws/table/{table_id}") as ws_a, b.websocket_connect(f"/ws/table/{table_id}") as ws_b:
            north, south = Human(ws_a), Human(ws_b)
            state_a, state_b = north.next_state(), south.next_state()
            for _ in range(60):  # both play through the auction and into the cards
                # A step stored through one server reaches the client of the other.
                while state_b["seq"] < state_a["seq"]:
                    state_b = south.next_state()
                while state_a["seq"] < state_b["seq"]:
                    state_a = north.next_state()
                assert state_a["game"]["deal"]["calls"] == state_b["game"]["deal"]["calls"]
                if len(state_a["game"]["deal"]["tricks"]) >= 2:
                    break
                if state_a["awaiting_next_deal"]:  # four passes: the next deal
                    north.ws.send_json(request("next_deal"))
                    state_a = north.next_state()
                    continue
                if is_my_turn(state_a):
                    state_a = north.act(state_a)
                elif is_my_turn(state_b):
                    state_b = south.act(state_b)
                else:
                    state_a = north.next_state()  # a computer's move
            assert state_a["seq"] == state_b["seq"] > 4
            assert state_a["game"]["deal"]["trick"] == state_b["game"]["deal"]["trick"]


@pytest.mark.both_databases
def test_a_service_that_missed_a_move_catches_up_before_it_accepts_one(tmp_path: Path, database_url: str) -> None:
    """With separate hubs, parts B never hears of A's steps: an action sent to B is
    checked against the log, never refused as ``busy`` or ``not_your_turn`` because B's
    copy is stale."""
    with two_servers(tmp_path, database_url, shared_hub=False) as (a, b):
        table_id, cookie_a, cookie_b, second = two_humans(a)
        a.cookies.clear()
        a.cookies.set("session", cookie_a)
        b.cookies.set("session", cookie_b)
        stale = None
        with a.websocket_connect(f"/ws/table/{table_id}") as ws_a:
            north = Human(ws_a)
            state = north.next_state()
            # A plays on (North, the computers; South's opening if it opens) until South (on
            # B) is to move; B reads the table on the way, when it is not South's turn.
            for _ in range(60):
                if state["awaiting_next_deal"]:  # four passes: the next deal
                    north.ws.send_json(request("next_deal"))
                    state = north.next_state()
                    continue
                to_move = state["game"]["deal"]["to_move"]
                if stale is None and to_move != 2:
                    copy = call(b, parts_of(b).tables.table, table_id)
                    if copy.game.to_move != 2:
                        stale = copy
                    else:  # the computers went on past the state read here: B reads again later
                        parts_of(b).registry.forget(table_id)
                if to_move == 2 and not state["awaiting_next_deal"]:
                    if stale is not None:
                        break
                    first = live_table(a, table_id).game.legal_actions()[0]  # South opens, through A
                    call(a, parts_of(a).tables.act, table_id, second, first, "s0")
                    state = north.next_state()
                    continue
                state = north.act(state) if is_my_turn(state) else north.next_state()
            assert state["game"]["deal"]["to_move"] == 2 and stale is not None
            assert stale.game.to_move != 2  # B's copy: not South's turn
            behind = stale.seq
            assert behind < state["seq"]
            # South's move through B: B stores it after reading A's steps.
            action = live_table(a, table_id).game.legal_actions()[0]
            seq = call(b, parts_of(b).tables.act, table_id, second, action, "s1")
            assert seq == state["seq"] + 1
            assert live_table(b, table_id).seq == seq
            # And a client of B that connects gets the whole table.
            with b.websocket_connect(f"/ws/table/{table_id}?since={behind}") as ws_b:
                hello = raw_receive(ws_b)
                assert hello["seq"] >= seq and hello["resumed"]


def test_seats_are_in_the_log_and_a_replay_knows_who_played(client: TestClient) -> None:
    guest, _ = new_guest(client)
    bot = Seat("bot", level="beginner")
    spec = call(
        client, parts_of(client).tables.create_table, RuleSet.profile("classic", target=700), [bot] * 4, "beginner"
    )
    parts = parts_of(client)
    call(client, parts.tables.change_seat, spec.id, 2, Seat("human", player=guest))
    steps = parts.store.load_table(spec.id)[1]  # type: ignore[index]
    assert steps == [Step(0, "seat", 2, None, Seat("human", player=guest))]
    live = LiveTable.build(spec, steps)
    assert live.seats[2] == Seat("human", player=guest) and live.seat_of(guest) == 2
    assert spec.seats[2] == bot  # the first seats stay what they were


def test_looking_a_table_up_starts_nothing_and_idle_tables_leave_memory(make_client: MakeClient) -> None:
    client = make_client(idle_seconds=0)
    table_id = create_solo(client, "classic", 700, "confirmed")
    parts = parts_of(client)
    live = call(client, parts.tables.table, table_id)
    assert live is not None and not parts.computers.thinking(table_id)  # nobody watches: no computer plays
    assert call(client, _evict, parts) == [table_id]
    assert parts.registry.get(table_id) is None
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        state = Human(ws).until_my_move()  # back from the log, computers playing
        assert call(client, _evict, parts) == []  # watched: it stays
        log = list(live_table(client, table_id).game.log)
    wait_until(lambda: not parts.registry.watchers[table_id])
    wait_until(lambda: call(client, _evict, parts) == [table_id])
    again = call(client, parts.tables.table, table_id)
    assert again is not None and again.game.log == log and again.seq == state["seq"]


async def _evict(parts: Any) -> list[str]:
    gone: list[str] = parts.registry.evict_idle()
    return gone


def test_a_slow_consumer_is_closed_with_a_reason(tmp_path: Path) -> None:
    """A client that sends without reading (the real server, a client that stops reading
    its socket): the answers pile up to the bound, then the server closes it (1008, with
    the reason) instead of buffering without end; its memory stays bounded."""
    with ServerProcess(tmp_path / "coinche.db", tmp_path / "server.log") as server:
        table_id, cookie = server.new_guest_table("classic", 700, "confirmed")
        rss_before = rss_of(server.proc.pid)
        with server.connect(table_id, cookie, max_queue=2) as ws:
            with pytest.raises(ConnectionClosed) as closed:
                for _ in range(300_000):
                    ws.send("{")
                for _ in range(1000):
                    ws.recv(timeout=30)
            # The close frame (1008, the reason) waits behind the unread messages: a client
            # that reads nothing may never see it; the server's log says why it closed.
            rcvd = closed.value.rcvd
            assert rcvd is None or (rcvd.code == 1008 and rcvd.reason == "too many unread messages")
        wait_until(lambda: "closed, too many unread messages" in server.log.read_text("utf-8"))
        growth = rss_of(server.proc.pid) - rss_before
        assert growth < 30 * 2**20, f"the server grew by {growth / 2**20:.1f} MB"
        with server.connect(table_id, cookie) as ws:  # the table is there for the next connection
            assert ws_receive(ws)["type"] == "state"


def rss_of(pid: int) -> int:
    """The resident memory of a process, in bytes (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def test_a_dropped_table_stops_its_old_computers(make_client: MakeClient) -> None:
    client = make_client(bot_workers=1)
    guest, _ = new_guest(client)
    bot = Seat("bot", level=BRIEF)
    seats = [Seat("human", player=guest), bot, bot, bot]
    spec = call(client, parts_of(client).tables.create_table, RuleSet.profile("classic", target=700), seats, "x")
    with client.websocket_connect(f"/ws/table/{spec.id}") as ws:
        human = Human(ws)
        state = human.next_state()
        if is_my_turn(state):
            human.act(state)
        old = live_table(client, spec.id)
        parts = parts_of(client)
        wait_until(lambda: parts.computers.thinking(spec.id))
        seq = old.seq
        parts.registry.forget(spec.id)  # the table left memory
        wait_until(lambda: not parts.computers.thinking(spec.id), BriefBot.seconds * 20)
        assert old.seq == seq  # and its old copy stored nothing
        steps = parts_of(client).store.load_table(spec.id)[1]  # type: ignore[index]
        assert [s.action for s in steps if s.kind == "action"] == old.game.log


def test_computers_play_on_after_a_fault(make_client: MakeClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The database fails once as a computer's move is stored: the computer tries again a
    moment later and the table goes on, nothing lost, nothing stored twice."""
    client = make_client()
    table_id = create_solo(client, "classic", 3000, "confirmed")
    store = parts_of(client).store
    real_one, real_many = store.append_step, store.append_steps
    failed: list[int] = []

    def fail_once(steps: list[tuple[str, Step]]) -> None:
        # The group commit fails, then the step alone (the writer tries each step of a
        # failed commit again on its own): the computer's move is not stored this time.
        for _, step in steps:
            if step.seat != 0 and (not failed or (len(failed) == 1 and failed[0] == step.seq)):
                failed.append(step.seq)
                raise RuntimeError("disk I/O error")

    def flaky(table: str, step: Step) -> None:
        fail_once([(table, step)])
        real_one(table, step)

    def flaky_many(steps: list[tuple[str, Step]], held: HeldConnection | None = None) -> list[bool]:
        fail_once(steps)
        return real_many(steps, held)

    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        human = Human(ws)
        state = human.until_my_move()
        monkeypatch.setattr(store, "append_step", flaky)
        monkeypatch.setattr(store, "append_steps", flaky_many)
        state = human.act(state)
        for _ in range(50):  # on to a computer's turn
            if state["awaiting_next_deal"]:
                ws.send_json(request("next_deal"))
                state = human.next_state()
            elif is_my_turn(state):
                state = human.act(state)
            else:
                break
        live = live_table(client, table_id)
        wait_until(lambda: bool(failed))
        # The computer tries again after a pause, and the table goes on by itself.
        wait_until(lambda: live.seq > failed[0])
        steps = parts_of(client).store.load_table(table_id)[1]  # type: ignore[index]
        assert [s.seq for s in steps] == list(range(len(steps)))


@pytest.mark.parametrize("level", [RAISING, ILLEGAL])
def test_a_computer_that_fails_or_cheats_plays_its_first_legal_action(make_client: MakeClient, level: str) -> None:
    client = make_client()
    guest, _ = new_guest(client)
    bot = Seat("bot", level=level)
    seats = [Seat("human", player=guest), bot, bot, bot]
    spec = call(client, parts_of(client).tables.create_table, RuleSet.profile("classic", target=700), seats, "x")
    with client.websocket_connect(f"/ws/table/{spec.id}") as ws:
        human = Human(ws, max_deals=1)
        last = human.play_game()
        assert last["awaiting_next_deal"]
    live = live_table(client, spec.id)
    deal = live.game.deals[0]
    replay = LiveTable.build(live.spec, [])
    for entry in deal.log:  # every computer's action was the first legal one
        current = replay.game.current
        assert current is not None
        if current.to_move != 0:
            assert entry == replay.game.legal_actions()[0]
        replay.game.replay_entry(entry)


def test_two_connections_of_one_player_both_follow_the_table(client: TestClient) -> None:
    """Two tabs of one player: a move made in one reaches the other, and either may act."""
    table_id = create_solo(client, "classic", 3000, "confirmed")
    with (
        client.websocket_connect(f"/ws/table/{table_id}") as one,
        client.websocket_connect(f"/ws/table/{table_id}") as two,
    ):
        first, second = Human(one), Human(two)
        state = first.until_my_move()
        other = second.next_state()
        while other["seq"] < state["seq"]:
            other = second.next_state()
        assert other["game"] == state["game"]
        answered = first.act(state)
        while other["seq"] < answered["seq"]:
            other = second.next_state()
        assert other["seq"] == answered["seq"] and other["last"] == answered["last"]
        state = second.until_my_move(other)
        if not state["awaiting_next_deal"]:
            again = second.act(state)
            seen = first.next_state()
            while seen["seq"] < again["seq"]:
                seen = first.next_state()
            assert seen["last"] == again["last"]
    parts = parts_of(client)
    wait_until(lambda: not parts.registry.watchers[table_id])


def test_hints_are_limited_per_seat_and_player(make_client: MakeClient) -> None:
    client = make_client(hints_per_minute=3)
    table_id = create_solo(client, "classic", 3000, "confirmed")
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        Human(ws).until_my_move()
        answers = []
        for n in range(5):
            ws.send_json({"type": "hint", "id": f"h{n}"})
            answers.append(receive(ws))
        assert [a["type"] for a in answers[:3]] == ["hint"] * 3
        assert [(a["type"], a["code"], a["id"]) for a in answers[3:]] == [
            ("error", "hint_limit", "h3"),
            ("error", "hint_limit", "h4"),
        ]
        assert all(a["message"] for a in answers[3:])


def test_one_player_may_not_open_connections_without_end(client: TestClient) -> None:
    table_id = create_solo(client, "classic", 700, "beginner")
    with contextlib.ExitStack() as stack:
        for _ in range(MAX_CONNECTIONS):
            ws = stack.enter_context(client.websocket_connect(f"/ws/table/{table_id}"))
            assert raw_receive(ws)["type"] == "hello"
        with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(f"/ws/table/{table_id}") as ws:
            raw_receive(ws)
        assert refused.value.code == 1013
    wait_until(lambda: not parts_of(client).tables.connections)
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:  # room again once they closed
        assert raw_receive(ws)["type"] == "hello"


PASS = parse_call("pass")


def test_the_free_deal_limit_holds_when_the_next_deal_races_the_last_call(make_client: MakeClient) -> None:
    client = make_client(free_deals=0)  # the first deal was not counted (create_table): none left
    parts = parts_of(client)
    seats = [Seat("human", player=f"p{i}") for i in range(4)]
    spec = call(client, parts.tables.create_table, RuleSet.profile("classic", target=700), seats, "x")
    live = call(client, parts.tables.table, spec.id)
    assert live is not None
    for n in range(3):
        call(client, parts.tables.act, spec.id, f"p{live.game.to_move}", PASS, f"c{n}")
    last = f"p{live.game.to_move}"

    async def race() -> list[Any]:
        return await asyncio.gather(
            parts.tables.act(spec.id, last, PASS, "last"),
            parts.tables.next_deal(spec.id, "p0", "next"),
            return_exceptions=True,
        )

    results = call(client, race)
    assert results[0] == 4  # the deal's last call, stored
    # The request for the next deal came first (nothing to deal yet) or second (refused).
    refused = isinstance(results[1], TableError) and results[1].code == "limit"
    assert refused or isinstance(results[1], int), results
    assert len(live.game.deals) == 1 and live.game.awaiting_deal  # never a second deal


@pytest.mark.both_databases
def test_a_stale_copy_asked_for_the_next_deal_reads_the_log(tmp_path: Path, database_url: str) -> None:
    with two_servers(tmp_path, database_url, shared_hub=False) as (a, b):
        seats = [Seat("human", player=f"p{i}") for i in range(4)]
        spec = call(a, parts_of(a).tables.create_table, RuleSet.profile("classic", target=700), seats, "x")
        stale = call(b, parts_of(b).tables.table, spec.id)
        live = call(a, parts_of(a).tables.table, spec.id)
        assert stale is not None and live is not None
        for n in range(4):  # a void deal through A, then the next deal
            call(a, parts_of(a).tables.act, spec.id, f"p{live.game.to_move}", PASS, f"c{n}")
        assert call(a, parts_of(a).tables.next_deal, spec.id, "p1", "n1") == 5
        # B's copy never heard of it: asked for the next deal, it reads the log, finds it
        # dealt, stores nothing.
        assert call(b, parts_of(b).tables.next_deal, spec.id, "p2", "n2") == 5
        assert stale.seq == 5 and len(stale.game.deals) == 2
        assert parts_of(b).store.last_seq(spec.id) == 5


def test_a_connection_gets_every_steps_state_without_the_game_rebuilt(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The states of a deal reach the player's connection one per step, each rendered when
    its step came (the feed), never by replaying the game from its first step however
    quickly the computers' moves follow each other, even to a connection slower than they
    are (here each state waits on a slow read of the player's free deals)."""
    table_id = create_solo(client, "classic", 3000, "confirmed")
    parts = parts_of(client)
    read = parts.free_deals.left

    async def slow_read(player: str, fresh: bool = False) -> int | None:
        await asyncio.sleep(0.02)
        return await read(player, fresh)

    monkeypatch.setattr(parts.free_deals, "left", slow_read)
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        human = Human(ws, max_deals=1)
        first = human.next_state()

        def no_replay(self: LiveTable, since: int) -> Any:
            raise AssertionError(f"the game was rebuilt to send the states since step {since}")

        monkeypatch.setattr(LiveTable, "replay", no_replay)
        last = human.play_game(first)
    states = [m for m in human.messages if m["type"] == "state"]
    seqs = [m["seq"] for m in states]
    assert seqs == list(range(first["seq"], last["seq"] + 1)), seqs  # none missed, none twice
    assert last["awaiting_next_deal"]
