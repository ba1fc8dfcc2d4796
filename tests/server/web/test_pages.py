"""The pages (issue 7): French by default, English after /langue/en; an unknown page, a
table of another guest and bad form input get clean HTML pages (404, 400) in the
visitor's language; a server error never shows a traceback."""

from __future__ import annotations

import html
import re

import httpx2
import pytest
from server_helpers import Human, MakeClient, create_solo, csrf_of, live_table, new_guest, parts_of, receive, request
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from coinche.engine.rules import OPTION_NAMES, RuleSet
from coinche.server.table import i18n

SOLO = {"profile": "classic", "target": "700", "level": "confirmed"}

TRACEBACK = re.compile(r'Traceback|File "[^"]*", line \d+|\.py\b|[A-Z][a-z]+Error\b')


def text_of(r: httpx2.Response) -> str:
    return html.unescape(r.text)


def assert_clean_page(r: httpx2.Response, status: int, lang: str, title_key: str) -> None:
    """An HTML page of the site in ``lang`` with ``status``, its title from ``title_key``,
    and nothing of a traceback."""
    assert r.status_code == status, (r.status_code, r.text[:300])
    assert r.headers["content-type"].startswith("text/html")
    body = text_of(r)
    assert f'<html lang="{lang}">' in body
    assert i18n.gettext(lang, title_key) in body
    assert not TRACEBACK.search(body), TRACEBACK.search(body)


def test_the_account_page_has_an_address_in_each_language(client: TestClient) -> None:
    assert_clean_page(client.get("/compte"), 200, "fr", "accounts.page.title")
    r = client.get("/account")
    assert_clean_page(r, 200, "en", "accounts.page.title")
    assert 'href="/langue/fr?next=/compte"' in r.text


@pytest.mark.parametrize(("path", "title"), [("/", "home.title")])
def test_pages_in_french_then_english(client: TestClient, path: str, title: str) -> None:
    r = client.get(path)
    assert_clean_page(r, 200, "fr", title)
    assert i18n.gettext("fr", title) != i18n.gettext("en", title)
    assert i18n.gettext("en", title) not in text_of(r)
    if path == "/":
        assert "Jouer" in text_of(r)
    r = client.get("/langue/en", params={"next": path}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == path
    assert client.cookies["lang"] == "en"
    r = client.get(path)
    assert_clean_page(r, 200, "en", title)
    assert i18n.gettext("fr", title) not in text_of(r)
    r = client.get("/langue/fr", params={"next": path})  # followed: back to the page, in French
    assert r.status_code == 200 and '<html lang="fr">' in r.text


@pytest.mark.parametrize("target", ["//evil.example/", "https://evil.example/", "evil", "/\\evil.example/"])
def test_language_switch_stays_on_the_site(client: TestClient, target: str) -> None:
    r = client.get("/langue/en", params={"next": target}, follow_redirects=False)
    assert r.status_code == 303
    location = r.headers["location"]
    assert location.startswith("/") and not location.startswith(("//", "/\\")), location
    assert "\\" not in location


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/nope"),
        ("GET", "/table/nope"),
        ("GET", "/static/nope.css"),
        ("GET", "/langue/de"),
        ("GET", "/table/" + "x" * 5000),
        ("GET", "/%ff%fe"),
    ],
)
def test_unknown_pages_are_real_404_pages(client: TestClient, method: str, path: str) -> None:
    r = client.request(method, path)
    assert_clean_page(r, 404, "fr", "error.404.title")
    client.cookies.set("lang", "en")
    assert_clean_page(client.request(method, path), 404, "en", "error.404.title")


def test_wrong_method_is_a_clean_page(client: TestClient) -> None:
    assert_clean_page(client.delete("/solo"), 405, "fr", "error.page.title")
    assert_clean_page(client.post("/"), 405, "fr", "error.page.title")


def test_a_table_of_another_guest_is_404(client: TestClient) -> None:
    new_guest(client)
    table_id = create_solo(client, "classic", 700, "confirmed")
    owner = client.cookies["session"]
    assert client.get(f"/table/{table_id}").status_code == 200
    new_guest(client)  # another visitor
    assert_clean_page(client.get(f"/table/{table_id}"), 404, "fr", "error.404.title")
    with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(f"/ws/table/{table_id}") as ws:
        ws.receive_json()  # accepted, then closed: a page reads the code
    assert refused.value.code == 4404
    client.cookies.clear()  # no cookie at all
    assert_clean_page(client.get(f"/table/{table_id}"), 404, "fr", "error.404.title")
    # A forged cookie is no guest either.
    client.cookies.clear()
    client.cookies.set("session", owner[:-3] + "AAA")
    assert_clean_page(client.get(f"/table/{table_id}"), 404, "fr", "error.404.title")


@pytest.mark.parametrize(
    "form",
    [
        {"profile": "chess"},
        {"profile": "", "target": "3000x"},
        {"profile": "classic", "target": "99"},
        {"profile": "classic", "target": "10001"},
        {"profile": "classic", "target": "0"},
        {"profile": "classic", "target": "1e3"},
        {"profile": "classic", "target": "abc"},
        {"profile": "classic", "target": "-700"},
        {"profile": "classic", "target": "7" * 5000},
        {"profile": "classic", "target": "²"},
        {"profile": "classic", "target": " 700"},
        {"profile": "online", "target": "700.0"},
        {"profile": "classic", "target": "700", "target2": "700"},
        {"profile": "classic", "melds": "yes"},
        {"profile": "classic", "melds": "True"},
        {"profile": "classic", "melds": "1"},
        {"profile": "classic", "sa_ta": "on"},
        {"profile": "classic", "max_bid": "170"},
        {"profile": "classic", "max_bid": " 180"},
        {"profile": "classic", "undertrump": "FORCED"},
        {"profile": "classic", "rounding": "nearest5"},
        {"profile": "classic", "packets": "3-3-2"},
        {"profile": "classic", "ta_values": "classic "},
        {"profile": "classic", "real_deal": "maybe"},
        {"profile": "classic", "direction": "clockwise"},
        {"profile": "classic", "generale_value": "1000"},
        {"profile": "classic", "name": "house"},
        {"profile": "classic", "level": "god"},
        {"profile": "classic", "level": "slow_bot:SlowBot"},
        {"profile": "classic", "level": "coinche.bots.random_bot:RandomBot"},
    ],
)
def test_bad_form_input_is_a_clean_400(client: TestClient, form: dict[str, str]) -> None:
    r = client.post("/solo", data={**form, "csrf": csrf_of(client)}, follow_redirects=False)
    assert_clean_page(r, 400, "fr", "error.page.title")
    assert parts_of(client).store.table_ids() == []


def test_bad_form_bodies_are_clean(client: TestClient) -> None:
    broken = client.post(
        "/solo",
        content=b'--xyz\r\nContent-Disposition: form-data; name="profile"\r\n\r\nclassic',  # never ends
        headers={"content-type": "multipart/form-data; boundary=xyz"},
        follow_redirects=False,
    )
    assert broken.status_code in (303, 400), broken.status_code
    assert "Traceback" not in broken.text
    no_boundary = client.post(
        "/solo", content=b"x", headers={"content-type": "multipart/form-data"}, follow_redirects=False
    )
    assert_clean_page(no_boundary, 400, "fr", "error.page.title")


def test_good_form_makes_a_table(client: TestClient) -> None:
    r = client.post("/solo", data={**SOLO, "csrf": csrf_of(client)}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/table/")
    page = client.get(r.headers["location"])
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")


def test_a_server_error_shows_no_traceback(make_client: MakeClient, monkeypatch: pytest.MonkeyPatch) -> None:
    client = make_client(raise_server_exceptions=False)
    parts = parts_of(client)

    async def broken(player: str, fresh: bool = False) -> int:
        raise RuntimeError("secret detail of the failure")

    monkeypatch.setattr(parts.free_deals, "left", broken)
    for lang in ("fr", "en"):
        client.cookies.set("lang", lang)
        r = client.get("/")
        assert_clean_page(r, 500, lang, "error.page.title")
        assert "secret detail" not in r.text and "RuntimeError" not in r.text
        r = client.post("/solo", data={**SOLO, "csrf": csrf_of(client, "/connexion")})
        assert_clean_page(r, 500, lang, "error.page.title")
        assert "secret detail" not in r.text
        assert i18n.gettext(lang, "error.page.text") in text_of(r)
        assert i18n.gettext(lang, "error.page.client_text") not in text_of(r)


def test_a_server_error_on_the_table_socket_shows_no_traceback(
    make_client: MakeClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The connection closes (1011) with no text; the table is intact and a new
    connection gets its state."""
    client = make_client()
    table_id = create_solo(client, "classic", 700, "confirmed")
    parts = parts_of(client)

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("secret detail of the failure")

    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        state = Human(ws).until_my_move()
        log = list(live_table(client, table_id).game.log)
        monkeypatch.setattr(parts.registry, "write", broken)
        ws.send_json(request("action", action=state["game"]["deal"]["legal_actions"][0]))
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(10):
                message = receive(ws)
                assert "secret" not in str(message)
        assert closed.value.code == 1011 and not closed.value.reason
    monkeypatch.undo()
    assert live_table(client, table_id).game.log == log
    with client.websocket_connect(f"/ws/table/{table_id}") as ws:
        again = Human(ws).until_my_move()
        assert again["game"] == state["game"]
        Human(ws).act(again)


@pytest.mark.parametrize(("lang", "address"), [("fr", "/regles/house"), ("en", "/rules/house")])
def test_a_table_page_links_to_its_rules(client: TestClient, lang: str, address: str) -> None:
    client.get(f"/langue/{lang}")
    r = client.post(
        "/solo", data={**SOLO, "profile": "house", "target": "2010", "csrf": csrf_of(client)}, follow_redirects=True
    )
    assert r.status_code == 200
    assert f'href="{address}"' in r.text
    assert client.get(address).status_code == 200


@pytest.mark.parametrize(("pause", "hold"), [(1.0, "1000"), (0.05, "50")])
def test_a_table_page_holds_a_complete_trick_as_long_as_the_server_pauses(
    make_client: MakeClient, pause: float, hold: str
) -> None:
    """The page's hold of a complete trick is the server's trick pause (``--trick-pause``),
    written in the page: the site's second, or what a test server sets."""
    client = make_client(trick_pause=pause)
    r = client.post("/solo", data={**SOLO, "csrf": csrf_of(client)}, follow_redirects=True)
    assert r.status_code == 200
    assert f'data-trick-hold="{hold}"' in r.text


def rules_of(client: TestClient, table_id: str) -> RuleSet:
    """The rules stored for the table (what every later load of it plays by)."""
    loaded = parts_of(client).store.load_table(table_id)
    assert loaded is not None
    return loaded[0].rules


SOLO_OPTIONS = [
    ("target", "100", 100),
    ("target", "10000", 10000),
    ("target", "1500", 1500),
    ("sa_ta", "false", False),
    ("melds", "false", False),
    ("undertrump", "optional", "optional"),
    ("rounding", "nearest10", "nearest10"),
    ("rounding", "house", "house"),
    ("ta_values", "ffb", "ffb"),
    ("belote_must_announce", "true", True),
    ("max_bid", "180", 180),
    ("generale", "false", False),
    ("packets", "233", "233"),
    ("packets", "any", "any"),
    ("real_deal", "true", True),
]


@pytest.mark.parametrize(("name", "text", "value"), SOLO_OPTIONS)
def test_each_option_of_the_solo_form_reaches_the_table_rules(
    client: TestClient, name: str, text: str, value: object
) -> None:
    r = client.post("/solo", data={**SOLO, name: text, "csrf": csrf_of(client)}, follow_redirects=False)
    assert r.status_code == 303, r.text[:300]
    table_id = r.headers["location"].removeprefix("/table/")
    rules = rules_of(client, table_id)
    assert rules.name == "classic"
    assert getattr(rules, name) == value
    assert type(getattr(rules, name)) is type(value)


def test_the_solo_form_sets_every_option_at_once_over_any_profile(client: TestClient) -> None:
    form = {
        "profile": "online",
        "target": "4321",
        "level": "beginner",
        "sa_ta": "true",
        "melds": "true",
        "undertrump": "optional",
        "rounding": "nearest10",
        "ta_values": "ffb",
        "belote_must_announce": "true",
        "max_bid": "180",
        "generale": "true",
        "packets": "323",
        "real_deal": "true",
    }
    r = client.post("/solo", data={**form, "csrf": csrf_of(client)}, follow_redirects=False)
    assert r.status_code == 303, r.text[:300]
    rules = rules_of(client, r.headers["location"].removeprefix("/table/"))
    assert rules.all_options() == {
        "target": 4321,
        "sa_ta": True,
        "melds": True,
        "undertrump": "optional",
        "rounding": "nearest10",
        "ta_values": "ffb",
        "belote_must_announce": True,
        "max_bid": 180,
        "generale": True,
        "packets": "323",
        "real_deal": True,
    }


def test_an_option_left_as_the_rules_say_keeps_the_profile_value(client: TestClient) -> None:
    form = {"profile": "house", "target": "2010", "level": "beginner", "melds": "", "max_bid": "", "csrf": "x"}
    r = client.post("/solo", data={**form, "csrf": csrf_of(client)}, follow_redirects=False)
    assert r.status_code == 303, r.text[:300]
    rules = rules_of(client, r.headers["location"].removeprefix("/table/"))
    assert rules == RuleSet.profile("house")


def test_the_solo_settings_offer_every_option_and_the_whole_target_range(client: TestClient) -> None:
    body = text_of(client.get("/solo"))
    assert 'type="number" id="target" name="target" min="100" max="10000"' in body
    assert "<details" in body and "Plus d'options" in body
    for name in OPTION_NAMES[1:]:
        assert f'name="{name}"' in body, name
    client.cookies.set("lang", "en")
    assert "More options" in text_of(client.get("/solo"))


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_client_error_page_says_what_to_do_not_that_the_server_failed(client: TestClient, lang: str) -> None:
    client.cookies.set("lang", lang)
    r = client.post("/solo", data={"profile": "chess", "csrf": csrf_of(client)}, follow_redirects=False)
    assert_clean_page(r, 400, lang, "error.page.title")
    assert i18n.gettext(lang, "error.page.client_text") in text_of(r)
    assert i18n.gettext(lang, "error.page.text") not in text_of(r)
    assert i18n.gettext(lang, "error.page.client_text") != i18n.gettext(lang, "error.page.text")
