"""What a computer player is: it sees one seat's ``View`` and returns a legal action.

A bot never receives the ``Deal`` itself, so it cannot see hidden cards; the arena, the
terminal game and (later) the server all drive bots through this one interface. Outside
bots plug in by ``module:attribute`` (see ``load_bot``).
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.actions import ANNOUNCE, Action
from ..engine.deal import View


@dataclass(frozen=True)
class Decision:
    """A bot's choice and, optionally, a one-line reason a person can read."""

    action: Action
    explanation: str | None = None


def with_belote(card: int, legal: Sequence[Action]) -> Action:
    """``card``, with its belote (or rebelote) announcement when one is offered: bots
    always announce (RULES.md I-13)."""
    return card + ANNOUNCE if card + ANNOUNCE in legal else card


class Bot(ABC):
    """Base class of computer players. ``seed`` makes a bot's choices reproducible."""

    name: str = "bot"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    @abstractmethod
    def choose(self, view: View) -> Decision:
        """Return a legal action for ``view.seat`` (one of ``view.legal_actions``)."""

    def observe_result(self, view: View) -> None:
        """Called once a deal is over, with the seat's final view (adaptive bots learn here)."""
        return None


BotFactory = Callable[..., Bot]

BUILTIN_BOTS: dict[str, str] = {
    "random": "coinche.bots.random_bot:RandomBot",
    "beginner": "coinche.bots.beginner:BeginnerBot",
    "confirmed": "coinche.bots.confirmed:ConfirmedBot",
    "expert": "coinche.bots.expert:ExpertBot",
    "expert-uniform": "coinche.bots.expert:UniformExpertBot",
    "adaptive": "coinche.bots.adaptive:AdaptiveBot",
}


class BotLoadError(ValueError):
    """An unknown bot name or a ``module:attribute`` that is not a bot."""


def bot_factory(spec: str) -> BotFactory:
    """The factory for a bot name (``beginner``...) or an importable ``module:attribute``
    (a ``Bot`` subclass or any callable taking ``seed=`` and returning a ``Bot``)."""
    target = BUILTIN_BOTS.get(spec, spec)
    module_name, sep, attr = target.partition(":")
    if not sep or not module_name or not attr:
        known = ", ".join(BUILTIN_BOTS)
        raise BotLoadError(f"unknown bot {spec!r} (expected one of {known}, or module:attribute)")
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise BotLoadError(f"cannot import bot module {module_name!r}: {e}") from None
    factory: Any = getattr(module, attr, None)
    if factory is None or not callable(factory):
        raise BotLoadError(f"{module_name!r} has no bot {attr!r}")
    return factory  # type: ignore[no-any-return]


def load_bot(spec: str, seed: int | None = None, **params: Any) -> Bot:
    """Build a bot by name or ``module:attribute``; the result is checked to be a ``Bot``."""
    bot = bot_factory(spec)(seed=seed, **params)
    if not isinstance(bot, Bot):
        raise BotLoadError(f"{spec!r} did not make a Bot (got {type(bot).__name__})")
    return bot
