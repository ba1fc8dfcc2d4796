"""Backups of the site's SQLite database while it runs, and putting one back
(``coinche backup``, ``coinche restore``). PostgreSQL has its own tools (``pg_dump``,
``pg_restore``: docs/operations.md), which these refuse to stand in for.

A backup is SQLite's online backup (``sqlite3.Connection.backup``) from a read transaction
held for the whole copy. SQLite restarts a backup from its first page whenever another
connection writes between two of its steps, and a busy site writes every few
milliseconds: copied in steps without it, a backup would start again forever. In the
site's journal mode (WAL, ``db.make_engine``), a reader never blocks a writer, so the
held snapshot costs the site nothing but a write-ahead log that grows until the copy ends;
the copy goes ``PAGES`` pages a step, each step without the interpreter's lock (a caller's
other threads go on meanwhile). The copy is written beside the file it becomes and renamed
into place when it is complete: a backup cut short leaves no file that looks like one.

A restore checks the backup on a copy of it next to the database (one SQLite file of
this site: the site's tables, a schema revision this version knows, ``PRAGMA
integrity_check``), refuses while a process has the database open (a server running on
it: each connection of the site's journal mode holds a shared lock as long as it is
open, so the database cannot be taken out of WAL), keeps the database it replaces under a
new name, and renames the checked copy into place. The schema catches up at the next
``coinche serve`` (its migrations, as at every start).
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import sqlite3
import stat
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from alembic.script import ScriptDirectory
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from .backend import Backend
from .db import MIGRATIONS

PAGES = 1024
"""Pages a backup step copies (4 MiB of the site's 4 KiB pages)."""

SQLITE_HEADER = b"SQLite format 3\x00"
SIDE_FILES = ("-wal", "-shm", "-journal")
"""The files SQLite keeps beside a database: its write-ahead log and its index, its
rollback journal."""
SITE_TABLES = ("alembic_version", "tables", "actions", "settings")
"""Tables every database of this site has had since its first migrations."""

POSTGRES = (
    "the database is PostgreSQL: back it up with pg_dump and restore it with pg_restore "
    '(docs/operations.md, "Backups and restores")'
)


class BackupError(Exception):
    """A backup or restore refused (``status`` 2: nothing was changed) or failed on the
    way (1); the message says which file and why, on one line."""

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class BackupDone:
    source: Path
    path: Path
    size: int
    """Bytes of the backup file."""
    pages: int
    steps: int
    """Backup steps taken: one pass over the pages (a restarted copy would take more)."""
    seconds: float
    revision: str


@dataclass(frozen=True)
class RestoreDone:
    path: Path
    """The database, now the backup's copy."""
    kept: Path | None
    """The database it replaced, under its new name (None: there was none)."""
    size: int
    revision: str
    """The backup's schema revision: the next ``coinche serve`` migrates it from there."""
    current: bool
    """Whether that revision is this version's newest (no migration to apply)."""


def sqlite_file(url: str) -> Path:
    """The SQLite file of the database at ``url``; ``BackupError`` for PostgreSQL, another
    kind of database, or one in memory."""
    if Backend.of(url).shared:
        raise BackupError(POSTGRES)
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise BackupError(f"not a database URL: {url!r} (sqlite:///PATH)") from None
    if parsed.get_backend_name() != "sqlite":
        raise BackupError(f"not an SQLite database: {url!r} (sqlite:///PATH)")
    if not parsed.database or parsed.database == ":memory:" or parsed.database.startswith("file:"):
        raise BackupError(f"not an SQLite file: {url!r} (sqlite:///PATH)")
    return Path(parsed.database)


def backup(url: str, to: Path, force: bool = False, pages: int = PAGES) -> BackupDone:
    """Copy the SQLite database at ``url`` into the file ``to`` (an existing one replaced
    only when ``force``), consistent as of the copy's start whatever the site writes
    meanwhile; readable by its owner only (it holds the site's secrets)."""
    source = sqlite_file(url)
    source_info = _check_database_file(source, "the database")
    found = _stat(to, "the backup file")
    if found is not None and stat.S_ISDIR(found.st_mode):
        raise BackupError(f"{to} is a folder: give the backup file's name")
    if found is not None or os.path.islink(to):
        if not force:
            raise BackupError(f"{to} exists already (--force replaces it)")
        if found is not None and os.path.samestat(found, source_info):
            raise BackupError(f"{to} is the database itself")
    _check_folder(to)
    started = time.perf_counter()
    partial = to.parent / f".{to.name}.{os.getpid()}.partial"
    try:
        source_db = _connect(source, "rw", timeout=30)
    except sqlite3.Error as e:
        raise BackupError(f"cannot open the database {source}: {e}") from None
    try:
        source_db.execute("BEGIN")  # the snapshot the whole copy is taken from
        revision = _site_revision(source_db, f"the database {source}")
        total = int(source_db.execute("PRAGMA page_count").fetchone()[0])
        try:
            fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except OSError as e:
            raise BackupError(f"cannot write in {to.parent}: {e.strerror}") from None
        os.close(fd)
        steps = 0

        def step(status: int, remaining: int, total: int) -> None:
            nonlocal steps
            steps += 1

        try:
            copy = sqlite3.connect(partial, isolation_level=None)
            try:
                source_db.backup(copy, pages=max(1, pages), progress=step)
                copy.execute("PRAGMA journal_mode=DELETE")  # one file, no write-ahead log beside it
            finally:
                copy.close()
            os.replace(partial, to)
        except (sqlite3.Error, OSError) as e:
            raise BackupError(f"the backup into {to} failed: {_reason(e)}", status=1) from None
    finally:
        source_db.close()
        _remove(partial, sides=True)
    return BackupDone(source, to, to.stat().st_size, total, steps, time.perf_counter() - started, revision)


def restore(backup_file: Path, url: str, now: datetime | None = None) -> RestoreDone:
    """Put ``backup_file`` (a file ``backup`` made, or any closed SQLite file of this site)
    in place of the SQLite database at ``url``, keeping the database it replaces as
    ``<database>.before-restore-<UTC time>``. Refused, nothing changed, when the backup is
    not one of this site or damaged, or while a process has the database open."""
    target = sqlite_file(url)
    backup_info = _check_database_file(backup_file, "the backup")
    wal = _stat(Path(f"{backup_file}-wal"), "the backup's write-ahead log")
    if wal is not None and wal.st_size > 0:
        raise BackupError(
            f"{backup_file}-wal is beside it: a database in use or not closed cleanly, not a backup "
            "(coinche backup makes one)"
        )
    found = _stat(target, "the database")
    if found is not None and stat.S_ISDIR(found.st_mode):
        raise BackupError(f"the database {target} is a folder")
    if found is not None and os.path.samestat(found, backup_info):
        raise BackupError(f"{backup_file} is the database itself")
    _check_folder(target)
    staged = target.parent / f".{target.name}.{os.getpid()}.restoring"
    try:
        shutil.copyfile(backup_file, staged)
        os.chmod(staged, 0o600)
    except OSError as e:
        _remove(staged, sides=True)
        raise BackupError(f"cannot copy {backup_file} into {target.parent}: {e.strerror}") from None
    try:
        revision = _checked_copy(staged, backup_file)
        kept = _set_aside(target, now or datetime.now(UTC)) if found is not None else None
        if kept is not None:
            _same_owner(staged, kept)
        try:
            os.replace(staged, target)
        except OSError as e:
            if kept is not None:
                os.replace(kept, target)  # as it was
            raise BackupError(f"cannot put the backup in place of {target}: {e.strerror}", status=1) from None
    finally:
        _remove(staged, sides=True)
    return RestoreDone(target, kept, target.stat().st_size, revision, revision == _revisions()[0])


def _stat(path: Path, what: str) -> os.stat_result | None:
    """``os.stat(path)``, None when nothing is there; a folder that may not be looked into
    is a ``BackupError`` (``Path.exists`` would raise ``PermissionError``)."""
    try:
        return os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as e:
        raise BackupError(f"cannot reach {what} {path}: {_reason(e)}") from None


def _check_folder(path: Path) -> None:
    """The folder of ``path`` is there, to write a file in it beside ``path``."""
    folder = _stat(path.parent, "the folder")
    if folder is None or not stat.S_ISDIR(folder.st_mode):
        raise BackupError(f"no folder {path.parent} to write {path.name} in")


def _check_database_file(path: Path, what: str) -> os.stat_result:
    """``path`` is a file that reads as an SQLite database (its first bytes), else a
    ``BackupError`` that says what it is instead; its ``stat``."""
    info = _stat(path, what)
    if info is None:
        raise BackupError(f"{what} {path} does not exist")
    if stat.S_ISDIR(info.st_mode):
        raise BackupError(f"{what} {path} is a folder, not a database file")
    if not stat.S_ISREG(info.st_mode):
        raise BackupError(f"{what} {path} is not a regular file")
    try:
        with path.open("rb") as file:
            head = file.read(len(SQLITE_HEADER))
    except OSError as e:
        raise BackupError(f"cannot read {what} {path}: {e.strerror}") from None
    if head != SQLITE_HEADER:
        raise BackupError(f"{what} {path} is not an SQLite database")
    return info


def _checked_copy(staged: Path, shown: Path) -> str:
    """Check the copy ``staged`` of the backup ``shown``: undamaged and of this site; made
    one file (out of WAL, which the server turns on again at its start). Its revision."""
    try:
        db = _connect(staged, "rw", timeout=0)
    except sqlite3.Error as e:
        raise BackupError(f"cannot open the backup {shown}: {e}") from None
    try:
        try:
            found = [row[0] for row in db.execute("PRAGMA integrity_check(20)")]
        except sqlite3.DatabaseError as e:
            raise BackupError(f"the backup {shown} is damaged or no database ({e})") from None
        if found != ["ok"]:
            raise BackupError(f"the backup {shown} is damaged (integrity_check: {'; '.join(map(str, found))[:300]})")
        revision = _site_revision(db, f"the backup {shown}")
        db.execute("PRAGMA journal_mode=DELETE")
    except sqlite3.Error as e:
        raise BackupError(f"the backup {shown} cannot be read as a database: {e}") from None
    finally:
        db.close()
    return revision


def _set_aside(target: Path, now: datetime) -> Path:
    """Take the database ``target`` out of the way under a new name in its folder, whole
    (its write-ahead log folded into it), unless a process has it open (``BackupError``)."""
    running = BackupError(
        f"the database {target} is in use: stop the server (coinche serve) and any other process on it first"
    )
    try:
        db = _connect(target, "rw", timeout=0)
    except sqlite3.Error as e:
        raise BackupError(f"cannot open the database {target}: {e}") from None
    try:
        # Out of WAL: possible only when no other connection is open (each holds a shared
        # lock); the log is folded into the file, which is then whole by itself.
        mode = db.execute("PRAGMA journal_mode=DELETE").fetchone()[0]
        if str(mode).lower() != "delete":
            raise running
    except sqlite3.OperationalError as e:
        if "locked" in str(e) or "busy" in str(e):
            raise running from None
        raise BackupError(f"cannot read the database {target}: {e}") from None
    except sqlite3.DatabaseError:
        pass  # not a database: set aside all the same, the backup takes its place
    finally:
        db.close()
    wal = _stat(Path(f"{target}-wal"), "the database's write-ahead log")
    if wal is not None and wal.st_size > 0:
        raise running
    stamp = now.astimezone(UTC).strftime("%Y%m%d-%H%M%S")
    kept = target.with_name(f"{target.name}.before-restore-{stamp}")
    n = 1
    while kept.exists():
        n += 1
        kept = target.with_name(f"{target.name}.before-restore-{stamp}-{n}")
    try:
        os.rename(target, kept)
    except OSError as e:
        raise BackupError(f"cannot keep the database {target} aside: {e.strerror}") from None
    for side in SIDE_FILES:
        _remove(Path(f"{target}{side}"))
    return kept


def _site_revision(db: sqlite3.Connection, what: str) -> str:
    """The schema revision of the open database ``db``, one of this site's that this
    version knows, else ``BackupError`` (another program's database, a newer site's)."""
    try:
        names = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError as e:
        raise BackupError(f"{what} cannot be read as a database: {e}") from None
    missing = [name for name in SITE_TABLES if name not in names]
    if missing:
        raise BackupError(f"{what} is not a database of this site (no table {', '.join(missing)})")
    rows = db.execute("SELECT version_num FROM alembic_version").fetchall()
    if len(rows) != 1 or not isinstance(rows[0][0], str):
        raise BackupError(f"{what} has no schema revision")
    revision: str = rows[0][0]
    if revision not in _revisions():
        raise BackupError(
            f"{what} has the schema revision {revision[:40]!r}, which this version of coinche does not know "
            "(a newer version's database?)"
        )
    return revision


@functools.cache
def _revisions() -> tuple[str, ...]:
    """This version's schema revisions, the newest first (read once: Alembic compiles
    every migration's file to list them)."""
    script = ScriptDirectory(str(MIGRATIONS))
    return tuple(s.revision for s in script.walk_revisions())


def _connect(path: Path, mode: str, timeout: float) -> sqlite3.Connection:
    """A connection to the file ``path`` that never creates it (``mode`` ``rw`` or ``ro``),
    in autocommit mode: the transactions are the caller's own."""
    uri = f"{path.resolve().as_uri()}?mode={mode}"
    return sqlite3.connect(uri, uri=True, timeout=timeout, isolation_level=None)


def _same_owner(path: Path, like: Path) -> None:
    """Give ``path`` the owner and mode of ``like``: a restore run as root leaves a file
    the site's own user can still write."""
    info = like.stat()
    with contextlib.suppress(OSError):
        os.chmod(path, stat.S_IMODE(info.st_mode))
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        with contextlib.suppress(OSError):
            os.chown(path, info.st_uid, info.st_gid)


def _remove(path: Path, sides: bool = False) -> None:
    """Delete the file ``path`` if it is there (``sides``: and its SQLite side files)."""
    for name in (str(path), *(f"{path}{side}" for side in SIDE_FILES if sides)):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(name)


def _reason(error: Exception) -> str:
    return error.strerror if isinstance(error, OSError) and error.strerror else str(error)
