"""What a player may ask of a table, as checks of the live table: each gives the step to
store, None when there is nothing to store (the request was answered before), or raises
``TableError`` (nothing changed). Pure: the registry runs them under the table's lock,
and again on a fresh copy when one refused on a stale one."""

from __future__ import annotations

from datetime import datetime

from ...engine.actions import Action
from ...engine.errors import IllegalAction
from .days import day_end
from .live_table import Check, LiveTable, TableError
from .spec import Step


def request_key(player: str, request_id: str) -> str:
    """The key a client's request is stored under (a resend is answered, not applied)."""
    return f"{player}:{request_id}"


def seat_held(live: LiveTable, player: str) -> int:
    """The player's seat (``not_seated`` if they hold none)."""
    seat = live.seat_of(player)
    if seat is None:
        raise TableError("not_seated")
    return seat


def check_turn(live: LiveTable, seat: int) -> None:
    """It is ``seat``'s turn to act in a deal in progress."""
    game = live.game
    if game.is_over:
        raise TableError("over")
    if not live.started:
        raise TableError("not_started")
    if game.awaiting_deal:
        raise TableError("waiting")
    if game.to_move != seat:
        raise TableError("not_your_turn")


def check_day(live: LiveTable, now: datetime) -> None:
    """A daily challenge's table takes no move once its day is over (by the server's
    clock): its seed is public then, and with it every hand."""
    if live.spec.challenge is not None and now >= day_end(live.spec.challenge):
        raise TableError("challenge_over")


def play(player: str, action: Action, key: str, now: datetime) -> Check:
    """``player`` takes ``action`` at their seat (``key``: the request's)."""

    async def check(live: LiveTable) -> Step | None:
        if key in live.requests:
            return None
        seat = seat_held(live, player)
        check_turn(live, seat)
        check_day(live, now)
        game = live.game
        if action not in game.legal_actions():
            deal = game.current
            assert deal is not None
            try:
                deal.copy().apply(action)  # the engine says which rule it breaks
            except IllegalAction as e:
                raise TableError("illegal", e.message, e.rule) from None
            raise TableError("illegal")  # pragma: no cover - legal_actions and apply agree
        return Step(live.seq, "action", seat, action, request_id=key)

    return check
