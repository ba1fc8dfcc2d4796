"""The command line end to end: ``coinche replay``, ``coinche score`` and ``coinche play``.

Most tests call ``coinche.cli.main`` in-process (output captured with ``capsys``); a few run
``python -m coinche.cli`` in a subprocess to prove that no traceback ever reaches stderr.
Records come from real games played with random legal actions (exported with
``game_record``/``deal_record``) and from the hand-checked fixtures in ``tests/records/``.
"""

from __future__ import annotations

import copy
import io
import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import RECORDS, load, run, write
from coinche.engine.actions import PASS
from coinche.engine.cards import card_str
from coinche.engine.deal import Deal, Phase
from coinche.engine.dealing import DealingInfo, deal_seed, hands_from_seed
from coinche.engine.game import Game
from coinche.engine.record import deal_answer, deal_record, game_answer, game_record
from coinche.engine.rules import PROFILES, RuleSet

PROFILE_NAMES = sorted(PROFILES)
DEAL_KEYS = {"contract", "tricks", "card_points", "belote", "melds", "made", "score"}
CONTRACT_KEYS = {"kind", "value", "trump", "taker", "multiplier"}
TRICK_KEYS = {"leader", "cards", "winner", "points"}
SUITS = "SHDC"

CLASSIC = "classic_coinche_belote_melds.json"
FEDERATION = "federation_game.json"
VOID = "void_deal.json"
UNFINISHED = "unfinished_deal.json"
HOUSE = "house_belote.json"


# ----- helpers -----


def run_sub(*argv: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m coinche.cli argv`` in a subprocess."""
    return subprocess.run(
        [sys.executable, "-m", "coinche.cli", *argv],
        input=stdin if stdin is not None else "",
        capture_output=True,
        text=True,
        timeout=60,
    )


def json_lines(out: str, n: int) -> list[dict[str, Any]]:
    lines = out.splitlines()
    assert len(lines) == n, out
    return [json.loads(line) for line in lines]


def one_line(err: str) -> str:
    """The stderr of a failed command: exactly one line, no traceback."""
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].strip()
    return lines[0]


def policy(rng: random.Random, acts: list[int], phase: Phase) -> int:
    """Random legal actions, passing often so that auctions end in modest contracts."""
    if phase is Phase.AUCTION and PASS in acts and rng.random() < 0.7:
        return PASS
    return acts[rng.randrange(len(acts))]


def random_game(profile: str, seed: int, **options: Any) -> Game:
    game = Game(RuleSet.profile(profile, **options), seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        deal = game.current
        assert deal is not None
        game.apply(policy(rng, game.legal_actions(), deal.phase))
    return game


def first_contracted_deal(profile: str, seed: int) -> Deal:
    """The first deal with a contract of a random game (deals are played to their end)."""
    for s in range(seed, seed + 50):
        game = random_game(profile, s)
        for deal in game.deals:
            if deal.contract is not None:
                return deal
    raise AssertionError("no contract in 50 games")


def roundtrip(answer: dict[str, Any]) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(json.dumps(answer))
    return data


def check_deal_shape(a: dict[str, Any]) -> None:
    """The keys and types of RECORD.md's per-deal answer."""
    assert a.keys() >= DEAL_KEYS
    if a["contract"] is None:
        assert a["tricks"] == []
        return
    assert set(a["contract"]) >= CONTRACT_KEYS
    assert a["contract"]["kind"] in ("bid", "capot", "generale")
    assert a["contract"]["trump"] in ("S", "H", "D", "C", "SA", "TA")
    assert a["contract"]["multiplier"] in (1, 2, 3, 4)
    leader = None
    for t in a["tricks"]:
        assert set(t) >= TRICK_KEYS
        assert len(t["cards"]) == 4
        if leader is not None:
            assert t["leader"] == leader, "each trick is led by the winner of the one before"
        leader = t["winner"]
    for team in (0, 1):
        won = sum(t["points"] for t in a["tricks"] if t["winner"] & 1 == team)
        assert a["card_points"][team] == won
    if a["made"] is None:
        assert a["melds"] is None and a["score"] is None
    else:
        assert len(a["tricks"]) == 8
        assert sum(a["card_points"]) in (162, 252)
        assert isinstance(a["made"], bool)
        assert len(a["score"]) == 2 and len(a["melds"]) == 2 and len(a["belote"]) == 2


def swap_to_break_follow_suit(rec: dict[str, Any], answer: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """Swap two cards of one seat in ``play`` so that the earlier one fails to follow suit;
    returns the broken record and the start of the expected message."""
    seat_of: list[int] = []
    for t in answer["tricks"]:
        seat_of.extend((t["leader"] + k) & 3 for k in range(4))
    play = rec["play"]
    for i, c in enumerate(play):
        trick, k = divmod(i, 4)
        led = play[trick * 4][1]
        if k == 0 or c[1] != led:
            continue
        for j in range((trick + 1) * 4, len(play)):
            if seat_of[j] == seat_of[i] and play[j][1] != led:
                bad = copy.deepcopy(rec)
                bad["play"][i], bad["play"][j] = play[j], play[i]
                where = f"deal 1, trick {trick + 1}, seat {seat_of[i]}"
                return bad, f"{where}: {play[j]} is illegal: must follow suit ({led})"
    raise AssertionError("no swap breaks follow-suit")


# ----- coinche replay: generated records -----


@pytest.mark.parametrize("profile", PROFILE_NAMES)
def test_replay_json_of_generated_games_matches_the_live_games(
    profile: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = [random_game(profile, seed) for seed in (1, 2, 3)]
    paths = [write(tmp_path, f"game{i}.json", game_record(g)) for i, g in enumerate(games)]
    code, out, err = run(capsys, "replay", "--json", *paths)
    assert (code, err) == (0, "")
    docs = json_lines(out, 3)
    for game, doc in zip(games, docs, strict=True):
        assert doc == roundtrip(game_answer(game))
        assert {"deals", "totals", "winner"} <= doc.keys()
        assert len(doc["deals"]) == len(game.deals)
        running = [0, 0]
        for a in doc["deals"]:
            check_deal_shape(a)
            running = [running[0] + a["score"][0], running[1] + a["score"][1]]
            assert a["totals"] == running
        assert doc["totals"] == running == list(game.totals)
        assert game.winner is not None
        assert doc["winner"] == game.winner
        assert doc["totals"][doc["winner"]] >= game.rules.target


@pytest.mark.parametrize("profile", PROFILE_NAMES)
def test_replay_of_generated_deal_records(profile: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deals = [first_contracted_deal(profile, seed) for seed in (10, 20)]
    paths = [write(tmp_path, f"deal{i}.json", deal_record(d)) for i, d in enumerate(deals)]
    code, out, err = run(capsys, "replay", "--json", *paths)
    assert (code, err) == (0, "")
    for deal, doc in zip(deals, json_lines(out, 2), strict=True):
        assert doc == roundtrip(deal_answer(deal))
        check_deal_shape(doc)
        c = deal.contract
        assert c is not None
        assert doc["contract"]["taker"] == c.taker and doc["contract"]["value"] == c.value

    code, out, err = run(capsys, "replay", *paths)
    assert (code, err) == (0, "")
    for deal, path in zip(deals, paths, strict=True):
        assert f"{path}: {profile} rules" in out
        c = deal.contract
        assert c is not None
        assert f"contract: {c.call} by seat {c.taker}" in out
        for n, t in enumerate(deal.tricks, start=1):
            cards = " ".join(card_str(x) for x in t.cards)
            assert f"trick {n}: seat {t.leader} leads {cards} -> seat {t.winner} wins {t.points}" in out
        res = deal.result()
        assert res is not None and res.made is not None
        assert f"{'made' if res.made else 'failed'}: score {res.score[0]} - {res.score[1]}" in out


@pytest.mark.parametrize("profile", PROFILE_NAMES)
def test_replay_generated_void_and_unfinished_deals(
    profile: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deal = first_contracted_deal(profile, 30)
    rec = deal_record(deal)
    void = {k: v for k, v in rec.items() if k != "declarations"} | {"auction": ["pass"] * 4, "play": []}
    unfinished = copy.deepcopy(rec)
    unfinished["play"] = rec["play"][:10]
    auction_only = {k: v for k, v in rec.items() if k != "declarations"} | {"auction": rec["auction"][:1], "play": []}
    paths = [write(tmp_path, f"{n}.json", r) for n, r in (("void", void), ("unf", unfinished), ("auc", auction_only))]
    code, out, err = run(capsys, "replay", "--json", *paths)
    assert (code, err) == (0, "")
    v, u, a = json_lines(out, 3)
    assert v["contract"] is None and v["made"] is None and v["score"] == [0, 0] and v["tricks"] == []
    check_deal_shape(u)
    assert u["contract"] == roundtrip(deal_answer(deal))["contract"]
    assert len(u["tricks"]) == 2
    assert u["made"] is None and u["melds"] is None and u["score"] is None
    assert a["made"] is None and a["score"] is None


@pytest.mark.parametrize("profile", PROFILE_NAMES)
def test_replay_generated_record_with_a_card_that_does_not_follow_suit(
    profile: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deal = first_contracted_deal(profile, 40)
    rec = deal_record(deal)
    bad, expected = swap_to_break_follow_suit(rec, roundtrip(deal_answer(deal)))
    code, out, err = run(capsys, "replay", "--json", write(tmp_path, "bad.json", bad))
    assert code == 1
    (doc,) = json_lines(out, 1)
    assert doc.keys() == {"error", "message"} and doc["error"] == "illegal"
    assert doc["message"].startswith(expected), doc["message"]
    assert expected in one_line(err)


# ----- coinche replay: the hand-written fixtures -----


def test_fixture_classic_deal_with_coinche_belote_and_melds(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(RECORDS / CLASSIC)
    code, out, err = run(capsys, "replay", "--json", path)
    assert (code, err) == (0, "")
    (a,) = json_lines(out, 1)
    check_deal_shape(a)
    assert a["contract"] == {"kind": "bid", "value": 100, "trump": "H", "taker": 0, "multiplier": 2}
    assert a["tricks"][0] == {"leader": 0, "cards": ["QH", "TH", "9C", "JH"], "winner": 3, "points": 33}
    # last trick: KH 4 + QC 3 + JS 2 + 7D 0, plus the 10 of the last trick
    assert a["tricks"][7] == {"leader": 0, "cards": ["KH", "QC", "JS", "7D"], "winner": 0, "points": 19}
    assert a["card_points"] == [129, 33]
    assert a["belote"] == [20, 0]
    assert a["melds"] == [20, 0]  # the tierce AH of seat 0, raw
    assert a["made"] is True
    # classic coinche made: (100 + 129 + 20 melds) x 2 + 20 belote; the defense only its belote
    assert a["score"] == [518, 0]

    code, out, err = run(capsys, "replay", path)
    assert (code, err) == (0, "")
    assert "contract: 100H by seat 0 coinched" in out
    assert "auction: 100H(0) coinche(1) pass(2) pass(3) pass(0)" in out
    assert "trick 1: seat 0 leads QH TH 9C JH -> seat 3 wins 33" in out
    assert "trick 8: seat 0 leads KH QC JS 7D -> seat 0 wins 19" in out
    assert "belote by seat 0 in H" in out
    assert "melds shown by seat 0: tierce AH" in out
    assert "card points 129 - 33, belote 20 - 0, melds 20 - 0" in out
    assert "made: score 518 - 0" in out


def test_fixture_federation_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "replay", "--json", str(RECORDS / FEDERATION))
    assert (code, err) == (0, "")
    (doc,) = json_lines(out, 1)
    deals = doc["deals"]
    assert len(deals) == 3
    for a in deals:
        check_deal_shape(a)
    # deal 1: 80C by seat 3 made; takers 80 + 133 + 20 (tierce JC) = 233 -> 230, defense 29 -> 30
    assert deals[0]["contract"] == {"kind": "bid", "value": 80, "trump": "C", "taker": 3, "multiplier": 1}
    assert deals[0]["card_points"] == [29, 133]
    assert deals[0]["melds"] == [0, 20]
    assert (deals[0]["made"], deals[0]["score"]) == (True, [30, 230])
    # deal 2: capotD failed; the defense takes 160 + 250 + the takers' 20 of melds
    assert deals[1]["contract"]["kind"] == "capot" and deals[1]["contract"]["value"] == 250
    assert (deals[1]["made"], deals[1]["score"]) == (False, [430, 0])
    # deal 3: capotC failed with a defense sweep (last trick 2 + 100); the takers keep their belote
    assert deals[2]["card_points"] == [252, 0]
    assert deals[2]["tricks"][7]["points"] == 102
    assert deals[2]["belote"] == [0, 20]
    assert deals[2]["melds"] == [40, 0]
    assert (deals[2]["made"], deals[2]["score"]) == (False, [450, 20])
    assert [a["totals"] for a in deals] == [[30, 230], [460, 230], [910, 250]]
    assert doc["totals"] == [910, 250]
    assert doc["winner"] == 0

    code, out, err = run(capsys, "replay", str(RECORDS / FEDERATION))
    assert (code, err) == (0, "")
    assert "federation rules, options {'target': 500}" in out
    assert "contract: capotD by seat 3" in out
    assert "failed: score 450 - 20" in out
    assert out.rstrip().endswith("totals 910 - 250: team 0 wins")


def test_fixture_void_deal(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "replay", "--json", str(RECORDS / VOID))
    assert (code, err) == (0, "")
    (a,) = json_lines(out, 1)
    check_deal_shape(a)
    assert a["contract"] is None
    assert a["made"] is None
    assert a["score"] == [0, 0]
    code, out, _ = run(capsys, "replay", str(RECORDS / VOID))
    assert code == 0 and "void deal: four passes" in out


def test_fixture_unfinished_deal(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "replay", "--json", str(RECORDS / UNFINISHED))
    assert (code, err) == (0, "")
    (a,) = json_lines(out, 1)
    check_deal_shape(a)
    assert a["contract"] == {"kind": "bid", "value": 100, "trump": "H", "taker": 0, "multiplier": 2}
    assert len(a["tricks"]) == 3
    assert a["card_points"] == [33, 33]
    assert a["made"] is None and a["melds"] is None and a["score"] is None
    code, out, _ = run(capsys, "replay", str(RECORDS / UNFINISHED))
    assert code == 0 and "unfinished: card points so far 33 - 33" in out


@pytest.mark.parametrize(
    ("belote", "announced", "made", "score"),
    [
        # 98 card points + 20 belote = 118 >= 100 and 98 > 64: 100 + 120 (118 rounded), 64 -> 60
        ({"seat": 0, "suit": "H", "at": "belote"}, [20, 0], True, [220, 60]),
        # announced only on the second card: scores nothing, and 98 < 100 fails: 100 + 160
        ({"seat": 0, "suit": "H", "at": "rebelote"}, [0, 0], False, [0, 260]),
        (0, [20, 0], True, [220, 60]),
        (None, [0, 0], False, [0, 260]),
    ],
)
def test_house_belote_must_announce(
    belote: Any, announced: list[int], made: bool, score: list[int], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec = load(HOUSE)
    assert RuleSet.profile(rec["rules"]).belote_must_announce
    rec["declarations"] = {"belote": [] if belote is None else [belote]}
    path = write(tmp_path, "house.json", rec)
    code, out, err = run(capsys, "replay", "--json", path)
    assert (code, err) == (0, "")
    (a,) = json_lines(out, 1)
    assert a["card_points"] == [98, 64]
    assert (a["belote"], a["made"], a["score"]) == (announced, made, score)
    if isinstance(belote, dict) and belote["at"] == "rebelote":
        code, out, _ = run(capsys, "replay", path)
        assert code == 0
        assert "rebelote by seat 0 in H (does not count" in out


def test_house_fixture_without_declarations_announces_every_belote(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec = load(HOUSE)
    del rec["declarations"]
    code, out, _ = run(capsys, "replay", "--json", write(tmp_path, "h.json", rec))
    assert code == 0
    (a,) = json_lines(out, 1)
    assert a["belote"] == [20, 0] and a["score"] == [220, 60]


# ----- coinche replay: illegal records (exit 1) -----


def test_illegal_card_in_the_classic_fixture(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = load(CLASSIC)
    # seat 1 plays KC (its card of trick 4) in trick 2, led with KD, while holding QD 9D
    rec["play"][6], rec["play"][13] = rec["play"][13], rec["play"][6]
    code, out, err = run(capsys, "replay", "--json", write(tmp_path, "bad.json", rec))
    assert code == 1
    message = "deal 1, trick 2, seat 1: KC is illegal: must follow suit (D) with QD 9D"
    assert json_lines(out, 1) == [{"error": "illegal", "message": message}]
    assert one_line(err).endswith(message)


@pytest.mark.parametrize(
    ("auction", "expected"),
    [
        (["85H", "pass", "pass", "pass"], "deal 1, auction, seat 0: 85H is illegal"),
        (["100H", "pass", "coinche", "pass"], "deal 1, auction, seat 2: coinche is illegal"),
        (["100H", "coinche", "110H"], "deal 1, auction, seat 2: 110H is illegal: nobody may bid after a coinche"),
        (["100H", "coinche", "pass", "surcoinche"], "deal 1, auction, seat 3: surcoinche is illegal"),
        (["100H", "pass", "90S"], "deal 1, auction, seat 2: 90S is illegal"),
        (["pass", "pass", "pass", "pass", "pass"], "deal 1, auction, seat 0: pass is illegal: the auction is over"),
    ],
)
def test_illegal_calls(auction: list[str], expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = load(CLASSIC)
    rec["auction"] = auction
    rec["play"] = []
    del rec["declarations"]
    code, out, err = run(capsys, "replay", "--json", write(tmp_path, "bad.json", rec))
    assert code == 1
    (doc,) = json_lines(out, 1)
    assert doc["error"] == "illegal"
    assert doc["message"].startswith(expected), doc["message"]
    assert expected in one_line(err)


@pytest.mark.parametrize(
    ("belote", "expected"),
    [
        ([1], "deal 1: seat 1 is listed with a belote it does not hold"),
        ([{"seat": 0, "suit": "S"}], "deal 1: seat 0 is listed with a belote in S it does not hold"),
    ],
)
def test_belote_listed_without_that_belote(
    belote: list[Any], expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec = load(CLASSIC)
    rec["declarations"]["belote"] = belote
    code, out, err = run(capsys, "replay", "--json", write(tmp_path, "bad.json", rec))
    assert code == 1
    assert json_lines(out, 1) == [{"error": "illegal", "message": expected}]
    assert one_line(err).endswith(expected)


def test_cards_after_the_end_of_the_deal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = load(CLASSIC)
    rec["play"].append("7S")
    code, out, _ = run(capsys, "replay", "--json", write(tmp_path, "bad.json", rec))
    assert code == 1
    assert json_lines(out, 1)[0]["message"].startswith("deal 1, trick 9, seat 0: 7S is illegal")


def test_a_meld_the_seat_does_not_hold_is_illegal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = load(CLASSIC)
    rec["declarations"]["melds"] = {"0": ["cent AH"]}
    code, out, _ = run(capsys, "replay", "--json", write(tmp_path, "bad.json", rec))
    assert code == 1
    message = json_lines(out, 1)[0]["message"]
    assert message == "deal 1, trick 1, seat 0: seat 0 cannot declare: cent AH is not in the hand"


def test_a_meld_declared_by_a_seat_without_any_meld_names_the_real_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec = load(CLASSIC)
    rec["declarations"]["melds"] = {"1": ["tierce AH"]}  # seat 1 holds no meld at all
    code, out, _ = run(capsys, "replay", "--json", write(tmp_path, "bad.json", rec))
    assert code == 1
    message = json_lines(out, 1)[0]["message"]
    assert message.startswith("deal 1, trick 1, seat 1: ")
    assert "not in the hand" in message, message


# ----- coinche replay: malformed records (exit 2) -----


def _twice(r: dict[str, Any]) -> None:
    r["hands"][1] = r["hands"][1].replace("7S", "AS")


def _seven(r: dict[str, Any]) -> None:
    r["hands"][1] = " ".join(r["hands"][1].split()[:7])


def _zz(r: dict[str, Any]) -> None:
    r["play"][3] = "ZZ"


def _zz_hand(r: dict[str, Any]) -> None:
    r["hands"][3] = r["hands"][3].replace("8S", "ZZ")


def _bad_call(r: dict[str, Any]) -> None:
    r["auction"][0] = "bogus"


def _bad_meld(r: dict[str, Any]) -> None:
    r["declarations"]["melds"] = {"0": ["bogus"]}


MALFORMED: list[tuple[str, Any, str]] = [
    ("card dealt twice", _twice, "deal 1: card AS is dealt twice"),
    ("unknown profile", lambda r: r.update(rules="nope"), "unknown rules profile 'nope'"),
    ("unknown option", lambda r: r.update(options={"foo": 1}), "unknown option 'foo'"),
    ("bad option value", lambda r: r.update(options={"target": 50}), "option target"),
    ("hand of 7 cards", _seven, "deal 1: seat 1 must be dealt 8 cards, not 7"),
    ("play not a list", lambda r: r.update(play="QH TH"), "deal 1: play must be a list of strings"),
    ("card ZZ in play", _zz, "deal 1: card 4 of play: not a card: 'ZZ'"),
    ("card ZZ in a hand", _zz_hand, "deal 1: hand of seat 3: not a card: 'ZZ'"),
    ("unparseable call", _bad_call, "deal 1: auction call 1: not a call: 'bogus'"),
    ("unparseable meld", _bad_meld, "deal 1: melds of seat 0: not a meld: 'bogus'"),
    ("bad dealer", lambda r: r.update(dealer=7), "deal 1: dealer must be a seat number 0..3"),
    ("no rules", lambda r: r.pop("rules"), "the record must name its rules profile"),
    ("empty deals", lambda r: r.update(deals=[]), "deals must be a non-empty list"),
]


@pytest.mark.parametrize(("what", "mutate", "expected"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_records(
    what: str, mutate: Any, expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec = load(CLASSIC)
    mutate(rec)
    path = write(tmp_path, "bad.json", rec)
    code, out, err = run(capsys, "replay", "--json", path)
    assert code == 2, what
    (doc,) = json_lines(out, 1)
    assert doc["error"] == "malformed" and expected in doc["message"], doc
    assert one_line(err) == f"{path}: {doc['message']}"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("{not json", "not valid JSON"),
        ("", "not valid JSON"),
        ("[1, 2]", "a record is a JSON object"),
        ('"a string"', "a record is a JSON object"),
    ],
)
def test_files_that_are_not_records(
    text: str, expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "replay", "--json", write(tmp_path, "bad.json", text))
    assert code == 2
    (doc,) = json_lines(out, 1)
    assert doc["error"] == "malformed" and expected in doc["message"]
    one_line(err)


def test_not_utf8(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bin.json"
    path.write_bytes(b"\xff\xfe\x00garbage")
    code, out, err = run(capsys, "replay", str(path))
    assert (code, out) == (2, "")
    assert "not valid JSON" in one_line(err)


def test_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(tmp_path / "nope.json")
    code, out, err = run(capsys, "replay", "--json", path)
    assert code == 2
    assert json_lines(out, 1)[0]["error"] == "malformed"
    assert one_line(err).startswith(f"{path}: cannot read the file")
    code, out, err = run(capsys, "replay", str(tmp_path))  # a directory
    assert (code, out) == (2, "")
    one_line(err)


# ----- coinche replay: several files -----


def test_several_files_one_bad_in_the_middle(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = str(RECORDS / CLASSIC)
    void = str(RECORDS / VOID)
    illegal = load(CLASSIC)
    illegal["auction"] = ["85H", "pass", "pass", "pass"]
    illegal_path = write(tmp_path, "illegal.json", illegal)
    broken = write(tmp_path, "broken.json", "{")

    code, out, err = run(capsys, "replay", "--json", good, illegal_path, void)
    assert code == 1
    first, middle, last = json_lines(out, 3)
    assert first["score"] == [518, 0]
    assert middle["error"] == "illegal"
    assert last["contract"] is None
    assert one_line(err).startswith(f"{illegal_path}: deal 1, auction, seat 0: 85H is illegal")

    code, out, err = run(capsys, "replay", "--json", good, broken, void)
    assert code == 2
    docs = json_lines(out, 3)
    assert [d.get("error") for d in docs] == [None, "malformed", None]

    # the exit status is the worst: malformed (2) beats illegal (1), whatever the order
    code, out, err = run(capsys, "replay", "--json", broken, illegal_path, good)
    assert code == 2
    assert [d.get("error") for d in json_lines(out, 3)] == ["malformed", "illegal", None]
    assert len(err.splitlines()) == 2

    # human-readable: the good files are still replayed, the errors go to stderr
    code, out, err = run(capsys, "replay", good, illegal_path, void)
    assert code == 1
    assert "made: score 518 - 0" in out and "void deal: four passes" in out
    assert illegal_path not in out
    assert one_line(err).startswith(f"{illegal_path}: ")


def test_json_lines_follow_the_order_of_the_files(capsys: pytest.CaptureFixture[str]) -> None:
    names = [VOID, CLASSIC, FEDERATION, UNFINISHED, CLASSIC]
    code, out, _ = run(capsys, "replay", "--json", *(str(RECORDS / n) for n in names))
    assert code == 0
    docs = json_lines(out, 5)
    assert docs[0]["contract"] is None
    assert docs[1]["score"] == docs[4]["score"] == [518, 0]
    assert docs[2]["winner"] == 0
    assert docs[3]["made"] is None


# ----- coinche replay in a subprocess: no traceback, ever -----


def test_replay_subprocess_no_traceback(tmp_path: Path) -> None:
    illegal = load(CLASSIC)
    illegal["play"][6], illegal["play"][13] = illegal["play"][13], illegal["play"][6]
    files = [
        str(RECORDS / CLASSIC),
        write(tmp_path, "illegal.json", illegal),
        write(tmp_path, "broken.json", "not json"),
        write(tmp_path, "array.json", "[]"),
        str(tmp_path / "missing.json"),
        str(RECORDS / FEDERATION),
    ]
    p = run_sub("replay", "--json", *files)
    assert p.returncode == 2
    assert "Traceback" not in p.stderr
    docs = json_lines(p.stdout, 6)
    assert [d.get("error") for d in docs] == [None, "illegal", "malformed", "malformed", "malformed", None]
    assert len(p.stderr.splitlines()) == 4

    p = run_sub("replay", *(str(RECORDS / n) for n in (CLASSIC, FEDERATION, VOID, UNFINISHED, HOUSE)))
    assert (p.returncode, p.stderr) == (0, "")
    assert "made: score 518 - 0" in p.stdout


def test_deeply_nested_json_is_a_one_line_error(tmp_path: Path) -> None:
    path = write(tmp_path, "deep.json", "[" * 100_000 + "]" * 100_000)
    p = run_sub("replay", "--json", path)
    assert "Traceback" not in p.stderr
    assert p.returncode == 2
    assert json_lines(p.stdout, 1)[0]["error"] == "malformed"


# ----- coinche score -----

SCORE_EXAMPLES: list[tuple[list[str], bool, int, int]] = [
    (["--rules", "online", "--contract", "100H", "--points", "112"], True, 212, 50),
    (["--rules", "online", "--contract", "120S", "--points", "110"], False, 0, 280),
    (["--rules", "online", "--contract", "100C", "--coinche", "--points", "120"], True, 360, 0),
    (["--rules", "online", "--contract", "90D", "--surcoinche", "--points", "50"], False, 0, 520),
    (["--rules", "online", "--contract", "110H", "--points", "162", "--sweep", "taker"], True, 360, 0),
    (["--rules", "house", "--contract", "100H", "--points", "96", "--taker-belote", "1"], True, 220, 60),
    (["--rules", "house", "--contract", "110H", "--points", "88", "--taker-belote", "1"], False, 20, 270),
    (["--rules", "federation", "--contract", "90H", "--points", "89"], False, 0, 250),
    (["--rules", "classic", "--contract", "generaleS", "--points", "100"], False, 0, 660),
    # house surcoinche: x3 below a target of 3000, x4 from 3000
    (["--rules", "house", "--contract", "100H", "--surcoinche", "--points", "120"], True, 460, 0),
    (["--rules", "house", "--contract", "100H", "--surcoinche", "--points", "120", "--target", "3010"], True, 560, 0),
    (["--rules", "house", "--contract", "100H", "--surcoinche", "--points", "120", "--target", "3000"], True, 560, 0),
    (["--rules", "house", "--contract", "100H", "--coinche", "--points", "120", "--target", "3010"], True, 360, 0),
    (["--rules", "classic", "--contract", "capotS", "--points", "162", "--sweep", "taker"], True, 500, 0),
]


@pytest.mark.parametrize(("args", "made", "taker", "defense"), SCORE_EXAMPLES)
def test_score_examples(
    args: list[str], made: bool, taker: int, defense: int, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "score", *args)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == f"{'made' if made else 'failed'}: takers {taker}, defense {defense}"
    assert lines[-1] == f"  score: takers {taker}, defense {defense}"

    code, out, err = run(capsys, "score", *args, "--json")
    assert (code, err) == (0, "")
    (doc,) = json_lines(out, 1)
    assert doc.keys() == {"made", "score", "steps"}
    assert doc["made"] is made
    assert doc["score"] == {"taker": taker, "defense": defense}
    assert doc["steps"] and all(isinstance(s, str) for s in doc["steps"])
    assert doc["steps"][-1] == f"score: takers {taker}, defense {defense}"


def test_score_json_of_the_first_seed_example(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "score", "--rules", "online", "--contract", "100H", "--points", "112", "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc == {"made": True, "score": {"taker": 212, "defense": 50}, "steps": doc["steps"]}
    assert doc["steps"][0] == "contract 100H"


def test_score_house_surcoinche_multiplier_follows_the_target(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["score", "--rules", "house", "--contract", "100H", "--surcoinche", "--points", "120", "--json"]
    _, out, _ = run(capsys, *base, "--target", "3010")
    assert json.loads(out)["steps"][0] == "contract 100H, surcoinched (x4)"
    _, out, _ = run(capsys, *base)
    assert json.loads(out)["steps"][0] == "contract 100H, surcoinched (x3)"


SCORE_ERRORS: list[tuple[list[str], str]] = [
    (["--rules", "online", "--contract", "100H", "--points", "170"], "between 0 and 162"),
    (["--rules", "online", "--contract", "100H", "--points", "-5"], "between 0 and 162"),
    (["--rules", "online", "--contract", "100H", "--points", "150", "--sweep", "taker"], "all 162 points"),
    (["--rules", "online", "--contract", "100H", "--points", "10", "--sweep", "defense"], "0 points"),
    (["--rules", "federation", "--contract", "90H", "--points", "162", "--sweep", "taker"], "all 252 points"),
    (["--rules", "online", "--contract", "95H", "--points", "100"], "95H"),
    (["--rules", "online", "--contract", "90X", "--points", "100"], "unknown contract '90X'"),
    (["--rules", "online", "--contract", "capot", "--points", "100"], "unknown contract"),
    (["--rules", "classic", "--contract", "170H", "--points", "100"], "170H"),
    (["--rules", "online", "--contract", "generaleS", "--points", "100"], "no générale"),
    (["--rules", "online", "--contract", "90SA", "--points", "100"], "SA and TA"),
    (["--rules", "online", "--contract", "90H", "--points", "100", "--taker-melds", "20"], "melds are not played"),
    (["--rules", "classic", "--contract", "90H", "--points", "100", "--taker-melds", "25"], "multiple of 10"),
    (
        ["--rules", "classic", "--contract", "90H", "--points", "100", "--taker-belote", "1", "--defense-belote", "1"],
        "at most 1 belote",
    ),
    (["--rules", "classic", "--contract", "90H", "--points", "100", "--taker-belote", "2"], "at most 1 belote"),
    (["--rules", "classic", "--contract", "90SA", "--points", "100", "--taker-belote", "1"], "at most 0 belote"),
    (["--rules", "classic", "--contract", "90H", "--points", "100", "--target", "50"], "target"),
    (["--rules", "classic", "--contract", "90H", "--points", "100", "--option", "foo=1"], "unknown option 'foo'"),
    (["--rules", "classic", "--contract", "90H", "--points", "100", "--option", "melds"], "name=value"),
    (["--rules", "classic", "--contract", "90H", "--points", "abc"], "invalid int value"),
    (["--contract", "90H", "--points", "100"], "--rules"),
    (["--rules", "nope", "--contract", "90H", "--points", "100"], "invalid choice"),
    (["--rules", "classic", "--contract", "90H", "--points", "100", "--coinche", "--surcoinche"], "not allowed"),
    (["--rules", "classic", "--contract", "90H", "--points", "100", "--sweep", "all"], "invalid choice"),
]


@pytest.mark.parametrize(("args", "expected"), SCORE_ERRORS)
def test_score_impossible_input(args: list[str], expected: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "score", *args)
    assert code == 2
    assert out == ""
    line = one_line(err)
    assert line.startswith("coinche score: error: ")
    assert expected in line


def test_score_subprocess_no_traceback() -> None:
    p = run_sub("score", "--rules", "online", "--contract", "100H", "--points", "112", "--json")
    assert (p.returncode, p.stderr) == (0, "")
    assert json.loads(p.stdout)["score"] == {"taker": 212, "defense": 50}
    for args in (
        ["--rules", "online", "--contract", "100H", "--points", "170"],
        ["--rules", "online", "--contract", "95H", "--points", "100"],
        ["--rules", "online", "--contract", "generaleS", "--points", "100"],
    ):
        p = run_sub("score", *args)
        assert p.returncode == 2 and p.stdout == ""
        assert one_line(p.stderr).startswith("coinche score: error: ")


# ----- coinche play -----


def test_play_scripted_subprocess() -> None:
    p = run_sub("play", "--seed", "1", stdin="1\n" * 40 + "q\n")
    assert p.returncode == 0, p.stderr
    assert "Traceback" not in p.stderr
    assert "Your hand:" in p.stdout
    assert "Auction:" in p.stdout
    assert "South (you): pass" in p.stdout
    assert "Trick 1" in p.stdout


def test_play_in_process_is_reproducible(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    outs = []
    for _ in range(2):
        monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 40 + "q\n"))
        code, out, err = run(capsys, "play", "--seed", "1", "--rules", "house")
        assert (code, err) == (0, "")
        assert "Your hand:" in out and "Auction:" in out
        outs.append(out)
    assert outs[0] == outs[1]


def test_play_end_of_input_leaves_cleanly(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code, out, err = run(capsys, "play", "--seed", "3")
    assert code == 0 and "Your hand:" in out
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--target", "5"], "target"),
        (["--option", "bogus=1"], "unknown option 'bogus'"),
        (["--rules", "nope"], "invalid choice"),
        (["--seed", "x"], "invalid int value"),
    ],
)
def test_play_bad_options(args: list[str], expected: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "play", *args)
    assert code == 2
    assert expected in one_line(err)


# ----- coinche with no or a bad subcommand -----


@pytest.mark.parametrize("argv", [[], ["bogus"], ["replay"], ["replay", "--bogus", "x.json"], ["--bogus"]])
def test_usage_errors(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert one_line(err).startswith("coinche")


@pytest.mark.parametrize("argv", [[], ["bogus"]])
def test_usage_errors_subprocess(argv: list[str]) -> None:
    p = run_sub(*argv)
    assert p.returncode == 2
    assert p.stdout == ""
    assert "error" in one_line(p.stderr)


def test_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for command in ("play", "replay", "score"):
        assert command in out
    assert re.search(r"usage: coinche", out)


# ----- coinche arena -----


def test_arena_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "arena", "--rules", "online", "--ns", "beginner", "--ew", "random", "--deals", "6")
    assert code == 0 and err == ""
    assert "beginner" in out and "95% CI" in out
    code, out, _ = run(
        capsys, "arena", "--rules", "online", "--ns", "beginner", "--ew", "random", "--deals", "6", "--json"
    )
    data = json.loads(out)
    assert code == 0 and data["deals"] == 12 and data["pairs"] == 6
    assert {"mean_diff", "ci95", "card_points_diff", "card_points_ci95", "deals_per_s", "move_time"} <= set(data)


def test_arena_shows_progress_on_a_terminal_only(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ("arena", "--rules", "classic", "--ns", "random", "--ew", "random", "--deals", "3", "--json")
    _, _, err = run(capsys, *argv)
    assert err == ""
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    _, out, err = run(capsys, *argv)
    assert json.loads(out)["pairs"] == 3
    assert err.endswith("\r3/3 pairs played\n") and "1/3 pairs played" in err


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--ns", "nobody", "--ew", "random", "--deals", "2"], "unknown bot 'nobody'"),
        (["--ns", "random", "--ew", "random", "--deals", "0"], "--deals must be at least 1"),
        (["--ns", "random", "--ew", "os:path", "--deals", "2"], "os"),
    ],
)
def test_arena_errors(args: list[str], expected: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "arena", "--rules", "classic", *args)
    assert code == 2 and out == ""
    assert expected in one_line(err) and "Traceback" not in err


# ----- serve -----


def test_serve_passes_the_friends_tables_clocks_to_the_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from coinche.server.web import app as app_module
    from coinche.server.web import drain

    seen: dict[str, Any] = {}

    def fake_create_app(settings: Any) -> object:
        seen["settings"] = settings
        return object()

    monkeypatch.setattr(app_module, "create_app", fake_create_app)
    monkeypatch.setattr(drain, "serve", lambda *a, **k: None)
    db = f"sqlite:///{tmp_path / 'c.db'}"
    argv = ["serve", "--db", db, "--grace-seconds", "3", "--idle-warning-seconds", "1.5", "--idle-move-seconds", "4"]
    code, _, err = run(capsys, *argv, "--signup-limit-per-address", "40/hour", "--api-limit-per-address", "30/second")
    assert code == 0, err
    settings = seen["settings"]
    assert (settings.grace_seconds, settings.idle_warning_seconds, settings.idle_move_seconds) == (3.0, 1.5, 4.0)
    assert settings.signup_limit == "40/hour" and settings.public_api_limit == "30/second"


def test_serve_runs_on_uvloop_where_it_is_installed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib.util

    from coinche.server.web import app as app_module
    from coinche.server.web import drain

    seen: dict[str, Any] = {}
    monkeypatch.setattr(app_module, "create_app", lambda settings: object())
    monkeypatch.setattr(drain, "serve", lambda *a, **k: seen.update(k))
    code, _, err = run(capsys, "serve", "--db", f"sqlite:///{tmp_path / 'c.db'}")
    assert code == 0, err
    installed = importlib.util.find_spec("uvloop") is not None
    assert seen["loop"] == ("uvloop" if installed else "asyncio")


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--grace-seconds", "0"], "--grace-seconds must be between 0.5 and 86400"),
        (["--grace-seconds", "nan"], "--grace-seconds must be between 0.5 and 86400"),
        (["--idle-warning-seconds", "-1"], "--idle-warning-seconds must be between 0.5 and 86400"),
        (["--idle-move-seconds", "1e9"], "--idle-move-seconds must be between 0.5 and 86400"),
        (["--idle-warning-seconds", "5", "--idle-move-seconds", "5"], "must be more than --idle-warning-seconds"),
        (["--trick-pause", "-0.5"], "--trick-pause must be between 0 and 10 seconds"),
        (["--trick-pause", "inf"], "--trick-pause must be between 0 and 10 seconds"),
        (["--signup-limit-per-address", "lots"], "--signup-limit-per-address takes a rate such as 100/minute"),
        (["--table-limit-per-address", "0/0"], "--table-limit-per-address takes a rate such as 100/minute"),
        (["--api-limit-per-address", "fast"], "--api-limit-per-address takes a rate such as 100/minute"),
    ],
)
def test_serve_refuses_clocks_and_rates_out_of_range(
    args: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "serve", *args)
    assert code == 2 and out == ""
    assert expected in one_line(err) and err.count("\n") == 1, err


# ----- coinche verify (docs/dealing.md) -----


def _checkable_game(deals: int = 2) -> dict[str, Any]:
    """A game record whose deals carry version-2 dealing information."""
    secret, table = bytes(range(32)), "Xy7-_kQz"

    def source(number: int, dealer: int) -> tuple[int, ...]:
        return hands_from_seed(deal_seed(secret, table, number), dealer)

    game = Game(RuleSet.profile("classic"), seed=3, hand_source=source)
    while len(game.deals) <= deals and not game.is_over:
        game.apply(PASS)  # void deals: quick, and each one is dealt again
    record = game_record(game)
    record["deals"] = record["deals"][:deals]
    for n, d in enumerate(record["deals"], start=1):
        d["dealing"] = DealingInfo.of(deal_seed(secret, table, n), table, n, reveal=True).to_json()
    return record


def test_verify_checks_every_deal(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path, "game.json", _checkable_game())
    code, out, err = run(capsys, "verify", path)
    assert code == 0, err
    assert out.splitlines() == [f"{path}: deal {n}: hands and commitment check" for n in (1, 2)]
    # Readers that do not know the dealing key ignore it.
    code, _out, err = run(capsys, "replay", path)
    assert code == 0, err


def test_verify_names_a_deal_record_by_its_number_at_the_table(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game = _checkable_game(2)
    second = {"rules": game["rules"], "options": game["options"], **game["deals"][1], "deal": 2}
    path = write(tmp_path, "deal2.json", second)
    code, out, err = run(capsys, "verify", path)
    assert code == 0, err
    assert out.splitlines() == [f"{path}: deal 2: hands and commitment check"]


@pytest.mark.parametrize("deal", [True, -3, 0, "2", 2**40, None])
def test_verify_ignores_a_deal_key_that_is_no_deal_number(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, deal: Any
) -> None:
    game = _checkable_game(2)
    second = {"rules": game["rules"], "options": game["options"], **game["deals"][1], "deal": deal}
    path = write(tmp_path, "deal2.json", second)
    code, out, err = run(capsys, "verify", path)
    assert code == 0, err
    assert out.splitlines() == [f"{path}: deal 2: hands and commitment check"]  # its dealing number


def test_verify_finds_a_changed_card(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = _checkable_game()
    hands = [h.split() for h in record["deals"][1]["hands"]]
    hands[0][0], hands[2][0] = hands[2][0], hands[0][0]
    record["deals"][1]["hands"] = [" ".join(h) for h in hands]
    path = write(tmp_path, "changed.json", record)
    code, out, _err = run(capsys, "verify", path)
    assert code == 1
    lines = out.splitlines()
    assert lines[0].endswith("deal 1: hands and commitment check")
    assert any("deal 2: hand of seat 0 differs" in line and hands[0][0] in line for line in lines)
    assert any("deal 2: hand of seat 2 differs" in line for line in lines)
    assert not any("commitment differs" in line for line in lines)


def test_verify_finds_a_changed_commitment(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = _checkable_game(1)
    record["deals"][0]["dealing"]["number"] = 7
    code, out, _err = run(capsys, "verify", write(tmp_path, "moved.json", record))
    assert code == 1 and "deal 1: commitment differs" in out


def test_verify_without_dealing_info(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = _checkable_game(1)
    del record["deals"][0]["dealing"]
    path = write(tmp_path, "old.json", record)
    code, out, _err = run(capsys, "verify", path)
    assert code == 0 and "deal 1: not verifiable (no dealing information)" in out
    code, _out, _err = run(capsys, "verify", "--strict", path)
    assert code == 1


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not valid JSON"),
        ('{"rules": "classic", "dealer": 0, "hands": []}', "hands must be a list"),
        ("DEALING", "unknown dealing version"),
    ],
)
def test_verify_refuses_bad_input_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, message: str
) -> None:
    if text == "DEALING":
        record = _checkable_game(1)
        record["deals"][0]["dealing"]["version"] = 9
        text = json.dumps(record)
    code, out, err = run(capsys, "verify", write(tmp_path, "bad.json", text))
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


@pytest.mark.parametrize("name", ["", "two words", "line\nbreak", "x" * 65, "caf\u00e9"])
def test_serve_refuses_a_process_name_that_would_garble_the_log(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "serve", "--name", name)
    assert code == 2 and out == ""
    assert "process name" in one_line(err) and "Traceback" not in err


def test_serve_takes_its_process_name_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from coinche.server.web import drain

    seen: dict[str, Any] = {}
    monkeypatch.setenv("COINCHE_PROCESS_NAME", "web-2")
    monkeypatch.setattr(drain, "serve", lambda app, name, **options: seen.update(name=name, options=options))
    code, _, err = run(capsys, "serve", "--db", f"sqlite:///{tmp_path / 'c.db'}")
    assert code == 0, err
    assert seen["name"] == "web-2" and seen["options"]["log_level"] == "warning"
    code, _, err = run(capsys, "serve", "--db", f"sqlite:///{tmp_path / 'c.db'}", "--name", "web-9")
    assert code == 0 and seen["name"] == "web-9", err


# ----- serve: the key that signs the cookies (--secret-file, $COINCHE_SECRET_KEY) -----

KEY = "k" * 20 + "-Secret_Key-of-the-site-0123456789"


def _served_app(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *argv: str) -> Any:
    """``coinche serve ARGV`` in process, the server not started: the application it made."""
    from coinche.server.web import drain

    seen: dict[str, Any] = {}
    monkeypatch.setattr(drain, "serve", lambda app, name, **options: seen.update(app=app))
    code, _, err = run(capsys, "serve", "--workers", "1", *argv)
    assert code == 0, err
    return seen["app"]


def test_serve_signs_the_cookies_with_the_key_of_its_secret_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from starlette.testclient import TestClient

    monkeypatch.delenv("COINCHE_SECRET_KEY", raising=False)
    key_file = tmp_path / "secret"
    key_file.write_text(KEY + "\n", encoding="utf-8")
    first = _served_app(capsys, monkeypatch, "--db", f"sqlite:///{tmp_path / 'a.db'}", "--secret-file", str(key_file))
    assert first.state.secret == KEY
    with TestClient(first) as client:
        assert client.get("/").status_code == 200
        cookie = client.cookies["session"]
        csrf = re.findall(r'name="csrf" value="([^"]+)"', client.get("/").text)
    # Another server (a new database): the same key, the same guest.
    second = _served_app(capsys, monkeypatch, "--db", f"sqlite:///{tmp_path / 'b.db'}", "--secret-file", str(key_file))
    with TestClient(second) as client:
        client.cookies.set("session", cookie)
        page = client.get("/")
        assert "session" not in page.cookies  # the cookie was good: no new guest
        assert re.findall(r'name="csrf" value="([^"]+)"', page.text) == csrf
    # Without the file, the key kept in the database: not the file's.
    third = _served_app(capsys, monkeypatch, "--db", f"sqlite:///{tmp_path / 'a.db'}")
    assert third.state.secret != KEY and len(third.state.secret) >= 32


def test_serve_takes_its_secret_key_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COINCHE_SECRET_KEY", KEY)
    app = _served_app(capsys, monkeypatch, "--db", f"sqlite:///{tmp_path / 'c.db'}")
    assert app.state.secret == KEY
    other = "z" * 40
    key_file = tmp_path / "secret"
    key_file.write_text(other, encoding="utf-8")
    app = _served_app(capsys, monkeypatch, "--db", f"sqlite:///{tmp_path / 'c.db'}", "--secret-file", str(key_file))
    assert app.state.secret == other  # the file named on the command line first


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("short key\n", "at least 32 characters"),
        ("", "at least 32 characters"),
        ("two words " * 5, "one line of printable characters without spaces"),
        (b"\xff\xfe" + b"x" * 40, "not UTF-8 text"),
        ("x" * 5000, "at most 4096"),
        (None, "cannot read"),
        ("DIRECTORY", "cannot read"),
    ],
)
def test_serve_refuses_a_bad_secret_file(
    tmp_path: Path, content: str | bytes | None, expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "secret"
    if content == "DIRECTORY":
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content, encoding="utf-8")
    code, out, err = run(capsys, "serve", "--db", f"sqlite:///{tmp_path / 'd.db'}", "--secret-file", str(path))
    assert code == 2 and out == ""
    assert expected in one_line(err) and "--secret-file" in err and "Traceback" not in err, err
    assert not (tmp_path / "d.db").exists()  # refused before anything is opened


@pytest.mark.parametrize("value", ["short", "x" * 31, "with a space " * 4])
def test_serve_refuses_a_bad_secret_key_in_the_environment(
    tmp_path: Path, value: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COINCHE_SECRET_KEY", value)
    code, out, err = run(capsys, "serve", "--db", f"sqlite:///{tmp_path / 'e.db'}")
    assert code == 2 and out == ""
    assert "COINCHE_SECRET_KEY" in one_line(err) and "Traceback" not in err, err


@pytest.mark.parametrize(("record", "west"), [("classic_coinche_belote_melds.json", 3), ("house_belote.json", 1)])
def test_replay_names_the_seats_as_the_table_does(record: str, west: int, capsys: pytest.CaptureFixture[str]) -> None:
    """Seat 1 is East where play goes anticlockwise (``classic``) and West where it goes
    clockwise (``house``), as the table and every page name it (``seating``)."""
    code, out, err = run(capsys, "replay", str(RECORDS / record))
    assert (code, err) == (0, "")
    assert f"dealer West (seat {west})" in out if west == 3 else "dealer East (seat 3)" in out
    assert f"  seat {west} West :" in out and f"  seat {4 - west} East :" in out


@pytest.mark.parametrize(
    ("args", "env", "expected"),
    [
        ([], None, "127.0.0.1"),
        ([], "10.1.2.3", "10.1.2.3"),
        (["--forwarded-allow-ips", " 10.0.0.0/8 , ::1"], "192.0.2.1", "10.0.0.0/8,::1"),
        (["--forwarded-allow-ips", "*"], None, "*"),
    ],
)
def test_serve_hands_the_trusted_proxies_to_uvicorn(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    env: str | None,
    expected: str,
) -> None:
    from coinche.server.web import drain

    seen: dict[str, Any] = {}
    if env is None:
        monkeypatch.delenv("FORWARDED_ALLOW_IPS", raising=False)
    else:
        monkeypatch.setenv("FORWARDED_ALLOW_IPS", env)
    monkeypatch.setattr(drain, "serve", lambda app, name, **options: seen.update(options))
    code, _, err = run(capsys, "serve", "--db", f"sqlite:///{tmp_path / 'c.db'}", *args)
    assert code == 0, err
    assert seen["forwarded_allow_ips"] == expected and seen["proxy_headers"] is True


@pytest.mark.parametrize("value", ["", "localhost", "10.0.0.0/33", "1.2.3.4,,", "1.2.3.4\x00", "*,1.2.3.4", "x" * 5000])
def test_serve_refuses_trusted_proxies_it_cannot_read(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "serve", "--forwarded-allow-ips", value)
    assert code == 2 and out == ""
    assert "--forwarded-allow-ips takes addresses" in one_line(err) and "Traceback" not in err


def test_worker_plays_by_the_settings_the_servers_take(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``coinche worker`` takes the options of how the site plays, as ``coinche serve`` does,
    and builds its parts from them (``services.py``), not from default settings."""
    from coinche.server import worker

    seen: dict[str, Any] = {}

    def fake_run_worker(settings: Any, lease: float, metrics_port: int | None, json_lines: bool) -> int:
        seen.update(settings=settings, lease=lease, metrics_port=metrics_port, json_lines=json_lines)
        return 0

    monkeypatch.setattr(worker, "run_worker", fake_run_worker)
    code, _, err = run(
        capsys,
        "worker",
        "--db",
        "postgresql+psycopg://coinche@db.example/coinche",
        "--processes",
        "3",
        "--challenge-level",
        "confirmed",
        "--challenge-profile",
        "classic",
        "--free-deals",
        "5",
        "--name",
        "w-1",
        "--metrics-port",
        "9101",
        "--log-format",
        "json",
    )
    assert code == 0, err
    assert (seen["metrics_port"], seen["json_lines"]) == (9101, True)
    settings = seen["settings"]
    assert settings.database_url == "postgresql+psycopg://coinche@db.example/coinche"
    assert (settings.bot_workers, settings.challenge_level, settings.challenge_profile) == (3, "confirmed", "classic")
    assert (settings.free_deals, settings.process_name) == (5, "w-1")
