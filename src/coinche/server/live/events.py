"""What a stored step means for the features that keep books on tables, as typed events:
a feature listens to the events it keeps books of (``LiveTables.on``), so a call or a card
that ends nothing is sent to the players without waiting on any of them.

Each event carries the table just after the step. ``again``: told again when the table is
read from the database, for an end whose bookkeeping a crash cut short (the step was
stored before; only what was not booked is done again)."""

from __future__ import annotations

from dataclasses import dataclass

from ..table.live_table import LiveTable
from ..table.spec import Step


@dataclass(frozen=True)
class SeatsChanged:
    """A ``seat`` or ``swap`` step: someone sat, left, was moved or stood in for."""

    table: LiveTable
    step: Step


@dataclass(frozen=True)
class DealStarted:
    """A ``deal`` step: a person dealt the next deal."""

    table: LiveTable
    step: Step


@dataclass(frozen=True)
class DealEnded:
    """The step ended deal ``number`` (from 1), a deal of four passes included."""

    table: LiveTable
    number: int
    again: bool = False


@dataclass(frozen=True)
class GameEnded:
    """The step ended the game."""

    table: LiveTable
    again: bool = False


TableEvent = SeatsChanged | DealStarted | DealEnded | GameEnded


def events_of(live: LiveTable, step: Step, game_over: bool) -> list[TableEvent]:
    """The events of ``step``, just stored and applied to ``live``."""
    events: list[TableEvent] = []
    if step.kind in ("seat", "swap"):
        events.append(SeatsChanged(live, step))
    elif step.kind == "deal":
        events.append(DealStarted(live, step))
    number = live.deal_ended
    if number is not None:
        events.append(DealEnded(live, number))
    if game_over:
        events.append(GameEnded(live))
    return events
