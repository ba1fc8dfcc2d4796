"""A computer player that thinks for two seconds, then plays its first legal action.

Loaded by the bot workers as ``slow_bot:SlowBot`` (this folder is on ``sys.path`` in the
tests, and a worker process gets the parent's path), to show that a slow table never
holds up another one.
"""

from __future__ import annotations

import time

from coinche.bots.base import Bot, Decision
from coinche.engine.deal import View

THINKING_SECONDS = 2.0

NAME = "slow_bot:SlowBot"


class SlowBot(Bot):
    name = "slow"

    def choose(self, view: View) -> Decision:
        time.sleep(THINKING_SECONDS)
        return Decision.plain(view.legal_actions[0], "the first legal action, slowly")


class BriefBot(SlowBot):
    """Half a second a move."""

    seconds = 0.5

    def choose(self, view: View) -> Decision:
        time.sleep(self.seconds)
        return Decision.plain(view.legal_actions[0], "the first legal action, after a pause")


BRIEF = "slow_bot:BriefBot"
