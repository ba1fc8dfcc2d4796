"""Typed errors of the engine, all under ``EngineError``.

Each names what went wrong, so a caller catches exactly what it can handle: a server
answers ``IllegalAction`` with the rule broken and keeps the game; the CLI maps
``RecordError`` to exit status 2 and ``ReplayError`` to 1. Every one subclasses
``ValueError`` (bad input), and none ever leaves a state half changed.

Errors a person may read in the web pages (refused actions, impossible calculator input)
carry a ``Message``: a stable id and parameters beside the English text, so the web layer
renders them from its catalogues.
"""

from __future__ import annotations

from typing import Any, Final

from .messages import Message

MAX_SHOWN: Final = 60
"""How many characters of a bad value an error message repeats."""


def short_repr(value: object, limit: int = MAX_SHOWN) -> str:
    """``repr(value)`` cut to ``limit`` characters, so a 50 MB bad value makes a short
    message (the length is said instead of the rest)."""
    if isinstance(value, str) and len(value) > 4 * limit:
        value = value[: 2 * limit]  # repr of a huge string is never built
    try:
        text = repr(value)
    except ValueError:  # an int beyond the conversion limit
        return f"<a number of about {int.bit_length(value) * 3 // 10 if isinstance(value, int) else 0} digits>"
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text


class EngineError(ValueError):
    """Base class of every error the engine raises for bad input."""

    message: Message | None = None

    def __init__(self, text: str | Message) -> None:
        if isinstance(text, Message):
            self.message = text
            text = text.text
        super().__init__(text)


class NotACard(EngineError):
    """Text that is not a card, a trump or a list of distinct cards."""


class NotACall(EngineError):
    """Text or a number that is not a call of record notation."""


class NotAMeld(EngineError):
    """Text that is not a meld of record notation."""


class BadSetup(EngineError):
    """A game or deal set up with impossible parameters (a dealer outside 0..3...)."""


class IllegalAction(EngineError):
    """An action the rules refuse. ``rule`` is a short stable id (``must_overtrump``...)
    and also the id of its ``message``; the state that raised it is unchanged."""

    message: Message

    def __init__(self, rule: str, **params: Any) -> None:
        super().__init__(Message.of("illegal." + rule, **params))
        self.rule = rule
