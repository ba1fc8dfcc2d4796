"""The frozen baselines: ``expert-v1`` loads by name, and plays exactly as the expert did
when it was frozen (a golden duplicate result measured then, when ``expert`` and
``expert-v1`` gave the same figures on classic and online). Should this test fail, the
baseline has been changed, or the engine or solver it shares now answers differently."""

from __future__ import annotations

from coinche.bots.arena import run_arena
from coinche.bots.base import load_bot
from coinche.bots.baselines.expert_v1.expert import ExpertBot as ExpertV1
from coinche.engine.rules import RuleSet


def test_expert_v1_loads_by_name() -> None:
    bot = load_bot("expert-v1", seed=3)
    assert isinstance(bot, ExpertV1) and bot.name == "expert-v1"


def test_expert_v1_plays_as_when_it_was_frozen() -> None:
    r = run_arena(RuleSet.profile("classic"), "expert-v1", "confirmed", deals=2, seed=11)
    assert (r.mean_diff, r.card_points_diff) == (55.5, 47.5)
    assert r.stats["ns"]["contracts"] == 4 and r.stats["ns"]["made_rate"] == 0.75
    assert r.stats["ns"]["decisions"] == 80 and r.stats["ns"]["errors"] == 0
