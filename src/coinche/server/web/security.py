"""What the browser is told to refuse, and which pages may open a table's WebSocket.

``SecurityHeaders`` puts the same headers on every HTTP response (a pure ASGI middleware,
so streamed and static responses get them too, and it costs no task per request), and
over HTTPS makes every cookie ``Secure``;
``secured`` gives them to the 500 page, which Starlette sends from outside the middleware.
``origin_allowed`` is the WebSocket's same-origin check: a browser sends the page's
``Origin`` with the handshake, and a page of another site must not act on a table with
the visitor's cookie (a WebSocket is not bound by the same-origin policy).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Final

from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket

CONTENT_SECURITY_POLICY: Final = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
"""Scripts, styles and connections of the site's own address only, no inline script or
style (the pages keep their JSON in ``<script type="application/json">``, which is not run),
``data:`` images for the favicon; no page may be framed (clickjacking)."""

SECURITY_HEADERS: Final[tuple[tuple[str, str], ...]] = (
    ("content-security-policy", CONTENT_SECURITY_POLICY),
    ("x-content-type-options", "nosniff"),
    ("x-frame-options", "DENY"),
    ("referrer-policy", "same-origin"),
)
_RAW_HEADERS: Final = tuple((name.encode("latin-1"), value.encode("latin-1")) for name, value in SECURITY_HEADERS)
_NAMES: Final = frozenset(name for name, _ in _RAW_HEADERS)


class SecurityHeaders:
    """ASGI middleware: ``SECURITY_HEADERS`` on every HTTP response, replacing any of the
    same name (one policy for the whole site); WebSocket and lifespan pass untouched."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        https = scope.get("scheme") == "https"

        async def send_secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                kept = [(k, v) for k, v in message.get("headers", ()) if bytes(k).lower() not in _NAMES]
                if https:
                    kept = [(k, secure_cookie(v) if bytes(k).lower() == b"set-cookie" else v) for k, v in kept]
                message["headers"] = [*kept, *_RAW_HEADERS]
            await send(message)

        await self.app(scope, receive, send_secured)


def secure_cookie(header: bytes) -> bytes:
    """A ``Set-Cookie`` value sent over HTTPS (directly, or from a proxy uvicorn trusts), made
    ``Secure`` if it is not: the guest's cookie (Starlette's sessions take the flag once for
    all requests) then never travels over plain HTTP either."""
    attributes = [part.strip().lower() for part in bytes(header).split(b";")[1:]]
    return bytes(header) if b"secure" in attributes else bytes(header) + b"; secure"


class NulFreeAddresses:
    """ASGI middleware: a NUL in a request's path or query (``%00``) is read as U+FFFD, so
    the request finds nothing and gets the site's 404 or 400 like any unknown name
    (PostgreSQL's text cannot hold a NUL: compared with a column, it would fail the query)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            path = scope.get("path", "")
            query = scope.get("query_string", b"")
            if "\x00" in path or b"%00" in query:
                scope = dict(scope)
                scope["path"] = path.replace("\x00", "\ufffd")
                scope["query_string"] = query.replace(b"%00", b"%EF%BF%BD")
        await self.app(scope, receive, send)


ErrorHandler = Callable[[Request, Exception], Awaitable[Response]]


def secured(handler: ErrorHandler) -> ErrorHandler:
    """``handler`` whose response carries ``SECURITY_HEADERS``: for the 500 handler, which
    Starlette's ``ServerErrorMiddleware`` calls outside every other middleware."""

    async def answer(request: Request, exc: Exception) -> Response:
        response = await handler(request, exc)
        for name, value in SECURITY_HEADERS:
            response.headers[name] = value
        return response

    return answer


# ----- the WebSocket's origin -----

_ORIGIN = re.compile(r"(https?)://([a-z0-9.\-]+|\[[0-9a-f:.]+\])(?::([0-9]{1,5}))?/?", re.ASCII | re.IGNORECASE)
_DEFAULT_PORTS: Final = {"http": "80", "https": "443"}


def normalise_origin(text: str) -> str | None:
    """``scheme://host[:port]`` in lower case without a default port, or None for anything
    that is no http(s) origin (a path, credentials, ``null``, spaces)."""
    match = _ORIGIN.fullmatch(text.strip())
    if match is None:
        return None
    scheme, host, port = match[1].lower(), match[2].lower(), match[3]
    if port is not None:
        port = port.lstrip("0") or "0"
        if int(port) > 65535:
            return None
    if port is None or port == _DEFAULT_PORTS[scheme]:
        return f"{scheme}://{host}"
    return f"{scheme}://{host}:{port}"


def _headers_of(scope_or_websocket: WebSocket | Scope) -> Headers:
    if isinstance(scope_or_websocket, WebSocket):
        return scope_or_websocket.headers
    return Headers(scope=scope_or_websocket)


def origin_allowed(scope_or_websocket: WebSocket | Scope, allowed: tuple[str, ...]) -> bool:
    """Whether the handshake's ``Origin`` is the site's own: absent (a client that is no
    browser sends none; it has no visitor's cookie to borrow either), ``http(s)://`` and
    the ``Host`` the request was sent to, or one of ``allowed`` (``--origin``: the public
    address when a proxy changes the Host). Two ``Origin`` headers, ``null`` or a value that
    is no origin are refused."""
    headers = _headers_of(scope_or_websocket)
    origins = headers.getlist("origin")
    if not origins:
        return True
    if len(origins) > 1:
        return False
    origin = normalise_origin(origins[0])
    if origin is None:
        return False
    if origin in {normalise_origin(a) for a in allowed}:
        return True
    hosts = headers.getlist("host")
    if len(hosts) != 1:
        return False
    scheme = origin.split(":", 1)[0]
    return origin == normalise_origin(f"{scheme}://{hosts[0]}")
