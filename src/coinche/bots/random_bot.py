"""The random player: a uniformly random legal action (the floor every level must beat)."""

from __future__ import annotations

from ..engine.deal import View
from ..engine.messages import Message
from .base import Bot, Decision


class RandomBot(Bot):
    name = "random"

    def choose(self, view: View) -> Decision:
        return Decision.reasoned(self.rng.choice(view.legal_actions), Message.of("bot.random_action"))
