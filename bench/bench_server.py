"""Load on one server: many solo tables at once, each played by a simulated human.

Starts ``coinche serve`` on a free loopback port with a temporary SQLite file and no bot
delay, opens ``--tables`` solo tables (one guest each, its own WebSocket), and plays them
for ``--seconds``: each human plays a legal action when it is its turn (random, mostly
passing in the auction; ``--policy first`` for the first legal action), asks for the next
deal after each one and for a new table after a game. Then it prints:

- actions per second, all seats (each state with a ``last`` action is one action);
- the time from a human's move being sent to the state whose ``last`` is that very move
  (p50, p95, max): the server's answer, the computers' thinking excluded;
- memory per table: the growth of the server process's resident memory (``VmRSS`` of
  /proc/<pid>/status) from before the tables to the end, over the tables opened (the bot
  workers' memory is printed apart);
- errors: ``error`` messages, refused connections, timeouts, closed connections.

    python bench/bench_server.py [--tables 200] [--seconds 60] [--level confirmed|expert]
                                 [--bot-delay 0.7] [--workers 2] [--policy random|first] [--think 1]
                                 [--accuracy]

With no bot delay (the default) every table plays as fast as the server lets it, so the
figures are the server's capacity and its answers under saturation; ``--bot-delay 0.7``
paces the computers as the site does.

Only 127.0.0.1 is contacted; every wait has a timeout and every loop ends by the deadline.
The server is started with ``--free-deals`` high enough that the guests' three free deals
do not stop the run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import itertools
import json
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from coinche.server.web.steps import apply_step

HOST = "127.0.0.1"
START_TIMEOUT = 60.0
HTTP_TIMEOUT = 30.0
FREE_DEALS = 999_999_999
TRICK_PAUSE = 1.0
"""The server's extra pause before a computer leads a new trick (``Settings.trick_pause``)."""
TARGETS = {"classic": 3000, "federation": 2000, "house": 3010, "online": 2001}


# ----- the server process -----


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


def proc_status(pid: int, key: str) -> int:
    """A ``kB`` line of /proc/<pid>/status (``VmRSS``), in KiB; 0 if the process is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (/proc/<pid>/stat), 0 if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def children(pid: int) -> list[int]:
    """Every descendant of ``pid`` (the bot workers, the fork server...)."""
    out: list[int] = []
    todo = [pid]
    for _ in range(1000):
        if not todo:
            break
        p = todo.pop()
        kids: list[str] = []
        with contextlib.suppress(OSError):
            for task in Path(f"/proc/{p}/task").iterdir():  # a child belongs to the thread that made it
                with contextlib.suppress(OSError):
                    kids += (task / "children").read_text().split()
        out += [int(k) for k in kids]
        todo += [int(k) for k in kids]
    return out


class Server:
    def __init__(
        self,
        workdir: Path,
        workers: int,
        bot_delay: float,
        idle_seconds: float,
        python_options: tuple[str, ...] = (),
        database_url: str | None = None,
        log_name: str = "server.log",
        extra: tuple[str, ...] = (),
    ) -> None:
        """``python_options``: before ``-m coinche.cli`` (``-c`` and a profiling wrapper);
        ``database_url``: None for an SQLite file in ``workdir``; ``extra``: more options
        of ``coinche serve``."""
        self.port = free_port()
        self.log = workdir / log_name
        command = [
            sys.executable,
            *python_options,
            "-m",
            "coinche.cli",
            "serve",
            "--host",
            HOST,
            "--port",
            str(self.port),
        ]
        command += [
            "--table-limit-per-address",
            "100000/minute",  # every simulated guest comes from 127.0.0.1
            "--db",
            database_url or f"sqlite:///{workdir / 'bench.db'}",
            "--bot-delay",
            str(bot_delay),
            "--workers",
            str(workers),
        ]
        command += ["--free-deals", str(FREE_DEALS), "--idle-seconds", str(idle_seconds), *extra]
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        env.pop("COINCHE_DATABASE_URL", None)
        with self.log.open("a") as out:
            self.proc = subprocess.Popen(
                command, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=workdir, start_new_session=True
            )

    async def wait_ready(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"the server exited ({self.proc.returncode}):\n{self.log.read_text()}")
            with contextlib.suppress(OSError, asyncio.TimeoutError, ValueError):
                status, _, _ = await http_request(self.port, "GET", "/", timeout=2)
                if status == 200:
                    return
            await asyncio.sleep(0.2)
        self.stop()
        raise SystemExit(f"the server did not start within {START_TIMEOUT:.0f} s:\n{self.log.read_text()}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)  # what is left of its group: the bot workers


async def http_request(
    port: int,
    method: str,
    path: str,
    body: bytes = b"",
    cookie: str | None = None,
    timeout: float = HTTP_TIMEOUT,
    want_body: bool = False,
) -> tuple[int, dict[str, str], str]:
    """One HTTP/1.1 request to the loopback server: (status, headers with lower-case
    names, the body's text when ``want_body``)."""

    async def run() -> tuple[int, dict[str, str], str]:
        reader, writer = await asyncio.open_connection(HOST, port)
        try:
            head = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{port}", "Connection: close"]
            if body:
                head += ["Content-Type: application/x-www-form-urlencoded", f"Content-Length: {len(body)}"]
            if cookie:
                head.append(f"Cookie: {cookie}")
            writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
            await writer.drain()
            raw = await reader.read(1 << 20)
            while chunk := await reader.read(1 << 20):
                raw += chunk
        finally:
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()
        head_bytes, _, body_bytes = raw.partition(b"\r\n\r\n")
        lines = head_bytes.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers: dict[str, str] = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers.setdefault(name.strip().lower(), value.strip())
        return status, headers, body_bytes.decode("utf-8", "replace") if want_body else ""

    return await asyncio.wait_for(run(), timeout)


# ----- the simulated humans -----


@dataclass
class Totals:
    actions: int = 0
    """States with a ``last`` action, all seats, within the measured window."""
    human_actions: int = 0
    deals: int = 0
    games: int = 0
    tables: int = 0
    latencies: list[float] = field(default_factory=list)
    bot_gaps: list[float] = field(default_factory=list)
    """How late each computer's move came after the state before it, past its display pause."""
    accuracy_waits: list[float] = field(default_factory=list)
    """From a deal's end to its accuracy (``--accuracy``)."""
    hints: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    measuring: bool = False


IDS = itertools.count(1)
"""Request ids (docs/protocol.md): unique over the run."""


STATES: dict[ClientConnection, dict[str, Any]] = {}
"""Each connection's last state, which its next ``step`` changes (as a page keeps it)."""


def as_state(ws: ClientConnection, message: dict[str, Any]) -> dict[str, Any]:
    """A ``step`` as the state it makes of the connection's last one; another message as is."""
    kind = message.get("type")
    if kind == "state":
        STATES[ws] = message
    elif kind == "step":
        message = STATES[ws] = apply_step(STATES[ws], message)
    return message


async def receive_state(ws: ClientConnection, timeout: float) -> dict[str, Any]:
    """The next message that is not a ``hello`` or an ``ack`` (a state, an error); a
    ``step`` as the state it makes of the connection's last one."""
    while True:
        message = as_state(ws, json.loads(await asyncio.wait_for(ws.recv(), timeout)))
        if message.get("type") not in ("hello", "ack"):
            return message


def expected_pause(prev: dict[str, Any], state: dict[str, Any], args: argparse.Namespace) -> float:
    """The display pause the server puts before a computer's move: ``--bot-delay``, plus
    the trick pause when the move leads a new trick."""
    if not args.bot_delay:
        return 0.0
    deal = state["game"]["deal"]
    leads = deal["phase"] == "play" and len(deal["trick"]) == 1 and bool(deal["tricks"])
    return float(args.bot_delay) + (TRICK_PAUSE if leads else 0.0)


def choose(legal: list[dict[str, Any]], rng: random.Random, policy: str) -> dict[str, Any]:
    if policy == "first":
        return legal[0]
    passes = [a for a in legal if a.get("call") == "pass"]
    if passes and rng.random() < 0.7:
        return passes[0]
    return rng.choice(legal)


def answers(state: dict[str, Any], seat: int, record: dict[str, Any]) -> bool:
    last = state.get("last")
    if not last or last.get("seat") != seat:
        return False
    return bool(last.get("action") == {k: v for k, v in record.items() if k != "melds"})


CSRF_FIELD = re.compile(r'name="csrf" value="([^"]+)"')


async def new_table(port: int, cookie: str | None, profile: str, level: str) -> tuple[str, str]:
    """Open a solo table as a guest would: the home page (a new guest's cookie, the form's
    CSRF token), then its form."""
    status, headers, page = await http_request(port, "GET", "/", b"", cookie, want_body=True)
    if cookie is None:
        cookie = headers.get("set-cookie", "").split(";", 1)[0]
    token = CSRF_FIELD.search(page)
    if status != 200 or token is None:
        raise RuntimeError(f"GET /: {status}, no form")
    fields = {"csrf": token[1], "profile": profile, "target": TARGETS[profile], "level": level}
    status, headers, _ = await http_request(port, "POST", "/solo", urllib.parse.urlencode(fields).encode(), cookie)
    location = headers.get("location", "")
    if status != 303 or not location.startswith("/table/"):
        raise RuntimeError(f"POST /solo: {status} {location}")
    return location.removeprefix("/table/"), cookie


async def human(
    n: int,
    port: int,
    args: argparse.Namespace,
    totals: Totals,
    opened: asyncio.Event,
    ready: list[int],
    start: asyncio.Event,
    deadline: list[float],
) -> None:
    """One guest: opens a table, waits for the start, plays until the deadline."""
    rng = random.Random(args.seed * 100_003 + n)
    cookie: str | None = None
    first = True
    try:
        while True:
            table_id, cookie = await new_table(port, cookie, args.profile, args.level)
            totals.tables += 1
            url = f"ws://{HOST}:{port}/ws/table/{table_id}"
            async with connect(
                url, additional_headers={"Cookie": cookie}, open_timeout=HTTP_TIMEOUT, close_timeout=5, max_size=1 << 20
            ) as ws:
                state = await receive_state(ws, HTTP_TIMEOUT)
                if first:
                    first = False
                    ready[0] += 1
                    if ready[0] == args.tables:
                        opened.set()
                    await start.wait()
                over = await play(
                    ws,
                    state,
                    rng,
                    args,
                    totals,
                    deadline[0],
                    functools.partial(
                        accuracy_after,
                        functools.partial(http_request, port, "GET", cookie=cookie),
                        table_id,
                        totals=totals,
                    ),
                )
            if not over:
                return
            totals.games += 1
    except (TimeoutError, OSError, ConnectionClosed, RuntimeError, ValueError) as e:
        totals.errors[type(e).__name__] += 1
        if first:
            ready[0] += 1
            if ready[0] == args.tables:
                opened.set()


ACCURACY_WAIT = 120.0
"""The longest a deal's accuracy is waited for."""
ACCURACY_POLL = 0.5
"""How often it is asked for (the page: every second; 200 tables asking every 100 ms made
the bench's own load)."""
POLLS: set[asyncio.Task[None]] = set()


def accuracy_after(
    get: Callable[[str], Awaitable[tuple[int, Any, Any]]], table_id: str, n: int, *, totals: Any
) -> None:
    """Ask for deal ``n``'s accuracy with ``get`` (a path's status first) every
    ``ACCURACY_POLL`` seconds from its end, as the summary does (each second), and keep in
    ``totals`` how long it took to come (``bench_friends`` asks as its host)."""

    async def poll() -> None:
        start = time.perf_counter()
        while time.perf_counter() - start < ACCURACY_WAIT:
            try:
                status, _, _ = await get(f"/table/{table_id}/donne/{n}/precision")
            except (OSError, TimeoutError):
                status = 0
            if status == 200:
                totals.accuracy_waits.append(time.perf_counter() - start)
                return
            if status not in (0, 202):
                totals.errors[f"accuracy {status}"] += 1
                return
            await asyncio.sleep(ACCURACY_POLL)
        totals.errors["accuracy never came"] += 1

    task = asyncio.get_running_loop().create_task(poll())
    POLLS.add(task)
    task.add_done_callback(POLLS.discard)


async def play(
    ws: ClientConnection,
    state: dict[str, Any],
    rng: random.Random,
    args: argparse.Namespace,
    totals: Totals,
    deadline: float,
    deal_ended: Callable[[int], None] | None = None,
) -> bool:
    """Play one table until the deadline (False) or the game's end (True); ``deal_ended``
    is told the number of each deal that ends while measuring."""
    pending: dict[str, Any] | None = None
    sent_at = 0.0
    latest = prev = state
    last_state_at = arrived = time.perf_counter()
    for _ in range(10_000_000):
        if state.get("type") == "state":
            latest = state
            me = state["table"]["you"]
            if totals.measuring and state.get("last") and state["last"]["seat"] != me:
                totals.bot_gaps.append(arrived - last_state_at - expected_pause(prev, state, args))
            prev, last_state_at = state, arrived
            if state.get("last") and totals.measuring:
                totals.actions += 1
            if pending is not None and answers(state, me, pending):
                if totals.measuring:
                    totals.latencies.append(time.perf_counter() - sent_at)
                    totals.human_actions += 1
                pending = None
            game, deal = state["game"], state["game"]["deal"]
            if game["winner"] is not None:
                return True
            if pending is None and state["awaiting_next_deal"]:
                if not state["can_continue"]:
                    totals.errors["no free deal left"] += 1
                    return False
                if totals.measuring:
                    totals.deals += 1
                    if deal_ended is not None and args.accuracy:
                        deal_ended(game["deal_number"])
                await ws.send(json.dumps({"type": "next_deal", "id": f"n{next(IDS)}"}))
            elif pending is None and deal["legal_actions"] and deal["to_move"] == me:
                if args.think > 0:  # a person takes a moment: 0.5 to 1.5 times --think
                    await asyncio.sleep(min(rng.uniform(0.5, 1.5) * args.think, max(0.0, deadline - time.monotonic())))
                pending = choose(deal["legal_actions"], rng, args.policy)
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "action", "id": f"a{next(IDS)}", "action": pending}))
        elif state.get("type") == "error":
            totals.errors[f"error {state.get('code')}"] += 1
            pending = None
            deal = latest["game"]["deal"]
            if deal["legal_actions"] and deal["to_move"] == latest["table"]["you"]:
                pending = deal["legal_actions"][0]
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "action", "id": f"a{next(IDS)}", "action": pending}))
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return False
        try:
            state = await receive_state(ws, min(remaining, 30.0) + 0.01)
            arrived = time.perf_counter()
        except TimeoutError:
            if deadline - time.monotonic() > 0:
                totals.errors["no message for 30 s"] += 1
            return False
    return False


async def hint_storm(port: int, args: argparse.Namespace, totals: Totals, deadline: list[float]) -> None:
    """``--hint-storm`` connections of one guest on one table, each asking for a hint every
    100 ms until the deadline: the answers are counted (hints, refusals)."""
    table_id, cookie = await new_table(port, None, args.profile, args.level)
    url = f"ws://{HOST}:{port}/ws/table/{table_id}"

    async def one() -> None:
        async with connect(url, additional_headers={"Cookie": cookie}, open_timeout=HTTP_TIMEOUT) as ws:

            async def read() -> None:
                async for raw in ws:
                    message = json.loads(raw)
                    if message["type"] in ("hint", "error") and totals.measuring:
                        totals.hints[message["type"] if message["type"] == "hint" else message["code"]] += 1

            reader = asyncio.create_task(read())
            try:
                while time.monotonic() < deadline[0]:
                    await ws.send(json.dumps({"type": "hint", "id": f"h{next(IDS)}"}))
                    await asyncio.sleep(0.1)
            finally:
                reader.cancel()
                await asyncio.gather(reader, return_exceptions=True)

    await asyncio.gather(*(one() for _ in range(args.hint_storm)), return_exceptions=True)


# ----- the run -----


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def run(args: argparse.Namespace, server: Server) -> None:
    await server.wait_ready()
    pid = server.proc.pid
    rss_before = proc_status(pid, "VmRSS")
    totals = Totals()
    opened, start = asyncio.Event(), asyncio.Event()
    ready = [0]
    deadline = [float("inf")]
    t_open = time.monotonic()
    tasks = [
        asyncio.create_task(human(n, server.port, args, totals, opened, ready, start, deadline))
        for n in range(args.tables)
    ]
    try:
        await asyncio.wait_for(opened.wait(), START_TIMEOUT + args.tables * 0.5)
    except TimeoutError:
        totals.errors["tables not all opened"] += 1
    open_seconds = time.monotonic() - t_open
    rss_open = proc_status(pid, "VmRSS")
    cpu_start = cpu_seconds(pid)
    client_cpu_start = time.process_time()
    worker_cpu_start = sum(cpu_seconds(c) for c in children(pid))
    t0 = time.monotonic()
    deadline[0] = t0 + args.seconds
    totals.measuring = True
    storm = asyncio.create_task(hint_storm(server.port, args, totals, deadline)) if args.hint_storm else None
    start.set()
    rss_peak = rss_open
    while time.monotonic() < deadline[0]:
        await asyncio.sleep(min(1.0, max(0.0, deadline[0] - time.monotonic())))
        rss_peak = max(rss_peak, proc_status(pid, "VmRSS"))
    elapsed = time.monotonic() - t0
    totals.measuring = False
    cpu = cpu_seconds(pid) - cpu_start
    client_cpu = time.process_time() - client_cpu_start
    worker_pids = children(pid)
    worker_cpu = sum(cpu_seconds(c) for c in worker_pids) - worker_cpu_start
    rss_end = proc_status(pid, "VmRSS")
    workers_rss = sum(proc_status(c, "VmRSS") for c in worker_pids)
    if storm is not None:
        tasks.append(storm)
    if POLLS:  # the accuracies still coming
        await asyncio.wait(set(POLLS), timeout=ACCURACY_WAIT + 5)
    _, pending = await asyncio.wait(tasks, timeout=40)
    for task in pending:
        task.cancel()
        totals.errors["human still running at the end"] += 1
    await asyncio.gather(*pending, return_exceptions=True)

    await asyncio.sleep(args.idle_seconds * 1.5 + 1)  # every table idle: they leave memory
    rss_idle = proc_status(pid, "VmRSS")

    lat = [x * 1000 for x in totals.latencies]
    gaps = [x * 1000 for x in totals.bot_gaps]
    tables = max(totals.tables, 1)
    print(
        f"coinche server load: {args.tables} tables, level {args.level}, {args.profile} rules, "
        f"policy {args.policy}, think {args.think:g} s, {args.workers} bot workers, "
        f"bot delay {args.bot_delay:g} s, {elapsed:.0f} s measured"
    )
    print(
        f"  tables opened: {totals.tables} ({args.tables} at the start, in {open_seconds:.1f} s; "
        f"{totals.games} games finished, {totals.deals} deals dealt)"
    )
    print(
        f"  actions: {totals.actions} all seats = {totals.actions / elapsed:.0f}/s; "
        f"human moves {totals.human_actions} = {totals.human_actions / elapsed:.0f}/s"
    )
    if lat:
        print(
            f"  answer to a human move: p50 {percentile(lat, 0.5):.1f} ms, p95 {percentile(lat, 0.95):.1f} ms, "
            f"max {max(lat):.1f} ms, mean {statistics.fmean(lat):.1f} ms ({len(lat)} moves)"
        )
    if gaps:
        print(
            f"  a computer's move after its display pause: p50 {percentile(gaps, 0.5):.1f} ms, "
            f"p95 {percentile(gaps, 0.95):.1f} ms, max {max(gaps):.1f} ms ({len(gaps)} moves)"
        )
    if args.accuracy:
        waits = [x * 1000 for x in totals.accuracy_waits]
        if waits:
            print(
                f"  a deal's accuracy after its end: p50 {percentile(waits, 0.5):.0f} ms, "
                f"p95 {percentile(waits, 0.95):.0f} ms, max {max(waits):.0f} ms ({len(waits)} deals)"
            )
    if args.hint_storm:
        print(f"  hint storm ({args.hint_storm} connections, one every 100 ms each): {dict(totals.hints)}")
    print(
        f"  server process: RSS {rss_before / 1024:.1f} MiB before the tables, {rss_open / 1024:.1f} MiB "
        f"with them open, {rss_end / 1024:.1f} MiB at the end (peak {rss_peak / 1024:.1f} MiB): "
        f"{(rss_end - rss_before) / tables:.0f} KiB per table ({tables} tables); "
        f"{rss_idle / 1024:.1f} MiB once they were idle {args.idle_seconds * 1.5 + 1:g} s"
    )
    print(f"  helpers (bot workers, fork server...): {len(worker_pids)} processes, RSS {workers_rss / 1024:.1f} MiB")
    print(
        f"  CPU: server {cpu / elapsed:.0%} of a core, its helpers {worker_cpu / elapsed:.0%}, "
        f"this client {client_cpu / elapsed:.0%} ({os.cpu_count()} cores)"
    )
    errors = sum(totals.errors.values())
    print(f"  errors: {errors}" + (f" ({dict(totals.errors)})" if errors else ""))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=200, help="simultaneous tables (default 200)")
    ap.add_argument("--seconds", type=float, default=60.0, help="measured time (default 60)")
    ap.add_argument("--level", choices=["confirmed", "expert", "beginner", "adaptive"], default="confirmed")
    ap.add_argument("--profile", choices=list(TARGETS), default="classic")
    ap.add_argument("--policy", choices=["random", "first"], default="random", help="the humans' moves")
    ap.add_argument(
        "--think", type=float, default=0.0, help="seconds a human takes per move, on average (default 0: at once)"
    )
    ap.add_argument("--workers", type=int, default=2, help="the server's bot worker processes (default 2)")
    ap.add_argument(
        "--bot-delay", type=float, default=0.0, help="the server's pause before a computer's move (default 0; site 0.7)"
    )
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--hint-storm",
        type=int,
        default=0,
        metavar="N",
        help="N more connections on one more table, each asking for a hint every 100 ms (default 0)",
    )
    ap.add_argument("--accuracy", action="store_true", help="ask for each deal's accuracy from its end, and time it")
    ap.add_argument(
        "--idle-seconds", type=float, default=5.0, help="the server's --idle-seconds; memory is read again after it"
    )
    args = ap.parse_args()
    if not 1 <= args.tables <= 5000 or not 0 < args.seconds <= 3600 or not 1 <= args.workers <= 64:
        ap.error("--tables 1..5000, --seconds up to 3600, --workers 1..64")
    if not 0 <= args.bot_delay <= 10:
        ap.error("--bot-delay 0..10 seconds")
    with tempfile.TemporaryDirectory(prefix="coinche-bench-") as tmp:
        server = Server(Path(tmp), args.workers, args.bot_delay, args.idle_seconds)
        try:
            asyncio.run(run(args, server))
        finally:
            server.stop()
        log = (Path(tmp) / "server.log").read_text(errors="replace")
        if "Traceback" in log or "ERROR" in log:
            print("  server log:\n" + "\n".join(log.splitlines()[-40:]))


if __name__ == "__main__":
    main()
