"""Browser contexts kept from one test to the next of a test process, cleaned in between.

A new context and its first page cost Chromium about 0.55 CPU-s; cleaning one that served
costs 0.2 (measured with a page of the home page loaded): the browser tests keep the two
cores busy, and they open some 500 contexts a run. A context is kept only when its test left
it as a fresh one would be but for what the cleaning undoes: one page, on its own server's
pages or none, and nothing of the test's own on it (no route, listener, init script,
exposed function, extra header, permission, offline mode or media emulation: any of these
marks it spent, and it is closed). The cleaning: the page's local and session storage
emptied, the page sent to ``about:blank`` (its sockets close), the cookies and permissions
cleared, its size put back. The next test gets it as a new visitor: no cookie, nothing
stored, the page's script errors list empty.
"""

from __future__ import annotations

import contextlib
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from browser_helpers import DEFAULT_TIMEOUT_MS, new_context, new_page

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

SPENDING = {
    "page": (
        "route",
        "route_from_har",
        "route_web_socket",
        "add_init_script",
        "expose_function",
        "expose_binding",
        "set_extra_http_headers",
        "emulate_media",
        "on",
        "once",
        "add_locator_handler",
    ),
    "context": (
        "route",
        "route_from_har",
        "route_web_socket",
        "add_init_script",
        "expose_function",
        "expose_binding",
        "set_extra_http_headers",
        "grant_permissions",
        "set_offline",
        "set_geolocation",
        "on",
        "once",
    ),
}
"""The calls that change a page or a context for good: after one, it is not kept."""

KEPT = 4
"""Clean contexts kept at most (the least recently used closed first)."""


@dataclass
class Pooled:
    """A context, its page, and whether its test changed it beyond what cleaning undoes."""

    key: str
    base_url: str
    context: BrowserContext
    page: Page
    viewport: dict[str, int] | None
    spent: bool = field(default=False)

    def watch(self) -> None:
        """Mark it spent at any call of ``SPENDING`` on its page or its context."""
        for target, names in ((self.page, SPENDING["page"]), (self.context, SPENDING["context"])):
            for name in names:
                original = getattr(target, name, None)
                if original is not None:
                    setattr(target, name, self._spending(original))

    def _spending(self, original: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            self.spent = True
            return original(*args, **kwargs)

        return call


class ContextPool:
    """``take(base_url, **options)``: a clean context and its page; ``give_back(pooled,
    failed)`` after the test (a failed test's context is closed: its pages were kept as
    they were for the failure's screenshots)."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self._free: OrderedDict[int, Pooled] = OrderedDict()

    def take(self, base_url: str, **options: Any) -> Pooled:
        key = repr((base_url, sorted(options.items())))
        for number, pooled in reversed(self._free.items()):
            if pooled.key == key:
                del self._free[number]
                pooled.page.js_errors.clear()  # type: ignore[attr-defined]
                pooled.page.set_default_timeout(DEFAULT_TIMEOUT_MS)
                return pooled
        context = new_context(self.browser, base_url, **options)
        pooled = Pooled(key, base_url, context, new_page(context, base_url), options.get("viewport"))
        pooled.watch()
        return pooled

    def give_back(self, pooled: Pooled, failed: bool) -> None:
        if failed or pooled.spent or not self._clean(pooled):
            _close(pooled)
            return
        self._free[id(pooled)] = pooled
        while len(self._free) > KEPT:
            _close(self._free.popitem(last=False)[1])

    def close(self) -> None:
        while self._free:
            _close(self._free.popitem()[1])

    @staticmethod
    def _clean(pooled: Pooled) -> bool:
        """Whether it could be made as new (else it is to be closed)."""
        page, context = pooled.page, pooled.context
        try:
            if page.is_closed() or context.pages != [page]:
                return False
            if page.url.startswith(pooled.base_url):
                page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
            elif page.url != "about:blank":
                return False  # another site's storage: not ours to clear
            page.goto("about:blank")
            context.clear_cookies()
            context.clear_permissions()
            if pooled.viewport is not None and page.viewport_size != pooled.viewport:
                page.set_viewport_size(pooled.viewport)  # type: ignore[arg-type]
        except Exception:  # a crashed page, a closed context: not kept
            return False
        return True


def _close(pooled: Pooled) -> None:
    with contextlib.suppress(Exception):  # closed already (by its test, or the browser gone)
        pooled.context.close()
