"""The expert's calls by expected score (``bots/expert/auction.py``) and their calibration
(``bots/expert/calibration.py``, ``scripts/calibrate_auction.py``)."""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coinche.bots.expert import ExpertBot
from coinche.bots.expert.auction import (
    Outlook,
    bid_options,
    choose_call,
    current_outlook,
    out_of_reach,
    outlook,
    partner_context,
    sure_sweep,
    team_estimate,
)
from coinche.bots.expert.calibration import (
    POOLED,
    UNKNOWN_PARTNER,
    Calibration,
    Prediction,
    calibration,
    level_of,
    trump_kind,
)
from coinche.bots.expert.config import ExpertConfig
from coinche.bots.hand_evaluator import Estimate
from coinche.bots.knowledge import parse_auction
from coinche.engine.actions import COINCHE, PASS, SURCOINCHE, bid_trump, is_bid, is_capot, is_generale, parse_call
from coinche.engine.auction import contract_of
from coinche.engine.cards import ALL_TRUMP, NO_TRUMP, parse_cards
from coinche.engine.deal import Deal, Phase, random_hands
from coinche.engine.rules import PROFILES, RuleSet

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from project_scripts import load_script


def deal_with(rules: RuleSet, dealer: int, seat: int, mine: str, calls: str = "") -> Deal:
    """A deal where ``seat`` holds ``mine`` (the other hands: the rest, in order), after
    ``calls`` (record notation, space separated)."""
    own = parse_cards(mine)
    rest = [c for c in range(32) if not own >> c & 1]
    hands = []
    for s in range(4):
        if s == seat:
            hands.append(own)
        else:
            m = 0
            for c in rest[:8]:
                m |= 1 << c
            rest = rest[8:]
            hands.append(m)
    deal = Deal(rules, dealer, tuple(hands))
    for call in calls.split():
        deal.apply(parse_call(call))
    assert deal.to_move == seat
    return deal


def call_of(deal: Deal) -> int:
    return choose_call(deal.view(deal.to_move), ExpertConfig(), random.Random(0)).action


def guess(mean: float, sd: float = 20.0) -> Estimate:
    """An evaluator estimate of ``mean`` points spreading ``sd``."""
    return Estimate(mean, sd, 0.0, ((0.5, mean),), mean)


STRONG_HEARTS = "JH 9H AH TH 8H AS KC 7D"
WEAK = "7S 8S 7H 8H 7D 8D 7C 9C"


@pytest.mark.parametrize("profile", ["classic", "online", "federation", "house"])
def test_strong_hand_opens_in_its_suit_and_weak_hand_passes(profile: str) -> None:
    rules = RuleSet.profile(profile)
    a = call_of(deal_with(rules, 3, 0, STRONG_HEARTS))
    assert is_bid(a) and bid_trump(a) == 1
    assert call_of(deal_with(rules, 3, 0, WEAK)) == PASS
    # A weak hand does not overcall an opponent's opening.
    assert call_of(deal_with(rules, 2, 0, WEAK, "80S")) == PASS


def test_eight_trumps_bid_the_capot() -> None:
    rules = RuleSet.profile("online")
    a = call_of(deal_with(rules, 3, 0, "JH 9H AH TH KH QH 8H 7H"))
    assert is_capot(a) and bid_trump(a) == 1


def test_trumps_behind_the_takers_coinche_a_high_contract() -> None:
    rules = RuleSet.profile("online")
    # Seat 0 bids 140 spades; seat 1 holds the four best spades and three aces.
    assert call_of(deal_with(rules, 3, 1, "JS 9S AS TS AH AD AC 7C", "140S")) == COINCHE
    # Without them it does not.
    assert call_of(deal_with(rules, 3, 1, WEAK, "100S")) != COINCHE


def test_an_unbeatable_contract_is_surcoinched() -> None:
    rules = RuleSet.profile("classic")
    deal = deal_with(rules, 3, 0, "JH 9H AH TH KH QH AS AC", "")
    deal.apply(parse_call("80H"))
    deal.apply(COINCHE)
    assert deal.to_move == 2 or SURCOINCHE in deal.legal_actions()
    # The partner (seat 2) or the taker may surcoinche; the taker's own view is what we check.
    while deal.to_move != 0:
        deal.apply(PASS)
    assert call_of(deal) == SURCOINCHE


def test_calls_are_deterministic_and_ignore_the_seed() -> None:
    rules = RuleSet.profile("classic")
    deal = deal_with(rules, 1, 3, "JD 9D AD 8D AS TS KC 7H", "pass")
    view = deal.view(3)
    a = [ExpertBot(seed=s).choose(view) for s in range(5)]
    assert all(d == a[0] for d in a)


@pytest.mark.parametrize("profile", sorted(PROFILES))
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_whole_auctions_are_legal_and_end(profile: str, seed: int) -> None:
    rules = RuleSet.profile(profile, sa_ta=True, generale=True)
    rng = random.Random(seed)
    deal = Deal(rules, seed & 3, random_hands(rng))
    bot = ExpertBot(seed=seed)
    n = 0
    while not deal.is_over and deal.phase is Phase.AUCTION:
        d = bot.choose(deal.view(deal.to_move))
        assert d.action in deal.legal_actions()
        assert d.reason is not None and d.explanation
        deal.apply(d.action)
        n += 1
        assert n < 80


def test_outlook_made_rate_falls_as_the_bid_rises_and_a_coinche_doubles() -> None:
    rules = RuleSet.profile("classic")
    deal = deal_with(rules, 3, 0, "JD 9D AD TD 8D AS KC 7H")
    view = deal.view(0)
    info = parse_auction(view.calls, view.dealer, rules)
    est = team_estimate(view.hand, 0, 3, info, rules, 2, calibration())
    out = outlook(view, est, Prediction(est.mean_162, None), est.p_sweep)
    assert isinstance(out, Outlook)
    rates = [out.made_rate(contract_of(parse_call(f"{v}D"), 0, False, False, rules)) for v in range(80, 170, 10)]
    assert rates == sorted(rates, reverse=True) and rates[0] > rates[-1]
    plain = contract_of(parse_call("100D"), 0, False, False, rules)
    doubled = contract_of(parse_call("100D"), 0, True, False, rules)
    assert abs(out.margin(doubled)) > abs(out.margin(plain))
    # Shifting the points down never raises the chance of making a contract.
    lower = outlook(view, est, Prediction(est.mean_162 - 20, None), est.p_sweep)
    assert lower.made_rate(plain) <= out.made_rate(plain)


@pytest.mark.parametrize(
    ("calls", "seat", "trump", "expected"),
    [
        ("", 0, 1, None),  # the partner (seat 2) has not spoken
        ("pass pass", 0, 1, None),
        ("pass pass pass", 0, 1, "passed"),
        ("pass pass 90S", 0, 1, "other"),
        ("pass pass 90H", 0, 1, "named:90"),
        ("pass pass 100H pass", 0, 1, "named:100"),
        ("80H pass 100H", 0, 1, "raised:20"),
        ("80H pass 90H pass", 0, 1, "raised:10"),
        ("80H pass 160H pass", 0, 1, "raised:40"),
        ("80H pass 90S pass 100H pass 110S", 0, 1, "other"),
    ],
)
def test_partner_context(calls: str, seat: int, trump: int, expected: str | None) -> None:
    rules = RuleSet.profile("classic")
    # The first call is by the dealer's left: dealer 3, so seat 0 calls first.
    info = parse_auction([parse_call(c) for c in calls.split()], 3, rules)
    assert partner_context(info, seat, trump) == expected


def test_calibration_levels_and_kinds() -> None:
    assert [level_of(v) for v in (80, 95, 130, 160, 250)] == ["80", "90", "130", "130", "capot"]
    assert [trump_kind(t) for t in (0, 3, NO_TRUMP, ALL_TRUMP)] == ["suit", "suit", "sa", "ta"]


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_shipped_calibration_covers_every_profile(profile: str) -> None:
    book = calibration()
    assert POOLED in book.profiles
    rules = RuleSet.profile(profile, sa_ta=True)
    for trump in (0, NO_TRUMP, ALL_TRUMP):
        for value in (80, 100, 120, 160, 250):
            for own in (40.0, 80.0, 120.0, 150.0):
                for situation in ("free", "contested", "coinched"):
                    p = book.takers(rules, trump, situation, guess(own), value)
                    assert -40 < p.mean < 200 and p.sd is not None and 5 < p.sd < 60
                d = book.defenders(rules, trump, value, guess(162 - own))
                assert -40 < d.mean < 200 and d.sd is not None and 5 < d.sd < 60
        for ctx in ("named:80", "named:130", "raised:10", "passed", "other"):
            assert 0 < book.partner_points(rules, trump, ctx) <= 162
    # Monotone, a sure sweep nearly sure, none where the evaluator sees none.
    chances = [book.sweep_chance(rules, p) for p in (0.0, 0.01, 0.5, 0.9, 0.999, 1.0)]
    assert chances == sorted(chances) and chances[-1] > 0.95 and chances[0] < 0.01


def test_calibration_falls_back_to_the_pooled_table_then_the_nearest_level() -> None:
    line = {"intercept": 10.0, "estimate": 0.5, "other": 0.0, "sd": 20.0, "estimate_sd": 18.0}
    book = Calibration(
        {
            POOLED: {
                "take": {"suit": {"free": line}},
                "partner": {"suit": {"named:80": 90.0, "named:100": 104.0}},
            },
            "classic": {"take": {"suit": {"free": {**line, "intercept": 0.0}}}},
        },
        {},
    )
    classic, online = RuleSet.profile("classic"), RuleSet.profile("online")
    assert book.takers(classic, 0, "free", guess(100.0), 0) == Prediction(50.0, 20.0)
    assert book.takers(online, 0, "free", guess(100.0), 0) == Prediction(60.0, 20.0)  # the pooled line
    # No SA line: the suit line of the same profile.
    assert book.takers(classic, NO_TRUMP, "free", guess(100.0), 0) == Prediction(50.0, 20.0)
    assert book.defenders(classic, 0, 100, guess(70.0)) == Prediction(70.0, None)  # nothing known
    # A hand the evaluator is sure of keeps most of its estimate (half the spread: half the line).
    assert book.takers(classic, 0, "free", guess(100.0, sd=9.0), 0) == Prediction(75.0, 10.0)
    assert book.partner_points(classic, 0, "named:120") == 104.0
    assert book.partner_points(classic, 0, "named:90") == 90.0
    assert book.partner_points(classic, 0, "passed") == UNKNOWN_PARTNER


def _script() -> Any:
    return load_script("calibrate_auction")


def test_fit_measures_estimate_minus_points_taken() -> None:
    script = _script()
    rules = RuleSet.profile("classic")
    rng = random.Random(5)
    records: list[dict[str, Any]] = []
    for i in range(40):
        hands = random_hands(rng)
        # Seat 0 opens 80 hearts (dealer 3) and everybody passes.
        calls = [parse_call(c) for c in ("80H", "pass", "pass", "pass")]
        records.append(
            {
                "profile": "classic",
                "seed": i,
                "dealer": 3,
                "hands": list(hands),
                "calls": calls,
                "contract": {
                    "trump": 1,
                    "value": 80,
                    "taker": 0,
                    "coinched": False,
                    "made": True,
                    "taken": 0,
                    "swept": False,
                    "dd": 0,
                },
            }
        )
    # The estimates the fit will make (its partner table: nobody spoke before the opening).
    book = Calibration({POOLED: {"partner": script.partner_table(records)}}, {})
    for r in records:
        row = script.contract_row(r, book)
        r["contract"].update(taken=max(0, round(row["estimate"]) - 10), dd=round(row["estimate"]) - 4)
    data = script.fit(records)
    classic = data["profiles"]["classic"]
    # Taken = estimate - 10 (rounded): the line has slope 1 and intercept -10, almost no spread.
    free = classic["take"]["suit"]["free"]
    assert free["estimate"] == pytest.approx(1.0, abs=0.06)
    assert free["sd"] < 3.0
    assert "contested" not in classic["take"]["suit"]
    assert data["profiles"][POOLED]["take"] == classic["take"]
    level = data["meta"]["report"]["classic"]["suit"]["levels"]["80"]
    assert level["contracts"] == 40 and level["estimate_minus_taken"] == pytest.approx(10.0, abs=0.6)
    report = data["meta"]["report"]["classic"]
    assert report["suit"]["double_dummy_optimism"] == pytest.approx(6.0, abs=0.6)
    assert report["suit"]["estimate_minus_double_dummy"] == pytest.approx(4.0, abs=0.6)
    # The partner table: an opening of 80 hearts read by its partner.
    assert 40 < classic["partner"]["suit"]["named:80"] < 162
    # Read back by the auction's calibration.
    back = Calibration(data["profiles"], data["meta"])
    predicted = back.takers(rules, 1, "free", guess(100.0, sd=free["estimate_sd"]), 0)
    assert predicted.mean == pytest.approx(90.0, abs=2.0)


@pytest.mark.parametrize(
    ("hand", "on_lead", "sure"),
    [
        ("JH 9H AH TH KH QH 8H 7H", False, True),  # eight trumps: every trick, whoever leads
        ("JH 9H AH TH KH AS AD AC", True, True),  # five top trumps draw three, then the aces
        ("JH 9H AH TH KH AS AD AC", False, False),  # a side lead may be ruffed over the ace
        ("JH 9H AH TH AS TS AD AC", True, True),  # four draw four; the ten under the ace
        ("JH 9H AH TH KS AS AD AC", True, False),  # KS with AS, not the ten
        ("JH 9H AH 7H AS TS AD AC", True, False),  # the 7 is no top trump
        ("JH 9H AH AS TS KS AD AC", True, False),  # three trumps cannot draw five
    ],
)
def test_a_sure_sweep_is_certain(hand: str, on_lead: bool, sure: bool) -> None:
    """A hand that takes every trick alone whatever the others hold: the evaluator's
    regression gives eight trumps 0.96, the calibrated line 0.6; the auction counts it as
    certain (and bids the capot, ``test_eight_trumps_bid_the_capot``)."""
    assert sure_sweep(parse_cards(hand), 1, on_lead) is sure


def test_the_sweep_chance_is_refitted_on_the_log_odds_scale() -> None:
    """The evaluator's sweep chances rated against the sweeps made: a line on the log-odds
    scale, by maximum likelihood (a one-figure shift in proportion to 1 - p left its 0.9 to
    0.95, swept 20 % of the time, above 0.85)."""
    script = _script()
    rng = random.Random(8)
    ps = [rng.random() ** 0.5 for _ in range(4000)]
    truth = [1 / (1 + math.exp(-(-2.0 + 0.5 * math.log(p / (1 - p))))) for p in ps]
    swept = [rng.random() < t for t in truth]
    fitted = script.sweep_line(ps, swept)
    assert fitted["intercept"] == pytest.approx(-2.0, abs=0.25)
    assert fitted["slope"] == pytest.approx(0.5, abs=0.1)
    book = Calibration({POOLED: {"sweep_line": fitted}}, {})
    online = RuleSet.profile("online")
    assert book.sweep_chance(online, 0.95) == pytest.approx(0.37, abs=0.04)  # the truth: 0.371
    # Nothing swept: finite all the same (the prior), and low.
    none = script.sweep_line([0.5] * 50, [False] * 50)
    assert -10 < none["intercept"] < 0
    assert Calibration({POOLED: {"sweep_line": none}}, {}).sweep_chance(online, 0.5) < 0.1


def test_deals_of_the_auction_alone_count_on_double_dummy_less_the_real_plays_shortfall() -> None:
    """The lines rest on every contract's double-dummy points less what real play falls
    short of them: a deal whose auction alone was played (no card played, its double-dummy
    points only) counts in the lines, not in the made rates; real play's spread is added."""
    script = _script()
    rng = random.Random(6)
    calls = [parse_call(c) for c in ("80H", "pass", "pass", "pass")]
    records: list[dict[str, Any]] = []
    for i in range(120):
        played = i < 40
        contract: dict[str, Any] = {"trump": 1, "value": 80, "taker": 0, "coinched": False, "dd": 0}
        if played:
            contract.update(made=True, taken=0, swept=False)
        hands = list(random_hands(rng))
        records.append(
            {"profile": "online", "seed": i, "dealer": 3, "hands": hands, "calls": calls, "contract": contract}
        )
    book = Calibration({POOLED: {"partner": script.partner_table(records)}}, {})
    for i, r in enumerate(records):
        e = round(script.contract_row(r, book)["estimate"])
        r["contract"]["dd"] = e - 4
        if "taken" in r["contract"]:
            r["contract"]["taken"] = e - 4 - (3 if i % 2 else 9)  # short of double dummy by 6, spread 3
    data = script.fit(records)
    free = data["profiles"]["online"]["take"]["suit"]["free"]
    for e in (70.0, 90.0):  # double dummy (estimate - 4) less the shortfall (6)
        assert free["intercept"] + free["estimate"] * e == pytest.approx(e - 10.0, abs=1.0)
    assert 2.5 < free["sd"] < 4.0  # real play's spread around double dummy, added
    report = data["meta"]["report"]["online"]
    assert report["contracts"] == 120 and report["played"] == 40
    assert report["suit"]["double_dummy_optimism"] == pytest.approx(6.0)
    assert report["suit"]["levels"]["80"] == {
        "contracts": 120,
        "played": 40,
        "made": 1.0,
        "estimate_minus_taken": pytest.approx(10.0, abs=0.6),
        "double_dummy_minus_taken": 6.0,
    }
    # A deal of the auction alone, as the script plays it: the calls, the double-dummy
    # points of the contract, no card.
    rec = script.play_deal("online", 7, "confirmed", cards=False)
    assert rec["cards"] is False and rec["actions"] == rec["calls"]
    if "contract" in rec:
        assert "taken" not in rec["contract"] and 0 <= rec["contract"]["dd"] <= 162


@pytest.mark.parametrize("profile", ["online", "classic"])
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**9), opening=st.sampled_from(["", "80S", "90H", "100D pass"]))
def test_a_numeric_bid_is_chosen_by_expected_score_alone(profile: str, seed: int, opening: str) -> None:
    """No bar on how often a bid is made (measured in duels: the 70% bar made the expert pass
    hands whose bid paid): every legal numeric bid within reach is valued; when the expert
    bids, it is the bid of the best expected margin and it beats passing; when it passes,
    no bid did."""
    rules = RuleSet.profile(profile)
    deal = Deal(rules, seed & 3, random_hands(random.Random(seed)))
    for c in opening.split():
        deal.apply(parse_call(c))
    view = deal.view(deal.to_move)
    config = ExpertConfig()
    info = parse_auction(view.calls, view.dealer, rules)
    book = calibration()
    values = {a: v for v, a, _ in bid_options(view, info, book, config)}
    for a in view.legal_actions:
        if is_bid(a) and not is_capot(a) and not is_generale(a):
            est = team_estimate(view.hand, view.seat, view.dealer, info, rules, bid_trump(a), book)
            assert (a in values) != out_of_reach(contract_of(a, view.seat, False, False, rules), est)
    contract = info.contract()
    pass_value = current_outlook(view, info, book).margin(contract) if contract is not None else 0.0
    call = choose_call(view, config, random.Random(0)).action
    if call == PASS:
        assert all(v <= pass_value + config.bid_margin + 1e-9 for v in values.values())
    elif call in values:
        assert values[call] == pytest.approx(max(values.values()))
        assert values[call] > pass_value + config.bid_margin
