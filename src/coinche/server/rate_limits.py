"""How often one address or one name may try something (log in, sign up, open a table),
with the ``limits`` library's moving windows.

The counts live in this process's memory: with several server processes each counts on
its own (a limit of N allows up to N per process). A shared storage of ``limits`` (Redis,
memcached) drops in here when the site runs several processes.
"""

from __future__ import annotations

import math
import time

from limits import RateLimitItem, parse
from limits.aio.storage import MemoryStorage
from limits.aio.strategies import MovingWindowRateLimiter


class RateLimits:
    def __init__(self) -> None:
        self._limiter = MovingWindowRateLimiter(MemoryStorage())

    async def hit(self, limit: str | RateLimitItem, *keys: str) -> int | None:
        """Count one try for every key (each its own window: an address, a name...); None if
        all of them were within ``limit`` (e.g. ``"10/minute"``), else the seconds to wait
        before trying again (nothing counted for the keys after the first refused)."""
        item = parse(limit) if isinstance(limit, str) else limit
        for key in keys:
            if not await self._limiter.hit(item, key):
                stats = await self._limiter.get_window_stats(item, key)
                return max(1, math.ceil(stats.reset_time - time.time()))
        return None
