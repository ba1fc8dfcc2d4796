"""Several servers on one PostgreSQL database behind nginx (issue 19): ``deploy/nginx.conf``
in front of two ``coinche serve`` processes; the four people of a friends' table are
spread over both by nginx (no sticky sessions); what one does through one server reaches
the others through the other at once (PostgreSQL LISTEN/NOTIFY); one server is killed in
the middle of the deal and its people reconnect through nginx to the other and play the
deal to its end; no message of the game shows a seat a card it may not know."""

from __future__ import annotations

import contextlib
import json
import random
import signal
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from nginx_proxy import NginxProxy, Recorded, nginx_binary
from postgres_cluster import PostgresCluster
from server_helpers import ServerProcess, check_no_leak, query, request, ws_act, ws_until_my_move
from test_friends_restart import WebPerson, in_the_play, next_state, play, seat_four
from test_workers import turns_of, wait_until, worker_process
from websockets.exceptions import ConnectionClosed

from coinche.server.infra.store import Store
from coinche.server.table.live_table import LiveTable


def closed(ws: Recorded) -> bool:
    """Whether the connection was closed (its messages until then are recorded)."""
    try:
        while True:
            ws.recv(timeout=2)
    except ConnectionClosed:
        return True
    except TimeoutError:
        return False


@pytest.fixture
def cluster_url(postgres: PostgresCluster) -> str:
    if nginx_binary() is None:
        pytest.skip("nginx is not installed (apt-get install nginx)")
    return postgres.new_database()


def probe(proxy: NginxProxy, path: str) -> list[str]:
    """The upstream nginx chose for ``path`` (an HTTP request, logged at once; a table
    socket's address answers it 404)."""
    with contextlib.suppress(urllib.error.HTTPError):
        urllib.request.urlopen(proxy.base + path, timeout=10).close()
    wait_until(lambda: bool(proxy.upstreams_of(f"GET {path} ")), what="nginx's log line")  # written as it ends
    return proxy.upstreams_of(f"GET {path} ")


def test_four_people_on_two_servers_behind_nginx_survive_a_killed_server(tmp_path: Path, cluster_url: str) -> None:
    url = cluster_url
    rng = random.Random(19)
    host, *guests = people = [WebPerson(name) for name in ("Hote", "Paul", "Marie", "Leo")]
    logs: list[list[dict[str, Any]]] = [[] for _ in people]
    with contextlib.ExitStack() as stack:
        servers = [stack.enter_context(ServerProcess(url, tmp_path / f"server-{n}.log")) for n in (1, 2)]
        stack.enter_context(worker_process(url, "worker-1", tmp_path / "worker-1.log"))
        proxy = stack.enter_context(NginxProxy(tmp_path / "nginx", [s.port for s in servers]))
        table_id = seat_four(proxy, url, host, guests)

        sockets = [
            Recorded(stack.enter_context(p.connect(proxy, table_id)), log) for p, log in zip(people, logs, strict=True)
        ]
        states = [next_state(ws) for ws in sockets]  # type: ignore[arg-type]
        sockets[0].send(json.dumps(request("host", op="start")))
        states = [next_state(ws) for ws in sockets]  # type: ignore[arg-type]
        states = play(sockets, states, rng, in_the_play)  # type: ignore[arg-type]
        before = states

        # The table's server dies in the middle of the deal: its people come back through
        # nginx, to the other server, which reads the table from the log. (nginx sends a
        # table's sockets to one server: an HTTP request to the socket's address says which.)
        (holder,) = set(probe(proxy, f"/ws/table/{table_id}"))
        killed = next(s for s in servers if holder == f"127.0.0.1:{s.port}")
        assert killed.stop(signal.SIGKILL) == -signal.SIGKILL
        dead = f"127.0.0.1:{killed.port}"
        cut = [n for n, ws in enumerate(sockets) if closed(ws)]
        assert cut == [0, 1, 2, 3], cut
        for n, ws in enumerate(sockets):
            if n in cut:
                ws.close()
                sockets[n] = Recorded(
                    stack.enter_context(people[n].connect(proxy, table_id, since=before[n]["seq"])),
                    logs[n],
                    before[n],
                )
                hello = json.loads(sockets[n].recv(timeout=20))
                assert hello == {"type": "hello", "seq": before[n]["seq"], "you": n, "resumed": True}, hello
        end = play(sockets, before, rng, None)  # type: ignore[arg-type]
        assert end[0]["awaiting_next_deal"] or end[0]["game"]["winner"] is not None
        assert all(s["seq"] == end[0]["seq"] for s in end)
        for ws in sockets:
            ws.close()
    first = proxy.upstreams_of(f"/ws/table/{table_id} ")
    assert len(first) == 5 and set(first) == {dead}, first  # the probe, then each connection as it ended
    again = proxy.upstreams_of(f"/ws/table/{table_id}?since=")  # a refused try, then the live one
    assert len(again) == len(cut) and all(w.split(", ")[-1] != dead for w in again), again

    store = Store(url)
    try:
        loaded = store.load_table(table_id)
    finally:
        store.close()
    assert loaded is not None
    game = LiveTable.build(*loaded).game
    for seat, log in enumerate(logs):
        assert check_no_leak([m for m in log if m["type"] == "state"], game.deals, seat) > 10
    for n in (1, 2):
        text = (tmp_path / f"server-{n}.log").read_text("utf-8")
        assert "Traceback" not in text, text


def test_a_drained_server_is_a_short_reconnection_through_nginx(tmp_path: Path, cluster_url: str) -> None:
    """A guest's table open in two pages, both on the server nginx sends the table's sockets
    to (a worker plays its computers); that server gets SIGTERM: its pages are told
    ``restarting`` and closed with 4012, one reconnects at once through nginx to the other
    server with the last seq it had, misses nothing, and the game goes on."""
    url = cluster_url
    rng = random.Random(7)
    with contextlib.ExitStack() as stack:
        servers = [stack.enter_context(ServerProcess(url, tmp_path / f"server-{n}.log")) for n in (1, 2)]
        stack.enter_context(worker_process(url, "worker-1", tmp_path / "worker-1.log"))
        proxy = stack.enter_context(NginxProxy(tmp_path / "nginx", [s.port for s in servers]))
        wait_until(lambda: query(url, "SELECT count(*) FROM workers")[0][0] == 1, what="the worker")
        time.sleep(2.5)  # a server looks for live workers every 2 s
        table_id, cookie = proxy.new_guest_table("classic", 3000, "beginner")
        pages = [stack.enter_context(proxy.connect(table_id, cookie)) for _ in range(2)]
        states = [ws_until_my_move(ws) for ws in pages]
        assert states[0]["seq"] == states[1]["seq"]
        (holder,) = set(probe(proxy, f"/ws/table/{table_id}"))
        draining = next(s for s in servers if holder == f"127.0.0.1:{s.port}")
        draining.proc.send_signal(signal.SIGTERM)
        told = None
        for n, ws in enumerate(pages):
            try:
                while True:
                    message = json.loads(ws.recv(timeout=5))
                    if message["type"] == "restarting":
                        told = n
            except ConnectionClosed as closed_by:
                assert closed_by.rcvd is not None and closed_by.rcvd.code == 4012, closed_by
                assert told == n
                break
            except TimeoutError:
                continue
        assert told is not None, "no page was told the server restarts"
        began = time.monotonic()
        seq = states[told]["seq"]
        with proxy.connect(table_id, cookie, since=seq) as again:
            hello = json.loads(again.recv(timeout=10))
            gap = time.monotonic() - began
            assert hello["type"] == "hello" and hello["resumed"] and hello["seq"] == seq, hello
            assert gap < 2.0, f"reconnecting took {gap:.2f} s"
            # The game goes on through the other server.
            answer = ws_act(again, states[told], rng)
            assert answer["seq"] > seq
            ws_until_my_move(again, answer)  # the computers' moves after it
        assert draining.proc.wait(timeout=15) == 0
        # The worker marks a turn done after its move is stored and sent: the last one may
        # still be on its way (and a worker stopped first gives it back, never done).
        wait_until(lambda: all(done for _, _, done in turns_of(url, table_id)), what="every turn marked done")
    # The computers' moves were the worker's, each turn once.
    turns = turns_of(url, table_id)
    assert turns and all(by == "worker-1" and done for _, by, done in turns), [
        turn for turn in turns if turn[1] != "worker-1" or not turn[2]
    ]
    seqs = [seq for seq, _, _ in turns]
    assert len(seqs) == len(set(seqs))


def test_quick_play_on_two_servers_behind_nginx(tmp_path: Path, cluster_url: str) -> None:
    """Five people press quick play through nginx (spread over two servers, each running
    waves on the one queue in PostgreSQL): four sit together at once, the fifth with
    computers once the wait is over (after stopping and pressing again); each learns their
    table on their own socket, whichever server holds it. (Five: the sign-up limit of one
    address.)"""
    from websockets.sync.client import connect as ws_connect

    people = [WebPerson(f"Rapide{i}") for i in range(5)]
    with contextlib.ExitStack() as stack:
        servers = [
            stack.enter_context(ServerProcess(cluster_url, tmp_path / f"server-{n}.log", "--quick-wait", "2"))
            for n in (1, 2)
        ]
        proxy = stack.enter_context(NginxProxy(tmp_path / "nginx", [s.port for s in servers]))
        sockets = []
        for p in people:
            status, _ = p.post(
                proxy, "/inscription", {"name": p.name, "password": "correct horse", "confirm": "correct horse"}
            )
            assert status == 303
            ws = stack.enter_context(
                ws_connect(
                    f"ws://127.0.0.1:{proxy.port}/ws/me", additional_headers={"Cookie": p.cookie}, open_timeout=10
                )
            )
            sockets.append(ws)
        press = {"action": "join", "rules": "classic"}
        assert people[4].post(proxy, "/partie-rapide", press) == (303, "/partie-rapide")
        assert people[4].post(proxy, "/partie-rapide", {"action": "leave"}) == (303, "/partie-rapide")
        for p in people:
            assert p.post(proxy, "/partie-rapide", press) == (303, "/partie-rapide")
        tables = []
        for ws in sockets:
            table = None
            deadline = time.monotonic() + 30
            while table is None:
                assert time.monotonic() < deadline, "never seated"
                message = json.loads(ws.recv(timeout=30))
                if message["type"] == "quick":
                    table = message["table"]
            tables.append(table.removeprefix("/table/"))
        counts = {t: tables.count(t) for t in tables}
        assert sorted(counts.values()) == [1, 4], counts
        rows = query(
            cluster_url,
            "SELECT tp.player_id, count(*) FROM table_players tp JOIN tables t ON t.id = tp.table_id "
            "WHERE t.quick_play GROUP BY tp.player_id",
        )
        assert len(rows) == 5 and all(n == 1 for _, n in rows)  # nobody twice
        [(seats,)] = query(cluster_url, "SELECT seats FROM tables WHERE id = :t", t=min(counts, key=counts.get))
        assert sum(1 for s in (seats if isinstance(seats, list) else json.loads(seats)) if s["kind"] == "bot") == 3
