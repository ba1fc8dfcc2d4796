"""Bidding puzzles (issue 32, item 3): positions of real auctions where the expert's
appraisal names one clear call; every call open to the seat valued as the expert values it,
and the puzzle's call is the one the expert makes there."""

from __future__ import annotations

import pytest

from coinche.bots.bidding_puzzles import (
    CLOSE,
    MAX_GOOD,
    MIN_MARGIN,
    best_bidding_puzzle,
    call_values,
    find_bidding_puzzles,
)
from coinche.bots.expert import ExpertBot
from coinche.bots.expert.auction import appraise
from coinche.bots.expert.config import ExpertConfig
from coinche.engine.actions import PASS, is_generale
from coinche.engine.deal import Deal
from played_deals import played_deal


@pytest.mark.parametrize("profile", ["classic", "federation", "house", "online"])
def test_each_puzzle_is_the_experts_clear_call_at_a_real_position(profile: str) -> None:
    found_any = 0
    for seed in range(12):
        deal = played_deal(profile, seed, "confirmed")
        calls = deal.auction.calls
        for puzzle in find_bidding_puzzles(deal.rules, deal.dealer, deal.dealt, calls):
            found_any += 1
            position = Deal.from_log(deal.rules, deal.dealer, deal.dealt, calls[: puzzle.upto])
            assert position.to_move == puzzle.seat and puzzle.played == calls[puzzle.upto]
            view = position.view(puzzle.seat)
            assert ExpertBot(seed=0).choose(view).action == puzzle.call  # the expert's own call
            legal = {a for a in view.legal_actions if not is_generale(a)}
            assert {v.call for v in puzzle.values} == legal  # every call valued, the générale aside
            expected = [v.expected for v in puzzle.values]
            assert expected == sorted(expected, reverse=True)
            best = puzzle.value_of(puzzle.call)
            assert best is not None
            good = [v for v in puzzle.values if v.expected >= best.expected - CLOSE]
            far = [v for v in puzzle.values if v.expected < best.expected - CLOSE]
            assert 1 <= len(good) <= MAX_GOOD and far
            assert best.expected - far[0].expected == pytest.approx(puzzle.margin) and puzzle.margin >= MIN_MARGIN
            assert puzzle.call != PASS or not puzzle.good(puzzle.played)
            assert puzzle.value_of(PASS) is not None
            assert puzzle.value_of(PASS).expected == pytest.approx(appraise(view, ExpertConfig()).pass_value)  # type: ignore[union-attr]
    assert found_any


def test_the_best_puzzle_of_a_deal_is_one_the_table_got_wrong_first() -> None:
    for seed in range(20):
        deal = played_deal("classic", seed, "confirmed")
        found = find_bidding_puzzles(deal.rules, deal.dealer, deal.dealt, deal.auction.calls)
        best = best_bidding_puzzle(found)
        if not found:
            assert best is None
            continue
        assert best is not None
        if any(not p.good(p.played) for p in found):
            assert not best.good(best.played)
        assert best.margin == max(p.margin for p in found if p.good(p.played) == best.good(best.played))


def test_values_of_a_position_before_any_bid() -> None:
    deal = played_deal("classic", 3, "confirmed")
    position = Deal(deal.rules, deal.dealer, deal.dealt)
    chosen, values = call_values(position, ExpertConfig())
    assert values[0].expected >= values[-1].expected
    passing = next(v for v in values if v.call == PASS)
    assert passing.expected == 0.0 and passing.chance is None  # nobody has bid: nothing is at stake
    assert chosen in {v.call for v in values}
