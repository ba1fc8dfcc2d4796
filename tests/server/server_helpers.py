"""What the server tests share: timed receives on a test WebSocket, the guest of a session
cookie, a simulated human that plays legal moves, and the engine's truth about which cards
a seat may not know at each step of a deal."""

from __future__ import annotations

import asyncio
import base64
import concurrent.futures
import contextlib
import http.client
import itertools
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import anyio
from sqlalchemy import create_engine, select, text
from starlette.testclient import TestClient, WebSocketTestSession
from websockets.sync.client import ClientConnection, connect

from coinche.engine.cards import card_str, cards_of
from coinche.engine.deal import Deal
from coinche.engine.wire import view_to_json
from coinche.server.features.friends import Friends
from coinche.server.infra.config import Settings
from coinche.server.infra.rows.people import AccountRow
from coinche.server.live.parts import TableParts
from coinche.server.table import i18n
from coinche.server.table.live_table import LiveTable
from coinche.server.web.steps import apply_step

RECEIVE_TIMEOUT = float(os.environ.get("RECEIVE_TIMEOUT", "30"))
"""Seconds a test waits for one message before failing (never forever)."""

MAX_MESSAGES = 20_000
"""The most messages one simulated game may take (every loop of the tests is bounded)."""

ALL_CARDS = [card_str(c) for c in range(32)]

T = TypeVar("T")


class Clock:
    """The server's clock in a test (``Settings.clock``), moved by the test: a day, a ban or
    a season ends when the test says, not at the real hour."""

    def __init__(self, now: datetime = datetime(2026, 12, 7, 12, tzinfo=UTC)) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def player_of(client: TestClient, name: str) -> str:
    """The player id of the account named ``name``."""
    with client.app.state.store.session() as s:  # type: ignore[attr-defined]
        found = s.scalar(select(AccountRow.player_id).where(AccountRow.name == name))
    assert found is not None, f"no account named {name}"
    return str(found)


def raw_receive(ws: WebSocketTestSession, timeout: float = RECEIVE_TIMEOUT, assemble: bool = True) -> dict[str, Any]:
    """The next message of a test WebSocket as JSON, failing after ``timeout`` seconds
    (``WebSocketTestSession.receive`` alone would wait forever); a ``step`` as the state it
    makes (``as_state``) unless ``assemble`` is false."""

    async def get() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    message = ws.portal.call(get)
    ws._raise_on_close(message)
    data = json.loads(message["text"])
    assert isinstance(data, dict)
    return as_state(ws, data) if assemble else data


def as_state(connection: Any, message: dict[str, Any]) -> dict[str, Any]:
    """A ``step`` as the state it makes of the connection's last state (what a page does),
    any other message as is: the tests read whole states. A step must follow that state."""
    if message.get("type") == "state":
        connection.coinche_state = message
    elif message.get("type") == "step":
        before = getattr(connection, "coinche_state", None)
        assert before is not None, f"a step with no state before it: {message}"
        assert message["seq"] == before["seq"] + 1, f"step {message['seq']} after state {before['seq']}"
        connection.coinche_state = message = apply_step(before, message)
    return message


def receive(ws: WebSocketTestSession, timeout: float = RECEIVE_TIMEOUT) -> dict[str, Any]:
    """The next message that is not a ``hello`` or an ``ack`` (states, errors, hints)."""
    for _ in range(MAX_MESSAGES):
        data = raw_receive(ws, timeout)
        if data["type"] not in ("hello", "ack"):
            return data
    raise AssertionError("only hellos and acks")


def guest_of_cookie(value: str) -> str:
    """The player id inside a session cookie (Starlette's: base64 JSON, then its signature)."""
    payload = value.split(".", 1)[0]
    data = json.loads(base64.b64decode(payload + "=" * (-len(payload) % 4)))
    player = data["player"]
    assert isinstance(player, str)
    return player


def new_guest(client: TestClient) -> tuple[str, str]:
    """A fresh guest: clears the client's cookies, visits the home page; (its player id,
    cookie)."""
    client.cookies.clear()
    assert client.get("/").status_code == 200
    cookie = client.cookies["session"]
    return guest_of_cookie(cookie), cookie


CSRF_FIELD = re.compile(r'name="csrf" value="([^"]+)"')


def another_visitor(client: TestClient) -> TestClient:
    """A second browser (its own cookies) on ``client``'s running application, its requests
    run on the application's own event loop. (A ``TestClient`` that was not entered runs
    each request on a new loop, where the application's tasks and locks are not: a request
    could wait forever, one run in many.)"""
    other = TestClient(client.app, base_url=str(client.base_url))
    other.portal = client.portal
    return other


def csrf_of(client: TestClient, path: str = "/") -> str:
    """The CSRF token the page at ``path`` gives the client's visitor (made a guest on the
    way if it is none), as a browser's form would send it."""
    r = client.get(path)
    assert r.status_code == 200, r.status_code
    found = CSRF_FIELD.search(r.text)
    assert found is not None, f"no form with a CSRF token at {path}"
    return found[1]


def post_form(client: TestClient, path: str, form: dict[str, str], page: str = "/") -> Any:
    """POST ``form`` to ``path`` with the CSRF token of ``page``, as its form would."""
    return client.post(path, data={"csrf": csrf_of(client, page), **form}, follow_redirects=False)


def create_solo(client: TestClient, profile: str, target: int, level: str, sa_ta: bool = False) -> str:
    """POST /solo as the client's guest; the new table's id."""
    form = {"profile": profile, "target": str(target), "level": level}
    if sa_ta:
        form["sa_ta"] = "true"
    r = post_form(client, "/solo", form)
    assert r.status_code == 303, r.text
    location = r.headers["location"]
    assert location.startswith("/table/"), location
    return location.removeprefix("/table/")


def parts_of(client: TestClient) -> TableParts:
    parts = client.app.state.parts  # type: ignore[attr-defined]
    assert isinstance(parts, TableParts)
    return parts


def friends_of(client: TestClient) -> Friends:
    friends = client.app.state.friends  # type: ignore[attr-defined]
    assert isinstance(friends, Friends)
    return friends


def live_table(client: TestClient, table_id: str) -> LiveTable:
    live = parts_of(client).registry.get(table_id)
    assert live is not None
    return live


def run_async(make: Callable[[], Awaitable[T]]) -> T:
    """``asyncio.run(make())`` on a thread of its own: the test's thread may hold a running
    event loop (Playwright's, in a run with the browser tests)."""
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        return thread.submit(lambda: asyncio.run(_awaited(make))).result()


async def _awaited(make: Callable[[], Awaitable[T]]) -> T:
    return await make()


def call(client: TestClient, fn: Callable[..., Awaitable[T]], *args: Any) -> T:
    """Run ``await fn(*args)`` on the application's event loop (a parts method)."""
    portal = client.portal
    assert portal is not None, "the client is not started"
    return portal.call(fn, *args)


_ids = itertools.count(1)


def request(kind: str, **fields: Any) -> dict[str, Any]:
    """A client request with a fresh id: ``request("action", action={...})``."""
    return {"type": kind, "id": f"t{next(_ids)}", **fields}


# ----- a simulated human -----


def is_my_turn(state: dict[str, Any]) -> bool:
    deal = state["game"]["deal"]
    return bool(deal["legal_actions"]) and deal["to_move"] == state["table"]["you"]


def choose(legal: list[dict[str, Any]], rng: random.Random | None) -> dict[str, Any]:
    """The first legal action (None), or a seeded random one that mostly passes in the
    auction (so contracts are made by everyone, the human included)."""
    if rng is None:
        return legal[0]
    passes = [a for a in legal if a.get("call") == "pass"]
    if passes and rng.random() < 0.7:
        return passes[0]
    return rng.choice(legal)


def answers(state: dict[str, Any], seat: int, record: dict[str, Any]) -> bool:
    """Whether ``state`` is the one made by ``seat`` taking the action ``record``."""
    last = state.get("last")
    if state.get("type") != "state" or not last or last["seat"] != seat:
        return False
    sent = {k: v for k, v in record.items() if k != "melds"}
    return bool(last["action"] == sent)


@dataclass
class Human:
    """Plays one seat of a table over a test WebSocket: legal moves only, ``next_deal``
    after each deal (up to ``max_deals``), and keeps every message it received."""

    ws: WebSocketTestSession
    rng: random.Random | None = field(default_factory=lambda: random.Random(1))
    """The simulated player's choices (seeded: a failure can be played again; None: always
    the first legal action)."""
    max_deals: int | None = None
    hint_every: int = 0
    """Ask for a hint every this many own turns (0: never)."""
    messages: list[dict[str, Any]] = field(default_factory=list)
    turns: int = 0

    def receive(self) -> dict[str, Any]:
        msg = receive(self.ws)
        self.messages.append(msg)
        return msg

    def next_state(self) -> dict[str, Any]:
        """The next ``state`` (``hello`` and ``ack`` are read past; an error fails)."""
        for _ in range(MAX_MESSAGES):
            msg = self.receive()
            if msg["type"] == "state":
                return msg
            assert msg["type"] in ("hello", "ack", "presence", "say", "notice", "clock", "coach"), msg
        raise AssertionError("no state message")

    def until_my_move(self, state: dict[str, Any] | None = None) -> dict[str, Any]:
        """Read states until the seat is to act, the deal's summary or the game's end."""
        state = state or self.next_state()
        for _ in range(MAX_MESSAGES):
            if is_my_turn(state) or state["awaiting_next_deal"] or state["over"]:
                return state
            state = self.next_state()
        raise AssertionError("the seat never got to move")

    def act(self, state: dict[str, Any]) -> dict[str, Any]:
        """Take a legal action of ``state``; the state that answers it."""
        me = state["table"]["you"]
        self.turns += 1
        if self.hint_every and self.turns % self.hint_every == 0:
            self.ws.send_json(request("hint"))
            hint = self.receive()
            assert hint["type"] == "hint", hint
            assert hint["action"] in state["game"]["deal"]["legal_actions"], hint
        record = choose(state["game"]["deal"]["legal_actions"], self.rng)
        self.ws.send_json(request("action", action=record))
        for _ in range(MAX_MESSAGES):
            reply = self.next_state()
            if answers(reply, me, record):
                return reply
        raise AssertionError(f"no answer to {record}")

    def play_game(self, state: dict[str, Any] | None = None) -> dict[str, Any]:
        """Play on from ``state`` (None: the next one received) until the game is over or
        ``max_deals`` deals are finished; the last state."""
        state = self.until_my_move(state)
        for _ in range(MAX_MESSAGES):
            if state["over"]:  # won, or the daily challenge's four deals played
                return state
            if state["awaiting_next_deal"]:
                if self.max_deals is not None and state["game"]["deal_number"] >= self.max_deals:
                    return state
                self.ws.send_json(request("next_deal"))
                state = self.until_my_move()
                continue
            state = self.until_my_move(self.act(state))
        raise AssertionError("the game never ended")


# ----- what a seat may not know -----


def deal_steps(deal: Deal) -> Iterator[Deal]:
    """The deal after each prefix of its log, from the deal as dealt to the deal now."""
    step = Deal(deal.rules, deal.dealer, deal.dealt)
    yield step.copy()
    for entry in deal.log:
        step.replay_entry(entry)
        yield step.copy()


def hidden_cards(deal: Deal, seat: int) -> set[str]:
    """Cards ``seat`` may not know at this step: other seats' unplayed cards not in a
    shown meld (``seat`` -1: a watcher's, every seat's)."""
    hidden = {card_str(c) for s in range(4) if s != seat for c in cards_of(deal.hands[s])}
    for melds in deal.shown:
        for meld in melds:
            hidden -= {card_str(c) for c in cards_of(meld.cards)}
    return hidden


def card_words(code: str) -> list[tuple[str, bool, re.Pattern[str]]]:
    """Every way a message may write a card: ``JH``, ``Valet de cœur``, ``V♥``... Each with
    the literal a match holds (case-folded for the names, matched whatever their case), a
    quick test before the pattern: most messages name no hidden card at all."""
    texts = {i18n.card_name(lang, code) for lang in i18n.LANGUAGES}
    shorts = {i18n.card_short(lang, code) for lang in i18n.LANGUAGES}
    out = [(code, False, re.compile(rf"(?<![0-9A-Za-z]){code}(?![0-9A-Za-z])"))]
    out += [(t.casefold(), True, re.compile(re.escape(t), re.IGNORECASE)) for t in texts]
    out += [(s, False, re.compile(rf"(?<![0-9A-Za-z]){re.escape(s)}")) for s in shorts]
    return out


CARD_WORDS = {code: card_words(code) for code in ALL_CARDS}


def strings_of(data: Any) -> Iterator[str]:
    """Every string of a JSON document, keys included."""
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for k, v in data.items():
            yield str(k)
            yield from strings_of(v)
    elif isinstance(data, list):
        for v in data:
            yield from strings_of(v)


def named_cards(message: dict[str, Any], among: set[str]) -> set[str]:
    """The cards of ``among`` that ``message`` names anywhere, in any notation (the table
    id, random letters, is left out)."""
    data = json.loads(json.dumps(message))
    if isinstance(data.get("table"), dict):
        data["table"].pop("id", None)
    text = "\n".join(strings_of(data))
    folded = text.casefold()
    return {
        code
        for code in among
        if any(literal in (folded if fold else text) and p.search(text) for literal, fold, p in CARD_WORDS[code])
    }


def check_no_leak(messages: list[dict[str, Any]], deals: list[Deal], seat: int, watching: bool = False) -> int:
    """Check every message a seat received against the engine: each state's deal view is
    exactly the engine's view of that seat at some step of the deal (steps in order), and
    no message names a card the seat may not know at that step. ``watching``: a watcher's
    messages, from ``seat``'s chair: it may know no card in any hand. The number of states."""
    steps: dict[int, list[tuple[dict[str, Any], set[str]]]] = {}
    position: dict[int, int] = {}
    hidden: set[str] = set()
    checked = 0
    for msg in messages:
        if msg["type"] == "state" and msg["game"] is None:  # a friends' table before its start
            hidden = set()
        elif msg["type"] == "state":
            number = msg["game"]["deal_number"]
            if number not in steps:
                deal = deals[number - 1]
                steps[number] = [
                    (
                        view_to_json(d.watcher_view(seat) if watching else d.view(seat)),
                        hidden_cards(d, -1 if watching else seat),
                    )
                    for d in deal_steps(deal)
                ]
                position[number] = 0
            views = steps[number]
            k = position[number]
            while k < len(views) and views[k][0] != msg["game"]["deal"]:
                k += 1
            assert k < len(views), f"deal {number}: a state that is no view of seat {seat}: {msg['game']['deal']}"
            position[number] = k
            hidden = views[k][1]
            checked += 1
            last = msg.get("last")
            if last and (last["seat"] != seat or watching) and "declare" in (last.get("action") or {}):
                assert last["action"]["declare"] is None, f"another seat's declaration choice is shown: {last}"
        leaked = named_cards(msg, hidden)
        assert not leaked, f"seat {seat} is told of {sorted(leaked)}, which it may not know: {msg}"
    return checked


# ----- the real server, as a process -----


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_until_serving(base: str, proc: subprocess.Popen[Any], timeout: float) -> str | None:
    """Ask ``base/`` until it answers 200 (None), the process exits (``"exited"``) or
    ``timeout`` seconds pass (``"timed out"``)."""
    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None:
            return "exited"
        try:
            with urllib.request.urlopen(base + "/", timeout=2) as answer:
                if answer.status == 200:
                    return None
        except OSError:
            pass
        if time.monotonic() > deadline:
            return "timed out"
        time.sleep(0.1)


class ServerProcess:
    """``coinche serve`` on a loopback port and a database, in its own process group
    (its bot workers with it), stopped by ``stop(signal)``; its output goes to ``log``."""

    START_TIMEOUT = 30.0

    def __init__(self, db: Path | str, log: Path, *extra: str) -> None:
        """``db``: an SQLite file, or a database URL (PostgreSQL)."""
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = log
        command = [sys.executable, "-m", "coinche.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port)]
        url = db if isinstance(db, str) else f"sqlite:///{db}"
        # Computers that answer at once, a complete trick not held on show and no coach's
        # tips unasked, no deal valued unasked, as in the in-process tests' settings (``settings_for``); ``extra``
        # may ask for others.
        command += ["--db", url, "--bot-delay", "0", "--trick-pause", "0", "--workers", "1", "--coach-deals", "0"]
        command += ["--no-deal-accuracy"]
        command += extra
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        env.pop("COINCHE_DATABASE_URL", None)
        with log.open("a", encoding="utf-8") as out:
            self.proc = subprocess.Popen(
                command, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=log.parent, start_new_session=True
            )
        failed = wait_until_serving(self.base, self.proc, self.START_TIMEOUT)
        if failed == "exited":
            raise AssertionError(f"the server exited ({self.proc.returncode}):\n{log.read_text('utf-8')}")
        if failed is not None:
            self.stop(signal.SIGKILL)
            raise AssertionError(f"the server did not start:\n{log.read_text('utf-8')}")

    def stop(self, sig: signal.Signals = signal.SIGTERM, timeout: float = 20.0) -> int:
        """Send ``sig`` to the server, wait for it to end (then end what is left of its
        process group, its bot workers); its exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            status = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=5)
            raise AssertionError(f"the server did not stop on {sig.name} within {timeout} s") from None
        finally:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGKILL)
        return status

    def __enter__(self) -> ServerProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc.poll() is None:
            self.stop(signal.SIGKILL)
        else:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGKILL)

    def new_guest_table(self, profile: str, target: int, level: str) -> tuple[str, str]:
        """A new guest's table: the home page (its cookie, its form's CSRF token), then
        POST /solo: (table id, the new guest's ``Cookie`` header)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            conn.request("GET", "/")
            r = conn.getresponse()
            found = CSRF_FIELD.search(r.read().decode())
            cookie = (r.getheader("Set-Cookie") or "").split(";", 1)[0]
            assert r.status == 200 and found is not None, r.status
            fields = {"csrf": found[1], "profile": profile, "target": target, "level": level}
            headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie}
            conn.request("POST", "/solo", urllib.parse.urlencode(fields), headers)
            r = conn.getresponse()
            r.read()
            assert r.status == 303, r.status
            location = r.getheader("Location") or ""
        finally:
            conn.close()
        assert location.startswith("/table/") and cookie.startswith("session="), (location, cookie)
        return location.removeprefix("/table/"), cookie

    def connect(self, table_id: str, cookie: str, since: int | None = None, **options: Any) -> ClientConnection:
        query = "" if since is None else f"?since={since}"
        return connect(
            f"ws://127.0.0.1:{self.port}/ws/table/{table_id}{query}",
            **options,
            additional_headers={"Cookie": cookie},
            open_timeout=10,
            close_timeout=5,
        )


def ws_receive(ws: ClientConnection, timeout: float = RECEIVE_TIMEOUT) -> dict[str, Any]:
    """The next message of a real connection that is not a ``hello`` or an ``ack``."""
    for _ in range(MAX_MESSAGES):
        data = json.loads(ws.recv(timeout=timeout))
        assert isinstance(data, dict)
        if data.get("type") not in ("hello", "ack"):
            return as_state(ws, data)
    raise AssertionError("only hellos and acks")


def ws_until_my_move(ws: ClientConnection, state: dict[str, Any] | None = None) -> dict[str, Any]:
    """States of a real connection until the seat is to act (or the deal is over)."""
    for _ in range(MAX_MESSAGES):
        if state is not None and (
            is_my_turn(state) or state["awaiting_next_deal"] or state["game"]["winner"] is not None
        ):
            return state
        state = ws_receive(ws)
        assert state["type"] == "state", state
    raise AssertionError("the seat never got to move")


def ws_act(ws: ClientConnection, state: dict[str, Any], rng: random.Random | None = None) -> dict[str, Any]:
    """Take a legal action over a real connection; the state that answers it."""
    record = choose(state["game"]["deal"]["legal_actions"], rng)
    ws.send(json.dumps(request("action", action=record)))
    for _ in range(MAX_MESSAGES):
        reply = ws_receive(ws)
        if answers(reply, state["table"]["you"], record):
            return reply
    raise AssertionError(f"no answer to {record}")


def query(url: str, sql: str, **params: Any) -> list[Any]:
    """The rows of ``sql`` (``:name`` parameters) on the database at ``url`` (any kind)."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return list(conn.execute(text(sql), params).all())
    finally:
        engine.dispose()


def settings_for(tmp_path: Path, database_url: str | None = None, **overrides: Any) -> Settings:
    """Settings for a test: its own database, computers that answer at once, deals that
    follow from a seed (a failure can be played again)."""
    values: dict[str, Any] = {
        "database_url": database_url or f"sqlite:///{tmp_path}/x.db",
        "bot_delay": 0,
        "trick_pause": 0,
        "bot_workers": 1,
        "table_seed": "test",
        # A newcomer's deals are coached: the coach's tests ask for it, the others read
        # the table's messages without its tips.
        "coach_deals": 0,
        # Deals valued only when asked: the accuracy's tests switch it on (every deal of
        # every test analysed on the workers costs the run minutes).
        "deal_accuracy": False,
        # Tests open many tables as one guest, from one address: the limits have tests of
        # their own, which set them.
        "open_tables_guest": 1000,
        "table_limit": "10000/minute",
        "table_limit_per_address": "10000/minute",
        "login_limit": "10000/minute",
        "signup_limit": "10000/minute",
        "tournament_limit": "10000/minute",
        "daily_arena_hour": None,  # a test of its own runs it
        # A cheap hash: the argon2 parameters of the site have a test of their own.
        "argon2_time_cost": 1,
        "argon2_memory_kib": 8,
        "argon2_parallelism": 1,
    }
    values.update(overrides)
    return Settings(**values)


MakeClient = Callable[..., TestClient]
