"""The engine ladder (issue 53, ``docs/bot-api.md``): bots opted in on the bots' page and
connected are paired (not the others), a match is two real tables dealt the same deals
with the sides swapped, a bot that lets its time run out is played for by a computer and
counts faults, the match moves the ratings (an anchor's stays fixed), a faulty bot is
paused and its owner told (the bots' page, a mail queued), the page ranks the engines
with their intervals; on one database shared by two servers, one pairs at a time.

One application for the module (its ladder's loop asleep: the tests run its ticks), with
idle clocks of a tenth of a second and two deals a table."""

from __future__ import annotations

import asyncio
import html
import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from friends_helpers import Person, person
from server_helpers import call, friends_of, parts_of, settings_for
from sqlalchemy import select, update
from starlette.testclient import TestClient

from coinche.server.features.accounts import AccountStore
from coinche.server.features.bots import BotStore
from coinche.server.features.following import FollowingStore
from coinche.server.features.ladder.rows import LadderEngineRow, LadderMatchRow
from coinche.server.features.ladder.runner import Ladder
from coinche.server.features.ladder.store import Match
from coinche.server.features.mail import MailRow
from coinche.server.infra.rows.people import AccountRow
from coinche.server.infra.store import Store, new_id
from coinche.server.services import start_services
from coinche.server.table.kinds import LadderTable
from coinche.server.table.ladder_pairing import Candidate, pair
from coinche.server.table.live_table import LiveTable
from coinche.server.table.ratings import LevelRatings, Rating
from coinche.server.web.app import create_app

LADDER_SETTINGS: dict[str, Any] = {
    "ladder_seconds": 3600.0,  # the tests tick
    "ladder_deals": 2,
    "ladder_deal_pause": 0.0,
    "ladder_fault_limit": 3,
    "ladder_matches_per_bot": 1,
    "idle_warning_seconds": 0.05,
    "idle_move_seconds": 0.1,
    "grace_seconds": 0.2,
}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path) -> Iterator[TestClient]:
    path = tmp_path_factory.mktemp("ladder")
    shutil.copyfile(sqlite_template, path / "x.db")
    with TestClient(create_app(settings_for(path, **LADDER_SETTINGS))) as c:
        yield c


def ladder_of(client: TestClient) -> Ladder:
    found: Ladder = client.app.state.ladder  # type: ignore[attr-defined]
    return found


def store_of(client: TestClient) -> Store:
    found: Store = client.app.state.store  # type: ignore[attr-defined]
    return found


def make_bots(owner: Person, *names: str) -> dict[str, tuple[str, str]]:
    """``owner``'s new bots: each name's (account id, player id)."""
    made = {}
    for name in names:
        r = owner.post("/robots", {"action": "create", "value": name}, "/robots")
        assert r.status_code == 200, r.text
    with store_of(owner.client).session() as s:
        for name in names:
            row = s.execute(select(AccountRow).where(AccountRow.name == f"{name} (robot)")).scalar_one()
            made[name] = (row.id, row.player_id)
    return made


def online(client: TestClient, *players: str) -> None:
    """What a bot's open stream writes (``following.seen``)."""
    for player in players:
        call(client, client.app.state.following.seen, player)  # type: ignore[attr-defined]


def tick(client: TestClient) -> list[Match]:
    return call(client, ladder_of(client).tick)


def table(client: TestClient, table_id: str) -> LiveTable:
    live = call(client, parts_of(client).tables.table, table_id)
    assert live is not None
    return live


def engine(client: TestClient, player: str) -> LadderEngineRow:
    with store_of(client).session() as s:
        row = s.get(LadderEngineRow, player)
        assert row is not None
        s.expunge(row)
        return row


def play(client: TestClient, ids: list[str], acting: str, present: list[str], timeout: float = 60.0) -> None:
    """The tables ``ids`` played to their end: ``acting`` takes the first legal action at
    each of its turns, the others of ``present`` are connected but never act (the idle
    clock)."""
    tables = parts_of(client).tables
    for table_id in ids:
        live = table(client, table_id)
        for player in present:
            call(client, tables.attach, live, player)
    deadline = time.monotonic() + timeout
    done: set[str] = set()
    while len(done) < len(ids):
        assert time.monotonic() < deadline, "the ladder's tables did not end"
        for table_id in ids:
            live = table(client, table_id)
            if live.game.is_over:
                done.add(table_id)
                continue
            seat = live.seat_of(acting)
            if live.person_to_move() == seat and not live.game.awaiting_deal:
                action = live.game.legal_actions()[0]
                call(client, tables.act, table_id, acting, action, f"{table_id}:{live.seq}")
        time.sleep(0.01)


def finished(client: TestClient, match: Match, timeout: float = 10.0) -> LadderMatchRow:
    deadline = time.monotonic() + timeout
    while True:
        with store_of(client).session() as s:
            row = s.get(LadderMatchRow, match.id)
            assert row is not None
            if row.finished_at is not None:
                s.expunge(row)
                return row
        assert time.monotonic() < deadline, "the match was not booked"
        time.sleep(0.02)


def test_a_duplicate_match_between_two_bots_counts_faults_rates_and_pauses(client: TestClient) -> None:
    owner = person(client, "Ada")
    owner.sign_up()
    bots = make_bots(owner, "Alpha", "Beta", "Gamma", "Delta")
    for name in ("Alpha", "Beta", "Gamma"):
        r = owner.post("/robots", {"action": "ladder_in", "value": bots[name][0]}, "/robots")
        assert r.status_code == 200
    a, b, _gamma, d = (bots[n][1] for n in ("Alpha", "Beta", "Gamma", "Delta"))
    # Another person's bot is not Ada's to put on the ladder: refused, nothing changed.
    other = person(client, "Bob")
    other.sign_up()
    r = other.post("/robots", {"action": "ladder_in", "value": bots["Delta"][0]}, "/robots")
    assert r.status_code == 400
    with store_of(client).session() as s:
        s.execute(update(AccountRow).where(AccountRow.name == "Ada").values(email="ada@example.org"))
        s.commit()
    online(client, a, b, d)  # Gamma is opted in but not connected; Delta connected, not opted in

    made = tick(client)
    assert [(m.first, m.second) for m in made] in ([(a, b)], [(b, a)])
    assert tick(client) == []  # each plays one match at a time here
    match = made[0]
    first, second = table(client, match.first_table), table(client, match.second_table)
    assert isinstance(first.spec.kind, LadderTable) and first.spec.dealing_id == second.spec.dealing_id
    assert [s.player for s in first.spec.seats[:2]] == [match.first, match.second]
    assert [s.player for s in second.spec.seats[:2]] == [match.second, match.first]  # the sides swapped
    assert [s.level for s in first.spec.seats[2:]] == ["expert", "expert"]
    deal_1, deal_2 = first.game.current, second.game.current
    assert deal_1 is not None and deal_2 is not None
    assert deal_1.hands == deal_2.hands and deal_1.dealer == deal_2.dealer  # the same deal, seat by seat

    play(client, [match.first_table, match.second_table], acting=a, present=[a, b])
    row = finished(client, match)
    assert row.first_leg is not None and row.second_leg is not None and row.score is not None
    alpha, beta = engine(client, a), engine(client, b)
    assert alpha.matches == beta.matches == 1
    assert alpha.decisions > 0 and alpha.faults == 0 and alpha.paused_at is None
    assert beta.decisions > 0 and beta.faults == beta.decisions and beta.recent == "1" * beta.decisions
    assert beta.paused_at is not None  # over 3 faults: paused
    assert (alpha.mu, alpha.sigma) != (25.0, 25.0 / 3) and alpha.sigma < 25.0 / 3 and beta.sigma < 25.0 / 3
    with store_of(client).session() as s:
        mails = s.execute(select(MailRow.to_address, MailRow.body)).all()
    assert any(to == "ada@example.org" and "Beta (robot)" in body for to, body in mails)

    page = html.unescape(owner.get("/robots").text)
    assert "Beta (robot) est en pause" in page and 'value="ladder_resume"' in page
    ladder = html.unescape(owner.get("/echelle").text)
    assert "Alpha (robot)" in ladder and "Beta (robot)" in ladder and "en pause" in ladder
    assert re.search(r"<td>\d+</td><td>\d+–\d+</td><td>1</td>", ladder)  # a rating, its interval, 1 match
    assert "Computer (Expert)" in owner.get("/ladder").text

    # Beta paused, Gamma away: Alpha plays an anchor, whose rating stays the site's.
    levels_before = LevelRatings.load()
    online(client, a, b)
    made = tick(client)
    assert len(made) == 1 and made[0].first == a and made[0].second is None and made[0].anchor is not None
    call(client, friends_of(client).give_up, made[0].second_table, a)  # the bot leaves one: a fault
    play(client, [made[0].first_table], acting=a, present=[a])
    row = finished(client, made[0])
    assert row.second_leg is not None and row.score is not None
    alpha = engine(client, a)
    assert alpha.matches == 2 and alpha.faults == 1 and alpha.recent.count("1") == 1
    assert LevelRatings.load() == levels_before

    r = owner.post("/robots", {"action": "ladder_resume", "value": bots["Beta"][0]}, "/robots")
    assert r.status_code == 200 and engine(client, b).paused_at is None
    r = owner.post("/robots", {"action": "ladder_out", "value": bots["Alpha"][0]}, "/robots")
    assert r.status_code == 200 and not engine(client, a).opted_in


@pytest.mark.both_databases
def test_two_servers_on_one_database_pair_a_bot_once(tmp_path: Path, database_url: str) -> None:
    """Two servers' ladders tick at the same moment on one database: every bot is in one
    match at most (``ladder_matches_per_bot`` 1), never two. PostgreSQL only: one process
    is all SQLite serves (its lock is the process's)."""
    if not database_url.startswith("postgresql"):
        pytest.skip("several servers share PostgreSQL only")
    settings = settings_for(tmp_path, database_url, **LADDER_SETTINGS)
    store = Store(database_url)
    try:
        owner = AccountStore(store).create("Owner", None, "!", new_id(12))
        players = [BotStore(store).create(owner, f"Bot{i}").player for i in range(5)]
        with store.session() as s, s.begin():
            for player in players:
                s.add(LadderEngineRow(player_id=player, opted_in=True, mu=25.0, sigma=25.0 / 3))
        following = FollowingStore(store)
        for player in players:
            following.seen(player, settings.clock())

        async def both() -> list[Match]:
            one = await start_services(settings, store)
            two = await start_services(settings, Store(database_url))
            try:
                made = await asyncio.gather(one.ladder.tick(), two.ladder.tick())
                return [m for found in made for m in found]
            finally:
                await one.close()
                await two.close()
                two.store.close()

        made = asyncio.run(both())
        seated = [p for m in made for p in (m.first, m.second) if p is not None]
        assert sorted(seated) == sorted(players)  # each once: two matches and one anchor match
        assert sum(m.second is None for m in made) == 1
    finally:
        store.close()


def test_pairing_takes_the_nearest_rating_but_not_the_last_opponent_while_another_waits() -> None:
    levels = LevelRatings.load()

    def bot(player: str, mu: float, last: str | None = None) -> Candidate:
        return Candidate(player, Rating(mu, 2.0), last)

    pairs = pair([bot("a", 30, "b"), bot("b", 29.9, "a"), bot("c", 20), bot("d", 19)], levels)
    assert [(p.first, p.second) for p in pairs] == [("a", "c"), ("b", "d")]
    pairs = pair([bot("a", 30, "b"), bot("b", 29.9, "a")], levels)  # nobody else: again
    assert [(p.first, p.second) for p in pairs] == [("a", "b")]
    (alone,) = pair([bot("a", 21.0)], levels)
    assert alone.second is None and alone.anchor == "beginner"
