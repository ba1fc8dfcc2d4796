"""``coinche connect``: any engine speaking the coinche engine protocol plays on a site
through the bot API (``docs/bot-api.md``), with a bot account's token.

The bridge reads the bot's event stream (NDJSON) and, for each table the bot sits at,
runs one engine process (``engine_protocol.EngineBot``: bounded reads, a time per
decision, the first legal action on any fault). A ``turn`` is asked of the table's engine
and its action posted with the id ``TABLE:STEP`` (a resend after a cut is answered, not
played twice); a deal's end is told to the engine, and the next deal asked for; at a
game's end the engine is ended. Invitations are accepted (unless ``--no-accept``);
``--games N`` plays N games against the site's computers, one after the other, and then
stops. A stream that ends or breaks is opened again (after 1 s, doubling up to 30 s); a
token refused ends the bridge.

Only the standard library speaks HTTP here: the bridge runs wherever Python does.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Final

from .bots.engine_protocol import DECISION_MS, EngineBot
from .engine.wire import WireError, action_to_json, view_from_json

STREAM_TIMEOUT: Final = 60.0
"""No line (a ping comes every 15 s) for this long: the stream is dead, open another."""
MAX_LINE: Final = 1 << 20

WAY_BACK_MS: Final = 1000
"""Of the time the site gives a turn (the turn's ``time_ms``), what the bridge keeps for
posting the answer: the engine is given the rest (at least ``MIN_DECISION_MS``)."""
MIN_DECISION_MS: Final = 500
FAULTS_SAID: Final = 10
"""The engines' first faults kept to be said when the bridge stops."""


class TokenRefused(Exception):
    """The site refuses the token (revoked, or never made)."""


@dataclass
class BotApi:
    """The site's bot API, for one token."""

    url: str
    token: str

    def _request(self, method: str, path: str, body: dict[str, Any] | None = None) -> urllib.request.Request:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Authorization": f"Bearer {self.token}", "Accept": "application/json"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        return urllib.request.Request(self.url.rstrip("/") + path, data=data, headers=headers, method=method)

    def post(self, path: str, body: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
        """The status and JSON answer of a POST (an error status is an answer too)."""
        try:
            with urllib.request.urlopen(self._request("POST", path, body or {}), timeout=30) as answer:
                return answer.status, _json(answer.read(MAX_LINE))
        except urllib.error.HTTPError as e:
            if e.code == 401:
                raise TokenRefused(e.read(MAX_LINE).decode("utf-8", "replace")) from None
            return e.code, _json(e.read(MAX_LINE))

    def events(self) -> Iterator[dict[str, Any]]:
        """The stream's events until it ends (``OSError`` when it breaks)."""
        try:
            answer = urllib.request.urlopen(self._request("GET", "/api/bot/stream"), timeout=STREAM_TIMEOUT)
        except urllib.error.HTTPError as e:
            if e.code == 401:
                raise TokenRefused(e.read(MAX_LINE).decode("utf-8", "replace")) from None
            raise
        with answer:
            while True:
                line = answer.readline(MAX_LINE)
                if not line:
                    return
                event = _json(line)
                if event:
                    yield event


def _json(data: bytes) -> dict[str, Any]:
    try:
        found = json.loads(data)
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


@dataclass
class Bridge:
    """One bot's bridge between the site and an engine command (see the module)."""

    api: BotApi
    command: str
    accept_invitations: bool = True
    games: int = 0
    rules: str = "classic"
    level: str = "expert"
    time_ms: int = DECISION_MS
    log: IO[str] | None = None
    say: IO[str] = sys.stderr
    engines: dict[str, EngineBot] = field(default_factory=dict)
    games_started: int = 0
    games_done: int = 0
    faults: int = 0
    """The engines' faults, all tables together (said when the bridge stops)."""
    fault_log: list[str] = field(default_factory=list)
    """What the first of them were, by table."""

    def run(self) -> int:
        """Play until ``games`` are done (forever when 0); the exit status."""
        pause = 1.0
        try:
            while not self.done:
                try:
                    for event in self.api.events():
                        pause = 1.0
                        self.handle(event)
                        if self.done:
                            break
                except TokenRefused as e:
                    self.tell(f"the site refuses the token: {e}")
                    return 2
                except (OSError, urllib.error.URLError) as e:
                    self.tell(f"the stream broke ({e}); again in {pause:.0f} s")
                if not self.done:
                    time.sleep(pause)
                    pause = min(30.0, pause * 2)
            return 0
        finally:
            for table, engine in self.engines.items():
                self._count_faults(table, engine)
                engine.close()
            self.engines.clear()
            self.tell(f"{self.faults} engine fault(s)" + (f": {'; '.join(self.fault_log)}" if self.fault_log else ""))

    @property
    def done(self) -> bool:
        return self.games > 0 and self.games_done >= self.games

    def tell(self, text: str) -> None:
        print(f"coinche connect: {text}", file=self.say, flush=True)

    def handle(self, event: dict[str, Any]) -> None:
        if self.log is not None:
            self.log.write(json.dumps(event, ensure_ascii=False) + "\n")
            self.log.flush()
        kind = event.get("type")
        table = str(event.get("table", ""))
        if kind == "hello":
            self.tell(f"connected as {event.get('name')}")
            if self.games_started < self.games and not self.engines:
                self.new_game()
        elif kind == "invitation" and self.accept_invitations:
            status, answer = self.api.post(f"/api/bot/invitations/{event.get('id')}/accept")
            self.tell(f"invitation from {event.get('from')}: {answer if status != 200 else 'accepted'}")
        elif kind == "table":
            self.engine(table)
        elif kind == "turn":
            self.play(table, event)
        elif kind == "deal_over":
            engine = self.engines.get(table)
            if engine is not None:
                with contextlib.suppress(WireError, KeyError):
                    engine.observe_result(view_from_json(event["view"]))
                engine.new_deal(deal_seed(table, event.get("deal")))
        elif kind == "deal_wait":
            self.api.post(f"/api/bot/tables/{table}/next-deal", {"id": f"next:{table}:{event.get('step')}"})
        elif kind in ("game_over", "table_left"):
            engine = self.engines.pop(table, None)
            if engine is not None:
                self._count_faults(table, engine)
                engine.close()
            if kind == "game_over":
                self.tell(f"table {table}: game over, {event.get('totals')}")
            self.games_done += 1
            if self.games_started < self.games and not self.done:
                self.new_game()
        elif kind == "revoked":
            raise TokenRefused("the token was revoked")

    def engine(self, table: str) -> EngineBot:
        engine = self.engines.get(table)
        if engine is None:
            engine = self.engines[table] = EngineBot(self.command, None, self.time_ms)
        return engine

    def play(self, table: str, event: dict[str, Any]) -> None:
        try:
            view = view_from_json(event["view"])
        except (WireError, KeyError):
            self.tell(f"table {table}: a turn whose view cannot be read")
            return
        game = event.get("game")
        given = event.get("time_ms")
        budget = self.time_ms
        if isinstance(given, int) and not isinstance(given, bool) and given > 0:
            budget = max(MIN_DECISION_MS, given - WAY_BACK_MS)
        decision = self.engine(table).choose(view, game if isinstance(game, dict) else None, budget)
        status, answer = self.api.post(
            f"/api/bot/tables/{table}/action",
            {"id": f"{table}:{event.get('step')}", "action": action_to_json(decision.action, view)},
        )
        if status != 200:  # the table moved on (a computer stood in), or a refusal to read
            self.tell(f"table {table}: action refused: {answer.get('error')}")

    def _count_faults(self, table: str, engine: EngineBot) -> None:
        self.faults += engine.faults
        for what in engine.fault_log[: max(0, FAULTS_SAID - len(self.fault_log))]:
            self.fault_log.append(f"table {table}: {what}")
        said = f": {', '.join(engine.fault_log)}" if engine.fault_log else ""
        self.tell(f"table {table}: {engine.faults} engine fault(s){said}")

    def new_game(self) -> None:
        status, answer = self.api.post("/api/bot/games", {"rules": self.rules, "level": self.level})
        if status == 200:
            self.games_started += 1
            self.tell(f"a game against the computers at table {answer.get('table')}")
        else:
            self.tell(f"could not start a game: {answer}")
            self.games_done = self.games  # nothing more to do


def deal_seed(table: str, deal: object) -> int:
    """The seed the engine draws a table's next deal's chances from (the protocol's ``deal``
    message): an integer of the table and the deal's number, so a deal played again is played
    alike."""
    digest = hashlib.sha256(f"coinche-connect:{table}:{deal}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def connect(
    url: str,
    token: str,
    command: str,
    accept_invitations: bool = True,
    games: int = 0,
    rules: str = "classic",
    level: str = "expert",
    log: Path | None = None,
) -> int:
    """``coinche connect``: the exit status (0: the games asked were played; 2: the token
    was refused)."""
    out = log.open("a", encoding="utf-8") if log is not None else None
    try:
        bridge = Bridge(BotApi(url, token), command, accept_invitations, games, rules, level, log=out)
        return bridge.run()
    finally:
        if out is not None:
            out.close()
