"""Where each seat sits around the table as a player sees it, and its name there.

The one place that says it: the table's messages send ``positions`` and ``seat_names`` to
the page, the deal review uses the same, and the page never computes them.
"""

from __future__ import annotations

from . import i18n

AROUND = {"anticlockwise": ("south", "east", "north", "west"), "clockwise": ("south", "west", "north", "east")}
"""The positions from the player (``south``) in playing order: the next player sits on the
player's right when play goes anticlockwise."""


def seat_positions(direction: str, viewer: int) -> list[str]:
    """Each seat's position (by seat number) as ``viewer`` sees the table."""
    around = AROUND[direction]
    return [around[(seat - viewer) & 3] for seat in range(4)]


def seat_names(lang: str, direction: str, viewer: int) -> list[str]:
    """Each seat's name as the table shows it to ``viewer``: "Sud (vous)", "Est"..."""
    return [i18n.gettext(lang, f"seat.{p}") for p in seat_positions(direction, viewer)]
