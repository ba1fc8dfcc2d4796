"""What makes a person's name: the form it is kept and shown in, the key that makes it
unique and that log-in looks it up by, the key a person typing it finds it by (without
accents), and what it looks like (so look-alikes are refused).
Pure functions: accounts, friends' tables and a migration's back-fill share them."""

from __future__ import annotations

import hashlib
import unicodedata

from disarm import skeleton_key


def clean_name(text: str) -> str:
    """A name as it is kept and shown: NFC, without surrounding spaces."""
    return unicodedata.normalize("NFC", text.strip())


def name_key(name: str) -> str:
    """The form of a name that is unique: ``Zoé``, ``ZOÉ`` and ``zoé`` are one name."""
    return unicodedata.normalize("NFKC", name).casefold()


BOT_MARK = "(robot)"
"""What follows a bot's name everywhere it is shown (``Zébulon (robot)``: the word is the
same in French and English, every font has it, a screen reader says it): no person's name
can hold it (letters, digits, ``-`` and ``_`` only)."""


def bot_name(base: str) -> str:
    """The name a bot account is shown by: its base name and the robot mark."""
    return f"{base} {BOT_MARK}"


def base_name(name: str) -> str:
    """A name without a bot's mark: what makes it unique and finds it."""
    return name.removesuffix(BOT_MARK).rstrip()


def login_key(typed: str) -> str:
    """The key an account is looked up by, from a name as typed (surrounding spaces of any
    kind, any case, full-width letters, a bot's mark or not): the one key of everything
    that reaches the same account, so the per-name log-in limit counts all of them in one
    window."""
    return name_key(base_name(clean_name(typed)))


def search_key(typed: str) -> str:
    """The form a name is searched by when a person types it to find someone: the login
    key without accents (NFKD, combining marks dropped), so ``zoe`` and ``ZOÉ`` find
    ``Zoé``. Not unique: ``Zoé`` and ``Zoè`` share it (the caller asks for the exact name)."""
    decomposed = unicodedata.normalize("NFKD", login_key(typed))
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return unicodedata.normalize("NFC", plain)


def name_skeleton(name: str) -> str:
    """What a name looks like, as Unicode TR39's skeleton (``disarm``'s, with TR39's ``1``/``l``
    and ``0``/``O``, case folded): two names of one skeleton can be taken one for the other
    (Latin ``Pacocaxcaa``, Cyrillic ``Расосахсаа``). Kept as its SHA-256, a fixed length
    (a skeleton can be 18 times longer than its name)."""
    skeleton = skeleton_key(clean_name(name), digit_policy="tr39")
    return hashlib.sha256(skeleton.encode("utf-8", "surrogatepass")).hexdigest()
