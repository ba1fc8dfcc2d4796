"""Uploaded records (issue 18, history and replays): a record written by hand, not by the
site, is replayed by the engine and reviewed card by card as a table's deal is (the same
page, the same analysis in the pool, cached once); a game record lists its deals; an
invalid one gets the engine's one-line message; only the visitor who uploaded it opens it."""

from __future__ import annotations

import html
import json
import re
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from server_helpers import MakeClient, another_visitor, csrf_of, parts_of
from sqlalchemy import update
from starlette.testclient import TestClient

from coinche.server.infra.rows.tables import UploadAnalysisRow, UploadedRecordRow
from coinche.server.web.review_pages import reviews_of

RECORDS = Path(__file__).resolve().parents[2] / "records"
DEAL = json.loads((RECORDS / "classic_coinche_belote_melds.json").read_text(encoding="utf-8"))
GAME_TEXT = (RECORDS / "federation_game.json").read_text(encoding="utf-8")
PAYLOAD = re.compile(r'<script[^>]*id="review-data"[^>]*>(.*?)</script>', re.S)


def upload(client: TestClient, text: str, path: str = "/revoir", field: str = "record") -> Any:
    token = csrf_of(client, path)
    if field == "file":
        return client.post(
            path,
            data={"csrf": token},
            files={"file": ("deal.json", text.encode(), "application/json")},
            follow_redirects=False,
        )
    return client.post(path, data={"csrf": token, field: text}, follow_redirects=False)


def rows(client: TestClient, row: Any) -> list[Any]:
    store = client.app.state.store  # type: ignore[attr-defined]
    with store.session() as s:
        from sqlalchemy import select

        return list(s.scalars(select(row)))


def payload(text: str) -> dict[str, Any]:
    found = PAYLOAD.search(text)
    assert found is not None, "no review data"
    data: dict[str, Any] = json.loads(found[1])
    return data


def wait_analysis(client: TestClient, url: str) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while True:
        r = client.get(url)
        if r.status_code == 200:
            data: dict[str, Any] = r.json()
            assert data["status"] == "ready"
            return data
        assert r.status_code == 202, r.text
        assert time.monotonic() < deadline, "the analysis never came"
        time.sleep(0.05)


@pytest.fixture
def client(make_client: MakeClient) -> TestClient:
    c = make_client()
    c.cookies.set("lang", "fr")
    return c


@pytest.mark.parametrize(("path", "field"), [("/revoir", "record"), ("/replay", "file")])
def test_a_hand_written_deal_is_replayed_and_reviewed_step_by_step(client: TestClient, path: str, field: str) -> None:
    r = upload(client, json.dumps(DEAL), path, field)
    assert r.status_code == 303, r.text
    location = r.headers["location"]
    assert re.fullmatch(r"/revoir/[A-Za-z0-9_-]{16}/donne/1", location), location
    page = client.get(location)
    assert page.status_code == 200
    data = payload(page.text)
    assert len(data["steps"]) == 1 + len(DEAL["auction"]) + len(DEAL["play"])
    assert [s["code"] for s in data["steps"][1:]] == DEAL["auction"] + DEAL["play"]
    assert data["base"] == location and data["contract"] and len(data["tricks"]) == 8
    assert data["seat_names"] == ["Sud", "Est", "Nord", "Ouest"]  # nobody of an upload is "you"
    assert "Traceback" not in page.text
    # The record comes back, as uploaded and as the deal.
    upload_id = location.split("/")[2]
    back = client.get(f"/revoir/{upload_id}/record.json")
    assert back.status_code == 200 and json.loads(back.text) == DEAL
    deal = client.get(location + "/record.json").json()
    assert deal["hands"] == DEAL["hands"] and deal["play"] == DEAL["play"]
    [stored] = rows(client, UploadedRecordRow)
    assert stored.id == upload_id and json.loads(stored.record) == DEAL


def test_a_game_record_lists_its_deals(client: TestClient) -> None:
    r = upload(client, GAME_TEXT)
    assert r.status_code == 303
    location = r.headers["location"]
    assert re.fullmatch(r"/revoir/[A-Za-z0-9_-]{16}", location)
    text = html.unescape(client.get(location).text)
    deals = json.loads(GAME_TEXT)["deals"]
    for n in range(1, len(deals) + 1):
        assert f'href="{location}/donne/{n}"' in text, n
        assert client.get(f"{location}/donne/{n}").status_code == 200
    assert client.get(f"{location}/donne/{len(deals) + 1}").status_code == 404


def test_an_illegal_card_gets_the_engines_message(client: TestClient) -> None:
    play = list(DEAL["play"])
    play[1], play[6] = play[6], play[1]
    for path, lang in (("/revoir", "fr"), ("/replay", "en")):
        r = upload(client, json.dumps({**DEAL, "play": play}), path)
        assert r.status_code == 400
        text = html.unescape(r.text)
        assert "deal 1, trick 1, seat 1: QD is illegal: must follow suit (H) with TH 8H" in text, lang
        assert "Traceback" not in text
    assert rows(client, UploadedRecordRow) == []


def test_malformed_empty_and_too_large_records_are_refused(client: TestClient) -> None:
    r = upload(client, '{"rules": "classic",')
    text = html.unescape(r.text)
    assert r.status_code == 400 and ("ligne 1, colonne 21" in text or "line 1, column 21" in text), text
    assert "Expecting" not in text and "char " not in text
    r = upload(client, "   ")
    assert r.status_code == 400
    r = upload(client, json.dumps({**DEAL, "rules": "nonsense"}))
    assert r.status_code == 400 and "Traceback" not in r.text
    big = json.dumps({**DEAL, "comment": "x" * (256 * 1024)})
    r = upload(client, big, field="file")
    assert r.status_code == 413 and "256 Ko" in html.unescape(r.text)
    assert rows(client, UploadedRecordRow) == []


def test_a_missing_token_is_refused(client: TestClient) -> None:
    r = client.post("/revoir", data={"record": json.dumps(DEAL)}, follow_redirects=False)
    assert r.status_code == 403
    assert rows(client, UploadedRecordRow) == []


def test_only_its_owner_opens_an_upload(client: TestClient) -> None:
    location = upload(client, GAME_TEXT).headers["location"]
    stranger = another_visitor(client)
    for url in (location, location + "/record.json", location + "/donne/1", location + "/donne/1/record.json"):
        assert client.get(url).status_code == 200, url
        assert stranger.get(url).status_code == 404, url
    assert stranger.get(location + "/donne/1/analyse").status_code == 404
    assert client.get("/revoir/AAAAAAAAAAAAAAAA").status_code == 404


def test_uploads_are_rate_limited(make_client: MakeClient) -> None:
    client = make_client(upload_limit="2/minute")
    for _ in range(2):
        assert upload(client, json.dumps(DEAL)).status_code == 303
    r = upload(client, json.dumps(DEAL))
    assert r.status_code == 429 and int(r.headers["retry-after"]) > 0
    assert len(rows(client, UploadedRecordRow)) == 2


@pytest.mark.both_databases
def test_uploads_are_limited_per_address_too(make_client: MakeClient) -> None:
    """New cookies from one address (a script that drops its cookie) share the address's
    window: three visitors of 2 each stop at the address's 3."""
    client = make_client(upload_limit="2/minute", upload_limit_per_address="3/minute")
    statuses = []
    for _ in range(3):
        client.cookies.clear()
        client.cookies.set("lang", "fr")
        statuses += [upload(client, json.dumps(DEAL)).status_code for _ in range(2)]
    assert statuses == [303, 303, 303, 429, 429, 429], statuses
    assert len(rows(client, UploadedRecordRow)) == 3


@pytest.mark.both_databases
def test_a_visitor_keeps_their_newest_uploads_only(make_client: MakeClient) -> None:
    """Past the quota of stored uploads per visitor, the oldest goes (with its analysis);
    another visitor's stay."""
    client = make_client(uploads_kept=3)
    stranger = another_visitor(client)
    theirs = upload(stranger, json.dumps(DEAL)).headers["location"]
    kept = 3
    places = []
    store = client.app.state.store  # type: ignore[attr-defined]
    for i in range(kept + 2):
        r = upload(client, json.dumps(DEAL))
        assert r.status_code == 303
        places.append(r.headers["location"])
        if i < 2:  # the two to be dropped: an analysis cached for each
            store.save_upload_analysis(places[-1].split("/")[2], 1, {"cached": True})
    stored = rows(client, UploadedRecordRow)
    assert len(stored) == kept + 1
    assert client.get(places[0]).status_code == 404 and client.get(places[1]).status_code == 404
    assert all(client.get(place).status_code == 200 for place in places[2:])
    assert stranger.get(theirs).status_code == 200
    # the dropped uploads' analyses went with them (opening the kept ones above may have
    # started analyses of their own, which may or may not be stored yet)
    dropped = {place.split("/")[2] for place in places[:2]}
    assert not [row for row in rows(client, UploadAnalysisRow) if row.upload_id in dropped]


@pytest.mark.both_databases
def test_uploads_expire(client: TestClient) -> None:
    """An upload older than the retention is deleted at the next upload (anyone's)."""
    settings = client.app.state.settings  # type: ignore[attr-defined]
    old = upload(client, json.dumps(DEAL)).headers["location"]
    store = client.app.state.store  # type: ignore[attr-defined]
    long_ago = datetime.now(UTC) - timedelta(days=settings.upload_days, minutes=1)
    with store.engine.begin() as conn:
        conn.execute(update(UploadedRecordRow).values(created_at=long_ago))
    assert client.get(old).status_code == 200  # nothing is deleted on reading
    stranger = another_visitor(client)
    assert upload(stranger, json.dumps(DEAL)).status_code == 303
    assert client.get(old).status_code == 404
    assert len(rows(client, UploadedRecordRow)) == 1


def test_the_analysis_of_an_upload_is_computed_once_and_cached(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    location = upload(client, json.dumps(DEAL)).headers["location"]
    pool = parts_of(client).pool
    calls = []
    run = pool.run

    async def counting(fn: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(fn)
        return await run(fn, *args, **kwargs)

    monkeypatch.setattr(pool, "run", counting)
    first = client.get(location + "/analyse")
    assert first.status_code in (200, 202)
    client.get(location)  # shares it
    data = wait_analysis(client, location + "/analyse")
    assert len(calls) == 1 and data["trumps"] and data["positions"]

    class FakeRequest:
        app = client.app

    assert not reviews_of(FakeRequest()).running  # type: ignore[arg-type]
    assert len(rows(client, UploadAnalysisRow)) == 1

    async def failing(fn: Any, *args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the cache was not used")

    monkeypatch.setattr(pool, "run", failing)
    assert client.get(location + "/analyse").json() == data
    page = client.get(location)
    assert page.status_code == 200 and 'class="dd-table"' in page.text


def test_the_page_is_linked(client: TestClient) -> None:
    assert 'href="/revoir"' in client.get("/compte").text
    client.cookies.set("lang", "en")
    r = client.get("/replay")
    assert r.status_code == 200 and "Replay a deal or a game" in html.unescape(r.text)
    location = upload(client, json.dumps(DEAL), "/replay").headers["location"]
    assert 'href="/replay"' in client.get(location).text
