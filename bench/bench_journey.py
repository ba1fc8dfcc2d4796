"""Three people at quick play through two deals, in Chromium (issue 49): how long the
journey takes, how soon every page shows the new hand after "Donne suivante", and a
screenshot of every step for people to look at.

Starts its own ``coinche serve`` (a temporary folder, ``--quick-wait 3`` so the three meet
at once, ``--bot-delay 0.3``: the computer in the fourth seat moves quicker than the site's
0.7 s, for a shorter run, but not at once, so that the pages still draw its moves one by
one as in life; the site's own pause of a complete trick, 1 s), then launches Debian's
Chromium (headless) with one browser context per person. Each person signs up, goes to
/partie-rapide, picks the Classique rules and presses "Trouver une partie"; the three land
at one table with a computer. Each page plays its own turns with its own buttons (the first
person opens the auction with the lowest bid, so no deal is passed out). When all three see
the first deal's summary, one person presses "Donne suivante" (the next round, the next
person), and each page's moment of showing its new hand (eight cards, the summary gone) is
taken in the pages' own clocks: the press by a click listener of the pressing page, each
page's new hand by a MutationObserver (and the frame after it) installed when the page
loaded, all as ``performance.timeOrigin + performance.now()``, comparable across the pages
of one machine.

    python bench/bench_journey.py [--size 1366x768|390x844] [--runs 3] [--rounds 1] [--out bench-journey]

A run is the whole journey: sign-ups, quick play, ``--rounds`` + 1 deals (two by default).
Without ``--size``: the desktop, then the phone (touch, twice the pixels), a fresh server
each. The first run of each size keeps a screenshot of every page at every step in
``--out``, ``<size>-<step>-<person>.png``, the steps numbered in their order
(``1366x768-07-deal1-summary-alix.png``); the other runs take none: their timings are the
journey's own. It prints, per size:

- per run: the seconds from a person's press of "Trouver une partie" to their page showing
  the hand at the table (each person), and each deal's seconds (from the first page showing
  its hand to the last page showing the deal's summary);
- the next-deal latency: per page (who pressed, who did not) and overall, median and max in
  ms, to the new hand in the document (``dom``) and to the frame that shows it (``frame``);
- the screenshots' folder.

The browser contexts ask for reduced motion, as the browser tests' do (the cards are in
the document at the same moment either way). Only 127.0.0.1 is contacted; every wait has a
timeout.

Measured on 2026-12-07, 2 cores shared with another session's browser tests (load average
4 to 10 during the run), default options (3 runs a size, one press a run, each person
pressing once):

- 1366x768: press -> seated 4.4-6.0 s (the 3 s wait, then the table page); a deal 12.5-25.5 s;
  'Donne suivante' -> new hand, all pages: median 89 ms (dom) / 100 ms (frame), max 502 /
  529 ms (per page, dom: medians 56-107 ms, maxima 103-502 ms: the load's noise);
- 390x844: press -> seated 3.8-4.4 s; a deal 11.9-16.8 s; 'Donne suivante' -> new hand,
  all pages: median 70 / 77 ms, max 203 / 227 ms.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))

from browser_helpers import SCREENSHOT_TIMEOUT_MS, LiveServer, new_context, new_page, signed_up
from playwright.sync_api import Browser, Page, expect, sync_playwright
from table_driver import Table
from test_browser_friends import TABLE_URL, deal_over, play_until

SIZES: dict[str, dict[str, Any]] = {
    "1366x768": {"viewport": {"width": 1366, "height": 768}},
    "390x844": {
        "viewport": {"width": 390, "height": 844},
        "has_touch": True,
        "is_mobile": True,
        "device_scale_factor": 2,
    },
}
NAMES = ("Alix", "Bastien", "Chloé")
FILE_NAMES = ("alix", "bastien", "chloe")
"""The people in the screenshots' file names (ASCII: the names travel between machines)."""
SERVER_OPTIONS = (
    "--quick-wait",
    "3",
    "--bot-delay",
    "0.3",
    "--trick-pause",
    "1",
    "--signup-limit-per-address",
    "1000/minute",
)
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu"]
SEATED_TIMEOUT = 30.0
DEAL_TIMEOUT = 180.0
NEW_HAND_TIMEOUT = 20.0

WATCH = """
(() => {
  const now = () => performance.timeOrigin + performance.now();
  window.__newHands = [];
  window.__summaries = [];
  window.__nextPressed = [];
  let handShown = false;
  let summaryShown = false;
  const look = () => {
    const summary = document.getElementById('summary');
    const open = !!(summary && summary.open);
    const shown = document.querySelectorAll('#hand .hand-card').length === 8 && !open;
    if (shown && !handShown) {
      const seen = { dom: now(), frame: null };
      window.__newHands.push(seen);
      requestAnimationFrame(() => { seen.frame = now(); });
    }
    handShown = shown;
    if (open && !summaryShown) window.__summaries.push(now());
    summaryShown = open;
  };
  new MutationObserver(look).observe(document, {
    childList: true, subtree: true, attributes: true, attributeFilter: ['open'],
  });
  document.addEventListener('click', (e) => {
    if (e.target.closest && e.target.closest('button[data-do="next"]')) window.__nextPressed.push(now());
  }, true);
})();
"""
"""Installed in every page before its own scripts: when the page shows a new hand (eight
cards, no summary open) in the document and in the next frame, when it opens a summary, and
when "Donne suivante" is clicked on it; all in milliseconds since the epoch, the pages' own
clock (``performance.timeOrigin + performance.now()``)."""

AUCTION_ON = """() => {
  const box = document.getElementById('bidding');
  const calls = document.querySelectorAll('#history td.call-cell').length;
  return (calls >= 2 && !!box && box.checkVisibility()) || document.querySelector('#trick .card') !== null;
}"""
"""The auction under way (two calls made, this page to call), or already over: a step of its
own, not the first call's moment, which the seated step already shows."""

TRICK_ON = """() => document.querySelectorAll('#trick .card').length >= 2"""
"""Two cards or more of a trick on the table."""


@dataclass
class Run:
    """What one journey measured (seconds, and milliseconds for the latencies)."""

    seated: list[float] = field(default_factory=list)
    deals: list[float] = field(default_factory=list)
    latency_dom: dict[int, list[float]] = field(default_factory=dict)
    latency_frame: dict[int, list[float]] = field(default_factory=dict)
    pressers: list[int] = field(default_factory=list)
    screenshots: bool = False
    ended: str = ""


def clock(page: Page) -> float:
    """The page's clock, in ms since the epoch."""
    now: float = page.evaluate("() => performance.timeOrigin + performance.now()")
    return now


def readings(page: Page, name: str) -> list[Any]:
    found: list[Any] = page.evaluate(f"() => window.{name} || []")
    return found


class Shots:
    """The screenshots of one run: ``<size>-<step>-<person>.png`` in ``folder``, or none."""

    def __init__(self, folder: Path | None, size: str) -> None:
        self.folder = folder
        self.size = size
        self.steps = 0

    def take(self, step: str, pages: list[Page]) -> None:
        """Every page as it is now; the step numbered, so that the files sort in order."""
        if self.folder is None:
            return
        self.steps += 1
        for page, name in zip(pages, FILE_NAMES, strict=True):
            path = self.folder / f"{self.size}-{self.steps:02d}-{step}-{name}.png"
            page.screenshot(path=str(path), animations="disabled", timeout=SCREENSHOT_TIMEOUT_MS)


def wait_until(done: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what}: not within {timeout:.0f} s")
        time.sleep(0.05)


def play_deal(tables: list[Table], shots: Shots, number: int) -> None:
    """Every page plays its turns to the deal's summary on all three; with screenshots of
    the auction and of a trick under way for the first two deals."""
    pages = [t.page for t in tables]
    if number <= 2:
        play_until(tables, lambda: any(p.evaluate(AUCTION_ON) for p in pages), timeout=DEAL_TIMEOUT)
        shots.take(f"deal{number}-auction", pages)
        play_until(
            tables,
            lambda: any(p.evaluate(TRICK_ON) for p in pages) or all(deal_over(t) for t in tables),
            timeout=DEAL_TIMEOUT,
        )
        shots.take(f"deal{number}-trick", pages)
    play_until(tables, lambda: all(deal_over(t) or game_over(t) for t in tables), timeout=DEAL_TIMEOUT)


def game_over(table: Table) -> bool:
    """The summary offers no next deal: the game is over (a long run of ``--rounds``)."""
    return not deal_over(table) and table.game_over().first.is_visible()


def new_hands_shown(pages: list[Page], before: list[int]) -> bool:
    """Every page has shown a hand more than ``before`` counted, and drawn its frame."""
    for page, count in zip(pages, before, strict=True):
        hands = readings(page, "__newHands")
        if len(hands) <= count or hands[-1]["frame"] is None:
            return False
    return True


def deal_seconds(pages: list[Page], deal_index: int) -> float:
    """From the first page showing the deal's hand to the last page opening its summary."""
    start = min(readings(p, "__newHands")[deal_index]["dom"] for p in pages)
    end = max(readings(p, "__summaries")[deal_index] for p in pages)
    return float(end - start) / 1000


def journey(browser: Browser, base: str, size: str, n: int, rounds: int, shots: Shots) -> Run:
    """Run ``n``: three new people, quick play, ``rounds`` + 1 deals; the next deal is
    pressed by each person in turn, from run to run and round to round."""
    run = Run(screenshots=shots.folder is not None)
    contexts = []
    try:
        pages = []
        for _ in NAMES:
            context = new_context(browser, base, **SIZES[size])
            context.add_init_script(WATCH)
            contexts.append(context)
            pages.append(new_page(context, base))
        for page, name in zip(pages, NAMES, strict=True):
            signed_up(page, f"{name}{n}")
        shots.take("signed-up", pages)
        for page in pages:
            page.goto("/partie-rapide")
            page.get_by_label("Classique", exact=True).check()
        shots.take("quick-play", pages)
        pressed = []
        for page in pages:  # one after the other at once: each person waits 3 s from their own press
            pressed.append(clock(page))
            page.get_by_role("button", name="Trouver une partie").click()
        for page in pages:
            expect(
                page.get_by_role("heading", name="Recherche de joueurs…").or_(page.locator("#table"))
            ).to_be_visible()
        shots.take("waiting", pages)
        for page in pages:
            page.wait_for_url(TABLE_URL, timeout=SEATED_TIMEOUT * 1000)
        if len({page.url for page in pages}) != 1:
            raise RuntimeError(f"the three were not seated together: {[page.url for page in pages]}")
        wait_until(lambda: all(readings(p, "__newHands") for p in pages), SEATED_TIMEOUT, "the hands at the table")
        run.seated = [(readings(p, "__newHands")[0]["dom"] - at) / 1000 for p, at in zip(pages, pressed, strict=True)]
        tables = [Table(p, how="click") for p in pages]
        shots.take("seated", pages)
        play_deal(tables, shots, 1)
        run.deals.append(deal_seconds(pages, 0))
        shots.take("deal1-summary", pages)
        for r in range(rounds):
            if not all(deal_over(t) for t in tables):
                run.ended = f"the game ended after deal {r + 1}"
                break
            presser = (n + r) % len(pages)
            before = [len(readings(p, "__newHands")) for p in pages]
            tables[presser].next_deal()
            wait_until(partial(new_hands_shown, pages, before), NEW_HAND_TIMEOUT, "the new hand on every page")
            press = readings(pages[presser], "__nextPressed")[-1]
            run.pressers.append(presser)
            for i, (page, b) in enumerate(zip(pages, before, strict=True)):
                seen = readings(page, "__newHands")[b]
                run.latency_dom.setdefault(i, []).append(seen["dom"] - press)
                run.latency_frame.setdefault(i, []).append(seen["frame"] - press)
            if r == 0:
                shots.take("deal2-started", pages)
            play_deal(tables, shots, r + 2)
            run.deals.append(deal_seconds(pages, r + 1))
            if r == 0:
                shots.take("deal2-summary", pages)
        for page in pages:
            errors = page.js_errors  # type: ignore[attr-defined]
            if errors:
                print(f"  script errors on {page.url}: {errors}")
    finally:
        for context in contexts:
            context.close()
    return run


def ms(values: list[float]) -> str:
    return f"median {statistics.median(values):.0f} ms, max {max(values):.0f} ms" if values else "none"


def report(size: str, runs: list[Run], out: Path) -> None:
    print(f"{size}: {len(runs)} run(s) of three people at quick play")
    for k, run in enumerate(runs, 1):
        seated = ", ".join(f"{name} {s:.1f} s" for name, s in zip(NAMES, run.seated, strict=True))
        deals = ", ".join(f"deal {i} {s:.1f} s" for i, s in enumerate(run.deals, 1))
        tag = " (screenshots taken)" if run.screenshots else ""
        print(f"  run {k}{tag}: press -> seated: {seated}; {deals}" + (f"; {run.ended}" if run.ended else ""))
    for kind in ("dom", "frame"):
        print(f"  'Donne suivante' -> new hand ({kind}):")
        every: list[float] = []
        for i, name in enumerate(NAMES):
            values = [v for run in runs for v in getattr(run, f"latency_{kind}").get(i, [])]
            pressed = sum(run.pressers.count(i) for run in runs)
            every += values
            print(f"    {name} (pressed {pressed} of {len(values)}): {ms(values)}")
        print(f"    all pages: {ms(every)}")
    print(f"  screenshots: {out.resolve()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", choices=sorted(SIZES), help="one size (default: both, one after the other)")
    parser.add_argument("--runs", type=int, default=3, help="whole journeys per size (default 3)")
    parser.add_argument("--rounds", type=int, default=1, help="'Donne suivante' presses a run (default 1: two deals)")
    parser.add_argument("--out", type=Path, default=Path("bench-journey"), help="the screenshots' folder")
    args = parser.parse_args()
    if not 1 <= args.runs <= 20 or not 1 <= args.rounds <= 10:
        parser.error("--runs 1..20, --rounds 1..10")
    chromium = shutil.which("chromium")
    if chromium is None:
        raise SystemExit("no chromium on PATH (Debian's package: apt-get install chromium)")
    args.out.mkdir(parents=True, exist_ok=True)
    sizes = [args.size] if args.size else ["1366x768", "390x844"]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS, headless=True)
        try:
            for size in sizes:
                with tempfile.TemporaryDirectory(prefix="coinche-journey-") as folder:
                    server = LiveServer(Path(folder), *SERVER_OPTIONS)
                    try:
                        runs = []
                        for n in range(args.runs):
                            shots = Shots(args.out if n == 0 else None, size)
                            runs.append(journey(browser, server.base, size, n, args.rounds, shots))
                            print(f"  {size}: run {n + 1} of {args.runs} done", flush=True)
                    finally:
                        server.stop()
                    log = server.log()
                    if "Traceback" in log:
                        print("  server log:\n" + "\n".join(log.splitlines()[-30:]))
                report(size, runs, args.out)
        finally:
            browser.close()


if __name__ == "__main__":
    main()
