"""Scoring one deal (RULES.md section 5): every worked example of the seeds and rules.

Each case goes through ``parse_contract`` and ``scoring.score_deal`` with ``DealFacts``
(card points with the last-trick bonus, belotes, meld points taken, sweeps).
"""

from __future__ import annotations

from typing import Any

import pytest

from coinche.engine.cards import ALL_TRUMP, CLUBS, HEARTS, NO_TRUMP, SPADES
from coinche.engine.rules import RuleSet
from coinche.engine.scoring import (
    Contract,
    DealFacts,
    ScoringError,
    check_facts,
    deal_total,
    is_made,
    parse_contract,
    round_award,
    score_deal,
)

PROFILES = ("classic", "federation", "house", "online")


def F(taker: int, defense: int, **kw: Any) -> DealFacts:
    return DealFacts(taker_points=taker, defense_points=defense, **kw)


def rules_of(rules: RuleSet | str) -> RuleSet:
    return RuleSet.profile(rules) if isinstance(rules, str) else rules


def score(rules: RuleSet | str, call: str, facts: DealFacts, mult: int = 1) -> tuple[bool, int, int]:
    """(made, takers' award, defense's award), after checking the facts are possible."""
    r = rules_of(rules)
    contract = parse_contract(call, r, taker=0, multiplier=mult)
    check_facts(r, contract, facts)
    sc = score_deal(r, contract, facts)
    assert sc.steps and sc.steps[-1] == f"score: takers {sc.taker}, defense {sc.defense}"
    return sc.made, sc.taker, sc.defense


def case(profile: str, call: str, facts: DealFacts, mult: int, made: bool, taker: int, defense: int, id: str) -> Any:
    return pytest.param(profile, call, facts, mult, (made, taker, defense), id=id)


# --- online (RULES 5.4, seed 004) ---------------------------------------------------

ONLINE = [
    case("online", "100H", F(112, 50), 1, True, 212, 50, "seed: 100H 112 made -> 212 and 50"),
    case("online", "120S", F(110, 52), 1, False, 0, 280, "seed: 120S 110 failed -> defense 280"),
    case("online", "100C", F(120, 42), 2, True, 360, 0, "seed: 100C coinched made -> 360"),
    case("online", "90D", F(80, 82), 4, False, 0, 520, "seed: 90D surcoinched failed -> 520"),
    case("online", "110H", F(162, 0, sweep="taker"), 1, True, 360, 0, "seed: 110H taker sweep -> 360"),
    case("online", "110H", F(162, 0, sweep="taker_alone"), 1, True, 360, 0, "taker alone sweep counts 250 too"),
    case("online", "80H", F(80, 82), 1, True, 160, 82, "no duty to beat the defense"),
    case("online", "100H", F(90, 72, taker_belotes=1), 1, True, 210, 72, "belote counts toward the bid"),
    case("online", "100H", F(90, 72), 1, False, 0, 260, "90 without belote fails 100"),
    case("online", "100H", F(85, 77, defense_belotes=1), 1, False, 0, 280, "defense keeps its belote"),
    case("online", "100H", F(85, 77, taker_belotes=1), 1, True, 205, 77, "105 with belote made"),
    case("online", "capotH", F(162, 0, sweep="taker"), 1, True, 500, 0, "capot made 250 + 250"),
    case("online", "capotH", F(150, 12), 1, False, 0, 410, "capot failed 160 + 250"),
    case("online", "100H", F(120, 42, taker_belotes=1), 2, True, 380, 0, "coinched made keeps belote"),
    case("online", "100H", F(70, 92, taker_belotes=1), 2, False, 20, 360, "coinched failed: takers belote"),
    case("online", "80H", F(0, 162, sweep="defense"), 1, False, 0, 240, "defense sweep: still 160"),
    case("online", "160S", F(160, 2), 4, True, 800, 0, "surcoinched made 160 + 160x4"),
]

# --- house (RULES 5.3, seed 003) ----------------------------------------------------

HOUSE = [
    case("house", "100H", F(96, 66, taker_belotes=1), 1, True, 220, 60, "seed: 100 bid 116 with belote"),
    case("house", "110H", F(88, 74, taker_belotes=1), 1, False, 20, 270, "seed: 110 bid 108 with belote"),
    case("house", "capotH", F(162, 0, sweep="taker"), 1, True, 500, 0, "capot made 500"),
    case("house", "capotH", F(162, 0, sweep="taker_alone"), 1, True, 500, 0, "capot made alone 500"),
    case("house", "capotH", F(150, 12), 1, False, 0, 410, "capot failed 410"),
    case("house", "generaleH", F(162, 0, sweep="taker_alone"), 1, True, 600, 0, "generale made 600"),
    case("house", "generaleH", F(162, 0, sweep="taker"), 1, False, 0, 460, "generale failed 460"),
    case("house", "capotH", F(162, 0, sweep="taker"), 2, True, 660, 0, "coinched capot made 660"),
    case("house", "capotH", F(150, 12), 2, False, 0, 660, "coinched capot failed 660"),
    case("house", "generaleH", F(162, 0, sweep="taker_alone"), 2, True, 760, 0, "coinched generale made 760"),
    case("house", "generaleH", F(100, 62), 2, False, 0, 760, "coinched generale failed 760"),
    case("house", "120H", F(126, 36), 1, True, 250, 30, "seed: attack 126 -> 130, defense 36 -> 30"),
    case("house", "120H", F(125, 37), 1, True, 240, 40, "attack 125 -> 120, defense 37 -> 40"),
    case("house", "80H", F(81, 81), 1, False, 0, 240, "seed: 81-81 at 80 fails"),
    case("house", "80H", F(81, 81, taker_belotes=1), 1, False, 20, 240, "81-81 fails even with belote"),
    case("house", "80H", F(82, 80), 1, True, 160, 80, "82 makes 80 (162 -> 160)"),
    case("house", "100H", F(82, 80, taker_belotes=1), 1, True, 200, 80, "seed: from 82 belote makes 100"),
    case("house", "110H", F(162, 0, sweep="taker"), 1, True, 270, 0, "unannounced capot is nothing special"),
    case("house", "100H", F(120, 42), 2, True, 360, 0, "coinche = bid x 2 + 160"),
    case("house", "100H", F(70, 92), 2, False, 0, 360, "coinched failed = bid x 2 + 160"),
    case("house", "100H", F(120, 42), 3, True, 460, 0, "surcoinche at 2010 = bid x 3 + 160"),
    case("house", "90H", F(50, 112, defense_belotes=1), 1, False, 0, 270, "failed: defense 90 + 160 + belote"),
    case("house", "80H", F(0, 162, sweep="defense"), 1, False, 0, 240, "defense sweep: 80 + 160"),
    case("house", "180H", F(162, 0, sweep="taker"), 1, False, 0, 340, "180 needs the belote: 162 fails"),
    case("house", "180H", F(162, 0, sweep="taker", taker_belotes=1), 1, True, 360, 0, "180 made with belote"),
]

# --- federation (RULES 5.2, seed 001) ----------------------------------------------

FEDERATION = [
    case("federation", "90H", F(89, 73), 1, False, 0, 250, "seed: 90H with 89 fails, 250 and 0"),
    case("federation", "80H", F(85, 77), 1, True, 170, 80, "165 -> 170, 77 -> 80"),
    case("federation", "80H", F(84, 78), 1, True, 160, 80, "164 -> 160, 78 -> 80"),
    case("federation", "80H", F(252, 0, sweep="taker"), 1, True, 330, 0, "sweep totals 252: 332 -> 330"),
    case(
        "federation",
        "80H",
        F(252, 0, sweep="taker", taker_melds=20, defense_melds=50),
        1,
        True,
        400,
        0,
        "sweep: the defense's melds pass to the takers",
    ),
    case("federation", "100H", F(90, 72, taker_melds=20), 1, True, 210, 70, "melds count for the contract"),
    case("federation", "100H", F(90, 72), 1, False, 0, 260, "same without melds fails"),
    case("federation", "80H", F(81, 81), 1, False, 0, 240, "equality fails"),
    case("federation", "80H", F(91, 71, defense_melds=20), 1, False, 0, 260, "91 vs 71 + 20 melds fails"),
    case("federation", "80H", F(91, 71, defense_belotes=1), 1, False, 0, 260, "91 vs 71 + 20 belote fails"),
    case("federation", "80H", F(100, 62, defense_melds=20), 1, True, 180, 80, "defense keeps its valid melds"),
    case("federation", "100H", F(40, 122, taker_melds=50), 1, False, 0, 310, "failed: defense takes the melds"),
    case(
        "federation",
        "100H",
        F(110, 52, taker_melds=20, taker_belotes=1),
        2,
        True,
        600,
        0,
        "coinched made: (160 + melds + belote + bid) x 2",
    ),
    case("federation", "80H", F(252, 0, sweep="taker"), 2, True, 660, 0, "coinched sweep: (250 + 80) x 2"),
    case("federation", "100H", F(110, 52), 4, True, 1040, 0, "surcoinched made: (160 + 100) x 4"),
    case("federation", "100H", F(70, 92, taker_belotes=1), 2, False, 20, 520, "coinched failed, belote kept"),
    case(
        "federation",
        "100H",
        F(70, 92, defense_belotes=1),
        2,
        False,
        0,
        560,
        "coinched failed: defense belote multiplied",
    ),
    case("federation", "80H", F(0, 252, sweep="defense"), 1, False, 0, 240, "I-11: defense sweep still 160"),
    case("federation", "capotH", F(252, 0, sweep="taker"), 1, True, 500, 0, "capot made 252 + 250 -> 500"),
    case("federation", "capotH", F(152, 10), 1, False, 0, 410, "capot failed 160 + 250"),
    case("federation", "100H", F(105, 57), 1, True, 210, 60, "205 -> 210, 57 -> 60"),
]

# --- classic (RULES 5.1, seed 000) -------------------------------------------------

CLASSIC = [
    case("classic", "generaleH", F(162, 0, sweep="taker"), 1, False, 0, 660, "seed: failed generale 660"),
    case("classic", "generaleH", F(120, 42), 1, False, 0, 660, "failed generale without sweep 660"),
    case("classic", "capotH", F(150, 12), 1, False, 0, 410, "failed capot 410"),
    case("classic", "80H", F(0, 162, sweep="defense"), 1, False, 0, 330, "defense sweep: 250 replaces 160"),
    case("classic", "capotH", F(0, 162, sweep="defense"), 1, False, 0, 500, "capot failed with defense sweep"),
    case("classic", "capotH", F(162, 0, sweep="taker"), 1, True, 500, 0, "made capot 250 + 250"),
    case("classic", "generaleH", F(162, 0, sweep="taker_alone"), 1, True, 1000, 0, "made generale 500 + 500"),
    case("classic", "80H", F(162, 0, sweep="taker"), 1, True, 330, 0, "numeric sweep counts 250"),
    case("classic", "80H", F(80, 82), 1, False, 0, 240, "80 with 80 vs 82 fails"),
    case("classic", "80H", F(82, 80), 1, True, 162, 80, "80 with 82 made"),
    case("classic", "90H", F(91, 71, defense_belotes=1), 1, False, 0, 270, "defense belote makes it fail"),
    case("classic", "90H", F(75, 87, taker_belotes=1), 1, True, 185, 87, "taker belote counts toward making"),
    case("classic", "100H", F(90, 72, taker_melds=50), 1, False, 0, 310, "melds never count toward making"),
    case("classic", "80H", F(100, 62, taker_melds=20), 1, True, 200, 62, "made: melds added to the score"),
    case("classic", "80H", F(100, 62, defense_melds=20), 1, True, 180, 82, "defense adds the melds it takes"),
    case("classic", "100H", F(70, 92, cancelled_melds=40), 1, False, 0, 300, "I-10: failed, defense takes a tie"),
    case("classic", "100H", F(110, 52, cancelled_melds=40), 1, True, 210, 52, "made: tied melds cancelled"),
    case(
        "classic",
        "100H",
        F(110, 52, taker_belotes=1, taker_melds=20),
        2,
        True,
        480,
        0,
        "I-7: (100 + 110 + 20) x 2, belote not multiplied",
    ),
    case("classic", "100H", F(110, 52, defense_belotes=1), 2, True, 420, 20, "I-7: the other team only its belote"),
    case("classic", "100H", F(70, 92, taker_belotes=1), 2, False, 20, 520, "I-7 failed: (160 + 100) x 2"),
    case(
        "classic",
        "100H",
        F(70, 92, defense_belotes=1, defense_melds=50),
        2,
        False,
        0,
        640,
        "I-7 failed: (160 + 100 + 50) x 2 + 20",
    ),
    case("classic", "100H", F(110, 52), 4, True, 840, 0, "surcoinche x4"),
    case("classic", "capotH", F(162, 0, sweep="taker"), 2, True, 1000, 0, "coinched capot made"),
    case("classic", "80H", F(162, 0, sweep="taker"), 2, True, 660, 0, "coinched sweep forfeit (80 + 250) x 2"),
    case("classic", "generaleH", F(120, 42), 2, False, 0, 1320, "coinched failed generale"),
    case("classic", "80H", F(0, 162, sweep="defense"), 2, False, 0, 660, "coinched failed with defense sweep"),
    case("classic", "100SA", F(110, 52), 1, True, 210, 52, "SA contract"),
    case("classic", "100TA", F(90, 72, taker_belotes=2), 1, True, 230, 72, "two TA belotes count"),
]


@pytest.mark.parametrize(("profile", "call", "facts", "mult", "expected"), ONLINE + HOUSE + FEDERATION + CLASSIC)
def test_worked_examples(profile: str, call: str, facts: DealFacts, mult: int, expected: tuple[bool, int, int]) -> None:
    assert score(profile, call, facts, mult) == expected


def test_house_surcoinche_depends_on_the_target() -> None:
    facts = F(120, 42)
    assert score(RuleSet.profile("house", target=2010), "100H", facts, 3) == (True, 460, 0)
    assert score(RuleSet.profile("house", target=3010), "100H", facts, 4) == (True, 560, 0)
    assert score(RuleSet.profile("house", target=3010), "100H", F(70, 92), 4) == (False, 0, 560)


def test_federation_coinched_made_counts_the_defenses_valid_melds() -> None:
    # RULES 5.2: coinched made: takers (160 + M_valid + B_t + V) x x, defense B_d only;
    # seed 001: "plus both sides' ordinary melds". The defense's valid 20 goes in.
    assert score("federation", "100H", F(110, 52, defense_melds=20), 2) == (True, 560, 0)


# --- belote toward making, in every profile ------------------------------------------


@pytest.mark.parametrize("profile", PROFILES)
def test_belote_counts_toward_making_in_every_profile(profile: str) -> None:
    made, taker, _ = score(profile, "100H", F(90, 72, taker_belotes=1))
    assert made
    assert taker >= 200
    made, taker, defense = score(profile, "100H", F(90, 72))
    assert not made
    assert taker == 0
    assert defense == 260


@pytest.mark.parametrize("profile", PROFILES)
def test_belote_is_kept_on_a_failed_contract(profile: str) -> None:
    made, taker, _ = score(profile, "150H", F(100, 62, taker_belotes=1))
    assert not made
    assert taker == 20
    made, taker, _ = score(profile, "capotH", F(150, 12, taker_belotes=1))
    assert not made
    assert taker == 20


# --- rounding ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("profile", "amount", "attack", "expected"),
    [
        ("federation", 85, True, 90),
        ("federation", 84, True, 80),
        ("federation", 85, False, 90),
        ("federation", 84, False, 80),
        ("federation", 250, False, 250),
        ("house", 126, True, 130),
        ("house", 116, True, 120),
        ("house", 115, True, 110),
        ("house", 36, False, 30),
        ("house", 37, False, 40),
        ("house", 66, False, 60),
        ("house", 67, False, 70),
        ("classic", 87, True, 87),
        ("online", 87, False, 87),
    ],
)
def test_round_award(profile: str, amount: int, attack: bool, expected: int) -> None:
    assert round_award(amount, RuleSet.profile(profile), attack) == expected


def test_decide_before_rounding() -> None:
    # Federation: 89 rounds to 90 but the contract 90 is failed.
    assert not is_made(RuleSet.profile("federation"), parse_contract("90H", RuleSet.profile("federation")), F(89, 73))
    # House: 108 with belote rounds to 110 but fails 110.
    house = RuleSet.profile("house")
    assert not is_made(house, parse_contract("110H", house), F(88, 74, taker_belotes=1))


def test_rounding_is_a_table_option() -> None:
    online_rounded = RuleSet.profile("online", rounding="nearest10")
    assert score(online_rounded, "100H", F(112, 50)) == (True, 210, 50)
    fed_plain = RuleSet.profile("federation", rounding="none")
    assert score(fed_plain, "80H", F(85, 77)) == (True, 165, 77)


def test_deal_total() -> None:
    assert deal_total(RuleSet.profile("federation"), sweep=True) == 252
    assert deal_total(RuleSet.profile("federation"), sweep=False) == 162
    for profile in ("classic", "house", "online"):
        assert deal_total(RuleSet.profile(profile), sweep=True) == 162


# --- DealScore by team ----------------------------------------------------------------


def test_scores_by_team() -> None:
    rules = RuleSet.profile("online")
    sc = score_deal(rules, parse_contract("100H", rules, taker=1), F(112, 50))
    assert sc.by_team(1) == (50, 212)
    assert sc.by_team(0) == (212, 50)


# --- parse_contract --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("profile", "text", "expected"),
    [
        ("classic", "90H", Contract("bid", 90, HEARTS, 0, 1)),
        ("classic", "120SA", Contract("bid", 120, NO_TRUMP, 0, 1)),
        ("classic", "160TA", Contract("bid", 160, ALL_TRUMP, 0, 1)),
        ("classic", "capotS", Contract("capot", 250, SPADES, 0, 1)),
        ("classic", "generaleTA", Contract("generale", 500, ALL_TRUMP, 0, 1)),
        ("house", "generaleC", Contract("generale", 300, CLUBS, 0, 1)),
        ("house", "180H", Contract("bid", 180, HEARTS, 0, 1)),
        ("online", " 80c ", Contract("bid", 80, CLUBS, 0, 1)),
        ("federation", "capotH", Contract("capot", 250, HEARTS, 0, 1)),
    ],
)
def test_parse_contract(profile: str, text: str, expected: Contract) -> None:
    assert parse_contract(text, RuleSet.profile(profile)) == expected


def test_parse_contract_taker_and_multiplier() -> None:
    c = parse_contract("100D", RuleSet.profile("online"), taker=3, multiplier=2)
    assert (c.taker, c.team, c.multiplier, c.call) == (3, 1, 2, "100D")


@pytest.mark.parametrize(
    ("profile", "text"),
    [
        ("classic", "abc"),
        ("classic", ""),
        ("classic", "H90"),
        ("classic", "85H"),
        ("classic", "70H"),
        ("classic", "170H"),
        ("house", "190H"),
        ("classic", "90X"),
        ("classic", "90"),
        ("classic", "capot"),
        ("classic", "capotX"),
        ("online", "generaleH"),
        ("federation", "generaleS"),
        ("online", "90SA"),
        ("federation", "capotTA"),
    ],
)
def test_parse_contract_errors(profile: str, text: str) -> None:
    with pytest.raises(ScoringError):
        parse_contract(text, RuleSet.profile(profile))


# --- check_facts ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("profile", "call", "facts", "mult"),
    [
        ("classic", "90H", F(170, -8), 1),
        ("classic", "90H", F(-1, 163), 1),
        ("classic", "90H", F(100, 70), 1),
        ("classic", "90H", F(100, 50), 1),
        ("classic", "90H", F(150, 12, sweep="taker"), 1),
        ("classic", "90H", F(150, 12, sweep="taker_alone"), 1),
        ("classic", "90H", F(10, 152, sweep="defense"), 1),
        ("classic", "90H", F(252, 0, sweep="taker"), 1),
        ("federation", "90H", F(162, 0, sweep="taker"), 1),
        ("federation", "90H", F(0, 162, sweep="defense"), 1),
        ("federation", "90H", F(252, 0), 1),
        ("classic", "90H", F(100, 62, sweep="bogus"), 1),  # type: ignore[arg-type]
        ("classic", "90H", F(100, 62, taker_belotes=1, defense_belotes=1), 1),
        ("classic", "90H", F(100, 62, taker_belotes=2), 1),
        ("classic", "90H", F(100, 62, taker_belotes=-1), 1),
        ("classic", "90SA", F(100, 62, taker_belotes=1), 1),
        ("classic", "90TA", F(100, 62, taker_belotes=3, defense_belotes=2), 1),
        ("house", "90H", F(100, 62, taker_melds=20), 1),
        ("online", "90H", F(100, 62, defense_melds=50), 1),
        ("classic", "90H", F(100, 62, taker_melds=25), 1),
        ("classic", "90H", F(100, 62, defense_melds=-20), 1),
        ("classic", "90H", F(100, 62), 3),
        ("classic", "90H", F(100, 62), 8),
        ("house", "90H", F(100, 62), 4),
        ("online", "90H", F(100, 62), 3),
    ],
)
def test_check_facts_errors(profile: str, call: str, facts: DealFacts, mult: int) -> None:
    rules = RuleSet.profile(profile)
    contract = parse_contract(call, rules, multiplier=1)
    contract = Contract(contract.kind, contract.value, contract.trump, contract.taker, mult)
    with pytest.raises(ScoringError):
        check_facts(rules, contract, facts)


@pytest.mark.parametrize(
    ("profile", "call", "facts", "mult"),
    [
        ("classic", "90H", F(162, 0, sweep="taker"), 1),
        ("classic", "90H", F(0, 162), 1),
        ("classic", "90TA", F(100, 62, taker_belotes=2, defense_belotes=2), 1),
        ("federation", "90H", F(252, 0, sweep="taker_alone", taker_melds=150), 1),
        ("federation", "90H", F(0, 252, sweep="defense"), 4),
        ("house", "90H", F(100, 62), 3),
        ("house", "90H", F(100, 62), 2),
        ("online", "90H", F(100, 62, defense_belotes=1), 4),
    ],
)
def test_check_facts_accepts_possible_deals(profile: str, call: str, facts: DealFacts, mult: int) -> None:
    rules = RuleSet.profile(profile)
    check_facts(rules, parse_contract(call, rules, multiplier=mult), facts)


def test_house_surcoinche_multiplier_4_only_from_3000() -> None:
    rules = RuleSet.profile("house", target=3010)
    check_facts(rules, parse_contract("90H", rules, multiplier=4), F(100, 62))
    with pytest.raises(ScoringError):
        check_facts(rules, parse_contract("90H", rules, multiplier=3), F(100, 62))


def test_parse_contract_follows_table_options() -> None:
    with pytest.raises(ScoringError):
        parse_contract("generaleH", RuleSet.profile("classic", generale=False))
    with pytest.raises(ScoringError):
        parse_contract("80SA", RuleSet.profile("classic", sa_ta=False))
    assert parse_contract("80SA", RuleSet.profile("online", sa_ta=True)).trump == NO_TRUMP
    assert parse_contract("170H", RuleSet.profile("online", max_bid=180)).value == 170
    with pytest.raises(ScoringError):
        parse_contract("170H", RuleSet.profile("house", max_bid=160))
