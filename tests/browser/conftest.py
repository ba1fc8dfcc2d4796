"""Browser tests: real Chromium (Debian's package) against a real ``coinche serve``.

The fixtures bring what a fresh machine lacks: Chromium itself (installed with apt-get when
the tests run as root, else the browser tests are skipped and the summary line at the end of
the run says why; under CI, ``CI=true``, a missing browser fails the run instead), a server
started as a subprocess on a free loopback port with a temporary SQLite database and no
bot delay, and a fresh browser context for each test (a new context is a new guest, with
the server's free deals). Run them alone with ``python -m pytest tests/browser``; leave
them out with ``-m "not browser"``.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn

import pytest
from browser_helpers import DEFAULT_TIMEOUT_MS, DESKTOP, PHONE, SCREENSHOT_TIMEOUT_MS, new_context, new_page, run_server

from install_lock import install_lock

HERE = Path(__file__).resolve().parent

ON_CI = os.environ.get("CI", "").strip().lower() in ("true", "1")
"""Under CI a browser that cannot run fails the run: a skip there would let a green run
claim browser tests that never ran."""

try:
    from playwright.sync_api import Browser, BrowserContext, Page, Playwright, expect, sync_playwright
    from table_driver import ARTIFACTS
except ImportError as error:
    PLAYWRIGHT_MISSING: str | None = f"browser tests need the playwright package ({error}): pip install -e '.[test]'"
else:
    PLAYWRIGHT_MISSING = None


class _SkippedModule(pytest.Module):
    """A browser test module that cannot be imported without playwright: skipped whole."""

    def collect(self) -> NoReturn:
        assert PLAYWRIGHT_MISSING is not None
        pytest.skip(PLAYWRIGHT_MISSING)


def pytest_pycollect_makemodule(module_path: Path, parent: pytest.Collector) -> pytest.Module | None:
    """Without playwright the browser test modules are skipped (the summary says why); under
    CI they are imported as usual and their import errors fail the run."""
    if PLAYWRIGHT_MISSING is None or ON_CI:
        return None
    module: pytest.Module = _SkippedModule.from_parent(parent, path=module_path)
    return module


CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: drives Chromium against a running coinche server")
    if PLAYWRIGHT_MISSING is None:
        expect.set_options(timeout=DEFAULT_TIMEOUT_MS)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, exitstatus: int, config: pytest.Config) -> None:
    """Why browser tests did not run, in the default output (``-q`` prints no skip reason
    without ``-rs``): a skipped browser test must not pass for a run one."""
    reasons: dict[str, int] = {}
    for report in terminalreporter.stats.get("skipped", []):
        path = Path(config.rootpath, report.location[0]).resolve()
        if HERE in path.parents and isinstance(report.longrepr, tuple):
            reason = str(report.longrepr[2]).removeprefix("Skipped: ")
            reasons[reason] = reasons.get(reason, 0) + 1
    for reason, count in reasons.items():
        terminalreporter.write_line(f"browser tests skipped ({count}): {reason}", yellow=True, bold=True)
    if PLAYWRIGHT_MISSING is not None and ON_CI:
        what = f"browser tests cannot run under CI=true: {PLAYWRIGHT_MISSING}"
        terminalreporter.write_line(what, red=True, bold=True)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the browser tests, and run them first: they are the longest (a whole deal with
    four pages takes up to a minute). Started first on the test processes, the short tests
    fill in around them; started last, one of them ran alone at the end of the run for a
    minute, the other processes idle."""
    browser = {id(item) for item in items if HERE in Path(str(item.path)).resolve().parents}
    for item in items:
        if id(item) in browser:
            item.add_marker(pytest.mark.browser)
    items.sort(key=lambda item: id(item) not in browser)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    if report.when == "call":
        item.stash[_FAILED] = report.failed
    return report


_FAILED = pytest.StashKey[bool]()


# ----- Chromium -----


_install_attempted = False


def _install_chromium() -> str | None:
    """``apt-get update`` (once) then ``apt-get install -y chromium``; the path found after."""
    global _install_attempted
    if _install_attempted:
        return shutil.which("chromium")
    _install_attempted = True
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    with install_lock():  # parallel test processes: one installs, the others then find it
        if shutil.which("chromium"):
            return shutil.which("chromium")
        for command in (["apt-get", "update"], ["apt-get", "install", "-y", "chromium"]):
            done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=1200, check=False)
            if done.returncode != 0:
                tail = (done.stdout + done.stderr)[-2000:]
                pytest.fail(f"`{' '.join(command)}` failed (status {done.returncode}) installing Chromium:\n{tail}")
    return shutil.which("chromium")


def no_browser(reason: str) -> NoReturn:
    """Skip the browser tests, or under CI fail them: CI must prove they ran."""
    if ON_CI:
        pytest.fail(f"{reason} (CI=true: a missing browser fails the run)", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def chromium_path() -> str:
    path = shutil.which("chromium")
    if path is not None:
        return path
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        no_browser(
            "browser tests need Chromium: `chromium` is not on PATH and the tests cannot install it without root"
        )
    if shutil.which("apt-get") is None:
        no_browser("browser tests need Chromium: `chromium` is not on PATH and there is no apt-get to install it")
    path = _install_chromium()
    if path is None:
        pytest.fail("apt-get installed the chromium package but `chromium` is still not on PATH")
    return path


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(chromium_path: str, playwright: Playwright) -> Iterator[Browser]:
    b = playwright.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS, headless=True)
    yield b
    b.close()


# ----- the server -----


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The site with its default settings (3 free deals a guest), but the daily challenge's
    computers at the confirmed level: what the tests check of the challenge does not depend
    on the level, and the expert's thinking was most of their time."""
    with run_server(
        tmp_path_factory.mktemp("server"), "--challenge-level", "confirmed", "--signup-limit-per-address", "1000/minute"
    ) as base:
        yield base


# ----- pages -----


@contextlib.contextmanager
def _kept_on_failure(request: pytest.FixtureRequest, page_of: BrowserContext, name: str) -> Iterator[None]:
    try:
        yield
    finally:
        if request.node.stash.get(_FAILED, False):
            ARTIFACTS.mkdir(exist_ok=True)
            for i, p in enumerate(page_of.pages):
                with contextlib.suppress(Exception):
                    p.screenshot(
                        path=str(ARTIFACTS / f"failed-{name}-{i}.png"), full_page=True, timeout=SCREENSHOT_TIMEOUT_MS
                    )
                with contextlib.suppress(Exception):
                    notes = [f"url: {p.url}", f"script errors: {getattr(p, 'js_errors', [])}"]
                    notes += ["live region:", *p.evaluate("() => window.__live || []")]
                    (ARTIFACTS / f"failed-{name}-{i}.txt").write_text("\n".join(notes) + "\n", encoding="utf-8")


@pytest.fixture
def context(browser: Browser, server: str, request: pytest.FixtureRequest) -> Iterator[BrowserContext]:
    """A fresh desktop context: a new guest of the default server."""
    ctx = new_context(browser, server, viewport=DESKTOP)
    with _kept_on_failure(request, ctx, request.node.name):
        yield ctx
    ctx.close()


@pytest.fixture
def page(context: BrowserContext, server: str) -> Page:
    return new_page(context, server)


@pytest.fixture
def phone_context(browser: Browser, server: str, request: pytest.FixtureRequest) -> Iterator[BrowserContext]:
    """A fresh phone-sized touch context (360 x 740)."""
    ctx = new_context(browser, server, viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2)
    with _kept_on_failure(request, ctx, request.node.name):
        yield ctx
    ctx.close()


@pytest.fixture
def phone_page(phone_context: BrowserContext, server: str) -> Page:
    return new_page(phone_context, server)


@pytest.fixture(scope="session")
def server_factory() -> Any:
    """``with server_factory(workdir, *options) as base_url``: another server, e.g. with
    ``--free-deals 100`` for a test that plays more than three deals."""
    return run_server


@pytest.fixture
def make_page(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Any]:
    """``make_page(base_url, **context_options)``: a page of a fresh context on another
    server (a test's own), closed after the test."""
    made: list[BrowserContext] = []

    def make(base_url: str, **options: Any) -> Page:
        ctx = new_context(browser, base_url, **{"viewport": DESKTOP, **options})
        made.append(ctx)
        return new_page(ctx, base_url)

    yield make
    for ctx in made:
        with _kept_on_failure(request, ctx, request.node.name):
            pass
        ctx.close()
