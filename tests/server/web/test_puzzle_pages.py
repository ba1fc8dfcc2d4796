"""Puzzles on the site (issue 32): found in the site's finished deals by the workers' job,
stored once, shown with all four hands, tried by a real form (the first try rated, the
streak counted), the day's puzzle the same for everyone, the position downloadable as a
deal record that the engine replays; bad input changes nothing."""

from __future__ import annotations

import html
import json
import re
from datetime import UTC, datetime, timedelta

import pytest
from server_helpers import MakeClient, another_visitor, call, csrf_of, parts_of
from starlette.testclient import TestClient

from coinche.bots.bidding_puzzles import best_bidding_puzzle, find_bidding_puzzles
from coinche.bots.puzzles import best_puzzle, find_puzzles
from coinche.engine.deal import Deal
from coinche.engine.record import parse_record, replay
from coinche.engine.rules import RuleSet
from coinche.server.compute.job_kinds import puzzle_to_json
from coinche.server.features.puzzles import Puzzles
from coinche.server.infra.rows.puzzles import BiddingPuzzleRow, PuzzlePlayerRow, PuzzleRow
from coinche.server.table.spec import Seat
from played_deals import played_deal


def puzzles_of(client: TestClient) -> Puzzles:
    found = client.app.state.puzzles  # type: ignore[attr-defined]
    assert isinstance(found, Puzzles)
    return found


def deals_with_puzzles(count: int) -> list[Deal]:
    found = []
    for seed in range(400):
        deal = played_deal("classic", seed)
        if best_puzzle(find_puzzles(deal.rules, deal.dealer, deal.dealt, deal.log)) is not None:
            found.append(deal)
            if len(found) == count:
                return found
    raise AssertionError("too few deals with a puzzle")


def add(client: TestClient, deal: Deal, table_id: str, number: int = 1) -> str | None:
    best = best_puzzle(find_puzzles(deal.rules, deal.dealer, deal.dealt, deal.log))
    assert best is not None
    store = puzzles_of(client).store
    return store.add(table_id, number, deal, puzzle_to_json(best))


def try_card(client: TestClient, path: str, card: str) -> str:
    r = client.post(path, data={"csrf": csrf_of(client, path), "card": card})
    assert r.status_code == 200, r.text[:300]
    return r.text


def test_a_puzzle_is_shown_tried_rated_and_its_record_replays(client: TestClient) -> None:
    deal = deals_with_puzzles(1)[0]
    puzzle_id = add(client, deal, "t1")
    assert puzzle_id is not None
    assert add(client, deal, "t1") is None  # one puzzle a deal
    puzzle = call(client, puzzles_of(client).puzzle, puzzle_id)
    assert puzzle is not None
    page = client.get(f"/problemes/{puzzle_id}")
    assert page.status_code == 200
    text = html.unescape(page.text)
    assert "trouvez la carte qui" in text
    buttons = re.findall(r'<button type="submit" name="card" value="([2-9TJQKA][SHDC])"', page.text)
    assert sorted(buttons) == sorted(c for c, _ in puzzle.values)  # a button for each legal card, no other
    wrong = next(c for c, _ in puzzle.values if c != puzzle.solution)

    missed = html.unescape(try_card(client, f"/problemes/{puzzle_id}", wrong))
    assert "Manqué" in missed and "Seul " in missed and "chuté" in missed and "gagné" in missed
    tried = _players(client)
    assert len(tried) == 1 and tried[0].tries == 1 and tried[0].solved == 0 and tried[0].streak == 0
    # A second try shows the answer and changes no rating.
    again = html.unescape(try_card(client, f"/problemes/{puzzle_id}", puzzle.solution))
    assert "Bravo" in again
    assert [(r.tries, r.solved) for r in _players(client)] == [(1, 0)]
    row = _puzzle_row(client, puzzle_id)
    assert row.tries == 1 and row.solved == 0 and row.mu > puzzle.rating.mu  # the puzzle won

    record = client.get(f"/puzzles/{puzzle_id}/record.json")
    assert record.status_code == 200 and record.headers["content-type"].startswith("application/json")
    data = record.json()
    assert data["puzzle"]["solution"] == puzzle.solution and data["puzzle"]["seat"] == puzzle.seat
    game = replay(parse_record(data))
    position = game.deals[0]
    assert not position.is_over and position.to_move == puzzle.seat
    assert len(position.log) == len(puzzle.position().log)

    english = html.unescape(client.get(f"/puzzles/{puzzle_id}").text)
    assert "find the card that" in english and "Puzzle " in english


def _players(client: TestClient) -> list[PuzzlePlayerRow]:
    with parts_of(client).store.session() as s:
        rows = list(s.query(PuzzlePlayerRow).all())
        s.expunge_all()
        return rows


def _puzzle_row(client: TestClient, puzzle_id: str) -> PuzzleRow:
    with parts_of(client).store.session() as s:
        row = s.get(PuzzleRow, puzzle_id)
        assert row is not None
        s.expunge(row)
        return row


@pytest.mark.both_databases
def test_a_solved_streak_and_the_next_puzzle_near_the_rating(client: TestClient) -> None:
    deals = deals_with_puzzles(3)
    ids = [add(client, deal, f"t{n}") for n, deal in enumerate(deals)]
    assert all(ids)
    seen = []
    r = client.get("/problemes/serie", follow_redirects=False)
    for _ in range(3):
        assert r.status_code == 303
        path = r.headers["location"].split("?")[0]
        puzzle_id = path.rsplit("/", 1)[1]
        seen.append(puzzle_id)
        puzzle = call(client, puzzles_of(client).puzzle, puzzle_id)
        assert puzzle is not None
        text = html.unescape(try_card(client, path, puzzle.solution))
        assert "Bravo" in text and f"série : {len(seen)}" in text
        r = client.get(f"/problemes/serie?after={puzzle_id}", follow_redirects=False)
    assert sorted(seen) == sorted(ids)  # each once
    assert r.headers["location"] == "/problemes"  # none left untried
    home = html.unescape(client.get("/problemes").text)
    assert "série en cours : 3 (record : 3)" in home


def test_the_puzzle_of_the_day_is_drawn_from_before_the_day(client: TestClient) -> None:
    deals = deals_with_puzzles(2)
    ids = [add(client, deal, f"d{n}") for n, deal in enumerate(deals)]
    assert client.get("/problemes/jour", follow_redirects=False).headers["location"] == "/problemes"  # found today
    with parts_of(client).store.session() as s, s.begin():
        for row in s.query(PuzzleRow).all():
            row.created_at = datetime.now(UTC) - timedelta(days=2)
    first = client.get("/problemes/jour", follow_redirects=False).headers["location"]
    assert first.rsplit("/", 1)[1] in ids
    assert client.get("/problemes/jour", follow_redirects=False).headers["location"] == first
    english = client.get("/puzzles/day", follow_redirects=False).headers["location"]
    assert english == first.replace("/problemes", "/puzzles")
    # A stored puzzle the solver no longer confirms is not the day's: the next one is.
    first_id = first.rsplit("/", 1)[1]
    with parts_of(client).store.session() as s, s.begin():
        row = s.get(PuzzleRow, first_id)
        assert row is not None
        row.solution = next(c for c, _ in row.values if c != row.solution)
    puzzles_of(client)._days.clear()  # as another process, or the next start, would
    other = client.get("/problemes/jour", follow_redirects=False).headers["location"]
    assert other.rsplit("/", 1)[1] in ids and other != first


def test_bad_input_changes_nothing(client: TestClient) -> None:
    deal = deals_with_puzzles(1)[0]
    puzzle_id = add(client, deal, "t1")
    path = f"/problemes/{puzzle_id}"
    for bad in ("ZZ", "", "7S" * 1000, "AS' onmouseover='x"):
        r = client.post(path, data={"csrf": csrf_of(client, path), "card": bad})
        assert r.status_code == 400 and "Manqué" not in r.text and "Bravo" not in r.text
    r = client.post(path, data={"card": "AS"})  # no CSRF token
    assert r.status_code == 403
    for missing in ("/problemes/nope", "/problemes/" + "x" * 40, "/puzzles/%00/record.json", "/problemes/a.b"):
        assert client.get(missing).status_code == 404
    assert _players(client) == []
    assert json.loads(client.get(f"/puzzles/{puzzle_id}/record.json").text)["puzzle"]["goal"] in ("make", "beat")


def test_the_finished_deals_of_a_table_give_their_puzzles_through_the_job(make_client: MakeClient) -> None:
    """Four computers play a game: each deal of it with a puzzle gives one, through the
    listener and the workers' ``puzzle`` job, and the page shows it; each deal's auction
    too when the bidding search is not spaced out (``bidding_puzzle_seconds`` 0)."""
    client = make_client(bidding_puzzle_seconds=0.0)
    parts = parts_of(client)
    bot = Seat("bot", level="beginner")
    spec = call(client, parts.tables.create_table, RuleSet.profile("classic", target=1000), [bot] * 4, "beginner")
    live = call(client, parts.computers.play_out, spec.id)
    call(client, puzzles_of(client).settle)
    expected = {
        n
        for n, deal in enumerate(live.game.deals, 1)
        if best_puzzle(find_puzzles(deal.rules, deal.dealer, deal.dealt, deal.log)) is not None
    }
    with parts.store.session() as s:
        rows = s.query(PuzzleRow).all()
        assert {r.deal for r in rows} == expected and {r.table_id for r in rows} <= {spec.id}
        ids = [r.id for r in rows]
    for puzzle_id in ids:
        assert client.get(f"/puzzles/{puzzle_id}").status_code == 200
    calls = {
        n
        for n, deal in enumerate(live.game.deals, 1)
        if best_bidding_puzzle(find_bidding_puzzles(deal.rules, deal.dealer, deal.dealt, deal.auction.calls))
        and deal.contract is not None
    }
    with parts.store.session() as s:
        bidding = s.query(BiddingPuzzleRow).all()
        assert {r.deal for r in bidding} == calls and {r.table_id for r in bidding} <= {spec.id}
    for row in bidding:
        assert client.get(f"/puzzles/bidding/{row.id}").status_code == 200


ANSWER_KEYS = ("solution", "values", "line", "themes")
"""What the record says of the answer: only to a visitor who has answered."""


def test_the_record_keeps_the_solution_until_the_visitor_has_answered(client: TestClient) -> None:
    """Read before any answer, the record gave the solution, to post as a rated first try
    (found from outside: a rating of 1000 became 1143 and a streak began): it holds the
    position and the goal until the visitor has answered; another visitor's answer shows
    it to nobody else."""
    deal = deals_with_puzzles(1)[0]
    puzzle_id = add(client, deal, "t1")
    assert puzzle_id is not None
    puzzle = call(client, puzzles_of(client).puzzle, puzzle_id)
    assert puzzle is not None
    url = f"/puzzles/{puzzle_id}/record.json"
    before = client.get(url)
    assert before.status_code == 200 and "no-store" in before.headers["cache-control"]
    held = before.json()["puzzle"]
    assert held == {"seat": puzzle.seat, "goal": puzzle.goal}, held
    position = replay(parse_record(before.json())).deals[0]
    assert not position.is_over and position.to_move == puzzle.seat  # the position is whole
    other = another_visitor(client)
    wrong = next(c for c, _ in puzzle.values if c != puzzle.solution)
    try_card(other, f"/problemes/{puzzle_id}", wrong)
    assert all(key in other.get(url).json()["puzzle"] for key in ANSWER_KEYS)  # answered: all of it
    assert not any(key in client.get(url).json()["puzzle"] for key in ANSWER_KEYS)  # the first visitor: not yet
    try_card(client, f"/problemes/{puzzle_id}", puzzle.solution)
    assert client.get(url).json()["puzzle"]["solution"] == puzzle.solution
