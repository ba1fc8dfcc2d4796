"""Each request's id and figures, and the metrics' page.

``RequestMetrics`` (ASGI middleware) gives each HTTP request and WebSocket an id (its log
lines carry it, the response says it in ``X-Request-ID``) and counts each HTTP request's
time and database time by route. ``GET /metrics`` answers only the addresses of
``Settings.metrics_allow`` (the machine itself by default; through a proxy, the client the
proxy names): to anyone else it does not exist (404).
"""

from __future__ import annotations

import ipaddress
import time
from typing import Final

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..features.metrics import SiteMetrics
from ..infra.request_context import DATABASE_TIME, REQUEST_ID, REQUEST_SCOPE, DatabaseTime, new_request_id

CONTENT_TYPE: Final = "text/plain; version=0.0.4; charset=utf-8"
UNROUTED: Final = "unrouted"
"""The route label of a request no route took (a 404): never the address itself, which
anyone chooses."""


class RequestMetrics:
    """ASGI middleware (see the module)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        request_id = new_request_id()
        named = REQUEST_ID.set(request_id)
        scoped = REQUEST_SCOPE.set(scope)
        try:
            if scope["type"] == "websocket":
                await self.app(scope, receive, send)
            else:
                await self._http(scope, receive, send, request_id)
        finally:
            REQUEST_SCOPE.reset(scoped)
            REQUEST_ID.reset(named)

    async def _http(self, scope: Scope, receive: Receive, send: Send, request_id: str) -> None:
        counted = DatabaseTime()
        timed = DATABASE_TIME.set(counted)
        started = time.perf_counter()
        status = 500

        async def send_named(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = [*message.get("headers", ()), (b"x-request-id", request_id.encode())]
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, send_named)
        finally:
            DATABASE_TIME.reset(timed)
            metrics = _metrics(scope)
            if metrics is not None:
                route = scope.get("route")
                path = getattr(route, "path", None)
                metrics.request(
                    path if isinstance(path, str) and path else UNROUTED,
                    status,
                    time.perf_counter() - started,
                    counted.seconds,
                )


def _metrics(scope: Scope) -> SiteMetrics | None:
    app = scope.get("app")
    found = getattr(getattr(app, "state", None), "metrics", None)
    return found if isinstance(found, SiteMetrics) else None


def allowed(host: str | None, networks: tuple[str, ...]) -> bool:
    """Whether the client at ``host`` may read the metrics (an address in ``networks``)."""
    if host is None:
        return False
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return any(address in ipaddress.ip_network(network, strict=False) for network in networks)


async def metrics_page(request: Request) -> Response:
    settings = request.app.state.settings
    metrics = getattr(request.app.state, "metrics", None)
    if metrics is None or not allowed(request.client.host if request.client else None, settings.metrics_allow):
        raise HTTPException(404)  # the site's own 404: nothing says the page exists
    return Response(await metrics.scrape(), media_type=CONTENT_TYPE, headers={"Cache-Control": "no-store"})


routes = [Route("/metrics", metrics_page)]
