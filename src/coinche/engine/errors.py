"""Typed errors of the engine: a refused action says which rule it breaks."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the rules refuse. ``rule`` is a short stable id (``must_overtrump``...),
    the message a sentence for people. The state that raised it is unchanged."""

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(message)
        self.rule = rule
