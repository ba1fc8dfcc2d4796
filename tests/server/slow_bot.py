"""A computer player that thinks for two seconds, then plays its first legal action.

Loaded by the bot workers as ``slow_bot:SlowBot`` (this folder is on ``sys.path`` in the
tests, and a worker process gets the parent's path), to show that a slow table never
holds up another one.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

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


class RaisingBot(Bot):
    """A computer that fails on every decision: the table plays its first legal action."""

    name = "raising"

    def choose(self, view: View) -> Decision:
        raise RuntimeError("the bot broke")


class IllegalBot(Bot):
    """A computer that answers an action it may not take (a card it does not hold, a call
    out of range): the table plays its first legal action instead."""

    name = "illegal"

    def choose(self, view: View) -> Decision:
        legal = set(view.legal_actions)
        wrong = next(a for a in range(1000) if a not in legal)
        return Decision.plain(wrong, "an action it may not take")


RAISING = "slow_bot:RaisingBot"
ILLEGAL = "slow_bot:IllegalBot"


GATE = Path(tempfile.gettempdir()) / "coinche-test-bot-gate"
"""While this file exists, ``GatedBot`` thinks (a test opens the gate by removing it)."""


class GatedBot(Bot):
    """Thinks until the test removes ``GATE`` (at most a minute), then plays its first legal
    action: a computer that is still thinking for as long as a test needs, with no clock."""

    name = "gated"

    def choose(self, view: View) -> Decision:
        deadline = time.monotonic() + 60
        while GATE.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        return Decision.plain(view.legal_actions[0], "the first legal action, once let through")


GATED = "slow_bot:GatedBot"


class FirstBot(Bot):
    """The first legal action at once: it always passes in the auction (four passes make a
    void deal when the person passes too)."""

    name = "first"

    def choose(self, view: View) -> Decision:
        return Decision.plain(view.legal_actions[0], "the first legal action")


FIRST = "slow_bot:FirstBot"
