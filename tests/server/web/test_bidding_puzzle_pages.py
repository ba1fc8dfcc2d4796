"""Bidding puzzles on the site (issue 32, item 3): "what do you call?" from a real auction,
answered by a real form (the calls the engine allows), then the expert's call, every call's
expected score as the expert computed it, and one sentence; bad input changes nothing."""

from __future__ import annotations

import html
import re

from server_helpers import MakeClient, call, csrf_of, parts_of
from starlette.testclient import TestClient
from test_puzzle_pages import puzzles_of

from coinche.bots.bidding_puzzles import best_bidding_puzzle, find_bidding_puzzles
from coinche.engine.actions import call_str
from coinche.engine.deal import Deal
from coinche.engine.rules import RuleSet
from coinche.server.compute.job_kinds import bidding_puzzle_to_json
from coinche.server.infra.rows.puzzles import BiddingPuzzleRow, BiddingPuzzleTryRow
from coinche.server.table.spec import Seat
from played_deals import played_deal


def deal_with_puzzle(start: int = 0) -> tuple[Deal, dict[str, object]]:
    for seed in range(start, start + 60):
        deal = played_deal("classic", seed)
        best = best_bidding_puzzle(find_bidding_puzzles(deal.rules, deal.dealer, deal.dealt, deal.auction.calls))
        if best is not None:
            return deal, bidding_puzzle_to_json(best)
    raise AssertionError("no bidding puzzle")


def add(client: TestClient, table_id: str, start: int = 0) -> str:
    deal, found = deal_with_puzzle(start)
    puzzle_id = puzzles_of(client).bidding.add(table_id, 1, deal, found)
    assert puzzle_id is not None
    assert puzzles_of(client).bidding.add(table_id, 1, deal, found) is None  # one a deal
    return puzzle_id


def answer(client: TestClient, path: str, **form: str) -> tuple[int, str]:
    r = client.post(path, data={"csrf": csrf_of(client, path), **form})
    return r.status_code, html.unescape(r.text)


def test_a_bidding_puzzle_is_shown_answered_and_explained(client: TestClient) -> None:
    puzzle_id = add(client, "t1")
    puzzle = call(client, puzzles_of(client).bidding_puzzle, puzzle_id)
    assert puzzle is not None
    path = f"/problemes/encheres/{puzzle_id}"
    page = html.unescape(client.get(path).text)
    assert "que dites-vous ?" in page and "Votre main" in page
    offered = set(re.findall(r'name="call" value="([a-z]+)"', page)) - {"bid"}
    offered |= set(re.findall(r'<option value="([^"]+)"', page))
    legal = {call_str(a) for a in puzzle.position().legal_actions() if not call_str(a).startswith("generale")}
    assert offered == legal  # the engine's calls, the générale aside
    wrong = next(call_str(c) for c, _, _ in reversed(puzzle.values) if not puzzle.good(c))
    form = {"call": "bid", "bid": wrong} if wrong[0].isdigit() or wrong.startswith("capot") else {"call": wrong}
    status, text = answer(client, path, **form)
    assert status == 200
    expert = call_str(puzzle.call)
    assert "l'expert dit" in text and "Ce que vaut chaque enchère" in text and "rapporte en moyenne" in text
    assert "Selon les conventions :" in text and "(vous)" in text and "(l'expert)" in text
    # A later answer is shown, not counted again.
    form = {"call": "bid", "bid": expert} if expert[0].isdigit() or expert.startswith("capot") else {"call": expert}
    status, text = answer(client, path, **form)
    assert status == 200 and "Bien vu" in text
    rows = _rows(client)
    assert [(r.tries, r.solved) for r in rows] == [(1, 0)]
    english = html.unescape(client.get(f"/puzzles/bidding/{puzzle_id}").text)
    assert "what do you say?" in english


def test_the_next_bidding_puzzle_is_one_not_answered(client: TestClient) -> None:
    first = add(client, "t1")
    second = add(client, "t2", start=30)
    r = client.get("/problemes/encheres", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] in (
        f"/problemes/encheres/{first}",
        f"/problemes/encheres/{second}",
    )
    shown = r.headers["location"].rsplit("/", 1)[1]
    answer(client, f"/problemes/encheres/{shown}", call="pass")
    r = client.get("/problemes/encheres", follow_redirects=False)
    assert r.headers["location"].rsplit("/", 1)[1] == ({first, second} - {shown}).pop()
    hub = html.unescape(client.get("/problemes").text)
    assert "Des problèmes d'enchères" in hub and "2 problèmes d'enchères" in hub


def test_bad_answers_change_nothing(client: TestClient) -> None:
    puzzle_id = add(client, "t1")
    path = f"/problemes/encheres/{puzzle_id}"
    for form in (
        {"call": "bid"},
        {"call": "bid", "bid": "80Q"},
        {"call": "generaleH"},
        {"call": "x" * 5000},
        {},
        {"call": "bid", "bid": "90"},
    ):
        status, text = answer(client, path, **form)
        assert status == 400, form
        assert "Traceback" not in text
    assert client.get("/problemes/encheres/nope!").status_code == 404
    assert client.get("/problemes/encheres/zzzzzzzz").status_code == 404
    r = client.post(path, data={"call": "pass"})
    assert r.status_code == 403
    with puzzles_of(client).bidding.store.session() as s:
        assert s.query(BiddingPuzzleTryRow).count() == 0


def _rows(client: TestClient) -> list[BiddingPuzzleRow]:
    store = puzzles_of(client).bidding.store
    with store.session() as s:
        return list(s.query(BiddingPuzzleRow).all())


def test_the_auctions_are_searched_at_most_every_so_often(make_client: MakeClient) -> None:
    """With a spacing longer than the game, its deals give one bidding puzzle search, not one
    a deal: a budget of the workers' time. (With the default ten seconds, a loaded machine
    played the game in more than ten seconds and searched twice.)"""
    client = make_client(bidding_puzzle_seconds=3600)
    parts = parts_of(client)
    bot = Seat("bot", level="beginner")
    spec = call(client, parts.tables.create_table, RuleSet.profile("classic", target=1000), [bot] * 4, "beginner")
    live = call(client, parts.computers.play_out, spec.id)
    call(client, puzzles_of(client).settle)
    played = sum(1 for deal in live.game.deals if deal.contract is not None)
    assert played > 1
    with parts.store.session() as s:
        assert s.query(BiddingPuzzleRow).count() <= 1
