"""What a feature asks of the tables, as narrow protocols: a feature takes the few table
operations it uses (``Tables``, ``Computers`` and ``LiveTables`` answer them), not the
parts they are made of."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

from ...engine.rules import RuleSet
from ..table.kinds import SOLO, Dealing, TableKind
from ..table.live_table import LiveTable
from ..table.spec import Seat, TableSpec

Gate = Callable[[str], Awaitable[None]]
"""Asked before a person joins something with strangers (quick play, a tournament):
returns if they may, raises ``TableError`` (with the why) if not. A feature keeps a list
of them, filled at start-up (``features.moderation``: a suspension)."""


class TableLookup(Protocol):
    """Reads a live table (``LiveTables.table``, ``Tables.table``)."""

    async def table(self, table_id: str, at_least: int = 0, fresh: bool = False) -> LiveTable | None: ...


class TableMaker(TableLookup, Protocol):
    """Makes a table of any kind and reads one (``Tables``)."""

    async def create_table(
        self,
        rules: RuleSet,
        seats: Sequence[Seat],
        level: str,
        kind: TableKind = SOLO,
        dealing: Dealing | None = None,
        adaptive_start: float | None = None,
        table_id: str | None = None,
    ) -> TableSpec: ...


class PlaysOut(Protocol):
    """Plays a table of computers to its end (``Computers.play_out``)."""

    async def play_out(self, table_id: str) -> LiveTable: ...
