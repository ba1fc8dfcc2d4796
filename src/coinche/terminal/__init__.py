"""The interactive terminal game behind ``coinche play``.

One human (seat 0 by default, partner seat 2) plays a whole game with three computer
players of one level (``coinche.bots``: beginner, confirmed, expert, adaptive), under any
rule profile, through the public engine API only: ``Game``, its ``legal_actions``/
``apply``/``view``, and each ``Deal``'s ``result()``; the bots see only their seat's view.

Everything is read line by line from ``stdin`` and written to ``stdout``, so a session can
be scripted: the same seed and the same input lines give the same output. End of input,
``q`` or ``quit`` leave the game cleanly with exit status 0.

Three parts, each readable alone: ``drawing`` (the text of hands, menus, tricks and
scores), ``prompts`` (reading the human's lines and what they name) and ``session`` (the
game loop: whose turn, the bots' moves, applying actions).
"""

from __future__ import annotations

from .drawing import SEAT_NAMES, TRUMP_WORDS, Seats, hand_str
from .session import Session, run_play

__all__ = ["SEAT_NAMES", "TRUMP_WORDS", "Seats", "Session", "hand_str", "run_play"]
