"""The after-deal analysis and ``coinche solve``."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from coinche.bots.analysis import analyse_deal, card_values, format_table
from coinche.bots.solver import Position, solve
from coinche.cli import main
from coinche.engine.actions import PASS, make_bid
from coinche.engine.cards import parse_cards
from coinche.engine.deal import Deal, random_hands
from coinche.engine.record import deal_record
from coinche.engine.rules import RuleSet


@pytest.mark.parametrize("profile", ["classic", "federation", "online"])
def test_table_rows_cover_every_trump_and_add_up(profile: str) -> None:
    rules = RuleSet.profile(profile)
    hands = random_hands(random.Random(2))
    rows = analyse_deal(rules, 1, hands)
    assert [r.trump for r in rows] == ([0, 1, 2, 3, 4, 5] if rules.sa_ta else [0, 1, 2, 3])
    for r in rows:
        assert sum(r.points) in (162, 152 + rules.last_trick_sweep)
        for taker, bid in enumerate(r.best_bid):
            if bid is not None:
                assert bid in rules.bid_values
                assert r.points[taker & 1] + 20 * 4 >= bid  # never above points plus belotes
    assert "team 0" in format_table(rows)


def mid_deal() -> Deal:
    deal = Deal(RuleSet.profile("classic"), 0, random_hands(random.Random(4)))
    for call in (make_bid(90, 1), PASS, PASS, PASS):
        deal.apply(call)
    for _ in range(5):
        acts = deal.legal_actions()
        deal.apply(acts[0])
    return deal


def test_card_values_match_the_solver() -> None:
    deal = mid_deal()
    values = card_values(deal)
    assert set(values) == {a for a in deal.legal_actions() if a < 32}
    assert max(values.values()) == solve(Position.from_deal(deal), deal.to_move & 1)


def test_solve_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(deal_record(mid_deal())))
    assert main(["solve", str(path)]) == 0
    out = capsys.readouterr().out
    assert "trump  team 0  team 1" in out and "points its team secures after each card" in out
    assert main(["solve", "--json", str(path)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert len(doc["trumps"]) == 6 and doc["card_values"]
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["solve", str(bad)]) == 2
    assert "not valid JSON" in capsys.readouterr().err


def test_sweeps_show_capot_and_generale() -> None:
    hands = [
        parse_cards(h)
        for h in (
            "JS 9S AS TS KS QS 8S 7S",
            "AH TH KH QH AD TD KD QD",
            "JH 9H 8H 7H JD 9D 8D 7D",
            "AC TC KC QC JC 9C 8C 7C",
        )
    ]
    classic = {r.trump: r for r in analyse_deal(RuleSet.profile("classic"), 3, hands)}
    assert classic[0].points == (162, 0)
    assert classic[0].sweep == ("generale", None, "capot", None)
    assert classic[0].best_bid[0] == 160
    assert "generaleS / - / capotS / -" in format_table([classic[0]])
    online = {r.trump: r for r in analyse_deal(RuleSet.profile("online"), 3, hands)}
    assert online[0].sweep == ("capot", None, "capot", None)  # no générale in online
    # In SA and TA nobody can cut the spades: seat 0 takes every trick alone; in hearts it cannot.
    assert classic[4].sweep[0] == classic[5].sweep[0] == "generale"
    assert classic[1].sweep[0] is None
