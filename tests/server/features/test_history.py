"""The history (issue 18): a player's finished games, newest first, paged by keyset; each
game's deals with their reviews and records; the whole game's record, valid and read back
by the engine and by the upload; only for the players who sat at the table."""

from __future__ import annotations

import html
import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from server_helpers import Human, MakeClient, create_solo, new_guest, post_form, run_async
from sqlalchemy import create_engine, select, text
from starlette.testclient import TestClient

from coinche.cli import main
from coinche.engine.dealing import check_record
from coinche.engine.game import Game
from coinche.engine.record import decode_record, parse_record, replay
from coinche.engine.rules import RuleSet
from coinche.server.compute.bot_pool import BotPool
from coinche.server.features.history import CURSOR, History, HistoryStore, parse_cursor
from coinche.server.features.review import deal_result
from coinche.server.infra.config import Settings
from coinche.server.infra.db import MIGRATIONS
from coinche.server.infra.rows.people import AccountRow, PlayerRow
from coinche.server.infra.rows.tables import FinishedDealRow, TablePlayerRow, TableRow
from coinche.server.infra.store import Store
from coinche.server.live.parts import table_parts

PASSWORD = "correct horse"
GAME_LINK = re.compile(r'href="(/historique/partie/[A-Za-z0-9_-]+)"')
ROW = re.compile(r"<tr>\s*<td><a href=\"/histor[^\"]*/([A-Za-z0-9_-]+)\">", re.S)
OLDER = re.compile(r'rel="next" href="([^"]+)"')


def store_of(client: TestClient) -> Any:
    return client.app.state.store  # type: ignore[attr-defined]


def sign_up(client: TestClient, name: str) -> None:
    form = {"name": name, "password": PASSWORD, "confirm": PASSWORD}
    r = post_form(client, "/inscription", form, page="/inscription")
    assert r.status_code == 303, r.text


def play_and_give_up(client: TestClient, deals: int = 1) -> str:
    """A solo table whose first ``deals`` deals are played to their end, then given up; its id."""
    table_id = create_solo(client, "classic", 3000, "beginner")
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        state = Human(ws, max_deals=deals).play_game()
    assert state["awaiting_next_deal"] or state["over"], state
    r = post_form(client, f"/partie/{table_id}/abandonner", {}, page="/compte")
    assert r.status_code == 303, r.text
    return table_id


@pytest.fixture
def client(make_client: MakeClient) -> TestClient:
    c = make_client(free_deals=100)
    c.cookies.set("lang", "fr")
    return c


def test_a_played_game_is_listed_and_its_deal_reviewed_and_downloaded(client: TestClient) -> None:
    sign_up(client, "Zoé")
    table_id = play_and_give_up(client)
    with store_of(client).session() as s:
        rows = list(s.scalars(select(FinishedDealRow).where(FinishedDealRow.table_id == table_id)))
    assert [r.deal for r in rows] == [1]
    assert len(rows[0].score) == 2

    page = client.get("/historique")
    assert page.status_code == 200
    assert f"/historique/partie/{table_id}" in page.text
    assert "Abandonnée" in page.text
    assert "Ordinateur" in page.text  # partner and opponents: computers, by their level
    english = client.get("/history")
    assert english.status_code == 200 and f"/history/game/{table_id}" in english.text

    game = client.get(f"/historique/partie/{table_id}")
    assert game.status_code == 200, game.text
    assert f'href="/table/{table_id}/donne/1"' in game.text
    assert f'href="/table/{table_id}/donne/1/record.json"' in game.text
    assert f'href="/table/{table_id}/record.json"' in game.text
    assert client.get(f"/history/game/{table_id}").status_code == 200
    assert client.get(f"/table/{table_id}/donne/1").status_code == 200  # the existing review

    record = client.get(f"/table/{table_id}/record.json")
    assert record.status_code == 200
    assert "attachment" in record.headers["content-disposition"]
    data = record.json()
    assert "seed" not in data  # it would deal the deals still to come
    assert len(data["deals"]) == 1
    replayed = replay(parse_record(decode_record(record.content)))
    assert replayed.deals[0].is_over
    assert list(replayed.deals[0].result().score) == rows[0].score  # type: ignore[union-attr]

    # Uploaded again, it is replayed and reviewed as any record.
    token = re.search(r'name="csrf" value="([^"]+)"', client.get("/revoir").text)
    assert token is not None
    up = client.post("/revoir", data={"csrf": token[1], "record": record.text}, follow_redirects=False)
    assert up.status_code == 303, up.text
    where = up.headers["location"]
    assert where.endswith("/donne/1")
    assert client.get(where).status_code == 200


def test_a_stranger_and_another_guest_get_404(client: TestClient, make_client: MakeClient) -> None:
    table_id = play_and_give_up(client)
    for path in (f"/historique/partie/{table_id}", f"/history/game/{table_id}", f"/table/{table_id}/record.json"):
        assert client.get(path).status_code == 200, path
    new_guest(client)  # another cookie
    for path in (f"/historique/partie/{table_id}", f"/history/game/{table_id}", f"/table/{table_id}/record.json"):
        assert client.get(path).status_code == 404, path
    assert table_id not in client.get("/historique").text
    client.cookies.clear()  # no cookie at all
    assert client.get(f"/table/{table_id}/record.json").status_code == 404
    assert client.get("/historique").status_code == 200


def _add_games(client: TestClient, me: str, count: int, start: datetime) -> list[str]:
    """``count`` finished games of ``me`` (seat 0), three a minute from ``start`` (three
    finished at the same moment: the table id orders them); their ids."""
    ids = []
    with store_of(client).session() as s, s.begin():
        for i in range(count):
            table_id = f"g{i:05d}"
            s.add(
                TableRow(
                    id=table_id,
                    created_at=start + timedelta(minutes=i),
                    profile="classic",
                    options={"target": 1000},
                    seed=i,
                    first_dealer=0,
                    seats=[{"kind": "human", "player": me}, *([{"kind": "bot", "level": "expert"}] * 3)],
                    level="expert",
                    finished_at=start + timedelta(minutes=i // 3, seconds=30),
                    result={"totals": [1010, 400 + i], "winner": 0} if i % 2 else {"abandoned": True},
                )
            )
            s.flush()
            s.add(
                TablePlayerRow(
                    table_id=table_id, player_id=me, seat=0, finished_at=start + timedelta(minutes=i // 3, seconds=30)
                )
            )
            ids.append(table_id)
    return ids


def test_the_list_is_paged_by_keyset_newest_first(client: TestClient) -> None:
    me, _cookie = new_guest(client)
    ids = _add_games(client, me, 123, datetime(2026, 1, 1, tzinfo=UTC))
    seen: list[str] = []
    path = "/historique"
    pages = 0
    while path:
        r = client.get(path)
        assert r.status_code == 200
        found = ROW.findall(r.text)
        assert len(found) <= 50
        seen += found
        pages += 1
        older = OLDER.search(r.text)
        path = html.unescape(older[1]) if older else ""
        assert "OFFSET" not in path.upper()
    assert seen == list(reversed(ids))
    assert pages == 3
    r = client.get("/historique")
    assert "Gagnée · 1010 à 521" in r.text  # the newest game, g00122... is abandoned; g00121 won
    assert "Abandonnée" in r.text


def test_names_of_partners_and_opponents(client: TestClient, make_client: MakeClient) -> None:
    sign_up(client, "Zoé")
    with store_of(client).session() as s:
        me = s.scalar(select(AccountRow.player_id))
    assert me is not None
    start = datetime(2026, 2, 1, tzinfo=UTC)
    with store_of(client).session() as s, s.begin():
        s.add(PlayerRow(id="gone", deleted_at=start))
        s.add(
            TableRow(
                id="named",
                profile="classic",
                options={"target": 1000},
                seed=1,
                first_dealer=0,
                seats=[
                    {"kind": "human", "player": me},
                    {"kind": "human", "player": "friend", "name": "<Paul>"},
                    {"kind": "human", "player": "gone"},
                    {"kind": "bot", "level": "beginner"},
                ],
                level="beginner",
                code="ABCDEFGH",
                finished_at=start,
                result={"totals": [500, 1002], "winner": 1},
            )
        )
        s.flush()
        for player, seat in ((me, 0), ("friend", 1), ("gone", 2)):
            s.add(TablePlayerRow(table_id="named", player_id=player, seat=seat, finished_at=start))
    text = client.get("/historique").text
    assert "&lt;Paul&gt;" in text and "<Paul>" not in text  # escaped
    assert "Invité (&lt;Paul&gt;)" in text
    assert "compte supprimé" in text
    assert "Ordinateur Débutant" in text
    assert "Perdue · 500 à 1002" in text
    english = client.get("/history").text
    assert "Guest (&lt;Paul&gt;)" in english


@pytest.mark.parametrize(
    "cursor",
    [
        "x",
        "-1.abc",
        "99999999999999999.abc",
        "1.",
        "1.a/b",
        "1." + "a" * 17,
        "1.abc'--",
        "١٢٣.abc",
    ],
)
def test_a_bad_cursor_is_a_clear_400(make_client: MakeClient, cursor: str) -> None:
    client = make_client(raise_server_exceptions=False)
    r = client.get("/historique", params={"avant": cursor})
    assert r.status_code == 400, (cursor, r.status_code)
    assert "Traceback" not in r.text


def test_bad_game_ids_are_404(make_client: MakeClient) -> None:
    client = make_client(raise_server_exceptions=False)
    new_guest(client)
    for table_id in ("x" * 17, "a%27b", "%2E%2E", "%00", "nothere", "a" * 300):
        for path in (f"/historique/partie/{table_id}", f"/table/{table_id}/record.json"):
            r = client.get(path)
            assert r.status_code == 404, (path, r.status_code)
            assert "Traceback" not in r.text


def test_cursors_round_trip() -> None:
    moment = datetime(2026, 3, 4, 5, 6, 7, 890123, tzinfo=UTC)
    text = f"{round(moment.timestamp() * 1_000_000)}.abc_-9"
    assert CURSOR.fullmatch(text)
    assert parse_cursor(text) == (moment, "abc_-9")
    assert parse_cursor("99999999999999999.a") is None


def test_the_account_page_and_the_header_link_to_the_history(client: TestClient) -> None:
    text = client.get("/compte").text
    assert 'href="/historique"' in text
    assert 'href="/history"' in client.get("/account").text


def test_a_deal_hook_is_idempotent(client: TestClient) -> None:
    table_id = play_and_give_up(client)
    parts = client.app.state.parts  # type: ignore[attr-defined]
    history = client.app.state.history  # type: ignore[attr-defined]
    live = parts.registry.get(table_id)
    assert live is not None
    deal = live.game.deals[0]
    for _ in range(2):
        history.store.record_deal(table_id, 1, deal.dealer, deal_result(live, 1))
    assert len(history.store.deals(table_id)) == 1
    assert json.dumps(history.store.deals(table_id)[0].score)


def test_games_finished_before_the_migration_are_listed_and_their_deals_filled_in(tmp_path: Path) -> None:
    """0009 copies ``finished_at`` to ``table_players``; the deals of an old table are
    written by the hook when the table is next read."""
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = create_engine(url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "0008")
    rules = RuleSet.profile("classic", target=100)
    game = Game(rules, seed=7, first_dealer=0, auto_deal=True)
    while not game.deals or not game.deals[0].is_over:
        game.apply(game.legal_actions()[0])
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO tables (id, created_at, profile, options, seed, first_dealer, seats, level, finished_at,"
                " result, late_joins) VALUES ('old1', '2026-01-01', 'classic', :options, 7, 0, :seats, 'expert',"
                " '2026-01-02 10:00:00.000000', :result, 0)"
            ),
            {
                "options": '{"target": 100}',
                "seats": '[{"kind": "human", "player": "p1"}, {"kind": "bot", "level": "expert"},'
                ' {"kind": "bot", "level": "expert"}, {"kind": "bot", "level": "expert"}]',
                "result": '{"abandoned": true}',
            },
        )
        conn.execute(text("INSERT INTO table_players (table_id, player_id, seat) VALUES ('old1', 'p1', 0)"))
        for seq, action in enumerate(game.log):
            conn.execute(
                text(
                    "INSERT INTO actions (table_id, seq, seat, action, created_at) VALUES ('old1', :s, 0, :a, '2026')"
                ),
                {"s": seq, "a": action},
            )
    engine.dispose()

    store = Store(url)
    try:
        history = HistoryStore(store)
        (listed,) = history.games("p1")
        assert listed.table_id == "old1" and listed.finished_at.year == 2026
        assert history.deals("old1") == []

        async def read_it() -> None:
            parts = table_parts(store, BotPool(1), Settings(database_url=url))
            History(HistoryStore(store), parts.db, parts.registry)
            try:
                assert await parts.tables.table("old1") is not None
            finally:
                await parts.close()

        run_async(read_it)
        (deal,) = history.deals("old1")
        assert deal.deal == 1 and deal.dealer == game.deals[0].dealer
        assert deal.score == tuple(game.deals[0].result().score)  # type: ignore[union-attr]
    finally:
        store.close()


def test_the_whole_game_record_carries_each_deals_seed_and_passes_the_checks(
    client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sign_up(client, "Zoé")
    table_id = play_and_give_up(client, deals=2)
    record = client.get(f"/table/{table_id}/record.json")
    assert record.status_code == 200
    data = record.json()
    assert [d["dealing"]["number"] for d in data["deals"]] == [1, 2]
    checks = check_record(decode_record(record.content))
    assert [(c.number, c.ok, c.commitment_ok, c.hands_ok) for c in checks] == [
        (1, True, True, True),
        (2, True, True, True),
    ]

    path = tmp_path / "game.json"
    path.write_bytes(record.content)
    assert main(["verify", "--strict", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines() == [f"{path}: deal {n}: hands and commitment check" for n in (1, 2)]

    token = re.search(r'name="csrf" value="([^"]+)"', client.get("/verifier").text)
    assert token is not None
    page = client.post("/verifier", data={"csrf": token[1], "record": record.text})
    text = html.unescape(page.text)
    assert page.status_code == 200 and "Toutes les donnes vérifiables sont conformes" in text
    assert "Donne 1" in text and "Donne 2" in text and "pas vérifiable" not in text


def test_a_game_has_one_time_the_account_page_and_the_history_agree_on(client: TestClient) -> None:
    """Started at 23:52, finished at 23:55: both pages show 23:55, under a heading that
    says it is when the game finished (the account page's games in progress: when they
    started)."""
    sign_up(client, "Zoé")
    me = client.get("/compte")
    assert me.status_code == 200
    with store_of(client).session() as s:
        player = s.scalars(select(AccountRow.player_id).where(AccountRow.name == "Zoé")).one()
    start = datetime(2026, 3, 1, 23, 52, tzinfo=UTC)
    with store_of(client).session() as s, s.begin():
        s.add(
            TableRow(
                id="g-late",
                created_at=start,
                profile="classic",
                options={"target": 1000},
                seed=1,
                first_dealer=0,
                seats=[{"kind": "human", "player": player}, *([{"kind": "bot", "level": "expert"}] * 3)],
                level="expert",
                finished_at=start + timedelta(minutes=3),
                result={"totals": [1010, 400], "winner": 0},
            )
        )
        s.flush()
        s.add(TablePlayerRow(table_id="g-late", player_id=player, seat=0, finished_at=start + timedelta(minutes=3)))
    for path in ("/compte", "/historique"):
        page = client.get(path).text
        assert "2026-03-01 23:55" in page and "23:52" not in page, path
        assert "Terminée le" in page, path
