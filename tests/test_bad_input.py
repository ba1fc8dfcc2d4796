"""Bad input that used to get through (issue 6): each case ends in a one-line message and
the documented exit status (replay: 1 illegal call or card, 2 malformed; score: 2), never
a traceback, and one bad file never stops the others of a replay."""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import RECORDS, load, run, write
from coinche.bots.arena import run_arena
from coinche.bots.base import BotLoadError
from coinche.bots.loading import load_bot
from coinche.cli import records
from coinche.engine.actions import parse_bid, parse_call
from coinche.engine.cards import parse_cards
from coinche.engine.errors import NotACall, NotACard, NotAMeld
from coinche.engine.melds import (
    MAX_DEAL_MELDS,
    MAX_HAND_MELDS,
    MAX_TEAM_MELDS,
    SQUARE_POINTS,
    _suit_best_runs,
    best_melds,
    parse_meld,
)
from coinche.engine.rules import RulesError, RuleSet, parse_option_value
from coinche.engine.scoring import DealFacts, ScoringError, calculate, check_facts, parse_contract
from coinche.engine.text import is_number, parse_number
from coinche.terminal import run_play

HUGE = "9" * 5000  # beyond int()'s 4,300-digit limit


def one_line(err: str, longest: int = 400) -> str:
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err[:2000]
    assert 0 < len(lines[0]) <= longest, lines[0][:2000]
    return lines[0]


def replay_one(capsys: pytest.CaptureFixture[str], tmp_path: Path, data: Any) -> tuple[int, str]:
    """Replay one record alone (and with a good file after it): (status, one-line message)."""
    path = write(tmp_path, "bad.json", data)
    code, out, err = run(capsys, "replay", "--json", path, str(RECORDS / "void_deal.json"))
    bad, good = (json.loads(line) for line in out.splitlines())
    assert good["contract"] is None and "error" not in good, "the next file is still replayed"
    line = one_line(err)
    assert line == f"{path}: {bad['message']}"
    return code, bad["message"]


def play(text: str, profile: str = "classic", seed: int = 1, **kw: Any) -> tuple[int, str]:
    out = io.StringIO()
    rc = run_play(RuleSet.profile(profile, target=300), seed, io.StringIO(text), out, **kw)
    return rc, out.getvalue()


# ----- numbers beyond int()'s 4,300 digits -----


def test_huge_json_number_in_a_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = json.dumps(load("classic_coinche_belote_melds.json")).replace('"dealer": 3', f'"dealer": {HUGE}')
    code, message = replay_one(capsys, tmp_path, text)
    assert code == 2 and message == "not a usable record: a number of 5000 digits"


def test_long_but_readable_json_number_is_echoed_short(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = load("classic_coinche_belote_melds.json")
    rec["options"] = {"target": int("9" * 99)}
    code, message = replay_one(capsys, tmp_path, rec)
    assert code == 2 and message.startswith("option target must be a whole number from 100 to 10000, not 999")


@pytest.mark.parametrize(
    "args",
    [
        ["--contract", HUGE + "H", "--points", "100"],
        ["--contract", "90H", "--points", HUGE],
        ["--contract", "90H", "--points", "100", "--option", f"target={HUGE}"],
        ["--contract", "90H", "--points", "100", "--target", HUGE],
        ["--contract", "90H", "--points", "100", "--taker-melds", HUGE],
    ],
)
def test_huge_numbers_on_the_command_line(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "score", "--rules", "classic", *args)
    assert (code, out) == (2, "")
    assert one_line(err).startswith("coinche score: error: ")


def test_huge_number_typed_into_play() -> None:
    rc, out = play(HUGE + "\n" + "1\n" * 3000)
    assert rc == 0 and "Game over after" in out
    assert "  No choice '99999" in out
    assert max(len(line) for line in out.splitlines() if "No choice" in line) < 200


def test_huge_bid_and_card_numbers_in_prompts() -> None:
    rc, out = play(f"{HUGE}H\n" + "1\n" * 3000)
    assert rc == 0 and "Game over after" in out
    assert "  Not understood: '99999" in out


# ----- Unicode digits: ASCII-only checks -----


def test_ascii_digits_only() -> None:
    assert is_number("120") and not is_number("²") and not is_number("1²0") and not is_number("١٢٠")
    assert not is_number("") and not is_number("-1") and not is_number(" 1")
    assert parse_number(" 120 ") == 120
    assert parse_number("²") is None and parse_number("") is None and parse_number(HUGE) is None
    assert parse_number("1234567", max_digits=6) is None


@pytest.mark.parametrize("name", ["target", "max_bid"])
@pytest.mark.parametrize("value", ["²", "1²0", "٣٠٠"])
def test_unicode_digits_in_options(name: str, value: str) -> None:
    with pytest.raises(RulesError, match="must be a whole number"):
        parse_option_value(name, value)


def test_unicode_digits_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    for args in (["--option", "max_bid=1²0"], ["--option", "target=²000"], ["--target", "²000"]):
        code, out, err = run(capsys, "score", "--rules", "classic", "--contract", "90H", "--points", "100", *args)
        assert (code, out) == (2, "")
        one_line(err)


@pytest.mark.parametrize("value", ["1²0", "²", "١٦٠"])
def test_unicode_digits_in_a_record_option(value: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = load("classic_coinche_belote_melds.json")
    rec["options"] = {"max_bid": value}
    code, message = replay_one(capsys, tmp_path, rec)
    assert code == 2 and message.startswith("option max_bid cannot be")


def test_unicode_digits_at_every_prompt() -> None:
    out = io.StringIO()
    asked: set[str] = set()

    class Answers(io.StringIO):
        def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
            prompt = out.getvalue().rsplit("\n", 1)[-1].split(" ", 1)[0]
            if prompt in asked:
                return "1\n"
            asked.add(prompt)
            return "²\n"

    for seed in range(30):
        rc = run_play(RuleSet.profile("classic", target=300), seed, Answers(), out)
        assert rc == 0
        if {"Call", "Card", "Declare"} <= asked:
            break
    assert {"Call", "Card", "Declare"} <= asked
    assert out.getvalue().count("  Not understood: '²'.") >= 3


# ----- unknown option names, "name" included -----


def test_an_option_called_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(RulesError, match="unknown option 'name'"):
        RuleSet.profile("classic", name="x")
    rec = load("classic_coinche_belote_melds.json")
    for options in ({"name": "x"}, {"cut_each_side": 3}):
        rec["options"] = options
        code, message = replay_one(capsys, tmp_path, rec)
        assert code == 2 and message.startswith(f"unknown option '{next(iter(options))}'")


# ----- what is read from a file -----


def test_replay_of_an_endless_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "replay", "--json", "/dev/zero", str(RECORDS / "void_deal.json"))
    assert code == 2
    bad, good = (json.loads(line) for line in out.splitlines())
    assert bad == {"error": "malformed", "message": "not a usable record: larger than 64 MiB"}
    assert good["contract"] is None
    assert one_line(err) == "/dev/zero: not a usable record: larger than 64 MiB"


def test_replay_of_a_file_past_the_cap(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(records, "MAX_RECORD_BYTES", 1000)
    small = write(tmp_path, "small.json", load("void_deal.json"))
    big = write(tmp_path, "big.json", json.dumps(load("void_deal.json")) + " " * 1000)
    code, _, err = run(capsys, "replay", small, big)
    assert code == 2
    assert one_line(err) == f"{big}: not a usable record: larger than 0 MiB"


def test_solve_reads_its_file_once() -> None:
    text = (RECORDS / "unfinished_deal.json").read_text(encoding="utf-8")
    p = subprocess.run(
        [sys.executable, "-m", "coinche.cli", "solve", "--json", "/dev/stdin"],
        input=text,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (p.returncode, p.stderr) == (0, "")
    assert json.loads(p.stdout)["to_move"] is not None
    p = subprocess.run(
        [sys.executable, "-m", "coinche.cli", "solve", "/dev/stdin"], input="{", capture_output=True, text=True
    )
    assert (p.returncode, p.stdout) == (2, "")
    assert one_line(p.stderr).startswith("/dev/stdin: not valid JSON")


def test_non_utf8_file_name(tmp_path: Path) -> None:
    good = os.fsencode(tmp_path) + b"/\xff.json"
    bad = os.fsencode(tmp_path) + b"/\xfe.json"
    Path(os.fsdecode(good)).write_text(json.dumps(load("void_deal.json")), encoding="utf-8")
    Path(os.fsdecode(bad)).write_text("{", encoding="utf-8")
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}  # strict output: surrogates cannot be printed
    p = subprocess.run(
        [sys.executable, "-m", "coinche.cli", "replay", good, bad], capture_output=True, env=env, timeout=60
    )
    assert p.returncode == 2
    err = p.stderr.decode("utf-8")
    assert one_line(err).endswith(
        "/\\xfe.json: not valid JSON: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"
    )
    assert "/\\xff.json: classic rules" in p.stdout.decode("utf-8")


def test_non_utf8_input_to_play() -> None:
    for errors in ("strict", "surrogateescape"):
        stdin = io.TextIOWrapper(io.BytesIO(b"\xff\xfe\n" + b"1\n" * 3000), encoding="utf-8", errors=errors)
        out = io.StringIO()
        assert run_play(RuleSet.profile("classic", target=300), 1, stdin, out) == 0
        text = out.getvalue()
        assert "Game over after" in text and "Not understood: " in text


def test_undecodable_input_that_cannot_be_reconfigured() -> None:
    class Broken(io.StringIO):
        def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
            raise UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")

    out = io.StringIO()
    assert run_play(RuleSet.profile("classic", target=300), 1, Broken(), out) == 0
    text = out.getvalue()
    assert "not text in this terminal's encoding" in text
    assert "The input is not text: leaving the game." in text


# ----- custom bots -----

BAD_BOTS = """
import abc, sys
from coinche.bots.base import Bot, Decision

class Plays(Bot):
    def choose(self, view):
        return Decision(view.legal_actions[0])

class Raises(Plays):
    def __init__(self, seed=None):
        raise RuntimeError("boom in init")

class NoSeed(Plays):
    def __init__(self):
        super().__init__(None)

class Abstract(Bot, abc.ABC):
    @abc.abstractmethod
    def choose(self, view): ...

class ExitsInInit(Plays):
    def __init__(self, seed=None):
        sys.exit(4)

class ChooseRaises(Bot):
    def choose(self, view):
        raise RuntimeError("boom in choose")

class Garbage(Bot):
    def choose(self, view):
        return "garbage"

class Illegal(Bot):
    def choose(self, view):
        return Decision(99999)

class Exits(Bot):
    def choose(self, view):
        sys.exit(3)

class ObserveRaises(Plays):
    def observe_result(self, view):
        raise ValueError("cannot learn")
"""


@pytest.fixture
def bad_bots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "issue6_bots.py").write_text(textwrap.dedent(BAD_BOTS), encoding="utf-8")
    (tmp_path / "issue6_broken.py").write_text('raise RuntimeError("module broken")\n', encoding="utf-8")
    (tmp_path / "issue6_exits.py").write_text("raise SystemExit(5)\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))


UNLOADABLE = [
    ("issue6_bots:Raises", "bot 'issue6_bots:Raises' could not be built: RuntimeError: boom in init"),
    ("issue6_bots:NoSeed", "bot 'issue6_bots:NoSeed' takes no seed= argument"),
    ("issue6_bots:Abstract", "bot 'issue6_bots:Abstract' is an abstract class (it does not implement choose)"),
    ("issue6_bots:ExitsInInit", "bot 'issue6_bots:ExitsInInit' could not be built: SystemExit: 4"),
    ("issue6_broken:Bot", "cannot import bot module 'issue6_broken': RuntimeError: module broken"),
    ("issue6_exits:Bot", "cannot import bot module 'issue6_exits': SystemExit: 5"),
]


@pytest.mark.usefixtures("bad_bots")
@pytest.mark.parametrize(("spec", "expected"), UNLOADABLE, ids=[u[0] for u in UNLOADABLE])
def test_bots_that_cannot_be_loaded(spec: str, expected: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(BotLoadError, match="^" + expected.replace("(", r"\(").replace(")", r"\)")):
        load_bot(spec, seed=1)
    code, out, err = run(capsys, "arena", "--rules", "classic", "--ns", spec, "--ew", "random", "--deals", "1")
    assert (code, out) == (2, "")
    assert one_line(err).startswith(f"coinche arena: error: {expected}")
    rc, text = play("1\n", level=spec)
    assert rc == 2 and text == f"error: {load_bot_error(spec)}\n"


def load_bot_error(spec: str) -> str:
    try:
        load_bot(spec, seed=4)
    except BotLoadError as e:
        return str(e)
    raise AssertionError(f"{spec} loaded")


FAILING = [
    ("issue6_bots:ChooseRaises", "choose raised RuntimeError: boom in choose"),
    ("issue6_bots:Garbage", "choose returned str, not a Decision"),
    ("issue6_bots:Illegal", "illegal action 99999"),
    ("issue6_bots:Exits", "choose raised SystemExit: 3"),
    ("issue6_bots:ObserveRaises", "observe_result raised ValueError: cannot learn"),
]


@pytest.mark.usefixtures("bad_bots")
@pytest.mark.parametrize(("spec", "expected"), FAILING, ids=[f[0] for f in FAILING])
def test_bots_that_fail_in_play_and_arena(spec: str, expected: str) -> None:
    rc, text = play("1\n" * 200, level=spec)  # a failing bot passes: the game may never end
    assert rc == 0 and "Traceback" not in text
    assert f"the computer player failed, {expected}" in text
    result = run_arena(RuleSet.profile("classic"), spec, "random", 1, seed=3)
    assert result.deals == 2
    assert result.stats["ns"]["errors"] > 0
    assert any(expected in e for e in result.error_log)


# ----- the score calculator's melds -----


def test_meld_bounds_are_what_a_deal_can_hold() -> None:
    assert (MAX_HAND_MELDS, MAX_TEAM_MELDS, MAX_DEAL_MELDS) == (350, 550, 750)
    # Reached: J and 9 squares in one hand, A and T squares in the partner's, K and Q in a third.
    hands = [parse_cards(h) for h in ("JS JH JD JC 9S 9H 9D 9C", "AS AH AD AC TS TH TD TC", "KS KH KD KC QS QH QD QC")]
    points = [sum(m.points for m in best_melds(h, 0)) for h in hands]
    assert points == [350, 200, 200] and sum(points[:2]) == MAX_TEAM_MELDS and sum(points) == MAX_DEAL_MELDS
    # Never passed: squares of the ranks in R (all four suits) and the best runs of the other
    # ranks, the same in each suit, bound any deal (hands of 8 cards only lower it).
    best = 0
    for r_set in range(1 << len(SQUARE_POINTS)):
        ranks = [r for i, r in enumerate(SQUARE_POINTS) if r_set >> i & 1]
        pattern = 0xFF & ~sum(1 << r for r in ranks)
        best = max(best, sum(SQUARE_POINTS[r] for r in ranks) + 4 * _suit_best_runs(pattern)[0])
    assert best == MAX_DEAL_MELDS
    rng = random.Random(6)
    for _ in range(20000):
        hand = sum(1 << c for c in rng.sample(range(32), 8))
        assert sum(m.points for m in best_melds(hand, rng.randrange(6))) <= MAX_HAND_MELDS


@pytest.mark.parametrize(
    ("profile", "melds", "expected"),
    [
        ("classic", ["--taker-melds", "1" + "0" * 30], "cannot exceed 750"),
        ("classic", ["--taker-melds", "760"], "cannot exceed 750"),
        ("classic", ["--defense-melds", "760"], "cannot exceed 750"),
        ("federation", ["--taker-melds", "560"], "cannot exceed 550"),
        ("federation", ["--taker-melds", "500", "--defense-melds", "500"], "both teams cannot exceed 750"),
        ("classic", ["--taker-melds", "20", "--defense-melds", "50"], "only one team can have melds"),
    ],
)
def test_score_refuses_impossible_melds(
    profile: str, melds: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "score", "--rules", profile, "--contract", "90H", "--points", "100", *melds)
    assert (code, out) == (2, "")
    assert expected in one_line(err)


def test_score_accepts_the_largest_melds() -> None:
    classic, federation = RuleSet.profile("classic"), RuleSet.profile("federation")
    assert calculate(classic, "90H", 100, taker_melds=750).taker == 90 + 100 + 750
    assert calculate(federation, "90H", 100, defense_melds=550).made is False
    assert calculate(federation, "80H", 100, taker_melds=20, defense_melds=50).made is True
    with pytest.raises(ScoringError):
        check_facts(classic, parse_contract("90H", classic), DealFacts(100, 62, taker_melds=20, defense_melds=20))


# ----- declarations of a record -----


def test_empty_meld_lists_under_a_profile_without_melds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = load("classic_coinche_belote_melds.json")
    rec["rules"] = "online"
    rec["declarations"] = {"belote": [0], "melds": {"0": [], "2": []}}
    path = write(tmp_path, "empty.json", rec)
    code, out, err = run(capsys, "replay", "--json", path)
    assert (code, err) == (0, "")
    assert json.loads(out)["made"] is True
    rec["declarations"]["melds"] = {"0": ["tierce AH"]}
    code, message = replay_one(capsys, tmp_path, rec)
    assert code == 1 and message.startswith("deal 1") and "melds" in message


@pytest.mark.parametrize(
    ("declarations", "expected"),
    [
        ({"belote": [1]}, "deal 1: seat 1 is listed with a belote it does not hold"),
        ({"belote": [{"seat": 2, "suit": "S", "at": "belote"}]}, "deal 1: seat 2 is listed with a belote in S"),
        ({"melds": {"2": ["tierce AH"]}}, "deal 1: seat 2 cannot declare: tierce AH is not in the hand"),
        ({"melds": {"0": ["tierce AH", "tierce KH"]}}, "deal 1: seat 0 cannot declare: "),
    ],
)
def test_void_deal_declarations_must_be_held(
    declarations: dict[str, Any], expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec = load("void_deal.json")
    rec["declarations"] = declarations
    code, message = replay_one(capsys, tmp_path, rec)
    assert code == 1 and message.startswith(expected), message


def test_void_deal_with_held_melds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = load("void_deal.json")
    rec["declarations"] = {"belote": [], "melds": {"0": ["tierce AH"], "1": []}}
    code, out, err = run(capsys, "replay", "--json", write(tmp_path, "void.json", rec))
    assert (code, err) == (0, "") and json.loads(out)["contract"] is None


# ----- bids out of range are illegal calls, not malformed -----


@pytest.mark.parametrize("bid", ["300H", "310SA", "999990C", "305h", "170H"])
def test_out_of_range_bids_are_illegal(bid: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = load("classic_coinche_belote_melds.json")
    rec["auction"] = ["pass", bid, "pass", "pass", "pass"]
    code, message = replay_one(capsys, tmp_path, rec)
    assert code == 1
    assert message == f"deal 1, auction, seat 1: {bid.upper()} is illegal: bids are multiples of 10 from 80 to 160"


def test_bad_bid_after_the_auction_or_before_bad_calls(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = load("void_deal.json")
    rec["auction"] = ["pass", "pass", "pass", "pass", "300H"]
    code, message = replay_one(capsys, tmp_path, rec)
    assert (code, message) == (1, "deal 1, auction, seat 1: 300H is illegal: the auction is over")
    rec["auction"] = ["300H", "bogus"]  # a malformed call later in the record: malformed wins
    code, message = replay_one(capsys, tmp_path, rec)
    assert code == 2 and message.startswith("deal 1: auction call 2: not a call: 'bogus'")


@pytest.mark.parametrize("text", ["9999999H", "300", "300X", "H300"])
def test_what_stays_malformed(text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = load("void_deal.json")
    rec["auction"] = [text]
    code, message = replay_one(capsys, tmp_path, rec)
    assert code == 2 and message.startswith(f"deal 1: auction call 1: not a call: '{text}'")


def test_parse_bid() -> None:
    assert parse_bid("300H") == (300, 1) and parse_bid(" 90sa ") == (90, 4)
    assert parse_bid("999999TA") == (999999, 5)
    for text in ("9999999H", "90", "H", "90X", "capotS", "pass", "²0H"):
        assert parse_bid(text) is None
    with pytest.raises(NotACall):
        parse_call("300H")


def test_typed_out_of_range_bid_is_not_allowed() -> None:
    rc, out = play("300H\n" + "1\n" * 3000)
    assert rc == 0
    assert "  Not allowed: 300H is illegal: bids are multiples of 10 from 80 to 160" in out


# ----- error messages echo a short part of a bad value -----


def test_parsers_echo_short_values() -> None:
    long = "Z" * 10_000_000
    for parse, error in ((parse_call, NotACall), (parse_meld, NotAMeld)):
        with pytest.raises(error) as info:
            parse(long)
        assert len(str(info.value)) < 200
    for text in (long, "tierce " + long, long + " AH"):
        with pytest.raises(ValueError) as info_:
            parse_meld(text)
        assert len(str(info_.value)) < 250
    with pytest.raises(NotACard) as card_info:
        parse_cards("AS " + long)
    assert len(str(card_info.value)) < 200
    with pytest.raises(RulesError) as rules_info:
        parse_option_value("packets", long)
    assert len(str(rules_info.value)) < 200
    with pytest.raises(ScoringError) as score_info:
        parse_contract("generale" + long, RuleSet.profile("online"))
    assert len(str(score_info.value)) < 200


@pytest.mark.parametrize(
    "mutate",
    [
        lambda r: r["play"].__setitem__(0, "Z" * 1_000_000),
        lambda r: r["hands"].__setitem__(0, "Z" * 1_000_000),
        lambda r: r["auction"].__setitem__(0, "9" * 1_000_000 + "H"),
        lambda r: r.update(dealer="x" * 1_000_000),
        lambda r: r.update(dealer=int("7" * 4000)),
        lambda r: r.update(rules="x" * 1_000_000),
        lambda r: r.update(options={"x" * 1_000_000: 1}),
        lambda r: r.update(options={"packets": "x" * 1_000_000}),
        lambda r: r.update(declarations={"melds": {"0": ["tierce " + "A" * 1_000_000]}}),
        lambda r: r.update(declarations={"melds": {"x" * 1_000_000: []}}),
        lambda r: r.update(declarations={"belote": [{"seat": 0, "suit": "S" * 1_000_000}]}),
        lambda r: r.update(declarations={"belote": ["x" * 1_000_000]}),
    ],
)
def test_record_errors_echo_short_values(mutate: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = load("classic_coinche_belote_melds.json")
    mutate(rec)
    code, message = replay_one(capsys, tmp_path, rec)
    assert code == 2 and len(message) < 300, message[:500]
