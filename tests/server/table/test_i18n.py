"""French and English catalogues: nothing missing in either language, placeholders alike,
every engine message translated, and the words players expect."""

from __future__ import annotations

import re
import string

import pytest
from babel.messages.pofile import read_po

from coinche.engine.errors import IllegalAction
from coinche.engine.messages import ENGLISH, Message
from coinche.engine.rules import OPTION_NAMES, PROFILES
from coinche.server.features.friends import PHRASES
from coinche.server.features.tournaments.model import FORMATS, STATES
from coinche.server.live.tables import LEVELS
from coinche.server.table import i18n, rules_content
from coinche.server.web import table_pages
from coinche.server.web.pages import WEB
from coinche.server.web.seat_state import adaptive_label

LOCALE = i18n.LOCALE
TEMPLATES = WEB / "templates"


def po_keys(lang: str, name: str) -> dict[str, str]:
    with (LOCALE / lang / name).open("rb") as f:
        return {str(m.id): str(m.string) for m in read_po(f) if m.id}


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


SITE_CATALOGUES = sorted(path.name for path in (LOCALE / "en").glob("*.po"))
"""The pages' catalogues (``site.po`` and one per feature: ``review.po``...), in both
languages; ``engine.po`` is French only (English comes from the engine)."""


def test_both_languages_have_the_same_catalogues() -> None:
    assert "site.po" in SITE_CATALOGUES
    assert sorted(path.name for path in (LOCALE / "fr").glob("*.po")) == sorted([*SITE_CATALOGUES, "engine.po"])


@pytest.mark.parametrize("name", SITE_CATALOGUES)
def test_site_catalogues_have_the_same_keys_and_placeholders(name: str) -> None:
    fr, en = po_keys("fr", name), po_keys("en", name)
    assert set(fr) == set(en), set(fr) ^ set(en)
    for key in fr:
        assert fr[key] and en[key], key
        assert placeholders(fr[key]) == placeholders(en[key]), key


def test_every_engine_message_is_translated_to_french() -> None:
    fr = po_keys("fr", "engine.po")
    assert set(fr) == set(ENGLISH), set(fr) ^ set(ENGLISH)
    for key, template in ENGLISH.items():
        assert placeholders(fr[key]) == placeholders(template), key


def test_every_key_a_template_uses_exists() -> None:
    used: set[str] = set()
    for path in TEMPLATES.rglob("*.html"):
        used |= set(re.findall(r"""\bt\(\s*["']([a-z0-9_.]+)["']""", path.read_text(encoding="utf-8")))
    assert used
    # Keys made in the template (``t("level." ~ level)``) stand for a family: check it whole.
    families = {
        "level.": LEVELS,
        "profile.": tuple(PROFILES),
        "home.option.": OPTION_NAMES[1:],
        "seat.short.": ("south", "west", "north", "east"),
        "friends.new.seat_": ("1", "2", "3"),
        "tournament.format.": FORMATS,
        "tournament.format_help.": FORMATS,
        "tournament.rule_pairing.": FORMATS,
        "tournament.rule_ranking.": FORMATS,
        "tournament.none.": ("running", "open", "finished"),
        "tournament.section.": ("running", "open", "finished"),
        "tournament.state.": STATES,
        "say.": PHRASES,
        **rules_content.KEY_FAMILIES,
    }
    keys = {key for key in used if key not in families and not key.endswith(".")}
    keys |= {prefix + name for prefix in used & families.keys() for name in families[prefix]}
    missing = {key for key in keys if key not in i18n.catalogue("fr") or key not in i18n.catalogue("en")}
    assert not missing


def test_every_option_value_of_the_solo_form_has_words() -> None:
    keys = set()
    for option in table_pages._solo_options():
        keys |= {key for _, key in option["choices"]} | set(option["defaults"].values())
    missing = {key for key in keys if key not in i18n.catalogue("fr") or key not in i18n.catalogue("en")}
    assert keys and not missing


@pytest.mark.parametrize(
    ("lang", "code", "name"),
    [
        ("fr", "JH", "Valet de cœur"),
        ("fr", "TS", "Dix de pique"),
        ("fr", "AC", "As de trèfle"),
        ("fr", "7D", "Sept de carreau"),
        ("en", "JH", "Jack of hearts"),
        ("en", "QD", "Queen of diamonds"),
    ],
)
def test_card_names(lang: str, code: str, name: str) -> None:
    assert i18n.card_name(lang, code) == name


@pytest.mark.parametrize(
    ("lang", "call", "name"),
    [
        ("fr", "pass", "Passe"),
        ("fr", "90H", "90 cœur"),
        ("fr", "100SA", "100 sans atout"),
        ("fr", "120TA", "120 tout atout"),
        ("fr", "capotS", "Capot pique"),
        ("fr", "generaleH", "Générale cœur"),
        ("fr", "coinche", "Coinche"),
        ("fr", "surcoinche", "Surcoinche"),
        ("en", "pass", "Pass"),
        ("en", "90H", "90 hearts"),
        ("en", "capotS", "Capot spades"),
    ],
)
def test_call_names(lang: str, call: str, name: str) -> None:
    assert i18n.call_name(lang, call) == name


def test_engine_refusals_render_in_french_with_cards_in_words() -> None:
    e = IllegalAction("must_overtrump", card="8S", winner="QH", cards="JH 9H")
    assert i18n.render("fr", e.message) == "8♠ interdit : il faut surcouper (D♥) avec V♥ 9♥"
    assert i18n.render("en", e.message) == "8♠ is illegal: must overtrump (Q♥) with J♥ 9♥"


def test_nested_scoring_lines_render_in_french() -> None:
    line = Message.of(
        "score.takers", value=90, base=Message.of("base.card_points", points=95), melds=0, belote=20, total=205
    )
    assert i18n.render("fr", line) == (
        "preneurs : 90 de contrat + 95 points de cartes + 0 d'annonces + 20 de belote = 205"
    )


@pytest.mark.parametrize(
    ("lang", "code", "text"),
    [
        ("fr", "AS", "l'As de pique"),
        ("fr", "QH", "la Dame de cœur"),
        ("fr", "TS", "le Dix de pique"),
        ("en", "TS", "the Ten of spades"),
    ],
)
def test_cards_with_their_article(lang: str, code: str, text: str) -> None:
    assert i18n.card_with_article(lang, code) == text


def test_unknown_language_falls_back_to_french() -> None:
    assert i18n.language("de") == "fr"
    assert i18n.language(None) == "fr"
    assert i18n.language("en") == "en"


def test_the_experts_reasons_render_in_french() -> None:
    """The hint shows the expert's reason in the page's language."""
    from coinche.bots.expert import ExpertBot
    from coinche.engine import Game, RuleSet

    game = Game(RuleSet.profile("classic"), seed=3)
    deal = game.current
    assert deal is not None
    decision = ExpertBot(seed=1, samples=8).choose(deal.view(deal.to_move))
    assert decision.reason is not None and decision.explanation == decision.reason.text
    french = i18n.render("fr", decision.reason)
    assert french != decision.explanation
    assert "attendu" in french or "passe" in french


@pytest.mark.parametrize(
    ("lang", "count", "text"),
    [
        ("fr", 0, "après 0 partie classée"),
        ("fr", 1, "après 1 partie classée"),
        ("fr", 2, "après 2 parties classées"),
        ("en", 0, "after 0 rated games"),
        ("en", 1, "after 1 rated game"),
        ("en", 12, "after 12 rated games"),
    ],
)
def test_plural_forms_come_from_the_catalogue(lang: str, count: int, text: str) -> None:
    said = i18n.ngettext(lang, "player.chart_down", count, start=1000, last=924, low=924, high=1000)
    assert text in said, said


def test_plural_entries_have_their_forms_in_both_languages() -> None:
    """A plural entry's singular is what ``gettext`` reads; a key without plural forms is
    read by ``ngettext`` as ``gettext`` does, with the count filled in."""
    assert "{count} partie classée" in i18n.catalogue("fr")["player.chart_up"]
    assert i18n.ngettext("fr", "player.axis_games", 3) == "Parties classées"
    assert i18n.ngettext("de", "player.chart_flat", 2, last=1, low=1, high=1).startswith("Unchanged")


@pytest.mark.parametrize(
    ("lang", "part", "whole", "text"),
    [("fr", 1, 2, "50\u00a0%"), ("en", 1, 2, "50%"), ("fr", 2, 3, "67\u00a0%"), ("en", 0, 5, "0%"), ("fr", 3, 0, "–")],
)
def test_percentages_are_written_the_languages_way(lang: str, part: int, whole: int, text: str) -> None:
    assert i18n.percent(lang, part, whole) == text
    assert "." not in i18n.percent(lang, part, whole)


def test_numbers_are_written_the_languages_way() -> None:
    assert i18n.number("fr", 1234.5, 1) == "1\u202f234,5"
    assert i18n.number("en", 1234.5, 1) == "1,234.5"


@pytest.mark.parametrize(
    ("level", "fr", "en"),
    [
        (0.0, "Adaptatif, au niveau Débutant", "Adaptive, at Beginner level"),
        (0.02, "Adaptatif, surtout Débutant", "Adaptive, mostly Beginner"),
        (0.25, "Adaptatif, entre Débutant et Confirmé", "Adaptive, between Beginner and Intermediate"),
        (0.5, "Adaptatif, au niveau Confirmé", "Adaptive, at Intermediate level"),
        (0.95, "Adaptatif, surtout Expert", "Adaptive, mostly Expert"),
    ],
)
def test_the_adaptive_level_in_words(level: float, fr: str, en: str) -> None:
    """No knob percentage ("Adaptatif 2 %" read as a strength of 2 %): the level played."""
    assert adaptive_label("fr", level) == fr
    assert adaptive_label("en", level) == en


@pytest.mark.parametrize(
    ("meld", "text"), [("tierce 9C", "Tierce to the nine of clubs"), ("cent AS", "Hundred to the ace of spades")]
)
def test_english_runs_name_their_top_card_in_lower_case(meld: str, text: str) -> None:
    kind, top = meld.split()
    shown = i18n.gettext(
        "en",
        "meld.run",
        kind=i18n.gettext("en", f"meld.{kind}"),
        top=i18n.gettext("en", f"meld.to.{top[0]}"),
        suit=i18n.gettext("en", f"suit.of.{top[1]}"),
    )
    assert shown == text


@pytest.mark.parametrize(
    ("count", "text"), [(1, "il vous reste 1 donne gratuite."), (2, "il vous reste 2 donnes gratuites.")]
)
def test_the_guests_free_deals_in_the_singular_and_plural(count: int, text: str) -> None:
    assert text in i18n.ngettext("fr", "accounts.page.guest", count)


@pytest.mark.parametrize(
    ("lang", "value", "text"), [("fr", 50.0, "50,0\u00a0%"), ("en", 50.0, "50.0%"), ("fr", 12.34, "12,3\u00a0%")]
)
def test_percentages_with_decimals_are_written_the_languages_way(lang: str, value: float, text: str) -> None:
    """The day's ranking's average ("50.0 %" on a French page was an English number)."""
    assert i18n.percent(lang, value, 100, decimals=1) == text


def test_cards_and_calls_in_words_are_kept_and_their_memory_bounded() -> None:
    """Said at every step, a card's or a call's words are kept once said; words asked for
    anything else (a client's text) fill no memory past ``WORDS_KEPT``."""
    assert i18n.card_with_article("fr", "TS") == "le Dix de pique" == i18n.card_with_article("fr", "TS")
    assert i18n.call_name("en", "90H") == i18n.call_name("en", "90H")
    for n in range(i18n.WORDS_KEPT + 10):
        assert i18n.call_name("fr", f"x{n}") == f"x{n}" and i18n.card_name("fr", f"x{n}") == f"x{n}"
    for said in (i18n.card_name, i18n.card_with_article, i18n.card_short, i18n.call_name):
        assert said.cache_info().currsize <= i18n.WORDS_KEPT
