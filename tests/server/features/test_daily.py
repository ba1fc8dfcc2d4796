"""The daily challenge (issue 18 item 1, ``features/daily``): the day's commitment exists before
the day and its seed is revealed only after it; two accounts who make the same calls and
play the same cards get the same four deals and the same computer moves; one attempt per
account per day; a guest plays without using free deals and outside the ranking; each
deal's result is stored and ranked by matchpoints."""

from __future__ import annotations

import hashlib
import json
import random
import time
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from server_helpers import Human, call, is_my_turn, live_table, new_guest, parts_of, post_form, request
from sqlalchemy import select
from starlette.testclient import TestClient
from test_workers import running_worker, turns_of, wait_until

from coinche.engine.dealing import DealingInfo, commitment, deal_seed, hands_from_seed, verify
from coinche.engine.game import Game
from coinche.engine.rules import RuleSet
from coinche.server.features.daily.model import DEALS, FIRST_DEALER
from coinche.server.features.daily.model import commitment as day_commitment
from coinche.server.features.daily.runner import DailyChallenge
from coinche.server.features.daily.store import ChallengeStore
from coinche.server.infra.rows.people import AccountRow
from coinche.server.infra.store import Store
from coinche.server.table.days import day_end, day_of, next_day
from coinche.server.table.live_table import TableError
from coinche.server.table.matchpoints import ranking

PASSWORD = "correct horse"
NOW = datetime(2026, 12, 3, 15, 30, tzinfo=UTC)
DAY = "2026-12-03"

# The challenge's computers are the expert on the site; the tests pick the confirmed
# level (``Settings.challenge_level``) to keep the suite short: the determinism checked
# here is the table's, the same whatever the level.
FAST = {"challenge_level": "confirmed"}


class Clock:
    """The server's clock in a test (``Settings.clock``): it shows ``moment`` until the test
    moves it, so a day ends when the test says, not at the real midnight."""

    def __init__(self, moment: datetime = NOW) -> None:
        self.moment = moment

    def __call__(self) -> datetime:
        return self.moment


def daily_of(client: TestClient) -> DailyChallenge:
    daily = client.app.state.daily  # type: ignore[attr-defined]
    assert isinstance(daily, DailyChallenge)
    return daily


def account(client: TestClient, name: str) -> str:
    """Sign up ``name`` in a fresh session of the client; the account's player id."""
    client.cookies.clear()
    r = post_form(client, "/inscription", {"name": name, "password": PASSWORD, "confirm": PASSWORD}, "/inscription")
    assert r.status_code == 303, r.text
    store = client.app.state.store  # type: ignore[attr-defined]
    with store.session() as s:
        player = s.scalar(select(AccountRow.player_id).where(AccountRow.name == name))
    assert isinstance(player, str)
    return player


def start(client: TestClient, player: str, guest: bool = False, moment: datetime = NOW) -> str:
    spec = call(client, daily_of(client).start, player, guest, moment)
    return spec.id


def play(client: TestClient, table_id: str, seed: int = 7) -> Human:
    """Play the whole challenge at ``table_id`` as the client's player (seeded choices)."""
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        human = Human(ws, rng=random.Random(seed))
        last = human.play_game()
    assert last["over"] and last["challenge"] == DAY and last["game"]["deal_number"] == DEALS
    return human


def moves(client: TestClient, table_id: str) -> list[tuple[int, str, int, int | None]]:
    return [(s.seq, s.kind, s.seat, s.action) for s in live_table(client, table_id).steps]


def test_the_day_and_the_commitment() -> None:
    assert day_of(NOW) == DAY
    assert day_of(datetime(2026, 12, 3, 23, 59, 59, tzinfo=UTC)) == DAY
    assert day_of(datetime(2026, 12, 4, 0, 30, tzinfo=timezone(timedelta(hours=2)))) == DAY  # 22:30 UTC
    assert day_end(DAY) == datetime(2026, 12, 4, tzinfo=UTC) and next_day(DAY) == "2026-12-04"
    with pytest.raises(ValueError):
        day_of(datetime(2026, 12, 3))
    seed = bytes(range(32))
    expected = hashlib.sha256(b"coinche-challenge-v1\x002026-12-03\x00" + seed).hexdigest()
    assert day_commitment(DAY, seed) == expected


def test_the_commitment_comes_before_the_day_and_the_seed_after(make_client: Any) -> None:
    client = make_client(clock=Clock(), **FAST)
    daily = daily_of(client)
    yesterday = "2026-12-02"
    call(client, daily.ensure_day, yesterday)  # makes tomorrow's (the 3rd) too
    day = call(client, daily.day, DAY)
    assert day is not None and day.commitment == call(client, daily.commitment_of, DAY)
    assert day_commitment(DAY, day.seed) == day.commitment and day.profile == "online"
    assert call(client, daily.revealed_seed, DAY, NOW) is None
    assert call(client, daily.revealed_seed, DAY, day_end(DAY) - timedelta(microseconds=1)) is None
    assert call(client, daily.revealed_seed, DAY, day_end(DAY)) == day.seed.hex()
    assert call(client, daily.ensure_day, DAY) == day  # idempotent: the same seed

    # A player's challenge: every message of the table is free of the day's seed, and of
    # the seed of every deal not finished when it was sent.
    player, _cookie = new_guest(client)
    table_id = start(client, player, guest=True)
    human = play(client, table_id)
    label = f"defi-{DAY}"
    seeds = [deal_seed(day.seed, label, n).hex() for n in range(1, DEALS + 1)]
    sent = json.dumps(human.messages)
    assert day.seed.hex() not in sent
    for message in human.messages:
        if message["type"] != "state":
            continue
        dealing = message["dealing"]
        n = dealing["number"]
        assert "seed" not in dealing and dealing["commitment"] == commitment(bytes.fromhex(seeds[n - 1]), label, n)
        for later in seeds[n:]:
            assert later not in json.dumps(message)
    for path in (f"/table/{table_id}", f"/table/{table_id}/donne/4/record.json"):
        assert day.seed.hex() not in client.get(path).text

    # Once the day's seed is revealed, each deal's record checks against it.
    for n in range(1, DEALS + 1):
        record = client.get(f"/table/{table_id}/donne/{n}/record.json").json()
        info = DealingInfo.from_json(record["dealing"])
        assert info.table == label and info.number == n
        hands = hands_from_seed(deal_seed(day.seed, label, n), (FIRST_DEALER + n - 1) % 4)
        assert record["dealer"] == (FIRST_DEALER + n - 1) % 4
        assert verify(info, hands, record["dealer"]) == []


@pytest.mark.both_databases
def test_same_actions_same_deals_same_computer_moves_and_one_attempt(make_client: Any, database_url: str) -> None:
    # The site's computers (the expert), and two applications on one database: the second
    # account's computers think in other processes than the first's (on PostgreSQL, in a
    # ``coinche worker``: the first's in its server's own pool).
    # The servers' clocks on the test's day: their delayed ranking refreshes rank that day
    # as it is then (with the real clock, a day past made them final at the first result).
    # The expert's moves, alike in two processes, are checked once, on PostgreSQL, where
    # they are thought in two kinds of process (the server's pool, a worker); on SQLite
    # the confirmed player's: what this database changes is the storing, not the thinking.
    clock = Clock()
    on_postgresql = database_url.startswith("postgresql")
    level = "expert" if on_postgresql else "confirmed"
    client = make_client(challenge_level=level, clock=clock)
    other = make_client(challenge_level=level, clock=clock)
    anne = account(client, "Anne")
    first = start(client, anne)
    assert start(client, anne) == first  # resumable: the same table
    anne_human = play(client, first)
    with pytest.raises(TableError) as refused:
        start(client, anne)
    assert refused.value.code == "challenge_done"
    with pytest.raises(TableError):
        start(other, anne)  # whichever process is asked

    bruno = account(other, "Bruno")
    second = start(other, bruno)
    assert second != first
    if on_postgresql:
        assert not turns_of(database_url, first)  # no worker then: the server's own pool
        with running_worker(database_url, "challenge-worker", clock=clock):
            bruno_human = play(other, second)
            # the worker marks a turn done after its move is stored and sent (stopped first,
            # it would give the last one back)
            wait_until(lambda: all(done for _, _, done in turns_of(database_url, second)), what="every turn done")
        turns = turns_of(database_url, second)
        assert turns and all(by == "challenge-worker" and done for _, by, done in turns), turns
    else:
        bruno_human = play(other, second)
    a, b = live_table(client, first), live_table(other, second)
    assert a.spec.level == level and all(s.level == level for s in a.seats[1:])
    assert [d.dealt for d in a.game.deals] == [d.dealt for d in b.game.deals] and len(a.game.deals) == DEALS
    assert moves(client, first) == moves(other, second)
    assert [m["game"] for m in anne_human.messages if m["type"] == "state"] == [
        m["game"] for m in bruno_human.messages if m["type"] == "state"
    ]

    # A third account that plays otherwise gets the same deals but makes its own moves;
    # all three are ranked. (It plays through a third application whose computers are the
    # confirmed player: the day's deals do not depend on the level, and the expert's
    # thinking was a third of this test's time.)
    quick = make_client(challenge_level="confirmed", clock=clock)
    carla = account(quick, "Carla")
    third = start(quick, carla)
    play(quick, third, seed=99)
    c = live_table(quick, third)
    assert [d.dealt for d in c.game.deals] == [d.dealt for d in a.game.deals]
    assert moves(quick, third) != moves(client, first)
    daily = daily_of(client)
    results = call(client, daily.results, DAY)
    assert sorted({r.player for r in results}) == sorted([anne, bruno, carla])
    assert all(not r.guest for r in results) and len(results) == 3 * DEALS
    by_player = {p: [r for r in results if r.player == p] for p in (anne, bruno, carla)}
    assert [(r.score, r.contract, r.taker, r.made) for r in by_player[anne]] == [
        (r.score, r.contract, r.taker, r.made) for r in by_player[bruno]
    ]
    for r, deal in zip(by_player[anne], a.game.deals, strict=True):
        res = deal.result()
        assert res is not None and r.score == res.score[0] - res.score[1] and r.deal_score == res.score
    standings = call(client, daily.ranking, DAY, NOW)
    assert sorted(s.player for s in standings) == sorted([anne, bruno, carla])
    ranks = {s.player: s for s in standings}
    assert ranks[anne].percents == ranks[bruno].percents and ranks[anne].rank == ranks[bruno].rank
    assert all(s.finished == DEALS for s in standings)
    final = call(client, daily.ranking, DAY, day_end(DAY))
    assert [(s.player, s.average) for s in final] == [(s.player, s.average) for s in standings]


def test_a_guest_plays_without_free_deals_and_without_a_place_in_the_ranking(make_client: Any) -> None:
    client = make_client(free_deals=1, clock=Clock(), **FAST)
    parts = parts_of(client)
    player, _cookie = new_guest(client)
    table_id = start(client, player, guest=True)
    assert start(client, player, guest=True) == table_id
    play(client, table_id)
    assert call(client, parts.free_deals.left, player, True) == 1
    results = call(client, daily_of(client).results, DAY, player)
    assert len(results) == DEALS and all(r.guest for r in results)
    assert call(client, daily_of(client).ranking, DAY, NOW) == []
    with pytest.raises(TableError):
        start(client, player, guest=True)


def test_the_results_survive_a_restart_and_the_table_resumes(make_client: Any) -> None:
    client = make_client(clock=Clock(), **FAST)
    anne = account(client, "Anne")
    table_id = start(client, anne)
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        human = Human(ws, rng=random.Random(7), max_deals=1)
        state = human.play_game()
    assert state["awaiting_next_deal"] and state["game"]["deal_number"] == 1
    results = call(client, daily_of(client).results, DAY, anne)
    assert [r.deal for r in results] == [1]
    # The process's memory goes (as at a restart): the same table comes back.
    parts = parts_of(client)
    parts.registry.forget(table_id)
    assert start(client, anne) == table_id
    play(client, table_id)
    assert [r.deal for r in call(client, daily_of(client).results, DAY, anne)] == [1, 2, 3, 4]


def test_a_day_is_made_once_with_a_random_seed_and_two_makers_agree(tmp_path: Any) -> None:
    store = Store(f"sqlite:///{tmp_path}/days.db")
    try:
        days = ChallengeStore(store)
        made = days.ensure_day(DAY, "online")
        again = ChallengeStore(store).ensure_day(DAY, "classic")  # another process, later
        assert again == made and made.profile == "online" and len(made.seed) == 32
        other = days.ensure_day(next_day(DAY), "online")
        assert other.seed != made.seed and other.commitment == day_commitment(next_day(DAY), other.seed)
    finally:
        store.close()


def test_a_game_of_four_deals_ends_after_them_whoever_leads() -> None:
    rules = RuleSet.profile("online", target=501)
    game = Game(rules, seed=3, first_dealer=FIRST_DEALER, max_deals=DEALS)
    rng = random.Random(5)
    while not game.is_over:
        legal = game.legal_actions()
        bids = [a for a in legal if a != legal[0]]
        game.apply(rng.choice(bids) if bids and rng.random() < 0.3 else legal[0])
    assert len(game.deals) == DEALS and game.finished and game.winner is None and game.legal_actions() == []
    assert [d.dealer for d in game.deals] == [3, 0, 1, 2]


def test_the_page_shows_the_commitments_starts_the_attempt_and_refuses_a_second(make_client: Any) -> None:
    client = make_client(challenge_level="confirmed")
    account(client, "Anne")
    today = day_of(datetime.now(UTC))
    page = client.get("/defi")
    assert page.status_code == 200
    day = call(client, daily_of(client).day, today)
    tomorrow = call(client, daily_of(client).day, next_day(today))
    assert day is not None and tomorrow is not None
    assert day.commitment in page.text and tomorrow.commitment in page.text
    assert day.seed.hex() not in page.text and tomorrow.seed.hex() not in page.text
    r = post_form(client, "/defi", {}, "/defi")
    assert r.status_code == 303 and r.headers["location"].startswith("/table/")
    table_id = r.headers["location"].removeprefix("/table/")
    assert post_form(client, "/defi", {}, "/defi").headers["location"] == f"/table/{table_id}"
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        last = Human(ws, rng=random.Random(3)).play_game()
    assert last["over"] and last["challenge"] == today
    again = post_form(client, "/defi", {}, "/")  # a form of before, sent again
    assert again.status_code == 409 and "déjà joué" in again.text
    call(client, daily_of(client).settle)  # the stored ranking follows the results after a pause
    shown = client.get("/defi").text
    assert "Anne" in shown and "4/4" in shown and day.seed.hex() not in shown


def test_a_running_server_makes_tomorrow_s_commitment_unasked(make_client: Any) -> None:
    client = make_client()
    today = day_of(datetime.now(UTC))
    daily = daily_of(client)
    for _ in range(100):
        if call(client, daily.day, next_day(today)) is not None:
            break
        time.sleep(0.02)
    tomorrow = call(client, daily.day, next_day(today))
    assert tomorrow is not None and call(client, daily.revealed_seed, next_day(today), datetime.now(UTC)) is None


def refusal(human: Human) -> dict[str, Any]:
    """The next ``error`` message the connection receives."""
    for _ in range(50):
        msg = human.receive()
        if msg["type"] == "error":
            return msg
    raise AssertionError("no refusal")


def test_a_challenge_table_refuses_moves_once_its_day_is_over(make_client: Any) -> None:
    clock = Clock(day_end(DAY) - timedelta(minutes=5))
    client = make_client(clock=clock, **FAST)
    anne = account(client, "Anne")
    table_id = start(client, anne, moment=clock())
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        human = Human(ws, rng=random.Random(7), max_deals=1)
        state = human.play_game()
        assert state["awaiting_next_deal"]
        # Midnight UTC: the day's seed is public, so its hands are known.
        clock.moment = day_end(DAY)
        seq = live_table(client, table_id).seq
        ws.send_json(request("next_deal"))
        refused = refusal(human)
        assert refused["code"] == "challenge_over" and "terminé" in refused["message"]
        assert live_table(client, table_id).seq == seq
    # A minute before midnight the next deal was dealt; a move after midnight is refused.
    clock.moment = day_end(DAY) - timedelta(minutes=1)
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        human = Human(ws, rng=random.Random(7))
        assert human.until_my_move()["awaiting_next_deal"]
        ws.send_json(request("next_deal"))
        state = human.until_my_move()
        assert state["game"]["deal_number"] == 2 and is_my_turn(state)
        clock.moment = day_end(DAY) + timedelta(seconds=1)
        seq = live_table(client, table_id).seq
        ws.send_json(request("action", action=state["game"]["deal"]["legal_actions"][0]))
        assert refusal(human)["code"] == "challenge_over"
    live = live_table(client, table_id)
    assert live.seq == seq and len(live.game.deals) == 2 and not live.game.deals[1].is_over
    parts = parts_of(client)
    for request_id in ("x", "x", "y"):  # asked again, or anew: refused alike
        with pytest.raises(TableError) as e:
            call(client, parts.tables.act, table_id, anne, live.game.legal_actions()[0], request_id)
        assert e.value.code == "challenge_over"
    assert call(client, parts.tables.next_deal, table_id, anne, "z") == seq  # mid-deal: nothing to deal
    assert live_table(client, table_id).seq == seq
    # The final ranking: the deal played counts, the three not played count 0 %.
    final = call(client, daily_of(client).ranking, DAY, clock())
    assert [(s.player, s.finished) for s in final] == [(anne, 1)]
    assert final[0].percents[0] == 50.0 and final[0].average == 50.0 / DEALS


def test_a_guest_who_signs_up_mid_challenge_keeps_the_results_and_is_ranked(make_client: Any) -> None:
    client = make_client(clock=Clock(), **FAST)
    guest, _cookie = new_guest(client)
    table_id = start(client, guest, guest=True)
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        Human(ws, rng=random.Random(7), max_deals=2).play_game()
    assert [r.guest for r in call(client, daily_of(client).results, DAY, guest)] == [True, True]
    # Sign-up through the site's own route, in the guest's browser.
    form = {"name": "Anne", "password": PASSWORD, "confirm": PASSWORD}
    r = post_form(client, "/inscription", form, "/inscription")
    assert r.status_code == 303, r.text
    store = client.app.state.store  # type: ignore[attr-defined]
    with store.session() as s:
        anne = s.scalar(select(AccountRow.player_id).where(AccountRow.name == "Anne"))
    assert isinstance(anne, str)
    daily = daily_of(client)
    assert call(client, daily.db, daily.store.attempt, DAY, anne) == (table_id, False)
    assert start(client, anne) == table_id  # the account resumes the guest's challenge
    play(client, table_id)
    results = call(client, daily.results, DAY, anne)
    assert [r.deal for r in results] == [1, 2, 3, 4] and not any(r.guest for r in results)
    standings = call(client, daily.ranking, DAY, NOW)
    assert [(s.player, s.finished) for s in standings] == [(anne, DEALS)]
    lines, count = call(client, daily.ranking_lines, DAY, NOW, anne)
    assert count == 1 and [line.name for line in lines] == ["Anne"]


@pytest.mark.both_databases
def test_two_refreshes_interleaved_never_store_fewer_results(make_client: Any) -> None:
    """Two refreshes of a day's ranking (the delayed one and a page's), forced to
    interleave: each reads the results, one more result comes, each stores. Whichever
    stores last, the stored ranking never counts fewer results than one already stored,
    and the next refresh brings in the result that came."""
    client = make_client(clock=Clock(), **FAST)
    daily = daily_of(client)
    store = daily.store
    call(client, daily.ensure_day, DAY)
    players = [account(client, name) for name in ("Anne", "Bruno", "Carla")]
    tables = {player: start(client, player) for player in players}

    def add(player: str, deal: int, score: int) -> None:
        """``player``'s result of ``deal`` stored, as a deal's end stores it."""
        result = {"score": score, "contract": "80H", "taker": 0, "made": True, "deal_score": [score, 0]}
        store.record(tables[player], DAY, deal, result, False)

    add(players[0], 1, 100)
    slow = store.ranked_scores(DAY)  # the slower refresh reads one result...
    add(players[1], 1, 120)
    quick = store.ranked_scores(DAY)  # ...the quicker one, two
    assert store.save_standings(DAY, ranking(quick, DEALS, False), len(quick), False)
    assert not store.save_standings(DAY, ranking(slow, DEALS, False), len(slow), False)  # last, but older
    assert {line.player for line in store.standings(DAY, 10)} == set(players[:2])
    assert store.ranking_state(DAY) == (2, False)
    # A third result; the stale refresh stores first this time, then the page's refresh.
    stale = store.ranked_scores(DAY)
    add(players[2], 1, 90)
    assert store.save_standings(DAY, ranking(stale, DEALS, False), len(stale), False)  # same count: allowed
    standings = call(client, daily.ranking, DAY, NOW)
    assert sorted(s.player for s in standings) == sorted(players)
    assert store.ranking_state(DAY) == (3, False)
    # Midnight: the final ranking is stored; then a result of a deal the computers finished
    # just after midnight (Anne's last card was played before) comes, and is not lost.
    final = call(client, daily.ranking, DAY, day_end(DAY))
    assert store.ranking_state(DAY) == (3, True) and [s.average for s in final] == [
        s.percents[0] / DEALS for s in final if s.percents[0] is not None
    ]
    add(players[0], 2, 0)
    assert not store.save_standings(DAY, ranking(stale, DEALS, True), len(stale), True)  # older: refused
    assert not store.save_standings(DAY, ranking(store.ranked_scores(DAY), DEALS, False), 4, False)  # final stays
    final = call(client, daily.ranking, DAY, day_end(DAY) + timedelta(minutes=1))
    assert store.ranking_state(DAY) == (4, True)
    assert {s.player: s.finished for s in final} == {players[0]: 2, players[1]: 1, players[2]: 1}


def test_a_guest_s_challenge_follows_the_account_to_a_new_player_id(make_client: Any) -> None:
    """When sign-up gives the account a player id of its own (the guest's retired), the
    guest's challenge of today moves to it, ranked; a day already over stays as it was,
    and a day the account has an attempt at keeps the account's own."""
    clock = Clock()
    client = make_client(clock=clock, **FAST)
    daily = daily_of(client)
    guest, _cookie = new_guest(client)
    yesterday = start(client, guest, guest=True, moment=NOW - timedelta(days=1))
    today = start(client, guest, guest=True)
    play(client, today)
    account_player = account(client, "Anne")  # another player id than the guest's
    assert account_player != guest
    call(client, daily.signed_up, guest, account_player)
    assert call(client, daily.db, daily.store.attempt, DAY, account_player) == (today, True)
    assert call(client, daily.db, daily.store.attempt, DAY, guest) is None
    assert call(client, daily.db, daily.store.attempt, "2026-12-02", guest) == (yesterday, False)
    results = call(client, daily.results, DAY, account_player)
    assert len(results) == DEALS and not any(r.guest for r in results)
    assert [s.player for s in call(client, daily.ranking, DAY, NOW)] == [account_player]
    call(client, daily.signed_up, guest, account_player)  # again: nothing left to move
    assert len(call(client, daily.results, DAY, account_player)) == DEALS
