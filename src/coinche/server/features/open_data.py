"""The open games database (issue 53): every finished rated game of a month, one record a
line (RECORD.md, gzip-compressed JSON Lines), for anyone to download and study
(``docs/open-data.md``).

``export`` writes a month's file (``coinche export``); the site lists the files an operator
put in ``Settings.open_data_dir`` (``web/open_data_pages.py``). What it holds and why:

- **Which games.** Those rated (a ``rated_games`` guard row: docs/ratings.md's rules,
  ``player_stats.py``) that reached their end (``Game.is_over``: a game given up alone is
  rated but unfinished, and left out), whose table's ``finished_at`` falls in the UTC
  month; in the order ``(finished_at, table id)``. Private friends' tables too: nothing in
  a line says whose table it was (no code, no host, no club).
- **Each line** is ``history.finished_record`` (the record a game's page downloads: the
  finished deals) but its deals' ``dealing`` (made of the table's id), with a game id of
  the files' own (``game_id``: the site's table id would name the players through the
  game's page and the public API), its end and its four seats as
  held at the end (``players``): a computer by its level (``left``: the person who left
  that seat), a bot account (public, on the bots' leaderboard) by its name, a person by a
  pseudonym unless they chose to be named (``accounts.open_data_named``, read at export
  time). Nothing else of anyone: no chat, no address, no name given at a table.
- **Pseudonyms** are ``p-`` and the first 12 hex digits of HMAC-SHA-256(key, player id),
  the key made once and kept in the database (``settings``: ``open_data_key``, apart from
  the cookies' key, so turning that one over leaves the pseudonyms as they were): the same
  person has the same pseudonym every month; without the key nobody can tell whose it is.
  A deleted account has no row any more: its games keep only the pseudonym.
- **Streaming.** The games are read in batches of ``BATCH`` tables (their logs and their
  players' accounts with them) inside one read-only transaction (one snapshot: a game
  ending meanwhile is in or out, never half), each written as it is made, so memory stays
  the same for any month; the file is written beside its name and renamed when whole,
  its manifest (``FILE.json``: month, games, size, SHA-256, when) after it.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import hmac
import json
import os
import re
import secrets
import stat
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from sqlalchemy import Connection, and_, or_, select, update
from sqlalchemy.orm import Session

from ...engine.errors import EngineError
from ..infra.database import Database
from ..infra.db import aware
from ..infra.rows.people import AccountRow
from ..infra.rows.processes import SettingRow
from ..infra.rows.ratings import RatedGameRow
from ..infra.rows.tables import ActionRow, TableRow
from ..infra.store import Store, step_of, table_spec
from ..table.live_table import LiveTable
from ..table.spec import Seat
from .history import finished_record

FORMAT: Final = "coinche-open-games/1"
"""The files' format (a line's keys, the manifest's): a change a reader must know of
makes ``/2``."""
LICENCE: Final = "CC0-1.0"
"""The site's choice for the files: no rights reserved (``docs/open-data.md``)."""
MONTH: Final = re.compile(r"([0-9]{4})-(0[1-9]|1[0-2])")
FILE_NAME: Final = re.compile(r"coinche-games-([0-9]{4}-(?:0[1-9]|1[0-2]))\.jsonl\.gz")
"""A monthly file's name: the only names the site lists and serves (with ``.json``, its
manifest)."""
BATCH: Final = 100
"""Tables read at a time (with their logs: a few hundred steps each)."""
KEY_SETTING: Final = "open_data_key"
PSEUDONYM_DIGITS: Final = 12
GAME_ID_DIGITS: Final = 16
"""Hex digits of a pseudonym: 48 bits, so that two of a million players share one with a
chance under 1 in 500."""


class ExportError(Exception):
    """An export refused (a bad month, a file there already): one line, exit status 2."""


@dataclass(frozen=True)
class Exported:
    path: Path
    month: str
    games: int
    size: int
    sha256: str
    seconds: float
    unread: tuple[str, ...] = ()
    """Tables whose log could not be replayed (left out, named by the command)."""


@dataclass(frozen=True)
class MonthlyFile:
    """A monthly file as the page lists it (``games``, ``sha256``: its manifest's, None
    without one)."""

    name: str
    month: str
    size: int
    games: int | None
    sha256: str | None


def file_name(month: str) -> str:
    return f"coinche-games-{month}.jsonl.gz"


def month_bounds(text: str, now: datetime) -> tuple[str, datetime, datetime]:
    """``(YYYY-MM, first moment, first moment of the next month)`` (UTC) of ``text``
    (``YYYY-MM``, or ``last``: the month before ``now``'s); a month not over at ``now``
    is refused (its file would miss the games still to end)."""
    if text == "last":
        year, month = (now.year, now.month - 1) if now.month > 1 else (now.year - 1, 12)
    else:
        found = MONTH.fullmatch(text)
        if found is None or int(found[1]) < 1970:
            raise ExportError(f"--month takes YYYY-MM (e.g. 2026-11) or last, not {text[:40]!r}")
        year, month = int(found[1]), int(found[2])
    start = datetime(year, month, 1, tzinfo=UTC)
    end = datetime(year + month // 12, month % 12 + 1, 1, tzinfo=UTC)
    if end > now:
        raise ExportError(f"{year:04d}-{month:02d} is not over yet: its games are exported once it is")
    return f"{year:04d}-{month:02d}", start, end


def pseudonym(key: bytes, player: str) -> str:
    """A player's name in the files when they did not choose to be named."""
    return "p-" + hmac.new(key, player.encode("utf-8"), hashlib.sha256).hexdigest()[:PSEUDONYM_DIGITS]


def game_id(key: bytes, table_id: str) -> str:
    """A game's id in the files: stable, and not the site's table id, which the game's page
    and the public API answer to with its players' names (a pseudonym next to it would be
    undone by one request)."""
    return "g-" + hmac.new(key, b"game:" + table_id.encode("utf-8"), hashlib.sha256).hexdigest()[:GAME_ID_DIGITS]


def open_data_key(store: Store) -> bytes:
    """The pseudonyms' key: made once, kept in the database (the first process's, when
    several make it together)."""
    with store.engine.begin() as conn:
        made = {"key": KEY_SETTING, "value": secrets.token_urlsafe(32)}
        conn.execute(store.backend.insert_ignoring(SettingRow, ["key"]), made)
        value = conn.scalar(select(SettingRow.value).where(SettingRow.key == KEY_SETTING))
        assert value is not None
        return value.encode("utf-8")


@dataclass(frozen=True)
class _Holder:
    name: str
    bot: bool
    named: bool


class _Names:
    """How each player of a batch is named: by the accounts read with it."""

    def __init__(self, key: bytes, holders: dict[str, _Holder]) -> None:
        self._key = key
        self._holders = holders

    def game(self, table_id: str) -> str:
        return game_id(self._key, table_id)

    def person(self, player: str) -> dict[str, Any]:
        found = self._holders.get(player)
        if found is not None and found.bot:
            return {"kind": "bot", "name": found.name}
        if found is not None and found.named:
            return {"kind": "person", "name": found.name, "named": True}
        return {"kind": "person", "name": pseudonym(self._key, player)}

    def seat(self, seat: Seat) -> dict[str, Any]:
        if seat.kind == "human" and seat.player is not None:
            return self.person(seat.player)
        told: dict[str, Any] = {"kind": "computer", "level": seat.level}
        if seat.gone is not None:
            told["left"] = self.person(seat.gone)["name"]
        return told


def game_line(live: LiveTable, finished_at: datetime, names: _Names) -> str | None:
    """A game's line, None for a game that did not reach its end (given up alone)."""
    if not live.game.is_over:
        return None
    record = finished_record(live)
    if record is None:
        return None
    record.pop("table", None)
    for deal in record["deals"]:
        # its commitment is made of the table's id (a tournament's: of the round's), which
        # names the game on the site: the file is for the play, the site checks the dealing
        deal.pop("dealing", None)
    line = {
        "game": names.game(live.id),
        "finished_at": aware(finished_at).isoformat().replace("+00:00", "Z"),
        "players": [names.seat(seat) for seat in live.seats],
        **record,
    }
    return json.dumps(line, ensure_ascii=False, separators=(",", ":"))


def game_batches(conn: Connection, start: datetime, end: datetime) -> Iterator[list[tuple[TableRow, list[Any]]]]:
    """The rated tables that finished in ``[start, end)``, by ``(finished_at, id)``, a
    batch at a time, each with its log's rows."""
    t = TableRow
    after: tuple[datetime, str] | None = None
    with Session(bind=conn) as s:
        while True:
            query = (
                select(t)
                .join(RatedGameRow, RatedGameRow.table_id == t.id)
                .where(t.finished_at >= start, t.finished_at < end)
                .order_by(t.finished_at, t.id)
                .limit(BATCH)
            )
            if after is not None:
                query = query.where(or_(t.finished_at > after[0], and_(t.finished_at == after[0], t.id > after[1])))
            rows = list(s.scalars(query))
            if not rows:
                return
            ids = [r.id for r in rows]
            a = ActionRow
            steps: dict[str, list[Any]] = {i: [] for i in ids}
            for step in s.execute(
                select(a.table_id, a.seq, a.kind, a.seat, a.action, a.data, a.request_id)
                .where(a.table_id.in_(ids))
                .order_by(a.table_id, a.seq)
            ):
                steps[step.table_id].append(step)
            yield [(r, steps[r.id]) for r in rows]
            last = rows[-1]
            assert last.finished_at is not None
            after = (last.finished_at, last.id)
            s.expunge_all()


def _holders(conn: Connection, players: set[str]) -> dict[str, _Holder]:
    if not players:
        return {}
    rows = conn.execute(
        select(AccountRow.player_id, AccountRow.name, AccountRow.bot_owner_id, AccountRow.open_data_named).where(
            AccountRow.player_id.in_(sorted(players))
        )
    )
    return {r.player_id: _Holder(r.name, r.bot_owner_id is not None, bool(r.open_data_named)) for r in rows}


class _Hashing:
    """A file that counts and hashes what is written to it (the compressed bytes)."""

    def __init__(self, raw: Any) -> None:
        self.raw = raw
        self.sha = hashlib.sha256()
        self.size = 0

    def write(self, data: bytes) -> int:
        self.sha.update(data)
        self.size += len(data)
        written: int = self.raw.write(data)
        return written

    def flush(self) -> None:
        self.raw.flush()


def _write_whole(path: Path, write: Any) -> None:
    """``write(file)`` into a file beside ``path``, synced, then renamed to ``path``."""
    part = path.with_name(path.name + ".part")
    try:
        with open(part, "wb") as raw:
            write(raw)
            raw.flush()
            os.fsync(raw.fileno())
        os.replace(part, path)
    except BaseException:
        with contextlib.suppress(OSError):
            part.unlink()
        raise


def export(store: Store, month_text: str, to: Path, now: datetime, force: bool = False) -> Exported:
    """Write the month's file at ``to`` (a folder: the month's file name in it) and its
    manifest beside it."""
    started = time.monotonic()
    month, start, end = month_bounds(month_text, now)
    path = to / file_name(month) if to.is_dir() else to
    if not path.parent.is_dir():
        raise ExportError(f"no folder {str(path.parent)[:200]!r} to write into")
    if path.exists() and not force:
        raise ExportError(f"{str(path)[:200]!r} is there already (--force replaces it)")
    key = open_data_key(store)
    games = 0
    unread: list[str] = []
    hashed: list[_Hashing] = []

    def write(raw: Any) -> None:
        nonlocal games
        out = _Hashing(raw)
        hashed.append(out)
        inner = path.name.removesuffix(".gz")
        with store.backend.snapshot(store.engine) as conn, gzip.GzipFile(inner, "wb", 6, out, mtime=0) as gz:
            for batch in game_batches(conn, start, end):
                people: set[str] = set()
                built = []
                for row, steps in batch:
                    try:
                        live = LiveTable.build(table_spec(row), [step_of(s) for s in steps])
                    except (EngineError, ValueError):
                        unread.append(row.id)  # a log this version cannot replay: said, not fatal
                        continue
                    people |= {p for seat in live.seats for p in (seat.player, seat.gone) if p is not None}
                    assert row.finished_at is not None
                    built.append((live, row.finished_at))
                names = _Names(key, _holders(conn, people))
                for live, finished_at in built:
                    line = game_line(live, finished_at, names)
                    if line is not None:
                        gz.write(line.encode("utf-8") + b"\n")
                        games += 1

    _write_whole(path, write)
    done = hashed[0]
    manifest = {
        "format": FORMAT,
        "month": month,
        "file": path.name,
        "games": games,
        "bytes": done.size,
        "sha256": done.sha.hexdigest(),
        "made_at": now.isoformat().replace("+00:00", "Z"),
        "licence": LICENCE,
    }
    text = json.dumps(manifest, indent=1) + "\n"
    _write_whole(path.with_name(path.name + ".json"), lambda raw: raw.write(text.encode("utf-8")))
    return Exported(path, month, games, done.size, done.sha.hexdigest(), time.monotonic() - started, tuple(unread))


# ----- the site's list of files -----


def monthly_files(folder: Path | None) -> list[MonthlyFile]:
    """The monthly files in ``folder``, newest month first (blocking: a few ``stat`` and
    small reads). Only regular files with a monthly file's name; a manifest that is
    missing or unreadable leaves its figures out."""
    if folder is None:
        return []
    found = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return []
    for entry in entries:
        match = FILE_NAME.fullmatch(entry.name)
        if match is None or not entry.is_file(follow_symlinks=False):
            continue
        games, sha = None, None
        with contextlib.suppress(OSError, ValueError, AttributeError):
            with open(folder / (entry.name + ".json"), "rb") as f:
                manifest = json.loads(f.read(64 * 1024))
            if isinstance(manifest.get("games"), int) and isinstance(manifest.get("sha256"), str):
                games, sha = manifest["games"], manifest["sha256"]
        found.append(MonthlyFile(entry.name, match[1], entry.stat(follow_symlinks=False).st_size, games, sha))
    return sorted(found, key=lambda f: f.month, reverse=True)


def default_folder(database_url: str) -> Path | None:
    """Where the site looks for the files when told nothing: ``open-data`` beside an SQLite
    database's file; None on PostgreSQL (``--open-data-dir`` says it)."""
    from sqlalchemy.engine import make_url

    url = make_url(database_url)
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        return None
    return Path(url.database).resolve().parent / "open-data"


def servable(folder: Path | None, name: str) -> Path | None:
    """The path of a monthly file or its manifest named ``name`` in ``folder``, None for
    any other name or anything but a regular file (a link, a folder, nothing)."""
    if folder is None or FILE_NAME.fullmatch(name.removesuffix(".json")) is None:
        return None
    path = folder / name
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return None
    except OSError:
        return None
    return path


# ----- the account's setting -----


class OpenDataStore:
    """The account page's setting (blocking: run on ``Database``)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def named(self, account_id: str) -> bool:
        with self.store.session() as s:
            return bool(s.scalar(select(AccountRow.open_data_named).where(AccountRow.id == account_id)))

    def set_named(self, account_id: str, named: bool) -> None:
        with self.store.session() as s, s.begin():
            s.execute(update(AccountRow).where(AccountRow.id == account_id).values(open_data_named=named))


class OpenData:
    """The setting, read and written on the database's threads."""

    def __init__(self, store: OpenDataStore, db: Database) -> None:
        self.store = store
        self.db = db

    async def named(self, account_id: str) -> bool:
        return await self.db(self.store.named, account_id)

    async def set_named(self, account_id: str, named: bool) -> None:
        await self.db(self.store.set_named, account_id, named)
