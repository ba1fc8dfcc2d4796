"""Load on one server: many friends' tables, four people at each, all over WebSockets.

Starts ``coinche serve`` on a free loopback port with a temporary SQLite file, then for each
of ``--tables`` tables: a host signs up and makes a friends' table, three guests take its
other seats by its code (each person with their own cookies, and their own address in an
``X-Forwarded-For`` header, as behind the site's proxy: the per-address limits apply to
each as to a real person), the four connect, and the host starts the game. Then, for
``--seconds``, each person plays a legal move ``--think`` seconds (on average) after their
turn comes; the host deals the next deal a second after each one
(at once with ``--think 0``). It prints:

- actions per second (every call and card, all tables);
- the time from a move being sent to its state reaching all four people of the table
  (p50, p95, max): the server's whole fan-out;
- memory per table: the server's resident memory growth over the tables (``VmRSS``);
- the server's CPU: its share of a core, and its CPU time an action (the cost of a move);
- the event loop's lag, seen from outside: the time ``/healthz`` takes to answer, asked
  every ``LAG_PERIOD`` seconds (answered on the event loop, before any middleware or
  database: its delay is the loop's backlog);
- errors: ``error`` messages, refused connections, timeouts, closed connections.

    python bench/bench_friends.py [--tables 200] [--seconds 60] [--think 1] [--clock] [--profile FILE] [--spy FILE]
                                  [--accuracy] [--stagger SECONDS]

``--think 0`` plays every move at once: the figures are the server's saturation
throughput. ``--clock`` makes the tables with the idle clock, as the page's form does by
default (each step then brings a ``clock`` message to each seat). ``--profile FILE`` runs
the server under cProfile (written when it stops) and prints where its time went;
``--spy FILE`` samples the (first) server with py-spy over the measured time only, in
py-spy's raw format (one line per stack and its count), at a sampling profiler's small
cost.

Only 127.0.0.1 is contacted; every wait has a timeout and every loop ends by the deadline.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import pstats
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
import uvloop
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from bench_server import (
    ACCURACY_WAIT,
    HOST,
    POLLS,
    START_TIMEOUT,
    Server,
    accuracy_after,
    as_state,
    cpu_seconds,
    http_request,
    percentile,
    proc_status,
)
from databases import add_database_args, database_url

HTTP_TIMEOUT = 30.0
LAG_PERIOD = 0.25
"""Seconds between two probes of the event loop's lag (``/healthz``)."""
PASSWORD = "bench password 1234"
CSRF_FIELD = re.compile(r'name="csrf" value="([^"]+)"')
PASSING = ("hello", "ack", "presence", "say", "notice", "clock")
PASSING_FRAME = re.compile(rb'\{"type":"(?:%s)"' % "|".join(PASSING).encode())
"""A passing message's frame, known by its first bytes (the server writes ``type`` first)."""
DECODE = msgspec.json.Decoder().decode
"""The load generator shares the machine with the server: its own CPU is kept small
(uvloop, msgspec), so that what is measured is the server."""
IDS = itertools.count(1)
PROFILED = """
import atexit, cProfile, sys
from coinche.cli import main
profile = cProfile.Profile()
def stop():
    profile.disable()
    profile.dump_stats({path!r})
atexit.register(stop)  # the drain ends the process after SIGTERM: written as it exits
sys.argv = ["coinche", *sys.argv[sys.argv.index("coinche.cli") + 1 :]]
profile.enable()
main()
"""
"""The server under cProfile (``-m cProfile`` writes nothing: the server ends by its signal)."""


@dataclass
class Totals:
    actions: int = 0
    latencies: list[float] = field(default_factory=list)
    deals: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    measuring: bool = False
    received: int = 0
    """Bytes of the table messages the people received while measuring (states, steps)."""
    accuracy_waits: list[float] = field(default_factory=list)
    """From a deal's end to its accuracy, as the host's summary asks for it (``--accuracy``)."""


class Person:
    """A browser: its cookies and its address (``X-Forwarded-For``)."""

    def __init__(self, port: int, address: str, name: str) -> None:
        self.port = port
        self.address = address
        self.name = name
        self.cookies: dict[str, str] = {}

    @property
    def cookie(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    async def request(self, method: str, path: str, form: dict[str, str] | None = None) -> tuple[int, str, str]:
        """(status, location, body) of one HTTP/1.1 request; cookies kept."""

        async def run() -> tuple[int, str, str]:
            reader, writer = await asyncio.open_connection(HOST, self.port)
            body = urllib.parse.urlencode(form).encode() if form is not None else b""
            head = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{self.port}", "Connection: close"]
            head += [f"X-Forwarded-For: {self.address}", f"Cookie: {self.cookie}"]
            if form is not None:
                head += ["Content-Type: application/x-www-form-urlencoded", f"Content-Length: {len(body)}"]
            try:
                writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
                await writer.drain()
                raw = b""
                while chunk := await reader.read(1 << 20):
                    raw += chunk
            finally:
                writer.close()
                with contextlib.suppress(OSError):
                    await writer.wait_closed()
            head_bytes, _, body_bytes = raw.partition(b"\r\n\r\n")
            lines = head_bytes.decode("latin-1").split("\r\n")
            location = ""
            for line in lines[1:]:
                name, _, value = line.partition(":")
                if name.lower() == "set-cookie":
                    key, _, val = value.strip().split(";", 1)[0].partition("=")
                    self.cookies[key] = val
                elif name.lower() == "location":
                    location = value.strip()
            return int(lines[0].split()[1]), location, body_bytes.decode("utf-8", "replace")

        return await asyncio.wait_for(run(), HTTP_TIMEOUT)

    async def post(self, path: str, form: dict[str, str]) -> tuple[int, str]:
        """The form of ``path`` (for its CSRF token), then posted: (status, location)."""
        status, _, page = await self.request("GET", path)
        token = CSRF_FIELD.search(page)
        if status != 200 or token is None:
            raise RuntimeError(f"GET {path}: {status}, no form")
        status, location, _ = await self.request("POST", path, {"csrf": token[1], **form})
        return status, location


async def make_table(port: int, n: int, clock: bool = False) -> tuple[str, list[Person]]:
    """A host signs up and makes a table (``clock``: with the idle clock, as the page's
    form has it by default); three guests sit: (table id, people by seat)."""
    host = Person(port, f"10.{n // 250}.{n % 250}.1", f"Bench{n}")
    status, _ = await host.post("/inscription", {"name": host.name, "password": PASSWORD, "confirm": PASSWORD})
    if status != 303:
        raise RuntimeError(f"sign-up: {status}")
    form = {"profile": "classic", "target": "3000", "level_1": "beginner", "level_2": "beginner"}
    if clock:
        form["idle_clock"] = "on"
    status, location = await host.post("/amis", {**form, "level_3": "beginner"})
    if status != 303 or not location.startswith("/table/"):
        raise RuntimeError(f"new table: {status} {location}")
    table_id = location.removeprefix("/table/")
    status, location, _ = await host.request("GET", location)
    people = [host]
    async with connect(ws_url(port, table_id), additional_headers={"Cookie": host.cookie}) as ws:
        state = await next_state(ws)
    code = state["table"]["friends"]["code"]
    for seat in (1, 2, 3):
        guest = Person(port, f"10.{n // 250}.{n % 250}.{seat + 1}", f"Guest{seat}")
        status, location = await guest.post(f"/rejoindre/{code}", {"name": guest.name, "seat": str(seat)})
        if status != 303:
            raise RuntimeError(f"take a seat: {status}")
        people.append(guest)
    return table_id, people


def ws_url(port: int, table_id: str) -> str:
    return f"ws://{HOST}:{port}/ws/table/{table_id}"


async def next_state(
    ws: ClientConnection, timeout: float = HTTP_TIMEOUT, totals: Totals | None = None
) -> dict[str, Any]:
    """The next state of the table: a ``step`` applied to the connection's last state."""
    while True:
        async with asyncio.timeout(timeout):  # no task a message, as wait_for makes
            frame = await ws.recv(decode=False)
        if PASSING_FRAME.match(frame):  # the clock, a presence...: decoded by nobody here
            continue
        message: dict[str, Any] = DECODE(frame)
        kind = message.get("type")
        if kind in PASSING:
            continue
        if totals is not None and totals.measuring:
            totals.received += len(frame)
        return as_state(ws, message)


@dataclass
class Table:
    """What the four seats of one table share: when each step's move was sent and how
    many of the four have seen it."""

    sent: dict[int, float] = field(default_factory=dict)
    seen: Counter[int] = field(default_factory=Counter)


async def person(
    ws: ClientConnection,
    seat: int,
    table: Table,
    rng: random.Random,
    args: argparse.Namespace,
    totals: Totals,
    deadline: list[float],
    deal_ended: Callable[[int], None] | None = None,
) -> None:
    """One seat: reads its states, plays its moves after a human's pause; ``deal_ended``
    (the host's) is told each deal that ends while measuring."""
    move: asyncio.Task[None] | None = None
    told = 0
    while time.monotonic() < deadline[0]:
        try:
            timeout = max(0.1, min(HTTP_TIMEOUT, deadline[0] - time.monotonic()))
            state = await next_state(ws, timeout, totals)
        except TimeoutError:
            break
        if state["type"] == "error":
            totals.errors["error: " + str(state.get("code"))] += 1
            continue
        seq = state["seq"]
        table.seen[seq] += 1
        if table.seen[seq] == 4 and seq in table.sent:
            if totals.measuring:
                totals.latencies.append(time.monotonic() - table.sent.pop(seq))
                totals.actions += 1
            else:
                table.sent.pop(seq)
        game = state.get("game")
        if game is None or game["winner"] is not None:
            continue
        if state["awaiting_next_deal"]:
            if seat == 0:
                if deal_ended is not None and totals.measuring and game["deal_number"] > told:
                    told = game["deal_number"]
                    deal_ended(told)
                move = asyncio.create_task(send_later(ws, table, None, min(args.think, 1.0), seq, totals))
            continue
        deal = game["deal"]
        if deal["to_move"] == seat and deal["legal_actions"]:
            action = choose(deal["legal_actions"], rng)
            pause = rng.uniform(0.5, 1.5) * args.think if args.think else 0.0
            move = asyncio.create_task(send_later(ws, table, action, pause, seq, totals))
    if move is not None:
        move.cancel()


async def send_later(
    ws: ClientConnection, table: Table, action: dict[str, Any] | None, pause: float, seq: int, totals: Totals
) -> None:
    if pause:
        await asyncio.sleep(pause)
    if action is None:
        await ws.send(json.dumps({"type": "next_deal", "id": f"r{next(IDS)}"}))
        totals.deals += 1
        return
    table.sent[seq + 1] = time.monotonic()
    with contextlib.suppress(ConnectionClosed):
        await ws.send(json.dumps({"type": "action", "id": f"r{next(IDS)}", "action": action}))


def choose(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A random card; in the auction mostly a pass, else the lowest bid (never a double,
    so deals are played out, not ended by a doubled capot)."""
    calls = [a for a in legal if "call" in a]
    if not calls:
        return rng.choice(legal)
    bids = [a for a in calls if a["call"] not in ("pass", "coinche", "surcoinche")]
    if bids and rng.random() < 0.3:
        return bids[0]
    return next(a for a in calls if a["call"] == "pass")


async def table_life(
    n: int,
    port: int,
    args: argparse.Namespace,
    totals: Totals,
    ready: list[int],
    opened: asyncio.Event,
    start: asyncio.Event,
    deadline: list[float],
    setup: asyncio.Semaphore,
) -> None:
    rng = random.Random(args.seed * 100_003 + n)
    counted = False
    try:
        async with setup:
            table_id, people = await make_table(port, n, args.clock)
        async with contextlib.AsyncExitStack() as stack:
            sockets = [
                await stack.enter_async_context(
                    connect(ws_url(port, table_id), additional_headers={"Cookie": p.cookie}, max_size=1 << 20)
                )
                for p in people
            ]
            ready[0] += 1
            counted = True
            if ready[0] == args.tables:
                opened.set()
            await start.wait()
            if args.stagger:  # tables that began apart, as on a site, not all at once
                await asyncio.sleep(rng.uniform(0.0, args.stagger))
            table = Table()
            await sockets[0].send(json.dumps({"type": "host", "id": f"r{next(IDS)}", "op": "start"}))
            host = people[0]
            ended = (
                (lambda n: accuracy_after(lambda path: host.request("GET", path), table_id, n, totals=totals))
                if args.accuracy
                else None
            )
            await asyncio.gather(
                *(
                    person(ws, seat, table, rng, args, totals, deadline, ended if seat == 0 else None)
                    for seat, ws in enumerate(sockets)
                )
            )
    except (TimeoutError, OSError, ConnectionClosed, InvalidHandshake, RuntimeError, ValueError, KeyError) as e:
        totals.errors[type(e).__name__] += 1
        if not counted:
            ready[0] += 1
            if ready[0] == args.tables:
                opened.set()


async def probe_lag(port: int, until: list[float], lags: list[float]) -> None:
    """Time ``/healthz`` every ``LAG_PERIOD`` seconds until ``until[0]`` (seconds, each
    answer's round trip): the event loop's lag as a client meets it."""
    while time.monotonic() < until[0]:
        t0 = time.monotonic()
        with contextlib.suppress(OSError, TimeoutError, ValueError):
            await http_request(port, "GET", "/healthz", timeout=HTTP_TIMEOUT)
            lags.append(time.monotonic() - t0)
        await asyncio.sleep(max(0.0, LAG_PERIOD - (time.monotonic() - t0)))


def start_spy(pid: int, path: Path, seconds: float) -> subprocess.Popen[bytes] | None:
    """py-spy sampling ``pid`` for ``seconds`` into ``path`` (raw format); None without py-spy."""
    spy = Path(sys.executable).with_name("py-spy")
    if not spy.exists():
        print("  (no py-spy next to this Python: --spy ignored)")
        return None
    command = [str(spy), "record", "--pid", str(pid), "--duration", str(max(1, int(seconds)))]
    command += ["--rate", "100", "--format", "raw", "--nonblocking", "-o", str(path)]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


class Site:
    """What the clients play on: one or several ``coinche serve`` processes on one
    database, nginx in front of them when there are several, and ``coinche worker``
    processes; ``port`` is where the clients go."""

    def __init__(self, workdir: Path, args: argparse.Namespace, url: str | None, profiling: tuple[str, ...]) -> None:
        self.servers = [
            Server(workdir, 1, 0.0, 300.0, profiling, url, f"server-{n}.log") for n in range(1, args.servers + 1)
        ]
        self.workers: list[subprocess.Popen[bytes]] = []
        for n in range(args.workers):
            with (workdir / f"worker-{n + 1}.log").open("a") as out:
                self.workers.append(
                    subprocess.Popen(
                        [sys.executable, "-m", "coinche.cli", "worker", "--db", str(url), "--processes", "1"],
                        stdout=out,
                        stderr=subprocess.STDOUT,
                        start_new_session=True,
                    )
                )
        self.proxy: Any = None
        self.workdir = workdir
        self.port = self.servers[0].port

    async def wait_ready(self) -> None:
        for server in self.servers:
            await server.wait_ready()
        if len(self.servers) > 1:
            from nginx_proxy import NginxProxy

            self.proxy = NginxProxy(self.workdir / "nginx", [s.port for s in self.servers])
            self.port = self.proxy.port

    @property
    def pids(self) -> list[int]:
        return [s.proc.pid for s in self.servers]

    def rss(self) -> int:
        """The servers' resident memory, KiB (their bot pools apart)."""
        return sum(proc_status(pid, "VmRSS") for pid in self.pids)

    def cpu(self) -> float:
        return sum(cpu_seconds(pid) for pid in self.pids)

    def stop(self) -> None:
        if self.proxy is not None:
            self.proxy.stop()
        for server in self.servers:
            server.stop()
        for worker in self.workers:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(worker.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                worker.wait(timeout=10)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(worker.pid, signal.SIGKILL)

    def logs(self) -> str:
        return "\n".join(p.read_text(errors="replace") for p in sorted(self.workdir.glob("*.log")))


async def run(args: argparse.Namespace, server: Site, label: str) -> dict[str, float]:
    await server.wait_ready()
    rss_before = server.rss()
    totals = Totals()
    opened, start = asyncio.Event(), asyncio.Event()
    ready = [0]
    deadline = [float("inf")]
    setup = asyncio.Semaphore(8)
    t_open = time.monotonic()

    def life(n: int) -> asyncio.Task[None]:
        return asyncio.create_task(table_life(n, server.port, args, totals, ready, opened, start, deadline, setup))

    # The first table alone: what a first sign-up and a first table load (argon2's memory,
    # the templates, the engine's tables) is not counted per table.
    tasks = [life(0)]
    while not ready[0] and time.monotonic() - t_open < START_TIMEOUT:
        await asyncio.sleep(0.05)
    rss_first = server.rss()
    tasks += [life(n) for n in range(1, args.tables)]
    try:
        await asyncio.wait_for(opened.wait(), START_TIMEOUT + args.tables * 2)
    except TimeoutError:
        totals.errors["tables not all opened"] += 1
    open_seconds = time.monotonic() - t_open
    rss_open = server.rss()
    deadline[0] = time.monotonic() + args.warmup + args.seconds
    start.set()
    await asyncio.sleep(args.warmup)  # the first deals dealt, the first moves on their way
    totals.measuring = True
    cpu_start = server.cpu()
    client_cpu_start = time.process_time()
    t0 = time.monotonic()
    spy = start_spy(server.pids[0], args.spy, deadline[0] - t0) if args.spy is not None else None
    lags: list[float] = []
    prober = asyncio.create_task(probe_lag(server.port, deadline, lags))
    rss_peak = rss_open
    while time.monotonic() < deadline[0]:
        await asyncio.sleep(min(1.0, max(0.0, deadline[0] - time.monotonic())))
        rss_peak = max(rss_peak, server.rss())
    elapsed = time.monotonic() - t0
    totals.measuring = False
    cpu = server.cpu() - cpu_start
    client_cpu = time.process_time() - client_cpu_start
    prober.cancel()
    await asyncio.gather(prober, return_exceptions=True)
    if spy is not None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            spy.wait(timeout=30)
    rss_end = server.rss()
    if POLLS:  # the accuracies still coming
        await asyncio.wait(set(POLLS), timeout=ACCURACY_WAIT + 5)
    _, pending = await asyncio.wait(tasks, timeout=HTTP_TIMEOUT + 10)
    for task in pending:
        task.cancel()
        totals.errors["table still running at the end"] += 1
    await asyncio.gather(*pending, return_exceptions=True)

    lat = [x * 1000 for x in totals.latencies]
    tables = max(ready[0], 1)
    print(
        f"coinche friends' tables load, {label}: {args.tables} tables x 4 people, think {args.think:g} s, "
        f"{elapsed:.0f} s measured after {args.warmup:g} s"
    )
    print(f"  tables made and seated: {ready[0]} in {open_seconds:.1f} s; next deals asked: {totals.deals}")
    print(f"  actions: {totals.actions} = {totals.actions / elapsed:.0f}/s (every call and card, all tables)")
    per_action = totals.received / max(totals.actions, 1)
    print(f"  sent to the people: {totals.received / elapsed / 1024:.0f} KiB/s, {per_action:.0f} bytes per action")
    if lat:
        print(
            f"  a move to its state at all four seats: p50 {percentile(lat, 0.5):.1f} ms, "
            f"p95 {percentile(lat, 0.95):.1f} ms, p99 {percentile(lat, 0.99):.1f} ms, max {max(lat):.1f} ms, "
            f"mean {statistics.fmean(lat):.1f} ms ({len(lat)} moves)"
        )
    if lags:
        lag = [x * 1000 for x in lags]
        print(
            f"  event loop's lag (/healthz every {LAG_PERIOD:g} s): p50 {percentile(lag, 0.5):.1f} ms, "
            f"p95 {percentile(lag, 0.95):.1f} ms, p99 {percentile(lag, 0.99):.1f} ms, max {max(lag):.1f} ms"
        )
    print(
        f"  server process: RSS {rss_before / 1024:.1f} MiB before, {rss_open / 1024:.1f} MiB with the tables "
        f"seated, {rss_end / 1024:.1f} MiB at the end (peak {rss_peak / 1024:.1f} MiB): "
        f"{(rss_end - rss_first) / max(tables - 1, 1):.0f} KiB per table past the first "
        f"({rss_first / 1024:.1f} MiB with one)"
    )
    print(
        f"  CPU: server {cpu / elapsed:.0%} of a core ({cpu * 1000 / max(totals.actions, 1):.2f} ms an action), "
        f"this client {client_cpu / elapsed:.0%} ({os.cpu_count()} cores)"
    )
    if args.accuracy and totals.accuracy_waits:
        waits = [x * 1000 for x in totals.accuracy_waits]
        print(
            f"  a deal's accuracy after its end: p50 {statistics.median(waits):.0f} ms, "
            f"p95 {sorted(waits)[min(len(waits) - 1, round(0.95 * (len(waits) - 1)))]:.0f} ms, "
            f"max {max(waits):.0f} ms ({len(waits)} deals)"
        )
    errors = sum(totals.errors.values())
    print(f"  errors: {errors}" + (f" ({dict(totals.errors)})" if errors else ""), flush=True)
    return {
        "tables": args.tables,
        "actions_per_second": totals.actions / elapsed,
        "p50": percentile(lat, 0.5) if lat else float("nan"),
        "p95": percentile(lat, 0.95) if lat else float("nan"),
        "p99": percentile(lat, 0.99) if lat else float("nan"),
        "cpu_ms": cpu * 1000 / max(totals.actions, 1),
        "lag_p95": percentile([x * 1000 for x in lags], 0.95) if lags else float("nan"),
        "max": max(lat) if lat else float("nan"),
        "kib_per_table": (rss_end - rss_first) / max(tables - 1, 1),
        "errors": errors,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", default="200", help="friends' tables, four people each; several: 50,100,200,400")
    ap.add_argument("--seconds", type=float, default=60.0, help="measured time (default 60)")
    ap.add_argument("--warmup", type=float, default=5.0, help="seconds played before measuring (default 5)")
    ap.add_argument("--think", type=float, default=1.0, help="a person's seconds per move, on average (0: at once)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--accuracy", action="store_true", help="the host asks for each deal's accuracy, timed")
    ap.add_argument(
        "--stagger", type=float, default=0.0, help="each table starts up to this many seconds late (default 0: at once)"
    )
    ap.add_argument("--servers", type=int, default=1, help="server processes (more than one: nginx in front)")
    ap.add_argument("--workers", type=int, default=0, help="`coinche worker` processes (PostgreSQL)")
    ap.add_argument("--profile", type=Path, help="run the server under cProfile and write its profile here")
    ap.add_argument(
        "--spy", type=Path, help="sample the server with py-spy while measuring (raw format) into this file"
    )
    ap.add_argument(
        "--clock", action="store_true", help="tables with the idle clock (the page's default): a clock event a step"
    )
    add_database_args(ap)
    args = ap.parse_args()
    try:
        counts = [int(t) for t in str(args.tables).split(",")]
    except ValueError:
        ap.error("--tables takes numbers separated by commas")
    if not all(1 <= t <= 2000 for t in counts) or not 0 < args.seconds <= 3600 or not 0 <= args.think <= 30:
        ap.error("--tables 1..2000, --seconds up to 3600, --think 0..30")
    if not 1 <= args.servers <= 8 or not 0 <= args.workers <= 8:
        ap.error("--servers 1..8, --workers 0..8")
    if (args.servers > 1 or args.workers) and not (args.postgres or args.db):
        ap.error("several servers or workers share a PostgreSQL database: --postgres or --db")
    backend = "PostgreSQL" if args.postgres or (args.db or "").startswith("postgresql") else "SQLite"
    label = f"{args.servers} server(s), {args.workers} worker(s), {backend}" + (", nginx" if args.servers > 1 else "")
    summary = []
    for count in counts:
        args.tables = count
        with tempfile.TemporaryDirectory(prefix="coinche-bench-") as tmp, database_url(args) as url:
            workdir = Path(tmp)
            profiling = ("-c", PROFILED.format(path=str(args.profile.resolve()))) if args.profile is not None else ()
            site = Site(workdir, args, None if url.startswith("sqlite") else url, profiling)
            try:
                summary.append(uvloop.run(run(args, site, label)))
            finally:
                site.stop()
            log = site.logs()
            if "Traceback" in log or "ERROR" in log:
                print("  server log:\n" + "\n".join(log.splitlines()[-40:]))
    if len(summary) > 1:
        print(f"how p95 grows with the tables ({label}):")
        for row in summary:
            print(
                f"  {row['tables']:>5.0f} tables: {row['actions_per_second']:.0f} actions/s, p50 {row['p50']:.1f} ms, "
                f"p95 {row['p95']:.1f} ms, p99 {row['p99']:.1f} ms, max {row['max']:.1f} ms, "
                f"CPU {row['cpu_ms']:.2f} ms an action, lag p95 {row['lag_p95']:.1f} ms, "
                f"{row['kib_per_table']:.0f} KiB/table, "
                f"{row['errors']:.0f} errors"
            )
    if args.profile is not None and args.profile.exists():
        print(f"  where the server's time went (cProfile, {args.profile}):")
        stats = pstats.Stats(str(args.profile))
        stats.sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
