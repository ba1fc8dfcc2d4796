"""Hostile input at the server, the HTTP side (issue 15, item 4): bodies that are no form,
a client that leaves in the middle of its body, the browser's security headers, the
WebSocket's origin check, handshakes with huge headers, frames over 64 KB, and a refusal
log a client cannot flood. Each class is tried with several values: the fix is for the
class, not for one value."""

from __future__ import annotations

import contextlib
import html
import json
import logging
import random
import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import ServerProcess, csrf_of, parts_of
from starlette.testclient import TestClient
from starlette.websockets import WebSocket
from websockets.exceptions import ConnectionClosed
from websockets.frames import Close
from websockets.sync.client import ClientConnection

from coinche.cli import main as cli_main
from coinche.server.infra.log_limits import MAX_KINDS, RefusalLog
from coinche.server.table import i18n
from coinche.server.web.security import CONTENT_SECURITY_POLICY, normalise_origin, origin_allowed
from coinche.server.web.table_socket import MAX_CONNECTIONS
from coinche.server.web.ws_protocol import READ_AHEAD

WEB = Path(__file__).resolve().parents[3] / "src" / "coinche" / "web"
TRACEBACK = re.compile(r'Traceback|File "[^"]*", line \d+|\.py\b|[A-Z][a-z]+Error\b|ClientDisconnect')
FORM = "profile=classic&target=700&level=beginner"
URLENCODED = "application/x-www-form-urlencoded"


def tables(client: TestClient) -> list[str]:
    return list(client.app.state.store.table_ids())  # type: ignore[attr-defined]


def assert_error_page(r: Any, status: int) -> None:
    """The site's error page (French by default), no traceback."""
    assert r.status_code == status, (r.status_code, r.text[:300])
    assert r.headers["content-type"].startswith("text/html")
    body = html.unescape(r.text)
    assert '<html lang="fr">' in body
    assert i18n.gettext("fr", "error.page.title") in body
    assert not TRACEBACK.search(body), TRACEBACK.search(body)


def multipart(*parts: bytes, boundary: bytes = b"xyz", end: bool = True) -> bytes:
    body = b"".join(b"--" + boundary + b"\r\n" + part + b"\r\n" for part in parts)
    return body + (b"--" + boundary + b"--\r\n" if end else b"")


def field(name: str, value: bytes, extra: bytes = b"") -> bytes:
    return b'Content-Disposition: form-data; name="' + name.encode() + b'"' + extra + b"\r\n\r\n" + value


GOOD_PARTS = (field("profile", b"classic"), field("target", b"700"), field("level", b"beginner"))


def signed(token: str, body: bytes, headers: dict[str, str]) -> bytes:
    """``body`` with the visitor's CSRF token in front, as the site's form sends it, when
    it is a form of the kinds a browser sends (the refusal tested is then the body's own)."""
    kind = headers.get("content-type", "").lower()
    if kind.startswith(URLENCODED):
        return b"csrf=" + token.encode() + (b"&" + body if body else b"")
    if kind.startswith("multipart/form-data") and body.startswith(b"--xyz"):
        return b"--xyz\r\n" + field("csrf", token.encode()) + b"\r\n" + body
    return body


# ----- 1. POST /solo with a body that is no form -----

MP = {"content-type": "multipart/form-data; boundary=xyz"}
UE = {"content-type": URLENCODED}
LONG = "b" * 300
UNREADABLE: list[tuple[str, bytes, dict[str, str]]] = [
    ("json", b'{"profile": "classic", "target": "700"}', {"content-type": "application/json"}),
    ("json with a form's body", FORM.encode(), {"content-type": "application/json"}),
    ("text/plain", FORM.encode(), {"content-type": "text/plain"}),
    ("no content type", FORM.encode(), {}),
    ("empty content type", FORM.encode(), {"content-type": ""}),
    ("multipart/mixed", multipart(*GOOD_PARTS), {"content-type": "multipart/mixed; boundary=xyz"}),
    ("urlencoded in latin-1", FORM.encode(), {"content-type": URLENCODED + "; charset=iso-8859-1"}),
    ("urlencoded %FF", b"profile=classic&target=700&level=%FF", UE),
    ("urlencoded %C3 alone", b"profile=%C3&target=700", UE),
    ("urlencoded raw latin-1 byte", b"profile=classic&level=b\xe9ginner", UE),
    ("urlencoded raw utf-8", "profile=classic&level=débutant".encode(), UE),
    ("urlencoded field without =", b"profile=classic&garbage", UE),
    ("urlencoded json", b'{"profile":"online"}', UE),
    ("urlencoded NUL", b"profile=classic\x00&target=700", UE),
    ("too many fields", "&".join(f"f{i}=1" for i in range(100)).encode(), UE),
    ("multipart cut", multipart(*GOOD_PARTS, end=False)[:-2], MP),
    ("multipart cut in a header", b"--xyz\r\nContent-Disposition: form-da", MP),
    ("multipart no boundary", multipart(*GOOD_PARTS), {"content-type": "multipart/form-data"}),
    ("multipart other boundary", multipart(*GOOD_PARTS), {"content-type": "multipart/form-data; boundary=abc"}),
    (
        "multipart boundary too long",
        multipart(*GOOD_PARTS, boundary=LONG.encode()),
        {"content-type": f"multipart/form-data; boundary={LONG}"},
    ),
    ("multipart empty", b"", MP),
    ("multipart not utf-8", multipart(field("profile", b"cl\xe9ssic")), MP),
    ("multipart name not utf-8", multipart(b'Content-Disposition: form-data; name="pr\xf4file"\r\n\r\nclassic'), MP),
    ("multipart file", multipart(field("profile", b"classic", b'; filename="a.txt"')), MP),
    ("multipart no disposition", multipart(b"Content-Type: text/plain\r\n\r\nclassic"), MP),
    ("multipart not form-data", multipart(b'Content-Disposition: attachment; name="profile"\r\n\r\nclassic'), MP),
    ("multipart too many fields", multipart(*(field(f"f{i}", b"1") for i in range(100))), MP),
    ("multipart garbage", b"\x00\xff" * 100, MP),
]


def test_a_body_that_is_no_form_is_a_400_and_makes_no_table(client: TestClient) -> None:
    """One client for every body (an application start costs a second)."""
    token = csrf_of(client)
    for name, body, headers in UNREADABLE:
        r = client.post("/solo", content=signed(token, body, headers), headers=headers, follow_redirects=False)
        assert r.status_code == 400, (name, r.status_code)
        assert_error_page(r, 400)
    assert tables(client) == []


def test_a_body_too_large_is_a_413_declared_or_not(client: TestClient) -> None:
    big = (FORM + "&pad=" + "x" * 20_000).encode()
    r = client.post("/solo", content=big, headers={"content-type": URLENCODED}, follow_redirects=False)
    assert_error_page(r, 413)

    def chunks() -> Iterator[bytes]:  # no Content-Length: the size is counted while read
        yield FORM.encode() + b"&pad="
        for _ in range(100):
            yield b"x" * 1000

    r = client.post("/solo", content=chunks(), headers={"content-type": URLENCODED}, follow_redirects=False)
    assert "content-length" not in r.request.headers
    assert_error_page(r, 413)
    for declared in ("10000000000000000000000", "12x", "-5"):
        r = client.post(
            "/solo", content=FORM.encode(), headers={"content-type": URLENCODED, "content-length": declared}
        )
        assert r.status_code in (400, 413), (declared, r.status_code)
    assert tables(client) == []


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        (FORM.encode(), URLENCODED),
        (FORM.encode(), "Application/X-WWW-Form-Urlencoded; charset=UTF-8"),
        (multipart(*GOOD_PARTS), "multipart/form-data; boundary=xyz"),
        (multipart(*GOOD_PARTS, boundary=b"----WebKitFormBoundary7MA4YWxkTrZu0gW"),
         'multipart/form-data; boundary="----WebKitFormBoundary7MA4YWxkTrZu0gW"'),
        (b"", URLENCODED),  # an empty form: the solo form's own defaults
    ],
)  # fmt: skip
def test_forms_a_browser_sends_still_make_a_table(client: TestClient, body: bytes, content_type: str) -> None:
    headers = {"content-type": content_type}
    unsigned = body
    body = signed(csrf_of(client), body, headers)
    if body == unsigned and "multipart" in content_type:  # another boundary
        boundary = content_type.split("boundary=", 1)[1].strip('"').encode()
        body = b"--" + boundary + b"\r\n" + field("csrf", csrf_of(client).encode()) + b"\r\n" + body
    r = client.post("/solo", content=body, headers=headers, follow_redirects=False)
    assert r.status_code == 303, (r.status_code, r.text[:300])
    assert r.headers["location"].startswith("/table/")
    assert len(tables(client)) == 1


def test_random_bodies_never_fail_the_server(make_client: Any) -> None:
    """Seeded random bytes under each content type: a 303 (a readable form), a 400 or a
    413, never a 500 or a traceback."""
    client = make_client(raise_server_exceptions=False, free_deals=1000)
    rng = random.Random(15)
    alphabet = b'=&%+;profiletargvun0123456789ABCDEF\r\n-"\x00\xff\xc3\xa9 '
    kinds = [URLENCODED, "multipart/form-data; boundary=xyz", "text/plain", "application/json"]
    for _ in range(120):
        n = rng.randrange(0, 300)
        body = bytes(rng.choice(alphabet) for _ in range(n))
        if rng.random() < 0.3:
            body = multipart(*GOOD_PARTS)[: rng.randrange(0, 200)] + body
        r = client.post("/solo", content=body, headers={"content-type": rng.choice(kinds)}, follow_redirects=False)
        assert r.status_code in (303, 400, 403, 413), (r.status_code, body)  # 403: no CSRF token
        assert not TRACEBACK.search(r.text)


# ----- 2. a client that leaves in the middle of its body -----


def test_a_client_leaving_mid_body_is_no_server_error(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    """The application gets ``http.disconnect`` before the end of the body: no error line,
    no traceback, no table."""
    app = client.app
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/solo",
        "raw_path": b"/solo",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), (b"content-type", URLENCODED.encode()), (b"content-length", b"500")],
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
        "state": {},
    }
    sent: list[dict[str, Any]] = []
    incoming = [
        {"type": "http.request", "body": b"profile=cla", "more_body": True},
        {"type": "http.disconnect"},
    ]

    async def receive() -> dict[str, Any]:
        return incoming.pop(0) if incoming else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def run() -> None:
        await app(scope, receive, send)

    with caplog.at_level(logging.DEBUG):
        assert client.portal is not None
        client.portal.call(run)
    errors = [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info]
    assert errors == [], [r.getMessage() for r in errors]
    assert all(m.get("status") != 500 for m in sent), sent
    assert tables(client) == []


# ----- 3. the browser's security headers -----

HEADERS = {
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "same-origin",
}


def assert_secured(r: Any) -> None:
    for name, value in HEADERS.items():
        assert r.headers.get_list(name) == [value], (r.request.url, name, r.headers.get_list(name))


def test_every_http_response_has_the_security_headers(make_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    client = make_client(raise_server_exceptions=False)
    assert "unsafe-inline" not in CONTENT_SECURITY_POLICY and "unsafe-eval" not in CONTENT_SECURITY_POLICY
    for path in (
        "/",
        "/compte",
        "/calculateur",
        "/calculator?bid=90",
        "/regles",
        "/rules/classic",
        "/static/css/site.css",
        "/static/js/home.js",
        "/nowhere",
        "/table/nope",
    ):
        assert_secured(client.get(path))
    assert_secured(client.get("/langue/en", params={"next": "/"}, follow_redirects=False))  # 303
    assert_secured(client.post("/solo", content=b"x", headers={"content-type": "text/plain"}))  # 400
    assert_secured(client.delete("/"))  # 405
    assert_secured(client.post("/solo", content=FORM, headers={"content-type": URLENCODED}, follow_redirects=False))

    def broken(*args: object) -> int:
        raise RuntimeError("secret detail")

    monkeypatch.setattr(parts_of(client).free_deals, "left", broken)
    r = client.get("/")
    assert r.status_code == 500 and "secret detail" not in r.text
    assert_secured(r)  # the 500 page, sent from outside the middleware


INLINE_STYLE = re.compile(r"""\sstyle\s*=|<style[\s>]""", re.IGNORECASE)
SCRIPT_TAG = re.compile(r"<script\b([^>]*)>", re.IGNORECASE)
EVENT_ATTRIBUTE = re.compile(r"""\son[a-z]+\s*=\s*["']""", re.IGNORECASE)


def test_no_template_or_script_needs_unsafe_inline() -> None:
    """The policy allows no inline script, style attribute or handler: none is written in
    a template, nor built into HTML by the scripts (setting ``element.style`` is allowed)."""
    for path in sorted((WEB / "templates").glob("*.html")):
        text = path.read_text("utf-8")
        assert not INLINE_STYLE.search(text), (path.name, INLINE_STYLE.search(text))
        assert not EVENT_ATTRIBUTE.search(text), (path.name, EVENT_ATTRIBUTE.search(text))
        for attributes in SCRIPT_TAG.findall(text):
            assert "src=" in attributes or 'type="application/json"' in attributes, (path.name, attributes)
    for path in sorted((WEB / "static" / "js").glob("*.js")):
        text = path.read_text("utf-8")
        assert not re.search(r"""style\s*=\s*\\?["']|<style|javascript:|\beval\(|new Function\(""", text), path.name
        assert not EVENT_ATTRIBUTE.search(text), (path.name, EVENT_ATTRIBUTE.search(text))


# ----- 4. the WebSocket's origin -----


def scope_of(*headers: tuple[str, str]) -> dict[str, Any]:
    return {
        "type": "websocket",
        "path": "/ws/table/x",
        "headers": [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers],
    }


HOST = ("Host", "coinche.example:8000")


@pytest.mark.parametrize(
    ("headers", "allowed", "expected"),
    [
        ((HOST,), (), True),  # no Origin: a client that is no browser
        ((HOST, ("Origin", "http://coinche.example:8000")), (), True),
        ((HOST, ("Origin", "https://coinche.example:8000")), (), True),  # TLS ended by a proxy
        ((HOST, ("Origin", "HTTP://Coinche.Example:8000")), (), True),
        ((("Host", "coinche.example"), ("Origin", "https://coinche.example")), (), True),
        ((("Host", "coinche.example:443"), ("Origin", "https://coinche.example")), (), True),
        ((("Host", "coinche.example"), ("Origin", "http://coinche.example:80")), (), True),
        ((("Host", "[::1]:8000"), ("Origin", "http://[::1]:8000")), (), True),
        ((HOST, ("Origin", "http://evil.example:8000")), (), False),
        ((HOST, ("Origin", "http://coinche.example:8001")), (), False),
        ((HOST, ("Origin", "http://coinche.example")), (), False),
        ((HOST, ("Origin", "http://coinche.example.evil.example:8000")), (), False),
        ((HOST, ("Origin", "http://evil.example/coinche.example:8000")), (), False),
        ((HOST, ("Origin", "http://coinche.example:8000@evil.example")), (), False),
        ((HOST, ("Origin", "null")), (), False),
        ((HOST, ("Origin", "")), (), False),
        ((HOST, ("Origin", "file://")), (), False),
        ((HOST, ("Origin", "ws://coinche.example:8000")), (), False),
        ((HOST, ("Origin", "chrome-extension://abcdef")), (), False),
        ((HOST, ("Origin", "http://coinche.example:8000/")), (), True),
        ((HOST, ("Origin", "http://coinche.example:8000"), ("Origin", "http://evil.example")), (), False),
        ((HOST, ("Origin", "http://evil.example"), ("Origin", "http://coinche.example:8000")), (), False),
        ((("Origin", "http://coinche.example:8000"),), (), False),  # no Host to compare with
        ((HOST, HOST, ("Origin", "http://coinche.example:8000")), (), False),  # two Hosts
        ((("Host", "evil.example/x"), ("Origin", "http://evil.example")), (), False),
        ((("Host", "127.0.0.1:8000"), ("Origin", "https://coinche.example")), ("https://coinche.example",), True),
        ((("Host", "127.0.0.1:8000"), ("Origin", "https://coinche.example")), ("HTTPS://Coinche.Example:443/",), True),
        ((("Host", "127.0.0.1:8000"), ("Origin", "http://coinche.example")), ("https://coinche.example",), False),
        ((("Host", "127.0.0.1:8000"), ("Origin", "https://evil.example")), ("https://coinche.example",), False),
    ],
)
def test_origin_allowed(headers: tuple[tuple[str, str], ...], allowed: tuple[str, ...], expected: bool) -> None:
    scope = scope_of(*headers)
    assert origin_allowed(scope, allowed) is expected

    async def never() -> Any:
        raise AssertionError

    assert origin_allowed(WebSocket(scope, never, never), allowed) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("https://coinche.example", "https://coinche.example"),
        ("https://Coinche.Example:443/", "https://coinche.example"),
        ("http://coinche.example:8080", "http://coinche.example:8080"),
        ("http://coinche.example:08080", "http://coinche.example:8080"),
        ("http://127.0.0.1:8000", "http://127.0.0.1:8000"),
        ("coinche.example", None),
        ("https://coinche.example/path", None),
        ("https://user@coinche.example", None),
        ("https://coinche.example:99999", None),
        ("https://coinche.example:", None),
        ("ftp://coinche.example", None),
        ("https://coin che.example", None),
        ("null", None),
        ("", None),
    ],
)
def test_normalise_origin(text: str, expected: str | None) -> None:
    assert normalise_origin(text) == expected


@pytest.mark.parametrize("origin", ["coinche.example", "https://coinche.example/play", "null", "ftp://x"])
def test_serve_refuses_an_origin_that_is_no_origin(origin: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["serve", "--origin", "https://fine.example", "--origin", origin]) == 2
    err = capsys.readouterr().err
    assert err.startswith("coinche serve: error: --origin") and err.count("\n") == 1, err


# ----- 6. the refusal log -----


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_refusal_log_writes_a_line_a_minute_per_kind(caplog: pytest.LogCaptureFixture) -> None:
    clock = Clock()
    logger = logging.getLogger("coinche.test.refusals")
    refusals = RefusalLog(logger, "table T seat 0", clock=clock)
    with caplog.at_level(logging.INFO, logger="coinche.test.refusals"):
        for i in range(100_000):  # a client in a loop, one second of it
            refusals.refused("malformed", f"not JSON {i}")
            clock.now += 0.00001
        lines = [r.getMessage() for r in caplog.records]
        assert lines == ["table T seat 0: refused (malformed) 'not JSON 0'"]
        refusals.refused("too_large", "")  # another kind: its own first line
        assert len(caplog.records) == 2 and "(too_large)" in caplog.records[1].getMessage()
        clock.now += 58.0
        refusals.refused("malformed", "still")
        assert len(caplog.records) == 2  # not yet a minute since the line
        clock.now += 2.0  # past the minute
        refusals.refused("malformed", "line\nbreak\x1b[31m" + "x" * 10_000)
        assert len(caplog.records) == 3
        third = caplog.records[2].getMessage()
        assert "(malformed) 100001 time(s) since the last line" in third, third
        assert "\n" not in third and "\x1b" not in third and len(third) < 300, third
        clock.now += 120.0
        refusals.refused("malformed", "again")  # a minute passed: a line for this one alone
        assert "(malformed) 1 time(s) since the last line" in caplog.records[3].getMessage()
        refusals.refused("malformed", "a")
        refusals.refused("malformed", "b")
        refusals.refused("too_large", "c")  # its last line is two minutes old: written
        assert caplog.records[4].getMessage() == (
            "table T seat 0: refused (too_large) 1 time(s) since the last line, the last: 'c'"
        )
        refusals.close()  # the counts not yet written, once
        assert caplog.records[5].getMessage() == (
            "table T seat 0: refused (malformed) 2 time(s) before the connection closed, the last: 'b'"
        )
        refusals.close()
        assert len(caplog.records) == 6
    assert all(r.levelno == logging.WARNING for r in caplog.records)
    assert refusals.total == 100_007


def test_the_refusal_log_keeps_few_kinds(caplog: pytest.LogCaptureFixture) -> None:
    """Kinds past ``MAX_KINDS`` are counted together: a caller passing client text as the
    code cannot grow the log's memory or its lines."""
    clock = Clock()
    refusals = RefusalLog(logging.getLogger("coinche.test.kinds"), "t", clock=clock)
    with caplog.at_level(logging.INFO, logger="coinche.test.kinds"):
        for i in range(10_000):
            refusals.refused(f"code{i}", "")
    assert len(refusals.kinds) == MAX_KINDS + 1
    assert len(caplog.records) == MAX_KINDS + 1


# ----- 2, 4, 5. the real server: handshakes with huge headers, big frames, cut bodies -----


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp("hostile")
    with ServerProcess(tmp / "coinche.db", tmp / "server.log", "--free-deals", "100") as process:
        yield process


def exchange(port: int, request: bytes, timeout: float = 5.0, chunk: int = 0) -> tuple[bytes, float, bool]:
    """Send ``request`` (in pieces of ``chunk`` bytes, 5 ms apart, when given) and read
    until the server closes or ``timeout``: (what it answered, seconds, closed)."""
    start = time.monotonic()
    answer = b""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        try:
            for i in range(0, len(request), chunk or len(request)):
                s.sendall(request[i : i + (chunk or len(request))])
                time.sleep(0.005 if chunk else 0)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server answered before the end of the request, and closed
        s.settimeout(max(0.1, timeout - (time.monotonic() - start)))
        try:
            while True:
                data = s.recv(65536)
                if not data:
                    return answer, time.monotonic() - start, True
                answer += data
        except TimeoutError:
            return answer, time.monotonic() - start, False
        except ConnectionResetError:
            return answer, time.monotonic() - start, True


def handshake(port: int, *headers: str, table: str = "nothing") -> bytes:
    lines = [
        f"GET /ws/table/{table} HTTP/1.1",
        f"Host: 127.0.0.1:{port}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version: 13",
        *headers,
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def assert_up(server: ServerProcess) -> None:
    answer, _, _ = exchange(server.port, b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 200"), answer[:100]


@pytest.mark.parametrize("size", [10_000, 20_000, 60_000])
@pytest.mark.parametrize("chunk", [0, 1400], ids=["at once", "in packets"])
def test_a_handshake_with_huge_headers_is_answered_and_closed(server: ServerProcess, size: int, chunk: int) -> None:
    answer, seconds, closed = exchange(server.port, handshake(server.port, "Cookie: a=" + "x" * size), chunk=chunk)
    status = answer.split(b"\r\n", 1)[0]
    assert re.fullmatch(rb"HTTP/1\.1 (431|400) .+", status), (size, answer[:200])
    assert closed and seconds < 4.5, (size, seconds, closed)
    assert_up(server)


def test_a_handshake_with_many_headers_is_answered_and_closed(server: ServerProcess) -> None:
    answer, seconds, closed = exchange(server.port, handshake(server.port, *(f"X-H{i}: v" for i in range(300))))
    assert re.match(rb"HTTP/1\.1 (431|400) ", answer), answer[:200]
    assert closed and seconds < 4.5
    assert_up(server)


@pytest.mark.parametrize("size", [10_000, 60_000])
def test_plain_http_with_huge_headers_is_answered(server: ServerProcess, size: int) -> None:
    request = f"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nCookie: a={'x' * size}\r\n\r\n".encode()
    answer, _, closed = exchange(server.port, request)
    assert re.match(rb"HTTP/1\.1 [24]\d\d ", answer) and closed, answer[:200]


def test_a_handshake_under_the_limit_still_reaches_the_application(server: ServerProcess) -> None:
    answer, _, _ = exchange(server.port, handshake(server.port, "Cookie: a=" + "x" * 7000), timeout=2.0)
    # No table there: accepted, then closed by the application with 4404 (a close frame,
    # 0x88, whose payload starts with the code; the server then waits for the client's).
    assert answer.startswith(b"HTTP/1.1 101"), answer[:200]
    frame = answer.split(b"\r\n\r\n", 1)[1]
    assert frame[:1] == b"\x88" and frame[2:4] == (4404).to_bytes(2, "big"), answer


def closing_of(ws: ClientConnection) -> Close:
    """The close frame the server ends a connection with (whatever came before it)."""
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(1000):
            ws.recv(timeout=10)
    assert closed.value.rcvd is not None, closed.value
    return closed.value.rcvd


def test_a_33rd_connection_is_accepted_then_closed_with_1013(server: ServerProcess) -> None:
    """What docs/protocol.md promises, and what a page can read (an HTTP 403 at the
    handshake is only a failed connection to a script): 1013, ``too many connections``;
    once one of the 32 closes, a new one is served."""
    table_id, cookie = server.new_guest_table("classic", 700, "beginner")
    with contextlib.ExitStack() as stack:
        sockets = []
        for _ in range(MAX_CONNECTIONS):
            ws = stack.enter_context(server.connect(table_id, cookie))
            sockets.append(ws)
            assert json.loads(ws.recv(timeout=10))["type"] == "hello"  # counted
        with server.connect(table_id, cookie) as extra:  # the handshake succeeds
            close = closing_of(extra)
        assert (close.code, close.reason) == (1013, "too many connections"), close
        sockets.pop().close()
        wait = time.monotonic() + 10
        while True:  # the server counts the closed one out once it has seen it close
            with server.connect(table_id, cookie) as again:
                first = again.recv(timeout=10)
                if json.loads(first)["type"] == "hello" or time.monotonic() > wait:
                    break
        assert json.loads(first)["type"] == "hello"
    assert_up(server)


def test_a_stranger_is_accepted_then_closed_with_4404(server: ServerProcess) -> None:
    """Not seated (another guest, no cookie, no such table): the page reads 4404 and stops
    trying, as the protocol says, instead of a failed handshake it would retry forever."""
    table_id, _ = server.new_guest_table("classic", 700, "beginner")
    _, other = server.new_guest_table("classic", 700, "beginner")
    for table, cookie in ((table_id, other), (table_id, "session=nothing"), ("nosuchtable", other)):
        with server.connect(table, cookie) as ws:
            assert closing_of(ws).code == 4404


def test_an_invalid_utf8_text_frame_closes_with_1007_and_logs_no_traceback(server: ServerProcess) -> None:
    """A client's bad bytes are its own fault: 1007, and at most one line in the log for
    any number of them (rate limited), never a traceback."""
    table_id, cookie = server.new_guest_table("classic", 700, "beginner")
    before = server.log.read_text("utf-8")
    for frame in (b"\xff\xfe{", b'{"type": "hint", "id": "a\xc3"}', b"\xed\xa0\x80"):  # bad, cut, surrogate
        with server.connect(table_id, cookie) as ws:
            assert json.loads(ws.recv(timeout=10))["type"] == "hello"
            ws.send(frame, text=True)
            assert closing_of(ws).code == 1007
    assert_up(server)
    added = server.log.read_text("utf-8")[len(before) :]
    assert "Traceback" not in added and "ERROR" not in added, added
    lines = [line for line in added.splitlines() if "UTF-8" in line]
    assert len(lines) == 1, added


def test_a_burst_of_requests_is_answered_in_order(server: ServerProcess) -> None:
    """Many more requests at once than the connection reads ahead (``READ_AHEAD``: past
    them, reading waits for the application) are each answered, in order, and the
    connection goes on."""
    table_id, cookie = server.new_guest_table("classic", 700, "beginner")
    burst = 4 * READ_AHEAD
    with server.connect(table_id, cookie) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "hello"
        for i in range(burst):  # the first deals it if needed; the others have nothing to do
            ws.send(json.dumps({"type": "next_deal", "id": f"n{i}"}))
        answered = []
        while len(answered) < burst:
            message = json.loads(ws.recv(timeout=10))
            if message.get("id", "").startswith("n"):
                assert message["type"] in ("ack", "error"), message
                answered.append(message["id"])
        assert answered == [f"n{i}" for i in range(burst)]
        ws.send(json.dumps({"type": "say", "id": "s1", "phrase": "bravo"}))
        while (message := json.loads(ws.recv(timeout=10))).get("id") != "s1":
            pass
        assert message["type"] == "ack", message
    assert_up(server)


def test_a_frame_over_64_kb_closes_with_1009(server: ServerProcess) -> None:
    table_id, cookie = server.new_guest_table("classic", 700, "beginner")
    with server.connect(table_id, cookie) as ws:
        ws.recv(timeout=10)
        ws.send("x" * 65_537)
        with pytest.raises(ConnectionClosed) as closed:
            for _ in range(1000):
                ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009, closed.value
    assert_up(server)


def test_a_page_of_another_site_cannot_open_the_socket(server: ServerProcess) -> None:
    """The seated player's own cookie, the table's address: only the Origin differs."""
    table_id, cookie = server.new_guest_table("classic", 700, "beginner")
    own = f"http://127.0.0.1:{server.port}"
    for origin in ("http://evil.example", f"http://localhost:{server.port}", "null", own + ".evil.example"):
        request = handshake(server.port, f"Cookie: {cookie}", f"Origin: {origin}", table=table_id)
        answer, _, closed = exchange(server.port, request)
        assert answer.startswith(b"HTTP/1.1 403") and closed, (origin, answer[:200])
    for headers in ((f"Origin: {own}",), ()):  # its own page; a client that is no browser
        request = handshake(server.port, f"Cookie: {cookie}", *headers, table=table_id)
        answer, _, _ = exchange(server.port, request, timeout=1.0)
        assert answer.startswith(b"HTTP/1.1 101"), (headers, answer[:200])


def test_a_client_leaving_mid_body_leaves_no_traceback(server: ServerProcess) -> None:
    before = server.log.read_text("utf-8")
    for body in (b"profile=cla", b"", b'--xyz\r\nContent-Disposition: form-data; name="pro'):
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
            s.sendall(
                b"POST /solo HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                b"Content-Length: 1000\r\n\r\n" + body
            )
            time.sleep(0.2)
    time.sleep(0.5)
    assert_up(server)
    added = server.log.read_text("utf-8")[len(before) :]
    assert "Traceback" not in added and "ClientDisconnect" not in added and "ERROR" not in added, added
