"""Jobs are data (``jobs.py``): a registered kind and JSON arguments in, JSON out; an
unknown kind, malformed arguments or an answer of the wrong shape is refused, and a pickle
is never loaded."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from job_helpers import Forged, finished_deal_game, forged_text

from coinche.bots.bidding_puzzles import best_bidding_puzzle, find_bidding_puzzles
from coinche.bots.puzzles import best_puzzle, find_puzzles
from coinche.engine.actions import call_str
from coinche.engine.cards import card_str
from coinche.engine.game import Game
from coinche.engine.rules import RuleSet
from coinche.server.compute import job_kinds, jobs
from coinche.server.compute.bot_pool import BotSpec, decide
from coinche.server.compute.job_kinds import (
    ANALYSIS,
    DECISION,
    PAR,
    PUZZLE,
    STANDINGS,
    analysis_job,
    decision_job,
    par_job,
    puzzle_job,
    standings_job,
)
from coinche.server.compute.jobs import KINDS, JobKind, JobRefused, read_answer
from coinche.server.features.daily.model import compute_standings, day_hands
from coinche.server.services import register_job_kinds
from played_deals import played_deal


def through_json(job: jobs.Job[Any]) -> Any:
    """A job as a worker gets it: its arguments stored as text and read back."""
    return jobs.loads(jobs.dumps(job.args))


def test_the_registry_holds_the_eight_kinds_and_nothing_else() -> None:
    register_job_kinds()
    assert sorted(KINDS) == [
        "analysis",
        "bidding_puzzle",
        "compare",
        "decision",
        "mistake",
        "par",
        "puzzle",
        "standings",
    ]
    for name in ("os:system", "builtins:eval", "pickle", "", "decide"):
        with pytest.raises(JobRefused, match="unknown job kind"):
            jobs.kind_named(name)
    with pytest.raises(JobRefused):
        jobs.kind_named(["decision"])


def test_a_name_is_registered_for_one_kind_only() -> None:
    register_job_kinds()
    jobs.register(DECISION)  # again: nothing changes
    assert KINDS["decision"] is DECISION
    with pytest.raises(ValueError, match="two job kinds named 'decision'"):
        jobs.register(JobKind("decision", job_kinds.run_par, job_kinds.read_par))
    assert KINDS["decision"] is DECISION


FIND_KINDS = """
import importlib, pkgutil, coinche.server
from coinche.server.compute.jobs import JobKind
found = set()
for info in pkgutil.walk_packages(coinche.server.__path__, "coinche.server."):
    if ".migrations" in info.name:
        continue
    module = importlib.import_module(info.name)
    found.update(v.name for v in vars(module).values() if isinstance(v, JobKind))
print(*sorted(found))
"""

WORKER_KINDS = """
import sys
from coinche.server.compute.jobs import KINDS
from coinche.server.infra.config import Settings
from coinche.server.worker import Worker
assert not KINDS, sorted(KINDS)
try:
    Worker(Settings(database_url="sqlite:///" + sys.argv[1]))
except ValueError:  # the workers need PostgreSQL: refused after it registered its kinds
    pass
print(*sorted(KINDS))
"""


def fresh(program: str, *args: str) -> list[str]:
    """What ``program`` prints in an interpreter of its own (nothing imported before)."""
    done = subprocess.run(
        [sys.executable, "-c", program, *args], capture_output=True, text=True, check=True, timeout=300
    )
    return done.stdout.split()


def test_a_worker_registers_every_kind_the_server_defines(tmp_path: Path) -> None:
    """A worker (``coinche worker``) runs a job of any kind a server may ask for: the
    kinds defined anywhere in the server (the built-in ones and a feature's own) are all
    registered by a worker of its own, which imports no web page."""
    defined = fresh(FIND_KINDS)
    assert {"decision", "par", "standings"} <= set(defined)
    assert fresh(WORKER_KINDS, str(tmp_path / "w.db")) == defined


def test_a_pickle_is_refused_as_arguments_and_as_answer_and_never_loaded(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    forged = forged_text(marker)
    with pytest.raises(JobRefused, match="not JSON"):
        jobs.loads(forged)
    with pytest.raises(JobRefused, match="not JSON text"):
        jobs.loads(pickle.dumps(Forged(marker)))  # type: ignore[arg-type]
    with pytest.raises(JobRefused):
        read_answer(DECISION, forged)
    assert not marker.exists()


def test_a_decision_round_trips_as_json_and_equals_the_direct_one() -> None:
    game = Game(RuleSet.profile("classic"), seed=3, first_dealer=0, auto_deal=True)
    deal = game.current
    assert deal is not None
    view = deal.view(deal.to_move)
    spec = BotSpec("confirmed", 11)
    answer = jobs.loads(jobs.ok_answer(DECISION.run(through_json(decision_job(spec, view)))))
    decision = DECISION.read(answer["ok"])
    assert decision == decide(spec, view)


def test_a_decision_refuses_any_bot_but_a_builtin_one_and_bad_views() -> None:
    game = Game(RuleSet.profile("classic"), seed=3, first_dealer=0, auto_deal=True)
    deal = game.current
    assert deal is not None
    args = through_json(decision_job(BotSpec("beginner", 1), deal.view(deal.to_move)))
    for bot in ("os:system", "coinche.bots.beginner:BeginnerBot", "tests.evil:Bot", 3, None):
        with pytest.raises(JobRefused, match="not a built-in bot"):
            DECISION.run({**args, "bot": bot})
    bad: list[dict[str, Any]] = [
        {**args, "seed": -1},
        {**args, "seed": True},
        {**args, "seed": 10**30},
        {**args, "params": {"level": 0.5}},  # only the adaptive bot takes parameters
        {**args, "params": {"module": "os"}},
        {**args, "view": "a view"},
        {**args, "view": {**args["view"], "hand": ["ZZ"]}},
        {**args, "view": {**args["view"], "rules": {"profile": "nope", "options": {}}}},
        {**args, "view": {**args["view"], "legal_actions": []}},
        {**args, "extra": 1},
        {k: v for k, v in args.items() if k != "view"},
        ["decision", args],
    ]
    for forged in bad:
        with pytest.raises(JobRefused):
            DECISION.run(forged)
    adaptive = {**args, "bot": "adaptive", "params": {"level": 0.3, "human_seat": 0}}
    assert isinstance(DECISION.run(adaptive)["action"], int)
    with pytest.raises(JobRefused):
        DECISION.run({**adaptive, "params": {"level": float("inf"), "human_seat": 0}})


def test_a_hints_decision_carries_the_experts_reason_and_only_the_expert_takes_explain() -> None:
    game = Game(RuleSet.profile("classic"), seed=3, first_dealer=0, auto_deal=True)
    deal = game.current
    assert deal is not None
    view = deal.view(deal.to_move)
    spec = BotSpec("expert", 5, (("explain", True),))
    args = through_json(decision_job(spec, view))
    decision = DECISION.read(jobs.loads(jobs.ok_answer(DECISION.run(args)))["ok"])
    assert decision == decide(spec, view)
    assert decision.private_reason is not None and decision.private_reason.id == "bot.why_call"
    assert decision.action == decide(BotSpec("expert", 5), view).action
    for forged in ({**args, "bot": "beginner"}, {**args, "params": {"explain": 1}}):
        with pytest.raises(JobRefused, match="takes no explain"):
            DECISION.run(forged)


def test_an_answer_of_the_wrong_shape_is_refused() -> None:
    good = {
        "action": 64,
        "explanation": None,
        "private_explanation": None,
        "reason": None,
        "private_reason": None,
    }
    assert DECISION.read(good).action == 64
    for forged in (
        {**good, "action": "64"},
        {**good, "action": -1},
        {**good, "reason": {"id": "no.such.message", "params": {}, "text": ""}},
        {**good, "reason": "text"},
        {**good, "explanation": "x" * 5000},
        {**good, "extra": True},
        [64],
        None,
    ):
        with pytest.raises(JobRefused):
            DECISION.read(forged)
    for raw in ('{"ok": 1, "error": "x"}', "[]", '{"maybe": 1}', '{"error": 3}', "NaN", '{"ok": NaN}'):
        with pytest.raises(JobRefused):
            read_answer(DECISION, raw)
    assert read_answer(DECISION, '{"error": "ValueError: x"}') == ("error", "ValueError: x")
    assert read_answer(DECISION, '{"refused": "unknown job kind"}') == ("refused", "unknown job kind")


def test_an_analysis_round_trips_and_refuses_what_is_not_a_deal() -> None:
    game = finished_deal_game()
    deal = game.deals[0]
    args = through_json(analysis_job(deal))
    data = ANALYSIS.read(jobs.loads(jobs.dumps(ANALYSIS.run(args))))
    assert data == job_kinds.analyse(deal.rules, deal.dealer, deal.dealt, deal.log)
    assert data["positions"] and data["trumps"]
    hands = args["hands"]
    for forged in (
        {**args, "hands": [hands[0]] * 4},  # a card dealt twice
        {**args, "hands": hands[:3]},
        {**args, "hands": [*hands[:3], 1 << 40]},
        {**args, "dealer": 4},
        {**args, "log": [9999]},  # not a legal action
        {**args, "log": [{"melds": ["not a meld"]}]},
        {**args, "log": [64] * 2000},  # too many entries
        {**args, "rules": {"profile": "classic", "options": {"target": "all"}}},
        {**args, "rules": "classic"},
    ):
        with pytest.raises(JobRefused):
            ANALYSIS.run(forged)
    for bad in (
        {**data, "positions": [{"step": 1, "seat": 9, "values": {}, "played": "AS"}]},
        {**data, "positions": [{"step": 1, "seat": 0, "values": {"ZZ": 1}, "played": "AS"}]},
        {**data, "trumps": [{"trump": "X", "points": [0, 0], "best_bid": [None] * 4, "sweep": [None] * 4}]},
        {"trumps": data["trumps"]},
    ):
        with pytest.raises(JobRefused):
            ANALYSIS.read(bad)


def test_a_puzzle_round_trips_and_refuses_bad_data() -> None:
    rules = RuleSet.profile("classic")
    for seed in range(200):  # the first deal that gives a puzzle
        deal = played_deal("classic", seed)
        best = best_puzzle(find_puzzles(rules, deal.dealer, deal.dealt, deal.log))
        if best is not None:
            break
    assert best is not None
    args = through_json(puzzle_job(deal))
    data = PUZZLE.read(jobs.loads(jobs.dumps(PUZZLE.run(args))))
    assert data == job_kinds.puzzle_to_json(best)
    assert data is not None and data["solution"] == card_str(best.solution) and data["upto"] == len(best.log)
    assert PUZZLE.read(None) is None
    with pytest.raises(JobRefused):
        PUZZLE.run({**args, "log": [9999]})
    for bad in (
        {**data, "goal": "win"},
        {**data, "solution": "ZZ"},
        {**data, "themes": ["os.system"]},
        {**data, "values": [["AS", -1]]},
        {**data, "seat": 4},
        {k: v for k, v in data.items() if k != "line"},
    ):
        with pytest.raises(JobRefused):
            PUZZLE.read(bad)


def test_a_bidding_puzzle_round_trips_and_refuses_bad_data() -> None:
    for seed in range(50):  # the first deal whose auction gives one
        deal = played_deal("classic", seed)
        best = best_bidding_puzzle(find_bidding_puzzles(deal.rules, deal.dealer, deal.dealt, deal.auction.calls))
        if best is not None:
            break
    assert best is not None
    args = through_json(job_kinds.bidding_puzzle_job(deal))
    data = job_kinds.BIDDING_PUZZLE.read(jobs.loads(jobs.dumps(job_kinds.BIDDING_PUZZLE.run(args))))
    assert data == job_kinds.bidding_puzzle_to_json(best)
    assert data is not None and data["call"] == call_str(best.call) and data["upto"] == best.upto
    assert job_kinds.BIDDING_PUZZLE.read(None) is None
    with pytest.raises(JobRefused):
        job_kinds.BIDDING_PUZZLE.run({**args, "log": [9999]})
    for bad in (
        {**data, "call": "80Q"},
        {**data, "call": "generaleH"},  # not among the calls valued
        {**data, "values": [["pass", "a lot", None]]},
        {**data, "values": [["pass", 1e300, None]]},
        {**data, "values": [["pass", 0, 2]]},
        {**data, "values": [["pass", 0, None]] * 200},
        {**data, "seat": -1},
        {**data, "played": "x" * 100},
        {k: v for k, v in data.items() if k != "margin"},
    ):
        with pytest.raises(JobRefused):
            job_kinds.BIDDING_PUZZLE.read(bad)


def test_a_comparison_round_trips_and_refuses_bad_data() -> None:
    deal = played_deal("classic", 3)
    args = through_json(job_kinds.compare_job(deal, 2, "beginner"))
    data = job_kinds.COMPARE.read(jobs.loads(jobs.dumps(job_kinds.COMPARE.run(args))))
    assert data == job_kinds.COMPARE.read(job_kinds.COMPARE.run(args))  # the same deal again: seeded
    assert len(data["log"]) >= 4 and (data["first"] is None or data["first"] < len(data["log"]))
    unfinished = {**args, "log": args["log"][:10]}
    for forged in (
        {**args, "level": "os.system"},
        {**args, "seat": 4},
        {**args, "log": [9999]},
        unfinished,
        {k: v for k, v in args.items() if k != "seat"},
    ):
        with pytest.raises(JobRefused):
            job_kinds.COMPARE.run(forged)
    for bad in (
        {**data, "first": -1},
        {**data, "values": {"ZZ": 1}},
        {**data, "log": [{"melds": ["nonsense"]}]},
        {"log": data["log"]},
    ):
        with pytest.raises(JobRefused):
            job_kinds.COMPARE.read(bad)


def test_standings_and_par_round_trip_and_refuse_bad_data() -> None:
    results = [("p1", 0, 80), ("p2", 0, -80), ("p1", 1, 10), ("p3", 1, 10)]
    job = standings_job(results, 4, False)
    assert STANDINGS.read(jobs.loads(jobs.dumps(STANDINGS.run(through_json(job))))) == compute_standings(
        results, 4, False
    )
    for forged in (
        {**job.args, "results": [["p1", 7, 1]]},  # no deal 7 of 4
        {**job.args, "results": [["p" * 100, 0, 1]]},
        {**job.args, "results": [["p1", 0]]},
        {**job.args, "final": "yes"},
        {**job.args, "deals": 0},
    ):
        with pytest.raises(JobRefused):
            STANDINGS.run(forged)
    with pytest.raises(ValueError, match="two results"):  # data of the right shape that fails: an error
        STANDINGS.run({**job.args, "results": [["p1", 0, 1], ["p1", 0, 2]]})
    with pytest.raises(JobRefused):
        STANDINGS.read([["p1", 1, 101.0, [None]]])

    rules = RuleSet.profile("classic")
    hands = day_hands(b"s" * 32, "2026-01-01", 1)
    par = PAR.read(jobs.loads(jobs.dumps(PAR.run(through_json(par_job(rules, 0, hands))))))
    assert len(par["sides"]) == 2 and par["trumps"]
    with pytest.raises(JobRefused):
        PAR.run(par_job(rules, 0, [hands[0]] * 4).args)
    with pytest.raises(JobRefused):
        PAR.read({**par, "sides": par["sides"][:1]})


def test_oversized_or_strange_json_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jobs, "MAX_TEXT", 100)
    with pytest.raises(JobRefused, match="more than"):
        jobs.loads(json.dumps({"results": ["x" * 200]}))
    with pytest.raises(JobRefused, match="more than"):
        jobs.dumps({"results": ["x" * 200]})
    monkeypatch.undo()
    for raw in ("[" * 100_000 + "]" * 100_000, "1" * 5000, "Infinity", '{"a": -NaN}'):
        with pytest.raises(JobRefused):
            jobs.loads(raw)
