"""Log lines a client cannot multiply: a connection that sends refused messages in a loop
once wrote one WARNING line per message (752,000 lines, 39 MB for one client).

A ``RefusalLog`` belongs to one connection. The first refusal of a kind is written at once
(what went wrong is seen as it starts); the next ones of that kind are only counted until
``interval`` seconds have passed since its last line, when the next refusal writes one line
with the count since that line. ``close()`` (at the connection's end) writes the counts still unwritten.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from ...engine.errors import short_repr

MAX_KINDS: Final = 32
"""Kinds of refusal one connection keeps apart; any further kind is counted as ``other``
(the codes are the server's own, but a caller passing client text must not grow the map)."""
MAX_DETAIL: Final = 160
"""The most characters of a refusal's detail written (as a repr: no line breaks)."""


@dataclass
class _Kind:
    last_line: float
    unwritten: int = 0
    last_detail: str = ""


class RefusalLog:
    """Refusals of one connection, written at most once per ``interval`` seconds for each
    kind (``code``), each line with the number of refusals it stands for."""

    def __init__(
        self,
        logger: logging.Logger,
        context: str,
        *,
        interval: float = 60.0,
        level: int = logging.WARNING,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``context`` starts every line (``table k3J9 seat 0``); ``clock`` is injectable so
        a test can move time."""
        self.logger = logger
        self.context = context
        self.interval = interval
        self.level = level
        self.clock = clock
        self.kinds: dict[str, _Kind] = {}
        self.total = 0

    def refused(self, code: str, detail: str = "") -> None:
        """Count one refusal; write a line if this kind has none in the last ``interval``."""
        self.total += 1
        if code not in self.kinds and len(self.kinds) >= MAX_KINDS:
            code = "other"
        now = self.clock()
        kind = self.kinds.get(code)
        if kind is None:
            self.kinds[code] = _Kind(last_line=now)
            self._write(code, detail, 1, first=True)
            return
        kind.unwritten += 1
        kind.last_detail = detail
        if now - kind.last_line >= self.interval:
            count = kind.unwritten
            kind.unwritten = 0
            kind.last_line = now
            self._write(code, detail, count, first=False)

    def close(self) -> None:
        """At the connection's end: one line for each kind with refusals not yet written."""
        for code, kind in self.kinds.items():
            if kind.unwritten:
                self._write(code, kind.last_detail, kind.unwritten, first=False, closing=True)
                kind.unwritten = 0

    def _write(self, code: str, detail: str, count: int, *, first: bool, closing: bool = False) -> None:
        shown = short_repr(detail, MAX_DETAIL) if detail else "-"
        if first:
            self.logger.log(self.level, "%s: refused (%s) %s", self.context, code, shown)
        else:
            when = "before the connection closed" if closing else "since the last line"
            self.logger.log(
                self.level, "%s: refused (%s) %d time(s) %s, the last: %s", self.context, code, count, when, shown
            )
