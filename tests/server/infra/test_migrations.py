"""The schema's migrations on a database that has data in it: a database of the first
schema (guests, tables whose seats name guests, action logs) comes up to the newest one
with every table where it was, and its guests still find their seats and free deals."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from pathlib import Path

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from server_helpers import run_async
from sqlalchemy import create_engine, select, text

from coinche.engine.game import Game
from coinche.engine.rules import RuleSet
from coinche.server.compute.bot_pool import BotPool
from coinche.server.features.accounts import AccountStore, find_person
from coinche.server.infra.config import Settings
from coinche.server.infra.db import MIGRATIONS, Base
from coinche.server.infra.rows.people import PlayerRow
from coinche.server.infra.store import Store
from coinche.server.live.parts import table_parts
from coinche.server.table.live_table import LiveTable
from coinche.server.table.names import name_skeleton
from coinche.server.table.spec import Seat


def upgrade(url: str, revision: str) -> None:
    engine = create_engine(url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, revision)
    engine.dispose()


SRC = Path(__file__).resolve().parents[3] / "src"


def row_modules() -> list[str]:
    """The modules of the source that declare rows on the one ``Base`` (infra's and the
    features' own)."""
    found = []
    for path in sorted((SRC / "coinche").rglob("*.py")):
        if re.search(r"^class \w+\(Base\):", path.read_text(encoding="utf-8"), re.MULTILINE):
            found.append(".".join(path.relative_to(SRC).with_suffix("").parts))
    return found


def test_every_row_module_is_loaded_by_what_builds_a_server_or_a_worker() -> None:
    """``services.py`` (every server and worker) imports each module of rows, so the
    metadata holds every table before anything reads it."""
    modules = row_modules()
    assert "coinche.server.infra.rows.tables" in modules and "coinche.server.features.tournaments.rows" in modules
    loaded = subprocess.run(  # a fresh interpreter: nothing else imported them first
        [sys.executable, "-c", "import sys, coinche.server.services; print(*sorted(sys.modules))"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout.split()
    assert [m for m in modules if m not in loaded] == []


def test_the_models_are_the_schema_the_migrations_make(tmp_path: Path) -> None:
    """Every row class, wherever it is declared, says what the migrations make: a model
    without its migration (or the other way round) shows here."""
    for module in row_modules():
        importlib.import_module(module)
    url = f"sqlite:///{tmp_path / 'head.db'}"
    upgrade(url, "head")
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            differences = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    finally:
        engine.dispose()
    assert differences == []


def test_a_database_of_the_first_schema_comes_up_with_its_games(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    upgrade(url, "0001")
    rules = RuleSet.profile("classic", target=700)
    game = Game(rules, seed=42, first_dealer=1, auto_deal=True)
    for _ in range(30):  # several deals of first legal actions (void deals: all pass)
        game.apply(game.legal_actions()[0])
    log = game.log
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO tables (id, created_at, profile, options, seed, first_dealer, seats, level) VALUES "
                "('t1', '2026-01-01', 'classic', :options, 42, 1, :seats, 'confirmed')"
            ),
            {
                "options": '{"target": 700}',
                "seats": '[{"kind": "human", "guest": "g1", "level": null}, {"kind": "bot", "guest": null, '
                '"level": "confirmed"}, {"kind": "bot", "level": "confirmed"}, {"kind": "bot", "level": "confirmed"}]',
            },
        )
        for seq, action in enumerate(log):
            conn.execute(
                text("INSERT INTO actions (table_id, seq, seat, action, created_at) VALUES ('t1', :s, 0, :a, '2026')"),
                {"s": seq, "a": action},
            )
        conn.execute(text("INSERT INTO guests (id, created_at, deals_played) VALUES ('g1', '2026-01-01', 2)"))
    engine.dispose()

    store = Store(url)  # migrates to the newest schema
    try:
        loaded = store.load_table("t1")
        assert loaded is not None
        spec, steps = loaded
        assert spec.seats[0] == Seat("human", player="g1") and spec.seat_of("g1") == 0
        assert spec.seats[1] == Seat("bot", level="confirmed")
        assert [s.kind for s in steps] == ["action"] * len(log)
        live = LiveTable.build(spec, steps)
        assert live.game.log == log
        assert store.deals_played("g1") == 2

        async def service_view() -> int:
            parts = table_parts(store, BotPool(1), Settings(database_url=url))
            try:
                again = await parts.tables.table("t1")
                assert again is not None and again.game.log == log
                return await parts.free_deals.left("g1")
            finally:
                parts.pool.close()
                parts.db.close()

        assert run_async(service_view) == 1
    finally:
        store.close()


def test_pickled_jobs_left_by_an_older_version_are_deleted_never_read(tmp_path: Path) -> None:
    """``bot_jobs`` of schema 0014 held pickled calls: the upgrade drops them (their askers
    compute the jobs themselves) and the table keeps a kind, JSON arguments and answer."""
    url = f"sqlite:///{tmp_path / 'jobs.db'}"
    upgrade(url, "0014")
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(
            text("INSERT INTO bot_jobs (id, priority, created_at, call) VALUES ('old', 1, '2026-01-01', :c)"),
            {"c": b"cos\nsystem\n(S'echo ran'\ntR."},
        )
    engine.dispose()
    store = Store(url)
    try:
        with store.engine.begin() as conn:
            assert conn.scalar(text("SELECT count(*) FROM bot_jobs")) == 0
            columns = {row[1] for row in conn.execute(text("PRAGMA table_info(bot_jobs)"))}
        assert {"kind", "arguments", "answer"} <= columns and "call" not in columns
    finally:
        store.close()


def test_the_players_of_accounts_are_retired_guests_after_0015(tmp_path: Path) -> None:
    """The guests who signed up before 0015 are retired by it (copies of their cookies die);
    a guest, and a guest's deals, stay as they were."""
    url = f"sqlite:///{tmp_path / 'old.db'}"
    upgrade(url, "0014")
    engine = create_engine(url)
    with engine.begin() as conn:
        for player, deleted in (("guest", None), ("signed", None), ("gone", "2026-01-02")):
            conn.execute(
                text("INSERT INTO players (id, created_at, deals_played, deleted_at) VALUES (:p, '2026-01-01', 2, :d)"),
                {"p": player, "d": deleted},
            )
        conn.execute(
            text(
                "INSERT INTO accounts (id, name, name_key, password_hash, player_id, created_at) "
                "VALUES ('a1', 'Zoé', 'zoé', 'x', 'signed', '2026-01-01')"
            )
        )
    engine.dispose()
    store = Store(url)
    try:
        with store.session() as s:
            retired = {p.id: p.retired_at is not None for p in s.scalars(select(PlayerRow))}
        assert retired == {"guest": False, "signed": True, "gone": True}
        assert store.deals_played("guest") == 2
    finally:
        store.close()


def test_the_accounts_name_skeletons_are_back_filled(tmp_path: Path) -> None:
    """0018 gives every existing account its TR39 name skeleton: a look-alike of a name
    taken before the migration is refused too."""
    url = f"sqlite:///{tmp_path / 'old.db'}"
    upgrade(url, "0014")
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO players (id, created_at, deals_played) VALUES ('p1', '2026-01-01', 0)"))
        conn.execute(
            text(
                "INSERT INTO accounts (id, name, name_key, password_hash, player_id, created_at)"
                " VALUES ('a1', 'Pacocaxcaa', 'pacocaxcaa', 'x', 'p1', '2026-01-01')"
            )
        )
    engine.dispose()
    store = Store(url)
    try:
        with store.engine.connect() as conn:
            (skeleton,) = conn.execute(text("SELECT name_skeleton FROM accounts WHERE id = 'a1'")).one()
        assert skeleton == name_skeleton("Расосахсаа")
        assert AccountStore(store).lookalike_taken("Расосахсаа")
    finally:
        store.close()


def test_the_accounts_search_names_are_back_filled(tmp_path: Path) -> None:
    """0033 gives every existing account the name it is found by without accents: "zoe"
    finds an account called "Zoé" made before the migration; invitations made before
    offer no seat (the first free one)."""
    url = f"sqlite:///{tmp_path / 'old.db'}"
    upgrade(url, "0031")
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO players (id, created_at, deals_played) VALUES ('p1', '2026-01-01', 0)"))
        conn.execute(
            text(
                "INSERT INTO accounts (id, name, name_key, name_skeleton, password_hash, player_id, created_at)"
                " VALUES ('a1', 'Zoé', 'zoé', :skeleton, 'x', 'p1', '2026-01-01')"
            ),
            {"skeleton": name_skeleton("Zoé")},
        )
        conn.execute(
            text(
                "INSERT INTO invitations (id, from_id, to_id, table_id, created_at)"
                " VALUES ('i1', 'p0', 'p1', 't1', '2026-01-01')"
            )
        )
    engine.dispose()
    store = Store(url)
    try:
        assert find_person(store, "ZOE") == [("p1", "Zoé")]
        with store.engine.connect() as conn:
            assert conn.execute(text("SELECT seat FROM invitations WHERE id = 'i1'")).scalar_one() is None
    finally:
        store.close()
