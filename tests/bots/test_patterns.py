"""The kinds of mistake a rule can tell (``bots.patterns``), on hand-made deals."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_accuracy import MASTER_DISCARDED, TRUMPS_FIRST, _self_play

from coinche.bots.accuracy import CARD_MISTAKE, card_cost
from coinche.bots.patterns import KINDS, Found, faults
from coinche.engine.actions import card_of, is_card, parse_call
from coinche.engine.cards import card_str, parse_card, suit_of
from coinche.engine.deal import Deal
from coinche.engine.rules import RuleSet
from coinche.server.compute.job_kinds import analyse


def play_out(data: dict[str, Any], auction: list[str] | None = None, cards: list[str] | None = None) -> Deal:
    """The record's deal with ``auction`` for its calls and ``cards`` for its first cards,
    then each seat's first legal action to the end."""
    from coinche.engine.cards import parse_cards

    rules = RuleSet.profile("classic")
    deal = Deal(rules, data["dealer"], tuple(parse_cards(h) for h in data["hands"]))
    for call in auction or data["auction"]:
        deal.apply(parse_call(call))
    wanted = list(cards or [])
    while not deal.is_over:
        legal = deal.legal_actions()
        if wanted and all(is_card(a) for a in legal):
            code = wanted.pop(0)
            deal.apply(next(a for a in legal if card_str(card_of(a)) == code))
        else:
            deal.apply(legal[0])
    return deal


def found(deal: Deal, seat: int) -> list[Found]:
    return faults(deal, analyse(deal.rules, deal.dealer, deal.dealt, deal.log), seat)


def test_a_side_ace_led_before_the_trumps_is_trumps_not_drawn() -> None:
    deal = play_out(TRUMPS_FIRST, cards=["AC"])
    assert Found("trumps_not_drawn", 7) in found(deal, 0)  # six calls, then the lead
    assert Found("trumps_not_drawn", 7) not in found(play_out(TRUMPS_FIRST, cards=["JD"]), 0)


def test_the_master_ace_thrown_away_is_master_discarded() -> None:
    first = MASTER_DISCARDED["play"][:7]
    deal = play_out(MASTER_DISCARDED, cards=[*first, "AS"])
    assert Found("master_discarded", 9 + 8) in found(deal, 2)  # nine calls, then the eighth card


def test_an_overbid_that_went_down_and_a_coinche_of_a_contract_that_makes() -> None:
    deal = play_out(TRUMPS_FIRST, auction=["90D", "pass", "160D", "pass", "pass", "pass"])
    result = deal.result()
    assert result is not None and not result.made
    assert Found("overbid", 3) in found(deal, 2)
    coinched = play_out(TRUMPS_FIRST, auction=["90D", "pass", "100D", "coinche", "pass", "pass", "pass"], cards=["JD"])
    assert Found("coinched_a_make", 4) in found(coinched, 3)
    assert not [f for f in found(coinched, 2) if f.kind == "overbid"]


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_every_fault_is_a_costly_decision_of_its_seat(seed: int) -> None:
    deal = _self_play("random", seed, "classic")
    analysis = analyse(deal.rules, deal.dealer, deal.dealt, deal.log)
    cards = {p["step"]: p for p in analysis["positions"]}
    for seat in range(4):
        for f in faults(deal, analysis, seat):
            assert f.kind in KINDS
            if f.kind in ("trumps_not_drawn", "master_discarded", "partner_ruffed"):
                p = cards[f.step]
                assert p["seat"] == seat and card_cost(p["values"], p["played"]) >= CARD_MISTAKE
                if f.kind == "partner_ruffed":
                    assert deal.contract is not None and suit_of(parse_card(p["played"])) == deal.contract.trump
            else:
                assert f.step <= len(deal.auction.calls)
