"""Stopping the server in the middle of a deal loses nothing (issue 7).

The real server runs as a process (``coinche serve``) on an SQLite file; a guest plays into
the card play over a real WebSocket; the server is stopped (SIGTERM: a clean stop; SIGKILL:
a crash) with the connection open, then started again on the same file. The guest's
cookie still works, and the table is exactly where it was: same hand, calls, cards played,
legal actions, score, and as many stored actions; the game rebuilt from the database alone
shows the same; and play goes on.
"""

from __future__ import annotations

import json
import random
import signal
import time
from pathlib import Path
from typing import Any

import pytest
from server_helpers import ServerProcess, is_my_turn, query, request, ws_act, ws_receive, ws_until_my_move

from coinche.engine.wire import game_view_to_json
from coinche.server.infra.store import Store
from coinche.server.table.live_table import LiveTable
from coinche.server.table.spec import Step, TableSpec

pytestmark = pytest.mark.both_databases


def stored_actions(db: str, table_id: str) -> int:
    ((count,),) = query(db, "SELECT count(*) FROM actions WHERE table_id = :t", t=table_id)
    return int(count)


def stored_table(db: str, table_id: str) -> tuple[TableSpec, list[Step]]:
    """The table and its log as the database holds them."""
    store = Store(db)
    try:
        loaded = store.load_table(table_id)
    finally:
        store.close()
    assert loaded is not None
    return loaded


def pars_missing(db: str, table_id: str) -> bool:
    """Whether a finished deal of an adaptive table still waits for its par step (the
    workers compute it after the deal: it may land after the client's last state)."""
    live = LiveTable.build(*stored_table(db, table_id))
    return any(live.wants_par(n) for n in range(1, len(live.game.deals) + 1))


def until_pars_stored(db: str, table_id: str) -> None:
    deadline = time.monotonic() + 30
    while pars_missing(db, table_id):
        assert time.monotonic() < deadline, "the pars never came"
        time.sleep(0.05)


def into_the_play(ws: Any, rng: random.Random, deal_number: int) -> dict[str, Any]:
    """Play until two tricks of deal ``deal_number`` (or a later one) are done and it is the
    guest's turn again."""
    state = ws_until_my_move(ws)
    for _ in range(2000):
        deal = state["game"]["deal"]
        if (
            state["game"]["deal_number"] >= deal_number
            and deal["phase"] == "play"
            and len(deal["tricks"]) >= 2
            and is_my_turn(state)
        ):
            return state
        if state["awaiting_next_deal"]:
            ws.send(json.dumps(request("next_deal")))
            state = ws_until_my_move(ws)
            continue
        state = ws_until_my_move(ws, ws_act(ws, state, rng))
    raise AssertionError("never reached the card play")


@pytest.mark.parametrize(
    ("sig", "level", "deal_number"),
    [(signal.SIGTERM, "confirmed", 1), (signal.SIGKILL, "adaptive", 3)],
    ids=["sigterm", "sigkill"],
)
def test_a_restart_resumes_the_deal_where_it_was(
    tmp_path: Path, database_url: str, sig: signal.Signals, level: str, deal_number: int
) -> None:
    """The adaptive table, two deals played, also gets its computers' level back (the
    ``level_label`` of the state)."""
    db = database_url
    log = tmp_path / "server.log"
    rng = random.Random(int(sig))
    with ServerProcess(db, log, "--free-deals", "100") as server:
        table_id, cookie = server.new_guest_table("classic", 3000, level)
        with server.connect(table_id, cookie) as ws:
            before = into_the_play(ws, rng, deal_number)
            if level == "adaptive":  # its deals' pars are in, then the table as it stands
                until_pars_stored(db, table_id)
                with server.connect(table_id, cookie) as fresh:
                    before = ws_receive(fresh)
            count = stored_actions(db, table_id)
            status = server.stop(sig)  # the connection still open
    # uvicorn stops cleanly on SIGTERM, then ends with the signal it caught.
    assert status in ((0, -signal.SIGTERM) if sig is signal.SIGTERM else (-signal.SIGKILL,))

    # The database alone holds it all: the game rebuilt from it shows the same.
    spec, steps = stored_table(db, table_id)
    assert len(steps) == count
    game = LiveTable.build(spec, steps).game
    assert game_view_to_json(game.view(0)) == before["game"]

    with ServerProcess(db, log, "--free-deals", "100") as server, server.connect(table_id, cookie) as ws:
        after = ws_receive(ws)
        assert after["type"] == "state" and after["last"] is None
        deal, was = after["game"]["deal"], before["game"]["deal"]
        assert deal["hand"] == was["hand"]
        assert deal["calls"] == was["calls"]
        assert deal["tricks"] == was["tricks"] and deal["trick"] == was["trick"]
        assert deal["legal_actions"] == was["legal_actions"]
        assert after["game"] == before["game"]
        assert after["table"] == before["table"]
        assert stored_actions(db, table_id) == count
        # Play goes on: the move is answered and stored, the computers answer it.
        answer = ws_act(ws, after, rng)
        assert stored_actions(db, table_id) > count
        ws_until_my_move(ws, answer)
        assert server.stop(signal.SIGTERM) in (0, -signal.SIGTERM)
    text = log.read_text("utf-8")
    assert "Traceback" not in text, text


def played(deal: dict[str, Any]) -> list[str]:
    cards: list[str] = [c for t in deal["tricks"] for c in t["cards"]] + deal["trick"]
    return cards


def test_a_crash_loses_nothing_a_client_saw(tmp_path: Path, database_url: str) -> None:
    """Killed while the computers play (each waits 0.3 s): every call and card the client
    was shown is in the database, which may only be ahead; after the restart the table
    goes on from the stored log."""
    db = database_url
    log = tmp_path / "server.log"
    rng = random.Random(3)
    with ServerProcess(db, log, "--bot-delay", "0.3") as server:
        table_id, cookie = server.new_guest_table("classic", 3000, "confirmed")
        with server.connect(table_id, cookie) as ws:
            state = into_the_play(ws, rng, 1)
            seen = ws_act(ws, state, rng)  # answered at once
            for _ in range(50):  # on to a computer's turn
                if is_my_turn(seen):
                    seen = ws_act(ws, seen, rng)
                elif seen["awaiting_next_deal"]:
                    ws.send(json.dumps(request("next_deal")))
                    seen = ws_receive(ws)
                else:
                    break
            seen = ws_receive(ws)  # the computer's move, 0.3 s later
            assert seen["last"]["seat"] != 0
            server.stop(signal.SIGKILL)
    with ServerProcess(db, log) as server:
        # The client resumes from the last seq it saw: it gets exactly the steps it missed
        # (the database may be ahead of what it was shown), one by one, in order.
        with server.connect(table_id, cookie, since=seen["seq"]) as ws:
            ws.coinche_state = seen  # type: ignore[attr-defined]  # the page's, kept across connections
            hello = json.loads(ws.recv(timeout=10))
            assert hello["type"] == "hello" and hello["resumed"] and hello["seq"] >= seen["seq"]
            missed = [ws_receive(ws) for _ in range(hello["seq"] - seen["seq"])]
            assert [m["seq"] for m in missed] == list(range(seen["seq"] + 1, hello["seq"] + 1))
            assert all(not m["full"] and m["last"] is not None for m in missed)
        with server.connect(table_id, cookie) as ws:
            after = ws_until_my_move(ws)
            was, now = seen["game"]["deal"], after["game"]["deal"]
            assert after["game"]["deal_number"] == seen["game"]["deal_number"]
            assert now["calls"] == was["calls"]
            assert played(now)[: len(played(was))] == played(was)
            ws_until_my_move(ws, ws_act(ws, after, rng))
