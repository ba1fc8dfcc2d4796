"""What a computer player is: it sees one seat's ``View`` and returns a legal action.

A bot never receives the ``Deal`` itself, so it cannot see hidden cards; the arena, the
terminal game and (later) the server all drive bots through this one interface. Outside
bots plug in by ``module:attribute`` (see ``loading.load_bot``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..engine.actions import DECLARE_BASE, Action, announce, is_declaration
from ..engine.cards import Card
from ..engine.deal import Phase, View
from ..engine.messages import Message


@dataclass(frozen=True)
class Decision:
    """A bot's choice and, optionally, one-line reasons a person can read.

    ``explanation`` is public: it may be shown to every seat while the deal is played, so
    it never names a card the other seats cannot know at that moment (a card still hidden
    in the bot's hand after the action; the card this action plays, cards of shown melds
    and of an announced belote are known). ``private_explanation`` may name the bot's own
    cards ("90D: J, 4 trumps, side AS AC"); it is for after the deal (None: nothing more
    than ``explanation``).
    """

    action: Action
    explanation: str | None = None
    private_explanation: str | None = None
    reason: Message | None = None
    """The public reason as a translatable message (the web pages render it in the
    player's language); ``explanation`` is its English text. None for reasons that
    exist in English only."""
    private_reason: Message | None = None
    """The private reason as a translatable message (``private_explanation`` is its English
    text); None when it says no more than ``reason``."""

    @classmethod
    def plain(cls, action: Action, why: str) -> Decision:
        """A decision with one reason that names no hidden card: public and private alike."""
        return cls(action, why, why)

    @classmethod
    def reasoned(cls, action: Action, reason: Message, private: Message | None = None) -> Decision:
        """A decision whose reasons are translatable messages: ``reason`` public (naming no
        hidden card), ``private`` the detail for after the deal (None: the same)."""
        if private is None:
            return cls(action, reason.text, reason.text, reason)
        return cls(action, reason.text, private.text, reason, private)

    @property
    def full_reason(self) -> Message | None:
        """The most detailed translatable reason: what to show once the deal is over."""
        return self.private_reason if self.private_reason is not None else self.reason

    @property
    def full_explanation(self) -> str | None:
        """The most detailed reason: what to show once the deal is over."""
        return self.private_explanation if self.private_explanation is not None else self.explanation


def with_belote(card: Card, legal: Sequence[Action]) -> Action:
    """``card``, with its belote (or rebelote) announcement when one is offered: bots
    always announce (RULES.md I-13)."""
    return announce(card) if announce(card) in legal else card


def play_card(card: Card, legal: Sequence[Action], why: Message, private: Message | None = None) -> Decision:
    """The decision to play ``card`` (announcing its belote when one is offered), with the
    public reason ``why`` and the private one (``why`` when None)."""
    a = with_belote(card, legal)
    if a != card:
        why = Message.of("bot.with_belote", reason=why)
        private = None if private is None else Message.of("bot.with_belote", reason=private)
    return Decision.reasoned(a, why, private)


class Bot:
    """Base class of computer players. ``seed`` makes a bot's choices reproducible: every
    chance a bot takes comes from ``self.rng``, seeded with it.

    ``choose`` is a template: it dispatches the auction to ``choose_call``, the meld
    declaration to ``choose_declaration`` (all melds by default) and the card play to
    ``choose_card``. A bot either implements those or overrides ``choose`` itself.
    """

    name: str = "bot"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Decision:
        """Return a legal action for ``view.seat`` (one of ``view.legal_actions``)."""
        if view.phase is Phase.AUCTION:
            return self.choose_call(view)
        if is_declaration(view.legal_actions[0]):
            return self.choose_declaration(view)
        return self.choose_card(view)

    def choose_call(self, view: View) -> Decision:
        """A call of the auction (used by the template ``choose``)."""
        raise NotImplementedError(f"{type(self).__name__} implements neither choose nor choose_call")

    def choose_declaration(self, view: View) -> Decision:
        """Which melds to declare with the first card: all of them (``DECLARE_BASE``)."""
        return Decision.reasoned(DECLARE_BASE, Message.of("bot.declare_all"))

    def choose_card(self, view: View) -> Decision:
        """A card to play (used by the template ``choose``)."""
        raise NotImplementedError(f"{type(self).__name__} implements neither choose nor choose_card")

    @classmethod
    def missing_methods(cls) -> tuple[str, ...]:
        """What this bot class lacks to play: nothing when it overrides ``choose``, else the
        template's hooks it does not implement (``choose_call``, ``choose_card``)."""
        if cls.choose is not Bot.choose:
            return ()
        return tuple(name for name in ("choose_call", "choose_card") if getattr(cls, name) is getattr(Bot, name))

    def observe_result(self, view: View) -> None:
        """Called once a deal is over, with the seat's final view (adaptive bots learn here)."""
        return None


BotFactory = Callable[..., Bot]


class BotLoadError(ValueError):
    """An unknown bot name or a ``module:attribute`` that is not a bot."""


def failure_text(error: BaseException, limit: int = 200) -> str:
    """One short line naming what a bot's code raised: ``RuntimeError: boom``."""
    text = " ".join(f"{type(error).__name__}: {error}".split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
