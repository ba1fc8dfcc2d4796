"""Load on one server through the bot API: many bots, each at its own table against the
computers, all playing at once (issue 31: 200 bots at 200 tables, move p95 under 100 ms).

Starts ``coinche serve`` on a free loopback port with a temporary SQLite file
(``--postgres``: a PostgreSQL cluster of its own), the computers' display pause as on the
site (``--bot-delay``); makes ``--bots`` bot accounts and tokens in its database; then
each bot opens its event stream and starts a game against ``--level`` computers
(``POST /api/bot/games``), plays its first legal action ``--think`` seconds after each
turn, asks for the next deal after each one, and starts another game when one ends, for
``--seconds``. One asyncio client speaks HTTP/1.1 itself (a stream and a kept-alive
connection per bot). It prints:

- actions per second (the bots', all tables);
- the round trip of an action's POST (p50, p95, max): the move; over the whole run, and
  after the first ``--warm-up`` seconds (all the bots arrive in the same instant, a
  restart's reconnection: their streams, games and tables are opened together);
- the time from a move's answer to the bot's next turn on its stream (p50, p95), which
  holds the three computers' moves;
- the server process's CPU (its bot workers left out): the part of a core, and per action
  of a bot (the computers' three moves of each turn included);
- errors: refused actions, broken streams, timeouts.

    python bench/bench_bot_api.py [--bots 200] [--seconds 60] [--think 0] [--level beginner]
        [--bot-delay 0.7] [--workers 2] [--postgres]

``--bot-delay 0 --think 0`` plays every move at once: the server's saturation.

Only 127.0.0.1 is contacted; every wait has a timeout and every loop ends by the deadline.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench_server import HOST, Server, cpu_seconds, percentile
from coinche.server.features.accounts import AccountStore
from coinche.server.features.bots import BotStore
from coinche.server.infra.store import Store, new_id
from databases import add_database_args, database_url

IDLE_SECONDS = 300.0
"""Tables unused this long leave the server's memory (the site's setting)."""


def make_bots(url: str, count: int) -> list[str]:
    """``count`` bots of a few owners, and a token each."""
    store = Store(url)
    try:
        accounts, bots = AccountStore(store), BotStore(store)
        tokens = []
        owners = [accounts.create(f"Owner{i}", None, "!", new_id(12)) for i in range((count + 4) // 5)]
        for i in range(count):
            owner = owners[i // 5]
            bot = bots.create(owner, f"Bot{i}")
            tokens.append(bots.new_token(owner.id, bot.id, datetime.now(UTC)))
        return tokens
    finally:
        store.close()


@dataclass
class Figures:
    moves: list[float] = field(default_factory=list)
    moved_at: list[float] = field(default_factory=list)
    """When each move was answered (``time.monotonic``)."""
    turns: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    games: int = 0


class Connection:
    """One kept-alive HTTP/1.1 connection for a bot's POSTs."""

    def __init__(self, port: int, token: str) -> None:
        self.port = port
        self.token = token
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def post(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
        assert self.reader is not None
        data = json.dumps(body).encode()
        head = (
            f"POST {path} HTTP/1.1\r\nHost: {HOST}\r\nAuthorization: Bearer {self.token}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n"
        )
        self.writer.write(head.encode() + data)
        status_line = await self.reader.readline()
        status = int(status_line.split()[1])
        length = 0
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        answer = json.loads(await self.reader.readexactly(length)) if length else {}
        return status, answer

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def stream_lines(port: int, token: str) -> Any:
    """The stream's events, one by one (chunked transfer decoded)."""
    reader, writer = await asyncio.open_connection(HOST, port)
    writer.write(f"GET /api/bot/stream HTTP/1.1\r\nHost: {HOST}\r\nAuthorization: Bearer {token}\r\n\r\n".encode())
    try:
        status = int((await reader.readline()).split()[1])
        if status != 200:
            raise RuntimeError(f"stream refused: {status}")
        while (await reader.readline()) not in (b"\r\n", b""):
            pass
        buffer = b""
        while True:
            size = int((await reader.readline()).strip() or b"0", 16)
            if size == 0:
                return
            buffer += await reader.readexactly(size)
            await reader.readexactly(2)
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                yield json.loads(line)
    finally:
        writer.close()


async def play(port: int, token: str, deadline: float, think: float, level: str, figures: Figures) -> None:
    posts = Connection(port, token)
    clock = time.perf_counter
    answered: dict[str, float] = {}
    try:
        events = stream_lines(port, token)
        async for event in events:
            kind = event["type"]
            if time.monotonic() > deadline:
                break
            if kind == "hello":
                status, _ = await posts.post("/api/bot/games", {"level": level, "target": 1000})
                if status != 200:
                    figures.errors[f"game {status}"] += 1
            elif kind == "turn":
                table = event["table"]
                if table in answered:
                    figures.turns.append(clock() - answered.pop(table))
                if think:
                    await asyncio.sleep(think)
                body = {"id": f"{table}:{event['step']}", "action": event["view"]["legal_actions"][0]}
                t0 = clock()
                status, answer = await posts.post(f"/api/bot/tables/{table}/action", body)
                figures.moves.append(clock() - t0)
                figures.moved_at.append(time.monotonic())
                answered[table] = clock()
                if status != 200:
                    figures.errors[f"action {status} {answer.get('error')}"] += 1
            elif kind == "deal_wait":
                answered.pop(event["table"], None)
                await posts.post(f"/api/bot/tables/{event['table']}/next-deal", {"id": f"n{event['step']}"})
            elif kind == "game_over":
                figures.games += 1
                answered.pop(event["table"], None)
                await posts.post("/api/bot/games", {"level": level, "target": 1000})
    except (OSError, RuntimeError, asyncio.IncompleteReadError, ValueError) as e:
        figures.errors[f"stream: {type(e).__name__}"] += 1
    finally:
        posts.close()


async def run(port: int, tokens: list[str], seconds: float, think: float, level: str) -> Figures:
    figures = Figures()
    deadline = time.monotonic() + seconds
    tasks = [asyncio.create_task(play(port, t, deadline, think, level, figures)) for t in tokens]
    await asyncio.wait(tasks, timeout=seconds + 30)
    for task in tasks:
        task.cancel()
    with contextlib.suppress(BaseException):
        await asyncio.gather(*tasks, return_exceptions=True)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bots", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--think", type=float, default=0.0)
    parser.add_argument("--level", default="beginner")
    parser.add_argument("--warm-up", type=float, default=10.0, help="seconds left out of the second figure")
    add_database_args(parser)
    parser.add_argument("--bot-delay", type=float, default=0.7, help="the computers' display pause (the site's)")
    parser.add_argument("--workers", type=int, default=2, help="the server's bot processes (the site's default)")
    args = parser.parse_args()
    with database_url(args) as url, tempfile.TemporaryDirectory() as workdir:
        server = Server(Path(workdir), args.workers, args.bot_delay, IDLE_SECONDS, database_url=url)
        try:
            asyncio.run(server.wait_ready())
            tokens = make_bots(url, args.bots)
            cpu_start = cpu_seconds(server.proc.pid)
            started = time.monotonic()
            figures = asyncio.run(run(server.port, tokens, args.seconds, args.think, args.level))
            elapsed = time.monotonic() - started
            cpu = cpu_seconds(server.proc.pid) - cpu_start
        finally:
            server.stop()
    ms = 1000.0
    moves, turns = figures.moves, figures.turns
    print(
        f"{args.bots} bots against {args.level} computers, {args.seconds:.0f} s, think {args.think} s, "
        f"computers' pause {args.bot_delay} s, {args.workers} bot processes"
    )
    print(f"  actions: {len(moves)} ({len(moves) / elapsed:.0f}/s), games finished: {figures.games}")
    if moves:
        print(
            f"  action POST round trip: p50 {statistics.median(moves) * ms:.1f} ms, "
            f"p95 {percentile(moves, 0.95) * ms:.1f} ms, max {max(moves) * ms:.1f} ms"
        )
    later = [m for m, at in zip(moves, figures.moved_at, strict=True) if at - started >= args.warm_up]
    if later:
        print(
            f"  ...after the first {args.warm_up:.0f} s:  p50 {statistics.median(later) * ms:.1f} ms, "
            f"p95 {percentile(later, 0.95) * ms:.1f} ms, max {max(later) * ms:.1f} ms ({len(later)} actions)"
        )
    if turns:
        print(
            f"  answer to next turn:    p50 {statistics.median(turns) * ms:.1f} ms, "
            f"p95 {percentile(turns, 0.95) * ms:.1f} ms"
        )
    per_action = f", {cpu / len(moves) * ms:.2f} ms a bot's action" if moves else ""
    print(f"  server CPU: {cpu / elapsed:.0%} of a core{per_action}")
    print(f"  errors: {dict(figures.errors) or 'none'}")


if __name__ == "__main__":
    main()
