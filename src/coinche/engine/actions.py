"""Actions as small integers, as in OpenSpiel: cheap to generate, compare, store and send.

========================  ==========================================================
``0..31``                 play that card
``32..63``                play card ``a - 32`` and announce belote (or rebelote)
``PASS`` ``COINCHE`` ...  auction calls without a value
``200 + k``               declare the ``k``-th choice of ``Deal.declaration_choices()``
``1000 + 10 v + t``       bid value ``v`` in trump ``t`` (``90H`` = 1901)
``4000 + t``              capot in trump ``t``
``5000 + t``              générale in trump ``t``
========================  ==========================================================

``action_str`` and ``parse_call`` convert calls to and from record notation (``90H``,
``capotS``, ``generaleTA``, ``pass``, ``coinche``, ``surcoinche``).
"""

from __future__ import annotations

from typing import Final

from .cards import TRUMP_NAMES, Trump, card_str, parse_trump
from .errors import NotACall

Action = int

ANNOUNCE: Final = 32
"""Added to a card: play it and announce belote/rebelote."""
PASS: Final = 64
COINCHE: Final = 65
SURCOINCHE: Final = 66
DECLARE_BASE: Final = 200
BID_BASE: Final = 1000
CAPOT_BASE: Final = 4000
GENERALE_BASE: Final = 5000
CAPOT_RANK: Final = 2500
GENERALE_RANK: Final = 10000


def make_bid(value: int, trump: Trump) -> Action:
    return BID_BASE + 10 * value + trump


def capot(trump: Trump) -> Action:
    return CAPOT_BASE + trump


def generale(trump: Trump) -> Action:
    return GENERALE_BASE + trump


def is_card(action: Action) -> bool:
    return 0 <= action < 64


def is_bid(action: Action) -> bool:
    """A bid of any kind (numeric, capot or générale)."""
    if BID_BASE <= action < CAPOT_BASE:
        return action % 10 < 6
    return CAPOT_BASE <= action < CAPOT_BASE + 6 or GENERALE_BASE <= action < GENERALE_BASE + 6


def is_declaration(action: Action) -> bool:
    return DECLARE_BASE <= action < DECLARE_BASE + 100


def bid_trump(action: Action) -> Trump:
    return action % 10


def bid_rank(action: Action) -> int:
    """Order of bids: 10 x value for numeric bids, then capot, then générale."""
    if action >= GENERALE_BASE:
        return GENERALE_RANK
    if action >= CAPOT_BASE:
        return CAPOT_RANK
    return action - BID_BASE - action % 10


def call_str(action: Action) -> str:
    """Record notation of a call: ``pass``, ``coinche``, ``surcoinche``, ``90H``, ``capotS``."""
    if action == PASS:
        return "pass"
    if action == COINCHE:
        return "coinche"
    if action == SURCOINCHE:
        return "surcoinche"
    t = TRUMP_NAMES[action % 10] if action % 10 < 6 else "?"
    if GENERALE_BASE <= action < GENERALE_BASE + 6:
        return f"generale{t}"
    if CAPOT_BASE <= action < CAPOT_BASE + 6:
        return f"capot{t}"
    if BID_BASE <= action < CAPOT_BASE:
        return f"{(action - BID_BASE) // 10}{t}"
    raise NotACall(f"{action} is not a call")


def action_str(action: Action) -> str:
    """Text of any action: a call, ``JH``, ``KH+belote``, ``declare#0``."""
    if 0 <= action < 32:
        return card_str(action)
    if ANNOUNCE <= action < 64:
        return card_str(action - ANNOUNCE) + "+belote"
    if is_declaration(action):
        return f"declare#{action - DECLARE_BASE}"
    return call_str(action)


def parse_call(text: str) -> Action:
    """Parse a call of record notation; ``ValueError`` with a clear message otherwise."""
    t = text.strip()
    low = t.lower()
    if low == "pass":
        return PASS
    if low == "coinche":
        return COINCHE
    if low == "surcoinche":
        return SURCOINCHE
    try:
        if low.startswith("capot"):
            return capot(parse_trump(t[5:]))
        if low.startswith("generale"):
            return generale(parse_trump(t[8:]))
        i = 0
        while i < len(t) and t[i] in "0123456789":
            i += 1
        if 0 < i <= 3 and int(t[:i]) < 300:  # larger numbers would collide with capot codes
            return make_bid(int(t[:i]), parse_trump(t[i:]))
    except ValueError:
        pass
    raise NotACall(f"not a call: {text!r} (expected pass, coinche, surcoinche, e.g. 90H, 120SA, capotS, generaleTA)")
