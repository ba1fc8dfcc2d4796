"""The table's WebSocket protocol (docs/protocol.md): what a client may send, read into
typed requests, and the server's short messages (hello, ack, error, the table's passing
events, a hint). The seat's ``state`` is ``seat_state.py``, the ``step`` ``steps.py``.

Nothing here does I/O: the socket session (``table_socket``) reads frames, asks this module
what they mean, asks the tables, and sends what this module builds.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...bots.base import Decision
from ...engine.actions import Action
from ...engine.errors import EngineError, short_repr
from ...engine.wire import action_from_json, action_to_json
from ..table import i18n
from ..table.hints import hint_sentence
from ..table.live_table import LiveTable, TableError
from ..table.seating import people_names
from .seat_state import named_people, seats_json

REQUEST_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


# ----- what a client sends -----


@dataclass(frozen=True)
class ActionRequest:
    id: str
    action: Action


@dataclass(frozen=True)
class NextDealRequest:
    id: str


@dataclass(frozen=True)
class HintRequest:
    id: str | None


@dataclass(frozen=True)
class SayRequest:
    """A quick message (one of ``friends.PHRASES``)."""

    id: str
    phrase: str


@dataclass(frozen=True)
class SitRequest:
    """Take the seat ``seat`` (a seated player moves there before the game)."""

    id: str
    seat: int


@dataclass(frozen=True)
class LeaveRequest:
    """Leave the table: a computer plays the seat for the rest of the game."""

    id: str


HOST_OPERATIONS = ("move", "level", "free", "start")


@dataclass(frozen=True)
class HostRequest:
    """The host's controls: ``move`` (``seat`` to ``to``), ``level`` (of the computer at
    ``seat``), ``free`` (``seat``), ``start``."""

    id: str
    op: str
    seat: int = 0
    to: int = 0
    level: str = ""


Request = ActionRequest | NextDealRequest | HintRequest | SayRequest | SitRequest | LeaveRequest | HostRequest


def _seat_field(message: dict[str, Any], name: str, request_id: str) -> int:
    value = message.get(name)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise ProtocolError("malformed", f"bad {name} {short_repr(value)}", request_id)
    return value


def _text_field(message: dict[str, Any], name: str, request_id: str) -> str:
    value = message.get(name)
    if not isinstance(value, str) or len(value) > 32:
        raise ProtocolError("malformed", f"bad {name} {short_repr(value)}", request_id)
    return value


class ProtocolError(Exception):
    """A frame that is no request: ``code`` (``malformed``, ``too_large``), ``detail`` for
    the log, ``id`` when the frame named one."""

    def __init__(self, code: str, detail: str = "", request_id: str | None = None) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail
        self.id = request_id


def read_request(text: str | None, data: bytes | None, max_bytes: int) -> Request:
    """The request a frame holds; ``ProtocolError`` if it holds none."""
    if text is None:
        if data is not None and len(data) > max_bytes:
            raise ProtocolError("too_large")
        raise ProtocolError("malformed", "binary frame")
    if len(text) > max_bytes or len(text.encode("utf-8", "replace")) > max_bytes:
        raise ProtocolError("too_large")
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: nested too deeply
        raise ProtocolError("malformed", "not JSON") from None
    if not isinstance(message, dict):
        raise ProtocolError("malformed", "not an object")
    raw_id = message.get("id")
    request_id = raw_id if isinstance(raw_id, str) and REQUEST_ID.fullmatch(raw_id) else None
    kind = message.get("type")
    if raw_id is not None and request_id is None:
        raise ProtocolError("malformed", f"bad id {short_repr(raw_id)}")
    if kind == "hint":
        return HintRequest(request_id)
    if kind not in ("action", "next_deal", "say", "sit", "leave", "host"):
        raise ProtocolError("malformed", f"unknown type {short_repr(kind)}", request_id)
    if request_id is None:
        raise ProtocolError("malformed", "no id", None)
    if kind == "next_deal":
        return NextDealRequest(request_id)
    if kind == "say":
        return SayRequest(request_id, _text_field(message, "phrase", request_id))
    if kind == "sit":
        return SitRequest(request_id, _seat_field(message, "seat", request_id))
    if kind == "leave":
        return LeaveRequest(request_id)
    if kind == "host":
        op = message.get("op")
        if op not in HOST_OPERATIONS:
            raise ProtocolError("malformed", f"unknown operation {short_repr(op)}", request_id)
        if op == "start":
            return HostRequest(request_id, "start")
        seat = _seat_field(message, "seat", request_id)
        if op == "move":
            return HostRequest(request_id, op, seat, to=_seat_field(message, "to", request_id))
        if op == "level":
            return HostRequest(request_id, op, seat, level=_text_field(message, "level", request_id))
        return HostRequest(request_id, op, seat)
    try:
        return ActionRequest(request_id, action_from_json(message.get("action")))
    except EngineError as e:
        raise ProtocolError("malformed", short_repr(str(e), 120), request_id) from None


# ----- what the server sends -----


def hello_message(seq: int, seat: int, resumed: bool) -> dict[str, Any]:
    return {"type": "hello", "seq": seq, "you": seat, "resumed": resumed}


def ack_message(request_id: str, seq: int) -> dict[str, Any]:
    return {"type": "ack", "id": request_id, "seq": seq}


def error_message(
    lang: str, code: str, request_id: str | None = None, detail: str = "", error: TableError | None = None
) -> dict[str, Any]:
    """A refusal in the player's language (the engine's message for an illegal action)."""
    if error is not None and error.message is not None:
        text = i18n.render(lang, error.message)
    else:
        text = i18n.gettext(lang, f"error.{code}", detail=detail)
    out: dict[str, Any] = {"type": "error", "id": request_id, "code": code, "message": text}
    if error is not None and error.rule is not None:
        out["rule"] = error.rule
    return out


def event_message(
    lang: str, live: LiveTable, seat: int, event: dict[str, Any], presence: Sequence[str], watchers: int = 0
) -> dict[str, Any] | None:
    """What a passing event of the table's hub says to ``seat`` (None: nothing for it);
    ``watchers``: how many watch the table (said with who is here)."""
    kind = event.get("kind")

    def names() -> list[str]:  # the seats' names, said by a few events only
        return people_names(lang, live.spec.rules.direction, seat, named_people(live, lang))

    if kind == "presence":
        return {"type": "presence", "seq": live.seq, "seats": seats_json(live, presence), "watchers": watchers}
    if kind == "say":
        who = event.get("seat")
        phrase = event.get("phrase")
        if not isinstance(who, int) or not 0 <= who <= 3 or not isinstance(phrase, str):
            return None
        text = i18n.gettext(lang, f"say.{phrase}")
        return {
            "type": "say",
            "seat": who,
            "phrase": phrase,
            "text": text,
            "said": i18n.gettext(lang, "live.said", seat=names()[who], text=text),
        }
    if kind == "clock":
        who, seq, seconds = event.get("seat"), event.get("seq"), event.get("seconds")
        if not isinstance(who, int) or not 0 <= who <= 3 or not isinstance(seq, int) or not isinstance(seconds, int):
            return None
        if seq != live.seq:
            return None  # the turn it timed is over
        return {"type": "clock", "seat": who, "seq": seq, "seconds": seconds}
    if kind == "idle_warning":
        who = event.get("seat")
        seconds = event.get("seconds")
        if not isinstance(who, int) or not 0 <= who <= 3 or not isinstance(seconds, int):
            return None
        if who == seat:
            text = i18n.gettext(lang, "live.idle_you", seconds=seconds)
        else:
            text = i18n.gettext(lang, "live.idle_other", seat=names()[who], seconds=seconds)
        return {"type": "notice", "kind": "idle_warning", "seat": who, "seconds": seconds, "text": text}
    return None


def hint_message(lang: str, request_id: str | None, decision: Decision, live: LiveTable, seat: int) -> dict[str, Any]:
    """The expert's choice and, in the player's language, one plain sentence that says it
    and why ("Passez : votre jeu ne suffit pas pour annoncer.")."""
    deal = live.game.current
    assert deal is not None
    view = deal.view(seat)
    text = hint_sentence(lang, view, decision.action)
    return {"type": "hint", "id": request_id, "action": action_to_json(decision.action, view), "text": text}
