"""How often one address or one name may try something (log in, sign up, open a table, ask
for a hint), in moving windows.

One process (SQLite): the ``limits`` library's moving windows in this process's memory.
Several processes (PostgreSQL): the tries are rows of ``rate_limit_hits``, counted in the
database, so a limit of N allows N in all whichever process each try reaches (behind a
proxy that spreads requests, a count per process would allow N per process). A try is one
short transaction that holds an advisory lock on its key, so two processes never both let
the Nth try through: one call of a database function (a round trip, not six: two hundred
bots' moves each pay one).
"""

from __future__ import annotations

import hashlib
import math
import random
import time
from collections.abc import Callable
from typing import ParamSpec, Protocol, TypeVar

from limits import RateLimitItem, parse
from limits.aio.storage import MemoryStorage
from limits.aio.strategies import MovingWindowRateLimiter
from sqlalchemy import Engine, text

P = ParamSpec("P")
T = TypeVar("T")


class Threads(Protocol):
    """What runs a blocking call on a database thread (``database.Database``)."""

    async def __call__(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T: ...


FORGET_AFTER = "1 day"
"""Tries older than this are deleted now and then (a key tried no more)."""


KEY_MAX = 120
"""Longer keys (or keys with characters a database column may refuse, such as NUL) are
counted under their SHA-256: a key holds what a visitor typed, e.g. a name for log-in."""


def stored_key(key: str) -> str:
    """``key`` as it is counted: itself when short and printable, else its SHA-256."""
    if len(key) <= KEY_MAX and key.isprintable():
        return key
    return "sha256:" + hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def hit_in_database(engine: Engine, key: str, amount: int, seconds: int) -> int | None:
    """One try of ``key`` in a window of ``amount`` per ``seconds`` (PostgreSQL): None if it
    is within, else the seconds to wait (the try is not counted). The database function
    (migration 0029) holds the key's advisory lock for the count and the insert."""
    with engine.begin() as conn:
        wait = conn.execute(
            text("SELECT coinche_rate_limit_hit(:k, :n, :s)"), {"k": key, "n": amount, "s": seconds}
        ).scalar()
        if random.random() < 0.001:
            conn.execute(text(f"DELETE FROM rate_limit_hits WHERE at < now() - interval '{FORGET_AFTER}'"))
    return None if wait is None else int(wait)


class RateLimits:
    """The site's limits: in this process, or counted in the database of ``engine``
    through ``threads`` (the backend says which: ``Backend.rate_limits``)."""

    def __init__(self, threads: Threads | None = None, engine: Engine | None = None) -> None:
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self._database = (threads, engine) if threads is not None and engine is not None else None

    async def hit(self, limit: str | RateLimitItem, *keys: str) -> int | None:
        """Count one try for every key (each its own window: an address, a name...); None if
        all of them were within ``limit`` (e.g. ``"10/minute"``), else the seconds to wait
        before trying again (nothing counted for the keys after the first refused)."""
        item = parse(limit) if isinstance(limit, str) else limit
        for key in map(stored_key, keys):
            if self._database is not None:
                window = f"{item.amount}/{item.get_expiry()}s:{key}"
                threads, engine = self._database
                retry = await threads(hit_in_database, engine, window, item.amount, item.get_expiry())
                if retry is not None:
                    return retry
            elif not await self._limiter.hit(item, key):
                stats = await self._limiter.get_window_stats(item, key)
                return max(1, math.ceil(stats.reset_time - time.time()))
        return None
