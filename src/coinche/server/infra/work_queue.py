"""The work queue: the computers' turns and the jobs handed to worker processes, through
PostgreSQL alone (the PostgreSQL ``Backend`` makes it; SQLite has none: its one process
computes everything itself).

A server whose database has a live worker (a heartbeat in ``workers`` younger than
``ALIVE_SECONDS``) does not compute a computer's move itself: it inserts the turn in
``bot_turns`` (once, whoever else watches the table) and wakes the workers with a
``NOTIFY`` on ``coinche_turns``. A worker claims a turn with ``SELECT … FOR UPDATE SKIP
LOCKED`` and a lease (``claimed_until``) that its heartbeat renews while it thinks: a worker
killed mid-decision stops renewing it, and the turn is claimed again once the lease is over.
The step is stored through the table service's one write path, so a late answer for a step
already taken is dropped (the log's primary key ``(table_id, seq)`` makes sure of it).

Hints and analyses (request and answer) go the same way as ``bot_jobs``: the server
inserts the job's kind and its JSON arguments (``jobs.py``: data, never code), a worker
claims it (``SKIP LOCKED``, a lease), computes it in its pool and writes the JSON answer,
which the server reads (and deletes); a server that gets no answer within
``Settings.worker_wait`` (or a refusal) computes it itself.

Every method is one short blocking transaction on the store's engine (run on the service's
database threads); the times are the database's clock, so machines need not agree on
theirs.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import psycopg
from sqlalchemy import Engine, text

from .postgres_hub import libpq_url

log = logging.getLogger("coinche.worker")

MAX_TEXT = 64 * 1024 * 1024
"""The longest arguments or answer a job may have, in characters of JSON (a challenge day
of a million results fits)."""


class TooLong(Exception):
    """A stored answer longer than ``MAX_TEXT``: never read into memory."""


CHANNEL = "coinche_turns"
"""The channel a server notifies when it hands a turn to the workers."""

ALIVE_SECONDS = 10.0
"""A worker whose last heartbeat is older than this is taken for dead."""


@dataclass(frozen=True)
class Turn:
    """A claimed turn: the table, the step the move must be, the seat that moves, and when
    the move may be stored (the display pause)."""

    table_id: str
    seq: int
    seat: int
    wait: float
    """Seconds from the claim until the move may be stored (0 or less: at once)."""


@dataclass(frozen=True)
class Job:
    """A claimed hint or analysis: its id, priority, kind and JSON arguments, as stored
    (anyone who can write the row chose them: ``jobs.py`` checks them)."""

    id: str
    priority: int
    kind: str
    arguments: str | None
    """None when longer than ``MAX_TEXT`` (never read into memory then)."""


class TurnQueue:
    """The ``bot_turns``, ``bot_jobs`` and ``workers`` tables of one PostgreSQL database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # ----- servers -----

    def workers_alive(self, within: float = ALIVE_SECONDS) -> int:
        """How many workers gave a heartbeat in the last ``within`` seconds."""
        with self.engine.begin() as conn:
            count = conn.scalar(
                text("SELECT count(*) FROM workers WHERE last_seen > now() - make_interval(secs => :s)"),
                {"s": within},
            )
            return int(count or 0)

    def backlog(self) -> dict[str, tuple[int, float]]:
        """Each queue (``turns``, ``jobs``): how many entries are not done yet, and the age
        in seconds of the oldest (0 when none): whether the workers keep up."""
        age = "coalesce(extract(epoch FROM now() - min(created_at)), 0)"
        with self.engine.begin() as conn:
            rows = conn.execute(
                text(
                    f"SELECT 'turns', count(*), {age} FROM bot_turns WHERE done_at IS NULL"
                    f" UNION ALL SELECT 'jobs', count(*), {age} FROM bot_jobs WHERE done_at IS NULL"
                )
            ).all()
        return {str(name): (int(count), float(oldest)) for name, count, oldest in rows}

    def hand_over(self, table_id: str, seq: int, seat: int, pause: float) -> bool:
        """Queue the turn at step ``seq`` (its move stored no sooner than ``pause`` seconds
        from now) and wake the workers; False if it was queued already (another server)."""
        with self.engine.begin() as conn:
            added = conn.execute(
                text(
                    "INSERT INTO bot_turns (table_id, seq, seat, created_at, not_before)"
                    " VALUES (:t, :q, :s, now(), now() + make_interval(secs => :p))"
                    " ON CONFLICT (table_id, seq) DO NOTHING"
                ),
                {"t": table_id, "q": seq, "s": seat, "p": pause},
            ).rowcount
            conn.execute(text("SELECT pg_notify(:c, '')"), {"c": CHANNEL})  # sent at commit
            return added == 1

    def turn(self, table_id: str, seq: int) -> tuple[str | None, bool] | None:
        """(who claimed it, whether it is done) of a queued turn; None if not queued."""
        with self.engine.begin() as conn:
            row = conn.execute(
                text("SELECT claimed_by, done_at IS NOT NULL FROM bot_turns WHERE table_id = :t AND seq = :q"),
                {"t": table_id, "q": seq},
            ).first()
            return None if row is None else (row[0], bool(row[1]))

    def submit(self, job_id: str, priority: int, kind: str, arguments: str) -> None:
        """Ask the workers for a job (a hint, an analysis: its kind and JSON arguments) and
        wake them."""
        with self.engine.begin() as conn:
            conn.execute(
                text("INSERT INTO bot_jobs (id, priority, created_at, kind, arguments) VALUES (:i, :p, now(), :k, :a)"),
                {"i": job_id, "p": priority, "k": kind, "a": arguments},
            )
            conn.execute(text("SELECT pg_notify(:c, '')"), {"c": CHANNEL})

    def answer(self, job_id: str) -> str | None:
        """The JSON answer of a job once it is done (the row is deleted then); None
        while it is not; ``TooLong`` (the row deleted all the same) when it is longer
        than ``MAX_TEXT``, which is never read into memory."""
        with self.engine.begin() as conn:
            row = conn.execute(
                text(
                    "DELETE FROM bot_jobs WHERE id = :i AND done_at IS NOT NULL"
                    " RETURNING CASE WHEN length(answer) <= :m THEN answer END, length(answer)"
                ),
                {"i": job_id, "m": MAX_TEXT},
            ).first()
        if row is None:
            return None
        if row[0] is None:
            raise TooLong(f"an answer of {row[1]} characters, more than {MAX_TEXT}")
        return str(row[0])

    def withdraw(self, job_id: str) -> None:
        """The asker no longer waits for this job (it computes it itself, or left)."""
        with self.engine.begin() as conn:
            conn.execute(text("DELETE FROM bot_jobs WHERE id = :i"), {"i": job_id})

    # ----- workers -----

    def claim_job(self, name: str, lease: float) -> Job | None:
        """The most urgent job nobody holds, now held by ``name`` (as ``claim``)."""
        with self.engine.begin() as conn:
            row = conn.execute(
                text(
                    "UPDATE bot_jobs SET claimed_by = :n, claimed_until = now() + make_interval(secs => :l)"
                    " WHERE id = ("
                    "  SELECT id FROM bot_jobs"
                    "  WHERE done_at IS NULL AND (claimed_until IS NULL OR claimed_until < now())"
                    "  ORDER BY priority, created_at LIMIT 1 FOR UPDATE SKIP LOCKED)"
                    " RETURNING id, priority, kind, CASE WHEN length(arguments) <= :m THEN arguments END"
                ),
                {"n": name, "l": lease, "m": MAX_TEXT},
            ).first()
            return None if row is None else Job(row[0], int(row[1]), str(row[2]), row[3])

    def job_done(self, job_id: str, answer: str) -> None:
        """The job's JSON answer (its value, its failure or its refusal) for the asker."""
        with self.engine.begin() as conn:
            conn.execute(
                text("UPDATE bot_jobs SET done_at = now(), answer = :a WHERE id = :i AND done_at IS NULL"),
                {"i": job_id, "a": answer},
            )

    def beat(self, name: str, lease: float, in_hand: Sequence[tuple[str, int]] = (), jobs: Sequence[str] = ()) -> None:
        """The worker ``name`` is alive; the turns it is playing (``in_hand``: table and
        step) and the ``jobs`` it computes stay its own ``lease`` seconds more."""
        with self.engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO workers (name, started_at, last_seen) VALUES (:n, now(), now())"
                    " ON CONFLICT (name) DO UPDATE SET last_seen = now()"
                ),
                {"n": name},
            )
            if in_hand:
                conn.execute(
                    text(
                        "UPDATE bot_turns SET claimed_until = now() + make_interval(secs => :l)"
                        " WHERE claimed_by = :n AND done_at IS NULL AND table_id = :t AND seq = :q"
                    ),
                    [{"n": name, "l": lease, "t": t, "q": q} for t, q in in_hand],
                )
            if jobs:
                conn.execute(
                    text(
                        "UPDATE bot_jobs SET claimed_until = now() + make_interval(secs => :l)"
                        " WHERE claimed_by = :n AND done_at IS NULL AND id = :i"
                    ),
                    [{"n": name, "l": lease, "i": i} for i in jobs],
                )

    def claim(self, name: str, lease: float) -> Turn | None:
        """The oldest turn nobody holds (or whose holder's lease is over), now held by
        ``name`` for ``lease`` seconds; None if there is none. Workers claiming at once skip
        each other's rows (``SKIP LOCKED``): each turn goes to one of them."""
        with self.engine.begin() as conn:
            row = conn.execute(
                text(
                    "UPDATE bot_turns SET claimed_by = :n, claimed_until = now() + make_interval(secs => :l)"
                    " WHERE (table_id, seq) = ("
                    "  SELECT table_id, seq FROM bot_turns"
                    "  WHERE done_at IS NULL AND (claimed_until IS NULL OR claimed_until < now())"
                    "  ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)"
                    " RETURNING table_id, seq, seat, extract(epoch FROM (not_before - now()))"
                ),
                {"n": name, "l": lease},
            ).first()
            return None if row is None else Turn(row[0], int(row[1]), int(row[2]), float(row[3]))

    def done(self, table_id: str, seq: int) -> None:
        """The turn is over (its move stored, by this worker or anyone)."""
        with self.engine.begin() as conn:
            conn.execute(
                text("UPDATE bot_turns SET done_at = now() WHERE table_id = :t AND seq = :q AND done_at IS NULL"),
                {"t": table_id, "q": seq},
            )

    def release(self, table_id: str, seq: int, after: float) -> None:
        """Give a turn back (its play failed here): any worker may claim it again in
        ``after`` seconds."""
        with self.engine.begin() as conn:
            conn.execute(
                text(
                    "UPDATE bot_turns SET claimed_by = NULL, claimed_until = now() + make_interval(secs => :a)"
                    " WHERE table_id = :t AND seq = :q AND done_at IS NULL"
                ),
                {"t": table_id, "q": seq, "a": after},
            )

    def leave(self, name: str) -> None:
        """The worker stops: the servers stop counting on it, and its unfinished turns go to
        the others at once."""
        with self.engine.begin() as conn:
            conn.execute(text("DELETE FROM workers WHERE name = :n"), {"n": name})
            for table in ("bot_turns", "bot_jobs"):
                conn.execute(
                    text(
                        f"UPDATE {table} SET claimed_by = NULL, claimed_until = NULL"
                        " WHERE claimed_by = :n AND done_at IS NULL"
                    ),
                    {"n": name},
                )

    def forget_old(self, seconds: float = 86_400.0) -> None:
        """Drop the turns done more than ``seconds`` ago (the table keeps about a day's)."""
        with self.engine.begin() as conn:
            conn.execute(
                text("DELETE FROM bot_turns WHERE done_at < now() - make_interval(secs => :s)"),
                {"s": seconds},
            )

    async def listen(self, wake: asyncio.Event, pause: float) -> None:
        """Set ``wake`` at each ``NOTIFY coinche_turns`` (and once listening), until
        cancelled; after a fault, connect again ``pause`` seconds later (meanwhile a
        worker's poll finds the turns)."""
        url = libpq_url(self.engine.url.render_as_string(hide_password=False))
        while True:
            try:
                conn: psycopg.AsyncConnection[Any]
                async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    wake.set()
                    async for _ in conn.notifies():
                        wake.set()
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("the work queue's listening connection failed (%s)", e)
            await asyncio.sleep(pause)
