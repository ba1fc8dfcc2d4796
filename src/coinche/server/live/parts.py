"""The live tables and what acts on them, built on one store and pool: the database's
threads, the hub, the registry, who is here, the rate limits, the free deals, the
computers and the tables. ``services.py`` builds them, then each feature on the parts it
uses; a worker and the tests build them alone."""

from __future__ import annotations

from dataclasses import dataclass

from ..compute.bot_pool import BotPool
from ..compute.work import Work
from ..infra.config import Settings
from ..infra.database import Database
from ..infra.hub import Hub, LocalHub
from ..infra.process_logs import instance_id
from ..infra.rate_limits import RateLimits
from ..infra.store import Store
from .computers import Computers
from .free_deals import FreeDeals
from .presence import Attendance
from .registry import LiveTables
from .tables import Tables


@dataclass(repr=False)
class TableParts:
    """The live tables and what acts on them, on one store and pool; ``close()`` stops them
    (not the pool nor the store, which their builders own)."""

    settings: Settings
    store: Store
    pool: BotPool
    db: Database
    """The database's threads every part runs its blocking calls on."""
    hub: Hub
    work: Work
    """Where hints, analyses and, on PostgreSQL with workers alive, the computers' turns are
    computed."""
    process: str
    """This process among the servers sharing the database (its rows of presence)."""
    registry: LiveTables
    attendance: Attendance
    rate_limits: RateLimits
    """How often a player may do what is limited (hints, quick messages, the pages' forms)."""
    free_deals: FreeDeals
    computers: Computers
    tables: Tables

    async def close(self) -> None:
        await self.computers.close()
        await self.registry.close()
        await self.attendance.close()
        await self.hub.close()
        self.db.close()


def table_parts(
    store: Store, pool: BotPool, settings: Settings, hub: Hub | None = None, hands_over: bool = True
) -> TableParts:
    """The live tables on ``store`` and ``pool`` (``hub``: this process's own by default);
    ``hands_over``: the computers' turns go to live workers (a worker plays its own)."""
    db = Database(store)
    work = Work.of(pool, db, settings, store, hands_over)
    hub = hub or LocalHub()
    registry = LiveTables(store, db, settings, hub)
    process = instance_id(settings.process_name)
    attendance = Attendance(registry, work, process)
    rate_limits = store.backend.rate_limits(db, store.engine)
    free_deals = FreeDeals(store, db, settings, registry)
    computers = Computers(registry, pool, work, settings, hub, db, rate_limits)
    tables = Tables(store, db, settings, registry, free_deals, computers, attendance)
    return TableParts(
        settings, store, pool, db, hub, work, process, registry, attendance, rate_limits, free_deals, computers, tables
    )
