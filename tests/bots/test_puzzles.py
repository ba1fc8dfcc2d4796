"""Card-play puzzles found by the solver in played deals (issue 32): one card, and only one,
reaches the side's goal; the C solver and its pure-Python twin agree on every card; the
solution's line is legal play to the deal's end; the themes say what the solution does."""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coinche.bots.expert.outcome import Scorer
from coinche.bots.puzzles import FIRST_TRICK, LAST_TRICK, MIN_SWING, Puzzle, best_puzzle, find_puzzles
from coinche.bots.solver import Position, move_values, reference
from coinche.engine.actions import card_of, is_card
from coinche.engine.deal import Deal, Phase, random_hands
from coinche.engine.rules import PROFILES, RuleSet
from played_deals import played_deal


@cache
def sample(profile: str, deals: int = 100) -> tuple[Puzzle, ...]:
    found: list[Puzzle] = []
    for seed in range(deals):
        deal = played_deal(profile, seed)
        found += find_puzzles(deal.rules, deal.dealer, deal.dealt, deal.log)
    return tuple(found)


def check(puzzle: Puzzle, twin: bool) -> None:
    """Everything a puzzle promises, checked again from its deal."""
    position = puzzle.position()
    assert position.phase is Phase.PLAY and position.to_move == puzzle.seat
    assert FIRST_TRICK <= len(position.tricks) <= LAST_TRICK
    team = puzzle.seat & 1
    values = move_values(Position.from_deal(position), team)
    assert values == dict(puzzle.values) and puzzle.values[0][0] == puzzle.solution
    if twin:  # the pure-Python twin gives every card the same value
        assert reference.move_values(Position.from_deal(position), team) == values
    legal = {card_of(a) for a in position.legal_actions() if is_card(a)}
    assert set(values) == legal and len(legal) >= 2
    scorer = Scorer(position.view(puzzle.seat))
    reached = [c for c, v in values.items() if scorer.made(v) == (puzzle.goal == "make")]
    assert reached == [puzzle.solution]
    assert (puzzle.goal == "make") == (position.contract is not None and position.contract.team == team)
    others = max(scorer.margin(v) for c, v in values.items() if c != puzzle.solution)
    assert scorer.margin(values[puzzle.solution]) - others >= MIN_SWING
    # The line: the solution, then legal play to the end, each card one of the best.
    line = position.copy()
    for card in puzzle.line:
        assert line.phase is Phase.PLAY
        assert card in {card_of(a) for a in line.legal_actions() if is_card(a)}
        line.apply(next(a for a in line.legal_actions() if is_card(a) and card_of(a) == card))
    assert line.is_over
    if "trump_extraction" in puzzle.themes:
        assert not position.trick and position.contract is not None and puzzle.solution >> 3 == position.contract.trump
    if "throw_in" in puzzle.themes:
        assert not position.trick
    if "keep_master" in puzzle.themes:  # a discard: neither the suit led nor a trump
        assert position.trick and puzzle.solution >> 3 != position.trick[0] >> 3
    if "undertrump" in puzzle.themes:
        assert position.rules.undertrump == "forced" and position.trick
    if "ruff" in puzzle.themes:
        assert position.trick and position.contract is not None and puzzle.solution >> 3 == position.contract.trump


@pytest.mark.parametrize("profile", list(PROFILES))
def test_every_puzzle_has_one_card_and_the_twin_solver_agrees(profile: str) -> None:
    puzzles = sample(profile)
    assert len(puzzles) >= 5, f"{profile}: {len(puzzles)} puzzles in 100 deals"
    for puzzle in puzzles:  # the twin on the positions of five cards or fewer (a second each at six)
        check(puzzle, twin=puzzle.cards_left <= 5)
    assert any(p.cards_left <= 5 for p in puzzles)


def test_themes_are_found_and_a_deal_gives_its_best_puzzle() -> None:
    puzzles = [p for profile in PROFILES for p in sample(profile)]
    themes = {t for p in puzzles for t in p.themes}
    assert {"trump_extraction", "ruff", "throw_in", "belote"} <= themes, themes
    by_deal: dict[tuple[int, tuple[int, ...]], list[Puzzle]] = {}
    for p in puzzles:
        by_deal.setdefault((p.dealer, p.hands), []).append(p)
    for found in by_deal.values():
        best = best_puzzle(found)
        assert best is not None and all(len(best.values) >= len(p.values) for p in found)
    assert best_puzzle([]) is None


def test_a_deal_without_a_contract_has_no_puzzle() -> None:
    rules = RuleSet.profile("classic")
    deal = Deal(rules, 0, random_hands(random.Random(5)))
    while not deal.is_over:
        deal.apply(deal.legal_actions()[0])  # four passes
    assert deal.contract is None
    assert find_puzzles(rules, 0, deal.dealt, deal.log) == []


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(1000, 10**6), profile=st.sampled_from(list(PROFILES)))
def test_any_played_deal_gives_only_sound_puzzles(seed: int, profile: str) -> None:
    deal = played_deal(profile, seed)
    for puzzle in find_puzzles(deal.rules, deal.dealer, deal.dealt, deal.log):
        check(puzzle, twin=False)
