"""The engine protocol's conformance kit (issue 53, ``coinche engine-check``): the project's
own engines conform, an engine with one fault is told that fault by name, and a bad
command line is one line and exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cli_helpers import run
from coinche.bots.engine_check import engine_check, positions
from coinche.engine.actions import is_announce, is_card, is_declaration
from coinche.engine.cards import ALL_TRUMP, NO_TRUMP
from coinche.engine.rules import PROFILES

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = [sys.executable, str(ROOT / "examples" / "first_legal_bot.py")]
FAULTY = [sys.executable, str(Path(__file__).parent / "faulty_engine.py")]


def cli(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "coinche.cli", "engine-check", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )


def test_every_profile_offers_every_kind_of_action_to_the_engine_s_seat() -> None:
    for name, rules in PROFILES.items():
        found = dict(positions(rules))
        for label, deal in found.items():
            assert deal.to_move == 0 and deal.view(0).legal_actions, (name, label)
        assert any(is_announce(a) for a in found["belote offered"].legal_actions())
        assert ("meld declaration" in found) == rules.melds
        if rules.melds:
            assert all(is_declaration(a) for a in found["meld declaration"].legal_actions())
        if rules.sa_ta:
            for label, trump in (("sans-atout card", NO_TRUMP), ("tout-atout card", ALL_TRUMP)):
                deal = found[label]
                assert deal.contract is not None and deal.contract.trump == trump
                assert all(is_card(a) for a in deal.legal_actions())


@pytest.mark.parametrize("command", [EXAMPLE, [sys.executable, "-m", "coinche.cli", "engine", "--level", "beginner"]])
def test_our_engines_conform(command: list[str]) -> None:
    report = engine_check(command)
    assert report.conforms, report.format()
    assert report.protocol == 1 and report.count("failed") == 0
    names = [c.name for c in report.checks]
    assert {"hello", "quit", "deal_over, then a decide", "time_ms 1000", "house: belote in tout-atout"} <= set(names)
    assert {f"{p}: a whole deal" for p in PROFILES} <= set(names)


def test_the_confirmed_engine_conforms_through_the_command_line() -> None:
    done = cli("--json", "--", sys.executable, "-m", "coinche.cli", "engine", "--level", "confirmed")
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert report["conforms"] and report["protocol"] == 1 and report["name"] == "coinche confirmed"
    assert report["failed"] == 0 and report["passed"] == len(report["checks"])


# (fault, profiles checked, the checks that fail: exactly, or at least when "..." ends
# the list, and what the first of them says)
FAULTS = [
    ("protocol", ("online",), ["hello"], "protocol 2 in"),
    ("mute", ("online",), ["hello"], "no hello: the engine stopped (exit status 0) after the host's hello"),
    ("refuse", ("online",), ["hello"], "the engine cannot play: this engine plays no coinche"),
    ("quit", ("online",), ["quit"], "still running 0.5 s after quit (it was killed)"),
    ("slow", ("online",), ["time_ms 300"], "no answer within time_ms 300"),
    (
        "surcoinche",
        ("online",),
        ["online: surcoinche offered"],
        "the engine stopped (exit status 3) after the host's deal, decide",
    ),
    ("meld", ("federation",), ["federation: meld declaration"], "the engine stopped (exit status 1)"),
    ("belote", ("online",), ["online: belote offered", "..."], 'an action the protocol cannot read: {"type"'),
    (
        "deal_over",
        ("online",),
        ["deal_over, then a decide", "..."],
        "stopped (exit status 1) after the host's deal_over, deal, decide",
    ),
    ("wrong-id", ("online",), ["online: calls", "..."], "answered id 2 to the decide of id 1"),
    ("illegal", ("online",), ["online: calls", "..."], 'an illegal action: {"type": "action", "id": 1'),
    ("not-json", ("online",), ["online: calls", "..."], "a line that is not JSON: thinking..."),
]


@pytest.mark.parametrize(("fault", "profiles", "failing", "said"), FAULTS, ids=[f[0] for f in FAULTS])
def test_a_faulty_engine_is_told_its_fault(
    fault: str, profiles: tuple[str, ...], failing: list[str], said: str
) -> None:
    report = engine_check([*FAULTY, fault], time_ms=3000, short_ms=300, quit_s=0.5, profiles=profiles)
    failed = [c for c in report.checks if c.status == "failed"]
    assert not report.conforms
    if failing[-1] == "...":
        assert set(failing[:-1]) <= {c.name for c in failed}, report.format()
    else:
        assert [c.name for c in failed] == failing, report.format()
    assert said in next(c.detail for c in failed if c.name == failing[0]), report.format()
    if failing == ["hello"]:
        assert report.checks[-1].status == ("passed" if fault == "protocol" else "skipped")


def test_the_command_line_exits_1_and_names_the_fault() -> None:
    done = cli("--rules", "online", "--", *FAULTY, "surcoinche")
    assert done.returncode == 1 and done.stderr == ""
    assert "FAIL  online: surcoinche offered" in done.stdout
    assert done.stdout.splitlines()[-1].endswith("the engine does not conform to protocol 1")


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        ((), "give the engine's command after --"),
        (("--", str(ROOT / "no-such-engine")), "cannot start the engine"),
        (("--short-ms", "0", "--", "x"), "--short-ms must be at least 1"),
        (("--rules", "tarot", "--", "x"), "invalid choice: 'tarot'"),
        (("--time-ms", "soon", "--", "x"), "invalid int value"),
    ],
)
def test_usage_errors_exit_2_on_one_line(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], said: str) -> None:
    code, out, err = run(capsys, "engine-check", *argv)
    assert code == 2 and out == ""
    assert said in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
