"""The auction duel (``scripts/auction_duel.py``): the arena's deals, the bots' calls, the
cards double dummy; its caches give the same figures as a fresh run."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from coinche.bots.solver import Position, solve
from coinche.engine.actions import PASS, make_bid
from coinche.engine.cards import HEARTS
from coinche.engine.deal import Deal, random_hands
from coinche.engine.rules import RuleSet

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from project_scripts import load_script

duel = load_script("auction_duel")


@pytest.mark.parametrize("profile", ["online", "classic", "federation"])
def test_double_dummy_play_takes_the_solvers_points(profile: str) -> None:
    import random

    rules = RuleSet.profile(profile)
    hands = random_hands(random.Random(7))
    deal = Deal(rules, 3, hands)
    deal.apply(make_bid(80, HEARTS))
    for _ in range(3):
        deal.apply(PASS)
    bonus = rules.last_trick_sweep - 10
    pos = Position(
        (hands[0], hands[1], hands[2], hands[3]),
        HEARTS,
        0,
        (),
        rules.undertrump == "forced",
        rules.ta_values == "ffb",
        sweep_bonus=bonus,
    )
    expected = solve(pos, 0)
    duel.double_dummy_play(deal)
    result = deal.result()
    assert result is not None
    taken = result.card_points[0]
    if expected >= 162:
        assert result.sweep == "taker"
    else:
        assert taken == expected


def test_duel_figures_and_cache(tmp_path: Path) -> None:
    task = duel.Task(
        RuleSet.profile("online"),
        {"ns": duel.Side("confirmed"), "ew": duel.Side("beginner")},
        seed=5,
        cached={"ew"},
        calls={},
        outcomes={},
    )
    first = duel.report(duel.run(task, 4, 1, tmp_path))
    assert first["pairs"] == 4
    assert (tmp_path / "calls.jsonl").stat().st_size > 0
    again = duel.Task(task.rules, task.sides, 5, {"ew"}, {}, {})
    assert duel.report(duel.run(again, 4, 1, tmp_path)) == first
    for side in ("ns", "ew"):
        stats = first[f"{side}_stats"]
        assert 0 <= stats["taker_rate"] <= 1


def test_settings_reach_the_expert() -> None:
    side = duel.Side("expert", (("coinche_fails", 0.55),))
    assert side.build(1).config.coinche_fails == 0.55
    assert duel.parse_settings(["ns:coinche_fails=0.6"])["ns"] == [("coinche_fails", 0.6)]
    with pytest.raises(SystemExit):
        duel.parse_settings(["ns:no_such_knob=1"])
