"""The bot API (issue 31, ``docs/bot-api.md``): bot accounts and their tokens, the NDJSON
stream and the POSTs a program plays with, and what a hostile bot cannot do.

In process (Starlette's test client) for the pages and the POSTs; the stream against the
application served by uvicorn in a thread (a streamed answer needs a real server), with
short clocks so that a bot that stalls or goes is stood in for within a second or two.
``test_bot_bridge.py`` has the separate process: ``coinche connect`` against ``coinche
serve``."""

from __future__ import annotations

import contextlib
import html
import http.client
import json
import queue
import re
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx2 as httpx
import uvicorn
from friends_helpers import Person
from server_helpers import CSRF_FIELD, check_no_leak, free_port, is_my_turn, settings_for, ws_receive
from starlette.testclient import TestClient
from test_tournaments import Clock, organise
from websockets.sync.client import connect

from coinche.engine.wire import action_to_json
from coinche.server.features.accounts import Account, AccountStore
from coinche.server.features.bots import BotStore
from coinche.server.infra.config import Settings
from coinche.server.infra.store import Store, new_id
from coinche.server.table.live_table import LiveTable
from coinche.server.web.app import create_app

MakeClient = Any


# ----- helpers -----


def bot_page_token(person: Person, name: str) -> str:
    """``person`` (signed in) makes a bot called ``name`` on the bots' page and a token
    for it; the token, as the page shows it once."""
    r = person.post("/robots", {"action": "create", "value": name}, "/robots")
    assert r.status_code == 200 and f"{name} (robot)" in html.unescape(r.text), r.text
    bot_id = re.search(r'name="value" value="([^"]+)" class="primary small"', r.text)
    assert bot_id is not None
    r = person.post("/robots", {"action": "token", "value": bot_id[1]}, "/robots")
    assert r.status_code == 200 and r.headers["cache-control"] == "no-store"
    token = re.search(r'<code class="token" id="new-token">([^<]+)</code>', r.text)
    assert token is not None
    return token[1]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def made_bot(url: str, owner: str = "Owner", name: str = "Zebulon") -> tuple[Account, Account, str]:
    """An owner's account, their bot and its token, written in the database (the pages are
    tested apart)."""
    store = Store(url)
    try:
        person = AccountStore(store).create(owner, None, "!", new_id(12))
        bots = BotStore(store)
        bot = bots.create(person, name)
        return person, bot, bots.new_token(person.id, bot.id, datetime.now(UTC))
    finally:
        store.close()


def session_of(url: str, account: Account) -> str:
    """A logged-in session of ``account`` (the ``sid`` cookie's value)."""
    store = Store(url)
    try:
        return AccountStore(store).open_session(account.id, 1)
    finally:
        store.close()


def table_of(url: str, table_id: str) -> LiveTable:
    store = Store(url)
    try:
        loaded = store.load_table(table_id)
    finally:
        store.close()
    assert loaded is not None
    return LiveTable.build(*loaded)


@contextlib.contextmanager
def serving(settings: Settings) -> Iterator[str]:
    """The application served by uvicorn in a thread: its base address."""
    port = free_port()
    config = uvicorn.Config(
        create_app(settings), host="127.0.0.1", port=port, log_level="warning", timeout_graceful_shutdown=3
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(30)


class Stream:
    """A bot's event stream, read on a thread into a queue (so a test waits with a time)."""

    def __init__(self, base: str, token: str) -> None:
        parts = urlsplit(base)
        self.conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=30)
        self.conn.request("GET", "/api/bot/stream", headers=bearer(token))
        self.response = self.conn.getresponse()
        assert self.response.status == 200, self.response.read()
        assert self.response.getheader("content-type", "").startswith("application/x-ndjson")
        self.events: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.seen: list[dict[str, Any]] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            while line := self.response.readline():
                self.events.put(json.loads(line))
        except (OSError, ValueError, AttributeError):  # closed: http.client's own state goes
            pass
        self.events.put(None)

    def next(self, *kinds: str, timeout: float = 20.0) -> dict[str, Any]:
        """The next event of one of ``kinds`` (any kind when none is named)."""
        deadline = time.monotonic() + timeout
        while True:
            event = self.events.get(timeout=max(0.01, deadline - time.monotonic()))
            assert event is not None, "the stream ended"
            self.seen.append(event)
            if not kinds or event["type"] in kinds:
                return event

    def close(self) -> None:
        with contextlib.suppress(OSError):
            if self.conn.sock is not None:
                self.conn.sock.shutdown(2)
        self.conn.close()


def api_post(base: str, token: str, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
    return httpx.post(base + path, json=body or {}, headers=bearer(token), timeout=30)


def as_states(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A bot's events as the table socket's states ``check_no_leak`` reads: each view (a
    turn's, a deal's end's) a state of its deal; the other events as they are."""
    out: list[dict[str, Any]] = []
    for e in events:
        if e["type"] == "turn":
            out.append({"type": "state", "game": {"deal_number": e["game"]["deal_number"], "deal": e["view"]}})
        elif e["type"] == "deal_over":
            out.append({"type": "state", "game": {"deal_number": e["deal"], "deal": e["view"]}})
        else:
            out.append(e)
    return out


# ----- accounts and tokens -----


def test_a_bot_is_made_marked_given_a_token_once_and_revoked(client: TestClient) -> None:
    owner = Person(client, "Maud")
    owner.sign_up()
    token = bot_page_token(owner, "Zebulon")
    assert token.startswith("cbot_")
    r = client.get("/api/bot/account", headers=bearer(token))
    assert r.json() == {"name": "Zebulon (robot)", "owner": "Maud", "player": r.json()["player"]}
    # the page lists the bot, never the token again
    page = owner.get("/robots").text
    assert "Zebulon (robot)" in html.unescape(page) and token not in page
    assert "Un robot de" in owner.get("/joueur/Zebulon").text  # its profile names its owner
    # its name is taken, for people too; nobody logs in as a bot
    person = Person(client, "Zebulon")
    r = person.post("/inscription", {"name": "Zebulon", "password": "x" * 10, "confirm": "x" * 10}, "/inscription")
    assert r.status_code == 400
    r = person.post("/connexion", {"name": "Zebulon", "password": "!bot"}, "/connexion")
    assert r.status_code != 303
    # revoked: refused at once
    token_id = re.search(r'name="value" value="([^"]+)" class="secondary small">Révoquer', page)
    assert token_id is not None
    assert owner.post("/robots", {"action": "revoke", "value": token_id[1]}, "/robots").status_code == 303
    r = client.get("/api/bot/account", headers=bearer(token))
    assert r.status_code == 401 and r.json()["error"] == "bad_token"


def test_another_person_can_neither_give_a_token_to_a_bot_nor_revoke_one(client: TestClient) -> None:
    owner, other = Person(client, "Maud"), Person(client, "Intrus")
    owner.sign_up()
    other.sign_up()
    token = bot_page_token(owner, "Zebulon")
    bot_id = re.search(r'name="value" value="([^"]+)" class="primary small"', owner.get("/robots").text)
    token_id = re.search(r'name="value" value="([^"]+)" class="secondary small">Révoquer', owner.get("/robots").text)
    assert bot_id is not None and token_id is not None
    r = other.post("/robots", {"action": "token", "value": bot_id[1]}, "/robots")
    assert r.status_code == 400 and "cbot_" not in r.text
    other.post("/robots", {"action": "revoke", "value": token_id[1]}, "/robots")
    other.post("/robots", {"action": "delete", "value": bot_id[1]}, "/robots")
    assert client.get("/api/bot/account", headers=bearer(token)).status_code == 200
    # a person's session opens no bot: the API reads the token alone
    with owner.acting() as c:
        assert c.post("/api/bot/games", json={}).status_code == 401


def test_deleting_the_owner_deletes_their_bots(client: TestClient) -> None:
    owner = Person(client, "Maud")
    owner.sign_up()
    token = bot_page_token(owner, "Zebulon")
    r = owner.post("/compte/supprimer", {"password": "correct horse"}, "/compte")
    assert r.status_code == 200 and "Compte supprimé" in r.text
    assert client.get("/api/bot/account", headers=bearer(token)).status_code == 401


# ----- the requests -----


def test_a_game_against_the_computers_and_bad_requests_that_change_nothing(client: TestClient) -> None:
    owner = Person(client, "Maud")
    owner.sign_up()
    token = bot_page_token(owner, "Zebulon")
    headers = bearer(token)
    r = client.post("/api/bot/games", json={"rules": "classic", "target": 100, "level": "beginner"}, headers=headers)
    assert r.status_code == 200, r.text
    table_id = r.json()["table"]
    parts = client.app.state.parts  # type: ignore[attr-defined]
    live = client.portal.call(parts.tables.table, table_id)  # type: ignore[union-attr]
    assert live is not None and live.spec.rules.target == 100
    bot = live.seats[0].player
    seq = live.seq

    def post(path: str, body: Any, **more: Any) -> httpx.Response:
        return client.post(f"/api/bot/tables/{table_id}/{path}", headers=headers, **({"json": body} | more))

    refused = [
        (client.post("/api/bot/games", json={}), 401, "no_token"),
        (client.post("/api/bot/games", json={}, headers=bearer("cbot_nope")), 401, "bad_token"),
        (client.post(f"/api/bot/tables/{table_id}/action", content=b"[1,", headers=headers), 400, "not_json"),
        (post("action", [1, 2]), 400, "not_an_object"),
        (post("action", {"id": "x" * 65, "action": {"call": "pass"}}), 400, "bad_id"),
        (post("action", {"action": {"call": "pass"}}), 400, "bad_id"),
        (post("action", {"id": "a", "action": {"call": "999Z"}}), 400, "bad_action"),
        (post("action", {"id": "a", "action": "pass"}), 400, "bad_action"),
        (post("action", None, content=b"{" + b" " * 20000 + b"}"), 413, "too_big"),
        (
            client.post("/api/bot/tables/nosuchtable/action", json={"id": "a", "action": {}}, headers=headers),
            404,
            "gone",
        ),
        (client.post("/api/bot/games", json={"rules": "<script>"}, headers=headers), 400, "bad_rules"),
        (client.post("/api/bot/games", json={"level": 3}, headers=headers), 400, "bad_level"),
        (client.post("/api/bot/games", json={"target": 10**9}, headers=headers), 400, "bad_rules"),
        (client.post("/api/bot/games", json={"rules": {"profile": "x"}}, headers=headers), 400, "bad_rules"),
        (client.post("/api/bot/join/ZZZZZZ", json={}, headers=headers), 404, "gone"),
    ]
    for answer, status, code in refused:
        assert answer.status_code == status and answer.json()["error"] == code, (answer.status_code, answer.text)
    live = client.portal.call(parts.tables.table, table_id)  # type: ignore[union-attr]
    assert live.seq == seq  # nothing changed
    client.portal.call(parts.tables.attach, live, bot)  # as its stream would: the computers play

    # play the game: at each of its turns the bot posts its first legal action (twice: a
    # resent id is answered again, never played twice); a card not in hand is refused
    async def look() -> tuple[int, bool, bool, Any]:
        """The table as it is now, read on the server's loop (its object moves there)."""
        live = await parts.tables.table(table_id)
        game = live.game
        mine = not game.is_over and not game.awaiting_deal and game.to_move == 0
        return live.seq, game.is_over, game.awaiting_deal, game.current.view(0) if mine else None

    for _ in range(5000):
        seq, over, awaiting, view = client.portal.call(look)  # type: ignore[union-attr]
        if over:
            break
        if awaiting:
            assert post("next-deal", {"id": f"n{seq}"}).status_code == 200
            continue
        if view is None:
            time.sleep(0.01)
            continue
        first = action_to_json(view.legal_actions[0], view)
        r1 = post("action", {"id": f"s{seq}", "action": first})
        r2 = post("action", {"id": f"s{seq}", "action": first})
        assert r1.status_code == r2.status_code == 200 and r2.json() == r1.json() == {"step": seq + 1}
        wrong = post("action", {"id": f"w{seq}", "action": first})  # no longer its turn, or not legal
        assert wrong.status_code == 409, wrong.text
    live = client.portal.call(parts.tables.table, table_id)  # type: ignore[union-attr]
    assert live.game.is_over
    client.portal.call(parts.tables.detach, table_id, bot)
    page = client.get("/robots").text
    assert "Zebulon (robot)" in html.unescape(page.split("bots-leaderboard", 1)[1])  # rated: on the leaderboard


def test_a_flood_is_rate_limited(make_client: MakeClient) -> None:
    client = make_client(bot_action_limit="5/minute", bot_request_limit="3/minute")
    owner = Person(client, "Maud")
    owner.sign_up()
    token = bot_page_token(owner, "Zebulon")
    statuses = [client.post("/api/bot/games", json={}, headers=bearer(token)).status_code for _ in range(6)]
    assert statuses[:3] == [200, 200, 200] and statuses[3:] == [429, 429, 429]
    r = client.post("/api/bot/games", json={}, headers=bearer(token))
    assert int(r.headers["retry-after"]) > 0 and r.json()["error"] == "rate_limited"


# ----- where bots are welcome -----


def test_a_bot_joins_only_the_tables_that_welcome_it(client: TestClient) -> None:
    host, owner = Person(client, "Hote"), Person(client, "Maud")
    host.sign_up()
    owner.sign_up()
    token = bot_page_token(owner, "Zebulon")
    table_id, code = host.make_table()

    def join() -> httpx.Response:
        return client.post(f"/api/bot/join/{code}", json={}, headers=bearer(token))

    assert join().status_code == 403 and join().json()["error"] == "bots_not_welcome"
    assert host.post(f"/table/{table_id}/ouverte", {"public": "on"}, "/amis").status_code == 303
    assert join().status_code == 403  # public, but not to bots
    assert client.get("/api/bot/open-tables", headers=bearer(token)).json() == {"tables": []}
    assert owner.post(f"/table/{table_id}/robots", {"bots": "on"}, "/amis").status_code == 403  # not the host's
    assert host.post(f"/table/{table_id}/robots", {"bots": "on"}, "/amis").status_code == 303
    lobby = html.unescape(host.get(f"/table/{table_id}").text)
    assert "Les robots des joueurs peuvent prendre une place libre" in lobby
    listed = client.get("/api/bot/open-tables", headers=bearer(token)).json()["tables"]
    assert [t["code"] for t in listed] == [code] and listed[0]["free_seats"] == 3
    assert join().json() == {"table": table_id, "seat": 1}
    assert join().json() == {"table": table_id, "seat": 1}  # sat already: nothing changes
    assert client.post(f"/api/bot/join/{code}", json={"seat": 7}, headers=bearer(token)).status_code == 400


def test_a_bot_enters_only_the_tournaments_that_welcome_bots(make_client: MakeClient) -> None:
    clock = Clock()
    client = make_client(clock=clock)
    organiser, owner = Person(client, "Orga"), Person(client, "Maud")
    organiser.sign_up()
    owner.sign_up()
    token = bot_page_token(owner, "Zebulon")
    people_only = organise(organiser)
    welcoming = organise(organiser, name="Tournoi des robots", bots="on")
    r = client.post(f"/api/bot/tournaments/{people_only}/enter", json={}, headers=bearer(token))
    assert r.status_code == 409 and r.json()["error"] == "no_bots", r.text
    r = client.post(f"/api/bot/tournaments/{people_only}/enter", json={"partner": 3}, headers=bearer(token))
    assert r.status_code == 400
    # nor may a person name a bot as their partner there
    r = owner.post(f"/tournoi/{people_only}", {"action": "enter", "partner": "Zebulon"}, "/tournois/nouveau")
    assert "robots des joueurs ne peuvent pas" in html.unescape(r.text)
    listed = client.get("/api/bot/tournaments", headers=bearer(token)).json()["tournaments"]
    assert [t["id"] for t in listed] == [welcoming]
    r = client.post(f"/api/bot/tournaments/{welcoming}/enter", json={}, headers=bearer(token))
    assert r.status_code == 200 and "entry" in r.json()
    assert "Robots" in organiser.get(f"/tournoi/{welcoming}").text
    r = client.post(f"/api/bot/tournaments/{welcoming}/withdraw", json={}, headers=bearer(token))
    assert r.json() == {"ok": True}


# ----- the stream -----

FAST = {"grace_seconds": 0.5, "idle_warning_seconds": 0.5, "idle_move_seconds": 1.0, "bot_heartbeat": 1.0}


def test_a_bot_plays_a_game_through_its_stream_and_learns_nothing_it_may_not(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, **FAST)
    _, bot, token = made_bot(settings.database_url)
    with serving(settings) as base:
        stream = Stream(base, token)
        try:
            assert stream.next() == {"type": "hello", "protocol": 1, "name": "Zebulon (robot)"}
            r = api_post(base, token, "/api/bot/games", {"level": "beginner", "target": 500})
            table_id = r.json()["table"]
            table = stream.next("table")
            assert table["table"] == table_id and table["seat"] == 0
            # names by seat, its own among them (docs/bot-api.md)
            assert table["players"] == ["Zebulon (robot)", *["computer (beginner)"] * 3], table["players"]
            for _ in range(3000):
                event = stream.next("turn", "deal_wait", "game_over")
                if event["type"] == "game_over":
                    break
                if event["type"] == "deal_wait":
                    api_post(base, token, f"/api/bot/tables/{table_id}/next-deal", {"id": f"n{event['step']}"})
                    continue
                first = event["view"]["legal_actions"][0]
                r = api_post(
                    base, token, f"/api/bot/tables/{table_id}/action", {"id": str(event["step"]), "action": first}
                )
                assert r.status_code == 200, r.text
            # a second stream of the same bot is allowed, a third is not
            with contextlib.ExitStack() as more:
                more.callback(Stream(base, token).close)
                r = httpx.get(base + "/api/bot/stream", headers=bearer(token), timeout=10)
                assert r.status_code == 429 and r.json()["error"] == "too_many_streams"
        finally:
            stream.close()
    live = table_of(settings.database_url, table_id)
    assert live.game.is_over and live.seats[0].player == bot.player
    turns = [e for e in stream.seen if e["type"] == "turn"]
    assert turns and all(e["seat"] == 0 and e["view"]["to_move"] == 0 for e in turns)
    checked = check_no_leak(as_states(stream.seen), list(live.game.deals), 0)
    assert checked == len(turns) + sum(e["type"] == "deal_over" for e in stream.seen)


def test_a_bot_invited_to_friends_table_that_stalls_then_leaves_is_stood_in_for(tmp_path: Path) -> None:
    # an idle clock of 3 s: on a loaded machine a clock of 1 s ran out for the host too, and
    # for the bot's next turn before its closed stream's grace period was over
    settings = settings_for(tmp_path, **(FAST | {"idle_move_seconds": 3.0}), bot_action_limit="20/minute")
    owner, bot, token = made_bot(settings.database_url)
    sid = session_of(settings.database_url, owner)
    with serving(settings) as base, httpx.Client(base_url=base, cookies={"sid": sid}) as host:
        page = host.get("/amis")
        csrf = CSRF_FIELD.search(page.text)
        assert csrf is not None
        form = {"csrf": csrf[1], "profile": "classic", "target": "1000", "late_joins": "on", "idle_clock": "on"}
        form |= {"level_1": "beginner", "level_2": "beginner", "level_3": "beginner"}
        r = host.post("/amis", data=form, follow_redirects=False)
        assert r.status_code == 303, r.text
        table_id = r.headers["location"].removeprefix("/table/")
        stream = Stream(base, token)
        try:
            stream.next("hello")
            r = host.post("/inviter", data={"csrf": csrf[1], "table_id": table_id, "name": "zebulon"})
            invitation = stream.next("invitation")
            assert invitation["from"] == "Owner" and invitation["table"] == table_id
            assert invitation["seat"] == 1  # no seat named: the first computer's, offered
            r = api_post(base, token, f"/api/bot/invitations/{invitation['id']}/accept")
            assert r.json() == {"table": table_id, "seat": 1}, r.text
            assert stream.next("table")["players"][1] == "Zebulon (robot)"
            cookie = "; ".join(f"{k}={v}" for k, v in host.cookies.items())
            with connect(
                f"ws://{base.removeprefix('http://')}/ws/table/{table_id}", additional_headers={"Cookie": cookie}
            ) as ws:
                ws.send(json.dumps({"type": "host", "id": "start", "op": "start"}))
                # the bot stalls at its turn: the computer plays that move for it
                turn = stream.next("turn")
                flood = [
                    api_post(
                        base, token, f"/api/bot/tables/{table_id}/action", {"id": f"f{i}", "action": {"card": "AS"}}
                    )
                    for i in range(25)
                ]
                assert {r.status_code for r in flood} <= {400, 409, 429} and flood[-1].status_code == 429
                host_plays_until(ws, lambda: table_of(settings.database_url, table_id).seq > turn["step"] + 1)
                # ...then it goes: a computer stands in for it until the deal's end (once the
                # grace period is over; the host waits for it, so that the bot's next turn does
                # not come first and run out its idle clock on a loaded machine)
                stream.close()
                deadline = time.monotonic() + 30
                while table_of(settings.database_url, table_id).seats[1].stand_in is None:
                    assert time.monotonic() < deadline, "the bot was never stood in for"
                    time.sleep(0.05)
                host_plays_until(ws, lambda: table_of(settings.database_url, table_id).game.awaiting_deal)
        finally:
            stream.close()
    live = table_of(settings.database_url, table_id)
    bot_steps = [s for s in live.steps if s.kind == "action" and s.seat == 1]
    # its stalled move was played for it as an idle person's, the others as an absent one's
    assert bot_steps[0].played_by == "idle" and {s.played_by for s in bot_steps[1:]} == {"away"}, [
        (s.seq, s.kind, s.seat, s.played_by, s.seat_data) for s in live.steps
    ]
    assert live.seats[1].player == bot.player  # still its seat: a computer only stood in


def host_plays_until(ws: Any, done: Any, seconds: float = 30.0) -> None:
    """The host plays its turns (its first legal action) until ``done()``."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "the table did not go on"
        try:
            state = ws_receive(ws, timeout=0.3)
        except TimeoutError:
            continue
        if state["type"] == "state" and state.get("game") and is_my_turn(state):
            action = state["game"]["deal"]["legal_actions"][0]
            ws.send(json.dumps({"type": "action", "id": f"h{state['seq']}", "action": action}))


def test_a_body_with_a_key_of_the_wrong_kind_is_refused_by_that_key(client: TestClient) -> None:
    """Each request's body is read as its own type: a key that holds what it may not is
    refused with that key's code, before anything is looked up or changed."""
    owner = Person(client, "Maud")
    owner.sign_up()
    headers = bearer(bot_page_token(owner, "Zebulon"))
    refused = [
        ("/api/bot/join/ZZZZZZ", {"seat": 4}, "bad_seat"),
        ("/api/bot/join/ZZZZZZ", {"seat": True}, "bad_seat"),
        ("/api/bot/invitations/nope/accept", {"seat": "0"}, "bad_seat"),
        ("/api/bot/tournaments/nope/enter", {"partner": 3}, "bad_entry"),
        ("/api/bot/tournaments/nope/enter", {"code": ["x"]}, "bad_entry"),
        ("/api/bot/tournaments/nope/answer", {"entry": "e"}, "bad_answer"),
        ("/api/bot/tournaments/nope/answer", {"entry": 1, "accept": True}, "bad_answer"),
        ("/api/bot/games", {"rules": 7}, "bad_rules"),
        ("/api/bot/games", {"level": None}, "bad_level"),
        ("/api/bot/tables/nope/next-deal", {"id": "\n"}, "bad_id"),
        ("/api/bot/tables/nope/next-deal", {"id": ""}, "bad_id"),
        ("/api/bot/tables/nope/action", "[1,", "not_json"),
        ("/api/bot/tables/nope/action", '"action"', "not_an_object"),
    ]
    for path, body, code in refused:
        sent = {"content": body} if isinstance(body, str) else {"json": body}
        r = client.post(path, headers=headers, **sent)  # type: ignore[arg-type]
        assert r.status_code == 400 and r.json()["error"] == code, (path, body, r.text)
        assert isinstance(r.json()["message"], str) and r.json()["message"]
    ok = client.post("/api/bot/games", json={"rules": "classic", "level": "beginner", "extra": [1]}, headers=headers)
    assert ok.status_code == 200 and set(ok.json()) == {"table"}, ok.text


def test_accepting_an_invitation_with_a_bad_seat_leaves_the_invitation(client: TestClient) -> None:
    """A bad ``seat`` is refused before the invitation is answered: the bot may accept it
    again with a good one (it was used up by the refused request before)."""
    host, owner = Person(client, "Hote"), Person(client, "Maud")
    host.sign_up()
    owner.sign_up()
    token = bot_page_token(owner, "Zebulon")
    table_id, _ = host.make_table()
    parts = client.app.state.parts  # type: ignore[attr-defined]
    following = client.app.state.following  # type: ignore[attr-defined]
    live = client.portal.call(parts.tables.table, table_id)  # type: ignore[union-attr]
    client.portal.call(following.invite, live.seats[0].player, "Zebulon", table_id)  # type: ignore[union-attr]
    me = client.get("/api/bot/account", headers=bearer(token)).json()["player"]
    invitations = client.portal.call(following.invitations, me)  # type: ignore[union-attr]
    assert len(invitations) == 1
    accept = f"/api/bot/invitations/{invitations[0].id}/accept"
    refused = client.post(accept, json={"seat": 9}, headers=bearer(token))
    assert refused.status_code == 400 and refused.json()["error"] == "bad_seat", refused.text
    assert len(client.portal.call(following.invitations, me)) == 1  # type: ignore[union-attr]
    seated = client.post(accept, json={"seat": 2}, headers=bearer(token))
    assert seated.status_code == 200 and seated.json() == {"table": table_id, "seat": 2}, seated.text


def test_accepting_an_invitation_with_no_seat_takes_the_seat_it_offered(client: TestClient) -> None:
    """``{}`` takes the seat the host offered, as a person's acceptance does; when a person
    took it meanwhile, the first computer's."""
    host, owners = Person(client, "Hote"), [Person(client, "Maud"), Person(client, "Noemie")]
    host.sign_up()
    for owner in owners:
        owner.sign_up()
    tokens = [bot_page_token(owner, name) for owner, name in zip(owners, ("Zebulon", "Yvon"), strict=True)]
    table_id, _ = host.make_table()
    parts = client.app.state.parts  # type: ignore[attr-defined]
    following = client.app.state.following  # type: ignore[attr-defined]
    live = client.portal.call(parts.tables.table, table_id)  # type: ignore[union-attr]
    for name in ("Zebulon", "Yvon"):  # both offered seat 3
        client.portal.call(following.invite, live.seats[0].player, name, table_id, 3)  # type: ignore[union-attr]
    seats = []
    for token in tokens:
        me = client.get("/api/bot/account", headers=bearer(token)).json()["player"]
        (invitation,) = client.portal.call(following.invitations, me)  # type: ignore[union-attr]
        assert invitation.seat == 3
        r = client.post(f"/api/bot/invitations/{invitation.id}/accept", json={}, headers=bearer(token))
        assert r.status_code == 200 and r.json()["table"] == table_id, r.text
        seats.append(r.json()["seat"])
    assert seats == [3, 1]  # the second found seat 3 taken: the first computer's seat
    live = client.portal.call(parts.tables.table, table_id)  # type: ignore[union-attr]
    assert [live.seats[s].name for s in seats] == ["Zebulon (robot)", "Yvon (robot)"]
