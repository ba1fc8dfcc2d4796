"""Melds inside a deal: declaration, the moment they are shown, who scores them (RULES.md 4)."""

from __future__ import annotations

import random

import pytest

from coinche.engine.actions import ANNOUNCE, DECLARE_BASE, PASS, is_declaration, parse_call
from coinche.engine.cards import parse_cards
from coinche.engine.deal import Deal, Phase
from coinche.engine.errors import IllegalAction
from coinche.engine.melds import best_melds, parse_meld
from coinche.engine.rules import RuleSet

# Dealer 3, so seat 0 speaks first and leads.
# Seat 0: cinquante AS (50). Seat 1: cinquante TS + tierce AD (70).
# Seat 2: tierce AC (20).   Seat 3: cent JC (100) and the belote in hearts.
# Team 0 melds 70, team 1 melds 170, team 1 holds the best (the cent).
HANDS = (
    "AS KS QS JS 9H 8H 7D 8D",
    "TS 9S 8S 7S AD KD QD 7H",
    "JH AH TH AC KC QC JD 9D",
    "KH QH TD JC TC 9C 8C 7C",
)
# The best melds tie: tierce AS (team 0) against tierce AD (team 1), nothing else.
TIE_HANDS = (
    "AS KS QS 9S 7H 9H JC 7C",
    "AD KD QD 9D 8H TH 8C TC",
    "JS TS AH QH JD TD AC QC",
    "8S 7S KH JH 8D 7D KC 9C",
)


def new_deal(profile: str, hands: tuple[str, ...] = HANDS, contract: str = "80H", **options: object) -> Deal:
    deal = Deal(RuleSet.profile(profile, **options), 3, tuple(parse_cards(h) for h in hands))
    for call in (contract, "pass", "pass", "pass"):
        deal.apply(parse_call(call) if call != "pass" else PASS)
    assert deal.phase is Phase.PLAY
    return deal


def play_to_end(deal: Deal, seed: int, declare_nothing: frozenset[int] = frozenset()) -> list[int]:
    """Play random legal cards; declare every meld (or nothing for some seats); announce belotes.
    Returns the number of cards played when each seat first saw shown melds."""
    rng = random.Random(seed)
    first_seen = [-1] * 4
    while not deal.is_over:
        for s in range(4):
            if first_seen[s] < 0 and any(deal.view(s).shown_melds):
                first_seen[s] = deal.played
        acts = deal.legal_actions()
        if is_declaration(acts[0]):
            deal.apply(acts[-1] if deal.to_move in declare_nothing else acts[0])
            continue
        announce = [a for a in acts if a >= ANNOUNCE]
        deal.apply(announce[0] if announce else rng.choice(acts))
    return first_seen


def test_fixture_hands_hold_the_melds_described() -> None:
    names = [[m.name for m in best_melds(parse_cards(h), 1)] for h in HANDS]
    assert names == [["cinquante AS"], ["cinquante TS", "tierce AD"], ["tierce AC"], ["cent JC"]]
    names = [[m.name for m in best_melds(parse_cards(h), 1)] for h in TIE_HANDS]
    assert names == [["tierce AS"], ["tierce AD"], [], []]


def test_declaration_step_offers_all_or_part_of_the_best_melds() -> None:
    deal = new_deal("classic")
    assert deal.to_move == 0
    assert deal.legal_actions() == [DECLARE_BASE, DECLARE_BASE + 1]
    assert deal.declaration_choices() == [(parse_meld("cinquante AS"),), ()]
    with pytest.raises(IllegalAction, match="declares its melds"):
        deal.apply(parse_cards("AS").bit_length() - 1)
    deal.apply(DECLARE_BASE)
    assert deal.view(0).declared == (parse_meld("cinquante AS"),)
    assert deal.view(1).declared is None  # not yet its turn
    assert all(m == () for m in deal.view(1).shown_melds)  # declared, not shown yet


@pytest.mark.parametrize("seed", range(6))
def test_classic_melds_shown_after_fifth_card_and_best_team_takes_all(seed: int) -> None:
    deal = new_deal("classic")
    first_seen = play_to_end(deal, seed)
    assert first_seen == [5, 5, 5, 5]
    for s in range(4):
        assert deal.shown[s] == deal.declared[s]  # classic shows every declared meld
    res = deal.result()
    assert res is not None and res.contract is not None
    # Team 1 holds the best meld: on a made contract it takes all melds of the deal (240);
    # on a failed one the defense (team 1 again) takes them all.
    assert res.melds == (0, 240)
    # Melds do not count toward making the contract in classic.
    t_total = res.card_points[0] + res.belote[0]
    d_total = res.card_points[1] + res.belote[1]
    assert res.made == (t_total >= 80 and t_total > d_total)


def test_classic_melds_in_sa_are_shown_after_the_ninth_card() -> None:
    deal = new_deal("classic", contract="80SA")
    assert play_to_end(deal, 1) == [9, 9, 9, 9]


def test_classic_melds_in_ta_are_shown_after_the_fifth_card() -> None:
    deal = new_deal("classic", contract="80TA")
    assert play_to_end(deal, 1) == [5, 5, 5, 5]


@pytest.mark.parametrize("seed", range(6))
def test_federation_shows_only_the_best_team_and_counts_its_melds_for_the_contract(seed: int) -> None:
    deal = new_deal("federation")
    first_seen = play_to_end(deal, seed)
    assert first_seen == [5, 5, 5, 5]
    assert deal.shown[0] == () and deal.shown[2] == ()  # the losing team's melds stay hidden
    assert deal.shown[1] == deal.declared[1] and deal.shown[3] == deal.declared[3]
    res = deal.result()
    assert res is not None
    taker_sweep = all(t.winner & 1 == 0 for t in deal.tricks)
    valid = 170  # only team 1's declared melds are valid
    if res.made and taker_sweep:
        assert res.melds == (valid, 0)  # the sweep transfers the defenders' melds
    elif res.made:
        assert res.melds == (0, valid)
    else:
        assert res.melds == (0, valid)
    t_total = res.card_points[0] + res.belote[0]
    d_total = res.card_points[1] + res.belote[1] + valid
    if not taker_sweep:
        assert res.made == (t_total >= 80 and t_total > d_total)


def test_a_seat_that_declares_nothing_scores_nothing() -> None:
    deal = new_deal("classic")
    play_to_end(deal, 2, declare_nothing=frozenset({3}))
    res = deal.result()
    assert res is not None
    assert deal.declared[3] == ()
    # Without the cent, team 0's cinquante AS is the best meld: team 0 holds 70, team 1 70.
    if res.made:
        assert res.melds == (140, 0)
    else:
        assert res.melds == (0, 140)


@pytest.mark.parametrize("seed", range(4))
def test_classic_tie_cancels_on_a_made_contract_and_goes_to_the_defense_on_a_failed_one(seed: int) -> None:
    deal = new_deal("classic", TIE_HANDS)
    play_to_end(deal, seed)
    res = deal.result()
    assert res is not None
    assert res.melds == ((0, 0) if res.made else (0, 40))


@pytest.mark.parametrize("seed", range(4))
def test_federation_tie_cancels_every_meld(seed: int) -> None:
    deal = new_deal("federation", TIE_HANDS)
    play_to_end(deal, seed)
    res = deal.result()
    assert res is not None and res.melds == (0, 0)
    assert all(m == () for m in deal.shown)


@pytest.mark.parametrize("profile", ["house", "online"])
def test_no_melds_in_house_and_online(profile: str) -> None:
    deal = new_deal(profile)
    assert not any(is_declaration(a) for a in deal.legal_actions())
    play_to_end(deal, 1)
    res = deal.result()
    assert res is not None and res.melds == (0, 0)
    with pytest.raises(IllegalAction):
        new_deal(profile).declare([parse_meld("cinquante AS")])


def test_melds_option_turns_melds_on_and_off() -> None:
    assert not any(is_declaration(a) for a in new_deal("classic", melds=False).legal_actions())
    assert all(is_declaration(a) for a in new_deal("online", melds=True).legal_actions())


def test_declare_checks_the_hand() -> None:
    deal = new_deal("classic")
    with pytest.raises(IllegalAction, match="not in the hand"):
        deal.declare([parse_meld("cent AH")])
    deal.declare([])  # declaring nothing is always allowed
    assert deal.declared[0] == ()


def test_up_to_four_belotes_in_ta() -> None:
    hands = (
        "KS QS KH QH KD QD 7C 8C",
        "AS TS AH TH AD TD AC TC",
        "JS 9S JH 9H JD 9D JC 9C",
        "8S 7S 8H 7H 8D 7D KC QC",
    )
    deal = new_deal("classic", hands, contract="80TA")
    play_to_end(deal, 3)
    res = deal.result()
    assert res is not None
    assert res.belote == (60, 20)
    assert len(deal.belotes) == 4


def test_no_belote_in_sa() -> None:
    deal = new_deal("classic", HANDS, contract="80SA")
    play_to_end(deal, 3)
    res = deal.result()
    assert res is not None and res.belote == (0, 0) and deal.belotes == []
