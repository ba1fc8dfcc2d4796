"""The computers' reasons in the deal review speak the page's language only: at every
level (beginner, confirmed, expert, adaptive), over many seeded deals, each reason and its
detail as the review shows them (stored as JSON, read back, rendered) holds no word of the
other language's templates and no card or call in record notation (``QH``, ``10S``,
``90H``): cards and calls are in words."""

from __future__ import annotations

import html
import json
import random
import re
from collections.abc import Callable

import pytest
from babel.messages.pofile import read_po
from server_helpers import Human, MakeClient, create_solo, live_table

from coinche.bots.adaptive import AdaptiveBot
from coinche.bots.base import Bot
from coinche.bots.beginner import BeginnerBot
from coinche.bots.confirmed import ConfirmedBot
from coinche.bots.expert import ExpertBot
from coinche.engine.deal import Deal, random_hands
from coinche.engine.messages import ENGLISH
from coinche.engine.rules import RuleSet
from coinche.server.features.review import explanation_text
from coinche.server.live.computers import explanation_json
from coinche.server.table import i18n

CODE = re.compile(
    r"(?<![0-9A-Za-z])((10|[789TJQKA])[SHDC]|\d{2,3}(SA|TA|[SHDC])|(capot|generale)(SA|TA|[SHDC]))(?![0-9A-Za-z])"
)
"""A card or a call in record notation."""
WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")


def _words(templates: list[str]) -> set[str]:
    out: set[str] = set()
    for template in templates:
        out |= {w.lower() for w in WORD.findall(PLACEHOLDER.sub(" ", template))}
    return out


def _french_templates() -> list[str]:
    out = []
    for name in ("engine.po", "site.po", "review.po"):
        with (i18n.LOCALE / "fr" / name).open("rb") as f:
            out += [str(m.string) for m in read_po(f) if m.id and m.string]
    return out


def _english_templates() -> list[str]:
    out = list(ENGLISH.values())
    for name in ("site.po", "review.po"):
        with (i18n.LOCALE / "en" / name).open("rb") as f:
            out += [str(m.string) for m in read_po(f) if m.id and m.string]
    return out


REASON_IDS = [k for k in ENGLISH if k.startswith("bot.")]
FRENCH_REASONS = _words([i18n.catalogue("fr")[k] for k in REASON_IDS])
ENGLISH_REASONS = _words([ENGLISH[k] for k in REASON_IDS])
ENGLISH_ONLY = ENGLISH_REASONS - _words(_french_templates())
"""Words of the reasons' English templates that no French text uses ("trick", "the")."""
FRENCH_ONLY = FRENCH_REASONS - _words(_english_templates())
"""Words of the reasons' French templates that no English text uses ("pli", "atout")."""

LEVELS: dict[str, tuple[int, Callable[[int], Bot]]] = {
    # level: (deals, bot by seed)
    "beginner": (30, lambda seed: BeginnerBot(seed=seed)),
    "confirmed": (30, lambda seed: ConfirmedBot(seed=seed)),
    "expert": (3, lambda seed: ExpertBot(seed=seed, samples=6)),
    "adaptive": (8, lambda seed: AdaptiveBot(seed=seed, level=(0.0, 0.25, 0.5, 0.75, 1.0)[seed % 5], expert_samples=6)),
}
PROFILES = [("classic", {}), ("federation", {}), ("house", {}), ("online", {"sa_ta": True, "melds": True})]


def test_the_word_lists_are_meaningful() -> None:
    assert {"trick", "tricks", "partner", "the"} <= ENGLISH_ONLY
    assert {"pli", "plis", "partenaire", "le"} <= FRENCH_ONLY


def _shown(lang: str, data: dict[str, object] | None) -> list[str]:
    stored = json.loads(json.dumps(data))  # what the database gives back
    shown = explanation_text(lang, stored)
    assert shown is not None and shown["lang"] == lang, (lang, data)
    return [shown["text"], *([shown["detail"]] if shown["detail"] else [])]


def check_language(lang: str, text: str) -> None:
    assert not CODE.search(text), f"{lang}: a card or call in record notation in {text!r}"
    foreign = ENGLISH_ONLY if lang == "fr" else FRENCH_ONLY
    words = {w.lower() for w in WORD.findall(text)} & foreign
    assert not words, f"{lang}: {sorted(words)} from the other language in {text!r}"


@pytest.mark.parametrize("level", LEVELS)
def test_every_reason_of_the_review_is_in_the_page_language(level: str) -> None:
    deals, make = LEVELS[level]
    rng = random.Random(f"words-{level}")
    checked = 0
    for d in range(deals):
        profile, options = PROFILES[d % len(PROFILES)]
        deal = Deal(RuleSet.profile(profile, **options), rng.randrange(4), random_hands(rng))
        bots = [make(4 * d + s) for s in range(4)]
        while not deal.is_over:
            seat = deal.to_move
            decision = bots[seat].choose(deal.view(seat))
            deal.apply(decision.action)
            assert decision.reason is not None, (level, decision)
            data = explanation_json(decision)
            for lang in ("fr", "en"):
                for text in _shown(lang, data):
                    check_language(lang, text)
                    checked += 1
    assert checked > 100


def test_an_adaptive_reason_in_french() -> None:
    rules = RuleSet.profile("classic")
    deal = Deal(rules, 3, random_hands(random.Random(4)))
    d = AdaptiveBot(seed=1, level=0.4).choose(deal.view(0))
    text = _shown("fr", explanation_json(d))[0]
    assert text.startswith("[Adaptatif : entre Débutant et Confirmé] "), text


def test_an_adaptive_reason_shows_its_tag_once() -> None:
    """The public reason and its private detail both carry the adaptive tag: the review
    says it once, before the public reason, not again before the detail."""
    rules = RuleSet.profile("classic")
    for seed in range(40):
        deal = Deal(rules, seed % 4, random_hands(random.Random(seed)))
        while deal.legal_actions():
            decision = AdaptiveBot(seed=seed, level=0.5).choose(deal.view(deal.to_move))
            data = explanation_json(decision)
            if decision.private_reason is not None and decision.private_reason != decision.reason:
                for lang, tag in (("fr", "[Adaptatif : Confirmé]"), ("en", "[Adaptive: Intermediate]")):
                    shown = explanation_text(lang, data)
                    assert shown is not None and shown["text"].startswith(tag + " "), shown
                    assert shown["detail"] and tag not in shown["detail"], shown
                return
            deal.apply(decision.action)
    pytest.fail("no adaptive decision with a private detail")


EXPLANATION = re.compile(
    r'<li><strong>[^<]*</strong> — <span lang="(\w+)">([^<]*)</span>'
    r'(?: <span class="detail">[^<]*<span lang="(\w+)">([^<]*)</span></span>)?</li>'
)
"""One reason of the review's list: its language, text, then its detail's language and text."""


@pytest.mark.parametrize("level", ["beginner", "confirmed", "adaptive"])
def test_the_review_page_shows_each_level_in_words(make_client: MakeClient, level: str) -> None:
    """A deal played on a table at ``level``: its review page, in French then in English."""
    client = make_client(free_deals=100)
    table_id = create_solo(client, "classic", 700, level)
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        Human(ws, max_deals=4).play_game()
        deals = live_table(client, table_id).game.deals
    n = next(i for i, d in enumerate(deals, start=1) if d.is_over and d.contract is not None)  # not a void deal
    for lang in ("fr", "en"):
        client.cookies.set("lang", lang)
        page = client.get(f"/table/{table_id}/donne/{n}")
        assert page.status_code == 200
        shown = EXPLANATION.findall(page.text)
        assert len(shown) >= 20, page.text[-3000:]  # three computers' calls and cards
        for text_lang, text, detail_lang, detail in shown:
            assert text_lang == lang and detail_lang in ("", lang)
            for words in (text, detail):
                check_language(lang, html.unescape(words))
