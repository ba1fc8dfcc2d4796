"""The random player: a uniformly random legal action (the floor every level must beat)."""

from __future__ import annotations

import random

from ..engine.deal import View
from .base import Bot, Decision


class RandomBot(Bot):
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Decision:
        return Decision(self.rng.choice(view.legal_actions))
