"""Dealing in packets, dealer rotation, seeded games and the real-deal mode."""

from __future__ import annotations

import random

import pytest

from coinche.engine.actions import PASS
from coinche.engine.cards import FULL_DECK, mask_of
from coinche.engine.deal import Deal, deal_hands
from coinche.engine.game import Game
from coinche.engine.rules import RuleSet


def play_randomly(game: Game, rng: random.Random, deals: int) -> None:
    while not game.is_over and len(game.deals) <= deals:
        acts = game.legal_actions()
        # Mostly passes, so that deals end in modest contracts and games last.
        game.apply(PASS if PASS in acts and rng.random() < 0.8 else acts[rng.randrange(len(acts))])


@pytest.mark.parametrize(("packets", "sizes"), [("332", (3, 3, 2)), ("323", (3, 2, 3)), ("233", (2, 3, 3))])
def test_packets_start_with_dealer_plus_one(packets: str, sizes: tuple[int, int, int]) -> None:
    deck = list(range(32))
    hands = deal_hands(deck, dealer=2, packets=packets)
    expected: dict[int, list[int]] = {s: [] for s in range(4)}
    i = 0
    for size in sizes:
        for k in (3, 0, 1, 2):  # dealer 2 deals to seat 3 first
            expected[k].extend(deck[i : i + size])
            i += size
    assert hands == tuple(mask_of(expected[s]) for s in range(4))
    first = (1 << sizes[0]) - 1
    assert hands[3] & first == first  # the first packet goes to dealer + 1


def test_same_seed_same_game() -> None:
    rules = RuleSet.profile("classic")
    a, b = Game(rules, seed=42), Game(rules, seed=42)
    assert a.first_dealer == b.first_dealer
    assert a.infos[0].hands == b.infos[0].hands
    assert Game(rules, seed=43).infos[0].hands != a.infos[0].hands


def test_dealer_rotates_and_dealer_plus_one_speaks() -> None:
    game = Game(RuleSet.profile("online"), seed=1, first_dealer=3)
    rng = random.Random(1)
    play_randomly(game, rng, 6)
    for n, deal in enumerate(game.deals):
        assert deal.dealer == (3 + n) & 3
        assert deal.auction.first == (deal.dealer + 1) & 3


@pytest.mark.parametrize("profile", ["classic", "federation", "house", "online"])
def test_real_deal_gathers_cuts_and_deals_without_shuffle(profile: str) -> None:
    rules = RuleSet.profile(profile, real_deal=True, target=5000)
    game = Game(rules, seed=5)
    play_randomly(game, random.Random(5), 5)
    assert len(game.deals) >= 3
    for prev, info in zip(game.deals, game.infos[1:], strict=False):
        if prev.tricks:
            gathered = [c for t in prev.tricks for c in t.cards]
        else:  # a void deal: the hands are gathered in dealing order
            gathered = [c for k in range(1, 5) for c in sorted(_cards(prev.dealt[(prev.dealer + k) & 3]))]
        assert info.cut is not None
        side = max(1, rules.cut_each_side)
        assert side <= info.cut <= 32 - side
        deck = gathered[info.cut :] + gathered[: info.cut]
        assert info.packets in ("332", "323", "233")
        if rules.packets != "any":
            assert info.packets == rules.packets
        assert info.hands == deal_hands(deck, info.dealer, info.packets)


def _cards(mask: int) -> list[int]:
    return [c for c in range(32) if mask >> c & 1]


def test_federation_cut_leaves_three_cards_each_side() -> None:
    assert RuleSet.profile("federation").cut_each_side == 3


def test_invalid_hands_are_refused() -> None:
    rules = RuleSet.profile("classic")
    with pytest.raises(ValueError, match="8 cards"):
        Deal(rules, 0, (0xFF, 0xFF00, 0xFF0000, 0x7F000000))
    with pytest.raises(ValueError, match="dealt twice"):
        Deal(rules, 0, (0xFF, 0xFF, 0xFF0000, 0xFF000000))
    hands = deal_hands(list(range(32)), 0, "332")
    assert sum(hands) == FULL_DECK
    with pytest.raises(ValueError, match="dealer"):
        Deal(rules, 4, hands)


def test_game_view_shows_score_sheet() -> None:
    game = Game(RuleSet.profile("online"), seed=3)
    play_randomly(game, random.Random(3), 2)
    view = game.view(0)
    assert view.target == 1001
    assert view.totals == tuple(game.totals)
    assert len(view.history) == len([d for d in game.deals if d.is_over])
    assert sum(s[0] for s in view.history) == game.totals[0]
