"""The deal review (issue 8): only a seated guest, only a finished deal; the analysis is
the solver's own (``analyse_deal``, ``card_values``, ``coinche solve``), computed once in
the pool and cached in the database; the computers' explanations are stored with their
actions and shown in both languages, after a restart too."""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from server_helpers import Human, MakeClient, call, create_solo, hidden_cards, live_table, named_cards, parts_of
from sqlalchemy import delete, select
from starlette.testclient import TestClient

from coinche.bots.analysis import analyse_deal, card_values
from coinche.engine.actions import card_of, is_card, is_declaration
from coinche.engine.cards import TRUMP_NAMES, card_str
from coinche.engine.deal import Deal, Phase
from coinche.engine.messages import Message
from coinche.engine.wire import message_from_json, message_to_json
from coinche.server.features.review import explanation_text
from coinche.server.infra.rows.tables import ActionRow, AnalysisRow
from coinche.server.table import i18n
from coinche.server.web.review_pages import reviews_of

POLL_TIMEOUT = 60.0


@dataclass
class Played:
    client: TestClient
    table_id: str
    cookie: str

    @property
    def base(self) -> str:
        return f"/table/{self.table_id}/donne/1"

    def deal(self) -> Deal:
        return live_table(self.client, self.table_id).game.deals[0]


def play_one_deal(client: TestClient, level: str = "expert", lang: str = "fr") -> Played:
    client.cookies.set("lang", lang)
    table_id = create_solo(client, "classic", 700, level)
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        state = Human(ws, max_deals=1).play_game()
    assert state["awaiting_next_deal"] or state["game"]["winner"] is not None, state
    return Played(client, table_id, client.cookies["session"])


@pytest.fixture
def played(make_client: MakeClient) -> Iterator[Played]:
    yield play_one_deal(make_client(free_deals=100))


def wait_analysis(client: TestClient, url: str) -> dict[str, Any]:
    deadline = time.monotonic() + POLL_TIMEOUT
    while True:
        r = client.get(url)
        if r.status_code == 200:
            data: dict[str, Any] = r.json()
            assert data["status"] == "ready"
            return data
        assert r.status_code == 202, r.text
        assert r.json() == {"status": "pending"}
        assert time.monotonic() < deadline, "the analysis never came"
        time.sleep(0.05)


def expected_positions(deal: Deal) -> list[dict[str, Any]]:
    """Before each card: the solver's value of each legal card, computed here directly."""
    out = []
    step_deal = Deal(deal.rules, deal.dealer, deal.dealt)
    step = 0
    for entry in deal.log:
        assert isinstance(entry, int)
        if not is_declaration(entry):
            step += 1
            if is_card(entry):
                assert step_deal.phase is Phase.PLAY
                values = card_values(step_deal)
                out.append(
                    {
                        "step": step,
                        "seat": step_deal.to_move,
                        "values": {card_str(c): v for c, v in sorted(values.items())},
                        "played": card_str(card_of(entry)),
                    }
                )
        step_deal.replay_entry(entry)
    return out


def test_the_review_shows_the_deal_and_the_solvers_own_analysis(played: Played, tmp_path: Path) -> None:
    client, deal = played.client, played.deal()
    page = client.get(played.base)
    assert page.status_code == 200
    text = html.unescape(page.text)
    assert f'href="/table/{played.table_id}"' in page.text  # back to the table
    for hand in deal.dealt:  # the four hands as dealt, in words
        for c in range(32):
            if hand >> c & 1:
                assert i18n.card_name("fr", card_str(c)) in text
    result = deal.result()
    assert result is not None
    for line in result.lines:
        assert i18n.render("fr", line) in text
    assert text.count('class="trick-won"') == 8
    # The page and everything it loads weigh under 150 KB.
    assets = re.findall(r'(?:href|src)="(/static/[^"]+)"', page.text)
    assert {"/static/js/review.js", "/static/css/review.css"} <= set(assets)
    imported = ["/static/js/words.js", "/static/js/cards.js"]
    weight = len(page.content) + sum(len(client.get(a).content) for a in {*assets, *imported})
    assert weight < 150_000, weight
    print("review page weight (bytes):", weight)

    data = wait_analysis(client, played.base + "/analyse")
    rows = analyse_deal(deal.rules, deal.dealer, deal.dealt)
    assert data["trumps"] == [
        {"trump": TRUMP_NAMES[r.trump], "points": list(r.points), "best_bid": list(r.best_bid), "sweep": list(r.sweep)}
        for r in rows
    ]
    assert data["positions"] == expected_positions(deal)
    assert len(data["positions"]) == 32
    # Once cached, the page shows the table without script.
    again = client.get(played.base).text
    assert 'class="dd-table"' in again and "analysis-pending" not in again

    # The record downloads and `coinche solve` gives the same numbers.
    r = client.get(played.base + "/record.json")
    assert r.status_code == 200
    assert "attachment" in r.headers["content-disposition"]
    path = tmp_path / "deal.json"
    path.write_text(r.text, encoding="utf-8")
    solved = subprocess.run(
        [sys.executable, "-m", "coinche.cli", "solve", str(path), "--json"], capture_output=True, text=True, check=True
    )
    assert json.loads(solved.stdout)["trumps"] == data["trumps"]
    replayed = subprocess.run(
        [sys.executable, "-m", "coinche.cli", "replay", str(path), "--json"], capture_output=True, text=True, check=True
    )
    assert json.loads(replayed.stdout)["score"] == list(result.score)


def test_only_a_seated_guest_sees_the_review(played: Played) -> None:
    client = played.client
    client.cookies.clear()
    client.get("/")  # another guest
    for suffix in ("", "/analyse", "/record.json"):
        assert client.get(played.base + suffix).status_code == 404
    client.cookies.clear()
    client.cookies.set("session", played.cookie)
    assert client.get(played.base).status_code == 200
    assert client.get("/table/nosuchtable/donne/1").status_code == 404


BAD_DEAL_NUMBERS = ["0", "2", "3", "-1", "1.5", "abc", "99999999999999999999", "%C2%B2", "01"]


def test_a_bad_deal_number_is_a_404(played: Played) -> None:
    # One played deal for every number (a deal played with the expert per number was most
    # of this module's time).
    for n in BAD_DEAL_NUMBERS:
        for suffix in ("", "/analyse", "/record.json"):
            r = played.client.get(f"/table/{played.table_id}/donne/{n}{suffix}")
            assert r.status_code == 404, (n, suffix, r.status_code)


def test_a_deal_in_progress_is_not_reviewed(make_client: MakeClient) -> None:
    client = make_client(free_deals=100)
    table_id = create_solo(client, "classic", 700, "beginner")
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        Human(ws).until_my_move()
        deal = live_table(client, table_id).game.deals[0]
        assert not deal.is_over
        hidden = hidden_cards(deal, 0)
        for suffix in ("", "/analyse", "/record.json"):
            r = client.get(f"/table/{table_id}/donne/1{suffix}")
            assert r.status_code == 404
            assert not named_cards({"text": r.text}, hidden)


def test_explanations_are_stored_and_shown_in_both_languages(played: Played, make_client: MakeClient) -> None:
    store = parts_of(played.client).store
    with store.session() as s:
        rows = s.execute(
            select(ActionRow.seat, ActionRow.explanation).where(ActionRow.table_id == played.table_id)
        ).all()
    assert rows
    for seat, explanation in rows:
        if seat == 0:
            assert explanation is None  # a human gives no reason
        else:
            assert explanation is not None and explanation["public"], (seat, explanation)
    reasons = [message_from_json(e["reason"]) for seat, e in rows if e is not None and e["reason"] is not None]
    assert reasons, "the expert gives translatable reasons"
    for lang in ("fr", "en"):
        played.client.cookies.set("lang", lang)
        text = html.unescape(played.client.get(played.base).text)
        for reason in reasons:
            assert i18n.render(lang, reason) in text, (lang, reason)
    # A restart (a new application on the same database) keeps the review and its reasons.
    wait_analysis(played.client, played.base + "/analyse")
    again = make_client(free_deals=100)
    again.cookies.set("session", played.cookie)
    again.cookies.set("lang", "en")
    page = again.get(played.base)
    assert page.status_code == 200
    text = html.unescape(page.text)
    for reason in reasons:
        assert i18n.render("en", reason) in text
    assert 'class="dd-table"' in text  # the cached analysis, straight from the database


def test_the_analysis_is_computed_once_and_cached(played: Played, monkeypatch: pytest.MonkeyPatch) -> None:
    client = played.client
    call(client, client.app.state.puzzles.settle)  # type: ignore[attr-defined]  # the deal's puzzle searches, in the pool too
    # an analysis asked for first by the review (any earlier one gone)
    store = client.app.state.store  # type: ignore[attr-defined]
    with store.engine.begin() as conn:
        conn.execute(delete(AnalysisRow).where(AnalysisRow.table_id == played.table_id))
    reviews_of_client(client).finished.clear()
    pool = parts_of(client).pool
    calls = []
    run = pool.run

    async def counting(fn: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(fn)
        return await run(fn, *args, **kwargs)

    monkeypatch.setattr(pool, "run", counting)
    first = client.get(played.base + "/analyse")  # starts it
    assert first.status_code in (200, 202)
    client.get(played.base)  # shares it
    data = wait_analysis(client, played.base + "/analyse")
    assert [fn.__name__ for fn in calls if fn.__name__ == "run_analysis"] == ["run_analysis"]
    assert not reviews_of_client(client).running

    async def failing(fn: Any, *args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the cache was not used")

    monkeypatch.setattr(pool, "run", failing)
    assert client.get(played.base + "/analyse").json() == data
    assert client.get(played.base).status_code == 200


def reviews_of_client(client: TestClient) -> Any:
    class FakeRequest:
        app = client.app

    return reviews_of(FakeRequest())  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_an_explanation_in_words(lang: str) -> None:
    reason = Message.of("bot.only_legal_card")
    shown = explanation_text(
        lang, {"public": reason.text, "private": "JH: only card", "reason": message_to_json(reason)}
    )
    # A row stored before private reasons were messages: its English detail for English only.
    old_detail = "JH: only card" if lang == "en" else None
    assert shown == {"text": i18n.render(lang, reason), "lang": lang, "detail": old_detail}
    detail = Message.of("bot.card_reason", played="JH", reason=reason)
    stored = {"public": reason.text, "private": detail.text, "reason": message_to_json(reason)}
    shown = explanation_text(lang, {**stored, "private_reason": message_to_json(detail)})
    assert shown == {"text": i18n.render(lang, reason), "lang": lang, "detail": i18n.render(lang, detail)}
    words = {"fr": "Valet de cœur : seule carte permise", "en": "Jack of hearts: only legal card"}
    assert shown["detail"] == words[lang]
    plain = explanation_text(lang, {"public": "whatever", "private": "9S: whatever", "reason": None})
    assert plain == {"text": "9S: whatever", "lang": "en", "detail": None}
    assert explanation_text(lang, None) is None
    assert explanation_text(lang, {"public": None, "private": None, "reason": {"id": "no.such", "params": {}}}) is None
