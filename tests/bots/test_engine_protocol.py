"""The coinche engine protocol (issue 31, ``docs/engine-protocol.md``): the fifteen-line
example engine plays through the arena, the project's own bots speak it (``coinche
engine``), and engines that crash, stall, lie or write what is not JSON cost their seat
its first legal action and a fault, never a hang."""

from __future__ import annotations

import gc
import json
import random
import re
import sys
import time
from pathlib import Path

import pytest

from coinche.bots.arena import run_arena
from coinche.bots.base import BotLoadError
from coinche.bots.engine_protocol import EngineBot
from coinche.bots.loading import bot_factory
from coinche.engine.deal import Deal
from coinche.engine.dealing import hands_from_seed
from coinche.engine.rules import PROFILES, RuleSet
from coinche.engine.wire import view_to_json

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "first_legal_bot.py"
CLASSIC = PROFILES["classic"]


def a_view(seed: int = 3) -> tuple[Deal, int]:
    deal = Deal(CLASSIC, 0, tuple(hands_from_seed(seed.to_bytes(32, "big"), 0)))
    return deal, deal.to_move


def engine(tmp_path: Path, body: str, time_ms: int = 2000) -> EngineBot:
    """An engine written for the test: ``body`` runs for each message ``m`` read."""
    script = tmp_path / "engine.py"
    script.write_text(
        "import json, sys, time\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'hello':\n"
        "        print(json.dumps({'type': 'hello', 'protocol': 1, 'name': 'test'}), flush=True)\n"
        "        continue\n" + "".join(f"    {row}\n" for row in body.splitlines())
    )
    return EngineBot(f"{sys.executable} {script}", seed=1, time_ms=time_ms)


def test_the_example_engine_plays_a_match_through_the_arena() -> None:
    result = run_arena(CLASSIC, f"cmd:{sys.executable} {EXAMPLE}", "confirmed", 2, 7)
    assert result.deals == 4 and result.error_log == ()
    assert result.to_json()["faults"] == {"ns": 0, "ew": 0}
    assert result.stats["ns"]["decisions"] > 0


def test_the_project_s_bots_speak_the_protocol() -> None:
    command = f"cmd:{sys.executable} -m coinche.cli engine --level beginner"
    played = run_arena(CLASSIC, command, "beginner", 3, 5)
    in_process = run_arena(CLASSIC, "beginner", "beginner", 3, 5)
    assert played.to_json()["faults"] == {"ns": 0, "ew": 0} and played.error_log == ()
    # the same bot with the same seeds: the same match, whether in process or over a pipe
    assert played.pair_diffs == in_process.pair_diffs


def test_the_arena_keeps_one_process_a_seat_for_the_whole_match(tmp_path: Path) -> None:
    started = tmp_path / "started"
    script = tmp_path / "counting.py"
    script.write_text(f"import os\nopen({str(started)!r}, 'a').write(f'{{os.getpid()}}\\n')\n" + EXAMPLE.read_text())
    result = run_arena(CLASSIC, f"cmd:{sys.executable} {script}", "random", 3, 2)
    assert result.deals == 6 and result.to_json()["faults"] == {"ns": 0, "ew": 0}
    # the example side holds two seats in each half: four processes for six deals (and one
    # started first to check the command before anything is played)
    assert len(started.read_text().split()) == 5


def test_an_engine_that_answers_well_is_followed(tmp_path: Path) -> None:
    bot = engine(
        tmp_path,
        "if m['type'] == 'decide':\n"
        "    a = m['view']['legal_actions'][-1]\n"
        "    print(json.dumps({'type': 'action', 'id': m['id'], 'action': a, 'explanation': 'last'}), flush=True)",
    )
    deal, seat = a_view()
    view = deal.view(seat)
    decision = bot.choose(view)
    assert decision.action == view.legal_actions[-1] and decision.explanation == "last"
    assert bot.faults == 0 and bot.engine_name == "test"
    bot.close()


@pytest.mark.parametrize(
    ("body", "fault"),
    [
        ("if m['type'] == 'decide':\n    sys.exit(3)", "the engine stopped"),
        ("if m['type'] == 'decide':\n    time.sleep(30)", "no answer in time"),
        ("if m['type'] == 'decide':\n    print('{not json', flush=True)\n    time.sleep(30)", "not JSON"),
        (
            "if m['type'] == 'decide':\n"
            "    print(json.dumps({'type': 'action', 'id': m['id'], 'action': {'card': 'AS'}}), flush=True)",
            "illegal",
        ),
        (
            "if m['type'] == 'decide':\n"
            "    print(json.dumps({'type': 'action', 'id': m['id'] + 7, 'action': {'call': 'pass'}}), flush=True)\n"
            "    time.sleep(30)",
            "no answer in time",
        ),
        ("if m['type'] == 'decide':\n    print('x' * 3_000_000, flush=True)\n    time.sleep(30)", ""),
    ],
    ids=["crash", "silent", "not-json", "lying", "other-id", "huge-line"],
)
def test_a_faulty_engine_costs_its_seat_the_first_legal_action(tmp_path: Path, body: str, fault: str) -> None:
    bot = engine(tmp_path, body, time_ms=400)
    deal, seat = a_view()
    view = deal.view(seat)
    started = time.monotonic()
    decision = bot.choose(view)
    assert decision.action == view.legal_actions[0]
    assert bot.faults >= 1 and any(fault in f for f in bot.fault_log), bot.fault_log
    # dead to the match: the next decision does not wait again
    again = time.monotonic()
    assert bot.choose(view).action == view.legal_actions[0]
    assert time.monotonic() - again < 0.3
    assert time.monotonic() - started < 5
    bot.close()
    assert bot._proc.poll() is not None  # ended


def test_a_command_that_is_no_program_is_refused() -> None:
    with pytest.raises(BotLoadError):
        bot_factory("cmd:")(seed=1)
    with pytest.raises(BotLoadError):
        bot_factory("cmd:/nonexistent/engine --x")(seed=1)


def test_the_engine_side_answers_a_host_line_by_line(tmp_path: Path) -> None:
    import subprocess

    deal, seat = a_view()
    from coinche.engine.wire import view_to_json

    lines = [
        {"type": "hello", "protocol": 1, "options": {"seed": 4}},
        "not json",
        {"type": "decide", "id": 1, "view": view_to_json(deal.view(seat)), "game": None, "time_ms": 5000},
        {"type": "quit"},
    ]
    text = "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines)
    out = subprocess.run(
        [sys.executable, "-m", "coinche.cli", "engine", "--level", "beginner"],
        input=text,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout.splitlines()
    hello, action = (json.loads(line) for line in out)
    assert hello["type"] == "hello" and hello["protocol"] == 1
    assert action["type"] == "action" and action["id"] == 1
    assert action["action"] in view_to_json(deal.view(seat))["legal_actions"]


def test_an_engine_bot_dropped_without_close_ends_its_process() -> None:
    """A program that makes bots and drops them (a calibration's deal, a script) does not
    leak their engines: the reader thread does not keep the bot alive, and the collected
    bot ends its process."""
    bot = EngineBot(f"{sys.executable} {EXAMPLE}", seed=1)
    deal, seat = a_view()
    assert bot.choose(deal.view(seat)).action in deal.legal_actions()
    proc = bot._proc
    del bot
    gc.collect()
    assert proc.wait(timeout=10) is not None


def test_an_engine_slow_to_start_still_says_hello_in_time(tmp_path: Path) -> None:
    """Its hello may take longer than a move (an interpreter starting on a busy machine):
    an engine with 200 ms a move that takes a second before its hello plays on, no fault."""
    script = tmp_path / "slow.py"
    script.write_text(
        "import json, sys, time\n"
        "time.sleep(1)\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'hello':\n"
        "        print(json.dumps({'type': 'hello', 'protocol': 1, 'name': 'slow'}), flush=True)\n"
        "    if m['type'] == 'decide':\n"
        "        last = m['view']['legal_actions'][-1]\n"
        "        print(json.dumps({'type': 'action', 'id': m['id'], 'action': last}), flush=True)\n"
    )
    bot = EngineBot(f"{sys.executable} {script}", seed=1, time_ms=200)
    try:
        assert bot.engine_name == "slow" and bot.faults == 0
        deal, seat = a_view()
        view = deal.view(seat)
        assert bot.choose(view).action == view.legal_actions[-1]
        assert bot.faults == 0, bot.fault_log
    finally:
        bot.close()


def test_an_engine_that_never_says_hello_is_one_fault_then_none_is_waited_for(tmp_path: Path) -> None:
    """The missing hello is a fault of its own, counted with the match's first deal (the
    arena's tally reads ``faults - counted``); the decisions after it are not waited for and
    say why."""
    script = tmp_path / "mute.py"
    script.write_text("import sys, time\nfor line in sys.stdin:\n    time.sleep(30)\n")
    bot = EngineBot(f"{sys.executable} {script}", seed=1, time_ms=300)
    assert bot.faults == 1 and bot.fault_log == ["no hello"] and bot.counted == 0
    deal, seat = a_view()
    view = deal.view(seat)
    started = time.monotonic()
    assert bot.choose(view).action == view.legal_actions[0]
    assert time.monotonic() - started < 0.3
    assert bot.faults == 2 and bot.fault_log[1] == "not asked: the engine stopped answering earlier"
    assert bot.take_faults() == ["no hello", "not asked: the engine stopped answering earlier"]
    bot.close()


def test_the_time_and_the_game_a_host_gives_reach_the_engine(tmp_path: Path) -> None:
    heard = tmp_path / "heard.json"
    bot = engine(
        tmp_path,
        "if m['type'] == 'decide':\n"
        f"    open({str(heard)!r}, 'w').write(json.dumps(m))\n"
        "    print(json.dumps({'type': 'action', 'id': m['id'], 'action': m['view']['legal_actions'][0]}), flush=True)",
    )
    deal, seat = a_view()
    game = {"deal_number": 2, "target": 1000, "totals": [160, 90], "history": [[160, 90]], "winner": None}
    bot.choose(deal.view(seat), game, 1234)
    told = json.loads(heard.read_text())
    assert told["game"] == game and told["time_ms"] == 1234
    bot.choose(deal.view(seat))
    told = json.loads(heard.read_text())
    assert told["game"] is None and told["time_ms"] == 2000
    assert bot.faults == 0
    bot.close()


DOC = ROOT / "docs" / "engine-protocol.md"


def offered_kinds(rules: RuleSet, deals: int, seed: int) -> set[str]:
    """The kinds of action records random deals of ``rules`` offer a seat."""
    rng = random.Random(seed)
    kinds: set[str] = set()
    for n in range(deals):
        deal = Deal(rules, n % 4, tuple(hands_from_seed(rng.randbytes(32), n % 4)))
        while not deal.is_over:
            for record in view_to_json(deal.view(deal.to_move))["legal_actions"]:
                if "call" in record:
                    call = record["call"]
                    kind = next((k for k in ("generale", "capot") if call.startswith(k)), None)
                    kinds.add(kind or ("bid" if call[0].isdigit() else call))
                    if call.endswith(("SA", "TA")):
                        kinds.add("SA TA")
                elif "declare" in record:
                    kinds.add("declare")
                elif record.get("belote"):
                    kinds.add("belote")
            legal = deal.legal_actions()
            deal.apply(legal[rng.randrange(len(legal))])
    return kinds


def test_the_document_says_every_action_each_profile_offers() -> None:
    rows = re.findall(r"^\| (\w+) \| (pass, [^|]+) \| (yes|no) \| (yes|no) \|$", DOC.read_text("utf-8"), re.M)
    assert sorted(row[0] for row in rows) == sorted(PROFILES)
    for profile, calls, melds, belote in rows:
        said = {"pass", "bid", "coinche", "surcoinche"}
        said |= {"SA TA"} if "SA TA" in calls else set()
        said |= {"generale"} if "générale" in calls else set()
        said |= {"declare"} if melds == "yes" else set()
        said |= {"belote"} if belote == "yes" else set()
        offered = offered_kinds(PROFILES[profile], 60, 5)
        assert "capot" in calls and "capot" in offered
        assert offered - {"capot"} == said, (profile, offered, said)
