"""Whole numbers in text people type (options, prompts, calls, records).

``str.isdigit()`` is true for ``²`` (a key of the French keyboard) and other Unicode
digits that ``int()`` refuses or reads unexpectedly, and ``int()`` refuses more than 4,300
digits outright; so every number read from text goes through ``parse_number``: ASCII
digits only, and a bounded length.
"""

from __future__ import annotations

from typing import Final

MAX_DIGITS: Final = 6
"""No number a person types here (a target, a bid, a menu choice) has more digits."""


def is_number(text: str) -> bool:
    """True when ``text`` is one or more ASCII digits (``0``-``9``) and nothing else."""
    return text.isascii() and text.isdigit()


def parse_number(text: str, max_digits: int = MAX_DIGITS) -> int | None:
    """The whole number written in ``text`` (ASCII digits, spaces around allowed), or None
    when it is not one or has more than ``max_digits`` digits."""
    t = text.strip()
    if not is_number(t) or len(t) > max_digits:
        return None
    return int(t)
