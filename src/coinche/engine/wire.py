"""The wire format: a seat's view as plain JSON-ready data, and back.

The server sends each client ``view_to_json(game.view(seat))`` and nothing else, so what
a client can learn is exactly what the engine's ``View`` holds: its own hand, the calls,
the cards played, the melds shown, never another seat's unplayed card. Cards, calls and
melds are in RECORD.md notation (``JH``, ``90H``, ``tierce AH``), never bitmasks; the rules
are a profile and its changed options; the legal actions are the records a client sends
back (``action_from_json``). ``docs/wire.md`` lists every key.

``view_from_json(view_to_json(v)) == v`` for every view (a property test checks it), so
the format loses nothing and bots can run on the far side of a wire.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, cast

from .actions import (
    DECLARE_BASE,
    Action,
    announce,
    call_str,
    card_of,
    is_announce,
    is_card,
    is_declaration,
    parse_call,
)
from .cards import NO_TRUMP, SUIT_CHARS, TRUMP_NAMES, CardSet, card_str, parse_card, parse_trump, sorted_cards
from .deal import BeloteCall, DealResult, Phase, Trick, View
from .errors import EngineError, short_repr
from .game import GameView
from .melds import Meld, best_melds, declaration_choices, parse_meld
from .messages import ENGLISH, Message, Param
from .rules import RuleSet
from .scoring import Contract

JSON = dict[str, Any]


class WireError(EngineError):
    """Data that is not a view or an action of the wire format."""


# ----- views -----


def view_to_json(view: View, like: tuple[View, JSON] | None = None) -> JSON:
    """``view`` as JSON-ready data (see ``docs/wire.md``). ``like``: an earlier view of the
    same seat and deal with its JSON: the parts that did not change are that JSON's own
    objects (a server renders a seat's view at every step: the rules, the calls and the
    tricks played are built once, and telling what changed starts with ``is``)."""
    trump = view.contract.trump if view.contract is not None else None
    if like is None or not _same_deal(like[0], view):
        return {
            "seat": view.seat,
            "rules": rules_to_json(view.rules),
            "dealer": view.dealer,
            "phase": view.phase.value,
            "to_move": view.to_move,
            "hand": _cards(view.hand, trump),
            "calls": _calls_to_json(view),
            "contract": _contract_to_json(view.contract),
            "tricks": [_trick_to_json(t) for t in view.tricks],
            "trick_leader": view.trick_leader,
            "trick": [card_str(c) for c in view.trick],
            "card_points": list(view.card_points),
            "belotes": [_belote_to_json(b) for b in view.belotes],
            "shown_melds": [[_meld_to_json(m) for m in melds] for melds in view.shown_melds],
            "declared": _melds_to_json(view.declared),
            "hand_sizes": list(view.hand_sizes),
            "legal_actions": [action_to_json(a, view) for a in view.legal_actions],
            "result": _result_to_json(view.result),
        }
    b, done = like
    same_hand = b.hand == view.hand and b.contract == view.contract
    tricks = done["tricks"]
    if b.tricks != view.tricks:
        grown = len(tricks) == len(b.tricks) and view.tricks[: len(b.tricks)] == b.tricks
        new = view.tricks[len(b.tricks) :] if grown else view.tricks
        tricks = [*tricks, *map(_trick_to_json, new)] if grown else [_trick_to_json(t) for t in new]
    return {
        "seat": view.seat,
        "rules": done["rules"],
        "dealer": view.dealer,
        "phase": view.phase.value,
        "to_move": view.to_move,
        "hand": done["hand"] if same_hand else _cards(view.hand, trump),
        "calls": done["calls"] if b.calls == view.calls else _calls_to_json(view),
        "contract": done["contract"] if b.contract == view.contract else _contract_to_json(view.contract),
        "tricks": tricks,
        "trick_leader": view.trick_leader,
        "trick": done["trick"] if b.trick == view.trick else [card_str(c) for c in view.trick],
        "card_points": done["card_points"] if b.card_points == view.card_points else list(view.card_points),
        "belotes": done["belotes"] if b.belotes == view.belotes else [_belote_to_json(x) for x in view.belotes],
        "shown_melds": done["shown_melds"]
        if b.shown_melds == view.shown_melds
        else [[_meld_to_json(m) for m in melds] for melds in view.shown_melds],
        "declared": done["declared"] if b.declared == view.declared else _melds_to_json(view.declared),
        "hand_sizes": done["hand_sizes"] if b.hand_sizes == view.hand_sizes else list(view.hand_sizes),
        "legal_actions": done["legal_actions"]
        if same_hand and b.legal_actions == view.legal_actions
        else [action_to_json(a, view) for a in view.legal_actions],
        "result": done["result"] if b.result == view.result else _result_to_json(view.result),
    }


SEAT_OWN = ("seat", "hand", "declared", "legal_actions")
"""The keys of a view's JSON that differ from seat to seat at one moment (the rest is what
every seat, and a watcher, sees alike)."""


def seat_view_to_json(view: View, alike: JSON, like: tuple[View, JSON] | None = None) -> JSON:
    """``view_to_json(view)`` when ``alike`` is the JSON of another view of the same moment
    (another seat's, or a watcher's): only the seat's own parts (``SEAT_OWN``) are built,
    the others are ``alike``'s own objects; ``like`` as for ``view_to_json``. A server so
    renders a step's common parts once for all its seats."""
    if like is not None and _same_deal(like[0], view):
        b, done = like
        same_hand = b.hand == view.hand and b.contract == view.contract
        hand = done["hand"] if same_hand else None
        declared = done["declared"] if b.declared == view.declared else _melds_to_json(view.declared)
        legal = done["legal_actions"] if same_hand and b.legal_actions == view.legal_actions else None
    else:
        hand = legal = None
        declared = _melds_to_json(view.declared)
    if hand is None:
        hand = _cards(view.hand, view.contract.trump if view.contract is not None else None)
    if legal is None:
        legal = [action_to_json(a, view) for a in view.legal_actions]
    return {**alike, "seat": view.seat, "hand": hand, "declared": declared, "legal_actions": legal}


def _calls_to_json(view: View) -> list[JSON]:
    return [{"seat": (view.dealer + 1 + i) & 3, "call": call_str(a)} for i, a in enumerate(view.calls)]


def _trick_to_json(t: Trick) -> JSON:
    return {"leader": t.leader, "cards": [card_str(c) for c in t.cards], "winner": t.winner, "points": t.points}


def _belote_to_json(b: BeloteCall) -> JSON:
    return {"seat": b.seat, "suit": SUIT_CHARS[b.suit], "at": b.at, "counts": b.counts}


def _same_deal(before: View, view: View) -> bool:
    """Whether ``before`` is an earlier view of ``view``'s seat in the same deal (its parts
    may be shared)."""
    return before.seat == view.seat and before.rules is view.rules and before.dealer == view.dealer


def view_from_json(data: Mapping[str, Any]) -> View:
    """The ``View`` that ``view_to_json`` made ``data`` from; ``WireError`` otherwise."""
    try:
        rules = rules_from_json(data["rules"])
        contract = _contract_from_json(data["contract"])
        partial = View(
            seat=_int(data["seat"]),
            rules=rules,
            dealer=_int(data["dealer"]),
            phase=Phase(data["phase"]),
            to_move=_int(data["to_move"]),
            hand=_mask(data["hand"]),
            calls=tuple(parse_call(c["call"]) for c in data["calls"]),
            contract=contract,
            tricks=tuple(
                Trick(_int(t["leader"]), tuple(parse_card(c) for c in t["cards"]), _int(t["winner"]), _int(t["points"]))
                for t in data["tricks"]
            ),
            trick_leader=_int(data["trick_leader"]),
            trick=tuple(parse_card(c) for c in data["trick"]),
            card_points=_pair(data["card_points"]),
            belotes=tuple(
                BeloteCall(_int(b["seat"]), SUIT_CHARS.index(b["suit"]), b["at"], bool(b["counts"]))
                for b in data["belotes"]
            ),
            shown_melds=tuple(tuple(_meld_from_json(m) for m in melds) for melds in data["shown_melds"]),
            declared=None if data["declared"] is None else tuple(_meld_from_json(m) for m in data["declared"]),
            hand_sizes=tuple(_int(n) for n in data["hand_sizes"]),
            legal_actions=(),
            result=_result_from_json(data["result"]),
        )
        legal = tuple(action_from_json(a, partial) for a in data["legal_actions"])
    except WireError:
        raise
    except (EngineError, KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
        raise WireError(f"not a view of the wire format: {short_repr(e)}") from None
    return dataclasses.replace(partial, legal_actions=legal)


def game_view_to_json(view: GameView, like: tuple[GameView, JSON] | None = None) -> JSON:
    """A seat's view of the game: the deal view plus the score sheet (``like``: as for
    ``view_to_json``)."""
    deal_like = None
    if like is not None and like[0].deal_number == view.deal_number:
        deal_like = (like[0].deal, like[1]["deal"])
    return {
        "deal": view_to_json(view.deal, deal_like),
        "deal_number": view.deal_number,
        "target": view.target,
        "totals": list(view.totals),
        "history": like[1]["history"]
        if like is not None and like[0].history == view.history
        else [list(h) for h in view.history],
        "winner": view.winner,
    }


def game_view_from_json(data: Mapping[str, Any]) -> GameView:
    try:
        return GameView(
            deal=view_from_json(data["deal"]),
            deal_number=_int(data["deal_number"]),
            target=_int(data["target"]),
            totals=_pair(data["totals"]),
            history=tuple(_pair(h) for h in data["history"]),
            winner=None if data["winner"] is None else _int(data["winner"]),
        )
    except WireError:
        raise
    except (KeyError, TypeError, ValueError) as e:
        raise WireError(f"not a game view of the wire format: {short_repr(e)}") from None


# ----- actions -----


def action_to_json(action: Action, view: View) -> JSON:
    """What a client sends to take ``action``: ``{"card": "KH"}``, ``{"card": "KH",
    "belote": true}``, ``{"call": "90H"}`` or ``{"declare": 0, "melds": [...]}``."""
    if is_card(action):
        out: JSON = {"card": card_str(card_of(action))}
        if is_announce(action):
            out["belote"] = True
        return out
    if is_declaration(action):
        k = action - DECLARE_BASE
        choices = _declaration_choices(view)
        melds = choices[k] if k < len(choices) else ()
        return {"declare": k, "melds": [_meld_to_json(m) for m in melds]}
    return {"call": call_str(action)}


def action_from_json(data: Any, view: View | None = None) -> Action:
    """The action a client's record names (any extra key is ignored); ``WireError`` if it
    names none. Legality is the engine's business: ``apply`` still checks it."""
    if not isinstance(data, Mapping):
        raise WireError('an action is an object: {"card": "JH"}, {"call": "90H"} or {"declare": 0}')
    try:
        if "card" in data:
            c = parse_card(_str(data["card"]))
            return announce(c) if data.get("belote") is True else c
        if "call" in data:
            return parse_call(_str(data["call"]))
        if "declare" in data:
            k = data["declare"]
            if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < 100:
                raise WireError(f"declare must be the number of a declaration choice, not {short_repr(k)}")
            return DECLARE_BASE + k
    except WireError:
        raise
    except EngineError as e:
        raise WireError(str(e)) from None
    raise WireError(f"not an action: {short_repr(dict(data))}")


def _declaration_choices(view: View) -> list[tuple[Meld, ...]]:
    """The declaration choices of ``view.seat``: it declares before its first card, so its
    hand is still the hand it was dealt."""
    if view.contract is None:
        return [()]
    return declaration_choices(best_melds(view.hand, view.contract.trump))


# ----- parts -----


def rules_to_json(rules: RuleSet) -> JSON:
    return {"profile": rules.name, "options": rules.options()}


def rules_from_json(data: Mapping[str, Any]) -> RuleSet:
    options = data.get("options") or {}
    if not isinstance(options, Mapping) or "name" in options:
        raise WireError("rules options must be an object of option names")
    return RuleSet.profile(_str(data["profile"]), **options)


def message_to_json(message: Message) -> JSON:
    """``{"id", "params", "text"}``: the id and parameters for a catalogue, the English text."""
    return {
        "id": message.id,
        "params": {k: message_to_json(v) if isinstance(v, Message) else v for k, v in message.params},
        "text": message.text,
    }


def message_from_json(data: Mapping[str, Any]) -> Message:
    mid = _str(data["id"])
    if mid not in ENGLISH:
        raise WireError(f"unknown message id {short_repr(mid)}")
    params: list[tuple[str, Param]] = []
    for k, v in cast(Mapping[str, Any], data["params"]).items():
        if isinstance(v, Mapping):
            params.append((k, message_from_json(v)))
        elif isinstance(v, str | int) and not isinstance(v, bool):
            params.append((k, v))
        else:
            raise WireError(f"message parameter {short_repr(k)} is {short_repr(v)}")
    return Message(mid, tuple(params))


def _cards(mask: CardSet, trump: int | None) -> list[str]:
    return [card_str(c) for c in sorted_cards(mask, trump)]


def _mask(cards: Sequence[str]) -> CardSet:
    m = 0
    for text in cards:
        m |= 1 << parse_card(_str(text))
    return m


def _meld_to_json(meld: Meld) -> JSON:
    return {"name": meld.name, "points": meld.points, "cards": _cards(meld.cards, NO_TRUMP)}


def _melds_to_json(melds: tuple[Meld, ...] | None) -> list[JSON] | None:
    return None if melds is None else [_meld_to_json(m) for m in melds]


def _meld_from_json(data: Mapping[str, Any]) -> Meld:
    return parse_meld(_str(data["name"]))


def _contract_to_json(c: Contract | None) -> JSON | None:
    if c is None:
        return None
    return {
        "call": c.call,
        "kind": c.kind,
        "value": c.value,
        "trump": TRUMP_NAMES[c.trump],
        "taker": c.taker,
        "multiplier": c.multiplier,
    }


def _contract_from_json(data: Mapping[str, Any] | None) -> Contract | None:
    if data is None:
        return None
    kind = data["kind"]
    if kind not in ("bid", "capot", "generale"):
        raise WireError(f"unknown contract kind {short_repr(kind)}")
    trump = parse_trump(_str(data["trump"]))
    return Contract(kind, _int(data["value"]), trump, _int(data["taker"]), _int(data["multiplier"]))


def _result_to_json(r: DealResult | None) -> JSON | None:
    if r is None:
        return None
    return {
        "contract": _contract_to_json(r.contract),
        "card_points": list(r.card_points),
        "belote": list(r.belote),
        "melds": list(r.melds),
        "made": r.made,
        "score": list(r.score),
        "sweep": r.sweep,
        "lines": [message_to_json(m) for m in r.lines],
    }


def _result_from_json(data: Mapping[str, Any] | None) -> DealResult | None:
    if data is None:
        return None
    sweep = data["sweep"]
    if sweep not in (None, "taker", "taker_alone", "defense"):
        raise WireError(f"unknown sweep {short_repr(sweep)}")
    made = data["made"]
    return DealResult(
        contract=_contract_from_json(data["contract"]),
        card_points=_pair(data["card_points"]),
        belote=_pair(data["belote"]),
        melds=_pair(data["melds"]),
        made=None if made is None else bool(made),
        score=_pair(data["score"]),
        sweep=sweep,
        explained=tuple(message_from_json(m) for m in data["lines"]),
    )


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise WireError(f"expected a whole number, not {short_repr(value)}")
    return value


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise WireError(f"expected a string, not {short_repr(value)}")
    return value


def _pair(value: Any) -> tuple[int, int]:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise WireError(f"expected a pair of numbers, not {short_repr(value)}")
    return (_int(value[0]), _int(value[1]))
