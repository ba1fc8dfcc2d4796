"""The beginner and confirmed levels and their shared knowledge helpers: always legal under
every profile and option, reproducible, seeing only their seat's view, bidding by the
conventions of RULES.md section 8, and sound in what they infer from a view."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from coinche.bots.base import Bot, Decision
from coinche.bots.beginner import BeginnerBot
from coinche.bots.confirmed import ConfirmedBot
from coinche.bots.knowledge import bid_value, knowledge, parse_auction
from coinche.bots.loading import load_bot
from coinche.bots.trick_estimates import opening_estimate, support_estimate
from coinche.engine.actions import (
    COINCHE,
    DECLARE_BASE,
    PASS,
    SURCOINCHE,
    Action,
    announce,
    bid_rank,
    bid_trump,
    capot,
    card_of,
    is_announce,
    is_bid,
    is_card,
    is_numeric_bid,
    make_bid,
    parse_call,
)
from coinche.engine.cards import (
    CLUBS,
    DIAMONDS,
    FULL_DECK,
    HEARTS,
    NO_TRUMP,
    QUEEN,
    SPADES,
    SUIT_MASKS,
    CardSet,
    card,
    parse_card,
    parse_cards,
)
from coinche.engine.deal import Deal, Phase, View, random_hands
from coinche.engine.play import tables, trick_winner
from coinche.engine.rules import PROFILES, RuleSet
from coinche.engine.scoring import CAPOT_VALUE, Contract

LEVELS = ("beginner", "confirmed")

RULESETS: list[tuple[str, dict[str, Any]]] = [
    *((name, {}) for name in sorted(PROFILES)),
    ("classic", {"melds": False, "undertrump": "optional", "max_bid": 180}),
    ("federation", {"sa_ta": True, "generale": True, "melds": False}),
    ("house", {"sa_ta": True, "undertrump": "optional", "belote_must_announce": False}),
    ("online", {"sa_ta": True, "melds": True, "max_bid": 180, "ta_values": "ffb"}),
]


def play_deal(deal: Deal, bots: Sequence[Bot]) -> list[Action]:
    """Drive ``deal`` to its end with one bot per seat, each seeing only its own view."""
    actions: list[Action] = []
    while not deal.is_over:
        seat = deal.to_move
        view = deal.view(seat)
        decision = bots[seat].choose(view)
        assert decision.action in view.legal_actions, (seat, decision, view.legal_actions)
        actions.append(decision.action)
        deal.apply(decision.action)
    return actions


def deal_with(rules: RuleSet, dealer: int, fixed: dict[int, str], seed: int = 0) -> Deal:
    """A deal where the seats of ``fixed`` hold the given cards, the others the rest at random."""
    hands = {s: parse_cards(text) for s, text in fixed.items()}
    rest = [c for c in range(32) if not any(h >> c & 1 for h in hands.values())]
    random.Random(seed).shuffle(rest)
    for s in range(4):
        if s not in hands:
            hands[s] = sum(1 << c for c in rest[:8])
            rest = rest[8:]
    return Deal(rules, dealer, [hands[s] for s in range(4)])


def apply_calls(deal: Deal, calls: str) -> None:
    for word in calls.split():
        deal.apply(parse_call(word))


# ----- legality, determinism, information -----


@pytest.mark.parametrize(("profile", "options"), RULESETS)
def test_levels_always_play_legal_actions(profile: str, options: dict[str, Any]) -> None:
    rules = RuleSet.profile(profile, **options)
    rng = random.Random(f"{profile}{sorted(options.items())}")
    seen_contracts = 0
    for i in range(150):
        deal = Deal(rules, rng.randrange(4), random_hands(rng))
        names = [LEVELS[(s + i) % 2] if i % 4 else "confirmed" for s in range(4)]
        if i % 5 == 4:
            names[i % 4] = "random"
        bots = [load_bot(n, seed=i * 4 + s) for s, n in enumerate(names)]
        play_deal(deal, bots)
        result = deal.result()
        assert result is not None
        seen_contracts += result.contract is not None
    assert seen_contracts > 50


@pytest.mark.parametrize("level", LEVELS)
def test_same_seeds_same_actions(level: str) -> None:
    rules = RuleSet.profile("classic")
    for i in range(6):
        rng = random.Random(i)
        dealer, hands = rng.randrange(4), random_hands(rng)
        runs = [
            play_deal(Deal(rules, dealer, hands), [load_bot(level, seed=10 * i + s) for s in range(4)]) for _ in "ab"
        ]
        assert runs[0] == runs[1]


@pytest.mark.parametrize("level", LEVELS)
def test_decisions_depend_only_on_the_view(level: str) -> None:
    """Two deals that differ only in the other seats' hidden cards give the same decision."""
    rules = RuleSet.profile("classic")
    for i in range(20):
        rng = random.Random(100 + i)
        dealer, hands = rng.randrange(4), random_hands(rng)
        seat = (dealer + 1) & 3
        others = [c for c in range(32) if not hands[seat] >> c & 1]
        rng.shuffle(others)
        shuffled = [hands[s] if s == seat else 0 for s in range(4)]
        k = 0
        for s in range(4):
            if s != seat:
                shuffled[s] = sum(1 << c for c in others[k : k + 8])
                k += 8
        a, b = Deal(rules, dealer, hands), Deal(rules, dealer, shuffled)
        da = load_bot(level, seed=i).choose(a.view(seat))
        db = load_bot(level, seed=i).choose(b.view(seat))
        assert da == db


def test_bots_receive_a_view_not_the_deal() -> None:
    seen: list[object] = []

    class Spy(ConfirmedBot):
        def choose(self, view: View) -> Decision:
            seen.append(view)
            return super().choose(view)

    rng = random.Random(3)
    deal = Deal(RuleSet.profile("classic"), 0, random_hands(rng))
    play_deal(deal, [Spy(seed=s) for s in range(4)])
    assert seen and all(type(v) is View for v in seen)


def test_bot_template_dispatches_and_seeds_the_rng() -> None:
    """``Bot.choose`` sends each phase to its hook, declares every meld by default and gives
    each bot a ``rng`` seeded with its seed; a bot overriding ``choose`` still works."""
    phases: list[str] = []

    class Hooks(Bot):
        def choose_call(self, view: View) -> Decision:
            phases.append("call")
            return Decision.plain(PASS, "pass")

        def choose_card(self, view: View) -> Decision:
            phases.append("card")
            return Decision.plain(self.rng.choice(view.legal_actions), "y")

    assert Hooks(seed=3).rng.random() == Hooks(seed=3).rng.random() == random.Random(3).random()
    rules = RuleSet.profile("classic")
    deal = deal_with(rules, 3, {0: "JS QS KS AS TS 7H 8H 9H"})  # seat 0 holds melds
    assert Hooks(seed=0).choose(deal.view(0)).action == PASS and phases == ["call"]
    apply_calls(deal, "80S pass pass pass")
    d = Hooks(seed=0).choose(deal.view(0))
    assert d.action == DECLARE_BASE and d.explanation and phases == ["call"]
    deal.apply(d.action)
    assert Hooks(seed=0).choose(deal.view(0)).action in deal.legal_actions() and phases == ["call", "card"]
    with pytest.raises(NotImplementedError):
        Bot(seed=0).choose(deal.view(0))

    class Outside(Bot):  # the old way: one choose for everything
        def choose(self, view: View) -> Decision:
            return Decision(view.legal_actions[-1])

    play_deal(Deal(rules, 0, random_hands(random.Random(2))), [Outside(seed=s) for s in range(4)])
    # What a class lacks to play (bot_factory refuses such a class by name).
    assert Outside.missing_methods() == () == Hooks.missing_methods() == BeginnerBot.missing_methods()
    assert Bot.missing_methods() == ("choose_call", "choose_card")


# ----- the auction -----

STRONG = "JH 9H AH TH 7H AS AC 8D"
WEAK = "7S 8S QH 8H 7D 9D KC 8C"


def test_confirmed_opens_a_strong_hand_and_passes_a_weak_one() -> None:
    rules = RuleSet.profile("classic")
    deal = deal_with(rules, 3, {0: STRONG})
    d = ConfirmedBot(seed=1).choose(deal.view(0))
    assert is_bid(d.action) and bid_trump(d.action) == HEARTS
    assert 80 <= bid_rank(d.action) // 10 <= 160
    assert d.explanation and "H:" in d.explanation and "tricks" in d.explanation
    deal = deal_with(rules, 3, {0: WEAK})
    assert ConfirmedBot(seed=1).choose(deal.view(0)).action == PASS


def test_opening_counts_tricks() -> None:
    assert opening_estimate(parse_cards(STRONG), HEARTS).tricks >= 6
    assert opening_estimate(parse_cards(WEAK), HEARTS).tricks < 3
    # J + 9 + side Ace + 2 more trumps: about 3-4 tricks, an 80 or 90 opening.
    est = opening_estimate(parse_cards("JS 9S 8S 7S AD 8H 9C 7C"), SPADES)
    assert 3 <= est.tricks < 5


def test_confirmed_raises_its_partner_with_a_side_ace() -> None:
    rules = RuleSet.profile("classic")
    # Dealer 3: seat 0 opens 80H, seat 1 passes, seat 2 (partner) holds a side Ace.
    deal = deal_with(rules, 3, {2: "AS 7S 8S 8D 7D QC 8C 7C", 0: "JH 9H 8H 7H AD KD 9C TC"})
    apply_calls(deal, "80H pass")
    d = ConfirmedBot(seed=2).choose(deal.view(2))
    assert d.action == make_bid(90, HEARTS), d
    assert support_estimate(parse_cards("AS 7S 8S 8D 7D QC 8C 7C"), HEARTS).tricks == 1
    # With the trump Jack instead: +20.
    deal = deal_with(rules, 3, {2: "JH 7S 8S 8D 7D QC 8C 7C"})
    apply_calls(deal, "80H pass")
    assert ConfirmedBot(seed=2).choose(deal.view(2)).action == make_bid(100, HEARTS)
    # Nothing to add: pass.
    deal = deal_with(rules, 3, {2: "7S 8S QS 8D 7D QC 8C 7C"})
    apply_calls(deal, "80H pass")
    assert ConfirmedBot(seed=2).choose(deal.view(2)).action == PASS


def test_confirmed_never_bids_above_its_estimate() -> None:
    rules = RuleSet.profile("classic")
    deal = deal_with(rules, 3, {0: "JS 9S 8S 7S AD 8H 9C 7C"})
    d = ConfirmedBot(seed=0).choose(deal.view(0))
    assert d.action in (make_bid(80, SPADES), make_bid(90, SPADES))
    # Over an opponent's 110, the same hand passes.
    deal = deal_with(rules, 2, {0: "JS 9S 8S 7S AD 8H 9C 7C"})
    apply_calls(deal, "110H")
    assert ConfirmedBot(seed=0).choose(deal.view(0)).action == PASS


def test_confirmed_coinches_a_contract_it_clearly_defeats() -> None:
    rules = RuleSet.profile("classic")
    # Seat 1 bids 120S; seat 2 holds J 9 A of spades and two side Aces.
    deal = deal_with(rules, 0, {2: "JS 9S AS 7S AH AD 8C 7C"})
    apply_calls(deal, "120S")
    d = ConfirmedBot(seed=3).choose(deal.view(2))
    assert d.action == COINCHE, d
    assert d.explanation and "coinche" in d.explanation
    # Without top trumps it does not.
    deal = deal_with(rules, 0, {2: "7S 8S QH 9H 8D 7D 8C 7C"})
    apply_calls(deal, "120S")
    assert ConfirmedBot(seed=3).choose(deal.view(2)).action == PASS


def test_confirmed_surcoinches_only_a_clearly_made_contract() -> None:
    rules = RuleSet.profile("classic")
    deal = deal_with(rules, 3, {0: "JH 9H AH TH KH QH AS AC"})
    apply_calls(deal, "80H coinche pass pass")
    assert ConfirmedBot(seed=4).choose(deal.view(0)).action == SURCOINCHE
    deal = deal_with(rules, 3, {0: "JH 9H 8H 7H AD 8S 9C 7C"})
    apply_calls(deal, "80H coinche pass pass")
    assert ConfirmedBot(seed=4).choose(deal.view(0)).action == PASS


def test_confirmed_bids_capot_sa_ta_only_on_clear_hands() -> None:
    rules = RuleSet.profile("classic")
    deal = deal_with(rules, 3, {0: "JH 9H AH TH 8H AS AD AC"})
    assert ConfirmedBot(seed=5).choose(deal.view(0)).action == capot(HEARTS)
    deal = deal_with(rules, 3, {0: "JH 9H JS 9S JD AD JC 7C"})
    d = ConfirmedBot(seed=5).choose(deal.view(0))
    assert is_bid(d.action) and bid_trump(d.action) == 5, d
    # No SA/TA where the table does not play them.
    deal = deal_with(RuleSet.profile("online"), 3, {0: "JH 9H JS 9S JD AD JC 7C"})
    d = ConfirmedBot(seed=5).choose(deal.view(0))
    assert d.action == PASS or bid_trump(d.action) < NO_TRUMP


def test_beginner_bids_only_obvious_hands_and_never_coinches() -> None:
    rules = RuleSet.profile("classic")
    deal = deal_with(rules, 3, {0: "JH 9H 8H 7H AS 8D 9C 7C"})
    d = BeginnerBot(seed=0).choose(deal.view(0))
    assert d.action in (make_bid(80, HEARTS), make_bid(90, HEARTS))
    deal = deal_with(rules, 3, {0: "JH 8H AS AD 8D 9C 7C TS"})
    assert BeginnerBot(seed=0).choose(deal.view(0)).action == PASS
    rng = random.Random(5)
    for i in range(300):
        deal = Deal(rules, rng.randrange(4), random_hands(rng))
        bot = BeginnerBot(seed=i)
        while deal.phase is Phase.AUCTION:
            view = deal.view(deal.to_move)
            a = bot.choose(view).action
            assert a not in (COINCHE, SURCOINCHE)
            assert not is_bid(a) or (is_numeric_bid(a) and bid_trump(a) < NO_TRUMP and bid_rank(a) // 10 <= 100)
            deal.apply(a)


# ----- card play -----


def test_levels_announce_belote_and_declare_melds() -> None:
    rules = RuleSet.profile("classic")
    for level in LEVELS:
        announced = declared = 0
        rng = random.Random(7)
        for i in range(60):
            deal = Deal(rules, rng.randrange(4), random_hands(rng))
            bots = [load_bot(level, seed=i * 4 + s) for s in range(4)]
            while not deal.is_over:
                view = deal.view(deal.to_move)
                a = bots[deal.to_move].choose(view).action
                legal = view.legal_actions
                if DECLARE_BASE in legal:
                    assert a == DECLARE_BASE
                    declared += 1
                if is_card(a) and not is_announce(a) and announce(a) in legal:
                    pytest.fail(f"{level} played {a} without announcing the belote")
                announced += is_announce(a)
                deal.apply(a)
        assert announced > 0 and declared > 0


def test_confirmed_draws_trumps_and_does_not_waste_them() -> None:
    rules = RuleSet.profile("online")
    # Seat 0 takes 100H and leads: it holds the master trump (J), so it draws trumps.
    deal = deal_with(rules, 3, {0: "JH 9H AH 8H AS TS AD 7C", 2: "7H QH KD 8S 9S QC KC TC"})
    apply_calls(deal, "100H pass pass pass")
    d = ConfirmedBot(seed=6).choose(deal.view(0))
    assert d.action == parse_card("JH"), d
    deal.apply(d.action)
    deal.apply(deal.legal_actions()[0])
    # The partner cannot beat the J: it plays its smallest trump.
    assert ConfirmedBot(seed=6).choose(deal.view(2)).action == parse_card("7H")


def test_confirmed_puts_points_on_a_sure_trick_of_its_partner() -> None:
    rules = RuleSet.profile("online")
    deal = deal_with(
        rules,
        0,
        {
            1: "KC 7C 8S 9S 7D 8D 9D QD",
            2: "JH 9H AH 8H 7H AS KS QS",
            3: "8C 9C TD AD KD JD QC AC",
            0: "JC TC 7S TS JS TH KH QH",
        },
    )
    apply_calls(deal, "pass 100H pass pass pass")  # seat 2 takes 100H; seat 1 leads
    deal.apply(parse_card("7C"))
    deal.apply(parse_card("JH"))  # seat 2 ruffs with the J: a sure trick
    deal.apply(parse_card("8C"))
    # Seat 0, last, adds its 10 of clubs (not a master: the AC is out) rather than the J.
    d = ConfirmedBot(seed=7).choose(deal.view(0))
    assert d.action == parse_card("TC"), d


def test_confirmed_partner_of_a_generale_taker_wins_no_trick() -> None:
    rules = RuleSet.profile("classic")
    tricks = {"generaleH": 0, "capotH": 0}
    for call in tricks:
        rng = random.Random(9)
        for i in range(30):
            deal = Deal(rules, 0, random_hands(rng))
            apply_calls(deal, f"{call} pass pass pass")  # seat 1 takes; seat 3 is its partner
            bots = [ConfirmedBot(seed=i * 4 + s) for s in range(4)]
            while not deal.is_over:
                seat = deal.to_move
                view = deal.view(seat)
                a = bots[seat].choose(view).action
                if call == "generaleH" and seat == 3 and deal.trick:
                    tt = tables(HEARTS)
                    w = deal.trick[trick_winner(deal.trick, tt)]
                    if any(not tt.beats(card_of(x), w) for x in view.legal_actions):
                        assert not tt.beats(card_of(a), w), "the partner won a trick it could have lost"
                deal.apply(a)
            tricks[call] += sum(1 for t in deal.tricks if t.winner == 3)
    assert tricks["generaleH"] < tricks["capotH"]


# ----- knowledge -----


def test_parse_auction_reads_seats_bids_and_coinche() -> None:
    calls = [parse_call(c) for c in ("pass", "80H", "90S", "pass", "100H", "coinche")]
    a = parse_auction(calls, dealer=2, rules=RuleSet.profile("classic"))
    # First call by seat 3.
    assert a.calls[0] == (3, PASS)
    assert a.bids[0] == (make_bid(80, HEARTS),)
    assert a.bids[1] == (make_bid(90, SPADES),)
    assert a.bids[2] == () and a.bids[3] == (make_bid(100, HEARTS),)
    assert a.last_bid == make_bid(100, HEARTS) and a.bidder == 3 and a.coincher == 0
    assert a.opener == 0 and a.current_value == 100 and a.coinched and not a.surcoinched
    assert a.partner_bid(2) == (HEARTS, 80) and a.partner_bid(1) == (HEARTS, 100) and a.partner_bid(3) == (SPADES, 90)
    assert a.partner_bid(0) is None
    assert a.trumps_bid(0) == (HEARTS,) and a.value_in(3, HEARTS) == 100 and a.value_in(3, SPADES) == 0


def test_bid_value_takes_the_rules() -> None:
    """A générale is worth the table's ``generale_value`` (house 300, classic 500)."""
    house, classic = RuleSet.profile("house"), RuleSet.profile("classic")
    assert bid_value(parse_call("generaleH"), house) == 300 == house.generale_value
    assert bid_value(parse_call("generaleTA"), classic) == 500
    assert bid_value(parse_call("capotS"), house) == CAPOT_VALUE == bid_value(parse_call("capotS"), classic)
    assert bid_value(parse_call("90H"), house) == 90 and bid_value(parse_call("120SA"), classic) == 120
    # The auction read at a house table: a partner's générale claims 300.
    a = parse_auction([parse_call("generaleH")], dealer=3, rules=house)
    assert a.current_value == 300 and a.partner_bid(2) == (HEARTS, 300) and a.value_in(0, HEARTS) == 300


@pytest.mark.parametrize(
    ("profile", "calls", "expected"),
    [
        ("classic", "80H", Contract("bid", 80, HEARTS, 0, 1)),
        ("classic", "80H coinche", Contract("bid", 80, HEARTS, 0, 2)),
        ("classic", "90S coinche surcoinche", Contract("bid", 90, SPADES, 0, 4)),
        ("house", "90S coinche surcoinche", Contract("bid", 90, SPADES, 0, 3)),
        ("classic", "capotH coinche", Contract("capot", CAPOT_VALUE, HEARTS, 0, 2)),
        ("house", "pass capotD coinche surcoinche", Contract("capot", CAPOT_VALUE, DIAMONDS, 1, 3)),
        ("house", "generaleC coinche", Contract("generale", 300, CLUBS, 0, 2)),
        ("classic", "80H 90S pass generaleTA coinche surcoinche", Contract("generale", 500, 5, 3, 4)),
    ],
)
def test_auction_info_contract_has_the_multiplier(profile: str, calls: str, expected: Contract) -> None:
    """The contract the auction stands at (the expert's reading) is ``Auction.contract``'s:
    a coinched capot is doubled, a surcoinche takes the rules' multiplier."""
    rules = RuleSet.profile(profile)
    deal = Deal(rules, 3, random_hands(random.Random(1)))  # seat 0 speaks first
    apply_calls(deal, calls)
    info = parse_auction(deal.view(0).calls, 3, rules)
    assert info.contract() == expected
    while deal.contract is None:  # finish the auction: the engine agrees
        deal.apply(PASS)
    assert deal.contract == expected
    assert parse_auction([], 3, rules).contract() is None


def _check_knowledge(deal: Deal, seat: int) -> None:
    view = deal.view(seat)
    k = knowledge(view)
    assert k.hand == deal.hands[seat]
    held = 0
    for s in range(4):
        if s == seat:
            continue
        held |= deal.hands[s]
        assert not deal.hands[s] & k.excluded[s], "an inference excluded a card the seat holds"
        assert k.known[s] & ~deal.hands[s] == 0, "a known card is not in that hand"
        assert deal.hands[s] & ~k.possible[s] == 0, "a held card is not possible"
        for su in range(4):
            if k.is_void(s, su):
                assert not deal.hands[s] & SUIT_MASKS[su]
    assert held == k.unseen
    assert k.unseen | k.played | k.hand == FULL_DECK
    for c in range(32):
        if k.masters >> c & 1:
            assert not k.played >> c & 1
            assert k.is_master(c)
    if deal.trick:
        assert k.trick_winner >= 0 and k.winning_card in deal.trick
    trumps = SUIT_MASKS[k.trump] if 0 <= k.trump < NO_TRUMP else 0
    assert k.trumps_out == (held & trumps).bit_count()


@pytest.mark.parametrize(("profile", "options"), RULESETS)
def test_knowledge_is_sound(profile: str, options: dict[str, Any]) -> None:
    rules = RuleSet.profile(profile, **options)
    rng = random.Random(f"k{profile}{sorted(options.items())}")
    for i in range(30):
        deal = Deal(rules, rng.randrange(4), random_hands(rng))
        bots = [load_bot(("random", "beginner", "confirmed")[(s + i) % 3], seed=i * 4 + s) for s in range(4)]
        while not deal.is_over:
            if deal.phase is Phase.PLAY:
                for seat in range(4):
                    _check_knowledge(deal, seat)
            view = deal.view(deal.to_move)
            deal.apply(bots[deal.to_move].choose(view).action)


def test_knowledge_infers_voids_trumps_and_belote() -> None:
    rules = RuleSet.profile("classic", melds=False)
    deal = Deal(
        rules,
        3,
        [
            parse_cards("JS 9S AS 7D 8D 9D TD AD"),
            parse_cards("KS QS 7S 8S 7H 8H 9H TH"),
            parse_cards("TS JH QH KH AH JD QD KD"),
            parse_cards("7C 8C 9C TC JC QC KC AC"),
        ],
    )
    apply_calls(deal, "80S pass pass pass")  # seat 0 takes spades
    deal.apply(parse_card("AD"))  # seat 0 leads AD
    deal.apply(announce(parse_card("KS")))  # seat 1 ruffs and announces belote
    k = knowledge(deal.view(2))
    assert k.is_void(1, DIAMONDS)
    assert k.known[1] >> card(SPADES, QUEEN) & 1  # the other belote card
    assert k.trick_winner == 1 and not k.partner_winning and k.trick_points == 11 + 4
    deal.apply(parse_card("KD"))  # seat 2 follows
    deal.apply(parse_card("7C"))  # seat 3: no diamond, partner (seat 1) winning: no inference on trumps
    k = knowledge(deal.view(0))
    assert k.is_void(3, DIAMONDS) and not k.is_void(3, CLUBS)
    assert not k.is_void(3, SPADES)  # its partner was winning: it did not have to trump
    # Seat 1 leads a club; seat 0 has none and must trump (opponent winning).
    deal.apply(parse_card("7H"))
    deal.apply(parse_card("JH"))
    deal.apply(parse_card("8C"))  # seat 3 discards a club on its opponent's heart: void in hearts
    k = knowledge(deal.view(0))
    assert k.is_void(3, HEARTS) and k.is_void(3, SPADES)  # had to cut: no trump at all


def test_knowledge_masters_and_sure_cards() -> None:
    rules = RuleSet.profile("online")
    deal = deal_with(rules, 3, {0: "JH 9H AS TS KS 7D 8D 7C"})
    apply_calls(deal, "80H pass pass pass")
    k = knowledge(deal.view(0))
    assert k.sure >> parse_card("JH") & 1 and k.sure >> parse_card("AS") & 1
    assert k.sure >> parse_card("9H") & 1  # only the J beats it, and it is ours
    assert k.sure >> parse_card("TS") & 1 and k.sure >> parse_card("KS") & 1
    assert not k.sure >> parse_card("7D") & 1
    assert k.trumps_out == 6
    masters: CardSet = k.masters
    assert masters >> parse_card("JH") & 1 and masters >> parse_card("AD") & 1
