"""A friends' table survives a crash (issue 17, item 5): four people at one table over real
connections to a real ``coinche serve``; the server is killed (SIGKILL) in the middle of a
deal; a new server starts on the same database; each person reconnects with the last step
they saw and finds their own seat, their own hand and the deal where it was, and the four
play the deal to its end."""

from __future__ import annotations

import contextlib
import http.client
import json
import random
import signal
import urllib.parse
from pathlib import Path
from typing import Any

import pytest
from server_helpers import CSRF_FIELD, ServerProcess, as_state, query, request
from websockets.sync.client import ClientConnection

pytestmark = pytest.mark.both_databases

PASSWORD = "a long enough password"
PASSING = ("hello", "ack", "presence", "say", "notice", "clock")


class WebPerson:
    """A person with a browser's cookie jar on a server process."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.cookies: dict[str, str] = {}

    @property
    def cookie(self) -> str:
        """The ``Cookie`` header."""
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    def _send(self, server: Any, method: str, path: str, body: str | None = None) -> tuple[int, str, str]:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        headers = {"Cookie": self.cookie} if self.cookie else {}
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Origin"] = server.base
        try:
            conn.request(method, path, body, headers)
            r = conn.getresponse()
            text = r.read().decode()
            for set_cookie in r.headers.get_all("Set-Cookie") or []:
                name, _, value = set_cookie.split(";", 1)[0].partition("=")
                self.cookies[name] = value
            return r.status, r.getheader("Location") or "", text
        finally:
            conn.close()

    def post(self, server: Any, path: str, form: dict[str, str]) -> tuple[int, str]:
        """The form of ``path`` read for its CSRF token, then posted; (status, location)."""
        status, _, text = self._send(server, "GET", path)
        token = CSRF_FIELD.search(text)
        assert status == 200 and token is not None, (path, status)
        status, location, _ = self._send(server, "POST", path, urllib.parse.urlencode({"csrf": token[1], **form}))
        return status, location

    def connect(self, server: ServerProcess, table_id: str, since: int | None = None) -> ClientConnection:
        return server.connect(table_id, self.cookie, since=since)


def next_state(ws: ClientConnection) -> dict[str, Any]:
    """The next state (passing events and acks skipped)."""
    for _ in range(500):
        msg = as_state(ws, json.loads(ws.recv(timeout=20)))
        assert msg["type"] != "error", msg
        if msg["type"] not in PASSING:
            assert msg["type"] == "state", msg
            return dict(msg)
    raise AssertionError("no state")


def catch_up(ws: ClientConnection, state: dict[str, Any], seq: int) -> dict[str, Any]:
    while state["seq"] < seq:
        state = next_state(ws)
    return state


def choose(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A random card; in the auction a pass, or now and then the lowest bid."""
    calls = [a for a in legal if "call" in a]
    if not calls:
        return rng.choice(legal)
    bids = [a for a in calls if a["call"] not in ("pass", "coinche", "surcoinche")]
    if bids and rng.random() < 0.3:
        return bids[0]
    return next(a for a in calls if a["call"] == "pass")


def play(
    sockets: list[ClientConnection], states: list[dict[str, Any]], rng: random.Random, until: Any
) -> list[dict[str, Any]]:
    """The four play legal moves (the one to move, then everyone reads the step) until
    ``until(state)`` or the end of a deal (``until`` None); the host deals the next deal
    when ``until`` is not met by the end of one. The latest state of each."""
    for _ in range(2000):
        first = states[0]
        if until is not None and until(first):
            return states
        if first["awaiting_next_deal"]:
            if until is None:
                return states
            sockets[0].send(json.dumps(request("next_deal")))
            states = [catch_up(ws, s, first["seq"] + 1) for ws, s in zip(sockets, states, strict=True)]
            continue
        mover = first["game"]["deal"]["to_move"]
        legal = states[mover]["game"]["deal"]["legal_actions"]
        sockets[mover].send(json.dumps(request("action", action=choose(legal, rng))))
        seq = first["seq"] + 1
        states = [catch_up(ws, s, seq) for ws, s in zip(sockets, states, strict=True)]
    raise AssertionError("the deal never got there")


def in_the_play(state: dict[str, Any]) -> bool:
    deal = state["game"]["deal"]
    return bool(deal["phase"] == "play" and len(deal["tricks"]) >= 3 and deal["trick"])


def seat_four(site: Any, db: str, host: WebPerson, guests: list[WebPerson]) -> str:
    """Through ``site`` (a server, or nginx in front of several): the host signs up and
    makes a friends' table, the three guests take its other seats by its code; its id."""
    status, _ = host.post(site, "/inscription", {"name": host.name, "password": PASSWORD, "confirm": PASSWORD})
    assert status == 303
    form = {"profile": "classic", "target": "1000", "level_1": "beginner", "level_2": "beginner"}
    status, location = host.post(site, "/amis", {**form, "level_3": "beginner"})
    assert status == 303 and location.startswith("/table/"), (status, location)
    table_id = location.removeprefix("/table/")
    ((code,),) = query(db, "SELECT code FROM tables WHERE id = :t", t=table_id)
    for seat, guest in enumerate(guests, start=1):
        status, location = guest.post(site, f"/rejoindre/{code}", {"name": guest.name, "seat": str(seat)})
        assert (status, location) == (303, f"/table/{table_id}")
    return table_id


def test_four_people_find_their_seats_after_a_crash_and_play_on(tmp_path: Path, database_url: str) -> None:
    db = database_url
    log = tmp_path / "server.log"
    rng = random.Random(5)
    host, *guests = people = [WebPerson(name) for name in ("Hote", "Paul", "Marie", "Leo")]
    with ServerProcess(db, log) as server:
        table_id = seat_four(server, db, host, guests)
        with contextlib.ExitStack() as stack:
            sockets = [stack.enter_context(p.connect(server, table_id)) for p in people]
            states = [next_state(ws) for ws in sockets]
            assert all(s["game"] is None for s in states)
            sockets[0].send(json.dumps(request("host", op="start")))
            states = [next_state(ws) for ws in sockets]
            states = play(sockets, states, rng, in_the_play)
            before = states
            assert server.stop(signal.SIGKILL) == -signal.SIGKILL

    with ServerProcess(db, log) as server:
        # Two come back with the last step they saw (as the page does): nothing was lost,
        # nothing to send but the hello; two come back afresh: the whole view, the same.
        with contextlib.ExitStack() as stack:
            sockets = [
                stack.enter_context(p.connect(server, table_id, since=s["seq"] if seat < 2 else None))
                for seat, (p, s) in enumerate(zip(people, before, strict=True))
            ]
            for ws, state in zip(sockets[:2], before, strict=False):
                ws.coinche_state = state  # type: ignore[attr-defined]  # the page's, kept across connections
            hellos = [json.loads(ws.recv(timeout=20)) for ws in sockets]
            for seat, hello in enumerate(hellos):
                assert hello == {"type": "hello", "seq": before[seat]["seq"], "you": seat, "resumed": seat < 2}
            after = before[:2] + [next_state(ws) for ws in sockets[2:]]
            for seat, (was, now) in enumerate(zip(before, after, strict=True)):
                assert now["table"]["you"] == seat
                assert [s.get("name") for s in now["table"]["seats"]] == ["Hote", "Paul", "Marie", "Leo"]
                assert now["seq"] == was["seq"] and now["game"] == was["game"]
            # Whose turn it is, said the same to everyone, and the deal goes on to its end.
            assert len({s["game"]["deal"]["to_move"] for s in after}) == 1
            end = play(sockets, after, rng, None)
            assert end[0]["awaiting_next_deal"] or end[0]["game"]["winner"] is not None
            assert all(s["seq"] == end[0]["seq"] for s in end)
        assert server.stop(signal.SIGTERM) in (0, -signal.SIGTERM)
    text = log.read_text("utf-8")
    assert "Traceback" not in text, text
