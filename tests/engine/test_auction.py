"""The auction (RULES.md section 1): calls, their order, the end, coinche and surcoinche."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from coinche.engine.actions import COINCHE, PASS, SURCOINCHE, call_str, capot, generale, make_bid, parse_call
from coinche.engine.cards import CLUBS, HEARTS, SPADES, parse_cards
from coinche.engine.deal import Deal, Phase
from coinche.engine.errors import IllegalAction
from coinche.engine.rules import RuleSet
from coinche.engine.scoring import Contract, parse_contract

PROFILES = ("classic", "federation", "house", "online")
WITH_GENERALE = ("classic", "house")
WITHOUT_GENERALE = ("federation", "online")
WITH_SA_TA = ("classic", "house")
WITHOUT_SA_TA = ("federation", "online")

# Any full deal will do for the auction: each seat holds one suit.
HANDS = tuple(parse_cards(" ".join(r + s for r in "789TJQKA")) for s in "SHDC")


# --- helpers ------------------------------------------------------------------------


def rules_of(rules: RuleSet | str) -> RuleSet:
    return RuleSet.profile(rules) if isinstance(rules, str) else rules


def auction(rules: RuleSet | str, calls: str = "", dealer: int = 3) -> Deal:
    """A deal after the given calls (space separated), the first by dealer + 1."""
    d = Deal(rules_of(rules), dealer, HANDS)
    for call in calls.split():
        d.apply(parse_call(call))
    return d


def calls_text(d: Deal) -> list[str]:
    return [call_str(a) for a in d.legal_actions()]


def refuse(d: Deal, call: str) -> IllegalAction:
    """The call is refused, is not listed as legal, and changes nothing."""
    action = parse_call(call)
    assert action not in d.legal_actions()
    before = (tuple(d.view(s) for s in range(4)), tuple(d.legal_actions()), d.to_move)
    with pytest.raises(IllegalAction) as info:
        d.apply(action)
    assert (tuple(d.view(s) for s in range(4)), tuple(d.legal_actions()), d.to_move) == before
    return info.value


def accept(d: Deal, calls: str) -> None:
    """Each call is listed as legal, then made."""
    for call in calls.split():
        action = parse_call(call)
        assert action in d.legal_actions(), f"{call} should be legal: {calls_text(d)}"
        d.apply(action)


def contract_of(d: Deal) -> Contract:
    assert d.contract is not None
    return d.contract


# --- order of speech ----------------------------------------------------------------


@pytest.mark.parametrize("dealer", range(4))
def test_dealer_plus_one_speaks_first_then_in_seat_order(dealer: int) -> None:
    d = auction("classic", dealer=dealer)
    assert d.to_move == (dealer + 1) % 4
    for k in range(1, 4):
        d.apply(PASS)
        assert d.to_move == (dealer + 1 + k) % 4
    assert d.phase is Phase.AUCTION


@pytest.mark.parametrize("profile", PROFILES)
def test_opening_calls(profile: str) -> None:
    rules = RuleSet.profile(profile)
    d = auction(rules)
    legal = calls_text(d)
    assert legal[0] == "pass"
    assert "coinche" not in legal and "surcoinche" not in legal
    numeric = {c for c in legal if c[0].isdigit()}
    trumps = ["S", "H", "D", "C"] + (["SA", "TA"] if rules.sa_ta else [])
    assert numeric == {f"{v}{t}" for v in rules.bid_values for t in trumps}
    assert {f"capot{t}" for t in trumps} <= set(legal)
    assert any(c.startswith("generale") for c in legal) == rules.generale


# --- end of the auction ---------------------------------------------------------------


@pytest.mark.parametrize("profile", PROFILES)
def test_four_passes_void_the_deal(profile: str) -> None:
    d = auction(profile, "pass pass pass")
    assert d.phase is Phase.AUCTION
    assert not d.is_over
    d.apply(PASS)
    assert d.is_over
    assert d.phase is Phase.DONE
    assert d.contract is None
    res = d.result()
    assert res is not None
    assert res.contract is None
    assert res.score == (0, 0)
    assert res.made is None
    assert d.returns() == (0, 0)
    assert d.legal_actions() == []
    with pytest.raises(IllegalAction) as info:
        d.apply(PASS)
    assert info.value.rule == "deal_over"


@pytest.mark.parametrize("profile", PROFILES)
def test_three_passes_after_a_bid_make_the_contract(profile: str) -> None:
    d = auction(profile, "pass 80H pass pass")
    assert d.phase is Phase.AUCTION
    assert d.contract is None
    d.apply(PASS)
    assert d.phase is Phase.PLAY
    assert contract_of(d) == Contract("bid", 80, HEARTS, 1, 1)
    assert contract_of(d) == parse_contract("80H", RuleSet.profile(profile), taker=1)
    assert d.view(0).contract == contract_of(d)
    assert d.to_move == 0  # dealer + 1 leads


def test_passes_count_again_after_each_bid() -> None:
    d = auction("online", "80H pass pass 90S pass pass")
    assert d.phase is Phase.AUCTION
    d.apply(PASS)
    assert contract_of(d) == Contract("bid", 90, SPADES, 3, 1)


def test_a_player_who_passed_may_bid_later() -> None:
    d = auction("classic", "pass 80H pass pass")
    assert d.to_move == 0
    accept(d, "90S pass pass pass")
    assert contract_of(d) == Contract("bid", 90, SPADES, 0, 1)


def test_the_auction_is_over_once_the_contract_is_set() -> None:
    d = auction("online", "80H pass pass pass")
    # Nobody may speak again, not even the taker to raise its own bid.
    assert all(a < 64 for a in d.legal_actions())
    with pytest.raises(IllegalAction) as info:
        d.apply(parse_call("90H"))
    assert info.value.rule == "not_a_card"
    assert d.auction.legal_calls() == []
    with pytest.raises(IllegalAction) as info:
        d.auction.apply(PASS)
    assert info.value.rule == "auction_over"


# --- bid values -----------------------------------------------------------------------


@pytest.mark.parametrize("profile", PROFILES)
def test_bids_must_be_strictly_higher_whatever_the_trump(profile: str) -> None:
    d = auction(profile, "80H")
    legal = calls_text(d)
    assert not any(c.startswith("80") for c in legal)
    assert {"90S", "90H", "90D", "90C"} <= set(legal)
    for call in ("80S", "80C", "80H", "70S"):
        err = refuse(d, call)
        assert err.rule in ("bid_too_low", "bid_value")
    err = refuse(d, "80S")
    assert err.rule == "bid_too_low"
    assert "higher" in str(err)
    accept(d, "100S")
    assert refuse(d, "90H").rule == "bid_too_low"
    assert refuse(d, "100C").rule == "bid_too_low"
    accept(d, "110C")


@pytest.mark.parametrize("profile", PROFILES)
def test_a_player_may_overbid_the_partner(profile: str) -> None:
    d = auction(profile, "80H pass")
    accept(d, "90H")  # seat 2 raises its partner in the same trump
    d2 = auction(profile, "80H pass")
    accept(d2, "90C")  # or in another trump
    accept(d2, "pass pass pass")
    assert contract_of(d2) == Contract("bid", 90, CLUBS, 2, 1)


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("call", ["85H", "95S", "70H", "0H", "10C"])
def test_bid_values_are_multiples_of_ten_from_80(profile: str, call: str) -> None:
    d = auction(profile)
    err = refuse(d, call)
    assert err.rule == "bid_value"
    assert "multiples of 10" in str(err)


@pytest.mark.parametrize("profile", ["classic", "federation", "online"])
def test_max_bid_160(profile: str) -> None:
    d = auction(profile, "160H")
    legal = calls_text(d)
    assert not any(c[0].isdigit() for c in legal)
    assert "capotS" in legal
    assert refuse(auction(profile), "170H").rule == "bid_value"
    assert refuse(auction(profile), "180H").rule == "bid_value"


def test_house_max_bid_180() -> None:
    d = auction("house", "160H")
    legal = calls_text(d)
    assert {"170S", "170H", "180D", "180TA"} <= set(legal)
    accept(d, "170S pass 180H")
    assert "capotS" in calls_text(d)
    assert not any(c[0].isdigit() for c in calls_text(d))
    assert refuse(auction("house"), "190H").rule == "bid_value"
    # The option is per table.
    assert refuse(auction(RuleSet.profile("house", max_bid=160)), "170H").rule == "bid_value"
    accept(auction(RuleSet.profile("online", max_bid=180)), "180H")


# --- capot and générale ---------------------------------------------------------------


@pytest.mark.parametrize("profile", PROFILES)
def test_capot_ranks_above_every_numeric_bid(profile: str) -> None:
    top = RuleSet.profile(profile).max_bid
    d = auction(profile, f"{top}H")
    accept(d, "capotS")
    for call in (f"{top}C", "80C", "capotH", "capotS"):
        assert refuse(d, call).rule == "bid_too_low"
    accept(d, "pass pass pass")
    assert contract_of(d) == Contract("capot", 250, SPADES, 1, 1)


def test_capot_may_open_the_auction() -> None:
    d = auction("online")
    accept(d, "capotC pass pass pass")
    assert contract_of(d) == Contract("capot", 250, CLUBS, 0, 1)


@pytest.mark.parametrize(("profile", "value"), [("classic", 500), ("house", 300)])
def test_generale_ranks_above_capot(profile: str, value: int) -> None:
    d = auction(profile, "120H capotS")
    accept(d, "generaleH")
    for call in ("capotD", "generaleS", "generaleH", "160C"):
        assert refuse(d, call).rule == "bid_too_low"
    accept(d, "pass pass pass")
    assert contract_of(d) == Contract("generale", value, HEARTS, 2, 1)


@pytest.mark.parametrize("profile", WITH_GENERALE)
def test_generale_may_be_called_over_a_numeric_bid(profile: str) -> None:
    d = auction(profile, "80H")
    accept(d, "generaleS")


@pytest.mark.parametrize("profile", WITHOUT_GENERALE)
def test_no_generale_where_the_profile_has_none(profile: str) -> None:
    d = auction(profile)
    assert not any(c.startswith("generale") for c in calls_text(d))
    err = refuse(d, "generaleH")
    assert err.rule == "no_generale"
    d = auction(profile, "80H capotS")
    assert refuse(d, "generaleH").rule == "no_generale"


def test_generale_option_off() -> None:
    rules = RuleSet.profile("classic", generale=False)
    d = auction(rules)
    assert not any(c.startswith("generale") for c in calls_text(d))
    assert refuse(d, "generaleS").rule == "no_generale"
    accept(auction(RuleSet.profile("online", generale=True)), "generaleS")


# --- SA and TA ------------------------------------------------------------------------


@pytest.mark.parametrize("profile", WITH_SA_TA)
@pytest.mark.parametrize("call", ["80SA", "120TA", "capotSA", "capotTA", "generaleTA"])
def test_sa_ta_bids_where_allowed(profile: str, call: str) -> None:
    d = auction(profile)
    accept(d, f"{call} pass pass pass")
    assert contract_of(d).call == call


@pytest.mark.parametrize("profile", WITHOUT_SA_TA)
@pytest.mark.parametrize("call", ["80SA", "120TA", "capotSA", "capotTA"])
def test_sa_ta_bids_illegal_where_off(profile: str, call: str) -> None:
    d = auction(profile)
    assert not any(c.endswith(("SA", "TA")) for c in calls_text(d))
    assert refuse(d, call).rule == "no_sa_ta"


def test_sa_ta_is_an_online_option() -> None:
    d = auction(RuleSet.profile("online", sa_ta=True))
    assert {"80SA", "80TA", "capotSA"} <= set(calls_text(d))
    accept(d, "90TA pass pass pass")
    assert contract_of(d).call == "90TA"
    assert refuse(auction(RuleSet.profile("classic", sa_ta=False)), "80SA").rule == "no_sa_ta"


# --- coinche --------------------------------------------------------------------------


@pytest.mark.parametrize("profile", PROFILES)
def test_coinche_needs_a_bid(profile: str) -> None:
    d = auction(profile)
    assert refuse(d, "coinche").rule == "coinche_no_bid"
    d = auction(profile, "pass pass")
    assert refuse(d, "coinche").rule == "coinche_no_bid"


@pytest.mark.parametrize("profile", PROFILES)
def test_coinche_only_by_an_opponent(profile: str) -> None:
    d = auction(profile, "80H pass")
    # Seat 2 is the bidder's partner.
    assert refuse(d, "coinche").rule == "coinche_own_team"
    accept(d, "pass")
    # Seat 3, an opponent, may coinche on its turn.
    accept(d, "coinche")
    d = auction(profile, "80H")
    accept(d, "coinche")


@pytest.mark.parametrize("profile", PROFILES)
def test_coinche_only_against_the_current_bid(profile: str) -> None:
    # Seat 3 is an opponent of seat 0's 80H, but the current bid is its partner's 90S.
    d = auction(profile, "80H 90S pass")
    err = refuse(d, "coinche")
    assert err.rule == "coinche_own_team"
    d = auction(profile, "80H 90S")
    accept(d, "coinche pass pass pass")
    assert contract_of(d) == Contract("bid", 90, SPADES, 1, 2)


@pytest.mark.parametrize("profile", PROFILES)
def test_after_coinche_nobody_bids(profile: str) -> None:
    d = auction(profile, "80H coinche")
    # Seat 2, bidder's partner: pass or surcoinche only.
    assert d.legal_actions() == [PASS, SURCOINCHE]
    assert refuse(d, "90H").rule == "bid_after_coinche"
    assert refuse(d, "capotH").rule == "bid_after_coinche"
    accept(d, "pass")
    # Seat 3, partner of the coincher: pass only.
    assert d.legal_actions() == [PASS]
    assert refuse(d, "90S").rule == "bid_after_coinche"
    assert refuse(d, "coinche").rule == "coinche_twice"
    assert refuse(d, "surcoinche").rule == "surcoinche_defense"


@pytest.mark.parametrize("profile", PROFILES)
def test_three_passes_after_coinche_end_the_auction(profile: str) -> None:
    d = auction(profile, "80H coinche pass pass")
    assert d.phase is Phase.AUCTION
    accept(d, "pass")
    assert d.phase is Phase.PLAY
    assert contract_of(d) == Contract("bid", 80, HEARTS, 0, 2)


def test_coinche_after_passes_resets_the_count() -> None:
    d = auction("classic", "80H pass pass coinche pass pass")
    assert d.phase is Phase.AUCTION
    accept(d, "pass")
    assert contract_of(d) == Contract("bid", 80, HEARTS, 0, 2)


@pytest.mark.parametrize("profile", ["classic", "federation", "online"])
@pytest.mark.parametrize("prefix", ["80H coinche", "80H coinche pass pass"])
def test_surcoinche_by_the_bidding_team_ends_the_auction(profile: str, prefix: str) -> None:
    d = auction(profile, prefix)
    assert SURCOINCHE in d.legal_actions()
    accept(d, "surcoinche")
    assert d.phase is Phase.PLAY
    assert contract_of(d) == Contract("bid", 80, HEARTS, 0, 4)
    assert d.to_move == 0


def test_surcoinche_needs_a_coinche_and_the_bidding_team() -> None:
    d = auction("classic", "80H pass")
    assert refuse(d, "surcoinche").rule == "surcoinche_no_coinche"
    d = auction("classic", "80H coinche pass")
    assert refuse(d, "surcoinche").rule == "surcoinche_defense"
    d = auction("classic")
    assert refuse(d, "surcoinche").rule == "surcoinche_no_coinche"


def test_the_coincher_cannot_coinche_again_later() -> None:
    d = auction("online", "80H coinche pass pass")
    # Seat 0 (bidder) to move: no coinche for its own bid.
    assert COINCHE not in d.legal_actions()
    assert refuse(d, "coinche").rule in ("coinche_twice", "coinche_own_team")


@pytest.mark.parametrize("profile", PROFILES)
def test_coinche_of_a_capot(profile: str) -> None:
    d = auction(profile, "capotH coinche pass pass pass")
    assert contract_of(d) == Contract("capot", 250, HEARTS, 0, 2)


# --- multipliers ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "calls", "mult"),
    [
        (RuleSet.profile("classic"), "80H pass pass pass", 1),
        (RuleSet.profile("classic"), "80H coinche pass pass pass", 2),
        (RuleSet.profile("classic"), "80H coinche surcoinche", 4),
        (RuleSet.profile("federation"), "80H coinche surcoinche", 4),
        (RuleSet.profile("online"), "80H coinche pass pass surcoinche", 4),
        (RuleSet.profile("house"), "80H coinche pass pass pass", 2),
        (RuleSet.profile("house"), "80H coinche surcoinche", 3),
        (RuleSet.profile("house", target=2010), "80H coinche surcoinche", 3),
        (RuleSet.profile("house", target=2999), "80H coinche surcoinche", 3),
        (RuleSet.profile("house", target=3000), "80H coinche surcoinche", 4),
        (RuleSet.profile("house", target=3010), "80H coinche surcoinche", 4),
        (RuleSet.profile("classic", target=700), "80H coinche surcoinche", 4),
    ],
)
def test_multiplier(rules: RuleSet, calls: str, mult: int) -> None:
    d = auction(rules, calls)
    assert d.phase is Phase.PLAY
    assert contract_of(d).multiplier == mult


def test_surcoinche_multiplier_property() -> None:
    assert RuleSet.profile("house").surcoinche_multiplier == 3
    assert RuleSet.profile("house", target=3010).surcoinche_multiplier == 4
    for profile in ("classic", "federation", "online"):
        assert RuleSet.profile(profile).surcoinche_multiplier == 4
        assert RuleSet.profile(profile, target=500).surcoinche_multiplier == 4


# --- refused calls change nothing -----------------------------------------------------


def test_refused_calls_change_nothing_in_a_long_auction() -> None:
    d = auction("classic", "80H pass 90H 100S")
    calls_before = list(d.auction.calls)
    for call in ("90C", "100D", "surcoinche", "85H", "190H", "70S"):
        refuse(d, call)
    assert d.auction.calls == calls_before
    accept(d, "110H coinche")
    assert refuse(d, "120H").rule == "bid_after_coinche"
    accept(d, "pass pass pass")
    assert contract_of(d) == Contract("bid", 110, HEARTS, 0, 2)


def test_calls_are_recorded_in_the_views() -> None:
    d = auction("house", "pass 80H pass 90C", dealer=1)
    expected = tuple(parse_call(c) for c in ("pass", "80H", "pass", "90C"))
    for seat in range(4):
        assert d.view(seat).calls == expected
    assert d.to_move == (1 + 1 + 4) % 4


@pytest.mark.parametrize("bad", ["", "80", "H80", "capot", "80X", "pas"])
def test_parse_call_rejects_garbage(bad: str) -> None:
    with pytest.raises(ValueError):
        parse_call(bad)


def _seq(calls: Sequence[str]) -> str:
    return " ".join(calls)


def test_contract_records_the_last_bid_and_its_author() -> None:
    d = auction("classic", _seq(["80H", "90S", "100H", "pass", "pass", "110SA", "pass", "pass", "pass"]))
    c = contract_of(d)
    assert (c.call, c.taker, c.team, c.multiplier) == ("110SA", 1, 1, 1)


# --- legal_calls and check agree -------------------------------------------------------

ALL_CALLS = (
    [PASS, COINCHE, SURCOINCHE]
    + [make_bid(v, t) for v in range(0, 300, 5) for t in range(6)]
    + [capot(t) for t in range(6)]
    + [generale(t) for t in range(6)]
)


@pytest.mark.parametrize(
    "rules",
    [
        RuleSet.profile("classic"),
        RuleSet.profile("federation"),
        RuleSet.profile("house"),
        RuleSet.profile("house", target=3010),
        RuleSet.profile("online"),
        RuleSet.profile("online", sa_ta=True, generale=True, max_bid=180),
    ],
    ids=lambda r: f"{r.name}-{r.target}-{r.sa_ta}",
)
def test_legal_calls_are_exactly_the_accepted_calls(rules: RuleSet) -> None:
    rng = random.Random(1234)
    for _ in range(60):
        d = Deal(rules, rng.randrange(4), HANDS)
        while d.phase is Phase.AUCTION:
            legal = set(d.legal_actions())
            for call in ALL_CALLS:
                try:
                    d.auction.check(call)
                except IllegalAction:
                    assert call not in legal, call_str(call)
                else:
                    assert call in legal, call_str(call)
            # Favour passes so auctions end, but bid, coinche and surcoinche too.
            choices = sorted(legal)
            call = PASS if rng.random() < 0.55 else rng.choice(choices[: 1 + rng.randrange(len(choices))])
            d.apply(call)
        c = d.contract
        if c is not None:
            assert c.multiplier in (1, 2, rules.surcoinche_multiplier)
            assert c.kind != "generale" or rules.generale
