"""People at a friends' table in server tests: each has their own cookies on the one test
client (a request or a WebSocket handshake is made with that person's cookies), signs up
or stays a guest, makes a table, joins by code, and plays over the table's WebSocket."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from server_helpers import CSRF_FIELD, MAX_MESSAGES, Human, another_visitor, raw_receive, receive, request
from starlette.testclient import TestClient, WebSocketTestSession

from coinche.server.table.kinds import invitation_code

PASSWORD = "correct horse"


@dataclass
class Person:
    client: TestClient
    name: str
    cookies: list[Any] = field(default_factory=list)
    """This person's cookies (the jar's own objects: domain and path kept)."""

    @contextmanager
    def acting(self) -> Iterator[TestClient]:
        """The client with this person's cookies (kept back afterwards)."""
        client = self.client
        client.cookies.clear()
        for cookie in self.cookies:
            client.cookies.jar.set_cookie(cookie)
        try:
            yield client
        finally:
            self.cookies = list(client.cookies.jar)

    def get(self, path: str) -> Any:
        with self.acting() as c:
            return c.get(path, follow_redirects=False)

    def post(self, path: str, form: dict[str, str], page: str) -> Any:
        with self.acting() as c:
            r = c.get(page)
            token = CSRF_FIELD.search(r.text)
            assert token is not None, f"no form at {page}"
            return c.post(path, data={"csrf": token[1], **form}, follow_redirects=False)

    def sign_up(self) -> None:
        form = {"name": self.name, "password": PASSWORD, "confirm": PASSWORD}
        r = self.post("/inscription", form, "/inscription")
        assert r.status_code == 303, r.text

    def make_table(self, **form: str) -> tuple[str, str]:
        """A friends' table made by this person (signed up); (its id, its code)."""
        fields = {
            "profile": "classic",
            "target": "1000",
            "level_1": "beginner",
            "level_2": "beginner",
            "level_3": "beginner",
            "late_joins": "on",
            "idle_clock": "on",
            **form,
        }
        fields = {k: v for k, v in fields.items() if v != ""}  # an empty box: not sent
        r = self.post("/amis", fields, "/amis")
        assert r.status_code == 303, r.text
        table_id = r.headers["location"].removeprefix("/table/")
        return table_id, code_of(self.client, table_id)

    def take_seat(self, code: str, seat: int) -> Any:
        return self.post(f"/rejoindre/{code}", {"name": self.name, "seat": str(seat)}, f"/rejoindre/{code}")

    @contextmanager
    def connect(self, table_id: str, since: int | None = None) -> Iterator[Player]:
        with self.acting() as c:
            query = f"?since={since}" if since is not None else ""
            with c.websocket_connect(f"/ws/table/{table_id}{query}") as ws:
                yield Player(ws)


def person(client: TestClient, name: str) -> Person:
    """Someone new on the site, signed up as ``name``, with a browser of their own."""
    p = Person(another_visitor(client), name)
    p.sign_up()
    return p


def code_of(client: TestClient, table_id: str) -> str:
    parts = client.app.state.parts  # type: ignore[attr-defined]
    live = parts.registry.get(table_id)
    code = invitation_code(live.spec.kind) if live is not None else None
    if code is None:
        with client.app.state.store.session() as s:  # type: ignore[attr-defined]
            from coinche.server.infra.rows.tables import TableRow

            code = s.get(TableRow, table_id).code
    assert isinstance(code, str) and re.fullmatch(r"[A-Z0-9]{6}", code)
    return code


class Player(Human):
    """A person's connection: ``Human`` plus the friends' table's requests."""

    def __init__(self, ws: WebSocketTestSession) -> None:
        super().__init__(ws)

    def receive(self) -> dict[str, Any]:
        """The next message, acks included (``answer`` reads them)."""
        msg = raw_receive(self.ws)
        self.messages.append(msg)
        return msg

    def send(self, kind: str, **fields: Any) -> dict[str, Any]:
        message = request(kind, **fields)
        self.ws.send_json(message)
        return message

    def until(self, kind: str, **match: Any) -> dict[str, Any]:
        """The next message of ``kind`` whose fields match (others are kept and passed)."""
        for _ in range(MAX_MESSAGES):
            msg = self.receive()
            if msg["type"] == kind and all(msg.get(k) == v for k, v in match.items()):
                return msg
            assert msg["type"] != "error" or kind == "error", msg
        raise AssertionError(f"no {kind} message")

    def answer(self, sent: dict[str, Any]) -> dict[str, Any]:
        """The ack or the error of a request."""
        for _ in range(MAX_MESSAGES):
            msg = self.receive()
            if msg["type"] in ("ack", "error") and msg.get("id") == sent["id"]:
                return msg
        raise AssertionError("no answer")

    def latest_state(self) -> dict[str, Any]:
        """The last state received so far, or the next one."""
        for msg in reversed(self.messages):
            if msg["type"] == "state":
                return msg
        return self.next_state()


def drain(player: Player, seq: int) -> dict[str, Any]:
    """Read ``player``'s messages until the state of ``seq`` (or later)."""
    state = player.latest_state()
    while state["seq"] < seq:
        state = player.next_state()
    return state


__all__ = ["PASSWORD", "Person", "Player", "code_of", "drain", "receive"]
