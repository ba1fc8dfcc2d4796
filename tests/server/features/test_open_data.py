"""The open games database (issue 53): ``coinche export`` writes a month's finished rated
games and only those, each line a record ``coinche replay`` accepts and nothing that names the game on the site,
players by a stable pseudonym unless they chose (on the account page's form) to be named;
the site lists the files and serves them, and nothing else of its folder."""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import hashlib
import io
import json
import random
import shutil
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from server_helpers import another_visitor, call, parts_of, post_form, settings_for
from sqlalchemy import select, update
from starlette.testclient import TestClient

from coinche.cli import main
from coinche.cli.records import cmd_replay
from coinche.engine.rules import RuleSet
from coinche.server.features.open_data import file_name, game_id, open_data_key, pseudonym
from coinche.server.infra.rows.people import AccountRow
from coinche.server.infra.rows.ratings import RatedGameRow
from coinche.server.infra.rows.tables import TableRow
from coinche.server.infra.store import Store
from coinche.server.live.parts import TableParts
from coinche.server.table.days import day_of, utc_now
from coinche.server.table.kinds import DailyChallengeTable, QuickPlayTable
from coinche.server.table.live_table import LiveTable
from coinche.server.table.names import bot_name
from coinche.server.table.spec import Seat, Step, TableSpec
from coinche.server.web.app import create_app

PASSWORD = "correct horse"
NOW = datetime.now(UTC)
MONTH_START = (NOW.replace(day=1) - timedelta(days=1)).replace(day=1, hour=0, minute=0, second=0, microsecond=0)
MONTH = MONTH_START.strftime("%Y-%m")
"""The month before this one: over, so it may be exported."""
IN_MONTH = MONTH_START + timedelta(days=14)
BEFORE = MONTH_START - timedelta(days=10)
"""A moment of the month before it."""


@dataclass
class Person:
    client: TestClient
    name: str
    player: str


@dataclass
class Site:
    client: TestClient
    url: str
    folder: Path
    people: dict[str, Person]
    rated: list[str]
    """The month's two finished rated games, in the file's order."""
    computer_game: str
    other_month: str
    unrated: str
    going: str


async def play(parts: TableParts, table_id: str, players: list[str | None], moves: int | None = None) -> LiveTable:
    """The people of ``players`` (by seat; None: a computer's seat, which plays itself)
    play legal moves drawn from a seeded generator, to the game's end or ``moves`` moves."""
    rng = random.Random(7)
    done = 0
    deadline = time.monotonic() + 30
    parts.registry.watchers[table_id] += 1  # its computers play while it is watched
    while time.monotonic() < deadline:
        live = await parts.tables.table(table_id)
        assert live is not None
        if live.game.is_over or (moves is not None and done >= moves):
            parts.registry.watchers[table_id] -= 1
            return live
        if live.game.awaiting_deal:
            await parts.tables.next_deal(table_id, players[0] or "", f"deal-{done}-{len(live.game.deals)}")
            continue
        player = players[live.game.to_move]
        if player is None:
            parts.computers.schedule(live)
            await asyncio.sleep(0.005)
            continue
        await parts.tables.act(table_id, player, rng.choice(live.game.legal_actions()), f"move-{done}")
        done += 1
    raise AssertionError("the game did not end in time")


def sign_up(client: TestClient, name: str) -> Person:
    browser = another_visitor(client)
    r = post_form(
        browser, "/inscription", {"name": name, "password": PASSWORD, "confirm": PASSWORD}, page="/inscription"
    )
    assert r.status_code == 303, r.text
    with client.app.state.store.session() as s:  # type: ignore[attr-defined]
        player = s.scalar(select(AccountRow.player_id).where(AccountRow.name == name))
    assert player is not None
    return Person(browser, name, player)


def table_of(client: TestClient, seats: list[Seat], kind: Any) -> str:
    spec = call(
        client, parts_of(client).tables.create_table, RuleSet.profile("classic", target=300), seats, "beginner", kind
    )
    return str(spec.id)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path) -> Iterator[Site]:
    """One site for the module: four accounts, two rated games of last month (one with a
    computer), a rated game of the month before, an unrated one (the daily challenge) and
    one in progress."""
    tmp = tmp_path_factory.mktemp("open-data")
    shutil.copyfile(sqlite_template, tmp / "x.db")
    url = f"sqlite:///{tmp}/x.db"
    folder = tmp / "files"
    folder.mkdir()
    app = create_app(settings_for(tmp, url, open_data_dir=folder, free_deals=100))
    with TestClient(app) as client:
        people = {name: sign_up(client, name) for name in ("Zoé", "Bastien", "Capucine", "Dorian")}
        z, b, c, d = (people[n].player for n in ("Zoé", "Bastien", "Capucine", "Dorian"))
        r = post_form(people["Bastien"].client, "/robots", {"action": "create", "value": "Zebulon"}, page="/robots")
        assert r.status_code == 200 and "Zebulon" in r.text
        with client.app.state.store.session() as s:  # type: ignore[attr-defined]
            bot = s.scalar(select(AccountRow.player_id).where(AccountRow.bot_owner_id.is_not(None)))
        assert bot is not None
        parts = parts_of(client)
        human = [Seat("human", player=p) for p in (z, b, c, d)]
        computer_game = table_of(
            client, [human[0], human[1], Seat("bot", level="beginner"), human[3]], QuickPlayTable()
        )
        four = table_of(client, [*human[:3], Seat("human", player=bot)], QuickPlayTable())  # a bot account too
        other_month = table_of(client, human, QuickPlayTable())
        unrated = table_of(client, human, DailyChallengeTable(day_of(utc_now())))
        going = table_of(client, human, QuickPlayTable())
        for table_id, players in (
            (computer_game, [z, b, None, d]),
            (four, [z, b, c, bot]),
            (other_month, [z, b, c, d]),
            (unrated, [z, b, c, d]),
        ):
            assert call(client, play, parts, table_id, players).game.is_over
        call(client, play, parts, going, [z, b, c, d], 5)
        store: Store = client.app.state.store  # type: ignore[attr-defined]
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:  # the ratings are written by the games' listeners
            with store.session() as s:
                rated = set(s.scalars(select(RatedGameRow.table_id)))
            if {computer_game, four, other_month} <= rated:
                break
            time.sleep(0.05)
        assert {computer_game, four, other_month} <= rated and unrated not in rated
        ends = {computer_game: IN_MONTH + timedelta(hours=2), four: IN_MONTH, unrated: IN_MONTH, other_month: BEFORE}
        with store.session() as s, s.begin():
            for table_id, end in ends.items():
                s.execute(update(TableRow).where(TableRow.id == table_id).values(finished_at=end))
        yield Site(client, url, folder, people, [four, computer_game], computer_game, other_month, unrated, going)


def export(site: Site, to: Path, *more: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["export", "--db", site.url, "--month", MONTH, "--to", str(to), *more]) == 0
    path = to / file_name(MONTH) if to.is_dir() else to
    assert f"exported 2 games of {MONTH}" in out.getvalue()
    with gzip.open(path, "rt", encoding="utf-8") as f:
        lines = [json.loads(line) for line in f]
    manifest = json.loads(path.with_name(path.name + ".json").read_text("utf-8"))
    assert manifest["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest() and manifest["games"] == len(lines)
    return lines, manifest


def names(line: dict[str, Any]) -> list[str]:
    return [p.get("name") or p.get("level") for p in line["players"]]


def game_ids(site: Site) -> dict[str, str]:
    """The files' id of each table's game."""
    key = open_data_key(site.client.app.state.store)  # type: ignore[attr-defined]
    return {table: game_id(key, table) for table in site.rated}


def by_table(site: Site, lines: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    tables = {game: table for table, game in game_ids(site).items()}
    return {tables[line["game"]]: line for line in lines}


def test_the_month_holds_its_finished_rated_games_each_a_record_replay_accepts(site: Site, tmp_path: Path) -> None:
    lines, manifest = export(site, site.folder)
    ids = game_ids(site)
    assert [line["game"] for line in lines] == [ids[t] for t in site.rated]  # by end: not the other month's...
    assert manifest["month"] == MONTH and manifest["licence"] == "CC0-1.0" and manifest["format"].endswith("/1")
    assert lines[0]["finished_at"] == IN_MONTH.isoformat().replace("+00:00", "Z")
    files = []
    for n, line in enumerate(lines):
        path = tmp_path / f"game{n}.json"
        path.write_text(json.dumps(line), "utf-8")
        files.append(str(path))
    out, err = io.StringIO(), io.StringIO()
    assert cmd_replay(files, True, out, err) == 0, err.getvalue()
    answers = [json.loads(a) for a in out.getvalue().splitlines()]
    assert all(a["winner"] in (0, 1) for a in answers)
    # Nothing of anyone but the pseudonyms: no account name, no player id; and nothing
    # that names the game on the site, whose pages and API give its players' names.
    text = json.dumps(lines, ensure_ascii=False)
    for person in site.people.values():
        assert person.name not in text and person.player not in text
    assert not any(table in text for table in site.rated)
    assert all("dealing" not in deal and "table" not in line for line in lines for deal in line["deals"])


def test_pseudonyms_are_stable_and_a_person_who_chose_it_is_named(site: Site, tmp_path: Path) -> None:
    zoe, bob = site.people["Zoé"], site.people["Bastien"]
    account = zoe.client.get("/compte")
    assert 'name="named" value="on">' in account.text  # off by default
    first, _ = export(site, tmp_path / "first.jsonl.gz")
    first_games = by_table(site, first)
    with_computer = first_games[site.computer_game]
    assert with_computer["players"][2] == {"kind": "computer", "level": "beginner"}
    seats = names(first_games[site.rated[0]])
    assert first_games[site.rated[0]]["players"][3] == {"kind": "bot", "name": bot_name("Zebulon")}  # as on their board
    assert len(set(seats[:3])) == 3 and all(s.startswith("p-") and len(s) == 14 for s in seats[:3])
    store: Store = site.client.app.state.store  # type: ignore[attr-defined]
    assert seats[1] == pseudonym(open_data_key(store), bob.player)

    r = post_form(zoe.client, "/compte/donnees-ouvertes", {"named": "on"}, page="/compte")
    assert r.status_code == 303 and r.headers["location"] == "/compte?done=open_data"
    assert "checked" in zoe.client.get("/compte?done=open_data").text
    again, _ = export(site, tmp_path / "first.jsonl.gz", "--force")
    seats_again = names(by_table(site, again)[site.rated[0]])
    assert seats_again[0] == "Zoé" and seats_again[1:] == seats[1:]  # the others' pseudonyms the same
    assert by_table(site, again)[site.rated[0]]["players"][0]["named"] is True

    # Her account deleted, her games keep only her pseudonym (the same as before she was named).
    r = post_form(zoe.client, "/compte/supprimer", {"password": PASSWORD}, page="/compte")
    assert r.status_code == 200, r.status_code
    after, _ = export(site, tmp_path / "first.jsonl.gz", "--force")
    assert names(by_table(site, after)[site.rated[0]]) == seats


def test_the_page_lists_the_files_and_serves_them_and_nothing_else(site: Site) -> None:
    export(site, site.folder, "--force")
    name = file_name(MONTH)
    (site.folder / "notes.txt").write_text("private", "utf-8")
    (site.folder / "coinche-games-2001-01.jsonl.gz").symlink_to(Path(site.url.removeprefix("sqlite:///")))
    visitor = another_visitor(site.client)
    for path in ("/open-data", "/donnees-ouvertes"):
        page = visitor.get(path)
        assert page.status_code == 200 and f"{path}/{name}" in page.text and MONTH in page.text
        assert "2001-01" not in page.text and "notes.txt" not in page.text
    got = visitor.get(f"/open-data/{name}")
    assert got.status_code == 200 and got.content == (site.folder / name).read_bytes()
    assert got.headers["content-type"] == "application/gzip"
    assert got.headers["content-disposition"] == f'attachment; filename="{name}"'
    assert visitor.get(f"/donnees-ouvertes/{name}.json").json()["month"] == MONTH
    for bad in (
        "/open-data/notes.txt",
        "/open-data/coinche-games-2001-01.jsonl.gz",  # a link out of the folder
        "/open-data/coinche-games-2026-13.jsonl.gz",
        "/open-data/..%2Fx.db",
        "/open-data/%2E%2E/x.db",
        f"/open-data/{name}%00",
        f"/open-data/{name}/..%2F..%2Fx.db",
    ):
        assert visitor.get(bad).status_code == 404, bad
    assert "Open games database" in visitor.get("/leaderboard").text


@pytest.mark.parametrize("month", ["2026-13", "2026-1", "novembre", "1969-12", "2999-01"])
def test_a_bad_month_is_one_line_and_status_2(month: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", "--month", month, "--to", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("coinche export: error: ") and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.both_databases
def test_a_game_stored_on_either_database_is_exported_from_its_snapshot(database_url: str, tmp_path: Path) -> None:
    """The export's one transaction (SQLite: a deferred one over WAL; PostgreSQL:
    REPEATABLE READ, read only) on a game stored as the site stores it."""
    store = Store(database_url)
    try:
        players = ("pa0000001", "pb0000002", "pc0000003", "pd0000004")
        spec = TableSpec(
            id="stored01",
            rules=RuleSet.profile("classic", target=300),
            seed=7,
            first_dealer=0,
            seats=tuple(Seat("human", player=p) for p in players),  # type: ignore[arg-type]
            level="beginner",
            secret=bytes(range(32)),
        )
        live, steps, rng = LiveTable.build(spec, []), [], random.Random(3)
        while not live.game.is_over:
            game = live.game
            if game.awaiting_deal:
                step = Step(live.seq, "deal", 0)
            else:
                step = Step(live.seq, "action", game.to_move, rng.choice(game.legal_actions()))
            live.apply(step)
            steps.append(step)
        store.create_table(spec)
        store.append_steps([(spec.id, step) for step in steps])
        store.finish_table(spec.id, {"totals": list(live.game.totals), "winner": live.game.winner})
        with store.session() as s, s.begin():
            s.add(RatedGameRow(table_id=spec.id, created_at=IN_MONTH))
            s.execute(update(TableRow).where(TableRow.id == spec.id).values(finished_at=IN_MONTH))
        key = open_data_key(store)
    finally:
        store.close()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["export", "--db", database_url, "--month", MONTH, "--to", str(tmp_path)]) == 0
    with gzip.open(tmp_path / file_name(MONTH), "rt", encoding="utf-8") as f:
        (line,) = [json.loads(text) for text in f]
    assert line["game"] == game_id(key, "stored01") and names(line) == [pseudonym(key, p) for p in players]
    assert len(line["deals"]) == len(live.game.deals)
