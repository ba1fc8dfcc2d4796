"""Every page weighs under 150 KB with everything it loads (issue 8): its HTML, the
stylesheets and scripts it links (``modulepreload`` links included), the modules those
scripts import statically, as sent (stylesheets minified), uncompressed. A module imported
at run time behind a condition (``await import(...)``: the friends' table's code, which a
solo table never runs) counts only on the pages that preload it."""

from __future__ import annotations

import re
from urllib.parse import urljoin

import pytest
from server_helpers import MakeClient, create_solo
from starlette.testclient import TestClient

from coinche.engine.rules import PROFILES

BUDGET = 150_000
"""Bytes a page may weigh with all it loads."""

LINKED = re.compile(r"""<(?:link|script)\b[^>]*?\b(?:href|src)="(/static/[^"]+)\"""")
IMPORTED = re.compile(r"""(?:\bfrom\s+|\bimport\s+)['"](\.{1,2}/[^'"]+\.js)['"]""")


def page_weight(client: TestClient, path: str) -> dict[str, int]:
    """The bytes of the page at ``path`` and of each file it loads, by address."""
    r = client.get(path)
    assert r.status_code == 200, (path, r.status_code)
    sizes = {path: len(r.content)}
    todo = LINKED.findall(r.text)
    while todo:
        url = todo.pop()
        if url in sizes:
            continue
        asset = client.get(url)
        assert asset.status_code == 200, url
        sizes[url] = len(asset.content)
        if url.endswith(".js"):
            todo += [urljoin(url, imported) for imported in IMPORTED.findall(asset.text)]
    return sizes


def test_the_weight_finder_follows_module_imports(client: TestClient) -> None:
    table = create_solo(client, "classic", 700, "confirmed")
    sizes = page_weight(client, f"/table/{table}")
    assert "/static/js/table.js" in sizes and "/static/js/cards.js" in sizes, sizes


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_page_is_under_its_budget(make_client: MakeClient, lang: str) -> None:
    client = make_client()
    client.get(f"/langue/{lang}")
    table = create_solo(client, "classic", 700, "confirmed")
    rules = [f"/{'regles' if lang == 'fr' else 'rules'}{suffix}" for suffix in ("", *(f"/{p}" for p in PROFILES))]
    calculator = "/calculateur" if lang == "fr" else "/calculator"
    learn = "/apprendre/5" if lang == "fr" else "/learn/5"
    pages = ["/", "/compte", f"/table/{table}", calculator, learn, *rules]  # the review checks itself (test_review)
    weights: dict[str, int] = {}
    for path in pages:
        sizes = page_weight(client, path)
        total = sum(sizes.values())
        assert total < BUDGET, (path, total, sizes)
        weights[path] = total
    print("page weights (bytes):", weights)
