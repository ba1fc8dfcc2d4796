"""Translatable messages (issue 6, item 3): every id the engine uses has an English
template, each call site passes exactly the template's parameters, and the English text of
results and refusals is what the CLI printed before."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from strategies import SAMPLE_HANDS

from coinche.engine import Deal, IllegalAction, RuleSet, ScoringError, calculate
from coinche.engine.actions import PASS, make_bid
from coinche.engine.cards import HEARTS, card_str, parse_card, parse_cards
from coinche.engine.messages import ENGLISH, Message, render

ENGINE = Path(__file__).resolve().parents[2] / "src" / "coinche" / "engine"
BOTS = ENGINE.parent / "bots"
CALL = re.compile(r"\b(IllegalAction|ScoringError|Message\.of|say)\(")


def _calls() -> list[tuple[str, str, str]]:
    """(file, message id, argument text) of every literal-id message built in the engine."""
    out = []
    for path in sorted([*ENGINE.glob("*.py"), *BOTS.rglob("*.py")]):  # the expert is a package
        text = path.read_text()
        for m in CALL.finditer(text):
            depth, i = 1, m.end()
            while depth:
                depth += {"(": 1, ")": -1}.get(text[i], 0)
                i += 1
            args = text[m.end() : i - 1]
            if "**" in args or "class " in text[max(0, m.start() - 6) : m.start()]:
                continue  # the generic constructors themselves
            first = args.split(",")[1 if m.group(1) == "ScoringError" else 0]  # ScoringError(field, id, ...)
            ids = re.findall(r'"([a-z_.0-9]+)"', first)
            for mid in ids:
                if m.group(1) == "IllegalAction":
                    out.append((path.name, "illegal." + mid, args))
                elif m.group(1) == "ScoringError":
                    out.append((path.name, "calc." + mid, args))
                elif "." in mid:  # ids are dotted; other literals are conditions
                    out.append((path.name, mid, args))
    return out


CALLS = _calls()


def _placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_the_engine_builds_messages() -> None:
    assert len(CALLS) > 60


@pytest.mark.parametrize(("where", "message_id", "args"), CALLS)
def test_every_message_has_a_template_with_its_parameters(where: str, message_id: str, args: str) -> None:
    assert message_id in ENGLISH, f"{where}: {message_id} has no English template"
    passed = set(re.findall(r"\b(\w+)=", args))
    assert passed == _placeholders(ENGLISH[message_id]), f"{where}: {message_id}"


def test_every_template_is_used() -> None:
    used = {mid for _, mid, _ in CALLS}
    # ids chosen at run time ("score.capot_made" if made else ...) are literals too
    assert set(ENGLISH) - used == set()


def test_refusals_carry_id_and_parameters() -> None:
    rules = RuleSet.profile("classic")
    hands = SAMPLE_HANDS
    deal = Deal(rules, 3, hands)
    deal.apply(make_bid(90, HEARTS))
    with pytest.raises(IllegalAction) as e:
        deal.apply(make_bid(80, HEARTS))
    assert e.value.rule == "bid_too_low"
    assert e.value.message.id == "illegal.bid_too_low"
    assert e.value.message.args == {"call": "80H", "current": "90H"}
    assert str(e.value) == "80H is illegal: a bid must be higher than the current bid 90H"
    with pytest.raises(IllegalAction) as e:
        deal.apply(7777)
    assert e.value.rule == "not_a_call"
    # A card sent in the auction is named as the record names it, not by its number.
    with pytest.raises(IllegalAction) as e:
        deal.apply(24)
    assert e.value.rule == "not_a_call" and str(e.value) == f"{card_str(24)} is not a call"


def test_scoring_lines_render_in_another_catalogue() -> None:
    score = calculate(RuleSet.profile("online"), "100C", 120, multiplier=2)
    assert [m.text for m in score.lines] == list(score.steps)
    assert score.steps[0] == "contract 100C, coinched (x2)"
    french = {"score.contract_coinched": "contrat {call}, coinché (x2)"}
    assert render(score.lines[0], french) == "contrat 100C, coinché (x2)"
    assert render(score.lines[1], french) == score.lines[1].text  # falls back to English


def test_nested_messages_render_in_the_same_catalogue() -> None:
    line = Message.of(
        "score.takers", value=90, base=Message.of("base.card_points", points=95), melds=0, belote=20, total=205
    )
    assert line.text == "takers: 90 contract + 95 card points + 0 melds + 20 belote = 205"
    fr = {"score.takers": "preneurs : {value} + {base} = {total}", "base.card_points": "{points} points de cartes"}
    assert render(line, fr) == "preneurs : 90 + 95 points de cartes = 205"


def test_unknown_ids_do_not_render() -> None:
    with pytest.raises(KeyError):
        str(Message.of("no.such.message"))


def test_void_deal_line() -> None:
    deal = Deal(
        RuleSet.profile("online"),
        0,
        [
            parse_cards(h)
            for h in (
                "AH KH QH JS JD TS 7D 8C",
                "9S 8S 7S AS KS QS 9D 8D",
                "JH TH 9H 8H 7H AD KD QD",
                "JC TC 9C AC KC QC 7C TD",
            )
        ],
    )
    for _ in range(4):
        deal.apply(PASS)
    result = deal.result()
    assert result is not None and result.steps == ("void deal: four passes",)
    assert result.lines[0].id == "score.void"
    assert parse_card("JH") == 12


@pytest.mark.parametrize(
    ("kwargs", "field", "message_id"),
    [
        ({"contract": "95H", "points": 100}, "contract", "calc.bid_value"),
        ({"contract": "90H", "points": 170}, "points", "calc.points_range"),
        ({"contract": "90H", "points": 100, "taker_belotes": 2}, "belote", "calc.too_many_belotes"),
        ({"contract": "90H", "points": 100, "taker_melds": 25}, "taker_melds", "calc.melds_multiple"),
        ({"contract": "90H", "points": 100, "taker_melds": 20, "defense_melds": 50}, "melds", "calc.one_team_melds"),
    ],
)
def test_calculator_complaints_name_their_field(kwargs: dict[str, object], field: str, message_id: str) -> None:
    with pytest.raises(ScoringError) as e:
        calculate(RuleSet.profile("classic"), **kwargs)  # type: ignore[arg-type]
    assert e.value.field == field
    assert e.value.message.id == message_id
    assert str(e.value) == e.value.message.text
