"""'Apprendre en jouant' (issue 32): a first deal in two minutes, scripted.

A guided deal as data: the ``classic`` rules, a chosen dealer and four chosen hands, and
the script of every action of the deal in record notation (``80H``, ``pass``, ``AS``).
The player sits South (seat 0); the actions of the other seats are played for them, and
so is the player's last card (the only one left: no decision). Each other action of the
player's is a step that teaches one thing (a catalogue key, ``tutorial.step.*``) and
waits for the player's move. A legal move that is not the script's is answered with why
it is not the move here (``tutorial.wrong.*``), and the position does not change.

Pure: no I/O, no state. The position at a step is the script's first actions replayed by
the engine (``position``): the legal moves, the tricks and the final count all come from
``Deal``, never from a rule written here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from functools import cache
from typing import Final

from ...engine.actions import COINCHE, PASS, SURCOINCHE, Action, bid_rank, is_card, is_numeric_bid, parse_call
from ...engine.cards import parse_card, parse_cards
from ...engine.deal import Deal
from ...engine.errors import EngineError
from ...engine.rules import RuleSet

RULES: Final = RuleSet.profile("classic")
PLAYER: Final = 0
"""South: the seat the page draws at the bottom, the newcomer's."""
DEALER: Final = 0
"""South deals: East speaks and leads first, so the player answers what they see."""
HANDS: Final = tuple(
    parse_cards(h)
    for h in (
        "JH QH 8H 7H TS QS 9S 7S",  # South: the Jack of hearts and three more, void in diamonds and clubs
        "AS KH TH AD TD QD KC 8C",  # East: two aces, the coincher
        "AH 9H AC TC KS 8S 8D 7D",  # North: the partner's raise (an ace, two trumps with the 9)
        "JS KD JD 9D QC JC 9C 7C",  # West
    )
)
"""The hands by seat: no meld and no belote (nothing to declare), so each step is one idea."""


@dataclass(frozen=True)
class Scripted:
    """One action of the script: its record notation and, for the player's, the lesson."""

    text: str
    lesson: str | None = None
    """The step's key (``tutorial.step.<lesson>``) on the player's actions, else None."""
    wrong: dict[str, str] = field(default_factory=dict)
    """Other legal moves (record notation) with their own explanation key; any other one
    gets ``tutorial.wrong.<lesson>``."""


SCRIPT: Final[tuple[Scripted, ...]] = (
    # The auction: East speaks first.
    Scripted("pass"),
    Scripted("pass"),
    Scripted("pass"),
    Scripted("80H", "open", {"pass": "open_pass"}),
    Scripted("pass"),
    Scripted("100H"),
    Scripted("pass"),
    Scripted("pass", "raise"),
    Scripted("coinche"),
    Scripted("pass"),
    Scripted("pass"),
    Scripted("pass", "coinche"),
    # The play: East leads.
    *(Scripted(c) for c in ("AS", "8S", "JS")),
    Scripted("7S", "follow"),
    *(Scripted(c) for c in ("AD", "7D", "9D")),
    Scripted("7H", "trump"),
    Scripted("JH", "draw"),
    *(Scripted(c) for c in ("KH", "AH", "7C")),
    Scripted("8H", "draw_again", {"QH": "draw_again_queen"}),
    *(Scripted(c) for c in ("TH", "9H", "9C", "AC", "JC")),
    Scripted("9S", "discard", {"QH": "discard_trump"}),
    *(Scripted(c) for c in ("8C", "8D", "KD")),
    Scripted("QH", "trump_last"),
    Scripted("QD"),
    Scripted("TS", "master"),
    *(Scripted(c) for c in ("KC", "KS", "JD")),
    Scripted("QS"),  # the last card, the only one: no decision, played for the player
    *(Scripted(c) for c in ("TD", "TC", "QC")),
)


def parse_action(text: str) -> Action:
    """An action of record notation: a card (``JH``) or a call (``80H``, ``pass``,
    ``coinche``); ``ValueError`` (the engine's) when it is neither. Cards first: ``8S``
    would read as a bid of 8 (an illegal one)."""
    try:
        return parse_card(text)
    except EngineError:
        return parse_call(text)


ACTIONS: Final[tuple[Action, ...]] = tuple(parse_action(s.text) for s in SCRIPT)
MOVES: Final[tuple[int, ...]] = tuple(i for i, s in enumerate(SCRIPT) if s.lesson is not None)
"""Where each of the player's moves is in the script."""

READ_STEPS: Final = 1
"""Steps to read before the first move: the order of the cards."""
STEPS: Final = READ_STEPS + len(MOVES)
"""The steps of the guided deal, numbered from 1; step ``STEPS + 1`` is the count."""
END: Final = STEPS + 1


class Answer(Enum):
    RIGHT = "right"
    """The script's move: the next step."""
    WRONG = "wrong"
    """A legal move, not the one to make here: explained, nothing changes."""
    ILLEGAL = "illegal"
    """Not a legal move of the position (or no action at all)."""


def replayed(count: int) -> Deal:
    """The deal after the script's first ``count`` actions."""
    deal = Deal(RULES, DEALER, HANDS)
    for action in ACTIONS[:count]:
        deal.apply(action)
    return deal


def script_index(step: int) -> int | None:
    """Where step ``step``'s move is in the script (None for a step to read)."""
    if not 1 <= step <= END:
        raise ValueError(f"no step {step}")
    move = step - READ_STEPS - 1
    return MOVES[move] if 0 <= move < len(MOVES) else None


def actions_before(step: int) -> int:
    """How many of the script's actions are played when step ``step`` is shown."""
    index = script_index(step)
    if index is not None:
        return index
    return 0 if step <= READ_STEPS else len(ACTIONS)


@cache
def position(step: int) -> Deal:
    """The deal as step ``step`` shows it (the player to move on a move's step, before any
    action on the steps to read, over on the count). Shared: never change it (``copy``)."""
    return replayed(actions_before(step))


def lesson(step: int) -> str:
    """The key of what step ``step`` says."""
    index = script_index(step)
    if index is None:
        return "order" if step <= READ_STEPS else "count"
    lesson = SCRIPT[index].lesson
    assert lesson is not None
    return lesson


def expected(step: int) -> Action | None:
    index = script_index(step)
    return None if index is None else ACTIONS[index]


def answer(step: int, text: str) -> tuple[Answer, str | None]:
    """What a move (record notation) at step ``step`` is, and for a wrong one the key of
    why it is not the move here."""
    index = script_index(step)
    if index is None:
        return Answer.ILLEGAL, None
    try:
        action = parse_action(text)
    except ValueError:
        return Answer.ILLEGAL, None
    if action not in position(step).legal_actions():
        return Answer.ILLEGAL, None
    if action == ACTIONS[index]:
        return Answer.RIGHT, None
    scripted = SCRIPT[index]
    for other, key in scripted.wrong.items():
        if parse_action(other) == action:
            return Answer.WRONG, f"tutorial.wrong.{key}"
    return Answer.WRONG, f"tutorial.wrong.{scripted.lesson}"


def offered(step: int) -> list[Action]:
    """The moves step ``step`` shows as buttons, all legal (the engine's): every card; in
    the auction pass, coinche, surcoinche and the bids of the two lowest values in every
    trump (a call of the grid the page leaves out may still be posted, and is answered)."""
    index = script_index(step)
    if index is None:
        return []
    legal = position(step).legal_actions()
    lowest = sorted({bid_rank(a) for a in legal if is_numeric_bid(a)})[:2]
    return [
        a
        for a in legal
        if is_card(a) or a in (PASS, COINCHE, SURCOINCHE) or (is_numeric_bid(a) and bid_rank(a) in lowest)
    ]
