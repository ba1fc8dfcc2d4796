"""The expert's card search (issue 9 item 4): exact enumeration of the layouts in small
endgames, successive rejection that never drops the best card, a work budget that keeps
decisions reproducible."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

import pytest

from coinche.bots.expert import ExpertBot
from coinche.bots.expert.card_play import _clearly_worse, candidate_deals, points_after, search, taker_makes_after
from coinche.bots.expert.config import ExpertConfig
from coinche.bots.expert.outcome import Scorer
from coinche.bots.loading import load_bot
from coinche.bots.sampling import all_deals, constraints_from_view
from coinche.bots.solver import Position, move_values
from coinche.engine.actions import is_announce
from coinche.engine.deal import Deal, Phase, View, random_hands
from coinche.engine.rules import RuleSet


def card_views(profile: str, seed: int, deals: int, min_tricks: int = 0) -> Iterator[tuple[View, Deal]]:
    """Views of card decisions with a choice, in deals played by the confirmed bot."""
    rules = RuleSet.profile(profile)
    rng = random.Random(seed)
    for d in range(deals):
        deal = Deal(rules, d & 3, random_hands(rng))
        bots = [load_bot("confirmed", seed=10 * d + s) for s in range(4)]
        while not deal.is_over:
            view = deal.view(deal.to_move)
            cards = [a for a in view.legal_actions if not is_announce(a)]
            if deal.phase is Phase.PLAY and len(cards) > 1 and len(view.tricks) >= min_tricks:
                yield view, deal
            deal.apply(bots[deal.to_move].choose(view).action)


def exact_margins(view: View, cards: list[int], per_deal: bool | None = None) -> dict[int, float]:
    """Expected score margin of every card over every consistent layout, each searched
    exactly (made or not, and exact points), weighted as the expert weights them: the mean
    of the layouts' margins (``per_deal``, the expert's default ``margin_per_deal``), or
    the margin of their mean points and made rate."""
    if per_deal is None:
        per_deal = ExpertConfig().margin_per_deal
    deals, weights, exact = candidate_deals(view, ExpertConfig(exact_layouts=10_000), random.Random(0))
    assert exact
    contract = view.contract
    assert contract is not None
    scorer = Scorer(view)
    need = scorer.taker_threshold()
    team = view.seat & 1
    out = {}
    for c in cards:
        made = pts = margin = 0.0
        for hands, w in zip(deals, weights, strict=True):
            pos = Position.from_view(view, hands)
            made += w * taker_makes_after(pos, c, contract, need)
            value = move_values(pos, team)[c]
            pts += w * value
            margin += w * scorer.margin(value)
        total = sum(weights)
        p, est = made / total, pts / total
        out[c] = (
            margin / total if per_deal else p * scorer.margin_if(est, True) + (1 - p) * scorer.margin_if(est, False)
        )
    return out


def test_all_deals_are_every_consistent_layout() -> None:
    checked = 0
    for view, deal in card_views("classic", 3, 4, min_tricks=5):
        c = constraints_from_view(view)
        layouts = all_deals(c, 10_000)
        assert layouts is not None and len(set(layouts)) == len(layouts)
        assert tuple(deal.hands) in layouts  # the real deal is one of them
        for hands in layouts:
            for s in range(4):
                assert hands[s] & c.forbidden[s] == 0 and hands[s].bit_count() == c.sizes[s]
        checked += 1
    assert checked > 10
    assert all_deals(constraints_from_view(next(card_views("classic", 3, 1))[0]), 50) is None


@pytest.mark.parametrize("profile", ["classic", "online"])
def test_endgame_search_is_exact_and_picks_the_best_card(profile: str) -> None:
    checked = 0
    for view, _ in card_views(profile, 5, 4, min_tricks=5):
        if all_deals(constraints_from_view(view), ExpertConfig().exact_layouts) is None:
            continue  # too many layouts yet: sampled
        cards = [a for a in view.legal_actions if not is_announce(a)]
        result = search(view, cards, ExpertConfig(), random.Random(1))
        assert result is not None and result.exact and not result.rejected
        margins = exact_margins(view, cards)
        assert margins[result.best] == pytest.approx(max(margins.values()))
        assert result.expected[result.best] == pytest.approx(margins[result.best])
        checked += 1
    assert checked >= 8


@pytest.mark.parametrize("per_deal", [False, True])
def test_endgame_margins_by_deal_or_by_mean_points(per_deal: bool) -> None:
    """Both ways of turning the exact deals into a card's expected margin are exact over
    every layout: the mean of the layouts' margins (a sweep's bonus, a contract made by one
    point count as they fall), or the margin of the mean points and made rate."""
    config = ExpertConfig(margin_per_deal=per_deal)
    checked = 0
    for view, _ in card_views("classic", 9, 4, min_tricks=5):
        if all_deals(constraints_from_view(view), config.exact_layouts) is None:
            continue
        cards = [a for a in view.legal_actions if not is_announce(a)]
        result = search(view, cards, config, random.Random(1))
        assert result is not None and result.exact
        if len(result.expected) < 2:
            continue  # one card of its kind: played after the first few layouts
        margins = exact_margins(view, cards, per_deal)
        for c, value in result.expected.items():
            assert value == pytest.approx(margins[c])
        checked += 1
    assert checked >= 8


def test_sampling_agrees_with_exact_enumeration_in_the_limit() -> None:
    """Without enumeration, many sampled deals choose a card as good as the exact best."""
    sampled = ExpertConfig(samples=400, exact_samples=400, exact_unseen=0)
    checked = 0
    for view, _ in card_views("online", 7, 3, min_tricks=5):
        cards = [a for a in view.legal_actions if not is_announce(a)]
        result = search(view, cards, sampled, random.Random(2))
        assert result is not None and not result.exact
        margins = exact_margins(view, cards)
        assert margins[result.best] >= max(margins.values()) - 5
        checked += 1
    assert checked >= 5


def test_points_after_is_move_values_for_one_card() -> None:
    for view, deal in card_views("federation", 2, 2, min_tricks=3):
        pos = Position.from_view(view, deal.hands)
        for team in (0, 1):
            for c, v in move_values(pos, team).items():
                assert points_after(pos, c, team) == v


def test_rejection_drops_clearly_worse_cards_only() -> None:
    n = 20
    weights = [1.0] * n
    best = [True] * 18 + [False] * 2
    worse = [True] * 4 + [False] * 16
    close = [True] * 16 + [False] * 4
    made = {0: best, 1: worse, 2: close, 3: list(best)}
    dropped = _clearly_worse([0, 1, 2, 3], made, weights, True, 200.0, 24.0, 2.5)
    assert dropped == [1]
    # Defending, the same lists read the other way: card 1 is now the clear leader.
    assert set(_clearly_worse([0, 1, 2, 3], made, weights, False, 200.0, 24.0, 2.5)) == {0, 2, 3}
    # A handful of identical deals proves nothing.
    few = {0: [True] * 3, 1: [False] * 3}
    assert _clearly_worse([0, 1], few, [1.0] * 3, True, 200.0, 24.0, 2.5) == []


def test_rejection_never_drops_the_card_exact_search_finds_clearly_best() -> None:
    """On positions where exact search finds one card better than all others by a wide
    margin, the sampled search with rejection keeps it and plays it."""
    fast = ExpertConfig(exact_unseen=0)
    checked = 0
    for view, _ in card_views("online", 9, 30, min_tricks=4):
        cards = [a for a in view.legal_actions if not is_announce(a)]
        if constraints_from_view(view).unseen.bit_count() > 10:
            continue
        margins = exact_margins(view, cards)
        ranked = sorted(margins.values(), reverse=True)
        if ranked[0] - ranked[1] < 50:
            continue
        best = max(margins, key=lambda c: margins[c])
        result = search(view, cards, fast, random.Random(3))
        assert result is not None
        assert best not in result.rejected and result.best == best
        checked += 1
    assert checked >= 3


def test_work_budget_bounds_the_search_and_keeps_it_reproducible() -> None:
    view, _ = next(card_views("classic", 4, 1))
    cards = [a for a in view.legal_actions if not is_announce(a)]
    small = ExpertConfig(work=20_000, min_deals=8)
    a = search(view, cards, small, random.Random(5))
    b = search(view, cards, small, random.Random(5))
    assert a is not None and a == b
    assert 8 <= a.deals < 100
    full = search(view, cards, ExpertConfig(), random.Random(5))
    assert full is not None and full.nodes > a.nodes


def test_the_first_tricks_spend_their_share_of_the_budget() -> None:
    """Tricks 1 and 2 (``early_tricks``) may spend ``early_share`` of ``work``; later tricks
    all of it: a first-trick search with half the share searches no more nodes than with all
    of it, and never much beyond its own budget (one more deal's search at most)."""
    config = ExpertConfig(work=200_000, early_share=0.5, min_deals=2)
    assert (config.work_at(1), config.work_at(2), config.work_at(3)) == (100_000, 100_000, 200_000)
    first_trick = [view for view, _ in card_views("online", 3, 4) if not view.tricks][:6]
    assert first_trick
    for view in first_trick:
        cards = [a for a in view.legal_actions if not is_announce(a)]
        half = search(view, cards, config, random.Random(1))
        whole = search(view, cards, replace(config, early_share=1.0), random.Random(1))
        assert half is not None and whole is not None
        assert half.nodes <= whole.nodes and half.deals <= whole.deals


def test_expert_card_decisions_are_reproducible_from_the_seed() -> None:
    for view, _ in card_views("online", 6, 1):
        assert ExpertBot(seed=4).choose(view) == ExpertBot(seed=4).choose(view)


def test_card_search_is_the_same_on_the_pure_python_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    """The expert's card decisions depend on the solver only through its exact values (and
    its node count, the budget's meter): with the budget lifted, the search on the C solver
    and on its pure-Python twin plays the same card with the same expected margins. Late in
    the deal (three tricks or fewer left), where the twin is fast enough."""
    from coinche.bots.expert import card_play
    from coinche.bots.solver import reference

    config = ExpertConfig(work=10**12, samples=30, exact_samples=10)
    checked = 0
    for profile, seed in (("classic", 41), ("online", 42), ("federation", 43)):
        for view, _deal in card_views(profile, seed, deals=4, min_tricks=5):
            cards = [a for a in view.legal_actions if not is_announce(a)]
            fast = search(view, cards, config, random.Random(checked))
            with monkeypatch.context() as m:
                m.setattr(card_play, "solve", reference.solve)
                m.setattr(card_play, "can_reach", reference.can_reach)
                m.setattr(card_play, "can_sweep", reference.can_sweep)
                m.setattr(card_play, "last_nodes", lambda: 0)
                slow = search(view, cards, config, random.Random(checked))
            assert fast is not None and slow is not None
            assert (fast.best, fast.expected, fast.made_rate, fast.deals) == (
                slow.best,
                slow.expected,
                slow.made_rate,
                slow.deals,
            ), (profile, view.tricks)
            checked += 1
    assert checked >= 20
