"""Automated accessibility check of a page with axe-core (the copy the PyPI package
``axe-playwright-python`` ships): a test calls ``assert_accessible(page)`` on each state
of a page it wants checked; a serious or critical violation fails it with a readable list.
"""

from __future__ import annotations

from typing import Any

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

FAILING_IMPACTS = frozenset({"serious", "critical"})
_AXE = Axe()


def violations(page: Page, selector: str | None = None) -> list[dict[str, Any]]:
    """axe-core's violations on ``page`` (WCAG 2.x A and AA rules and best practices),
    within ``selector`` when given."""
    results = _AXE.run(page, context=selector, options={"resultTypes": ["violations"]})
    found: list[dict[str, Any]] = results.response["violations"]
    return found


def assert_accessible(page: Page, selector: str | None = None) -> None:
    """No serious or critical axe-core violation on the page as it is now."""
    bad = [v for v in violations(page, selector) if v.get("impact") in FAILING_IMPACTS]
    if bad:
        lines = [f"{len(bad)} serious accessibility violation(s) on {page.url}:"]
        for v in bad:
            targets = [", ".join(node.get("target", [])) for node in v.get("nodes", [])][:5]
            lines.append(f"- {v['id']} ({v['impact']}): {v['help']} -> {targets}")
        raise AssertionError("\n".join(lines))


def assert_no_horizontal_scroll(page: Page) -> None:
    """The page fits its viewport's width (a phone must never scroll sideways)."""
    overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"{page.url} scrolls sideways by {overflow} px"
