"""The score calculator page (issue 8): the server's time per calculation and the page weight.

Runs the application in process (Starlette's ``TestClient``, a temporary SQLite file) with
the application wrapped in a timer that measures the server's own handling of each request:
from the request reaching the application to the last byte of its answer (the client's
side of the in-process transport is left out). It sends ``--requests`` calculations, mixed
over the four profiles and both languages (the worked examples of the seeds, plus
impossible input), to the JSON endpoint the page's script calls and to the no-JavaScript
page, and prints for each the median, p95 and max in milliseconds. Then the page weight:
the HTML of ``/calculateur`` and ``/calculator`` with a result, and every stylesheet and
script it loads (module imports followed), uncompressed bytes.

    python bench/bench_calculator.py [--requests 1000]

Targets: under 20 ms on the server, under 150 KB a page.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

from starlette.testclient import TestClient

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from coinche.server.infra.config import Settings  # noqa: E402
from coinche.server.web.app import create_app  # noqa: E402
from worked_examples import ALL  # noqa: E402

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGI = Callable[[Scope, Receive, Send], Awaitable[None]]

PAGES = {"fr": "/calculateur", "en": "/calculator"}
TIME_BUDGET_MS = 20.0
WEIGHT_BUDGET = 150_000
LINKED = re.compile(r"""<(?:link|script)\b[^>]*?\b(?:href|src)="(/static/[^"]+)\"""")
IMPORTED = re.compile(r"""(?:\bfrom\s+|\bimport\s*\(?\s*)['"](\.{1,2}/[^'"]+\.js)['"]""")

IMPOSSIBLE: list[dict[str, str]] = [
    {"profile": "online", "bid": "90", "trump": "SA", "points": "100"},
    {"profile": "classic", "bid": "90", "trump": "H", "points": "170"},
    {"profile": "federation", "bid": "80", "trump": "S", "points": "abc"},
    {"profile": "house", "bid": "100", "trump": "H", "points": "120", "taker_belote": "2"},
]


class Timed:
    """The application, timing each HTTP request from its start to the end of its body."""

    def __init__(self, app: ASGI) -> None:
        self.app = app
        self.times: list[float] = []

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()

        async def timed_send(message: Message) -> None:
            await send(message)
            if message["type"] == "http.response.body" and not message.get("more_body", False):
                self.times.append(time.perf_counter() - start)

        await self.app(scope, receive, timed_send)


def mixed_requests(n: int) -> list[tuple[str, dict[str, str]]]:
    """``n`` (language, fields) pairs cycling over the worked examples and impossible input."""
    cases = [ex.fields() for ex in ALL] + IMPOSSIBLE
    return [("fr" if i % 2 == 0 else "en", cases[i % len(cases)]) for i in range(n)]


def figures(times: list[float]) -> str:
    ms = sorted(t * 1000 for t in times)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    return f"median {statistics.median(ms):.2f} ms, p95 {p95:.2f} ms, max {ms[-1]:.2f} ms ({len(ms)} requests)"


def page_weight(client: TestClient, path: str) -> dict[str, int]:
    """The bytes of the page at ``path`` and of each file it loads, by address."""
    r = client.get(path)
    sizes = {path: len(r.content)}
    todo = LINKED.findall(r.text)
    while todo:
        url = todo.pop()
        if url in sizes:
            continue
        asset = client.get(url)
        sizes[url] = len(asset.content)
        if url.endswith(".js"):
            todo += [urljoin(url, imported) for imported in IMPORTED.findall(asset.text)]
    return sizes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(database_url=f"sqlite:///{tmp}/bench.db", bot_delay=0, bot_workers=1)
        timed = Timed(create_app(settings))
        with TestClient(timed) as client:
            requests = mixed_requests(args.requests)
            for lang, fields in requests[:50]:  # warm up: templates compiled, catalogues read
                client.get("/api/calculate", params={**fields, "lang": lang})
                client.get(PAGES[lang], params=fields)
            worst = 0.0
            for label, send in (
                ("JSON /api/calculate", lambda lang, f: client.get("/api/calculate", params={**f, "lang": lang})),
                ("page (no JS)", lambda lang, f: client.get(PAGES[lang], params=f)),
            ):
                timed.times.clear()
                wall = time.perf_counter()
                for lang, fields in requests:
                    r = send(lang, fields)
                    assert r.status_code in (200, 422), (r.status_code, fields)
                wall = time.perf_counter() - wall
                ms = sorted(timed.times)
                worst = max(worst, ms[min(len(ms) - 1, int(len(ms) * 0.95))] * 1000)
                print(f"{label}: server {figures(timed.times)}; client round trip {wall / len(requests) * 1000:.2f} ms")

            heaviest = 0
            example = ALL[0].fields()
            for path in ("/calculateur", "/calculator"):
                query = "&".join(f"{k}={v}" for k, v in example.items())
                sizes = page_weight(client, f"{path}?{query}")
                total = sum(sizes.values())
                heaviest = max(heaviest, total)
                parts = ", ".join(f"{url.split('?')[0]} {size}" for url, size in sizes.items())
                print(f"page weight {path}: {total} bytes ({parts})")
    ok = worst < TIME_BUDGET_MS and heaviest < WEIGHT_BUDGET
    print(f"targets: p95 < {TIME_BUDGET_MS:.0f} ms, page < {WEIGHT_BUDGET} bytes: {'met' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
