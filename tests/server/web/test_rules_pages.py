"""The rules pages (issue 8, part 3): every page in both languages, nothing left untranslated
or unfilled, and every fact shown equal to the engine's answer: the worked examples'
scores, the card-play examples' legal cards and the card values; a rule change changes
the page."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from urllib.parse import quote

import pytest
from babel.messages.pofile import read_po
from starlette.testclient import TestClient

from coinche.engine.cards import parse_card, parse_trump, points_table
from coinche.engine.play import legal_mask, tables, trick_winner
from coinche.engine.rules import PROFILES, RuleSet
from coinche.engine.scoring import calculate
from coinche.server.table import i18n, rules_content
from coinche.server.web import rules_pages
from coinche.server.web.pages import WEB

LANGS = ("fr", "en")
PAGES = [(lang, profile) for lang in LANGS for profile in (None, *PROFILES)]


def rules_po(lang: str) -> dict[str, str]:
    with (i18n.LOCALE / lang / "rules.po").open("rb") as f:
        return {str(m.id): str(m.string) for m in read_po(f) if m.id}


class Elements(HTMLParser):
    """Every start tag with its attributes, and the page's text without its tags."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {k: v or "" for k, v in attrs}))

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    def with_attr(self, name: str) -> list[dict[str, str]]:
        return [a for _, a in self.tags if name in a]


def parse(body: str) -> Elements:
    p = Elements()
    p.feed(body)
    return p


@pytest.fixture(scope="module")
def pages() -> dict[tuple[str, str | None], str]:
    """Every rules page's HTML, fetched once through the application."""
    import tempfile

    from coinche.server.infra.config import Settings
    from coinche.server.web.app import create_app

    with tempfile.TemporaryDirectory() as d:
        settings = Settings(database_url=f"sqlite:///{d}/x.db", bot_delay=0, trick_pause=0, bot_workers=1)
        with TestClient(create_app(settings)) as client:
            out = {}
            for lang, profile in PAGES:
                r = client.get(rules_pages.rules_url(lang, profile))
                assert r.status_code == 200, (lang, profile, r.status_code)
                assert f'<html lang="{lang}">' in r.text
                out[lang, profile] = r.text
            return out


def test_addresses() -> None:
    assert rules_pages.rules_url("fr") == "/regles"
    assert rules_pages.rules_url("en") == "/rules"
    assert rules_pages.rules_url("fr", "house") == "/regles/house"
    assert rules_pages.rules_url("en", "online") == "/rules/online"


@pytest.mark.parametrize("path", ["/regles/nope", "/rules/CLASSIC", "/rules/classic/x", "/regles/%3Cscript%3E"])
def test_an_unknown_profile_is_the_sites_404(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 404
    lang = "en" if path.startswith("/rules") else "fr"  # the language of the address
    assert i18n.gettext(lang, "error.404.title") in html.unescape(r.text)


def test_each_page_links_to_itself_in_the_other_language(pages: dict[tuple[str, str | None], str]) -> None:
    for (lang, profile), body in pages.items():
        other = "en" if lang == "fr" else "fr"
        assert f"/langue/{other}?next={quote(rules_pages.rules_url(other, profile))}" in body, (lang, profile)


@pytest.mark.parametrize(("lang", "profile"), PAGES)
def test_no_key_or_placeholder_left(pages: dict[tuple[str, str | None], str], lang: str, profile: str | None) -> None:
    text = html.unescape(" ".join(parse(pages[lang, profile]).text))
    assert not re.search(r"\brules\.[a-z_]+\.[a-z_.]+", text), re.search(r"\brules\.[a-z_]+\.[a-z_.]+", text)
    assert not re.search(r"\b(rank|suit|trump|meld|profile|score|base)\.[A-Za-z_.]+", text)
    assert "{" not in text and "}" not in text


@pytest.mark.parametrize("profile", [None, *PROFILES])
def test_french_pages_have_no_english_sentence(pages: dict[tuple[str, str | None], str], profile: str | None) -> None:
    fr, en = rules_po("fr"), rules_po("en")
    body = html.unescape(pages["fr", profile])
    for key, english in en.items():
        if english == fr[key]:
            continue
        for piece in re.split(r"\{[a-z_]+\}", english):
            if len(piece.strip()) >= 12:
                assert piece.strip() not in body, (key, piece)


def test_the_catalogues_hold_the_same_keys() -> None:
    assert set(rules_po("fr")) == set(rules_po("en"))
    assert all(key.startswith("rules.") for key in rules_po("en"))


@pytest.mark.parametrize(("lang", "profile"), [(lang, p) for lang in LANGS for p in PROFILES])
def test_worked_examples_equal_the_calculator(
    pages: dict[tuple[str, str | None], str], lang: str, profile: str
) -> None:
    rules = PROFILES[profile]
    shown = parse(pages[lang, profile]).with_attr("data-example")
    assert len(shown) >= 6
    assert [a["data-example"] for a in shown] == [e.id for e in rules_content.content(rules).examples]
    for a in shown:
        score = calculate(
            rules,
            a["data-contract"],
            int(a["data-points"]),
            int(a["data-multiplier"]),
            taker_belotes=int(a["data-taker-belotes"]),
            taker_melds=int(a["data-taker-melds"]),
            sweep=a["data-sweep"] or None,  # type: ignore[arg-type]
        )
        assert (a["data-made"], int(a["data-taker"]), int(a["data-defense"])) == (
            "true" if score.made else "false",
            score.taker,
            score.defense,
        ), a["data-example"]
        # The explanation lines shown are the engine's, in the page's language.
        assert html.escape(i18n.render(lang, score.lines[-1]), quote=False) in pages[lang, profile]


SEEDS = {
    # (profile, example): (made, takers, defense) as the seeds and RULES.md section 5 give them
    ("online", "made"): (True, 212, 50),
    ("online", "failed"): (False, 0, 280),
    ("online", "coinched"): (True, 360, 0),
    ("online", "surcoinched"): (False, 0, 520),
    ("online", "sweep"): (True, 360, 0),
    ("house", "belote"): (True, 220, 60),
    ("federation", "before_rounding"): (False, 0, 250),
    ("classic", "generale_failed"): (False, 0, 660),
}


@pytest.mark.parametrize(("profile", "example"), list(SEEDS))
def test_the_seeds_examples_read_as_the_seeds_say(profile: str, example: str) -> None:
    ex = next(e for e in rules_content.content(PROFILES[profile]).examples if e.id == example)
    assert (ex.score.made, ex.score.taker, ex.score.defense) == SEEDS[profile, example]


def independent_legal(rules: RuleSet, trump: str, trick: list[str], hand: list[str]) -> set[str]:
    """The legal cards of a drawn position asked of ``play.legal_mask`` directly (the page
    asks a whole ``Deal``)."""
    tt = tables(parse_trump(trump), rules.ta_values == "ffb")
    cards = [parse_card(c) for c in trick]
    win = trick_winner(cards, tt)
    partner = (len(cards) - win) % 2 == 0
    mask = sum(1 << parse_card(c) for c in hand)
    legal = legal_mask(mask, cards, cards[win], partner, tt, rules.undertrump == "forced")
    return {c for c in hand if legal >> parse_card(c) & 1}


@pytest.mark.parametrize(("lang", "profile"), [(lang, p) for lang in LANGS for p in PROFILES])
def test_card_play_examples_mark_the_engines_legal_cards(
    pages: dict[tuple[str, str | None], str], lang: str, profile: str
) -> None:
    rules = PROFILES[profile]
    body = pages[lang, profile]
    figures = re.findall(r'<figure class="play-example" data-play="(\w+)" data-legal="([^"]*)".*?</figure>', body, re.S)
    examples = {p.id: p for p in rules_content.content(rules).plays}
    assert [f[0] for f in figures] == list(examples)
    for play_id, legal in figures:
        ex = examples[play_id]
        figure = re.search(rf'data-play="{play_id}".*?</figure>', body, re.S)
        assert figure is not None
        marked = re.findall(r'data-legal="true">\s*<span class="card [^"]*" [^>]*data-card="(\w\w)"', figure.group(0))
        expected = independent_legal(rules, ex.trump, [p.card for p in ex.trick], list(ex.hand))
        assert set(marked) == set(legal.split()) == expected, play_id
        assert 0 < len(expected) <= len(ex.hand)


def test_undertrumping_follows_the_rule_set() -> None:
    def undertrump(rules: RuleSet) -> rules_content.PlayExample:
        return next(p for p in rules_content.content(rules).plays if p.id == "undertrump")

    forced = undertrump(RuleSet.profile("classic"))
    optional = undertrump(RuleSet.profile("classic", undertrump="optional"))
    assert set(forced.legal) < set(optional.legal) == set(optional.hand)
    assert forced.note != optional.note


@pytest.mark.parametrize("profile", list(PROFILES))
def test_the_card_table_is_the_engines(pages: dict[tuple[str, str | None], str], profile: str) -> None:
    rules = PROFILES[profile]
    cells = parse(pages["en", profile]).with_attr("data-col")
    assert cells
    trumps = {"trump": ("H", "H"), "plain": ("H", "S"), "sa": ("SA", "S"), "ta": ("TA", "S")}
    assert {a["data-col"] for a in cells} == ({"trump", "plain", "sa", "ta"} if rules.sa_ta else {"trump", "plain"})
    body = pages["en", profile]
    for a in cells:
        trump, suit = trumps[a["data-col"]]
        points = points_table(parse_trump(trump), rules.ta_values == "ffb")[parse_card(a["data-rank"] + suit)]
        cell = f'data-col="{a["data-col"]}" data-rank="{a["data-rank"]}">{points}</td>'
        assert cell in body


def test_a_rule_change_changes_the_page() -> None:
    classic = rules_pages.render_profile("en", RuleSet.profile("classic"))
    no_melds = rules_pages.render_profile("en", RuleSet.profile("classic", melds=False))
    assert 'data-section="melds"' in classic and 'data-section="melds"' not in no_melds
    assert 'data-example="melds"' in classic and 'data-example="melds"' not in no_melds
    no_sa_ta = rules_pages.render_profile("fr", RuleSet.profile("classic", sa_ta=False))
    assert 'data-col="ta"' not in no_sa_ta and 'data-play="all_trump"' not in no_sa_ta
    # The target and the surcoinche follow the table's target.
    house = rules_content.content(RuleSet.profile("house", target=3010))
    assert next(e for e in house.examples if e.id == "surcoinched").multiplier == 4
    assert "3010" in rules_pages.render_profile("en", RuleSet.profile("house", target=3010))


def test_the_side_by_side_table(pages: dict[tuple[str, str | None], str]) -> None:
    for lang in LANGS:
        body = pages[lang, None]
        assert "<caption" in body and '<th scope="col">' in body and '<th scope="row">' in body
        for profile in PROFILES:
            assert f'href="{rules_pages.rules_url(lang, profile)}"' in body
        for rules in PROFILES.values():
            assert f"<td>{rules.target}</td>" in body


def test_no_profile_test_in_the_templates_or_the_code() -> None:
    """One template serves the four profiles: it reads the rule set's attributes."""
    from pathlib import Path

    sources = [Path(rules_pages.__file__), Path(rules_content.__file__)]
    templates = WEB / "templates"
    sources += [templates / "rules.html", templates / "rules_profile.html", templates / "_cards.html"]
    for path in sources:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"(name|profile)\s*==", text), path


def test_page_weight(pages: dict[tuple[str, str | None], str]) -> None:
    """Each page with everything it loads (its style sheets) weighs under 150 KB."""
    from coinche.server.web.pages import WEB

    for (lang, profile), body in pages.items():
        sheets = re.findall(r'<link rel="stylesheet" href="/static/([^"]+)"', body)
        assert not re.search(r"<script|<img", body)
        weight = len(body.encode()) + sum((WEB / "static" / s).stat().st_size for s in sheets)
        assert weight < 150_000, (lang, profile, weight)
