"""Where the CPU-heavy work runs: this process's pool of bot workers, or the ``coinche
worker`` processes that share the database.

The one decision "here or on the workers" is made at start: a ``Work`` is given the
database's work queue (``Backend.work_queue``: PostgreSQL's, ``infra/work_queue.py``) when
the process hands work over (a server; a worker computes its own), and then each job goes to the workers
while one is alive, and is computed here when none is, or none answers in time."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TypeVar, cast

from ...bots.base import Decision
from ...engine.deal import View
from ..infra.config import Settings
from ..infra.database import Database
from ..infra.store import Store, new_id
from ..infra.work_queue import TooLong, TurnQueue
from . import jobs
from .bot_pool import BotPool, BotSpec, Priority
from .job_kinds import decision_job
from .jobs import Job, JobRefused

log = logging.getLogger("coinche.work")
T = TypeVar("T")


class JobFailed(Exception):
    """A hint or an analysis failed on a worker (its error, as text)."""


class Work:
    """Jobs and decisions, on the workers while one is alive, else in this process's pool."""

    def __init__(self, pool: BotPool, db: Database, settings: Settings, turns: TurnQueue | None) -> None:
        self.pool = pool
        self.db = db
        self.settings = settings
        self.turns = turns
        """The work queue shared with the workers; None: everything is computed here."""
        self._alive = False
        self._alive_checked = -settings.workers_check
        self._withdrawals: set[asyncio.Task[None]] = set()

    @staticmethod
    def of(pool: BotPool, db: Database, settings: Settings, store: Store, hands_over: bool) -> Work:
        """The work of a process on ``store``: shared with the workers through the
        database's work queue when it ``hands_over`` and the database has one, its own
        otherwise."""
        turns = store.backend.work_queue(store.engine) if hands_over else None
        return Work(pool, db, settings, turns)

    async def workers_alive(self) -> bool:
        """Whether a worker process serves this database (asked at most every
        ``Settings.workers_check`` seconds); never on SQLite, nor in a worker itself."""
        if self.turns is None:
            return False
        now = asyncio.get_running_loop().time()
        if now - self._alive_checked >= self.settings.workers_check:
            self._alive_checked = now
            try:
                self._alive = await self.db(self.turns.workers_alive) > 0
            except Exception:
                log.exception("could not ask the database whether workers are alive")
                self._alive = False
        return self._alive

    async def run(self, job: Job[T], priority: Priority = Priority.ANALYSIS) -> T:
        """A job (``jobs.py``: a registered kind and its JSON arguments, never code) on a
        worker when one is alive, else, or when none answers within
        ``Settings.worker_wait`` or its answer is refused, in this process's pool
        (``PoolBusy`` when it is full). ``JobFailed``: it failed on a worker."""
        if await self.workers_alive():
            answered = await self._remote(job, priority)
            if answered:
                return answered[0]
        return await self._run_here(job, priority)

    async def _run_here(self, job: Job[T], priority: Priority) -> T:
        answer = await self.pool.run(job.kind.run, job.args, priority=priority)
        return await asyncio.to_thread(job.kind.read, answer)

    async def decide(self, spec: BotSpec, view: View, priority: Priority) -> Decision:
        """A decision that is not a table's move (a hint, a stand-in's), as ``run``; a
        worker's answer that is not one of the view's legal actions is refused, and the
        decision taken here."""
        job = decision_job(spec, view)
        decision = await self.run(job, priority=priority)
        if decision.action not in view.legal_actions:
            log.warning("a decision job answered %s, not a legal action; deciding here", decision.action)
            decision = await self._run_here(job, priority)
        return decision

    async def _remote(self, job: Job[T], priority: Priority) -> list[T]:
        """``[answer]`` computed by a worker; ``[]`` when none answered in time, the job
        could not be asked, a worker refused it (a kind it does not know) or its answer is
        not of the job's kind (``jobs.read_answer``). A worker's failure is raised here
        (``JobFailed``)."""
        assert self.turns is not None
        loop = asyncio.get_running_loop()
        job_id = new_id(12)
        name = job.kind.name
        try:
            arguments = await asyncio.to_thread(jobs.dumps, job.args)
            await self.db(self.turns.submit, job_id, int(priority), name, arguments)
        except Exception:
            log.exception("could not ask the workers for a %s job", name)
            return []
        deadline = loop.time() + self.settings.worker_wait
        pause = 0.01
        try:
            while loop.time() < deadline:
                await asyncio.sleep(pause)
                pause = min(0.25, pause * 1.5)
                try:
                    raw = await self.db(self.turns.answer, job_id)
                    if raw is None:
                        continue
                    outcome, value = await asyncio.to_thread(jobs.read_answer, job.kind, raw)
                except (JobRefused, TooLong) as e:
                    log.warning("%s job %s: the answer is refused (%s); computing it here", name, job_id, e)
                    return []
                if outcome == "ok":
                    return [cast(T, value)]
                if outcome == "refused":
                    log.warning("%s job %s: a worker refused it (%s); computing it here", name, job_id, value)
                    return []
                raise JobFailed(str(value))
        except asyncio.CancelledError:  # the asker left: nobody needs it any more
            task = loop.create_task(self.db(self.turns.withdraw, job_id))
            self._withdrawals.add(task)
            task.add_done_callback(self._withdrawals.discard)
            raise
        log.warning("no worker answered a %s job in time; computing it here", name)
        with contextlib.suppress(Exception):
            await self.db(self.turns.withdraw, job_id)
        return []
