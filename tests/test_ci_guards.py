"""A green CI proves what it claims (issue 15): ``.ci/run`` stops at the first failed step
and runs the browser tests with ``CI=true``, and under ``CI=true`` a browser that cannot run
fails the run instead of skipping; elsewhere the skip's reason is printed.

``.ci/run`` runs against stand-in tools (each logs its call); the browser guards run pytest
in a subprocess on one browser test module with Chromium or playwright made unfindable.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BROWSER_MODULE = "tests/browser/test_browser_limit.py"
"""Any browser test module would do: this one is small and its one test needs the browser."""

FAKE_TOOL = """\
#!{python}
import os, sys
from pathlib import Path

name = Path(sys.argv[0]).name
args = sys.argv[1:]
with open(os.environ["FAKE_LOG"], "a", encoding="utf-8") as log:
    log.write(" ".join([name, *args]) + f"  [CI={{os.environ.get('CI', '')}}]\\n")
if name == "apt-get" and args[:1] == ["install"]:
    os.symlink(sys.argv[0], Path(sys.argv[0]).with_name("chromium"))
if name == "sudo":
    os.execvp(args[0], args)
step = "pytest" if args[:2] == ["-m", "pytest"] else name
sys.exit(int(os.environ.get(f"FAKE_{{step.upper().replace('-', '_')}}_RC", "0")))
"""
"""A stand-in for every tool ``.ci/run`` calls: logs its command line and the CI variable,
exits with ``FAKE_<TOOL>_RC`` (``FAKE_PYTEST_RC`` for ``python -m pytest``); ``apt-get
install`` puts a ``chromium`` beside it."""

TOOLS = ("python3", "python", "pip", "ruff", "mypy", "apt-get", "sudo")


def run_ci(tmp_path: Path, *, chromium: bool, **codes: int) -> tuple[int, list[str]]:
    """``.ci/run`` copied into an empty checkout, every tool a stand-in; its exit status and
    the tools' log lines."""
    repo, bin_dir = tmp_path / "repo", tmp_path / "bin"
    (repo / ".ci").mkdir(parents=True)
    (repo / ".venv" / "bin").mkdir(parents=True)
    (repo / ".venv" / "bin" / "activate").write_text(":\n", encoding="utf-8")
    shutil.copy(ROOT / ".ci" / "run", repo / ".ci" / "run")
    bin_dir.mkdir()
    fake = tmp_path / "fake_tool"
    fake.write_text(FAKE_TOOL.format(python=sys.executable), encoding="utf-8")
    fake.chmod(0o755)
    for tool in TOOLS:
        (bin_dir / tool).symlink_to(fake)
    for real in ("dirname", "env"):
        found = shutil.which(real)
        assert found is not None, real
        (bin_dir / real).symlink_to(found)
    if chromium:
        (bin_dir / "chromium").symlink_to(fake)
    log = tmp_path / "log"
    env = {"PATH": str(bin_dir), "HOME": str(tmp_path), "FAKE_LOG": str(log)}
    env.update({f"FAKE_{step.upper()}_RC": str(code) for step, code in codes.items()})
    bash = shutil.which("bash")
    assert bash is not None
    done = subprocess.run([bash, str(repo / ".ci" / "run")], env=env, capture_output=True, timeout=60, check=False)
    lines = log.read_text(encoding="utf-8").splitlines() if log.exists() else []
    return done.returncode, [line for line in lines if not line.startswith("sudo ")]


def test_ci_runs_each_step_with_ci_set(tmp_path: Path) -> None:
    status, log = run_ci(tmp_path, chromium=True)
    assert status == 0
    assert log == [
        "python3 -m venv .venv  [CI=]",
        "python -m pip install --quiet --upgrade pip  [CI=]",
        "pip install -e .[test]  [CI=]",
        "python -m pytest  [CI=true]",
        "ruff check .  [CI=true]",
        "mypy  [CI=true]",
    ]


def test_ci_installs_chromium_when_it_is_missing(tmp_path: Path) -> None:
    status, log = run_ci(tmp_path, chromium=False)
    assert status == 0
    assert log[:2] == ["apt-get update  [CI=]", "apt-get install -y chromium  [CI=]"]
    assert "python -m pytest  [CI=true]" in log


def test_ci_stops_at_a_failed_install(tmp_path: Path) -> None:
    """``pip install ... && python -m pytest`` under ``set -e`` went on to the tests (and
    to a green run) after a failed install."""
    status, log = run_ci(tmp_path, chromium=True, pip=1)
    assert status != 0
    assert log[-1] == "pip install -e .[test]  [CI=]"


def test_ci_stops_at_failed_tests(tmp_path: Path) -> None:
    status, log = run_ci(tmp_path, chromium=True, pytest=1)
    assert status != 0
    assert log[-1] == "python -m pytest  [CI=true]"


def test_ci_stops_when_chromium_cannot_be_installed(tmp_path: Path) -> None:
    status, log = run_ci(tmp_path, chromium=False, apt_get=100)
    assert status != 0
    assert log == ["apt-get update  [CI=]"]


# ----- the browser tests' guards -----


def run_pytest(tmp_path: Path, *, ci: bool, path: str | None = None, pythonpath: str | None = None) -> tuple[int, str]:
    """pytest in a subprocess on one passing test and ``BROWSER_MODULE``, with the project's
    settings (``addopts``, in one process: ``-n 0``); its status and output."""
    passing = tmp_path / "test_filler.py"
    passing.write_text("def test_passes() -> None:\n    pass\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "PYTHONPATH")}
    if ci:
        env["CI"] = "true"
    if path is not None:
        env["PATH"] = path
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0"]
    command += [f"--basetemp={tmp_path / 'basetemp'}"]
    command += ["--rootdir", str(ROOT), "-c", str(ROOT / "pyproject.toml"), "-x", str(passing), BROWSER_MODULE]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False)
    return done.returncode, done.stdout + done.stderr


@pytest.fixture
def no_chromium(tmp_path: Path) -> str:
    """A PATH on which neither ``chromium`` nor ``apt-get`` (to install it) is found."""
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    return str(empty)


def test_missing_chromium_skips_with_the_reason_printed(tmp_path: Path, no_chromium: str) -> None:
    status, out = run_pytest(tmp_path, ci=False, path=no_chromium)
    assert status == 0, out
    assert " skipped" in out and "1 passed" in out, out
    assert "browser tests skipped (" in out and "browser tests need Chromium: `chromium` is not on PATH" in out, out


def test_missing_chromium_fails_under_ci(tmp_path: Path, no_chromium: str) -> None:
    status, out = run_pytest(tmp_path, ci=True, path=no_chromium)
    assert status == pytest.ExitCode.TESTS_FAILED, out
    assert "browser tests need Chromium" in out and "CI=true: a missing browser fails the run" in out, out


@pytest.fixture
def no_playwright(tmp_path: Path) -> str:
    """A PYTHONPATH whose ``playwright`` package fails to import."""
    shadow = tmp_path / "shadow"
    (shadow / "playwright").mkdir(parents=True)
    (shadow / "playwright" / "__init__.py").write_text('raise ImportError("hidden by test_ci_guards")\n')
    return str(shadow)


def test_missing_playwright_skips_with_the_reason_printed(tmp_path: Path, no_playwright: str) -> None:
    status, out = run_pytest(tmp_path, ci=False, pythonpath=no_playwright)
    assert status == 0, out
    assert "1 passed, 1 skipped" in out, out
    assert "browser tests skipped (1): browser tests need the playwright package (hidden by test_ci_guards)" in out, out


def test_missing_playwright_fails_under_ci(tmp_path: Path, no_playwright: str) -> None:
    status, out = run_pytest(tmp_path, ci=True, pythonpath=no_playwright)
    assert status not in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED), out
    assert "browser tests cannot run under CI=true: browser tests need the playwright package" in out, out


def test_no_two_test_modules_share_a_name() -> None:
    """pytest imports test modules by their file name (no packages here): two files of one
    name in two folders make the second fail to collect, a whole module of tests lost."""
    tests = Path(__file__).resolve().parent
    seen: dict[str, Path] = {}
    for path in sorted(tests.rglob("test_*.py")):
        if path.name in seen:
            raise AssertionError(f"{path.relative_to(tests)} and {seen[path.name].relative_to(tests)} share a name")
        seen[path.name] = path
