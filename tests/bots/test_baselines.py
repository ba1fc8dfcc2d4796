"""The baselines, bots of earlier commits: each loads by name, and plays exactly as the
expert did at its commit (a golden duplicate result measured then).

``expert-v1`` is commit 37946d1 and ``expert-v2`` commit 023e446: each runs that commit's
whole tree (its engine, bots, fitted data and C solver, built from the git history into
the cache of ``coinche.bots.history``) in a process of its own, which speaks the coinche
engine protocol (``history_driver.py``: the arena plays it as any program). The figures were first
measured with copies of those bots running on the engine and solver of later commits,
and are the commits' own too: the old trees' arena (``PYTHONPATH=<tree>/src``, ``expert``
against ``confirmed``) gives them as well. Should such a test fail, the bridge between
the current arena and the old process (``history.py``, ``history_driver.py``) loses
something of a view or an action. These tests need the git history (a clone has it) and
gcc; the first run builds the two trees (about a second each), later runs find them in
the cache.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from coinche.bots import history
from coinche.bots.arena import run_arena
from coinche.bots.base import BotLoadError
from coinche.bots.history import BASELINES, PastBot
from coinche.bots.loading import load_bot
from coinche.engine.deal import Deal, random_hands
from coinche.engine.rules import RuleSet


def test_expert_v1_loads_by_name() -> None:
    bot = load_bot("expert-v1", seed=3)
    assert isinstance(bot, PastBot) and bot.name == "expert-v1"
    assert bot.commit == BASELINES["expert-v1"] and bot.commit.startswith("37946d1")


def test_expert_v1_plays_as_when_it_was_frozen() -> None:
    """Measured at commit e899d9b, with the expert of 37946d1 copied."""
    r = run_arena(RuleSet.profile("classic"), "expert-v1", "confirmed", deals=2, seed=11)
    assert (r.mean_diff, r.card_points_diff) == (55.5, 47.5)
    assert r.stats["ns"]["contracts"] == 4 and r.stats["ns"]["made_rate"] == 0.75
    assert r.stats["ns"]["decisions"] == 80 and r.stats["ns"]["errors"] == 0


def test_expert_v2_loads_by_name() -> None:
    bot = load_bot("expert-v2", seed=3)
    assert isinstance(bot, PastBot) and bot.name == "expert-v2"
    assert bot.commit == BASELINES["expert-v2"] and bot.commit.startswith("023e446")


def test_expert_v2_plays_as_when_it_was_frozen() -> None:
    """Measured at commit 023e446, when ``expert`` gave these figures (and the same
    statistics) on classic and online; the expert of that commit searches on that commit's
    solver, whose node count is its work budget's meter. The online match runs on two
    worker processes, each starting its own process of the old tree (same figures)."""
    r = run_arena(RuleSet.profile("classic"), "expert-v2", "confirmed", deals=2, seed=11)
    assert (r.mean_diff, r.card_points_diff) == (-197.5, 42.0)
    assert r.pair_diffs == (-150, -640)
    assert r.stats["ns"]["contracts"] == 4 and r.stats["ns"]["made_rate"] == 0.25
    assert r.stats["ns"]["decisions"] == 83 and r.stats["ns"]["errors"] == 0
    r = run_arena(RuleSet.profile("online"), "expert-v2", "confirmed", deals=2, seed=11, jobs=2)
    assert (r.mean_diff, r.card_points_diff) == (-143.5, 6.5)
    assert r.pair_diffs == (-96, -478)
    assert r.stats["ns"]["contracts"] == 3 and r.stats["ns"]["taker_rate"] == 0.75
    assert r.stats["ns"]["decisions"] == 78 and r.stats["ns"]["errors"] == 0


def test_any_revision_names_its_commit() -> None:
    bot = load_bot("expert@023e446", seed=1)
    assert isinstance(bot, PastBot) and bot.commit == BASELINES["expert-v2"] and bot.name == "expert@023e446"
    with pytest.raises(BotLoadError, match="no commit 'nosuchrev'"):
        load_bot("expert@nosuchrev")
    with pytest.raises(BotLoadError, match="unknown bot"):
        load_bot("expert@")


def test_parameters_and_errors_cross_to_the_old_process() -> None:
    """The old bot gets its parameters; one it cannot be built with is a ``BotLoadError``;
    a process that dies costs its seat its first legal action and a fault, never an
    exception, and the next bot starts a new process."""
    assert isinstance(load_bot("expert-v1", seed=1, samples=5), PastBot)
    with pytest.raises(BotLoadError, match="unexpected keyword argument 'nonsense'"):
        load_bot("expert-v1", seed=1, nonsense=1)
    bot = load_bot("expert-v1", seed=1)
    assert isinstance(bot, PastBot) and bot.engine_name == "expert"
    view = Deal(RuleSet.profile("classic"), 0, random_hands(random.Random(5))).view(1)
    assert bot.choose(view).action in view.legal_actions and bot.faults == 0
    bot._proc.kill()
    assert bot.choose(view).action == view.legal_actions[0] and bot.faults == 1
    again = load_bot("expert-v1", seed=1)
    assert isinstance(again, PastBot) and again.choose(view).action in view.legal_actions and again.faults == 0
    for b in (bot, again):
        b.close()


def test_a_past_bot_speaks_the_engine_protocol() -> None:
    """``expert@023e446`` is a program like any other: ``coinche engine --level`` plays it
    over a pipe, one process more, and the arena gets the same match as with the bot in its
    own engine process: the first pair of ``test_expert_v2_plays_as_when_it_was_frozen``
    (an arena's pair depends only on its seed and index), played there directly."""
    command = f"cmd:{sys.executable} -m coinche.cli engine --level expert@023e446"
    piped = run_arena(RuleSet.profile("classic"), command, "confirmed", deals=1, seed=11)
    assert piped.pair_diffs == (-150,) and piped.to_json()["faults"] == {"ns": 0, "ew": 0}


def test_the_driver_plays_a_tree_of_today() -> None:
    """``load_bot`` moved to ``bots/loading.py`` (f51cf78): the driver finds it there too,
    so a commit of after the move plays (``expert@<recent>`` failed with an ImportError).
    Run on this tree's ``src``, as ``history.py`` runs it on a built one."""
    src = Path(__file__).resolve().parents[2] / "src"
    env = dict(os.environ, PYTHONPATH=str(src))
    hello = json.dumps({"type": "hello", "protocol": 1}) + "\n" + json.dumps({"type": "quit"}) + "\n"
    done = subprocess.run(
        [sys.executable, "-P", str(history.DRIVER), "random", "{}"],
        input=hello,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    first = json.loads(done.stdout.splitlines()[0])
    assert first["type"] == "hello" and first["protocol"] == 1, done.stdout + done.stderr


_BUILD = """
import json, sys
from coinche.bots import history
print(json.dumps(str(history.build_tree(sys.argv[1]))))
"""


def test_two_processes_build_one_commit_at_once(tmp_path: Path) -> None:
    """Two builders of the same commit in an empty cache (pytest-xdist workers): one
    builds, the other waits for it; both get the complete tree, nothing half-made stays."""
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path))
    commit = BASELINES["expert-v2"]
    procs = [
        subprocess.Popen([sys.executable, "-c", _BUILD, commit], env=env, stdout=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    outs = [p.communicate(timeout=120)[0] for p in procs]
    assert [p.returncode for p in procs] == [0, 0]
    paths = {json.loads(out) for out in outs}
    trees = tmp_path / "coinche" / "trees"
    assert len(paths) == 1 and Path(paths.pop()).parent == trees
    assert sorted(p.name for p in trees.iterdir() if not p.name.endswith(".lock")) == [history.tree_dir(commit).name]
    built = json.loads((trees / history.tree_dir(commit).name / "build.json").read_text())
    assert built["commit"] == commit and built["extensions"] == ["coinche.bots.solver._dds"]
