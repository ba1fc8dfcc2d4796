"""Exactness of the C double-dummy solver against its pure-Python twin (``reference``) on
thousands of random positions, and properties of its values (hypothesis).

Every position is compared on everything the API answers: ``solve`` for both teams,
``move_values`` for both teams, ``can_reach`` at thresholds around the value and at the
bounds, and ``can_sweep`` for each team, by the team and by each of its seats. The positions
cover each trump mode (suit contracts with and without forced undertrumping, SA, TA with
the classic and the ffb values), 1 to 4 tricks left (the twin is slow beyond), 0 to 3 cards
of the current trick played, the sweep bonus off, earned by the history (the team that won
every finished trick) or given to either team, team 0 or team 1 whatever the history (the
solver takes any ``sweep_team``), and several last-trick and sweep bonuses. Everything is
seeded: the runs are deterministic.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from solver_positions import random_position, remaining_total

import coinche.bots.solver as dds
from coinche.bots.solver import Position
from coinche.bots.solver import reference as ref
from coinche.engine.cards import card_list

MODES = ["suit, undertrump forced", "suit, undertrump free", "SA", "TA classic", "TA ffb"]
SWEEPS = ["off", "history", "either team", "team 0", "team 1"]
TRICKS_LEFT = {1: 3, 2: 10, 3: 14, 4: 4}  # positions per (mode, cards in trick, sweep) case (4 tricks: slow to solve)
LAST_BONUSES = (0, 5, 10, 20, 100, 1000)
SWEEP_BONUSES = (90, 90, 90, 40, 250, 1000)
TARGET_BOUND = 1_000_000  # the largest |target| can_reach accepts


def mode_position(rng: random.Random, mode: str, tricks_left: int, in_trick: int, sweep: str) -> Position:
    """A random position of ``mode`` with its sweep-bonus configuration ``sweep``."""
    suit = mode.startswith("suit")
    trump = rng.randrange(4) if suit else 4 if mode == "SA" else 5
    pos = random_position(
        rng,
        tricks_left,
        trump=trump,
        in_trick=in_trick,
        undertrump_forced=mode.endswith("forced") if suit else None,
        ffb_ta=mode.endswith("ffb") if trump == 5 else None,
        sweep=sweep == "history",
    )
    if rng.random() < 0.3:
        pos = dataclasses.replace(pos, last_trick_bonus=rng.choice(LAST_BONUSES))
    if sweep == "history" and pos.sweep_bonus:
        pos = dataclasses.replace(pos, sweep_bonus=rng.choice(SWEEP_BONUSES))
    elif sweep in ("either team", "team 0", "team 1"):
        team = {"either team": None, "team 0": 0, "team 1": 1}[sweep]
        pos = dataclasses.replace(pos, sweep_bonus=rng.choice(SWEEP_BONUSES), sweep_team=team)
    return pos


def check_exact(pos: Position, seen: Counter[str]) -> None:
    """The C solver answers every question on ``pos`` as the reference does."""
    top = remaining_total(pos) + pos.sweep_bonus
    for team in (0, 1):
        v = ref.solve(pos, team)
        assert dds.solve(pos, team) == v, (pos, team)
        assert dds.move_values(pos, team) == ref.move_values(pos, team), (pos, team)
        for target in (v - 1, v, v + 1, -1, 0, 1, top, top + 1, -TARGET_BOUND, TARGET_BOUND):
            assert dds.can_reach(pos, team, target) == (v >= target), (pos, team, target, v)
        for seat in (None, team, team + 2):
            expected = ref.can_sweep(pos, team, seat)
            assert dds.can_sweep(pos, team, seat) == expected, (pos, team, seat)
            seen[f"can_sweep {expected}"] += 1
        if v == top:
            seen["whole value"] += 1
    seen["positions"] += 1
    seen[f"sweep_team {pos.sweep_team}" if pos.sweep_bonus else "no sweep bonus"] += 1
    seen[f"last bonus {pos.last_trick_bonus}"] += 1


@pytest.mark.parametrize("mode", MODES)
def test_c_solver_equals_reference(mode: str) -> None:
    rng = random.Random(f"exactness {mode}")
    seen: Counter[str] = Counter()
    for in_trick in range(4):
        for sweep in SWEEPS:
            for tricks_left, count in TRICKS_LEFT.items():
                for _ in range(count):
                    check_exact(mode_position(rng, mode, tricks_left, in_trick, sweep), seen)
    assert seen["positions"] == 4 * len(SWEEPS) * sum(TRICKS_LEFT.values())
    # every branch was exercised
    for key in ("can_sweep True", "can_sweep False", "whole value", "no sweep bonus", "last bonus 1000"):
        assert seen[key] > 0, (key, seen)
    for team in ("None", "0", "1"):
        assert seen[f"sweep_team {team}"] > 20, seen


# ----- properties (hypothesis, derandomized) -----

position_options = st.tuples(
    st.integers(0, 2**32 - 1),  # seed of the random play
    st.integers(1, 6),  # tricks left
    st.integers(0, 5),  # trump
    st.integers(0, 3),  # cards in the trick
    st.sampled_from([None, 0, 1]),  # sweep_team
    st.sampled_from([0, 40, 90]),  # sweep bonus
    st.sampled_from([0, 10, 20]),  # last-trick bonus
)


def drawn_position(options: tuple[int, int, int, int, int | None, int, int]) -> Position:
    seed, tricks_left, trump, in_trick, sweep_team, sweep_bonus, last = options
    pos = random_position(random.Random(seed), tricks_left, trump=trump, in_trick=in_trick, sweep=False)
    return dataclasses.replace(pos, sweep_bonus=sweep_bonus, sweep_team=sweep_team, last_trick_bonus=last)


@settings(max_examples=500, deadline=None, derandomize=True, database=None)
@given(position_options, st.integers(0, 1))
def test_values_properties(options: tuple[int, int, int, int, int | None, int, int], team: int) -> None:
    """solve is the best of move_values; can_reach is the threshold of solve (so monotone in
    the target); without a sweep bonus the two teams share the points left; with one, a
    team that can sweep takes everything plus the bonus and any other value is the value
    without the bonus."""
    pos = drawn_position(options)
    total = remaining_total(pos)
    v = dds.solve(pos, team)
    assert 0 <= v <= total + pos.sweep_bonus
    values = dds.move_values(pos, team)
    assert set(values) == set(card_list(dds.legal_cards(pos)))
    assert (max if pos.to_move & 1 == team else min)(values.values()) == v
    reach = [dds.can_reach(pos, team, t) for t in range(v - 3, v + 4)]
    assert reach == [True] * 4 + [False] * 3, (pos, team, v)
    if pos.sweep_bonus == 0:
        assert v + dds.solve(pos, 1 - team) == total
    else:
        plain = dds.solve(dataclasses.replace(pos, sweep_bonus=0, sweep_team=None), team)
        eligible = pos.sweep_team in (None, team)
        assert v == (total + pos.sweep_bonus if eligible and dds.can_sweep(pos, team) else plain), (pos, team)
    if options[1] <= 3:
        assert v == ref.solve(pos, team)


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(position_options, st.integers(0, 1))
def test_sweep_properties(options: tuple[int, int, int, int, int | None, int, int], team: int) -> None:
    """A seat that sweeps alone sweeps for its team; a team that can sweep takes every point
    left (without a bonus); at most one team can sweep."""
    pos = dataclasses.replace(drawn_position(options), sweep_bonus=0, sweep_team=None)
    team_sweeps = dds.can_sweep(pos, team)
    for seat in (team, team + 2):
        if dds.can_sweep(pos, team, seat):
            assert team_sweeps
    if team_sweeps:
        assert dds.solve(pos, team) == remaining_total(pos)
        assert not dds.can_sweep(pos, 1 - team)
