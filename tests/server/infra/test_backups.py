"""Backups and restores (issue 52): a site backed up while it runs, mid-game, put back in a
fresh place, and a fresh server on it goes on from the step of the backup. SQLite through
``coinche backup`` and ``coinche restore``; PostgreSQL through its own ``pg_dump`` and
``pg_restore`` (the cluster's binaries), as docs/operations.md says. Then what a restore or
a backup refuses: each a one-line message, a non-zero status, and every file as it was.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from postgres_cluster import PostgresCluster
from server_helpers import ServerProcess, is_my_turn, query, ws_act, ws_receive, ws_until_my_move
from server_helpers import request as client_request

from cli_helpers import run
from coinche.server.infra.backups import backup
from coinche.server.infra.db import MIGRATIONS, make_engine
from coinche.server.infra.store import Store


def stored_steps(db: str, table_id: str) -> int:
    ((count,),) = query(db, "SELECT count(*) FROM actions WHERE table_id = :t", t=table_id)
    return int(count)


def into_the_play(ws: Any, rng: random.Random) -> dict[str, Any]:
    """Play until a trick of the card play is done and it is the guest's turn again."""
    state = ws_until_my_move(ws)
    for _ in range(2000):
        deal = state["game"]["deal"]
        if deal["phase"] == "play" and deal["tricks"] and is_my_turn(state):
            return state
        if state["awaiting_next_deal"]:
            ws.send(json.dumps(client_request("next_deal")))
            state = ws_until_my_move(ws)
            continue
        state = ws_until_my_move(ws, ws_act(ws, state, rng))
    raise AssertionError("never reached the card play")


def pg_tool(cluster: PostgresCluster, name: str) -> str:
    """The cluster's own ``pg_dump`` or ``pg_restore`` (of its version: the folder of the
    ``initdb`` it was made with, a link resolved)."""
    return str((cluster.bindir / "initdb").resolve().parent / name)


def libpq(url: str) -> str:
    """A SQLAlchemy PostgreSQL URL as the PostgreSQL tools take it."""
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


@pytest.mark.both_databases
def test_a_backup_taken_mid_game_goes_on_in_a_fresh_place(
    request: pytest.FixtureRequest, tmp_path: Path, database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Backed up while the server runs, at the guest's turn; the guest plays on after the
    backup (the live database moves past it); the server stopped, the backup goes to a
    new place, and a new server there has the table at the backup's step, the guest's
    cookie still good (the key is in the database), and takes its next move."""
    postgres = database_url.startswith("postgresql")
    log = tmp_path / "server.log"
    rng = random.Random(52)
    dump = tmp_path / ("site.dump" if postgres else "site-backup.db")
    with ServerProcess(database_url, log) as server:
        table_id, cookie = server.new_guest_table("classic", 1000, "beginner")
        with server.connect(table_id, cookie) as ws:
            before = into_the_play(ws, rng)
            steps = stored_steps(database_url, table_id)
            assert before["seq"] == steps
            if postgres:
                cluster: PostgresCluster = request.getfixturevalue("postgres")
                pg_dump = [pg_tool(cluster, "pg_dump"), "-Fc", "-d", libpq(database_url), "-f", str(dump)]
                subprocess.run(pg_dump, check=True, capture_output=True, timeout=60)
            else:
                code, out, err = run(capsys, "backup", "--db", database_url, "--to", str(dump))
                assert code == 0, err
                assert out.startswith("backed up ") and " pages, " in out and out.count("\n") == 1, out
            ws_until_my_move(ws, ws_act(ws, before, rng))  # played after the backup
        assert stored_steps(database_url, table_id) > steps
        assert server.stop(signal.SIGTERM) in (0, -signal.SIGTERM)

    if postgres:
        fresh = cluster.new_database(schema=False)
        pg_restore = [pg_tool(cluster, "pg_restore"), "--clean", "--if-exists", "-d", libpq(fresh), str(dump)]
        subprocess.run(pg_restore, check=True, capture_output=True, timeout=60)
    else:
        (tmp_path / "elsewhere").mkdir()
        fresh = f"sqlite:///{tmp_path / 'elsewhere' / 'coinche.db'}"
        code, out, err = run(capsys, "restore", "--db", fresh, "--from", str(dump))
        assert code == 0, err
        assert "restored " in out and "kept as" not in out, out  # nothing was there to keep
    assert stored_steps(fresh, table_id) == steps

    with ServerProcess(fresh, log) as server, server.connect(table_id, cookie) as ws:
        after = ws_receive(ws)
        assert after["type"] == "state" and after["seq"] == steps
        assert after["game"] == before["game"] and after["table"] == before["table"]
        ws_until_my_move(ws, ws_act(ws, after, rng))  # the next move is taken, the computers answer
        assert stored_steps(fresh, table_id) > steps
        assert server.stop(signal.SIGTERM) in (0, -signal.SIGTERM)
    assert "Traceback" not in log.read_text("utf-8")


WRITER = """
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=30)
db.execute("PRAGMA journal_mode=WAL")
db.execute("PRAGMA synchronous=NORMAL")  # as the site's: no sync at each commit
print("writing", flush=True)
end = time.monotonic() + 60
while time.monotonic() < end:
    db.execute("BEGIN IMMEDIATE")
    db.execute("INSERT INTO filler (body) VALUES (randomblob(300))")
    db.execute("UPDATE settings SET value = value + 1 WHERE key = 'rows'")
    db.execute("COMMIT")
"""
"""Another process writing without a pause, each transaction keeping ``rows`` equal to the
filler's count (as a busy site writes: its steps and what they change, together)."""


def test_a_backup_in_small_steps_is_one_snapshot_while_another_process_writes(
    site: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Copied a few pages a step while another process commits all the time: the backup
    takes one pass (SQLite starts a backup again when another connection wrote between two
    of its steps, but for the read snapshot it holds: 20 passes and more here, unbounded
    on a big database under load), the writer still writing, and the copy is one moment
    of the database (its two rows agree)."""
    folder, url = site
    db = sqlite3.connect(folder / "x.db")
    db.execute("CREATE TABLE filler (id INTEGER PRIMARY KEY, body BLOB)")
    db.execute(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000) "
        "INSERT INTO filler (body) SELECT randomblob(300) FROM n"
    )
    db.execute("INSERT INTO settings (key, value) VALUES ('rows', '5000')")
    db.commit()
    db.close()
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(folder / "x.db")], stdout=subprocess.PIPE, text=True)
    try:
        assert writer.stdout is not None and writer.stdout.readline() == "writing\n"
        done = backup(url, folder / "backup.db", pages=4)
        assert writer.poll() is None, "the writer stopped before the backup ended"
        assert done.pages > 100 and done.steps == -(-done.pages // 4), done  # one pass, never started again
    finally:
        writer.kill()
        writer.wait(timeout=10)
    copy = f"sqlite:///{folder / 'backup.db'}"
    ((rows,),) = query(copy, "SELECT count(*) FROM filler")
    assert query(copy, "SELECT value FROM settings WHERE key = 'rows'") == [(str(rows),)]
    assert rows >= 5000


# ----- what is refused -----


def files_of(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` and a digest of its bytes (the folders by name)."""
    found: dict[str, str] = {}
    for path in sorted(folder.rglob("*")):
        key = str(path.relative_to(folder))
        try:
            found[key] = "folder" if path.is_dir() else hashlib.sha256(path.read_bytes()).hexdigest()
        except PermissionError:
            found[key] = "unreadable"
    return found


@pytest.fixture
def site(tmp_path: Path, sqlite_template: Path) -> tuple[Path, str]:
    """The folder of a site's SQLite database (``x.db``) that has something in it, and
    its URL."""
    url = f"sqlite:///{tmp_path / 'x.db'}"
    shutil.copyfile(sqlite_template, tmp_path / "x.db")
    store = Store(url)
    try:
        store.secret_key()
    finally:
        store.close()
    return tmp_path, url


def other_program_database(path: Path) -> None:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
    db.execute("INSERT INTO notes (body) VALUES ('not coinche')")
    db.commit()
    db.close()


def newer_site_backup(path: Path, site_db: Path) -> None:
    shutil.copyfile(site_db, path)
    db = sqlite3.connect(path)
    db.execute("UPDATE alembic_version SET version_num = '9999'")
    db.commit()
    db.close()


def damaged_backup(path: Path, site_db: Path) -> None:
    """A site's backup with one page of the actions' index overwritten."""
    shutil.copyfile(site_db, path)
    db = sqlite3.connect(path)
    page = db.execute("SELECT rootpage FROM sqlite_master WHERE type = 'index' AND tbl_name = 'actions'").fetchone()[0]
    size = db.execute("PRAGMA page_size").fetchone()[0]
    db.close()
    with path.open("r+b") as file:
        file.seek((page - 1) * size)
        file.write(b"\x0d" + os.urandom(size - 1))


BAD_BACKUPS = {
    "missing": lambda path, site_db: None,
    "a folder": lambda path, site_db: path.mkdir(),
    "empty": lambda path, site_db: path.write_bytes(b""),
    "text": lambda path, site_db: path.write_text("SQLite format 2\nnot a database\n"),
    "a header only": lambda path, site_db: path.write_bytes(b"SQLite format 3\x00" + b"\xff" * 200),
    "another program's database": lambda path, site_db: other_program_database(path),
    "a newer site's": newer_site_backup,
    "damaged": damaged_backup,
}
"""How to make each bad backup at ``path`` (``site_db``: the site's database file)."""

MESSAGES = {
    "missing": "does not exist",
    "a folder": "is a folder",
    "empty": "is not an SQLite database",
    "text": "is not an SQLite database",
    "a header only": "is damaged or no database",
    "another program's database": "is not a database of this site",
    "a newer site's": "does not know",
    "damaged": "damaged",
}


@pytest.mark.parametrize("kind", list(BAD_BACKUPS))
def test_a_bad_backup_is_refused_and_nothing_changes(
    site: tuple[Path, str], kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    folder, url = site
    bad = folder / "backups" / "bad.db"
    bad.parent.mkdir()
    BAD_BACKUPS[kind](bad, folder / "x.db")
    before = files_of(folder)
    code, out, err = run(capsys, "restore", "--db", url, "--from", str(bad))
    assert code == 2 and not out, (code, out)
    assert err.startswith("coinche restore: error: ") and err.count("\n") == 1, err
    assert MESSAGES[kind] in err and str(bad) in err, err
    assert files_of(folder) == before


def test_a_backup_that_cannot_be_read_is_refused(site: tuple[Path, str]) -> None:
    """No permission to read the backup (the command run without root's right to read
    every file, when the tests run as root)."""
    folder, url = site
    locked = folder / "locked"
    locked.mkdir()
    shutil.copyfile(folder / "x.db", locked / "backup.db")
    before = files_of(folder)
    locked.chmod(0)
    command = [sys.executable, "-m", "coinche.cli", "restore", "--db", url, "--from", str(locked / "backup.db")]
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("as root, with no setpriv to drop the right to read every file")
        command = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search", *command]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    finally:
        locked.chmod(0o755)
    assert done.returncode == 2 and not done.stdout, done
    assert done.stderr.startswith("coinche restore: error: ") and done.stderr.count("\n") == 1, done.stderr
    assert "Permission denied" in done.stderr, done.stderr
    assert files_of(folder) == before


def test_a_restore_is_refused_while_the_database_is_open(
    site: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    """A process with the database open (a server: a connection of its pool) stops the
    restore before it changes anything."""
    folder, url = site
    code, _, err = run(capsys, "backup", "--db", url, "--to", str(folder / "backup.db"))
    assert code == 0, err
    store = Store(url)
    try:
        store.ping()  # a connection open, in the pool, as a server's are
        before = files_of(folder)
        code, out, err = run(capsys, "restore", "--db", url, "--from", str(folder / "backup.db"))
        assert code == 2 and not out
        assert "is in use: stop the server" in err and err.count("\n") == 1, err
        assert files_of(folder) == before
    finally:
        store.close()
    code, out, err = run(capsys, "restore", "--db", url, "--from", str(folder / "backup.db"))  # stopped: done
    assert code == 0, err
    kept = next(folder.glob("x.db.before-restore-*"))
    assert f"kept as {kept}" in out
    assert query(f"sqlite:///{kept}", "SELECT count(*) FROM settings") == [(1,)]


def test_a_restore_keeps_the_database_it_replaces(site: tuple[Path, str], capsys: pytest.CaptureFixture[str]) -> None:
    """What the database held after the backup is in the file kept aside, its write-ahead
    log folded in (a server that died left its last write there), and the database is the
    backup's again."""
    folder, url = site
    assert run(capsys, "backup", "--db", url, "--to", str(folder / "backup.db"))[0] == 0
    crashed = (  # a server that wrote after the backup and died: its write in the log only
        "import os, sqlite3, sys; db = sqlite3.connect(sys.argv[1]); db.execute('PRAGMA journal_mode=WAL'); "
        "db.execute(\"INSERT INTO settings (key, value) VALUES ('after', 'the backup')\"); db.commit(); os._exit(0)"
    )
    subprocess.run([sys.executable, "-c", crashed, str(folder / "x.db")], check=True, timeout=30)
    assert (folder / "x.db-wal").stat().st_size > 0
    code, _, err = run(capsys, "restore", "--db", url, "--from", str(folder / "backup.db"))
    assert code == 0, err
    assert not (folder / "x.db-wal").exists()
    (kept,) = folder.glob("x.db.before-restore-*")
    assert query(f"sqlite:///{kept}", "SELECT value FROM settings WHERE key = 'after'") == [("the backup",)]
    assert query(url, "SELECT count(*) FROM settings WHERE key = 'after'") == [(0,)]
    assert (kept.stat().st_mode & 0o777) == ((folder / "x.db").stat().st_mode & 0o777)


def test_what_a_backup_refuses(site: tuple[Path, str], capsys: pytest.CaptureFixture[str]) -> None:
    folder, url = site
    other = folder / "other"
    other.mkdir()
    other_program_database(other / "notes.db")
    (folder / "taken.db").write_text("mine")
    cases = [
        (["--db", "postgresql+psycopg://coinche@127.0.0.1/coinche", "--to", str(folder / "b.db")], "pg_dump"),
        (["--db", f"sqlite:///{folder / 'none.db'}", "--to", str(folder / "b.db")], "does not exist"),
        (["--db", f"sqlite:///{other / 'notes.db'}", "--to", str(folder / "b.db")], "not a database of this site"),
        (["--db", f"sqlite:///{folder}", "--to", str(folder / "b.db")], "is a folder"),
        (["--db", "sqlite://", "--to", str(folder / "b.db")], "not an SQLite file"),
        (["--db", url, "--to", str(folder / "taken.db")], "exists already (--force replaces it)"),
        (["--db", url, "--to", str(folder / "x.db"), "--force"], "is the database itself"),
        (["--db", url, "--to", str(folder)], "is a folder"),
        (["--db", url, "--to", str(folder / "no" / "b.db")], "no folder"),
    ]
    before = files_of(folder)
    for argv, message in cases:
        code, out, err = run(capsys, "backup", *argv)
        assert code == 2 and not out, (argv, code, out)
        assert err.startswith("coinche backup: error: ") and err.count("\n") == 1, err
        assert message in err, (argv, err)
        assert files_of(folder) == before, argv
    code, out, err = run(capsys, "restore", "--db", "postgresql+psycopg://coinche@127.0.0.1/coinche", "--from", "x")
    assert code == 2 and "pg_restore" in err and "docs/operations.md" in err, err
    code, _, err = run(capsys, "backup", "--db", url, "--to", str(folder / "taken.db"), "--force")
    assert code == 0, err
    assert query(f"sqlite:///{folder / 'taken.db'}", "SELECT count(*) FROM settings") == [(1,)]
    assert (folder / "taken.db").stat().st_mode & 0o777 == 0o600  # the site's secrets: its owner's only


def test_an_older_backup_is_brought_up_to_date_at_the_next_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A backup of an older version's schema is restored as it is; the schema catches up
    when the store opens it, as ``coinche serve`` does at its start."""
    old = tmp_path / "old.db"
    engine = make_engine(f"sqlite:///{old}")
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "0042")
    engine.dispose()
    url = f"sqlite:///{tmp_path / 'site' / 'coinche.db'}"
    (tmp_path / "site").mkdir()
    code, out, err = run(capsys, "restore", "--db", url, "--from", str(old))
    assert code == 0, err
    assert "schema revision 0042" in out and "brings its schema up to date" in out, out
    Store(url).close()  # what a server's start does first
    assert query(url, "SELECT version_num FROM alembic_version") == [
        (ScriptDirectory(str(MIGRATIONS)).get_current_head(),)
    ]
