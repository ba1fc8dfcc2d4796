"""The table's WebSocket protocol (docs/protocol.md): what a client may send, read into
typed requests, and every message the server sends, built from one seat's view only.

Nothing here does I/O: the socket session (``table_socket``) reads frames, asks this module
what they mean, asks the table service, and sends what this module builds.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ..bots.adaptive import KNOB_LEVELS, level_span
from ..bots.base import Decision
from ..engine.actions import DECLARE_BASE, Action, call_str, card_of, is_announce, is_card, is_declaration
from ..engine.cards import card_str
from ..engine.deal import View
from ..engine.errors import EngineError, short_repr
from ..engine.wire import action_from_json, action_to_json, game_view_to_json
from . import i18n
from .hints import hint_sentence
from .seating import seat_names, seat_positions
from .tables import LiveTable, TableError

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


Request = ActionRequest | NextDealRequest | HintRequest


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
    if kind not in ("action", "next_deal"):
        raise ProtocolError("malformed", f"unknown type {short_repr(kind)}", request_id)
    if request_id is None:
        raise ProtocolError("malformed", "no id", None)
    if kind == "next_deal":
        return NextDealRequest(request_id)
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


def level_label(lang: str, live: LiveTable) -> str:
    level = live.adaptive_level
    if level is None:
        return i18n.gettext(lang, f"level.{live.spec.level}")
    names = [i18n.gettext(lang, f"level.{KNOB_LEVELS[i]}") for i in level_span(level)]
    shown = names[0] if len(names) == 1 else i18n.gettext(lang, "level.between", low=names[0], high=names[1])
    return i18n.gettext(lang, "level.adaptive_label", percent=round(level * 100), names=shown)


def action_sentence(lang: str, names: list[str], seat: int, action: Action) -> str:
    """What the live region says of an action: ``Est joue le Dix de pique``."""
    who = names[seat]
    if is_card(action):
        key = "live.card_belote" if is_announce(action) else "live.card"
        return i18n.gettext(lang, key, seat=who, card=i18n.card_with_article(lang, card_str(card_of(action))))
    if is_declaration(action):
        return ""
    return i18n.gettext(lang, "live.call", seat=who, call=i18n.call_name(lang, call_str(action)))


def last_action(lang: str, live: LiveTable, view: View, names: list[str]) -> dict[str, Any] | None:
    """The action that made this state, as ``view.seat`` may see it (None when the last
    step was no action)."""
    step = live.last
    if step is None or step.kind != "action" or step.action is None:
        return None
    action = step.action
    record: dict[str, Any]
    if is_declaration(action):
        # Which choice another seat took would tell that it holds melds (a seat without
        # any has one choice only): only the seat itself learns it; melds show when shown.
        record = {"declare": action - DECLARE_BASE if step.seat == view.seat else None}
    else:
        record = action_to_json(action, view)
    return {"seat": step.seat, "action": record, "text": action_sentence(lang, names, step.seat, action)}


def state_message(live: LiveTable, seat: int, lang: str, free_left: int | None, full: bool) -> dict[str, Any]:
    """The ``state`` message of ``seat`` at ``live.seq``: only that seat's view."""
    game = live.game
    view = game.view(seat)
    deal_view = view.deal
    result = deal_view.result
    direction = live.spec.rules.direction
    names = seat_names(lang, direction, seat)
    return {
        "type": "state",
        "seq": live.seq,
        "full": full,
        "table": {
            "id": live.id,
            "profile": live.spec.rules.name,
            "options": live.spec.rules.options(),
            "direction": direction,
            "you": seat,
            "positions": seat_positions(direction, seat),
            "seats": [
                {"seat": i, "kind": s.kind, **({"level": s.level} if s.kind == "bot" else {})}
                for i, s in enumerate(live.seats)
            ],
            "seat_names": names,
            "level": live.spec.level,
            "level_label": level_label(lang, live),
            "free_deals_left": free_left,
        },
        "game": game_view_to_json(view),
        "last": None if full else last_action(lang, live, deal_view, names),
        "awaiting_next_deal": game.awaiting_deal and not game.is_over,
        "result_lines": [i18n.render(lang, m) for m in result.lines] if result is not None else [],
        "can_continue": free_left is None or free_left > 0,
    }


def hint_message(lang: str, request_id: str | None, decision: Decision, live: LiveTable, seat: int) -> dict[str, Any]:
    """The expert's choice and, in the player's language, one plain sentence that says it
    and why ("Passez : votre jeu ne suffit pas pour annoncer.")."""
    deal = live.game.current
    assert deal is not None
    view = deal.view(seat)
    text = hint_sentence(lang, view, decision.action)
    return {"type": "hint", "id": request_id, "action": action_to_json(decision.action, view), "text": text}
