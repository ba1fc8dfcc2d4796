"""What every socket of the site shares (``socket_base``): another site's page is refused
the handshake (4403), a connection that comes in while the server drains is sent elsewhere
(4012), and a socket whose client sends nothing closes at its first message (1008)."""

from __future__ import annotations

import pytest
from friends_helpers import Person
from server_helpers import another_visitor, raw_receive
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from coinche.server.web.drain import Drain
from coinche.server.web.socket_base import CLOSE_ORIGIN, CLOSE_POLICY, CLOSE_RESTARTING

SOCKETS = ("table", "watch", "open-tables", "tournament", "me")


def address(client: TestClient, socket: str) -> tuple[Person, str]:
    """A signed-in person who may open ``socket``, and its address."""
    host = Person(another_visitor(client), "Hote")
    host.sign_up()
    if socket in ("table", "watch"):
        table_id, _ = host.make_table(public="on")
        return host, f"/ws/{socket}/{table_id}"
    if socket == "tournament":
        return host, "/ws/tournament/t1"
    return host, f"/ws/{socket}"


@pytest.mark.parametrize("socket", SOCKETS)
def test_another_sites_page_is_refused_the_handshake(client: TestClient, socket: str) -> None:
    person, path = address(client, socket)
    with (
        person.acting() as c,
        pytest.raises(WebSocketDisconnect) as closed,
        c.websocket_connect(path, headers={"origin": "http://evil.example"}) as ws,
    ):
        raw_receive(ws)
    assert closed.value.code == CLOSE_ORIGIN


@pytest.mark.parametrize("socket", SOCKETS)
def test_a_connection_that_comes_in_while_the_server_drains_goes_elsewhere(client: TestClient, socket: str) -> None:
    """The table's socket says ``restarting`` first (its protocol has that message)."""
    person, path = address(client, socket)
    drain = client.app.state.drain  # type: ignore[attr-defined]
    assert isinstance(drain, Drain)
    drain.draining = True
    with person.acting() as c, c.websocket_connect(path) as ws:
        if socket == "table":
            assert raw_receive(ws) == {"type": "restarting"}
        with pytest.raises(WebSocketDisconnect) as closed:
            raw_receive(ws)
        assert closed.value.code == CLOSE_RESTARTING


@pytest.mark.parametrize("socket", ["watch", "open-tables", "tournament", "me"])
def test_a_socket_that_takes_no_message_closes_at_the_first(client: TestClient, socket: str) -> None:
    person, path = address(client, socket)
    with person.acting() as c, c.websocket_connect(path) as ws:
        ws.send_text('{"type": "action"}')
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(10):  # what it sent at the start, then its close
                raw_receive(ws)
        assert closed.value.code == CLOSE_POLICY
