"""What a player may ask of a table, as checks of the live table: each gives the step to
store, None when there is nothing to store (the request was answered before), or raises
``TableError`` (nothing changed). Pure: the registry runs them under the table's lock,
and again on a fresh copy when one refused on a stale one."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime

from ...engine.actions import Action
from ...engine.errors import IllegalAction
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
    """A table whose kind takes no move at ``now`` (the daily challenge once its day is
    over, a tournament's table once its round's clock has run out) refuses every move."""
    reason = live.spec.kind.refusal_at(now)
    if reason is not None:
        raise TableError(reason)


def closed(live: LiveTable, now: datetime) -> bool:
    """A table whose clock has run out (a tournament's round): nobody moves there any
    more, computers included."""
    closes = live.spec.kind.closes_at()
    return closes is not None and now >= closes


def play(player: str, action: Action, key: str, now: datetime) -> Check:
    """``player`` takes ``action`` at their seat (``key``: the request's)."""

    def check(live: LiveTable) -> Step | None:
        if key in live.requests:
            return None
        seat = seat_held(live, player)
        check_day(live, now)
        check_turn(live, seat)
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

    return pure(check)


def next_deal(live: LiveTable, player: str, key: str, now: datetime) -> Step | None:
    """``player`` asks for the next deal (``key``: the request's); None when it was dealt
    already (another click, another player). Who may ask, the table's kind says
    (``TableKind.deal_refusal``). A table that counts free deals charges them
    before the step is stored (``Tables.next_deal``)."""
    if key in live.requests:
        return None
    seat = seat_held(live, player)
    game = live.game
    if game.is_over:
        raise TableError("over")
    if not game.awaiting_deal:
        return None
    check_day(live, now)
    refusal = live.spec.kind.deal_refusal(player, live.started)
    if refusal is not None:
        raise TableError(refusal)
    return Step(live.seq, "deal", seat, request_id=key)


def deal_on(live: LiveTable, now: datetime) -> Step | None:
    """The next deal of a table played out by its computers (None: dealt, over, or closed)."""
    if live.game.is_over or not live.game.awaiting_deal or closed(live, now):
        return None
    return Step(live.seq, "deal", 0)


def stand_in(live: LiveTable, player: str, level: str | None, here: bool) -> Step | None:
    """A computer of ``level`` plays ``player``'s seat from now on (None: the person
    again, ``here``: they have a connection), unless that is so already or no longer makes
    sense (they hold no seat, the game has not started or is over)."""
    seat = live.seat_of(player)
    if seat is None or live.game.is_over or not live.started:
        return None
    holder = live.seats[seat]
    if holder.stand_in == level or (level is not None and here):
        return None
    return Step(live.seq, "seat", seat, seat_data=replace(holder, stand_in=level))


def idle_move(live: LiveTable, seq: int, seat: int, action: Action, now: datetime) -> Step | None:
    """The computer's ``action`` for the person at ``seat``, who let their time run out at
    ``seq``; None once the table moved on (or closed)."""
    if live.seq != seq or action not in live.game.legal_actions() or closed(live, now):
        return None
    return Step(seq, "action", seat, action, played_by="idle")


def pure(check: Callable[[LiveTable], Step | None]) -> Check:
    """A check that needs nothing but the table, as the registry's write takes it."""

    async def checked(live: LiveTable) -> Step | None:
        return check(live)

    return checked
