"""Automated accessibility check of a page with axe-core (the copy the PyPI package
``axe-playwright-python`` ships): a test calls ``assert_accessible(page)`` on each state
of a page it wants checked; a serious or critical violation fails it with a readable list.

axe-core is a script: on a page whose context has JavaScript turned off, its promise would
never settle. Such a page is checked as a copy: its HTML as it stands, scripts removed,
served at the same address to a fresh page with JavaScript, its styles loaded as usual.
"""

from __future__ import annotations

import re
from typing import Any

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, Route

FAILING_IMPACTS = frozenset({"serious", "critical"})
_AXE = Axe()


SCRIPT = re.compile(r"<script\b[^>]*>.*?</script>", re.IGNORECASE | re.DOTALL)


def scripts_run(page: Page) -> bool:
    """Whether the page runs its own scripts: with JavaScript off, what Playwright evaluates
    still runs, but a timer never fires (and axe-core waits on timers)."""
    page.evaluate("() => { window.__axeProbe = 0; setTimeout(() => { window.__axeProbe = 1; }, 0); }")
    for _ in range(20):
        page.wait_for_timeout(10)
        if page.evaluate("() => window.__axeProbe"):
            return True
    return False


def violations(page: Page, selector: str | None = None) -> list[dict[str, Any]]:
    """axe-core's violations on ``page`` (WCAG 2.x A and AA rules and best practices),
    within ``selector`` when given."""
    if not scripts_run(page):
        return _static_copy_violations(page, selector)
    # A sheet fading in is half transparent for 220 ms: axe would measure its text's
    # contrast mid-fade. Wait for the finite animations (not the turn's endless glow).
    page.evaluate(
        """() => Promise.all(document.getAnimations()
            .filter((a) => a.effect && a.effect.getTiming().iterations !== Infinity)
            .map((a) => a.finished.catch(() => null)))"""
    )
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(_AXE.axe_script)  # 570 kB: sent once a page, not at every check
    found: list[dict[str, Any]] = page.evaluate(
        "(context) => axe.run(context || document, {resultTypes: ['violations']}).then((r) => r.violations)",
        selector,
    )
    return found


def _static_copy_violations(page: Page, selector: str | None) -> list[dict[str, Any]]:
    browser = page.context.browser
    assert browser is not None
    html = SCRIPT.sub("", page.content())
    copy = browser.new_context(viewport=page.viewport_size)
    try:
        tab = copy.new_page()

        def serve(route: Route) -> None:
            route.fulfill(status=200, content_type="text/html; charset=utf-8", body=html)

        tab.route(page.url, serve)
        tab.goto(page.url)
        return violations(tab, selector)
    finally:
        copy.close()


def assert_accessible(page: Page, selector: str | None = None) -> None:
    """No serious or critical axe-core violation on the page as it is now."""
    bad = [v for v in violations(page, selector) if v.get("impact") in FAILING_IMPACTS]
    if bad:
        lines = [f"{len(bad)} serious accessibility violation(s) on {page.url}:"]
        for v in bad:
            targets = [", ".join(node.get("target", [])) for node in v.get("nodes", [])][:5]
            lines.append(f"- {v['id']} ({v['impact']}): {v['help']} -> {targets}")
        raise AssertionError("\n".join(lines))


def animations_done(page: Page, selector: str) -> None:
    """Waits for the end of the element's running CSS animations and transitions (its
    opening animation, say) rather than for a fixed time."""
    page.locator(selector).evaluate(
        "el => Promise.all(el.getAnimations().filter(a => a.effect?.getTiming().iterations !== Infinity)"
        ".map(a => a.finished.catch(() => null)))"
    )


def assert_no_horizontal_scroll(page: Page) -> None:
    """The page fits its viewport's width (a phone must never scroll sideways)."""
    overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    if overflow > 0:
        wide = page.evaluate(
            "() => { const w = document.documentElement.clientWidth; return [...document.querySelectorAll('body *')]"
            ".filter(e => e.getBoundingClientRect().right > w).slice(0, 8)"
            ".map(e => `${e.tagName.toLowerCase()}.${e.className} right=${e.getBoundingClientRect().right}`); }"
        )
        raise AssertionError(f"{page.url} scrolls sideways by {overflow} px: {wide}")
