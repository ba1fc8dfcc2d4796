"""Computer players: the bot interface, the levels, deal sampling and the solver."""

from .base import Bot, BotLoadError, Decision
from .loading import load_bot

__all__ = ["Bot", "BotLoadError", "Decision", "load_bot"]
