"""French and English: the site's message catalogues and the names of cards and calls.

Catalogues are gettext ``.po`` files read with Babel (``locale/<lang>/*.po``): ``site.po``
holds the pages' and the table's words (keys such as ``home.play``), ``engine.po`` the
French templates of the engine's messages (ids of ``coinche.engine.messages``; English
comes from the engine itself). A key missing from a language falls back to English, then
to the key; a test checks that none is missing.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from functools import cache, lru_cache
from gettext import c2py
from pathlib import Path
from typing import Final

from babel import Locale
from babel.dates import format_date
from babel.lists import format_list
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent

from ...engine import messages
from ...engine.actions import bid_rank, bid_trump, is_capot, is_generale, parse_call
from ...engine.cards import RANK_CHARS, SUIT_CHARS, TRUMP_NAMES, parse_card
from ...engine.errors import EngineError
from ...engine.messages import ENGLISH, Message

LOCALE = Path(__file__).parent / "locale"
LANGUAGES: Final = ("fr", "en")
DEFAULT_LANGUAGE: Final = "fr"

CARD_PARAMS: Final = frozenset({"card", "winner"})
CARD_NAME_PARAMS: Final = frozenset({"played"})
"""Cards named in full words ("Dame de cœur"): the card a computer's reason is about."""
CARDS_PARAMS: Final = frozenset({"cards"})
SUIT_PARAMS: Final = frozenset({"suit"})
CALL_PARAMS: Final = frozenset({"call", "current", "earlier"})
TRUMP_PARAMS: Final = frozenset({"trump"})


def language(value: str | None) -> str:
    """A supported language from a cookie or query value (French by default)."""
    return value if value in LANGUAGES else DEFAULT_LANGUAGE


@cache
def catalogue(lang: str) -> dict[str, str]:
    """Every key of ``lang``: its ``.po`` files, English engine templates underneath (a
    plural entry's key holds its singular form: see ``ngettext``)."""
    out: dict[str, str] = dict(ENGLISH) if lang == "en" else {}
    for path in sorted((LOCALE / lang).glob("*.po")):
        with path.open("rb") as f:
            for m in read_po(f, locale=lang):
                if isinstance(m.id, tuple) and isinstance(m.string, tuple) and m.string[0]:
                    out[str(m.id[0])] = str(m.string[0])
                elif m.id and m.string:
                    out[str(m.id)] = str(m.string)
    return out


@dataclass(frozen=True)
class _Plural:
    """A plural entry of a catalogue: its forms and which one a count takes (the
    ``Plural-Forms`` of its ``.po`` file's header)."""

    forms: tuple[str, ...]
    index: Callable[[int], int]


@cache
def _plurals(lang: str) -> dict[str, _Plural]:
    out: dict[str, _Plural] = {}
    for path in sorted((LOCALE / lang).glob("*.po")):
        with path.open("rb") as f:
            po = read_po(f, locale=lang)
        index = c2py(po.plural_expr)
        for m in po:
            if isinstance(m.id, tuple) and isinstance(m.string, tuple) and all(m.string):
                out[str(m.id[0])] = _Plural(tuple(str(s) for s in m.string), index)
    return out


def ngettext(lang: str, key: str, count: int, **params: object) -> str:
    """The text of plural entry ``key`` for ``count`` in ``lang`` ("1 partie classée", "2
    parties classées"; French puts 0 in the singular), ``count`` and ``params`` filled in.
    A key without plural forms is read as ``gettext`` reads it."""
    entry = _plurals(lang).get(key) or _plurals("en").get(key)
    if entry is None:
        return gettext(lang, key, count=count, **params)
    template = entry.forms[min(max(entry.index(count), 0), len(entry.forms) - 1)]
    try:
        return template.format(count=count, **params)
    except (KeyError, IndexError, ValueError):
        return template


def duration(lang: str, seconds: float) -> str:
    """A wait in words, as "try again in ..." says it: seconds under a minute, else whole
    minutes (rounded up: never sooner than the wait), hours and minutes from an hour on
    ("45 secondes", "44 minutes", "1 heure et 30 minutes")."""
    whole = max(1, math.ceil(seconds))
    if whole < 60:
        return ngettext(lang, "accounts.wait.seconds", whole)
    hours, minutes = divmod(math.ceil(whole / 60), 60)
    if not hours:
        return ngettext(lang, "accounts.wait.minutes", minutes)
    said = ngettext(lang, "accounts.wait.hours", hours)
    if not minutes:
        return said
    return gettext(
        lang, "accounts.wait.hours_minutes", hours=said, minutes=ngettext(lang, "accounts.wait.minutes", minutes)
    )


def percent(lang: str, part: float, whole: float = 1.0, decimals: int = 0) -> str:
    """``part`` of ``whole`` as a percentage the way ``lang`` writes it: "50 %" in French (a
    no-break space), "50%" in English, with ``decimals`` ("50,5 %", "50.5%"); "–" when
    ``whole`` is 0."""
    if not whole:
        return "–"
    if decimals <= 0:
        return format_percent(part / whole, locale=lang)
    pattern = Locale.parse(lang).percent_formats[None].pattern.replace("#,##0", "#,##0." + "0" * decimals, 1)
    return format_percent(part / whole, format=pattern, locale=lang, decimal_quantization=True)


def month(lang: str, season: str) -> str:
    """A season's month (``YYYY-MM``) the way ``lang`` names it: "décembre 2026",
    "December 2026"."""
    year, month_number = (int(x) for x in season.split("-"))
    return format_date(date(year, month_number, 1), "LLLL y", locale=lang)


def number(lang: str, value: float, decimals: int = 0) -> str:
    """A number the way ``lang`` writes it: "1 234,5" in French, "1,234.5" in English."""
    pattern = "#,##0" + ("." + "0" * decimals if decimals > 0 else "")
    return format_decimal(value, format=pattern, locale=lang)


def gettext(lang: str, key: str, **params: object) -> str:
    """The text of ``key`` in ``lang`` with ``params`` filled in."""
    template = catalogue(lang).get(key) or catalogue("en").get(key) or key
    try:
        return template.format(**params) if params else template
    except (KeyError, IndexError, ValueError):
        return template


JS_PREFIXES: Final = ("js.", "rank.", "suit.", "seat.", "call.", "meld.", "trump.", "level.", "phase.")
"""The families of keys the table's scripts need (cards, calls, seats... in words)."""


JS_PLURAL: Final = "#plural"
"""A plural entry's plural form in a page's catalogue is under its key and this (its
singular under the key alone): ``words.js``'s ``tn`` picks one by the language's plural
rule (two forms, as in French and English)."""


def js_catalogue(lang: str, more: tuple[str, ...] = ()) -> dict[str, str]:
    """The keys a page's script needs: the ``JS_PREFIXES`` families and the ``more`` ones
    (a feature's own, such as ``review.``), English where ``lang`` lacks one; a plural
    entry's plural form under its key and ``JS_PLURAL``."""
    prefixes = (*JS_PREFIXES, *more)
    base: dict[str, str] = {}
    for each in ("en", lang):
        base.update({k: v for k, v in catalogue(each).items() if k.startswith(prefixes)})
        plurals = _plurals(each).items()
        base.update({k + JS_PLURAL: p.forms[-1] for k, p in plurals if k.startswith(prefixes)})
    return base


# ----- cards and calls in words -----

WORDS_KEPT: Final = 1024
"""Cards and calls in words kept once said (each language has 32 cards and about a hundred
calls: a table says them at every step, the same words each time)."""


def _rank_and_suit(code: str) -> tuple[str, int] | None:
    """The rank letter and suit index of a card in record notation, None if it is none."""
    try:
        c = parse_card(code)
    except EngineError:
        return None
    return RANK_CHARS[c & 7], c >> 3


@lru_cache(maxsize=WORDS_KEPT)
def card_name(lang: str, code: str) -> str:
    """``Valet de cœur`` / ``Jack of hearts`` for ``JH``."""
    parts = _rank_and_suit(code)
    if parts is None:
        return code
    rank, suit = parts
    return gettext(
        lang, "card.name", rank=gettext(lang, f"rank.{rank}"), suit=gettext(lang, f"suit.of.{SUIT_CHARS[suit]}")
    )


@lru_cache(maxsize=WORDS_KEPT)
def card_with_article(lang: str, code: str) -> str:
    """``le Dix de pique``, ``l'As de cœur``, ``la Dame de trèfle`` / ``the Ten of spades``."""
    parts = _rank_and_suit(code)
    rank = parts[0] if parts is not None else "7"
    return gettext(lang, f"card.article.{rank}", card=card_name(lang, code))


@lru_cache(maxsize=WORDS_KEPT)
def card_short(lang: str, code: str) -> str:
    """``V♥`` / ``J♥`` for ``JH``: how cards are written inside a sentence."""
    parts = _rank_and_suit(code)
    if parts is None:
        return code
    rank, suit = parts
    return gettext(lang, f"rank.short.{rank}") + "♠♥♦♣"[suit]


def or_list(lang: str, items: Sequence[str]) -> str:
    """``le Valet, l'As ou le Dix`` / ``a, b, or c``."""
    return format_list(list(items), style="or", locale=lang)


@lru_cache(maxsize=WORDS_KEPT)
def call_name(lang: str, code: str) -> str:
    """``90 cœur``, ``Capot pique``, ``Passe``, ``Coinche`` for a call of record notation."""
    try:
        action = parse_call(code)
    except EngineError:
        return code
    if code in ("pass", "coinche", "surcoinche"):
        return gettext(lang, f"call.{code}")
    trump = gettext(lang, f"trump.{TRUMP_NAMES[bid_trump(action)]}")
    if is_capot(action):
        return gettext(lang, "call.capot", trump=trump)
    if is_generale(action):
        return gettext(lang, "call.generale", trump=trump)
    return gettext(lang, "call.bid", value=bid_rank(action) // 10, trump=trump)


def render(lang: str, message: Message) -> str:
    """An engine message in ``lang``, its cards and calls named the way players write them."""
    try:
        return messages.render(message, catalogue(lang), lambda key, value: _param(lang, key, value))
    except (KeyError, IndexError, ValueError):  # a template that does not fit: the English
        return message.text if message.id in ENGLISH else message.id


def _param(lang: str, key: str, value: str | int) -> object:
    if isinstance(value, int):
        return value
    if key in CARD_PARAMS:
        return card_short(lang, value)
    if key in CARD_NAME_PARAMS:
        return card_name(lang, value)
    if key in CARDS_PARAMS:
        return " ".join(card_short(lang, c) for c in value.split())
    if key in SUIT_PARAMS and value in SUIT_CHARS:
        return gettext(lang, f"suit.{value}")
    if key in CALL_PARAMS:
        return call_name(lang, value)
    if key in TRUMP_PARAMS and value in TRUMP_NAMES:
        return gettext(lang, f"trump.{value}")
    return value
