"""A bot account at a friends' table through the HTTP API from a separate process
(issue 31): ``coinche serve`` in one process, ``coinche connect`` running the fifteen-line
example engine in another; the host invites the bot by name, the bridge accepts, the host
starts the game and leaves it to the bot and the computers, and the bot plays it to its
end. Every event the bot received is checked for cards its seat may not know."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx2 as httpx
from server_helpers import CSRF_FIELD, ServerProcess, check_no_leak
from test_bot_api import as_states, made_bot, session_of, table_of
from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "first_legal_bot.py"


def events_of(log: Path) -> list[dict[str, object]]:
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text("utf-8").splitlines() if line.strip()]


def wait_for(what: str, done: object, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not done():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"{what}: not within {seconds} s"
        time.sleep(0.1)


def test_a_bot_plays_a_friends_table_through_coinche_connect(tmp_path: Path) -> None:
    db = tmp_path / "site.db"
    url = f"sqlite:///{db}"
    with ServerProcess(db, tmp_path / "server.log") as server:
        owner, bot, token = made_bot(url)
        sid = session_of(url, owner)
        log = tmp_path / "events.ndjson"
        heard = tmp_path / "heard.ndjson"
        recorder = tmp_path / "recorder.py"  # the example engine, each line it reads kept
        recorder.write_text(
            "import runpy, sys\n"
            f"kept = open({str(heard)!r}, 'a', encoding='utf-8')\n"
            "def lines():\n"
            "    for line in sys.__stdin__:\n"
            "        kept.write(line)\n"
            "        kept.flush()\n"
            "        yield line\n"
            "sys.stdin = lines()\n"
            f"runpy.run_path({str(EXAMPLE)!r}, run_name='__main__')\n"
        )
        command = ["connect", "--url", server.base, "--log", str(log), "--", sys.executable, str(recorder)]
        bridge = subprocess.Popen(
            [sys.executable, "-m", "coinche.cli", *command],
            env={**os.environ, "COINCHE_BOT_TOKEN": token},  # not on the command line: ps shows it
            stdout=subprocess.DEVNULL,
            stderr=(tmp_path / "bridge.log").open("w"),
            start_new_session=True,
        )
        try:
            with httpx.Client(base_url=server.base, cookies={"sid": sid}) as host:
                csrf = CSRF_FIELD.search(host.get("/amis").text)
                assert csrf is not None
                form = {"csrf": csrf[1], "profile": "classic", "target": "300", "late_joins": "on"}
                form |= {"level_1": "beginner", "level_2": "beginner", "level_3": "beginner"}
                r = host.post("/amis", data=form, follow_redirects=False)
                assert r.status_code == 303, r.text
                table_id = r.headers["location"].removeprefix("/table/")
                wait_for("the bridge connected", lambda: any(e["type"] == "hello" for e in events_of(log)))
                r = host.post("/inviter", data={"csrf": csrf[1], "table_id": table_id, "name": "Zebulon"})
                assert r.status_code == 303 and r.headers["location"] == f"/table/{table_id}"
                wait_for("the bot sat", lambda: table_of(url, table_id).seat_of(bot.player) is not None)
                cookie = "; ".join(f"{k}={v}" for k, v in host.cookies.items())
                address = f"ws://127.0.0.1:{server.port}/ws/table/{table_id}"
                with connect(address, additional_headers={"Cookie": cookie}, open_timeout=10) as ws:
                    ws.send(json.dumps({"type": "host", "id": "start", "op": "start"}))
                    wait_for("the game started", lambda: table_of(url, table_id).started, 20)
                    ws.send(json.dumps({"type": "leave", "id": "bye"}))  # a computer plays the host's seat
                    wait_for("the host left", lambda: table_of(url, table_id).seat_of(owner.player) is None, 20)
            wait_for("the game's end", lambda: any(e["type"] == "game_over" for e in events_of(log)), 120)
        finally:
            os.killpg(bridge.pid, signal.SIGTERM)
            bridge.wait(timeout=10)
    live = table_of(url, table_id)
    seat = live.seat_of(bot.player)
    assert seat is not None and live.game.is_over
    played = [s for s in live.steps if s.kind == "action" and s.seat == seat and s.played_by is None]
    assert len(played) >= 8, "the bot played its own cards"
    events = events_of(log)
    turns = [e for e in events if e["type"] == "turn"]
    assert len(turns) >= len(played)
    check_no_leak(as_states(events), list(live.game.deals), seat)
    # What the engine was told keeps the protocol's word (docs/engine-protocol.md, "On the site").
    told = events_of(heard)
    decides = [m for m in told if m["type"] == "decide"]
    assert len(decides) == len(played)
    for m in decides:
        game = m["game"]
        assert isinstance(game, dict) and set(game) == {"deal_number", "target", "totals", "history", "winner"}
        assert game["target"] == 300 and m["time_ms"] == 90_000 - 1000  # the site's turn time, less the way back
    assert {m["game"]["deal_number"] for m in decides} == set(range(1, len(live.game.deals) + 1))
    seeds = [m["seed"] for m in told if m["type"] == "deal"]
    assert seeds and all(isinstance(x, int) for x in seeds) and len(set(seeds)) == len(seeds)
    assert f"table {table_id}: 0 engine fault(s)" in (tmp_path / "bridge.log").read_text("utf-8")
