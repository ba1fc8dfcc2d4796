"""The human's input: reading one line at a time, and what a line names.

``Console`` reads lines from ``stdin`` and writes to ``stdout``; it survives whatever a
terminal or a pipe sends (bytes that are not text, end of input, quit words). The
``parse_*`` functions turn a line into the action it names, or a ``Refusal``: the line to
print instead; they never print and never touch the game.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TextIO

from ..engine.actions import Action, announce, card_of, parse_bid, parse_call
from ..engine.cards import TRUMP_NAMES, CardSet, card_str, parse_card
from ..engine.errors import IllegalAction, short_repr
from ..engine.rules import RuleSet
from ..engine.text import is_number, parse_number

QUIT_WORDS = ("q", "quit", "exit")
CALL_ALIASES = {"p": "pass", "c": "coinche", "sc": "surcoinche", "contre": "coinche", "surcontre": "surcoinche"}
BELOTE_WORDS = ("b", "belote", "rebelote", "+b", "+belote", "+rebelote")
DECLARE_ALL_WORDS = ("all", "a", "yes", "y")
DECLARE_NONE_WORDS = ("none", "nothing", "n", "no")
_MAX_UNREADABLE = 3
"""Lines in a row that cannot be decoded before the game gives up on the input."""


class Leave(Exception):
    """The human left (``q``) or the input ended; the message says which."""


@dataclass(frozen=True)
class Refusal:
    """A line that names no action the human may take: ``text`` is what to print."""

    text: str


Parsed = Action | Refusal | None
"""What a parser makes of a line: an action, a refusal to print, or None (not understood)."""


class Console:
    """Line-by-line input and output of the game (``stdin``/``stdout``, or any text streams)."""

    def __init__(self, stdin: TextIO, stdout: TextIO) -> None:
        self.stdin = stdin
        self.stdout = stdout
        isatty = getattr(stdin, "isatty", None)
        self.echo = not (callable(isatty) and isatty())
        """Echo each answer read, as a terminal shows it, when reading from a script or a pipe."""
        encoding = getattr(stdout, "encoding", None)
        self.encoding: str | None = encoding if isinstance(encoding, str) else None
        reconfigure = getattr(stdin, "reconfigure", None)
        if callable(reconfigure) and getattr(stdin, "errors", None) == "strict":
            # Bytes that are not text in the input's encoding become U+FFFD (a line "not
            # understood") instead of a UnicodeDecodeError, which loses a whole buffer.
            with contextlib.suppress(AttributeError, ValueError, OSError):
                reconfigure(errors="replace")

    def say(self, text: str = "") -> None:
        if self.encoding:
            text = text.encode(self.encoding, "replace").decode(self.encoding)
        self.stdout.write(text + "\n")

    def say_all(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.say(line)

    def ask(self, prompt: str) -> str:
        """One stripped line; ``Leave`` on end of input or a quit word."""
        unreadable = 0
        while True:
            self.stdout.write(prompt)
            self.stdout.flush()
            try:
                line = self.stdin.readline()
            except UnicodeDecodeError:
                unreadable += 1
                self.say()
                if unreadable >= _MAX_UNREADABLE:
                    raise Leave("The input is not text: leaving the game.") from None
                self.say("  That input is not text in this terminal's encoding: please type it again.")
                continue
            break
        if not line:
            self.say()
            raise Leave("End of input: leaving the game.")
        text = line.strip()
        if self.echo:  # a script or a pipe: show the answer as a terminal would
            self.say(text)
        if text.lower() in QUIT_WORDS:
            raise Leave("You left the game.")
        return text


# ----- what a line names -----


def choose(text: str, options: Sequence[Action], parse: Callable[[str], Parsed]) -> Action | Refusal:
    """The action a line names: its number in ``options`` (ASCII digits: ``²`` is no
    number), else what ``parse`` makes of it; a ``Refusal`` saying why when nothing."""
    count = len(options)
    if not text:
        return Refusal(f"  Please type a number from 1 to {count} (or q to quit).")
    if is_number(text):
        n = parse_number(text)
        if n is not None and 1 <= n <= count:
            return options[n - 1]
        shown = text if n is not None else short_repr(text)
        return Refusal(f"  No choice {shown}: type a number from 1 to {count}.")
    parsed = parse(text)
    if parsed is None:
        return Refusal(f"  Not understood: {short_repr(text)}. Type a number from 1 to {count}, or q to quit.")
    return parsed


def parse_call_text(text: str, rules: RuleSet) -> Parsed:
    """A call typed in record notation or with an alias (``p``, ``c``, ``sc``); a bid out
    of range (``300H``) is refused as the engine refuses ``170H``."""
    word = CALL_ALIASES.get(text.lower(), text)
    try:
        return parse_call(word)
    except ValueError:
        pass
    bid = parse_bid(word)
    if bid is not None:  # well formed, but past any rules' highest bid
        call = f"{bid[0]}{TRUMP_NAMES[bid[1]]}"
        return Refusal(f"  Not allowed: {IllegalAction('bid_value', call=call, max_bid=rules.max_bid)}")
    return None


def parse_declaration_text(text: str, options: Sequence[Action]) -> Parsed:
    """``all`` (the first choice: every meld) or ``none`` (the last: nothing)."""
    if text.lower() in DECLARE_ALL_WORDS:
        return options[0]
    if text.lower() in DECLARE_NONE_WORDS:
        return options[-1]
    return None


def parse_card_text(text: str, hand: CardSet, options: Sequence[Action]) -> Parsed:
    """A card (``AS``, ``10s``) or its number, optionally followed by a belote word
    (``KH b``, ``3 +belote``) to announce belote with it. A card the engine refuses is
    returned all the same, so that the engine says which rule it breaks."""
    words = text.replace("+", " +").split()
    wants_belote = False
    if len(words) >= 2 and words[-1].lower() in BELOTE_WORDS:
        wants_belote = True
        words = words[:-1]
    if len(words) != 1:
        return None
    word = words[0]
    if is_number(word):
        n = parse_number(word)
        if n is None or not 1 <= n <= len(options):
            return None
        c = card_of(options[n - 1])
    else:
        try:
            c = parse_card(word)
        except ValueError:
            return None
    if not hand >> c & 1:
        return Refusal(f"  {card_str(c)} is not in your hand.")
    if not wants_belote:
        return c
    if announce(c) in options:
        return announce(c)
    if c in options:
        return Refusal(f"  {card_str(c)} cannot announce belote now.")
    return c  # an illegal card: the engine explains why
