"""The score calculator page (issue 8) through the server: every worked example of the seeds
through the form without JavaScript (GET and POST) and through the JSON endpoint the script
calls, in French and English; each impossible input gets its message next to its field;
no input at all makes a server error."""

from __future__ import annotations

import html
import re
import sys
from pathlib import Path
from typing import Any

import httpx2
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from coinche.server.table import i18n
from coinche.server.web import calculator_page

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from worked_examples import ALL, Example

PAGES = {"fr": "/calculateur", "en": "/calculator"}
API = "/api/calculate"
TRACEBACK = re.compile(r'Traceback|File "[^"]*", line \d+|\.py\b|[A-Z][a-z]+Error\b')
LAST_LINE = {"fr": "score : preneurs {t}, défense {d}", "en": "score: takers {t}, defense {d}"}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """One application for the module: the calculator keeps no state between requests."""
    from server_helpers import settings_for

    from coinche.server.web.app import create_app

    app = create_app(settings_for(tmp_path_factory.mktemp("calc")))
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def text(r: httpx2.Response) -> str:
    return html.unescape(r.text)


def by_id(body: str, element_id: str) -> str:
    """The text inside the element with ``element_id`` (tags removed)."""
    m = re.search(rf'<(\w+)[^>]*\bid="{re.escape(element_id)}"[^>]*>(.*?)</\1>', body, re.S)
    assert m, element_id
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", m.group(2))).strip()


def opening_tag(body: str, element_id: str) -> str:
    m = re.search(rf'<\w+[^>]*\bid="{re.escape(element_id)}"[^>]*>', body)
    assert m, element_id
    return m.group(0)


def shown_errors(body: str) -> dict[str, str]:
    """The field messages the page shows, by slot."""
    found = re.findall(r'<p class="field-error" id="err-([a-z_]+)" data-slot="[a-z_]+"( hidden)?>(.*?)</p>', body, re.S)
    return {slot: message.strip() for slot, hidden, message in found if not hidden}


def assert_result(body: str, lang: str, ex: Example) -> None:
    assert shown_errors(body) == {}, shown_errors(body)
    assert by_id(body, "score-taker") == str(ex.taker)
    assert by_id(body, "score-defense") == str(ex.defense)
    assert by_id(body, "calc-verdict") == i18n.gettext(lang, "calc_page.made" if ex.made else "calc_page.failed")
    lines = re.findall(r"<li>(.*?)</li>", body.split('id="calc-lines"')[1].split("</ol>")[0], re.S)
    assert lines[-1].strip() == LAST_LINE[lang].format(t=ex.taker, d=ex.defense)
    summary_key = "calc_page.summary_made" if ex.made else "calc_page.summary_failed"
    assert by_id(body, "calc-summary") == i18n.gettext(lang, summary_key, takers=ex.taker, defense=ex.defense)


# ----- the worked examples -----


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("ex", ALL, ids=[e.id for e in ALL])
def test_worked_example_through_the_form(client: TestClient, ex: Example, lang: str) -> None:
    r = client.get(PAGES[lang], params=ex.fields())
    assert r.status_code == 200
    body = text(r)
    assert f'<html lang="{lang}">' in body
    assert_result(body, lang, ex)
    r = client.post(PAGES[lang], data=ex.fields())  # a form posted to the server works the same
    assert r.status_code == 200
    assert_result(text(r), lang, ex)


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("ex", ALL, ids=[e.id for e in ALL])
def test_worked_example_through_the_api(client: TestClient, ex: Example, lang: str) -> None:
    r = client.get(API, params={**ex.fields(), "lang": lang})
    assert r.status_code == 200
    doc = r.json()
    assert (doc["ok"], doc["made"], doc["taker"], doc["defense"]) == (True, ex.made, ex.taker, ex.defense)
    assert doc["errors"] == {}
    assert doc["lines"][-1] == LAST_LINE[lang].format(t=ex.taker, d=ex.defense)
    assert doc["verdict"] == i18n.gettext(lang, "calc_page.made" if ex.made else "calc_page.failed")


def test_the_explanation_is_in_the_pages_language(client: TestClient) -> None:
    fields = {"profile": "house", "bid": "100", "trump": "H", "points": "96", "taker_belote": "1"}
    fr = text(client.get(PAGES["fr"], params=fields))
    en = text(client.get(PAGES["en"], params=fields))
    assert "arrondi (attaque à partir de 6, défense à partir de 7)" in fr and "contrat 100 cœur" in fr
    assert "rounding attack up from 6" in en and "contract 100 hearts" in en
    assert "rounding attack" not in fr and "arrondi (attaque" not in en


# ----- the page itself -----


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_first_visit_shows_the_form_and_no_error(client: TestClient, lang: str) -> None:
    r = client.get(PAGES[lang])
    assert r.status_code == 200
    body = text(r)
    assert i18n.gettext(lang, "calc_page.title") in body
    assert shown_errors(body) == {}
    assert 'id="calc-score" hidden' in body
    assert "novalidate" in opening_tag(body, "calc-form")
    assert 'aria-current="page"' in body  # the header's calculator link
    assert not TRACEBACK.search(body)


def test_the_language_link_keeps_the_deal(client: TestClient) -> None:
    body = text(client.get(PAGES["fr"], params={"profile": "online", "bid": "100", "trump": "H", "points": "112"}))
    link = re.search(r'href="(/langue/en\?next=[^"]+)"', body)
    assert link
    r = client.get(link.group(1))
    assert r.status_code == 200 and '<html lang="en">' in r.text
    assert by_id(text(r), "score-taker") == "212"


@pytest.mark.parametrize(
    ("fields", "shown"),
    [
        ({"profile": "classic"}, True),
        ({"profile": "federation"}, True),
        ({"profile": "house"}, False),
        ({"profile": "online"}, False),
        ({"profile": "online", "melds": "yes"}, True),  # the rule set decides, not the profile's name
        ({"profile": "classic", "melds": "no"}, False),
    ],
)
def test_meld_fields_follow_the_rule_set(client: TestClient, fields: dict[str, str], shown: bool) -> None:
    tag = opening_tag(text(client.get(PAGES["en"], params=fields)), "melds-group")
    assert (" hidden" not in tag) is shown
    assert (" disabled" not in tag) is shown
    doc = client.get(API, params={**fields, "lang": "en"}).json()
    assert doc["rules"]["melds"] is shown


def test_contract_values_follow_the_rules(client: TestClient) -> None:
    classic = by_id(text(client.get(PAGES["en"], params={"profile": "classic"})), "bid")
    house = by_id(text(client.get(PAGES["en"], params={"profile": "house"})), "bid")
    online = by_id(text(client.get(PAGES["en"], params={"profile": "online"})), "bid")
    assert "160" in classic and "170" not in classic and "Générale (500)" in classic
    assert "180" in house and "Générale (300)" in house
    assert "Capot (250)" in online and "Générale" not in online
    assert client.get(API, params={"profile": "house", "lang": "en"}).json()["rules"]["bid_values"][-1] == 180


def test_surcoinche_label_follows_the_target(client: TestClient) -> None:
    assert by_id(text(client.get(PAGES["en"], params={"profile": "house"})), "surcoinche-x") == "3"
    assert by_id(text(client.get(PAGES["en"], params={"profile": "house", "target": "3010"})), "surcoinche-x") == "4"
    assert by_id(text(client.get(PAGES["en"], params={"profile": "classic"})), "surcoinche-x") == "4"


# ----- impossible input: a message next to the field -----

BASE = {"profile": "classic", "bid": "90", "trump": "H", "points": "100"}

ERRORS: list[tuple[dict[str, str], str, dict[str, str]]] = [
    # the engine's ScoringError, by its field
    ({"profile": "online", "trump": "SA"}, "contract", {"en": "SA and TA", "fr": "sans atout et tout atout"}),
    ({"bid": "170"}, "contract", {"en": "from 80 to 160", "fr": "de 80 à 160"}),
    ({"profile": "online", "bid": "generale"}, "contract", {"en": "no générale", "fr": "pas de générale"}),
    ({"points": "170"}, "points", {"en": "between 0 and 162, not 170", "fr": "de 0 à 162, pas 170"}),
    ({"points": "150", "sweep": "taker"}, "points", {"en": "all 162 points", "fr": "les 162 points"}),
    ({"profile": "federation", "points": "162", "sweep": "taker"}, "points", {"en": "all 252", "fr": "252"}),
    ({"points": "10", "sweep": "defense"}, "points", {"en": "0 points", "fr": "0 point"}),
    ({"taker_belote": "2"}, "belote", {"en": "at most 1 belote", "fr": "au plus 1 belote"}),
    ({"trump": "SA", "defense_belote": "1"}, "belote", {"en": "at most 0", "fr": "au plus 0"}),
    ({"taker_melds": "25"}, "taker_melds", {"en": "multiple of 10", "fr": "multiple positif de 10"}),
    ({"defense_melds": "990"}, "defense_melds", {"en": "cannot exceed", "fr": "ne dépassent pas"}),
    (
        {"profile": "online", "taker_melds": "20"},
        "taker_melds",
        {"en": "elds are not played", "fr": "ne jouent pas les annonces"},
    ),
    ({"taker_melds": "20", "defense_melds": "50"}, "meld_points", {"en": "only one team", "fr": "une seule équipe"}),
    # what the form reads itself
    ({"points": ""}, "points", {"en": "Enter the takers' card points (0 to 162)", "fr": "de 0 à 162"}),
    ({"points": "abc"}, "points", {"en": "not a whole number", "fr": "pas un nombre entier"}),
    ({"points": "-5"}, "points", {"en": "not a whole number", "fr": "pas un nombre entier"}),
    ({"points": "8" * 5000}, "points", {"en": "far too large", "fr": "bien trop grand"}),
    ({"points": "9.5"}, "points", {"en": "not a whole number", "fr": "pas un nombre entier"}),
    ({"taker_belote": "x"}, "belote", {"en": "not a whole number", "fr": "pas un nombre entier"}),
    ({"defense_melds": "lots"}, "defense_melds", {"en": "not a whole number", "fr": "pas un nombre entier"}),
    ({"bid": ""}, "contract", {"en": "Choose the contract", "fr": "Choisissez la valeur"}),
    ({"bid": "95"}, "contract", {"en": "95H", "fr": "95H"}),
    ({"trump": "X"}, "contract", {"en": "Unknown contract", "fr": "Contrat inconnu"}),
    ({"double": "x8"}, "double", {"en": "Unknown choice", "fr": "Choix inconnu"}),
    ({"sweep": "all"}, "sweep", {"en": "Unknown choice", "fr": "Choix inconnu"}),
    ({"profile": "belote"}, "profile", {"en": "Unknown rules", "fr": "Règles inconnues"}),
    ({"profile": "house", "target": "3000"}, "target", {"en": "play to 2010, 3010", "fr": "en 2010, 3010"}),
    ({"target": "abc"}, "target", {"en": "Target 'abc'", "fr": "Objectif 'abc'"}),
    ({"rounding": "up"}, "rounding", {"en": "Unknown choice", "fr": "Choix inconnu"}),
    ({"sa_ta": "maybe"}, "sa_ta", {"en": "Unknown choice", "fr": "Choix inconnu"}),
    ({"max_bid": "200"}, "max_bid", {"en": "Unknown choice", "fr": "Choix inconnu"}),
]


ERROR_IDS = [f"{slot}-{i}" for i, (_, slot, _) in enumerate(ERRORS)]


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize(("fields", "slot", "expected"), ERRORS, ids=ERROR_IDS)
def test_impossible_input_gets_its_message_next_to_the_field(
    client: TestClient, fields: dict[str, str], slot: str, expected: dict[str, str], lang: str
) -> None:
    params = {**BASE, **fields}
    r = client.get(PAGES[lang], params=params)
    assert r.status_code == 200
    body = text(r)
    errors = shown_errors(body)
    assert slot in errors, errors
    assert expected[lang] in errors[slot], errors[slot]
    assert 'id="calc-score" hidden' in body
    assert not TRACEBACK.search(body)
    # the fields the message belongs to say so, and point at it
    described = re.findall(rf'<(?:input|select)[^>]*aria-describedby="[^"]*\berr-{slot}\b[^"]*"[^>]*>', body)
    assert described and all('aria-invalid="true"' in tag for tag in described), slot
    # the live region says it too
    assert errors[slot] in by_id(body, "calc-summary")

    r = client.get(API, params={**params, "lang": lang})
    assert r.status_code == 422
    doc = r.json()
    assert doc["ok"] is False and expected[lang] in doc["errors"][slot]


def test_every_scoring_error_field_has_a_place_on_the_page(client: TestClient) -> None:
    """``ScoringError.field`` names (its docstring lists them) each land next to a field."""
    body = text(client.get(PAGES["en"]))
    fields = ("contract", "points", "belote", "taker_melds", "defense_melds", "melds", "sweep", "multiplier")
    for engine_field in fields:
        slot = calculator_page.SLOTS.get(engine_field, engine_field)
        assert f'id="err-{slot}"' in body, engine_field


# ----- garbage never breaks the page -----

NASTY = ["", " ", "-1", "1e3", "0x10", "²", "٣", "9" * 5000, "<script>alert(1)</script>", "\x00", "é", "1 2", "NaN"]
NAMES = ["profile", "target", "bid", "trump", "double", "points", "sweep", "taker_belote", "defense_belote",
         "taker_melds", "defense_melds", "sa_ta", "rounding", "melds", "generale", "max_bid"]  # fmt: skip


@pytest.mark.parametrize("name", NAMES)
def test_nasty_values_in_each_field(client: TestClient, name: str) -> None:
    for value in NASTY:
        params = {**BASE, name: value}
        for lang in ("fr", "en"):
            r = client.get(PAGES[lang], params=params)
            assert r.status_code == 200, (name, value)
            assert "<script>alert" not in r.text
            assert not TRACEBACK.search(text(r)), (name, value)
            r = client.get(API, params={**params, "lang": lang})
            assert r.status_code in (200, 422), (name, value)
            assert isinstance(r.json()["errors"], dict)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.dictionaries(st.sampled_from([*NAMES, "lang", "other"]), st.text(max_size=30), max_size=8))
@example({"profile": "aError"})  # shown back as typed: not a traceback
def test_any_query_is_answered(client: TestClient, params: dict[str, str]) -> None:
    r = client.get(API, params=params)
    assert r.status_code in (200, 422)
    doc = r.json()
    assert (r.status_code == 422) is bool(doc["errors"])
    assert not (doc["ok"] and doc["errors"])
    r = client.get(PAGES["fr"], params=params)
    assert r.status_code == 200
    shown = text(r)
    for value in params.values():  # the page may show what was typed ("aError"), escaped
        shown = shown.replace(value, " ") if value else shown
    assert not TRACEBACK.search(shown)


def test_a_post_that_is_no_form(client: TestClient) -> None:
    r = client.post(PAGES["en"], content=b"\xff\xfe not a form", headers={"content-type": "multipart/form-data"})
    assert r.status_code == 200
    r = client.post(API, content=b"{}", headers={"content-type": "application/json"})
    assert r.status_code in (200, 422)
