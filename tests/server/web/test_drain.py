"""Restarts nobody notices: ``/healthz`` and ``/readyz`` for the proxy, and SIGTERM drains.

A draining server answers ``/readyz`` 503, tells every open table socket ``restarting``
and closes it with 4012, then exits 0 within its bound; a second process on the same
SQLite file takes the reconnection with ``since`` and sends only the missing steps. Every
log line of ``coinche serve`` names its process.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import logging
import os
import random
import signal
import socket
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from server_helpers import (
    RECEIVE_TIMEOUT,
    ServerProcess,
    as_state,
    call,
    choose,
    create_solo,
    is_my_turn,
    new_guest,
    parts_of,
    raw_receive,
    receive,
    request,
    ws_act,
    ws_receive,
    ws_until_my_move,
)
from sqlalchemy.exc import OperationalError
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from coinche.server.infra.process_logs import NAME_MAX, ProcessName, default_name, instance_id, valid_name
from coinche.server.web.drain import DRAIN_SECONDS, Drain
from coinche.server.web.socket_base import CLOSE_RESTARTING


def drain_of(client: TestClient) -> Drain:
    drain = client.app.state.drain  # type: ignore[attr-defined]
    assert isinstance(drain, Drain)
    return drain


# ----- /healthz, /readyz -----


def test_healthz_and_readyz_answer_without_a_cookie(client: TestClient) -> None:
    client.cookies.clear()
    for path, text in (("/healthz", "ok\n"), ("/readyz", "ready\n")):
        r = client.get(path)
        assert (r.status_code, r.text) == (200, text), path
        assert r.headers["content-type"].startswith("text/plain")
        assert "set-cookie" not in r.headers and r.headers["cache-control"] == "no-store"
        assert r.headers["x-frame-options"] == "DENY"  # the site's headers all the same
        assert client.head(path).status_code == 200
        assert client.post(path).status_code == 405  # no form, no CSRF: nothing to post
    assert not client.cookies


def test_readyz_is_503_while_draining(client: TestClient) -> None:
    drain_of(client).draining = True
    r = client.get("/readyz")
    assert (r.status_code, r.text) == (503, "draining\n")
    assert client.get("/healthz").status_code == 200  # alive all the same: let it finish


def test_readyz_is_503_when_the_database_fails(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[bool] = []

    def broken() -> None:
        seen.append(threading.current_thread() is not threading.main_thread())
        raise OperationalError("SELECT 1", {}, Exception("database gone"))

    monkeypatch.setattr(parts_of(client).store, "ping", broken)
    r = client.get("/readyz")
    assert (r.status_code, r.text) == (503, "database unavailable\n")
    assert seen == [True]  # asked on a database thread, not on the event loop's


def test_a_draining_app_tells_its_table_sockets_to_reconnect(client: TestClient) -> None:
    new_guest(client)
    table_id = create_solo(client, "classic", 1000, "confirmed")
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        assert raw_receive(ws)["type"] == "hello"
        assert raw_receive(ws)["type"] == "state"
        told = call(client, drain_of(client).restart_sockets)
        assert told == 1
        for _ in range(100):  # what was queued before comes first; ``restarting`` last
            message = raw_receive(ws)
            if message["type"] == "restarting":
                break
        else:
            raise AssertionError("no restarting message")
        with pytest.raises(WebSocketDisconnect) as closed:
            raw_receive(ws)
        assert closed.value.code == CLOSE_RESTARTING
    assert not drain_of(client).sockets
    # One that comes in while the server drains is sent on at once.
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        assert raw_receive(ws) == {"type": "restarting"}
        with pytest.raises(WebSocketDisconnect) as closed:
            raw_receive(ws)
        assert closed.value.code == CLOSE_RESTARTING


def test_the_request_under_way_is_answered_before_restarting(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The drain lets the reader finish the request it is answering (its ``ack`` comes
    before ``restarting``); a request that comes after is left unanswered, for the next
    process (the client sends it again, same id)."""
    new_guest(client)
    table_id = create_solo(client, "classic", 1000, "confirmed")
    parts = parts_of(client)
    gate = asyncio.Event()
    act = parts.tables.act

    async def slow_act(*args: Any) -> int:
        await gate.wait()
        return await act(*args)

    monkeypatch.setattr(parts.tables, "act", slow_act)
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        state = receive(ws)
        while not is_my_turn(state):
            state = receive(ws)
        action = request("action", action=choose(state["game"]["deal"]["legal_actions"], None))
        ws.send_text(json.dumps(action))
        time.sleep(0.2)  # the reader is in ``act``
        (session,) = drain_of(client).sockets
        assert client.portal is not None
        client.portal.call(session.restart)
        ws.send_text(json.dumps(request("next_deal")))  # after the drain began: unanswered
        time.sleep(0.2)
        client.portal.call(gate.set)
        seen: list[dict[str, Any]] = []
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(100):
                seen.append(raw_receive(ws))
        assert closed.value.code == CLOSE_RESTARTING
    kinds = [m["type"] for m in seen]
    assert kinds[-1] == "restarting" and kinds.count("ack") == 1, seen
    (ack,) = [m for m in seen if m["type"] == "ack"]
    assert ack["id"] == action["id"]


# ----- the process name of the log -----


def test_the_process_name_defaults_to_the_environment_then_host_and_pid(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COINCHE_PROCESS_NAME", "web-3")
    assert default_name() == "web-3"
    monkeypatch.delenv("COINCHE_PROCESS_NAME")
    name = default_name()
    assert name.endswith(f":{os.getpid()}") and len(name) > 2


def test_one_process_name_for_the_log_lines_and_the_rows(monkeypatch: pytest.MonkeyPatch, make_client: Any) -> None:
    """A host name of any length or characters gives a name the log lines and the database's
    columns both take; a server's presence rows carry that name and a tag of this run."""
    monkeypatch.delenv("COINCHE_PROCESS_NAME", raising=False)
    monkeypatch.setattr(socket, "gethostname", lambda: "a very long host name " * 5)
    name = default_name()
    assert valid_name(name) and len(name) <= NAME_MAX and name.endswith(f":{os.getpid()}")
    run = instance_id(name)
    assert valid_name(run) and len(run) <= NAME_MAX and run != instance_id(name)
    client = make_client(process_name="web-7")
    assert client.app.state.parts.process.startswith("web-7:")  # type: ignore[attr-defined]


def test_the_filter_names_every_record() -> None:
    record = logging.LogRecord("x", logging.WARNING, __file__, 1, "hello", (), None)
    assert ProcessName("alpha").filter(record)
    assert logging.Formatter("%(process_name)s %(message)s").format(record) == "alpha hello"


# ----- the real server, stopped by SIGTERM -----


def get(port: int, path: str) -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        conn.request("GET", path)
        r = conn.getresponse()
        return r.status, r.read().decode()
    finally:
        conn.close()


def until_closed(ws: ClientConnection) -> tuple[list[dict[str, Any]], int | None]:
    """Every message until the server closes the connection; its close code."""
    messages: list[dict[str, Any]] = []
    try:
        for _ in range(10_000):
            messages.append(json.loads(ws.recv(timeout=RECEIVE_TIMEOUT)))
    except ConnectionClosed as e:
        return messages, e.rcvd.code if e.rcvd is not None else None
    raise AssertionError("the connection never closed")


def test_sigterm_drains_and_another_process_resumes_from_since(tmp_path: Path) -> None:
    db = tmp_path / "coinche.db"
    log = tmp_path / "server.log"
    rng = random.Random(7)
    with ServerProcess(db, log, "--free-deals", "100", "--name", "web-north") as first:
        assert get(first.port, "/readyz") == (200, "ready\n")
        table_id, cookie = first.new_guest_table("classic", 1000, "confirmed")
        seqs: list[int] = []
        states: dict[int, dict[str, Any]] = {}
        with first.connect(table_id, cookie) as ws:
            state = ws_until_my_move(ws)
            for _ in range(4):  # a few steps of the table, each with its seq
                if state["awaiting_next_deal"]:  # four passes: the next deal
                    ws.send(json.dumps(request("next_deal")))
                    state = ws_until_my_move(ws, ws_receive(ws))
                else:
                    state = ws_until_my_move(ws, ws_act(ws, state, rng))
                seqs.append(state["seq"])
                states[state["seq"]] = state
            last = state["seq"]
            started = time.monotonic()
            first.proc.send_signal(signal.SIGTERM)
            messages, code = until_closed(ws)
        assert code == CLOSE_RESTARTING, (code, messages)
        assert messages[-1] == {"type": "restarting"}, messages
        assert all(m["type"] not in ("state", "step") or m["seq"] <= last for m in messages)
        status = first.proc.wait(timeout=DRAIN_SECONDS + 5)
        took = time.monotonic() - started
        first.stop(signal.SIGTERM)  # its bot workers with it
    assert status == 0, log.read_text("utf-8")
    assert took < DRAIN_SECONDS, took
    text = log.read_text("utf-8")
    assert "Traceback" not in text, text
    lines = [line for line in text.splitlines() if line and not line.startswith("Coinche: open")]
    assert lines and all(" web-north " in line for line in lines), text
    assert any("draining" in line for line in lines), text

    # Another process on the same file: the client resumes from an older seq and gets only
    # the steps after it, in order, once each; from its last seq, none.
    with ServerProcess(db, log) as second:
        since = seqs[0]
        with second.connect(table_id, cookie, since=since) as ws:
            ws.coinche_state = states[since]  # type: ignore[attr-defined]  # the page's
            hello = json.loads(ws.recv(timeout=RECEIVE_TIMEOUT))
            assert hello["type"] == "hello" and hello["resumed"] and hello["seq"] == last, hello
            got = [json.loads(ws.recv(timeout=RECEIVE_TIMEOUT)) for _ in range(last - since)]
            assert [m["seq"] for m in got] == list(range(since + 1, last + 1)), got
            assert all(m["type"] == "step" for m in got)
            got = [as_state(ws, m) for m in got]  # the steps applied to the page's state at since
            with pytest.raises(TimeoutError):
                ws.recv(timeout=0.5)  # nothing more: nothing else was missing
        with second.connect(table_id, cookie, since=last) as ws:
            hello = json.loads(ws.recv(timeout=RECEIVE_TIMEOUT))
            assert hello["resumed"] and hello["seq"] == last, hello
            with pytest.raises(TimeoutError):
                ws.recv(timeout=0.5)
            # ...and the game goes on there.
            if is_my_turn(got[-1]):
                ws_act(ws, got[-1], rng)
            else:
                ws.send(json.dumps(request("next_deal")))
                assert json.loads(ws.recv(timeout=RECEIVE_TIMEOUT))["type"] == "ack"
        assert second.stop(signal.SIGTERM) == 0


def test_sigterm_stops_within_the_bound_with_a_client_that_never_answers(tmp_path: Path) -> None:
    """A client that opened the table's socket (and an HTTP request half sent) and then
    reads and answers nothing: the drain does not wait for it past its bound."""
    with ServerProcess(tmp_path / "coinche.db", tmp_path / "server.log") as server:
        table_id, cookie = server.new_guest_table("classic", 1000, "confirmed")
        mute = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        half = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        try:
            lines = [
                f"GET /ws/table/{table_id} HTTP/1.1",
                f"Host: 127.0.0.1:{server.port}",
                "Upgrade: websocket",
                "Connection: Upgrade",
                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
                "Sec-WebSocket-Version: 13",
                f"Cookie: {cookie}",
            ]
            mute.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
            assert mute.recv(12) == b"HTTP/1.1 101"
            half.sendall(b"POST /solo HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\nprofile=cla")
            time.sleep(0.5)
            started = time.monotonic()
            server.proc.send_signal(signal.SIGTERM)
            status = server.proc.wait(timeout=DRAIN_SECONDS + 5)
            took = time.monotonic() - started
        finally:
            mute.close()
            half.close()
    assert status == 0 and took < DRAIN_SECONDS, (status, took)
    text = (tmp_path / "server.log").read_text("utf-8")
    assert "Traceback" not in text, text
