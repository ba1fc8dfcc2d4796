"""Dealing in packets, dealer rotation, seeded games and the real-deal mode."""

from __future__ import annotations

import hashlib
import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coinche.engine.actions import PASS
from coinche.engine.cards import FULL_DECK, cards_str, mask_of, parse_cards
from coinche.engine.deal import Deal, deal_hands
from coinche.engine.dealing import DealingInfo, commitment, deal_seed, hands_from_seed, shuffled_deck, verify
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


# ----- dealing version 2: deals anyone can check (docs/dealing.md) -----

SECRET = bytes(range(32))
TABLE = "Xy7-_kQz"


def naive_hands(seed: bytes, dealer: int) -> list[set[str]]:
    """docs/dealing.md re-implemented plainly, with nothing of the engine but the card names."""
    stream = b"".join(hashlib.sha256(seed + i.to_bytes(4, "big")).digest() for i in range(64))
    words = [int.from_bytes(stream[k : k + 4], "big") for k in range(0, len(stream), 4)]
    deck = [r + s for s in "SHDC" for r in "789TJQKA"]  # card index = suit * 8 + rank
    w = 0
    for i in range(31, 0, -1):
        while words[w] >= 2**32 - 2**32 % (i + 1):
            w += 1
        j = words[w] % (i + 1)
        w += 1
        deck[i], deck[j] = deck[j], deck[i]
    hands: list[set[str]] = [set(), set(), set(), set()]
    for p, name in enumerate(deck):
        hands[(dealer + 1 + p // 8) % 4].add(name)
    return hands


def test_known_answers() -> None:
    seed = deal_seed(SECRET, TABLE, 1)
    assert seed.hex() == "05addc71c1e9e8a4b11d015c915a9327bbd310ce687433a046ce64024f4ab283"
    assert commitment(seed, TABLE, 1) == "154fdfcc7dbeb00b847259538aec2e875c0cff46ce654d802265e94fd903a062"
    assert hands_from_seed(seed, 0) == tuple(
        parse_cards(h)
        for h in (
            "QS JS 7S TH KD JD 9D AC",
            "KS JH 9H 8H 7H AD KC 8C",
            "AS 8S TD QD 8D 7D TC QC",
            "TS 9S AH KH QH JC 9C 7C",
        )
    )
    seed2 = deal_seed(SECRET, TABLE, 2)
    assert seed2.hex() == "dfa0f582e2e4aba457a138bd76a195850f71c686b4a3c768a68f035dec1d7786"
    assert commitment(seed2, TABLE, 2) == "ee2d46eafff1ecdf8d9f7d10eb54203783615d44076fad4d3cdb6568b80ac445"
    assert hands_from_seed(seed2, 3) == tuple(
        parse_cards(h)
        for h in (
            "AS 9S 8S KD JD 7D KC QC",
            "QS JS KH QH JH AD 9D JC",
            "TS 7S TH 8H 7H TD QD 7C",
            "KS AH 9H 8D AC TC 9C 8C",
        )
    )


def test_the_naive_version_deals_the_same() -> None:
    for n in range(1, 40):
        seed = deal_seed(SECRET, TABLE, n)
        dealer = n % 4
        assert [set(cards_str(h).split()) for h in hands_from_seed(seed, dealer)] == naive_hands(seed, dealer)


def test_deals_have_unrelated_seeds() -> None:
    seeds = [deal_seed(SECRET, TABLE, n) for n in range(1, 200)]
    assert len(set(seeds)) == len(seeds) and all(len(s) == 32 for s in seeds)
    # Neighbouring deals share about half of their bits, no more (as unrelated values do).
    for a, b in itertools.pairwise(seeds):
        same = 256 - (int.from_bytes(a, "big") ^ int.from_bytes(b, "big")).bit_count()
        assert 80 < same < 176
    assert deal_seed(SECRET, TABLE + "x", 1) != seeds[0]
    assert deal_seed(bytes(32), TABLE, 1) != seeds[0]
    # The table id and the number are both bound: no two labels encode alike.
    assert commitment(seeds[0], TABLE, 1) != commitment(seeds[0], TABLE, 2)
    assert deal_seed(SECRET, "ab", 1) != deal_seed(SECRET, "a", 1)


@settings(max_examples=200, deadline=None)
@given(seed=st.binary(min_size=32, max_size=32), dealer=st.integers(0, 3))
def test_every_deal_is_a_partition(seed: bytes, dealer: int) -> None:
    hands = hands_from_seed(seed, dealer)
    assert len(hands) == 4 and all(h.bit_count() == 8 for h in hands)
    assert hands[0] | hands[1] | hands[2] | hands[3] == FULL_DECK
    deck = shuffled_deck(seed)
    assert sorted(deck) == list(range(32))
    assert hands[(dealer + 1) & 3] == mask_of(deck[:8])
    # The same deck dealt by another dealer: the same packets, turned.
    assert hands_from_seed(seed, (dealer + 1) & 3) == hands[3:] + hands[:3]


@settings(max_examples=100, deadline=None)
@given(
    secret=st.binary(min_size=1, max_size=64),
    table=st.text(min_size=1, max_size=20),
    number=st.integers(1, 10_000),
)
def test_verify_accepts_what_is_dealt_and_refuses_a_changed_card(secret: bytes, table: str, number: int) -> None:
    seed = deal_seed(secret, table, number)
    hands = hands_from_seed(seed, number & 3)
    info = DealingInfo.of(seed, table, number, reveal=True)
    assert DealingInfo.from_json(info.to_json()) == info
    assert verify(info, hands, number & 3) == []
    low = hands[0] & -hands[0]
    other = hands[1] & -hands[1]
    swapped = (hands[0] ^ low | other, hands[1] ^ other | low, hands[2], hands[3])
    problems = verify(info, swapped, number & 3)
    assert len(problems) == 2 and all("differs" in p for p in problems)
    wrong = DealingInfo(table, number + 1, info.commitment, info.seed)
    assert any("commitment differs" in p for p in verify(wrong, hands, number & 3))
    assert "seed" not in DealingInfo.of(seed, table, number, reveal=False).to_json()


def test_a_game_deals_from_its_hand_source() -> None:
    def source(number: int, dealer: int) -> tuple[int, ...]:
        return hands_from_seed(deal_seed(SECRET, TABLE, number), dealer)

    rules = RuleSet.profile("classic")
    game = Game(rules, seed=5, hand_source=source)
    play_randomly(game, random.Random(2), 4)
    for n, (deal, info) in enumerate(zip(game.deals, game.infos, strict=True), start=1):
        assert deal.dealt == source(n, deal.dealer)
        assert not info.seeded
    again = Game.from_log(rules, 5, game.first_dealer, game.log, hand_source=source)
    assert again == game
