"""Ratings and the profile's counters wired to the tables (issue 18, items 4 and 5): a game
played to its end moves the counters and the rating as ``rate_game`` says (checked by hand),
the hooks run again change nothing, a game given up or left is lost (issue 27: by the leaver
alone; test_leaving.py has the rest of those rules), the daily challenge is
not rated, the adaptive computer starts from the player's rating, and the profile page."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from server_helpers import MakeClient, call, friends_of, parts_of, post_form
from sqlalchemy import select, update
from starlette.testclient import TestClient
from test_daily import account, daily_of
from test_ratings import close, hand_update

from coinche.engine.actions import PASS
from coinche.engine.rules import RuleSet
from coinche.server.features.player_stats import (
    GamePlan,
    PlayerStats,
    Profile,
    StatsStore,
    deal_counts,
    game_plans,
    knob_rating,
    rated_seat,
    ratings_of,
)
from coinche.server.infra.rows.ratings import PlayerStatsRow, RatingHistoryRow
from coinche.server.infra.rows.tables import TableRow
from coinche.server.table.kinds import challenge_day
from coinche.server.table.live_table import LiveTable
from coinche.server.table.ratings import NEW_PLAYER, LevelRatings, Rating, adaptive_start
from coinche.server.table.spec import Seat, Step

LEVELS = LevelRatings.load()
RULES = RuleSet.profile("classic", target=100)
"""One played deal ends the game."""


def stats_of(client: TestClient) -> PlayerStats:
    stats = client.app.state.player_stats  # type: ignore[attr-defined]
    assert isinstance(stats, PlayerStats)
    return stats


def profile(client: TestClient, player: str) -> Profile:
    return call(client, stats_of(client).profile, player)


def play_to_end(
    client: TestClient, table_id: str, seed: int = 1, passes: int = 0, until: Callable[[LiveTable], bool] | None = None
) -> LiveTable:
    """Play every seat (persons and computers alike) with random legal moves, bidding
    often so the low target is reached soon, and ask for each next deal. ``passes``: the
    game's deals up to that number are passed out (each seat passes), and (when above 0)
    each later deal has a contract, so at the low target the next deal ends the game;
    ``until``: stop as soon as the table is so (between two steps)."""
    parts = parts_of(client)
    rng = random.Random(seed)

    async def check(live: LiveTable) -> Step | None:
        game = live.game
        if game.is_over or (until is not None and until(live)):
            return None
        if game.awaiting_deal:
            return Step(live.seq, "deal", live.human_seat)
        legal = game.legal_actions()
        if len(game.deals) <= passes and PASS in legal:
            return Step(live.seq, "action", game.to_move, PASS)
        deal = game.current
        if passes and deal is not None and PASS in legal and all(c == PASS for c in deal.auction.calls):
            return Step(live.seq, "action", game.to_move, min(a for a in legal if a >= 1000))  # a contract
        bids = [a for a in legal if a != legal[0]]
        choice = rng.choice(bids) if bids and rng.random() < 0.4 else legal[0]
        return Step(live.seq, "action", game.to_move, choice)

    for _ in range(5000):
        live = call(client, parts.tables.table, table_id)
        assert live is not None
        if live.game.is_over or (until is not None and until(live)):
            return live
        call(client, parts.tables.write, table_id, None, check)
    raise AssertionError("the game never ended")


def new_table(client: TestClient, seats: tuple[Seat, Seat, Seat, Seat], level: str = "confirmed") -> str:
    spec = call(client, parts_of(client).tables.create_table, RULES, seats, level)
    return spec.id


def person(player: str) -> Seat:
    return Seat("human", player=player)


BOT = Seat("bot", level="confirmed")


def history_rows(client: TestClient, player: str) -> list[Any]:
    store = client.app.state.store  # type: ignore[attr-defined]
    with store.session() as s:
        return list(s.scalars(select(RatingHistoryRow).where(RatingHistoryRow.player_id == player)))


def test_a_solo_game_to_its_end_moves_the_counters_and_the_rating_by_hand(client: TestClient) -> None:
    anne = account(client, "Anne")
    table_id = new_table(client, (person(anne), BOT, BOT, BOT))
    live = play_to_end(client, table_id)
    winner = live.game.winner
    assert winner in (0, 1)
    got = profile(client, anne)
    # Teams: Anne (new) and a confirmed computer against two confirmed computers.
    expected = hand_update([[NEW_PLAYER, LEVELS.confirmed], [LEVELS.confirmed, LEVELS.confirmed]], winner)[0][0]
    assert close(got.rating, expected)
    assert (got.rating.mu > NEW_PLAYER.mu) == (winner == 0)
    assert got.games_played == got.rated_games == 1 and got.games_won == int(winner == 0)
    # The deal counters, recomputed from the deals themselves.
    deals = len(live.game.deals)
    assert got.deals_played == deals
    taken = made = coinches = 0
    for n in range(1, deals + 1):
        c = deal_counts(live, n)[anne]
        taken, made, coinches = taken + c.taken, made + c.made, coinches + c.coinches
    assert (got.contracts_taken, got.contracts_made, got.coinches) == (taken, made, coinches)
    assert got.contracts_made <= got.contracts_taken and got.coinches_won <= got.coinches
    assert [d for _, d in got.history] == [got.rating.display]
    assert ratings_of(client.app.state.store, [anne, "nobody"]) == {anne: got.rating}  # type: ignore[attr-defined]


def test_an_adaptive_computer_counts_at_the_rating_of_where_its_knob_ended(client: TestClient) -> None:
    anne = account(client, "Anne")
    adaptive = Seat("bot", level="adaptive")
    table_id = new_table(client, (person(anne), adaptive, adaptive, adaptive), level="adaptive")
    live = play_to_end(client, table_id, seed=7)
    knob = live.adaptive_level
    assert knob is not None and live.game.winner is not None
    computer = knob_rating(knob)
    expected = hand_update([[NEW_PLAYER, computer], [computer, computer]], live.game.winner)[0][0]
    got = profile(client, anne)
    assert close(got.rating, expected) and got.games_played == 1
    assert set(ratings_of(client.app.state.store, [anne, "computer:1"])) == {anne}  # type: ignore[attr-defined]


def test_hooks_run_again_and_a_table_read_again_change_nothing(client: TestClient) -> None:
    anne = account(client, "Anne")
    table_id = new_table(client, (person(anne), BOT, BOT, BOT))
    play_to_end(client, table_id, seed=2)
    before = profile(client, anne)
    parts = parts_of(client)
    with parts.store.engine.begin() as conn:  # as if it crashed before booking any of it
        conn.execute(update(TableRow).where(TableRow.id == table_id).values(deals_booked=0, game_booked=False))
    parts.registry.forget(table_id)  # read back from the log: the listeners are told again
    assert call(client, parts.tables.table, table_id) is not None
    after = profile(client, anne)
    assert after == before and len(history_rows(client, anne)) == 1


def test_giving_up_a_solo_game_rates_it_as_lost(client: TestClient) -> None:
    anne = account(client, "Anne")
    r = post_form(client, "/solo", {"profile": "classic", "target": "1000", "level": "confirmed"})
    table_id = r.headers["location"].removeprefix("/table/")
    r = post_form(client, f"/partie/{table_id}/abandonner", {}, "/compte")
    assert r.status_code == 303
    got = profile(client, anne)
    expected = hand_update([[NEW_PLAYER, LEVELS.confirmed], [LEVELS.confirmed, LEVELS.confirmed]], winner=1)[0][0]
    assert close(got.rating, expected) and got.rating.mu < NEW_PLAYER.mu
    assert (got.games_played, got.games_won) == (1, 0)
    # Given up once: a second try is refused, and running the hook again changes nothing.
    assert post_form(client, f"/partie/{table_id}/abandonner", {}, "/compte").status_code == 404
    live = call(client, parts_of(client).tables.table, table_id)
    call(client, stats_of(client).abandoned, live, anne)
    assert profile(client, anne) == got


def test_a_person_who_leaves_loses_alone_and_a_stand_in_who_came_back_is_not_leaving(client: TestClient) -> None:
    anne, bruno, chloe = account(client, "Anne"), account(client, "Bruno"), account(client, "Chloe")
    # Anne and Chloe (seats 0 and 2) against Bruno and a computer.
    table_id = new_table(client, (person(anne), person(bruno), person(chloe), BOT))
    parts = parts_of(client)
    call(client, friends_of(client).leave, table_id, chloe)  # a computer plays her seat for good
    call(client, parts.tables.change_seat, table_id, 1, Seat("human", player=bruno, stand_in="expert"))  # away
    call(client, parts.tables.change_seat, table_id, 1, Seat("human", player=bruno))  # and back
    live = play_to_end(client, table_id, seed=3)
    winner = live.game.winner
    assert winner is not None
    assert {p for plan in game_plans(live) for p in plan.left} == {chloe}
    a, b, c = profile(client, anne), profile(client, bruno), profile(client, chloe)
    assert (a.games_won, b.games_won, c.games_won) == (int(winner == 0), int(winner == 1), 0)
    # By hand: Anne and Bruno on the real result, Chloe's seat the computer's that finished
    # it; Chloe loses alone in her seat.
    expert = LEVELS.expert
    stayed = hand_update([[NEW_PLAYER, expert], [NEW_PLAYER, LEVELS.confirmed]], winner)
    lost = hand_update([[NEW_PLAYER, NEW_PLAYER], [NEW_PLAYER, LEVELS.confirmed]], winner=1)
    assert close(a.rating, stayed[0][0]) and close(b.rating, stayed[1][0]) and close(c.rating, lost[0][1])
    assert len(history_rows(client, chloe)) == 1


def test_the_daily_challenge_is_not_rated(make_client: MakeClient) -> None:
    client = make_client(challenge_level="confirmed")
    anne = account(client, "Anne")
    spec = call(client, daily_of(client).start, anne, False)
    live = play_to_end(client, spec.id, seed=4)
    assert live.game.is_over and len(live.game.deals) == 4
    assert profile(client, anne) == Profile()
    assert history_rows(client, anne) == []


def test_the_adaptive_computer_starts_from_the_players_rating(client: TestClient) -> None:
    anne = account(client, "Anne")
    strong = Rating(LEVELS.expert.mu - 0.2, 2.0)
    store = client.app.state.store  # type: ignore[attr-defined]
    with store.session() as s, s.begin():
        s.add(PlayerStatsRow(player_id=anne, mu=strong.mu, sigma=strong.sigma))
    r = post_form(client, "/solo", {"profile": "classic", "target": "1000", "level": "adaptive"})
    table_id = r.headers["location"].removeprefix("/table/")
    parts = parts_of(client)
    live = call(client, parts.tables.table, table_id)
    start = adaptive_start(strong, LEVELS)
    assert 0.5 < start < 1.0 and live is not None and live.adaptive_level == pytest.approx(start)
    parts.registry.forget(table_id)  # read back: the same start
    again = call(client, parts.tables.table, table_id)
    assert again is not None and again.adaptive_level == pytest.approx(start)
    # A guest (no rating) starts at the confirmed level; the knob's rating is its inverse.
    client.cookies.clear()
    r = post_form(client, "/solo", {"profile": "classic", "target": "1000", "level": "adaptive"})
    guest_table = call(client, parts.tables.table, r.headers["location"].removeprefix("/table/"))
    assert guest_table is not None and guest_table.adaptive_level == 0.5
    assert adaptive_start(knob_rating(start), LEVELS) == pytest.approx(start)
    assert knob_rating(0.5) == LEVELS.confirmed and knob_rating(1.0) == LEVELS.expert


def test_the_profile_page(client: TestClient) -> None:
    anne = account(client, "Zoé-Anne")
    r = client.get("/joueur/zoé-anne")  # the folded name
    assert r.status_code == 200 and "Zoé-Anne" in r.text and "1000" in r.text and "<svg" not in r.text.split("<main")[1]
    table_id = new_table(client, (person(anne), BOT, BOT, BOT))
    play_to_end(client, table_id, seed=5)
    got = profile(client, anne)
    r = client.get("/player/ZOÉ-ANNE")
    assert r.status_code == 200 and 'lang="en"' in r.text
    main = r.text.split("<main")[1]
    assert "<svg" in main and "<polyline" in main and f'data-rating="{got.rating.display}"' in main
    assert f'data-stat="games">{got.games_played}<' in main and "provisional" in main
    # The header and the account page link to it.
    assert "/joueur/Zo%C3%A9-Anne" in client.get("/compte").text


def test_the_calendar_links_each_challenge_played(make_client: MakeClient) -> None:
    client = make_client(challenge_level="confirmed")
    anne = account(client, "Anne")
    spec = call(client, daily_of(client).start, anne, False)
    play_to_end(client, spec.id, seed=6)
    day = challenge_day(spec.kind)
    r = client.get("/joueur/Anne")
    assert f'href="/defi/{day}"' in r.text and f"{day} : 4/4 donnes" in r.text


@pytest.mark.parametrize(
    "path",
    [
        "/joueur/Nobody",
        "/joueur/%3Cscript%3Ealert(1)%3C%2Fscript%3E",
        "/player/..%2F..%2Fetc",
        "/joueur/" + "x" * 500,
        "/joueur/a%00b",
        "/joueur/%F0%9F%92%A9",
    ],
)
def test_unknown_and_hostile_names_are_404s(make_client: MakeClient, path: str) -> None:
    client = make_client(raise_server_exceptions=False)
    r = client.get(path)
    assert r.status_code == 404 and "<script>alert" not in r.text and "Traceback" not in r.text


def test_a_deleted_account_has_no_profile(client: TestClient) -> None:
    account(client, "Anne")
    assert client.get("/joueur/Anne").status_code == 200
    r = post_form(client, "/compte/supprimer", {"password": "correct horse"}, "/compte")
    assert r.status_code == 200, r.text
    assert client.get("/joueur/Anne").status_code == 404


def test_ratings_of_reads_many_players_at_once(client: TestClient) -> None:
    store = client.app.state.store  # type: ignore[attr-defined]
    with store.session() as s, s.begin():
        for i in range(1200):
            s.add(PlayerStatsRow(player_id=f"p{i}", mu=20.0 + i / 100, sigma=3.0))
    found = StatsStore(store).ratings_of([f"p{i}" for i in range(0, 1300, 3)])
    assert len(found) == 400 and found["p300"] == Rating(23.0, 3.0)


@settings(max_examples=500, deadline=None)
@given(
    played=st.dictionaries(st.integers(0, 3), st.integers(0, 12), max_size=4),
    away=st.integers(0, 12),
    end=st.none() | st.integers(0, 3),
)
def test_a_person_is_rated_only_on_the_side_they_played_at_least_half_the_deals_for(
    played: dict[int, int], away: int, end: int | None
) -> None:
    deals = sum(played.values()) + away  # ``away``: deals dealt while they held no seat, or stood in for
    seat = rated_seat(played, deals, end)
    team = [sum(n for s, n in played.items() if s & 1 == side) for side in (0, 1)]
    halves = [side for side in (0, 1) if team[side] > 0 and 2 * team[side] >= deals]
    if seat is None:  # no side of theirs: none reaches half, or both just reach it
        assert len(halves) != 1
    else:  # never on a team whose seats they held for fewer than half the deals
        assert halves == [seat & 1] and 2 * team[1 - (seat & 1)] <= deals
        if end is not None and end & 1 == seat & 1:
            assert seat == end  # their side at the end: as seated
        else:
            assert played.get(seat, 0) > 0  # else a seat of that side they played in
    # Nobody moved: the one seat held, when held for at least half the deals (as before).
    if end is not None:
        held = played.get(end, 0)
        assert rated_seat({end: held}, held + away, end) == (end if held > 0 and held >= away else None)


def test_the_rule_by_hand() -> None:
    assert rated_seat({0: 13, 1: 8}, 21, end=1) == 0  # moved to the other team for the last 8 deals
    assert rated_seat({0: 8, 1: 13}, 21, end=1) == 1
    assert rated_seat({0: 2, 2: 2}, 4, end=None) == 0  # moved within the team: rated for it
    assert rated_seat({1: 3, 3: 4}, 8, end=0) == 3  # the most deals in one seat of the side
    assert rated_seat({0: 2, 1: 2}, 4, end=1) is None  # half for each side: none is theirs
    assert rated_seat({2: 1}, 3, end=2) is None  # a late friend, one deal of three
    assert rated_seat({}, 3, end=0) is None and rated_seat({0: 0}, 0, end=0) is None


def test_a_game_rated_locks_its_players_rows_in_one_order(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rating a game locks each person's row in player id order, as a deal's counters do
    (``add_deal``): seat order deadlocked on PostgreSQL against the last deal's counters,
    written at the same moment by the other listener, and the game went unrated."""
    first, second = sorted((account(client, "Alma"), account(client, "Basile")))
    table_id = new_table(client, (person(second), BOT, person(first), BOT))
    locked: list[str] = []
    row = StatsStore._row

    def spied(self: StatsStore, conn: Any, player: str) -> dict[str, Any]:
        locked.append(player)
        return row(self, conn, player)

    monkeypatch.setattr(StatsStore, "_row", spied)
    bot = (None, "confirmed")
    plan = GamePlan(((second, NEW_PLAYER), bot, (first, NEW_PLAYER), bot), winner=0)
    assert stats_of(client).store.rate(table_id, [plan], "classic") is not None
    assert locked == [first, second]
