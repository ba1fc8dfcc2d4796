"""The site under its Content Security Policy in Chromium (issue 15, item 4): the home, a
solo table (its WebSocket allowed by ``connect-src 'self'``) played to the end of a deal,
the deal's review with its analysis fetched, the calculator, the rules pages, an error
page: not one violation, neither as a ``securitypolicyviolation`` event nor in the console.
A style attribute set on purpose at the end shows the watch sees one when there is one."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect
from table_driver import start_solo

WATCH = """
document.addEventListener('securitypolicyviolation', (e) => {
  window.__cspViolation(`${e.violatedDirective} ${e.blockedURI || ''} ${e.sourceFile || ''}:${e.lineNumber || ''}`);
});
"""


def test_no_page_violates_the_content_security_policy(page: Page) -> None:
    seen: list[str] = []
    page.expose_function("__cspViolation", lambda text: seen.append(f"event: {text}"))
    page.add_init_script(WATCH)
    page.on(
        "console",
        lambda m: seen.append(f"console: {m.text}") if "Content Security Policy" in m.text else None,
    )
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))

    response = page.goto("/")
    assert response is not None and "unsafe-inline" not in response.headers["content-security-policy"]
    table = start_solo(page, profile="classic", target=700)
    expect(table.hand()).to_have_count(8)  # the state came over the WebSocket
    assert sockets and all(re.match(r"ws://127\.0\.0\.1:\d+/ws/table/", url) for url in sockets), sockets
    played = table.play_deal(bid=True)
    assert played.end in ("next", "over"), played
    table_id = re.search(r"/table/([^/]+)$", page.url).group(1)  # type: ignore[union-attr]

    page.goto(f"/table/{table_id}/donne/1")
    expect(page.locator("#review")).to_have_attribute("data-analysis", "ready", timeout=30_000)
    page.keyboard.press("End")

    page.goto("/calculateur")
    page.locator("#calc-form select, #calc-form input").first.focus()
    page.keyboard.press("Tab")
    page.goto("/calculator?profile=house&bid=100&trump=H&points=96")
    for path in ("/regles", "/regles/classic", "/rules/online", "/compte", "/nowhere"):
        page.goto(path)
    page.goto("/langue/en?next=/rules")
    expect(page).to_have_url(re.compile(r"/rules$"))
    page.wait_for_timeout(300)  # violations are reported asynchronously
    assert seen == [], seen

    # The control: an inline style attribute is refused, and the watch sees it.
    page.evaluate("() => document.body.appendChild(document.createElement('p')).setAttribute('style', 'color: red')")
    page.wait_for_timeout(300)
    assert any("style-src" in text for text in seen), seen
