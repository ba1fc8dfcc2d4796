"""The front end's files: stylesheets are sent minified, with a tag of their own that a
browser's copy is checked against; scripts and other files as they are."""

from __future__ import annotations

from starlette.testclient import TestClient

from coinche.server.web.pages import WEB


def test_a_stylesheet_is_sent_without_its_comments_and_checked_by_its_tag(client: TestClient) -> None:
    source = (WEB / "static/css/table.css").read_text(encoding="utf-8")
    r = client.get("/static/css/table.css")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/css")
    assert "/*" in source and "/*" not in r.text and len(r.content) < 0.8 * len(source.encode())
    assert ".table" in r.text and "@media" in r.text  # the rules are all there
    again = client.get("/static/css/table.css", headers={"if-none-match": r.headers["etag"]})
    assert again.status_code == 304 and not again.content
    other = client.get("/static/css/site.css", headers={"if-none-match": r.headers["etag"]})
    assert other.status_code == 200 and other.headers["etag"] != r.headers["etag"]


def test_scripts_are_sent_as_they_are(client: TestClient) -> None:
    source = (WEB / "static/js/table.js").read_bytes()
    r = client.get("/static/js/table.js")
    assert r.status_code == 200 and r.content == source


def test_a_missing_stylesheet_is_a_404(client: TestClient) -> None:
    assert client.get("/static/css/nothing.css").status_code == 404
    assert client.get("/static/css/../../templates/base.html").status_code == 404
