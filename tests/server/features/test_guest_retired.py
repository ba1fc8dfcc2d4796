"""A guest's identity is retired when the guest becomes an account (sign-up) or logs in
to one: a copy of the guest's ``session`` cookie taken before then is a new guest with
nothing (no table, no hand, no account page, no history, no free deals of the account's),
on every page, form and the table's WebSocket; and after the account is deleted too.
Forged and garbled cookies are no one's."""

from __future__ import annotations

import base64
import json

import pytest
from server_helpers import (
    MakeClient,
    call,
    create_solo,
    csrf_of,
    guest_of_cookie,
    new_guest,
    parts_of,
    post_form,
    raw_receive,
    receive,
)
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from coinche.server.infra.rows.people import AccountRow

PASSWORD = "correct horse"


def sign_up(client: TestClient, name: str) -> None:
    form = {"name": name, "password": PASSWORD, "confirm": PASSWORD}
    r = post_form(client, "/inscription", form, page="/inscription")
    assert r.status_code == 303, r.text


def log_in(client: TestClient, name: str) -> None:
    r = post_form(client, "/connexion", {"name": name, "password": PASSWORD}, page="/connexion")
    assert r.status_code == 303, r.text


def as_old_guest(client: TestClient, cookie: str) -> None:
    """The client holds nothing but the old guest cookie (as a copy of it would)."""
    client.cookies.clear()
    client.cookies.set("session", cookie)


def account_player(client: TestClient, name: str) -> str:
    store = client.app.state.store  # type: ignore[attr-defined]
    with store.session() as s:
        row = s.query(AccountRow).filter(AccountRow.name == name).one()
        return str(row.player_id)


def assert_nothing_of(client: TestClient, cookie: str, old_player: str, table_id: str, csrf: str) -> None:
    """With only ``cookie``: no table, no hand, no games, no history, no abandon."""
    as_old_guest(client, cookie)
    home = client.get("/")
    assert home.status_code == 200
    assert "Reprendre la partie" not in home.text and f"/table/{table_id}" not in home.text
    assert guest_of_cookie(home.cookies["session"]) != old_player  # a new guest's cookie
    as_old_guest(client, cookie)
    assert client.get(f"/table/{table_id}").status_code == 404
    as_old_guest(client, cookie)
    with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(f"/ws/table/{table_id}") as ws:
        ws.receive_json()  # accepted, then closed: a page reads the code
    assert refused.value.code == 4404
    as_old_guest(client, cookie)
    account = client.get("/compte")
    assert account.status_code == 200 and table_id not in account.text
    as_old_guest(client, cookie)
    history = client.get("/historique")
    assert history.status_code == 200 and table_id not in history.text
    as_old_guest(client, cookie)
    assert client.get(f"/historique/partie/{table_id}").status_code == 404
    # Giving up the game with the cookie and the form token it had: refused, game unchanged.
    as_old_guest(client, cookie)
    r = client.post(f"/partie/{table_id}/abandonner", data={"csrf": csrf}, follow_redirects=False)
    assert r.status_code in (403, 404), r.status_code
    # Or with the token the page now gives the old cookie (a new guest's): not its game.
    as_old_guest(client, cookie)
    r = post_form(client, f"/partie/{table_id}/abandonner", {}, page="/")
    assert r.status_code == 404, r.status_code


@pytest.mark.both_databases
def test_after_sign_up_the_old_guest_cookie_is_a_new_guest_with_nothing(client: TestClient) -> None:
    guest, cookie = new_guest(client)
    table_id = create_solo(client, "classic", 700, "beginner")
    csrf = csrf_of(client, "/")
    sign_up(client, "Marcel")
    account_cookies = dict(client.cookies)
    assert account_player(client, "Marcel") == guest  # the account keeps the guest's game

    assert_nothing_of(client, cookie, guest, table_id, csrf)

    # The account still has it all, and its game is still in progress.
    client.cookies.clear()
    for name, value in account_cookies.items():
        client.cookies.set(name, value)
    assert client.get(f"/table/{table_id}").status_code == 200
    assert f'href="/table/{table_id}"' in client.get("/").text
    assert table_id in call(client, parts_of(client).db, parts_of(client).store.open_games, guest)
    # Logged out, then in again as the account: the old cookie stays retired.
    post_form(client, "/deconnexion", {}, page="/compte")
    log_in(client, "Marcel")
    assert client.get(f"/table/{table_id}").status_code == 200
    assert_nothing_of(client, cookie, guest, table_id, csrf)


def test_the_old_cookie_has_no_free_deals_of_the_account(make_client: MakeClient) -> None:
    client = make_client(free_deals=0)
    guest, cookie = new_guest(client)
    sign_up(client, "Marcel")
    create_solo(client, "classic", 700, "beginner")  # the account plays without a limit
    as_old_guest(client, cookie)
    r = post_form(client, "/solo", {"profile": "classic", "target": "700", "level": "beginner"})
    assert r.status_code == 303 and r.headers["location"].startswith("/inscription"), r.headers.get("location")
    games = call(client, parts_of(client).db, parts_of(client).store.games_of, guest)
    assert len(games) == 1  # nothing started under the account's player


def test_after_deletion_the_old_cookie_lists_no_history(client: TestClient) -> None:
    guest, cookie = new_guest(client)
    table_id = create_solo(client, "classic", 700, "beginner")
    r = post_form(client, f"/partie/{table_id}/abandonner", {}, page="/compte")
    assert r.status_code == 303
    assert table_id in client.get("/historique").text  # a given-up game is listed
    csrf = csrf_of(client, "/")
    sign_up(client, "Marcel")
    r = post_form(client, "/compte/supprimer", {"password": PASSWORD}, page="/compte")
    assert r.status_code == 200
    assert_nothing_of(client, cookie, guest, table_id, csrf)


def test_after_log_in_the_old_guest_cookie_is_a_new_guest_with_nothing(client: TestClient) -> None:
    new_guest(client)
    sign_up(client, "Marcel")
    post_form(client, "/deconnexion", {}, page="/compte")
    guest, cookie = new_guest(client)
    table_id = create_solo(client, "classic", 700, "beginner")
    csrf = csrf_of(client, "/")
    log_in(client, "Marcel")
    # The account adopts the guest's game in progress: its seat is the account's now.
    assert client.get(f"/table/{table_id}").status_code == 200
    assert f'href="/table/{table_id}"' in client.get("/").text
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        assert receive(ws)["type"] == "state"
    marcel = account_player(client, "Marcel")
    assert call(client, parts_of(client).db, parts_of(client).store.open_games, marcel) == [table_id]
    assert_nothing_of(client, cookie, guest, table_id, csrf)


@pytest.mark.parametrize("how", ["sign_up", "log_in"])
def test_a_socket_opened_with_the_guest_cookie_closes_when_the_guest_is_retired(client: TestClient, how: str) -> None:
    """A table socket opened as the guest is told to reconnect (4012) once the guest signs
    up or logs in: the browser that did so comes back as the account, a copy of the old
    cookie gets 4404."""
    if how == "log_in":
        new_guest(client)
        sign_up(client, "Marcel")
        post_form(client, "/deconnexion", {}, page="/compte")
    _, cookie = new_guest(client)
    table_id = create_solo(client, "classic", 700, "beginner")
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        assert receive(ws)["type"] == "state"
        sign_up(client, "Jeanne") if how == "sign_up" else log_in(client, "Marcel")
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(1000):
                raw_receive(ws)
        assert closed.value.code == 4012
    if how == "sign_up":  # the account is the guest's player: its own cookie sits there
        with client.websocket_connect(f"/ws/table/{table_id}") as ws:
            assert receive(ws)["type"] == "state"
    as_old_guest(client, cookie)
    with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(f"/ws/table/{table_id}") as ws:
        ws.receive_json()  # accepted, then closed: a page reads the code
    assert refused.value.code == 4404


def _cookie(payload: object, signature: str = "x") -> str:
    data = base64.b64encode(json.dumps(payload).encode()).decode()
    return f"{data}.{signature}"


def test_forged_and_garbled_cookies_are_no_one(client: TestClient) -> None:
    _, other = new_guest(client)
    guest, cookie = new_guest(client)
    table_id = create_solo(client, "classic", 700, "beginner")
    payload = cookie.partition(".")[0]
    signature = other.partition(".")[2]
    forged = [
        _cookie({"player": guest}),  # the player's id, unsigned
        _cookie({"player": guest}, signature),  # with another guest's cookie's signature
        cookie[:-3] + ("AAA" if not cookie.endswith("AAA") else "BBB"),  # a broken signature
        "garbage",
        "",
        "." * 50,
        "%C3%A9t%C3%A9",
        payload,  # no signature at all
        "x" * 5000,
    ]
    for value in forged:
        as_old_guest(client, value)
        r = client.get(f"/table/{table_id}")
        assert r.status_code == 404, value
        assert "Traceback" not in r.text
        as_old_guest(client, value)
        home = client.get("/")
        assert home.status_code == 200 and f"/table/{table_id}" not in home.text
    # The real cookie still is the guest.
    as_old_guest(client, cookie)
    assert client.get(f"/table/{table_id}").status_code == 200


def test_a_retired_guest_cannot_sign_up_as_a_second_account(client: TestClient) -> None:
    guest, cookie = new_guest(client)
    sign_up(client, "Marcel")
    as_old_guest(client, cookie)
    sign_up(client, "Jeanne")
    assert account_player(client, "Jeanne") != guest
    assert account_player(client, "Marcel") == guest
