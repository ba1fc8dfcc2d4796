"""A friends' table's lobby and seats, as checks of the live table: taking a seat, the
host's controls (move, a computer's level, freeing a seat) and leaving. Each gives the step
to store, None when there is nothing to store, or raises ``TableError`` (nothing changed);
``features/friends.py`` hands them to the registry's write path."""

from __future__ import annotations

from typing import Final

from .live_table import LiveTable, TableError
from .spec import Seat, Step

FRIEND_LEVELS: Final = ("beginner", "confirmed", "expert")
"""The levels of the computers at a friends' table (the adaptive one follows one person)."""

STAND_IN_LEVEL: Final = "expert"
"""The computer that plays for an absent person, or for a person who left the table."""


def _free_seats(live: LiveTable) -> list[int]:
    return [i for i, holder in enumerate(live.seats) if holder.kind == "bot"]


def seats_open(live: LiveTable) -> bool:
    """Whether a newcomer may take a computer's seat now: before the game, or between
    deals when the host allows it."""
    game = live.game
    if game.is_over:
        return False
    if not live.started:
        return True
    return live.spec.kind.late_joins and game.awaiting_deal


def check_take_seat(live: LiveTable, player: str, name: str, seat: int, guest: bool = False) -> Step | None:
    """``player`` (named ``name``, a guest's name when ``guest``) sits at ``seat``, a
    computer's; a seated player moves there (before the game only)."""
    if not live.spec.kind.waits_for_host:
        raise TableError("not_private")
    if not 0 <= seat <= 3:
        raise TableError("bad_seat")
    current = live.seat_of(player)
    if current == seat:
        return None
    if not _free_seats(live):
        raise TableError("full")
    if live.seats[seat].kind != "bot":
        raise TableError("seat_taken")
    if live.game.is_over:
        raise TableError("over")
    if current is not None:
        if live.started:
            raise TableError("in_progress")
        return Step(live.seq, "swap", current, other_seat=seat)
    if not seats_open(live):
        raise TableError("in_progress")
    return Step(live.seq, "seat", seat, seat_data=Seat("human", player=player, name=name, guest=guest))


def invited_seat(live: LiveTable, seat: int | None) -> int:
    """The seat an invitation offers: ``seat`` if a computer holds it, the first such seat
    when None; ``TableError``: ``bad_seat``, ``seat_not_free`` (a person holds it),
    ``full`` (nobody's seat is free)."""
    free = _free_seats(live)
    if seat is None:
        if not free:
            raise TableError("full")
        return free[0]
    if not 0 <= seat <= 3:
        raise TableError("bad_seat")
    if seat not in free:
        raise TableError("seat_not_free")
    return seat


def check_take_invited_seat(live: LiveTable, player: str, name: str, seat: int | None) -> Step | None:
    """``player`` accepts an invitation to ``seat``: they sit there, or at the first free
    seat if it was taken meanwhile (None: the first free); one already seated stays where
    they are. ``TableError`` as ``check_take_seat`` (``full`` when no seat is free)."""
    if live.seat_of(player) is not None:
        return None
    free = _free_seats(live)
    if seat not in free:
        seat = free[0] if free else 0  # no free seat: check_take_seat says the table is full
    return check_take_seat(live, player, name, seat)


def _check_host(live: LiveTable, player: str) -> None:
    if live.spec.kind.host != player or live.seat_of(player) is None:
        raise TableError("not_host")
    if live.game.is_over:
        raise TableError("over")
    if not live.game.awaiting_deal:
        raise TableError("in_progress")  # seats change before the game or between deals


def check_move(live: LiveTable, player: str, seat: int, to: int) -> Step | None:
    """The host moves whoever holds ``seat`` to ``to`` (the two exchange their seats)."""
    _check_host(live, player)
    if not (0 <= seat <= 3 and 0 <= to <= 3):
        raise TableError("bad_seat")
    if seat == to:
        return None
    return Step(live.seq, "swap", seat, other_seat=to)


def check_level(live: LiveTable, player: str, seat: int, level: str) -> Step | None:
    """The host sets the level of the computer at ``seat``."""
    _check_host(live, player)
    if not 0 <= seat <= 3:
        raise TableError("bad_seat")
    if level not in FRIEND_LEVELS:
        raise TableError("bad_level")
    holder = live.seats[seat]
    if holder.kind != "bot":
        raise TableError("seat_taken")
    if holder.level == level:
        return None
    return Step(live.seq, "seat", seat, seat_data=Seat("bot", level=level))


def check_free(live: LiveTable, player: str, seat: int) -> Step | None:
    """The host frees a person's seat: a computer holds it (the person may come back by
    the link while seats are open). A person a computer stood in for (gone past the grace
    period, not back) has gone: the new holder says so (``Seat.gone``, a leaver for the
    ratings); one who was there has not."""
    _check_host(live, player)
    if not 0 <= seat <= 3:
        raise TableError("bad_seat")
    holder = live.seats[seat]
    if holder.kind != "human":
        return None
    if holder.player == player:
        raise TableError("not_host")  # the host does not free their own seat
    gone = holder.player if live.started and holder.stand_in is not None else None
    return Step(live.seq, "seat", seat, seat_data=Seat("bot", level=live.spec.level, gone=gone))


def check_leave(live: LiveTable, player: str) -> Step | None:
    """``player`` leaves: before the game their seat goes back to a computer; during it a
    computer plays it for the rest of the game. The host stays until the game starts."""
    seat = live.seat_of(player)
    if seat is None:
        raise TableError("not_seated")
    if live.game.is_over:
        return None
    if not live.started and player == live.spec.kind.host:
        raise TableError("host_stays")
    if not live.started:
        return Step(live.seq, "seat", seat, seat_data=Seat("bot", level=live.spec.level))
    return Step(live.seq, "seat", seat, seat_data=Seat("bot", level=STAND_IN_LEVEL, gone=player))
