"""A Swiss tournament under load (issue 30's targets): pairing a round of ``--pairs`` pairs
under 1 s, the standings page under 100 ms during play, a move's answer (p95) under 100 ms
while every table plays, on one server (SQLite by default) or on ``--servers 2`` sharing
one PostgreSQL database (``--postgres``).

1. **Pairing**, pure and in-process: ``--tournaments`` simulated Swiss tournaments of
   ``--pairs`` pairs (and of one pair fewer: a bye each round) over ``--rounds`` rounds,
   every table's deals scored at random (``tournament_scoring``): the time of
   ``first_round``, of ``standings`` (what the start of a round computes first) and of
   ``next_round`` on the standings and the games met after rounds 1..k.
2. **A live tournament** on ``coinche serve`` subprocesses (as ``bench_quick_play.py``):
   ``2 × --pairs`` accounts made straight in the database with a session each, a
   tournament made and entered pair by pair through ``TournamentStore`` (the site's own
   calls, on the same database), ``--earlier-rounds`` rounds of simulated results written
   as the runner would have written them (so the standings have something to rank and the
   server pairs the round it starts from real standings; 0: the round measured is round 1,
   from the start). Every person keeps their own socket open (``/ws/me``: online, so seated
   as a person), then the round is made due ``--lead`` seconds ahead (the start, or the
   end of the last round's break); the servers' runners start it; each person goes to the
   table their socket names and plays at a human pace (``--think`` seconds a move, 0.5 to
   1.5 times that) for ``--seconds``, while one client reads the live standings fragment
   (``/tournoi/{id}?part=standings``) every ``--standings-every`` seconds. It prints:

   - the seating: from the round's due moment to the runner starting it (the round's
     transaction: pairing, its tables named), to its first and last table made (read back
     from the database), to every person told their table, to every first table state;
   - a person's move -> the state that answers it on their own socket (p50, p95, max), and
     -> its state on all four sockets of the table; the moves slower than 100 ms by 10 s
     of the run (a burst every 30 s: the people's sockets' heartbeats, all opened at once);
   - the standings fragment's time (median, p95, max);
   - the servers' CPU over the measured time, and the errors.

    python bench/bench_tournament.py [--pairs 256] [--seconds 90] [--servers 1|2] [--postgres]
    python bench/bench_tournament.py --quick                # a small smoke run
    python bench/bench_tournament.py --pairing-only         # part 1 alone
    python bench/bench_tournament.py --live-only --standings-every 0   # no standings reads
    python bench/bench_tournament.py --live-only --profile /tmp/server.prof  # the first server under cProfile

Only 127.0.0.1 is contacted; every wait has a timeout. The client shares the machine's
cores with the servers: its own latency is in the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import pstats
import random
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from bench_friends import PROFILED, choose
from bench_server import Server, answers, as_state, cpu_seconds, http_request, percentile
from coinche.server.table.tournament_pairing import BYE, Pairing, first_round, next_round
from coinche.server.table.tournament_scoring import DealScore, TableResult, met, standings
from databases import add_database_args, database_url

SESSION_DAYS = 1
TIMEOUT = 60.0
HOST = "127.0.0.1"
SLOW = 0.1
"""A move answered later than this is counted by the 10 s of the run it came in."""


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def spread(values: Sequence[float]) -> str:
    """p50, p95 and max of times in seconds."""
    if not values:
        return "none"
    return (
        f"p50 {ms(statistics.median(values))}, p95 {ms(percentile(list(values), 0.95))}, "
        f"max {ms(max(values))} ({len(values)})"
    )


# ----- 1. pairing, pure -----


def deal_points(rng: random.Random) -> DealScore:
    """A deal's points as a table may score them: a contract made or down, a few deals all
    passed (0 to each side), by tens as the game counts them."""
    if rng.random() < 0.05:
        return (0, 0)
    contract = rng.randrange(80, 170, 10)
    cards = rng.randrange(82, 163, 10)
    taker = (contract + cards, 160 - cards) if rng.random() < 0.65 else (0, 160 + contract)
    return taker if rng.random() < 0.5 else (taker[1], taker[0])


def play_round(number: int, pairing: Sequence[Pairing], deals: int, rng: random.Random) -> list[TableResult]:
    return [TableResult(number, ns, ew, tuple(deal_points(rng) for _ in range(deals))) for ns, ew in pairing]


@dataclass
class PairingTimes:
    first: list[float] = field(default_factory=list)
    standings: list[float] = field(default_factory=list)
    next: list[tuple[int, float]] = field(default_factory=list)
    """(round, seconds) of each ``next_round``."""
    ranked: list[tuple[int, float]] = field(default_factory=list)
    """(round, seconds) of the ``standings`` before it."""


def simulate(
    pairs: Sequence[str], rounds: int, deals: int, rng: random.Random, times: PairingTimes | None = None
) -> tuple[list[list[Pairing]], list[TableResult]]:
    """A Swiss tournament of ``pairs`` played over ``rounds`` with random results: each
    round's pairing (timed into ``times``) and every table's result."""
    start = time.perf_counter()
    pairing = first_round(pairs, rng.getrandbits(63))
    if times is not None:
        times.first.append(time.perf_counter() - start)
    out = [pairing]
    results = play_round(1, pairing, deals, rng)
    for number in range(2, rounds + 1):
        start = time.perf_counter()
        field_now = standings(pairs, results)
        ranked_at = time.perf_counter()
        pairing = next_round(field_now, met(results))
        done = time.perf_counter()
        if times is not None:
            times.standings.append(ranked_at - start)
            times.ranked.append((number, ranked_at - start))
            times.next.append((number, done - ranked_at))
        out.append(pairing)
        results += play_round(number, pairing, deals, rng)
    return out, results


def entry_ids(n: int, rng: random.Random) -> list[str]:
    """Ids like ``store.new_id``'s (16 characters)."""
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
    return ["".join(rng.choice(alphabet) for _ in range(16)) for _ in range(n)]


def pairing_bench(args: argparse.Namespace) -> None:
    print(f"pairing (pure, in-process): {args.tournaments} tournaments of {args.rounds} rounds, {args.deals} deals")
    for pairs in (args.pairs, args.pairs - 1):
        times = PairingTimes()
        for t in range(args.tournaments):
            rng = random.Random(args.seed * 1000 + t)
            ids = entry_ids(pairs, rng)
            simulate(ids, min(args.rounds, pairs // 2), args.deals, rng, times)
        nexts = [s for _, s in times.next]
        worst_round, worst = max(times.next, key=lambda x: x[1])
        print(
            f"  {pairs} pairs{' (a bye each round)' if pairs % 2 else ''}: first_round median "
            f"{ms(statistics.median(times.first))}; standings median {ms(statistics.median(times.standings))}, "
            f"max {ms(max(times.standings))}; next_round median {ms(statistics.median(nexts))}, "
            f"max {ms(worst)} (round {worst_round}); {len(nexts)} rounds paired"
        )
        for label, timed in (("next_round", times.next), ("standings after the rounds before", times.ranked)):
            by_round: dict[int, list[float]] = {}
            for number, s in timed:
                by_round.setdefault(number, []).append(s)
            line = ", ".join(f"r{n} {statistics.median(v) * 1000:.1f}" for n, v in sorted(by_round.items()))
            print(f"    {label}, median by round (ms): {line}")


# ----- 2. the live tournament: its setup in the database -----


@dataclass
class Setup:
    tournament: str
    people: list[tuple[str, str]]
    """(player, session token), two by two: a pair's first and second."""
    entries: dict[str, str]
    """Each player's entry (pair)."""
    round_seconds: float


def make_tournament(url: str, args: argparse.Namespace) -> Setup:
    """The accounts, the tournament (its start an hour away), the pairs entered and
    accepted, and the earlier rounds' tables with their results."""
    from coinche.server.features.accounts import AccountStore
    from coinche.server.features.tournaments.model import Plan
    from coinche.server.features.tournaments.rows import TournamentTableRow
    from coinche.server.features.tournaments.store import TournamentStore
    from coinche.server.infra.store import Store, new_id
    from coinche.server.table.spec import Seat

    store = Store(url)
    try:
        accounts = AccountStore(store)
        people = []
        for i in range(2 * args.pairs):
            account = accounts.create(f"Tournoi{i:05d}x", None, "not a hash: never logged in", new_id(12))
            people.append((account.player, accounts.open_session(account.id, SESSION_DAYS)))
        tournaments = TournamentStore(store)
        now = datetime.now(UTC)
        plan = Plan(
            name="Banc d'essai",
            profile="classic",
            format="swiss",
            rounds=min(12, args.earlier_rounds + 2),
            deals=args.deals,
            minutes_per_deal=15.0,
            starts_at=now + timedelta(hours=1),
            opens_at=now,
            alone=False,
            break_seconds=10,
        )
        tournament = tournaments.create(plan, people[0][0], now)
        entries: dict[str, str] = {}
        for i in range(0, len(people), 2):
            first, second = people[i][0], people[i + 1][0]
            entry = tournaments.enter(tournament.id, first, second, None, now)
            tournaments.answer(tournament.id, second, True, now)
            entries[first] = entries[second] = entry.id
        if args.earlier_rounds:
            by_entry: dict[str, list[str]] = {}
            for player, entry_id in entries.items():
                by_entry.setdefault(entry_id, []).append(player)
            ids = sorted(by_entry)
            rounds, results = simulate(ids, args.earlier_rounds, args.deals, random.Random(args.seed))
            by_round: dict[int, list[TableResult]] = {}
            for result in results:
                by_round.setdefault(result.round, []).append(result)
            with store.session() as s, s.begin():
                for number, pairing in enumerate(rounds, start=1):
                    at = now - timedelta(minutes=60 - number)
                    for i, (result, (ns, ew)) in enumerate(zip(by_round[number], pairing, strict=True), start=1):
                        a, b = by_entry[ns]
                        c, d = by_entry[ew] if ew is not BYE else (None, None)
                        seats = [
                            Seat("human", player=p) if p is not None else Seat("bot", level="confirmed")
                            for p in (a, c, b, d)
                        ]
                        s.add(
                            TournamentTableRow(
                                table_id=new_id(),
                                tournament_id=tournament.id,
                                round=number,
                                number=i,
                                ns_entry=ns,
                                ew_entry=ew,
                                seats=[seat.to_json() for seat in seats],
                                claimed_at=at,
                                result={
                                    "deals": [list(d) if d is not None else None for d in result.deals],
                                    "complete": True,
                                    "at": at.isoformat(),
                                },
                            )
                        )
        return Setup(tournament.id, people, entries, args.deals * 15.0 * 60)
    finally:
        store.close()


def make_due(url: str, tournament_id: str, earlier: int, lead: float) -> datetime:
    """The round to measure is due ``lead`` seconds from now: the start (no earlier rounds),
    else the end of the break after round ``earlier``. The due moment."""
    from sqlalchemy import update

    from coinche.server.features.tournaments.rows import TournamentRow
    from coinche.server.infra.store import Store

    store = Store(url)
    due = datetime.now(UTC) + timedelta(seconds=lead)
    try:
        with store.engine.begin() as conn:
            if earlier == 0:
                values: dict[str, Any] = {"starts_at": due}
            else:
                break_seconds = (
                    conn.execute(TournamentRow.__table__.select().where(TournamentRow.id == tournament_id))
                    .one()
                    ._mapping["break_seconds"]
                )
                closed = due - timedelta(seconds=break_seconds)
                values = {
                    "state": "running",
                    "round": earlier,
                    "starts_at": closed - timedelta(hours=earlier),
                    "round_ends_at": closed,
                    "round_closed_at": closed,
                }
            conn.execute(update(TournamentRow).where(TournamentRow.id == tournament_id).values(**values))
    finally:
        store.close()
    return due


@dataclass
class Seating:
    started: datetime | None
    first_made: datetime | None
    last_made: datetime | None
    tables: int
    made: int
    human_seats: int


def read_seating(url: str, tournament_id: str, number: int, round_seconds: float) -> Seating:
    """When the runner started round ``number`` (its clock's start), when its first and
    last tables were made, how many, and how many seats people hold."""
    from sqlalchemy import func, select

    from coinche.server.features.tournaments.rows import TournamentRow, TournamentTableRow
    from coinche.server.infra.db import aware
    from coinche.server.infra.rows.tables import TableRow
    from coinche.server.infra.store import Store

    store = Store(url)
    try:
        with store.session() as s:
            row = s.get(TournamentRow, tournament_id)
            started = None
            if row is not None and row.round == number and row.round_ends_at is not None:
                started = aware(row.round_ends_at) - timedelta(seconds=round_seconds)
            named = s.execute(
                select(TournamentTableRow.table_id, TournamentTableRow.seats).where(
                    TournamentTableRow.tournament_id == tournament_id, TournamentTableRow.round == number
                )
            ).all()
            ids = [t for t, _ in named]
            first, last, made = s.execute(
                select(func.min(TableRow.created_at), func.max(TableRow.created_at), func.count()).where(
                    TableRow.id.in_(ids)
                )
            ).one()
            humans = sum(1 for _, seats in named for seat in seats if seat.get("kind") == "human")
            return Seating(
                started,
                None if first is None else aware(first),
                None if last is None else aware(last),
                len(ids),
                made,
                humans,
            )
    finally:
        store.close()


# ----- 2. the live tournament: the people -----


@dataclass
class Live:
    connected: int = 0
    told: list[float] = field(default_factory=list)
    """Wall-clock moments each person's socket named their table."""
    first_state: list[float] = field(default_factory=list)
    own: list[float] = field(default_factory=list)
    """A move -> the state answering it on the mover's socket."""
    slow: list[float] = field(default_factory=list)
    """When (monotonic) each move answered in more than ``SLOW`` came."""
    four: list[float] = field(default_factory=list)
    """A move -> its state on the sockets of all the table's people."""
    page: list[float] = field(default_factory=list)
    page_lines: int = 0
    deals: int = 0
    moves_all: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    measuring: bool = False
    all_connected: asyncio.Event = field(default_factory=asyncio.Event)
    go: asyncio.Event = field(default_factory=asyncio.Event)
    """Every person is at their table (or the wait for it timed out): the measure starts."""
    deadline: float = float("inf")


@dataclass
class Shared:
    """What the four sockets of one table share: when a move was sent (by the seq its step
    will have) and how many sockets have seen that step."""

    people: int
    """The sockets that see each step: the table's people."""
    sent: dict[int, float] = field(default_factory=dict)
    seen: Counter[int] = field(default_factory=Counter)


SHARED: dict[str, Shared] = {}


async def table_message(ws: ClientConnection, timeout: float) -> dict[str, Any]:
    """The table's next state (a ``step`` applied) or error; other messages skipped."""
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        if message.get("type") in ("state", "step", "error"):
            return as_state(ws, message)


async def play(
    ws: ClientConnection, table_id: str, state: dict[str, Any], rng: random.Random, think: float, live: Live
) -> None:
    """One seat until the deadline: its moves after a human's pause; the first human seat
    deals the next deal a second after each one."""
    people = sum(1 for seat in state["table"]["seats"] if seat.get("kind") == "human")
    shared = SHARED.setdefault(table_id, Shared(people))
    pending: dict[str, Any] | None = None
    sent_at = 0.0
    latest = state
    dealt: set[int] = set()
    while True:
        arrived = time.perf_counter()
        if state.get("type") == "error":
            live.errors[f"error {state.get('code')}"] += 1
            pending = None
            state = latest
        else:
            latest = state
            seq = state["seq"]
            shared.seen[seq] += 1
            if shared.seen[seq] == shared.people and seq in shared.sent:
                sent = shared.sent.pop(seq)
                if live.measuring:
                    live.four.append(arrived - sent)
            me = state["table"]["you"]
            if pending is not None and answers(state, me, pending):
                if live.measuring:
                    live.own.append(arrived - sent_at)
                    if arrived - sent_at > SLOW:
                        live.slow.append(time.monotonic())
                pending = None
            game = state["game"]
            if game is None or game["winner"] is not None:
                pending = None
        game = state["game"]
        me = state["table"]["you"]
        wait_for = max(0.0, live.deadline - time.monotonic())
        if game is not None and game["winner"] is None and pending is None and wait_for > 0:
            deal = game["deal"]
            first_person = min(i for i, seat in enumerate(state["table"]["seats"]) if seat.get("kind") == "human")
            if state["awaiting_next_deal"]:
                if me == first_person and state["seq"] not in dealt:
                    dealt.add(state["seq"])
                    await asyncio.sleep(min(1.0, wait_for))
                    await ws.send(json.dumps({"type": "next_deal", "id": f"d{state['seq']}"}))
                    if live.measuring:
                        live.deals += 1
            elif deal["to_move"] == me and deal["legal_actions"]:
                await asyncio.sleep(min(rng.uniform(0.5, 1.5) * think, wait_for))
                if time.monotonic() < live.deadline:
                    pending = choose(deal["legal_actions"], rng)
                    sent_at = time.perf_counter()
                    shared.sent[state["seq"] + 1] = sent_at
                    if live.measuring:
                        live.moves_all += 1
                    await ws.send(json.dumps({"type": "action", "id": f"a{state['seq']}", "action": pending}))
        remaining = live.deadline - time.monotonic()
        if remaining <= 0:
            return
        try:
            state = await table_message(ws, min(remaining, 45.0) + 0.01)
        except TimeoutError:
            if live.deadline - time.monotonic() > 0:
                live.errors["no table message for 45 s"] += 1
            return


async def person(
    n: int, port: int, token: str, args: argparse.Namespace, live: Live, ready: list[int], total: int
) -> None:
    """One person: their own socket (online), told their table there, then plays at it."""
    cookie = f"sid={token}"
    rng = random.Random(args.seed * 100_003 + n)
    counted = False
    try:
        async with connect(
            f"ws://{HOST}:{port}/ws/me", additional_headers={"Cookie": cookie}, open_timeout=TIMEOUT
        ) as me:
            table = None
            while table is None:
                wait = TIMEOUT if not counted else args.lead + TIMEOUT * 2
                message = json.loads(await asyncio.wait_for(me.recv(), wait))
                if message.get("type") != "tournament":
                    continue
                if not counted:
                    counted = True
                    ready[0] += 1
                    if ready[0] == total:
                        live.all_connected.set()
                table = message.get("table")
            live.told.append(time.time())
            table_id = str(table).removeprefix("/table/")

            async def drain() -> None:  # the person's page keeps its socket: read what it says
                with contextlib.suppress(ConnectionClosed):
                    async for _ in me:
                        pass

            reader = asyncio.create_task(drain())
            try:
                async with connect(
                    f"ws://{HOST}:{port}/ws/table/{table_id}",
                    additional_headers={"Cookie": cookie},
                    open_timeout=TIMEOUT,
                    max_size=1 << 21,
                ) as ws:
                    state = await table_message(ws, TIMEOUT)
                    live.first_state.append(time.time())
                    if len(live.first_state) == total:
                        live.go.set()
                    await play(ws, table_id, state, rng, args.think, live)
            finally:
                reader.cancel()
                await asyncio.gather(reader, return_exceptions=True)
    except (TimeoutError, OSError, ConnectionClosed, InvalidHandshake, KeyError, ValueError) as e:
        live.errors[type(e).__name__] += 1
    finally:
        if not counted:
            ready[0] += 1
            if ready[0] == total:
                live.all_connected.set()


async def read_standings(ports: list[int], tournament_id: str, every: float, live: Live) -> None:
    """The live standings fragment, as a page open on it reads it again on each change."""
    await live.go.wait()
    if every <= 0:
        return
    i = 0
    while time.monotonic() < live.deadline:
        port = ports[i % len(ports)]
        i += 1
        start = time.perf_counter()
        try:
            status, _, body = await http_request(
                port, "GET", f"/tournoi/{tournament_id}?part=standings", want_body=True
            )
        except (TimeoutError, OSError) as e:
            live.errors[f"standings {type(e).__name__}"] += 1
            continue
        took = time.perf_counter() - start
        if status != 200:
            live.errors[f"standings {status}"] += 1
        elif live.measuring:
            live.page.append(took)
            live.page_lines = body.count("<tr") - 1
        await asyncio.sleep(max(0.0, every - took))


async def live_bench(args: argparse.Namespace) -> None:
    with database_url(args) as url, tempfile.TemporaryDirectory(prefix="coinche-bench-") as folder:
        if args.servers > 1 and url.startswith("sqlite"):
            raise SystemExit("several servers share a PostgreSQL database: add --postgres")
        profiling = ("-c", PROFILED.format(path=str(args.profile.resolve()))) if args.profile else ()
        servers = [
            Server(
                Path(folder),
                args.workers,
                0.7,
                300.0,
                profiling if i == 0 else (),
                database_url=url,
                log_name=f"server{i}.log",
            )
            for i in range(args.servers)
        ]
        try:
            for server in servers:
                await server.wait_ready()
            t0 = time.monotonic()
            setup = make_tournament(url, args)
            people = len(setup.people)
            print(
                f"live: {args.pairs} pairs ({people} people), {args.servers} server(s) on "
                f"{'SQLite' if url.startswith('sqlite') else 'PostgreSQL'}, round {args.earlier_rounds + 1} "
                f"({args.earlier_rounds} earlier rounds of results), {args.deals} deals a round, think "
                f"{args.think:g} s; set up in {time.monotonic() - t0:.1f} s"
            )
            live = Live()
            ready = [0]
            ports = [s.port for s in servers]
            tasks = [
                asyncio.create_task(person(i, ports[i % len(ports)], token, args, live, ready, people))
                for i, (_, token) in enumerate(setup.people)
            ]
            standings_task = asyncio.create_task(read_standings(ports, setup.tournament, args.standings_every, live))
            connecting = time.monotonic()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(live.all_connected.wait(), TIMEOUT * 2)
            print(f"  people's sockets open: {ready[0]} in {time.monotonic() - connecting:.1f} s")
            due = make_due(url, setup.tournament, args.earlier_rounds, args.lead)
            due_ts = due.timestamp()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(live.go.wait(), args.lead + TIMEOUT * 2)
            live.go.set()
            seated_at = time.time()
            cpu_before = [cpu_seconds(s.proc.pid) for s in servers]
            load_before = os.getloadavg()[0]
            measure_start = time.monotonic()
            live.deadline = measure_start + args.seconds
            live.measuring = True
            await asyncio.sleep(max(0.0, live.deadline - time.monotonic()))
            live.measuring = False
            elapsed = time.monotonic() - measure_start
            cpu = [cpu_seconds(s.proc.pid) - b for s, b in zip(servers, cpu_before, strict=True)]
            _, pending = await asyncio.wait([*tasks, standings_task], timeout=60)
            for task in pending:
                task.cancel()
                live.errors["still running at the end"] += 1
            await asyncio.gather(*pending, return_exceptions=True)
            seating = read_seating(url, setup.tournament, args.earlier_rounds + 1, setup.round_seconds)

            def after(moment: float | None) -> str:
                return "-" if moment is None else f"{moment - due_ts:+.2f} s"

            print(
                f"  seating round {args.earlier_rounds + 1} ({seating.tables} tables named, {seating.made} made, "
                f"{seating.human_seats} seats held by people), from the moment it was due: started (paired, "
                f"named) {after(seating.started.timestamp() if seating.started else None)}, first table made "
                f"{after(seating.first_made.timestamp() if seating.first_made else None)}, last "
                f"{after(seating.last_made.timestamp() if seating.last_made else None)}"
            )
            if seating.started and seating.first_made and seating.last_made:
                print(
                    f"    the round's transaction and first table: "
                    f"{(seating.first_made - seating.started).total_seconds():.2f} s; making the tables: "
                    f"{(seating.last_made - seating.first_made).total_seconds():.2f} s"
                )
            if live.told:
                told = sorted(t - due_ts for t in live.told)
                print(
                    f"    people told their table ({len(told)}): first {told[0]:+.2f} s, median "
                    f"{statistics.median(told):+.2f} s, last {told[-1]:+.2f} s"
                )
            if live.first_state:
                print(
                    f"    first table state ({len(live.first_state)}): last {max(live.first_state) - due_ts:+.2f} s "
                    f"(measuring from {seated_at - due_ts:+.2f} s)"
                )
            print(
                f"  {elapsed:.0f} s measured: {live.moves_all} moves sent ({live.moves_all / elapsed:.0f}/s), "
                f"{live.deals} next deals"
            )
            print(f"  move -> its state on the mover's socket: {spread(live.own)}")
            print(f"  move -> its state on all four sockets:   {spread(live.four)}")
            buckets = Counter(int((moment - measure_start) // 10) for moment in live.slow)
            print(
                f"    moves answered after {SLOW * 1000:.0f} ms, by 10 s of the run: "
                + " ".join(str(buckets.get(i, 0)) for i in range(int(elapsed // 10) + 1))
            )
            print(f"  standings fragment ({live.page_lines} lines): {spread(live.page)}")
            print(
                "  servers' CPU: "
                + ", ".join(f"{c / elapsed:.0%}" for c in cpu)
                + f" of a core; the machine's load average {load_before:.1f} at the start, "
                f"{os.getloadavg()[0]:.1f} at the end ({os.cpu_count()} cores, this client's included)"
            )
            print(f"  errors: {dict(live.errors) or 'none'}")
        finally:
            for server in servers:
                server.stop()
        for i in range(args.servers):
            log = (Path(folder) / f"server{i}.log").read_text(errors="replace")
            if "Traceback" in log or "ERROR" in log:
                print(f"  server{i} log (end):\n" + "\n".join(log.splitlines()[-30:]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=256, help="pairs (two people each; default 256)")
    parser.add_argument("--seconds", type=float, default=90.0, help="measured play (default 90)")
    parser.add_argument("--servers", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="bot processes per server")
    parser.add_argument("--think", type=float, default=2.0, help="a person's seconds a move, on average (default 2)")
    parser.add_argument("--deals", type=int, default=12, help="deals a round (default 12)")
    parser.add_argument("--earlier-rounds", type=int, default=3, help="rounds of results before the one played")
    parser.add_argument("--lead", type=float, default=3.0, help="the round is due this many seconds ahead")
    parser.add_argument("--standings-every", type=float, default=0.5, help="seconds between standings reads (0: none)")
    parser.add_argument("--profile", type=Path, help="run the first server under cProfile, its profile written here")
    parser.add_argument("--rounds", type=int, default=12, help="pairing: rounds of each simulated tournament")
    parser.add_argument("--tournaments", type=int, default=5, help="pairing: simulated tournaments")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="a smoke run: 16 pairs, 20 s, 4 deals")
    parser.add_argument("--pairing-only", action="store_true", help="part 1 alone")
    parser.add_argument("--live-only", action="store_true", help="part 2 alone")
    add_database_args(parser)
    args = parser.parse_args()
    if args.quick:
        args.pairs, args.seconds, args.deals, args.tournaments = 16, 20.0, 4, 2
        args.earlier_rounds = min(args.earlier_rounds, 2)
    if not 2 <= args.pairs <= 2000 or not 0 <= args.earlier_rounds <= 10 or args.earlier_rounds >= args.pairs // 2:
        parser.error("--pairs 2..2000, --earlier-rounds 0..10 and below pairs // 2")
    if not args.live_only:
        pairing_bench(args)
    if not args.pairing_only:
        asyncio.run(live_bench(args))
        if args.profile is not None and args.profile.exists():
            print(f"  where the first server's event loop spent its time (cProfile, {args.profile}):")
            pstats.Stats(str(args.profile)).sort_stats("tottime").print_stats(30)


if __name__ == "__main__":
    main()
