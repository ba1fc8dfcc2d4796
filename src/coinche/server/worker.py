"""``coinche worker``: the computers' moves of every server process, on this machine or
another, through PostgreSQL alone (its work queue: ``infra/work_queue.py``).

A worker has its own pool of bot processes and live tables on the same database, with
the listeners a server has (the daily challenge's results, the history, the ratings) and the
PostgreSQL hub: it reads a claimed turn's table fresh from the log, decides in its pool with
the bot and seed the server would use (``Computers._bot_spec``: the table's seed, the
step and the seat), waits for the display pause, and stores the move through the one write
path, which drops it if the step was taken meanwhile; the hub then announces it to every
server. Between moves it computes the hints and deal analyses the servers ask for
(``bot_jobs``: a registered kind, JSON arguments and a JSON answer, ``jobs.py``; a row
of an unknown kind or with malformed arguments is refused and recorded as failed, never
run: anyone who can write a row chooses only data). It claims one turn per pool process at
a time, woken by ``NOTIFY coinche_turns`` and looking every ``POLL_SECONDS`` for turns
whose lease lapsed (a worker killed mid-way).

While no worker is alive, each server plays its computers in its own pool.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import logging.config
import signal
from collections.abc import Coroutine
from typing import Any

from prometheus_client import start_http_server

from .compute.bot_pool import Priority
from .compute.jobs import JobRefused, failed_answer, kind_named, loads, ok_answer
from .features.metrics import SiteMetrics
from .infra.config import Settings
from .infra.process_logs import log_config
from .infra.store import Store
from .infra.work_queue import MAX_TEXT, Job, Turn
from .live.parts import TableParts
from .services import register_job_kinds, start_services

log = logging.getLogger("coinche.worker")

POLL_SECONDS = 1.0
"""How often an idle worker looks for turns nobody was told of (a lapsed lease)."""

LEASE_SECONDS = 10.0
"""How long a claimed turn stays this worker's without a heartbeat (renewed while it thinks)."""


RETRY_SECONDS = 5.0
"""A turn whose play failed here is claimed again (by any worker) after this long."""

SWEEP_SECONDS = 600.0
"""How often a worker drops the turns of more than a day ago."""

METRICS_SECONDS = 5.0
"""How often a worker reads the moment's figures of its metrics (its queue, its pool)."""


class Worker:
    """One worker process's loop; ``run()`` until ``stop()``."""

    def __init__(self, settings: Settings, lease: float = LEASE_SECONDS, metrics_port: int | None = None) -> None:
        register_job_kinds()  # every kind a server may ask for (a worker imports no page)
        self.settings = settings
        """What the servers play by (``services.py`` builds this worker's parts from it):
        its clock (``Settings.clock``: a challenge's day ends by it here too), its bot
        processes (``bot_workers``), the daily challenge's level."""
        self.database_url = settings.database_url
        self.processes = max(1, settings.bot_workers)
        self.name = settings.process_name
        """Its name among the workers and in its log lines (``Settings.process_name``)."""
        self.lease = lease
        self.metrics_port = metrics_port
        """Where this worker's metrics are served (``GET /metrics`` on 127.0.0.1); None: nowhere."""
        self.store = Store(settings.database_url)
        queue = self.store.backend.work_queue(self.store.engine)
        if queue is None:
            self.store.close()
            raise ValueError("the workers need a PostgreSQL database")
        self.queue = queue
        self.played = 0
        """Moves this worker stored."""
        self._stop = asyncio.Event()
        self._wake = asyncio.Event()
        self._plays: set[asyncio.Task[None]] = set()
        self._in_hand: set[tuple[str, int]] = set()
        """The turns this worker is playing (their leases are renewed)."""
        self._jobs: set[str] = set()
        """The hints and analyses it computes."""

    def stop(self) -> None:
        """Stop claiming turns; ``run()`` gives back those in hand and returns."""
        self._stop.set()

    async def run(self, ready: asyncio.Event | None = None) -> None:
        """Serve turns until ``stop()`` (``ready`` is set once the worker is registered)."""
        services = await start_services(self.settings, self.store, hands_over=False)
        parts = services
        background: list[asyncio.Task[None]] = []
        try:
            await parts.db(self.queue.beat, self.name, self.lease)
            await parts.db(self.queue.forget_old)
            loop = asyncio.get_running_loop()
            background = [
                loop.create_task(self._heartbeat(parts)),
                loop.create_task(self.queue.listen(self._wake, POLL_SECONDS)),
            ]
            if self.metrics_port is not None:
                background.append(loop.create_task(self._serve_metrics(parts, self.metrics_port)))
            log.info("worker %s: serving the computers' turns with %d processes", self.name, self.processes)
            if ready is not None:
                ready.set()
            await self._serve(parts)
        finally:
            for task in [*background, *self._plays]:
                task.cancel()
            await asyncio.gather(*background, *self._plays, return_exceptions=True)
            with contextlib.suppress(Exception):
                await parts.db(self.queue.leave, self.name)
            await services.close()
            self.store.close()

    async def _serve_metrics(self, parts: TableParts, port: int) -> None:
        """This worker's metrics on 127.0.0.1:``port`` (prometheus_client's own server, on a
        thread of its own); the moment's figures read every ``METRICS_SECONDS``."""
        metrics = SiteMetrics()
        metrics.observe(parts)
        server, thread = start_http_server(port, addr="127.0.0.1", registry=metrics.registry)
        log.info("worker %s: metrics on http://127.0.0.1:%d/metrics", self.name, port)
        try:
            while True:
                try:
                    await metrics.refresh()
                except Exception as e:
                    log.warning("worker %s: metrics not read (%s)", self.name, e)
                await asyncio.sleep(METRICS_SECONDS)
        finally:
            metrics.close()
            server.shutdown()
            server.server_close()
            thread.join(timeout=5)

    async def _serve(self, parts: TableParts) -> None:
        slots = asyncio.Semaphore(self.processes)
        loop = asyncio.get_running_loop()
        while not self._stop.is_set():
            await slots.acquire()
            self._wake.clear()  # before the claim: a notification after it is not lost
            work: Coroutine[Any, Any, None] | None = None
            try:  # the tables' moves first, then the hints and analyses
                turn = await parts.db(self.queue.claim, self.name, self.lease)
                if turn is not None:
                    work = self._play(parts, turn)
                else:
                    job = await parts.db(self.queue.claim_job, self.name, self.lease)
                    if job is not None:
                        work = self._compute(parts, job)
            except Exception as e:
                log.warning("worker %s: could not claim work (%s)", self.name, e)
            if work is None:
                slots.release()
                await self._idle()
                continue
            task = loop.create_task(work)
            self._plays.add(task)
            task.add_done_callback(self._plays.discard)
            task.add_done_callback(lambda _: slots.release())

    async def _idle(self) -> None:
        """Wait for a notification, the next poll, or ``stop()``."""
        waits = [asyncio.ensure_future(self._wake.wait()), asyncio.ensure_future(self._stop.wait())]
        try:
            await asyncio.wait(waits, timeout=POLL_SECONDS, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for w in waits:
                w.cancel()

    async def _play(self, parts: TableParts, turn: Turn) -> None:
        key = (turn.table_id, turn.seq)
        self._in_hand.add(key)
        try:
            stored = await parts.computers.play_turn(turn.table_id, turn.seq, turn.seat, turn.wait)
        except Exception:
            log.exception("worker %s: table %s step %s failed", self.name, turn.table_id, turn.seq)
            with contextlib.suppress(Exception):  # else its lease lapses all the same
                await parts.db(self.queue.release, turn.table_id, turn.seq, RETRY_SECONDS)
            return
        finally:
            self._in_hand.discard(key)
        self.played += stored
        log.debug(
            "worker %s: table %s step %s %s",
            self.name,
            turn.table_id,
            turn.seq,
            "played" if stored else "taken already: dropped",
        )
        try:
            await parts.db(self.queue.done, turn.table_id, turn.seq)
        except Exception as e:  # the move is stored: the next claim finds the table moved on
            log.warning("worker %s: could not mark a turn done (%s)", self.name, e)

    async def _compute(self, parts: TableParts, job: Job) -> None:
        """A hint or an analysis: its answer (or its failure, or its refusal: an unknown
        kind, malformed arguments) for the asker, as JSON."""
        self._jobs.add(job.id)
        try:
            try:
                kind = kind_named(job.kind)
                if job.arguments is None:
                    raise JobRefused(f"arguments longer than {MAX_TEXT} characters")
                args = await asyncio.to_thread(loads, job.arguments)
                priority = Priority(min(max(job.priority, Priority.MOVE), Priority.ANALYSIS))
                value = await parts.pool.run(kind.run, args, priority=priority)
                answer = await asyncio.to_thread(ok_answer, value)
            except JobRefused as e:
                log.warning("worker %s: job %s refused (%s)", self.name, job.id, e)
                answer = failed_answer(e)
            except Exception as e:
                log.exception("worker %s: job %s failed", self.name, job.id)
                answer = failed_answer(e)
            await parts.db(self.queue.job_done, job.id, answer)
        except Exception as e:  # the asker computes it itself after its wait
            log.warning("worker %s: could not answer job %s (%s)", self.name, job.id, e)
        finally:
            self._jobs.discard(job.id)

    async def _heartbeat(self, parts: TableParts) -> None:
        """Say this worker is alive and keep the turns it thinks about, every third of a
        lease (and at most every two seconds: the servers count on a recent heartbeat)."""
        every = min(2.0, self.lease / 3)
        loop = asyncio.get_running_loop()
        swept = loop.time()
        while True:
            await asyncio.sleep(every)
            try:
                await parts.db(self.queue.beat, self.name, self.lease, sorted(self._in_hand), sorted(self._jobs))
                if loop.time() - swept > SWEEP_SECONDS:
                    swept = loop.time()
                    await parts.db(self.queue.forget_old)
            except Exception as e:
                log.warning("worker %s: heartbeat failed (%s)", self.name, e)


def run_worker(settings: Settings, lease: float, metrics_port: int | None = None, json_lines: bool = False) -> int:
    """``coinche worker``: serve until SIGTERM or SIGINT; the exit status."""
    # every line names the process, as the servers'
    logging.config.dictConfig(log_config(settings.process_name, json_lines))
    logging.getLogger("coinche").setLevel(logging.INFO)
    worker = Worker(settings, lease, metrics_port)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, worker.stop)
        await worker.run()

    asyncio.run(main())
    return 0
