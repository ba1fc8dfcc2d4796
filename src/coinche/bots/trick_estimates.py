"""A hand counted in tricks for each trump: the estimates the confirmed level's calls stand
on (RULES.md section 8), each with short notes that say why, as the explanations show them.

The trump Jack is a sure trick, the guarded 9 nearly one, the trump Ace and 10 count with
length; side Aces, a side 10 with its Ace and voids (with trumps to ruff) add to them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..engine.belote import belote_suits
from ..engine.cards import (
    ACE,
    ALL_TRUMP,
    JACK,
    KING,
    NINE,
    NO_TRUMP,
    QUEEN,
    SUIT_CHARS,
    SUIT_MASKS,
    SUITS,
    TEN,
    CardSet,
    Trump,
    card,
)
from ..engine.messages import Message


def holds(hand: CardSet, suit: int, rank: int) -> bool:
    """Whether ``hand`` holds the card of ``suit`` and ``rank``."""
    return bool(hand >> card(suit, rank) & 1)


def _tricks(n: int) -> str:
    return f"{n} trick" if n == 1 else f"{n} tricks"


def whole(x: float) -> int:
    """Whole tricks of an estimate: ``x`` rounded down, a float's rounding error aside."""
    return math.floor(x + 1e-9)


# ----- hand evaluation -----


@dataclass(frozen=True)
class Estimate:
    """Tricks a hand is worth for one trump, and why (short notes for explanations)."""

    tricks: float
    notes: tuple[str, ...]

    def why(self) -> Message:
        """The notes as one translatable list ("the Jack, the 9, side A♠")."""
        return note_list(self.notes)


def _note(note: str) -> Message:
    """One note of an estimate as a translatable message (its cards in record notation)."""
    if note == "J":
        return Message.of("bot.note_jack")
    if note == "9":
        return Message.of("bot.note_nine")
    if note == "9 guarded":
        return Message.of("bot.note_nine_guarded")
    if note == "9 sec":
        return Message.of("bot.note_nine_bare")
    if note == "A":
        return Message.of("bot.note_ace")
    if note == "10":
        return Message.of("bot.note_ten")
    if note == "belote":
        return Message.of("bot.note_belote")
    if note.endswith(" trumps"):
        return Message.of("bot.note_trumps", count=int(note.split()[0]))
    if note.startswith("melds "):
        return Message.of("bot.note_melds", points=int(note.split()[1]))
    if note.startswith("void "):
        return Message.of("bot.note_void", suit=note.split()[1])
    if note.startswith("side "):
        words = note.split()[1:]
        cards = " ".join(w for w in words if len(w) == 2)
        parts = [Message.of("bot.note_side", cards=cards)] if cards else []
        parts += [Message.of("bot.note_void", suit=words[i + 1]) for i, w in enumerate(words) if w == "void"]
        return note_list(tuple(parts)) if parts else Message.of("bot.nothing_special")
    return Message.of("bot.note_cards", cards=note)


def note_list(notes: Sequence[str | Message]) -> Message:
    """Notes joined by commas ("nothing special" when there are none)."""
    if not notes:
        return Message.of("bot.nothing_special")
    first = notes[0] if isinstance(notes[0], Message) else _note(notes[0])
    if len(notes) == 1:
        return first
    return Message.of("bot.list", first=first, rest=note_list(notes[1:]))


def side_tricks(hand: CardSet, trump: Trump, trumps: int, notes: list[str], ruffs: bool = True) -> float:
    """Side suits in a suit contract: Aces, a 10 with its Ace, a void or singleton to ruff."""
    total = 0.0
    for s in SUITS:
        if s == trump:
            continue
        n = (hand & SUIT_MASKS[s]).bit_count()
        if holds(hand, s, ACE):
            total += 1.0 if n < 6 else 0.5
            notes.append(f"A{SUIT_CHARS[s]}")
            if holds(hand, s, TEN) and n < 5:
                total += 1.0
                notes.append(f"T{SUIT_CHARS[s]}")
        if not ruffs:
            continue
        if n == 0 and trumps >= 3:
            total += 0.5
            notes.append(f"void {SUIT_CHARS[s]}")
        elif n == 1 and trumps >= 4 and not holds(hand, s, ACE):
            total += 0.25
    return total


def opening_estimate(hand: CardSet, trump: Trump) -> Estimate:
    """Tricks of ``hand`` as taker in suit ``trump``, partner unknown."""
    t = trump
    n = (hand & SUIT_MASKS[t]).bit_count()
    j, nine, a, ten = (holds(hand, t, r) for r in (JACK, NINE, ACE, TEN))
    notes: list[str] = []
    tricks = 0.0
    if j:
        tricks += 1
        notes.append("J")
    if nine:
        if j or n >= 3:
            tricks += 1
            notes.append("9")
        elif n == 2:
            tricks += 0.5
            notes.append("9 guarded")
    if a:
        if (j and nine) or n >= 4:
            tricks += 1
            notes.append("A")
        elif n >= 3:
            tricks += 0.5
    if ten:
        if (j and nine and a) or n >= 5:
            tricks += 1
            notes.append("10")
        elif n >= 4:
            tricks += 0.5
    if belote_suits(hand, t):
        tricks += 2
        notes.append("belote")
    if n >= 4:
        tricks += (n - 3) * 0.5 + max(0, n - 4) * 0.5
        notes.append(f"{n} trumps")
    side: list[str] = []
    tricks += side_tricks(hand, t, n, side)
    if side:
        notes.append("side " + " ".join(side))
    return Estimate(tricks, tuple(notes))


def support_estimate(hand: CardSet, trump: Trump) -> Estimate:
    """What ``hand`` brings to its partner's ``trump``, counted as RULES.md section 8 raises."""
    notes: list[str] = []
    if trump == NO_TRUMP:
        tricks = 0.0
        for s in SUITS:
            if holds(hand, s, ACE):
                tricks += 1
                notes.append(f"A{SUIT_CHARS[s]}")
                if holds(hand, s, TEN):
                    tricks += 1
                    notes.append(f"T{SUIT_CHARS[s]}")
        return Estimate(tricks, tuple(notes))
    if trump == ALL_TRUMP:
        tricks = 0.0
        for s in SUITS:
            n = (hand & SUIT_MASKS[s]).bit_count()
            if holds(hand, s, JACK):
                tricks += 1
                notes.append(f"J{SUIT_CHARS[s]}")
                if holds(hand, s, NINE):
                    tricks += 1
                    notes.append(f"9{SUIT_CHARS[s]}")
            elif holds(hand, s, NINE) and n >= 3:
                tricks += 0.5
        return Estimate(tricks, tuple(notes))
    t = trump
    n = (hand & SUIT_MASKS[t]).bit_count()
    j, nine, a, ten = (holds(hand, t, r) for r in (JACK, NINE, ACE, TEN))
    tricks = 0.0
    if j:
        tricks += 2
        notes.append("J")
    if nine:
        tricks += 1
        notes.append("9" if n >= 2 else "9 sec")
        if a and n >= 3:
            tricks += 1
            notes.append("A")
            if ten and n >= 4:
                tricks += 1
                notes.append("10")
    if belote_suits(hand, t):
        tricks += 2
        notes.append("belote")
    side: list[str] = []
    if n >= 2:
        tricks += side_tricks(hand, t, n, side, ruffs=False)
    else:
        for s in SUITS:
            if s != t and holds(hand, s, ACE):
                tricks += 1
                side.append(f"A{SUIT_CHARS[s]}")
                if holds(hand, s, TEN):
                    tricks += 1
                    side.append(f"T{SUIT_CHARS[s]}")
    if side:
        notes.append("side " + " ".join(side))
    return Estimate(tricks, tuple(notes))


def sa_estimate(hand: CardSet) -> tuple[Estimate, int]:
    """Tricks at SA (Aces, 10s with their Ace, long suits headed by A-10) and the Ace count."""
    tricks, aces, notes = 0.0, 0, []
    for s in SUITS:
        n = (hand & SUIT_MASKS[s]).bit_count()
        if holds(hand, s, ACE):
            aces += 1
            tricks += 1
            notes.append(f"A{SUIT_CHARS[s]}")
            if holds(hand, s, TEN):
                tricks += 1
                notes.append(f"T{SUIT_CHARS[s]}")
                if holds(hand, s, KING):
                    tricks += 0.5
                if n >= 5:
                    tricks += n - 4
        elif n <= 1 or (n == 2 and not holds(hand, s, TEN)):
            tricks -= 1  # an unstopped suit the defense runs
    return Estimate(tricks, tuple(notes)), aces


def ta_estimate(hand: CardSet) -> tuple[Estimate, int, int]:
    """Tricks at TA (Jacks, 9s with their Jack or guarded) and the Jack and 9 counts."""
    tricks, jacks, nines, notes = 0.0, 0, 0, []
    for s in SUITS:
        n = (hand & SUIT_MASKS[s]).bit_count()
        j, nine = holds(hand, s, JACK), holds(hand, s, NINE)
        jacks += j
        nines += nine
        if j:
            tricks += 1
            notes.append(f"J{SUIT_CHARS[s]}")
            if nine:
                tricks += 1
                notes.append(f"9{SUIT_CHARS[s]}")
                if holds(hand, s, ACE):
                    tricks += 0.5
        elif nine and n >= 3:
            tricks += 0.5
        if n >= 5 and j:
            tricks += 0.5
    return Estimate(tricks, tuple(notes)), jacks, nines


def capot_hand(hand: CardSet, trump: Trump) -> bool:
    """A near-perfect hand for a capot in ``trump``: J 9 A of trumps and 5+ trumps, every
    side card a master (A, then 10 and K under it)."""
    t = trump
    if not all(holds(hand, t, r) for r in (JACK, NINE, ACE)) or (hand & SUIT_MASKS[t]).bit_count() < 5:
        return False
    for s in SUITS:
        if s == t:
            continue
        cards = hand & SUIT_MASKS[s]
        need = 0
        for r in (ACE, TEN, KING, QUEEN, JACK):
            if cards >> card(s, r) & 1:
                need += 1
            else:
                break
        if need < cards.bit_count():
            return False
    return True


# ----- the bot -----
