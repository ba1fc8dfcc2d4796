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

from .cards import TRUMP_NAMES, Card, Trump, card_str, parse_trump
from .errors import NotACall, short_repr

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
BID_LIMIT: Final = 300
"""Numeric bids are encoded below this value (from 300 ``1000 + 10 v`` reaches the capot
codes); every rule set's highest bid is far lower."""
MAX_BID_DIGITS: Final = 6
"""``parse_bid`` reads a bid value of at most this many digits."""
GENERALE_RANK: Final = 10000


def make_bid(value: int, trump: Trump) -> Action:
    return BID_BASE + 10 * value + trump


def capot(trump: Trump) -> Action:
    return CAPOT_BASE + trump


def generale(trump: Trump) -> Action:
    return GENERALE_BASE + trump


def is_card(action: Action) -> bool:
    return 0 <= action < 64


def announce(c: Card) -> Action:
    """Play card ``c`` and announce belote (or rebelote)."""
    return c + ANNOUNCE


def is_announce(action: Action) -> bool:
    """A card played with a belote (or rebelote) announcement."""
    return ANNOUNCE <= action < 64


def card_of(action: Action) -> Card:
    """The card an ``is_card`` action plays, announced or not."""
    return action - ANNOUNCE if action >= ANNOUNCE else action


def is_bid(action: Action) -> bool:
    """A bid of any kind (numeric, capot or générale)."""
    if BID_BASE <= action < CAPOT_BASE:
        return action % 10 < 6
    return CAPOT_BASE <= action < CAPOT_BASE + 6 or GENERALE_BASE <= action < GENERALE_BASE + 6


def is_numeric_bid(action: Action) -> bool:
    """A bid of a value (``90H``), not a capot or a générale."""
    return BID_BASE <= action < CAPOT_BASE and action % 10 < 6


def is_capot(action: Action) -> bool:
    return CAPOT_BASE <= action < CAPOT_BASE + 6


def is_generale(action: Action) -> bool:
    return GENERALE_BASE <= action < GENERALE_BASE + 6


def is_declaration(action: Action) -> bool:
    return DECLARE_BASE <= action < DECLARE_BASE + 100


def declaration(index: int) -> Action:
    """Declare the ``index``-th choice of ``Deal.declaration_choices()`` (0: every meld)."""
    return DECLARE_BASE + index


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
        bid = parse_bid(t)
        if bid is not None and bid[0] < BID_LIMIT:
            return make_bid(*bid)
    except ValueError:
        pass
    raise NotACall(
        f"not a call: {short_repr(text)} (expected pass, coinche, surcoinche, e.g. 90H, 120SA, capotS, generaleTA)"
    )


def parse_bid(text: str) -> tuple[int, Trump] | None:
    """The value and trump of a numeric bid in record notation (``90H``, ``300SA``), whatever
    the value: a caller tells a well-formed bid out of range (an illegal call, which
    ``parse_call`` cannot encode from ``BID_LIMIT``) from text that is no call at all.
    None for anything else, a number of more than ``MAX_BID_DIGITS`` digits included."""
    t = text.strip()
    i = 0
    while i < len(t) and i <= MAX_BID_DIGITS and t[i] in "0123456789":
        i += 1
    if not 0 < i <= MAX_BID_DIGITS or len(t) - i > 2:
        return None
    try:
        trump = parse_trump(t[i:])
    except ValueError:
        return None
    return int(t[:i]), trump
