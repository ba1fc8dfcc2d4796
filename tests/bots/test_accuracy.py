"""The cost of a card and of a call, and the accuracy they add up to (``bots.accuracy``)."""

from __future__ import annotations

import itertools
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coinche.bots.accuracy import (
    CALL_KEPT,
    CARD_BLUNDER,
    CARD_MISTAKE,
    Accuracy,
    accuracy_by_seat,
    call_costs,
    card_cost,
    card_had_choice,
    costly,
    mark,
    total,
)
from coinche.bots.analysis import card_values
from coinche.bots.bidding_puzzles import valued_calls
from coinche.bots.expert.auction import appraise
from coinche.bots.expert.config import ExpertConfig
from coinche.bots.loading import load_bot
from coinche.engine.actions import call_str, card_of, is_card, is_declaration
from coinche.engine.cards import card_str
from coinche.engine.deal import Deal, Phase, View, random_hands
from coinche.engine.record import parse_record, replay
from coinche.engine.rules import RuleSet
from coinche.server.compute.job_kinds import analyse


def deal_data(hands: str, auction: str, play: str, declarations: dict[str, Any]) -> dict[str, Any]:
    """A deal of a record (dealer West, seat 3): hands by seat separated by ``|``."""
    return {
        "dealer": 3,
        "hands": [h.strip() for h in hands.split("|")],
        "auction": auction.split(),
        "play": play.split(),
        "declarations": declarations,
    }


# Three deals of classic played by the confirmed computer, each with a position whose
# answer a player can check by hand.
MASTER_DISCARDED = deal_data(
    "TS QS 8S KH 9H 8H JC 7C | KS QH JH AD KD QD 7D TC | AS 9S 7S 7H KC QC 9C 8C | JS AH TH TD JD 9D 8D AC",
    "pass pass 100C 110D 120C 130D pass pass pass",
    "7C TC 8C AC JD 8S 7D 7H AH 8H QH 7S TH 9H JH 9S JS QS KS AS 9C 8D JC QD KD QC TD KH 9D TS AD KC",
    {"belote": [{"seat": 1, "suit": "D", "at": "belote"}], "melds": {"1": ["tierce AD"], "3": ["cinquante JD"]}},
)
ONE_CARD = deal_data(
    "AS QS 9H 8H TD KD QC JC | 7S AH KH QH 7H AD QD 7C | TS KS TH 9D 7D TC 9C 8C | JS 9S 8S JH JD 8D AC KC",
    "pass pass pass 80S pass 100S pass pass pass",
    "8H AH TH JH AD 7D JD KD KH KS 9S 9H JS QS 7S TS AC JC 7C 8C 8D TD QD 9D QC 7H TC KC 9C 8S AS QH",
    {"belote": [], "melds": {"1": ["tierce AH"], "2": ["tierce TC"]}},
)
TRUMPS_FIRST = deal_data(
    "KH AD JD 8D 7D AC KC 8C | QS JS 8S AH TH 9H KD QD | AS KS QH JH 8H 7H TC 7C | TS 9S 7S TD 9D QC JC 9C",
    "90D pass 100D pass pass pass",
    "JD QD TC TD 7D KD 7C 9D 9C KC 8S KS AC 9H QH JC KH TH 7H TS AH 8H 7S 8D 8C JS JH QC 9S AD QS AS",
    {"belote": [{"seat": 1, "suit": "D", "at": "belote"}], "melds": {}},
)


def played(data: dict[str, Any]) -> Deal:
    game = replay(parse_record({"format": "coinche-record/1", "rules": "classic", "deals": [data]}))
    return game.deals[0]


def at_card(deal: Deal, cards: int) -> tuple[Deal, dict[str, Any]]:
    """The position before the deal's card number ``cards + 1``, and the analysis entry of it."""
    log, seen = [], 0
    for entry in deal.log:
        if isinstance(entry, int) and is_card(entry):
            if seen == cards:
                break
            seen += 1
        log.append(entry)
    position = Deal.from_log(deal.rules, deal.dealer, deal.dealt, log)
    analysis = analyse(deal.rules, deal.dealer, deal.dealt, deal.log)
    return position, analysis["positions"][cards]


def check_against_solver(position: Deal, entry: dict[str, Any]) -> dict[str, int]:
    """The analysis's values are the solver's, and the cost is their difference."""
    values = {card_str(c): v for c, v in card_values(position).items()}
    assert entry["values"] == values and entry["seat"] == position.to_move
    assert card_cost(values, entry["played"]) == max(values.values()) - values[entry["played"]]
    return values


def test_drawing_trumps_first_keeps_the_value_and_a_side_ace_does_not() -> None:
    """South opened the play of its 100 diamonds: the Jack of trumps keeps 144 points; an
    ace of a side suit first lets the defence ruff and gives 42 or more away."""
    position, entry = at_card(played(TRUMPS_FIRST), 0)
    values = check_against_solver(position, entry)
    assert entry["played"] == "JD" and card_cost(values, "JD") == 0
    assert card_cost(values, "AD") == 42 and card_cost(values, "AC") == 44
    assert card_had_choice(values)


def test_discarding_a_master_costs_its_trick() -> None:
    """West (seat 2), out of diamonds, discards under the Jack of trumps: the master Ace
    of spades thrown away costs 11 points; a small card, nothing."""
    position, entry = at_card(played(MASTER_DISCARDED), 7)
    values = check_against_solver(position, entry)
    assert position.to_move == 2 and entry["played"] == "7H"
    assert card_cost(values, "7H") == 0 and card_cost(values, "7S") == 0
    assert card_cost(values, "AS") == 11
    assert mark(11, CARD_MISTAKE, CARD_BLUNDER) == "?" and mark(44, CARD_MISTAKE, CARD_BLUNDER) == "??"


def test_a_forced_line_has_one_card_only() -> None:
    """Over the 8 of hearts, the Ace is the only card that keeps the capot: every other
    heart costs at least 22 points, and the Ace played costs nothing."""
    position, entry = at_card(played(ONE_CARD), 1)
    values = check_against_solver(position, entry)
    assert [c for c in values if card_cost(values, c) == 0] == ["AH"]
    assert min(card_cost(values, c) for c in values if c != "AH") >= 22
    assert entry["played"] == "AH"
    analysis = analyse(position.rules, position.dealer, position.dealt, played(ONE_CARD).log)
    marked = costly(analysis)
    assert all(d["mark"] in ("?", "??") and d["cost"] > 0 for d in marked)
    assert not [d for d in marked if d["kind"] == "card" and d["step"] == entry["step"]]


def test_a_forced_card_is_no_decision() -> None:
    assert not card_had_choice({"7H": 30})
    assert not card_had_choice({"7H": 30, "8H": 30})
    assert Accuracy().card_share is None and Accuracy().call_mean is None


def test_the_expert_calls_cost_little_and_a_wild_overbid_costs_much() -> None:
    """The call's cost is the appraisal's: the expert's own opening is (nearly) the best,
    a capot out of the blue is far below. (A générale is not valued by the appraisal and
    is left out of the costs: ``docs/accuracy.md``.)"""
    rules = RuleSet.profile("classic")
    deal = played(TRUMPS_FIRST)
    costs = call_costs(rules, deal.dealer, deal.dealt, deal.auction.calls)
    assert [c.step for c in costs] == list(range(1, len(costs) + 1))
    assert all(c.cost >= 0 for c in costs)
    start = Deal(rules, deal.dealer, deal.dealt)
    expert = load_bot("expert", seed=1).choose(start.view(start.to_move)).action
    wild = next(a for a in start.legal_actions() if call_str(a) == "capotC")
    assert call_costs(rules, deal.dealer, deal.dealt, [expert])[0].cost <= CALL_KEPT
    assert call_costs(rules, deal.dealer, deal.dealt, [wild])[0].cost > 100


def _self_play(level: str, seed: int, profile: str) -> Deal:
    rules = RuleSet.profile(profile)
    deal = Deal(rules, seed & 3, random_hands(random.Random(seed)))
    bots = [load_bot(level, seed=seed * 4 + s) for s in range(4)]
    while not deal.is_over:
        deal.apply(bots[deal.to_move].choose(deal.view(deal.to_move)).action)
    return deal


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), profile=st.sampled_from(["classic", "federation", "house", "online"]))
def test_costs_are_never_negative_and_the_best_costs_nothing(seed: int, profile: str) -> None:
    deal = _self_play("random", seed, profile)
    analysis = analyse(deal.rules, deal.dealer, deal.dealt, deal.log)
    for p in analysis["positions"]:
        values = p["values"]
        assert card_cost(values, p["played"]) >= 0
        for card, value in values.items():
            assert (card_cost(values, card) == 0) == (value == max(values.values()))
    for c in analysis["calls"]:
        assert c["cost"] >= 0
        assert c["played"] != c["best"] or c["cost"] == 0
    seats = accuracy_by_seat(analysis)
    for a in seats:
        assert 0 <= a.cards_kept <= a.cards and a.card_loss >= 0
        assert 0 <= a.calls_kept <= a.calls and a.call_loss >= 0
        assert (a.card_loss == 0) == (a.cards_kept == a.cards)
    both = total(seats)
    assert both.cards == sum(1 for p in analysis["positions"] if card_had_choice(p["values"]))
    assert both.calls == len(analysis["calls"])


LADDER = ("expert", "confirmed", "beginner", "random")
LADDER_DEALS = 12


def test_the_levels_keep_their_order_on_the_same_decisions() -> None:
    """At every decision of deals played by the confirmed computer, each level is asked
    what it would do, and its choice costed as the site costs a person's (the solver's
    values of the cards, the expert's appraisal of the calls): expert > confirmed >
    beginner > random on both measures of both kinds. (The same order over 200 deals each
    level plays itself, the site's way: ``bench/bench_accuracy.py ladder``.)"""
    rules = RuleSet.profile("classic")
    config = ExpertConfig()
    tallies = {level: Accuracy() for level in LADDER}
    for seed in range(LADDER_DEALS):
        deal = _self_play("confirmed", seed, "classic")
        values = {p["step"]: p["values"] for p in analyse(rules, deal.dealer, deal.dealt, deal.log)["positions"]}
        bots = {level: [load_bot(level, seed=seed * 4 + s) for s in range(4)] for level in LADDER}
        position = Deal(rules, deal.dealer, deal.dealt)
        step = 0
        for entry in deal.log:
            if isinstance(entry, int) and not is_declaration(entry):
                step += 1
                view = position.view(position.to_move)
                if len(view.legal_actions) > 1:
                    calls = _call_values(view, config) if position.phase is Phase.AUCTION else None
                    for level in LADDER:
                        chosen = bots[level][position.to_move].choose(view).action
                        tallies[level] = tallies[level] + _costed(chosen, calls, values.get(step))
            position.replay_entry(entry)
    for better, worse in itertools.pairwise(tallies[level] for level in LADDER):
        assert better.card_share is not None and worse.card_share is not None
        assert better.call_share is not None and worse.call_share is not None
        assert better.card_share > worse.card_share and (better.card_mean or 0) < (worse.card_mean or 0)
        assert better.call_share > worse.call_share and (better.call_mean or 0) < (worse.call_mean or 0)


def _call_values(view: View, config: ExpertConfig) -> dict[int, float]:
    appraisal = appraise(view, config, every_bid=True)
    return {v.call: v.expected for v in valued_calls(appraisal)}


def _costed(chosen: int, calls: dict[int, float] | None, values: dict[str, int] | None) -> Accuracy:
    """One decision's tally: a call against the appraisal, a card against the solver."""
    if calls is not None:
        if chosen not in calls:
            return Accuracy()
        cost = max(calls.values()) - calls[chosen]
        return Accuracy(calls=1, calls_kept=int(cost <= CALL_KEPT), call_loss=cost)
    if values is None or not is_card(chosen) or not card_had_choice(values):
        return Accuracy()
    cost = card_cost(values, card_str(card_of(chosen)))
    return Accuracy(cards=1, cards_kept=int(cost == 0), card_loss=cost)
