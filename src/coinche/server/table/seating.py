"""Where each seat sits around the table as a player sees it, and its name there.

The one place that says it: the table's messages send ``positions`` and ``seat_names`` to
the page, the deal review, the history, the daily challenge's pages, the friends' and
uploads' pages, the terminal game and ``coinche replay`` ask it too, and the page never
computes them.
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


def compass_names(direction: str, viewer: int) -> list[str]:
    """Each seat's English compass name ("South", "East"...) as ``viewer`` sees the table:
    the terminal's and the command line's words."""
    return [p.capitalize() for p in seat_positions(direction, viewer)]


def seat_names(lang: str, direction: str, viewer: int) -> list[str]:
    """Each seat's name as the table shows it to ``viewer``: "Sud (vous)", "Est"..."""
    return [i18n.gettext(lang, f"seat.{p}") for p in seat_positions(direction, viewer)]


def record_seat_names(lang: str, direction: str) -> list[str]:
    """Each seat's name for a record read by anyone (no "you"): "Sud", "Est"... as the
    site's tables place them, seat 0 in the South."""
    return [i18n.gettext(lang, f"seat.short.{p}") for p in seat_positions(direction, 0)]


def people_names(lang: str, direction: str, viewer: int, people: list[str | None]) -> list[str]:
    """``seat_names`` with the name of each other person at a friends' table: "Sud (vous)",
    "Ouest (Paul)", "Nord (Marie)"; ``people``: the name at each seat, None for a computer."""
    names = seat_names(lang, direction, viewer)
    positions = seat_positions(direction, viewer)
    for seat, name in enumerate(people):
        if name is not None and seat != viewer:
            names[seat] = i18n.gettext(
                lang, "seat.person", seat=i18n.gettext(lang, f"seat.short.{positions[seat]}"), name=name
            )
    return names
