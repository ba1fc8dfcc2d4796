"""The frozen baselines: each loads by name, and plays exactly as the expert did when it
was frozen (a golden duplicate result measured then, when ``expert`` and the baseline gave
the same figures on classic and online). Should such a test fail, the baseline has been
changed, or the engine or solver it shares now answers differently."""

from __future__ import annotations

import random

from solver_positions import random_position

from coinche.bots import solver
from coinche.bots.arena import run_arena
from coinche.bots.base import load_bot
from coinche.bots.baselines.expert_v1.expert import ExpertBot as ExpertV1
from coinche.bots.baselines.expert_v2 import solver as frozen
from coinche.bots.baselines.expert_v2.expert import ExpertBot as ExpertV2
from coinche.engine.rules import RuleSet


def test_expert_v1_loads_by_name() -> None:
    bot = load_bot("expert-v1", seed=3)
    assert isinstance(bot, ExpertV1) and bot.name == "expert-v1"


def test_expert_v1_plays_as_when_it_was_frozen() -> None:
    r = run_arena(RuleSet.profile("classic"), "expert-v1", "confirmed", deals=2, seed=11)
    assert (r.mean_diff, r.card_points_diff) == (55.5, 47.5)
    assert r.stats["ns"]["contracts"] == 4 and r.stats["ns"]["made_rate"] == 0.75
    assert r.stats["ns"]["decisions"] == 80 and r.stats["ns"]["errors"] == 0


def test_expert_v2_loads_by_name() -> None:
    bot = load_bot("expert-v2", seed=3)
    assert isinstance(bot, ExpertV2) and bot.name == "expert-v2"


def test_expert_v2_plays_as_when_it_was_frozen() -> None:
    """Measured at commit 023e446, when ``expert`` and ``expert-v2`` gave these same
    figures (and the same statistics) on classic and online; ``expert-v2`` searches on its
    own copy of that commit's solver, whose node count is its work budget's meter."""
    r = run_arena(RuleSet.profile("classic"), "expert-v2", "confirmed", deals=2, seed=11)
    assert (r.mean_diff, r.card_points_diff) == (-197.5, 42.0)
    assert r.pair_diffs == (-150, -640)
    assert r.stats["ns"]["contracts"] == 4 and r.stats["ns"]["made_rate"] == 0.25
    assert r.stats["ns"]["decisions"] == 83 and r.stats["ns"]["errors"] == 0
    r = run_arena(RuleSet.profile("online"), "expert-v2", "confirmed", deals=2, seed=11)
    assert (r.mean_diff, r.card_points_diff) == (-143.5, 6.5)
    assert r.pair_diffs == (-96, -478)
    assert r.stats["ns"]["contracts"] == 3 and r.stats["ns"]["taker_rate"] == 0.75
    assert r.stats["ns"]["decisions"] == 78 and r.stats["ns"]["errors"] == 0


def test_expert_v2_solver_gives_the_values_of_the_current_one() -> None:
    """The baseline's frozen solver and the current one answer alike (only their speed and
    node counts differ)."""
    rng = random.Random(20)
    for _ in range(300):
        pos = random_position(rng, rng.choice((3, 4, 5)))
        for team in (0, 1):
            v = solver.solve(pos, team)
            assert frozen.solve(pos, team) == v
            assert frozen.can_reach(pos, team, v) and not frozen.can_reach(pos, team, v + 1)
            assert frozen.move_values(pos, team) == solver.move_values(pos, team)
            assert frozen.can_sweep(pos, team) == solver.can_sweep(pos, team)
