"""The table's WebSocket protocol (docs/protocol.md): what a client may send, read into
typed requests, and the server's short messages (hello, ack, error, the table's passing
events, a hint). The seat's ``state`` is ``seat_state.py``, the ``step`` ``steps.py``.

Nothing here does I/O: the socket session (``table_socket``) reads frames, asks this module
what they mean, asks the tables, and sends what this module builds.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from ...bots.base import Decision
from ...engine.actions import Action
from ...engine.errors import EngineError, short_repr
from ...engine.wire import action_from_json, action_to_json
from ..features.coach.tips import Tip
from ..features.friends import EMOTES
from ..table import i18n
from ..table.hints import hint_text
from ..table.live_table import LiveTable, TableError
from ..table.seating import people_names
from .messages import (
    CLIENT_TYPES,
    AckMessage,
    ActionMessage,
    ClockMessage,
    CoachMessage,
    CoachRequest,
    ErrorMessage,
    EventMessage,
    HelloMessage,
    HintMessage,
    HintRequest,
    HostRequest,
    LeaveRequest,
    NextDealRequest,
    NoticeMessage,
    PresenceMessage,
    ReactMessage,
    ReactRequest,
    SayMessage,
    SayRequest,
    SitRequest,
    client_decoder,
    envelope_decoder,
    is_json,
    problem,
)
from .seat_state import named_people, seats_json

REQUEST_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""A request's ``id`` (as ``messages.RequestId``)."""


# ----- what a client sends -----


@dataclass(frozen=True)
class ActionRequest:
    """An action the engine read from an ``action`` message's record."""

    id: str
    action: Action


Request = (
    ActionRequest
    | NextDealRequest
    | HintRequest
    | SayRequest
    | ReactRequest
    | SitRequest
    | LeaveRequest
    | HostRequest
    | CoachRequest
)


class ProtocolError(Exception):
    """A frame that is no request: ``code`` (``malformed``, ``too_large``), ``detail`` for
    the log and the message, ``id`` when the frame named one."""

    def __init__(self, code: str, detail: str = "", request_id: str | None = None) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail
        self.id = request_id


def read_request(text: str | None, data: bytes | None, max_bytes: int) -> Request:
    """The request a frame holds (``messages.ClientMessage``, read and checked in one
    call); ``ProtocolError`` if it holds none."""
    if text is None:
        if data is not None and len(data) > max_bytes:
            raise ProtocolError("too_large")
        raise ProtocolError("malformed", "binary frame")
    if len(text) > max_bytes or len(text.encode("utf-8", "replace")) > max_bytes:
        raise ProtocolError("too_large")
    try:
        message = client_decoder.decode(text)
    except msgspec.ValidationError as e:
        raise _refusal(text, e) from None
    except (msgspec.DecodeError, RecursionError):  # RecursionError: nested too deeply
        raise ProtocolError("malformed", "not JSON") from None
    if isinstance(message, ActionMessage):
        try:
            return ActionRequest(message.id, action_from_json(message.action))
        except EngineError as e:
            raise ProtocolError("malformed", short_repr(str(e), 120), message.id) from None
    return message


def _refusal(text: str, e: msgspec.ValidationError) -> ProtocolError:
    """Why a JSON text is no request, said as precisely as it can be: not an object, a bad
    ``id``, an unknown ``type``, no ``id``, then what msgspec found wrong with a field."""
    try:
        envelope = envelope_decoder.decode(text)
    except (msgspec.DecodeError, RecursionError):
        return ProtocolError("malformed", "not an object" if is_json(text) else "not JSON")
    raw_id, kind = envelope.id, envelope.type
    request_id = raw_id if isinstance(raw_id, str) and REQUEST_ID.fullmatch(raw_id) else None
    if raw_id is not None and request_id is None:
        return ProtocolError("malformed", f"bad id {short_repr(raw_id)}")
    if not isinstance(kind, str) or kind not in CLIENT_TYPES:
        return ProtocolError("malformed", f"unknown type {short_repr(kind)}", request_id)
    if request_id is None and kind != "hint":
        return ProtocolError("malformed", "no id")
    return ProtocolError("malformed", short_repr(problem(e), 120), request_id)


# ----- what the server sends -----


def hello_message(seq: int, seat: int, resumed: bool) -> HelloMessage:
    return HelloMessage(seq, seat, resumed)


def ack_message(request_id: str, seq: int) -> AckMessage:
    return AckMessage(request_id, seq)


def error_message(
    lang: str, code: str, request_id: str | None = None, detail: str = "", error: TableError | None = None
) -> ErrorMessage:
    """A refusal in the player's language (the engine's message for an illegal action)."""
    if error is not None and error.message is not None:
        text = i18n.render(lang, error.message)
    else:
        text = i18n.gettext(lang, f"error.{code}", detail=detail)
    return ErrorMessage(request_id, code, text, error.rule if error is not None else None)


def event_message(
    lang: str, live: LiveTable, seat: int, event: dict[str, Any], presence: Sequence[str], watchers: int = 0
) -> EventMessage | None:
    """What a passing event of the table's hub says to ``seat`` (None: nothing for it);
    ``watchers``: how many watch the table (said with who is here)."""
    kind = event.get("kind")

    def names() -> list[str]:  # the seats' names, said by a few events only
        return people_names(lang, live.spec.rules.direction, seat, named_people(live, lang))

    if kind == "presence":
        return PresenceMessage(live.seq, seats_json(live, presence), watchers)
    if kind == "say":
        who = event.get("seat")
        phrase = event.get("phrase")
        if not isinstance(who, int) or not 0 <= who <= 3 or not isinstance(phrase, str):
            return None
        text = i18n.gettext(lang, f"say.{phrase}")
        return SayMessage(who, phrase, text, i18n.gettext(lang, "live.said", seat=names()[who], text=text))
    if kind == "react":
        who = event.get("seat")
        emote = event.get("emote")
        if not isinstance(who, int) or not 0 <= who <= 3 or not isinstance(emote, str) or emote not in EMOTES:
            return None
        text = i18n.gettext(lang, f"emote.{emote}")
        return ReactMessage(who, emote, EMOTES[emote], i18n.gettext(lang, "live.reacted", seat=names()[who], text=text))
    if kind == "clock":
        clock = clock_message(event)
        if clock is None or clock.seq != live.seq:
            return None  # (the turn it timed is over)
        return clock
    if kind == "idle_warning":
        who = event.get("seat")
        seconds = event.get("seconds")
        if not isinstance(who, int) or not 0 <= who <= 3 or not isinstance(seconds, int):
            return None
        if who == seat:
            text = i18n.gettext(lang, "live.idle_you", seconds=seconds)
        else:
            text = i18n.gettext(lang, "live.idle_other", seat=names()[who], seconds=seconds)
        return NoticeMessage("idle_warning", who, seconds, text)
    return None


def clock_message(event: dict[str, Any] | None) -> ClockMessage | None:
    """The ``clock`` message of an idle clock's event (``Attendance.clock``), None if it is
    not one."""
    if event is None:
        return None
    who, seq, seconds = event.get("seat"), event.get("seq"), event.get("seconds")
    if not isinstance(who, int) or not 0 <= who <= 3 or not isinstance(seq, int) or not isinstance(seconds, int):
        return None
    return ClockMessage(who, seq, seconds)


def hint_message(lang: str, request_id: str | None, decision: Decision, live: LiveTable, seat: int) -> HintMessage:
    """The expert's choice and, in the player's language, one plain sentence that says it
    and why, from the expert's own reason ("Passez : avec 9♥ A♥, votre équipe ne fait
    qu'environ 40 points ... ; il en faut au moins 80 pour annoncer.")."""
    deal = live.game.current
    assert deal is not None
    view = deal.view(seat)
    text = hint_text(lang, view, decision.action, decision.private_reason)
    return HintMessage(request_id, action_to_json(decision.action, view), text)


def coach_message(seq: int, tip: Tip) -> CoachMessage:
    """The coach's tip for the seat's turn at step ``seq``."""
    return CoachMessage(seq, tip.topic, tip.text, tip.trick)
