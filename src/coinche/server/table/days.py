"""The daily challenge's days, and the server's clock that says which one it is.

A day is a UTC calendar day, ``YYYY-MM-DD``: it starts at 00:00:00 UTC and ends at the next
00:00:00 UTC. The table service (which refuses a challenge table's moves once its day is
over) and ``features/daily`` both need it, so it lives here, below both.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError


def utc_now() -> datetime:
    """The server's clock (``Settings.clock``'s default): now, an aware UTC datetime."""
    return datetime.now(UTC)


def day_of(moment: datetime) -> str:
    """The challenge day of ``moment`` (an aware datetime): its UTC date, ``YYYY-MM-DD``."""
    if moment.tzinfo is None:
        raise ValueError("an aware datetime is needed (the day is a UTC day)")
    return moment.astimezone(UTC).date().isoformat()


def day_end(day: str) -> datetime:
    """When ``day`` is over: the next day's 00:00 UTC."""
    return datetime.combine(date.fromisoformat(day) + timedelta(days=1), datetime.min.time(), UTC)


def next_day(day: str) -> str:
    return (date.fromisoformat(day) + timedelta(days=1)).isoformat()


def _club_time() -> tzinfo:
    try:
        return ZoneInfo("Europe/Paris")
    except ZoneInfoNotFoundError:  # a machine without the time zone database
        return UTC


CLUB_TIME = _club_time()
"""The time the site tells moments in (the clubs': Paris): tournaments, tokens, the daily
arena's hour."""


def club_clock(moment: datetime | None) -> str:
    """A moment as a page shows it: club time, to the minute ("" for None)."""
    if moment is None:
        return ""
    return moment.astimezone(CLUB_TIME).strftime("%d/%m/%Y %H:%M")
