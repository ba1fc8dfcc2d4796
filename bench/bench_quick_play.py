"""Quick play under load: ``--people`` signed-in people press "Trouver une partie" at random
moments over ``--seconds``, on one server (SQLite by default) or on ``--servers 2``
sharing one PostgreSQL database (``--postgres``), each person pressing on either.

Each person is an account made straight in the database (no password hash to compute: the
bench measures the queue, not argon2) with a session cookie. A person opens their own
socket (``/ws/me``), reads the quick play page for its form token, presses (``POST
/partie-rapide``), waits for the socket to name their table, then opens the table's socket
and reads its first state. It prints:

- seated within the wait plus 1 s (the server's ``--quick-wait``, 20 s by default): how many;
- p50, p95 and max of press -> the table named, and press -> the table's first state;
- the tables made, people per table (computers in the rest), and the checks that nobody
  was seated twice nor at two tables (read back from the database);
- with ``--open-tables N``: N public tables written to the list, and the time of the open
  tables page (median and p95 of 20 requests).

    python bench/bench_quick_play.py [--people 1000] [--seconds 60] [--servers 1|2] [--postgres]

Only 127.0.0.1 is contacted; every wait has a timeout.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
import urllib.parse
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from websockets.asyncio.client import connect

from bench_server import Server, http_request, percentile
from databases import add_database_args, database_url

SESSION_DAYS = 1
TIMEOUT = 60.0


@dataclass
class Results:
    named: list[float] = field(default_factory=list)
    first_state: list[float] = field(default_factory=list)
    tables: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)


def make_people(url: str, n: int) -> list[tuple[str, str]]:
    """``n`` accounts and a session each: (player id, session token)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    from coinche.server.features.accounts import AccountStore
    from coinche.server.infra.store import Store, new_id

    store = Store(url)
    accounts = AccountStore(store)
    out = []
    try:
        for i in range(n):
            account = accounts.create(f"Rapide{i:05d}x", None, "not a hash: never logged in", new_id(12))
            out.append((account.player, accounts.open_session(account.id, SESSION_DAYS)))
    finally:
        store.close()
    return out


async def one_person(port: int, token: str, delay: float, wait: float, results: Results) -> None:
    await asyncio.sleep(delay)
    cookie = f"sid={token}"
    try:
        async with connect(f"ws://127.0.0.1:{port}/ws/me", additional_headers={"Cookie": cookie}) as me:
            status, _, page = await http_request(port, "GET", "/partie-rapide", cookie=cookie, want_body=True)
            found = page.split('name="csrf" value="', 1)
            if status != 200 or len(found) < 2:
                results.errors[f"page {status}"] += 1
                return
            csrf = found[1].split('"', 1)[0]
            body = urllib.parse.urlencode({"csrf": csrf, "action": "join", "rules": "any"}).encode()
            pressed = time.monotonic()
            status, _, _ = await http_request(port, "POST", "/partie-rapide", body, cookie=cookie)
            if status != 303:
                results.errors[f"press {status}"] += 1
                return
            table = None
            while table is None:
                message = json.loads(await asyncio.wait_for(me.recv(), wait + TIMEOUT))
                if message.get("type") == "quick" and message.get("table"):
                    table = str(message["table"]).removeprefix("/table/")
            results.named.append(time.monotonic() - pressed)
            results.tables[table] += 1
        async with connect(f"ws://127.0.0.1:{port}/ws/table/{table}", additional_headers={"Cookie": cookie}) as ws:
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
                if message.get("type") == "state":
                    results.first_state.append(time.monotonic() - pressed)
                    return
    except (TimeoutError, OSError) as e:
        results.errors[type(e).__name__] += 1
    except Exception as e:  # a closed socket, a refused handshake: counted, not fatal
        results.errors[type(e).__name__] += 1


def check_database(url: str) -> tuple[int, int, int]:
    """(people seated twice, people at two quick tables, quick tables) read back."""
    from sqlalchemy import func, select

    from coinche.server.infra.rows.lobby import QuickWaitRow
    from coinche.server.infra.rows.tables import TablePlayerRow, TableRow
    from coinche.server.infra.store import Store

    store = Store(url)
    try:
        with store.session() as s:
            tables = s.scalar(select(func.count()).select_from(TableRow).where(TableRow.quick_play)) or 0
            per_person = s.execute(
                select(TablePlayerRow.player_id, func.count())
                .join(TableRow, TableRow.id == TablePlayerRow.table_id)
                .where(TableRow.quick_play)
                .group_by(TablePlayerRow.player_id)
            ).all()
            twice = sum(1 for _, n in per_person if n > 1)
            rows = s.execute(select(QuickWaitRow.player_id, QuickWaitRow.table_id)).all()
            unseated = sum(1 for _, t in rows if t is None)
            return twice, unseated, tables
    finally:
        store.close()


def write_open_tables(url: str, n: int) -> None:
    from coinche.server.infra.rows.lobby import OpenTableRow
    from coinche.server.infra.store import Store

    store = Store(url)
    try:
        with store.session() as s, s.begin():
            for i in range(n):
                seats = [{"kind": "human", "name": f"Hote{i}", "rating": 1000 + i % 300}] + [
                    {"kind": "bot", "level": "confirmed"}
                ] * 3
                s.add(
                    OpenTableRow(
                        table_id=f"open{i:06d}",
                        code=f"C{i:05d}"[:6],
                        profile=random.choice(["classic", "online", "house", "federation"]),
                        target=3000,
                        seats=seats,
                        free_seats=3,
                        started=False,
                        watchable=True,
                        opened_at=datetime.now(UTC),
                        seq=0,
                    )
                )
    finally:
        store.close()


async def time_page(port: int, path: str, times: int = 20) -> list[float]:
    out = []
    for _ in range(times):
        start = time.monotonic()
        status, _, _ = await http_request(port, "GET", path, want_body=True)
        out.append(time.monotonic() - start)
        if status != 200:
            raise SystemExit(f"{path}: {status}")
    return out


async def main(args: argparse.Namespace) -> None:
    with database_url(args) as url, tempfile.TemporaryDirectory() as folder:
        if args.servers > 1 and url.startswith("sqlite"):
            raise SystemExit("several servers share a PostgreSQL database: add --postgres")
        extra = ("--quick-wait", str(args.wait))
        servers = [
            Server(Path(folder), args.workers, 0.7, 300.0, database_url=url, log_name=f"server{i}.log", extra=extra)
            for i in range(args.servers)
        ]
        try:
            for server in servers:
                await server.wait_ready()
            people = make_people(url, args.people)
            rng = random.Random(1)
            results = Results()
            started = time.monotonic()
            await asyncio.gather(
                *(
                    one_person(servers[i % len(servers)].port, token, rng.uniform(0, args.seconds), args.wait, results)
                    for i, (_, token) in enumerate(people)
                )
            )
            elapsed = time.monotonic() - started
            twice, unseated, tables = check_database(url)
            within = sum(1 for t in results.named if t <= args.wait + 1)
            sizes = Counter(results.tables.values())
            print(f"{args.people} people over {args.seconds:.0f} s on {args.servers} server(s), {elapsed:.0f} s in all")
            print(f"seated within the wait + 1 s ({args.wait + 1:.0f} s): {within} of {args.people}")
            for name, values in (
                ("press -> table named", results.named),
                ("press -> first state", results.first_state),
            ):
                if values:
                    print(
                        f"{name}: p50 {statistics.median(values) * 1000:.0f} ms, "
                        f"p95 {percentile(values, 0.95) * 1000:.0f} ms, max {max(values) * 1000:.0f} ms"
                    )
            print(f"tables: {tables} ({dict(sorted(sizes.items()))} people per table)")
            print(f"seated twice: {twice}, still waiting: {unseated}, errors: {dict(results.errors) or 'none'}")
            if args.open_tables:
                write_open_tables(url, args.open_tables)
                times = await time_page(servers[0].port, "/tables-ouvertes")
                print(
                    f"open tables page with {args.open_tables} public tables: median "
                    f"{statistics.median(times) * 1000:.1f} ms, p95 {percentile(times, 0.95) * 1000:.1f} ms"
                )
        finally:
            for server in servers:
                server.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--people", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--servers", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="bot processes per server")
    parser.add_argument("--wait", type=float, default=20.0, help="the servers' --quick-wait")
    parser.add_argument("--open-tables", type=int, default=0, help="then time the open tables page with N of them")
    add_database_args(parser)
    asyncio.run(main(parser.parse_args()))
