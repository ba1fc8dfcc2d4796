"""Accounts: argon2id hashes, server-side sessions that end (log-out, a password change,
deletion), CSRF and origin refusals on every form, the rate limits, and names with markup
or SQL refused or shown harmlessly; a guest who signs up keeps their game."""

from __future__ import annotations

import html
import http.client
import urllib.parse
from pathlib import Path
from typing import Any

import pytest
from markupsafe import escape
from server_helpers import (
    CSRF_FIELD,
    MakeClient,
    ServerProcess,
    another_visitor,
    call,
    create_solo,
    csrf_of,
    new_guest,
    parts_of,
    post_form,
)
from sqlalchemy import select, text
from starlette.routing import Route
from starlette.testclient import TestClient

from coinche.server.features.accounts import (
    Account,
    AccountError,
    AccountStore,
    check_name,
)
from coinche.server.infra.config import Settings
from coinche.server.infra.rows.people import AccountRow, PlayerRow, SessionRow
from coinche.server.table import i18n
from coinche.server.table.names import clean_name, login_key, name_key, name_skeleton
from coinche.server.web.pages import address_language

PASSWORD = "correct horse"


def sign_up(client: TestClient, name: str, password: str = PASSWORD, **more: str) -> Any:
    form = {"name": name, "password": password, "confirm": more.pop("confirm", password), **more}
    return post_form(client, "/inscription", form, page="/inscription")


def log_in(client: TestClient, name: str, password: str = PASSWORD) -> Any:
    return post_form(client, "/connexion", {"name": name, "password": password}, page="/connexion")


def logged_in_as(client: TestClient) -> str | None:
    """The name the header shows, None when it offers to log in."""
    page = client.get("/compte").text
    if 'href="/connexion"' in page.split("</nav>", 1)[0]:
        return None
    return html.unescape(page.split('class="account-name">', 1)[1].split("<", 1)[0])


def rows(client: TestClient, row: Any) -> list[Any]:
    store = client.app.state.store  # type: ignore[attr-defined]
    with store.session() as s:
        return list(s.scalars(select(row)))


# ----- names -----


@pytest.mark.parametrize("name", ["Zoé", "ZOÉ_42", "Ζωή", "李小龙", "jean-marc", "abc", "x" * 24])
def test_names_of_any_language(name: str) -> None:
    check_name(clean_name(name))


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("ab", "name_length"),
        ("x" * 25, "name_length"),
        ("<b>x</b>", "name_chars"),
        ("Bob');DROP TABLE x;--", "name_chars"),
        ("a b c", "name_chars"),
        ("zoé.", "name_chars"),
        ("ab\u200bc", "name_chars"),  # a zero-width space
        ("abc\x00", "name_chars"),
        ("١٢٣abc", "name_chars"),  # digits other than 0-9
    ],
)
def test_names_refused(name: str, code: str) -> None:
    with pytest.raises(AccountError) as e:
        check_name(clean_name(name))
    assert e.value.code == code


def test_a_name_is_unique_ignoring_case(client: TestClient) -> None:
    assert name_key("Zoé") == name_key("ZOÉ") == name_key("zoe\u0301")
    assert sign_up(client, "Zoé").status_code == 303
    client.cookies.clear()
    r = sign_up(client, "ZOÉ")
    assert r.status_code == 400 and "Ce nom est déjà pris" in html.unescape(r.text)


@pytest.mark.both_databases
@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Pacocaxcaa", "Расосахсаа"),  # Latin, then all Cyrillic
        ("Alice", "AIice"),  # a capital I for the l
        ("paypal", "раураl"),  # mixed scripts
        ("Ζωή_1", "Ζωή_l"),  # the digit one for an l
    ],
)
def test_a_name_confusable_with_an_account_is_refused(make_client: MakeClient, first: str, second: str) -> None:
    """Unicode TR39's skeleton: a name that looks like an existing one is refused, whatever
    the order they come in; the skeleton is stored, so it is one look-up."""
    client = make_client()
    assert name_skeleton(first) == name_skeleton(second)
    assert sign_up(client, first).status_code == 303
    client.cookies.clear()
    r = sign_up(client, second)
    assert r.status_code == 400
    assert "ressemble trop à celui d'un autre joueur" in html.unescape(r.text)
    (row,) = rows(client, AccountRow)
    assert row.name == first and row.name_skeleton == name_skeleton(first)


@pytest.mark.both_databases
def test_the_account_row_is_refused_to_a_look_alike_that_came_second(client: TestClient) -> None:
    """Two sign-ups that both passed the first check (two servers at once): the transaction
    that adds the account checks again, under a lock on the skeleton on PostgreSQL."""
    store = AccountStore(client.app.state.store)  # type: ignore[attr-defined]
    store.create("Pacocaxcaa", None, "hash", "player-1")
    for name, code in (("Расосахсаа", "name_confusable"), ("PACOCAXCAA", "name_taken")):
        with pytest.raises(AccountError) as e:
            store.create(name, None, "hash", "player-2")
        assert e.value.code == code
    assert [row.name for row in rows(client, AccountRow)] == ["Pacocaxcaa"]


def test_names_alike_only_in_accents_are_two_names(client: TestClient) -> None:
    assert sign_up(client, "Zoé").status_code == 303
    client.cookies.clear()
    assert sign_up(client, "Zoe").status_code == 303


def test_markup_and_sql_in_a_name_are_refused_and_shown_escaped(client: TestClient) -> None:
    for name in ("<script>alert(1)</script>", "x'); DROP TABLE accounts;--", '"><img src=x onerror=alert(1)>'):
        r = sign_up(client, name)
        assert r.status_code == 400
        assert "<script>alert" not in r.text and "<img src=x" not in r.text
        assert str(escape(name))[:12] in r.text  # kept in the form, escaped
    assert rows(client, AccountRow) == []
    store = client.app.state.store  # type: ignore[attr-defined]
    with store.session() as s:
        assert s.execute(text("SELECT count(*) FROM accounts")).scalar() == 0  # the table is still there


# ----- passwords and sessions -----


def test_passwords_are_argon2id_hashes(client: TestClient) -> None:
    assert sign_up(client, "Marcel").status_code == 303
    (account,) = rows(client, AccountRow)
    assert account.password_hash.startswith("$argon2id$")
    assert PASSWORD not in account.password_hash
    # The site's own parameters (the tests use cheap ones): OWASP's minimum or more.
    site = Settings()
    assert site.argon2_memory_kib >= 19456 and site.argon2_time_cost >= 2 and site.argon2_parallelism >= 1


def test_the_session_cookie_and_what_the_database_keeps(client: TestClient) -> None:
    r = sign_up(client, "Marcel")
    cookie = next(c for c in r.headers.get_list("set-cookie") if c.startswith("sid="))
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Secure" not in cookie
    token = cookie.split(";", 1)[0].removeprefix("sid=")
    (session,) = rows(client, SessionRow)
    assert session.id != token and len(session.id) == 64  # its SHA-256 only
    assert logged_in_as(client) == "Marcel"


def test_the_cookie_is_secure_behind_a_proxy_that_says_https(tmp_path: Path) -> None:
    """A real server (uvicorn trusts the proxy headers of 127.0.0.1): ``X-Forwarded-Proto:
    https`` makes the session cookie ``Secure``."""
    with ServerProcess(tmp_path / "coinche.db", tmp_path / "server.log") as server:
        secure_cookie(server)


def secure_cookie(server: ServerProcess, secure: bool = True) -> None:
    """Sign up through ``server`` saying ``X-Forwarded-Proto: https``: the guest's cookie and
    the session cookie are ``Secure`` when ``secure`` (the server trusts this proxy), else
    not."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.request("GET", "/inscription", headers={"X-Forwarded-Proto": "https"})
        r = conn.getresponse()
        token = CSRF_FIELD.search(r.read().decode())
        guest_cookie = r.getheader("Set-Cookie") or ""
        guest = guest_cookie.split(";", 1)[0]
        assert token is not None and guest.startswith("session=")
        assert ("secure" in guest_cookie.lower().split("; ")) == secure, guest_cookie  # the guest's cookie too
        body = urllib.parse.urlencode({"csrf": token[1], "name": "Secure_1", "password": PASSWORD, "confirm": PASSWORD})
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": guest,
            "X-Forwarded-Proto": "https",
        }
        conn.request("POST", "/inscription", body, headers)
        r = conn.getresponse()
        r.read()
        assert r.status == 303, r.status
        cookies = [v for k, v in r.getheaders() if k.lower() == "set-cookie" and v.startswith("sid=")]
        assert cookies and ("Secure" in cookies[0]) == secure and "HttpOnly" in cookies[0], cookies
    finally:
        conn.close()


def open_table_from(server: ServerProcess, client_address: str) -> int:
    """A new guest opens a solo table through a proxy that says the client is
    ``client_address`` (``X-Forwarded-For``); the answer's status."""
    forwarded = {"X-Forwarded-For": client_address}
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.request("GET", "/", headers=forwarded)
        r = conn.getresponse()
        token = CSRF_FIELD.search(r.read().decode())
        cookie = (r.getheader("Set-Cookie") or "").split(";", 1)[0]
        assert r.status == 200 and token is not None
        body = urllib.parse.urlencode({"csrf": token[1], "profile": "classic", "target": 1000, "level": "beginner"})
        headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie, **forwarded}
        conn.request("POST", "/solo", body, headers)
        r = conn.getresponse()
        r.read()
        return r.status
    finally:
        conn.close()


def test_behind_a_trusted_proxy_limits_count_the_forwarded_client(tmp_path: Path) -> None:
    """``--forwarded-allow-ips`` names the proxies uvicorn trusts (here 127.0.0.1, where the
    test's requests come from): the per-address limit counts each forwarded client apart,
    and ``X-Forwarded-Proto: https`` makes the session cookie ``Secure``."""
    extra = ("--forwarded-allow-ips", "127.0.0.1, 10.0.0.0/8", "--table-limit-per-address", "2/minute")
    with ServerProcess(tmp_path / "coinche.db", tmp_path / "server.log", *extra) as server:
        assert [open_table_from(server, "203.0.113.1") for _ in range(3)] == [303, 303, 429]
        assert open_table_from(server, "203.0.113.2") == 303
        # A client's own forged X-Forwarded-For comes first in the list the proxy appends to:
        # the address the proxy saw (the last one, past the trusted proxies) is counted.
        assert open_table_from(server, "198.51.100.77, 203.0.113.1") == 429
        assert open_table_from(server, "203.0.113.1, 10.0.0.3") == 429  # 10/8: a trusted proxy
        secure_cookie(server, secure=True)


def test_an_untrusted_proxys_headers_are_ignored(tmp_path: Path) -> None:
    """When only another machine is the proxy, what 127.0.0.1 says it forwards is ignored:
    every request is 127.0.0.1's (one window), and the cookie is not ``Secure``."""
    extra = ("--forwarded-allow-ips", "192.0.2.7", "--table-limit-per-address", "2/minute")
    with ServerProcess(tmp_path / "coinche.db", tmp_path / "server.log", *extra) as server:
        assert [open_table_from(server, "203.0.113.1") for _ in range(2)] == [303, 303]
        assert open_table_from(server, "203.0.113.2") == 429
        secure_cookie(server, secure=False)


def test_log_out_ends_the_session(client: TestClient) -> None:
    sign_up(client, "Marcel")
    stolen = client.cookies["sid"]
    r = post_form(client, "/deconnexion", {}, page="/compte")
    assert r.status_code == 303
    assert logged_in_as(client) is None
    client.cookies.set("sid", stolen)  # the old cookie opens nothing any more
    assert logged_in_as(client) is None
    assert rows(client, SessionRow) == []


def test_a_wrong_password_or_an_unknown_name(client: TestClient) -> None:
    sign_up(client, "Marcel")
    post_form(client, "/deconnexion", {}, page="/compte")
    for name, password in (("Marcel", "wrong password"), ("Nobody", PASSWORD), ("marcel", "")):
        r = log_in(client, name, password)
        assert r.status_code == 400 and "Nom ou mot de passe incorrect." in r.text
    assert log_in(client, "MARCEL").status_code == 303  # any case
    assert logged_in_as(client) == "Marcel"


def test_a_password_change_ends_the_other_sessions(make_client: MakeClient) -> None:
    client = make_client()
    sign_up(client, "Marcel")
    other = another_visitor(client)  # another browser, same account
    assert log_in(other, "Marcel").status_code == 303 and logged_in_as(other) == "Marcel"
    form = {"old": PASSWORD, "new": "new password!", "confirm": "new password!"}
    r = post_form(client, "/compte/mot-de-passe", form, page="/compte")
    assert r.status_code == 303 and r.headers["location"] == "/compte?done=password"
    assert logged_in_as(client) == "Marcel"  # this browser got a new session
    assert logged_in_as(other) is None  # the other one's ended
    post_form(client, "/deconnexion", {}, page="/compte")
    assert log_in(client, "Marcel").status_code == 400
    assert log_in(client, "Marcel", "new password!").status_code == 303
    # A wrong old password changes nothing.
    r = post_form(client, "/compte/mot-de-passe", {**form, "old": "nope nope"}, page="/compte")
    assert r.status_code == 400 and "Mot de passe incorrect." in r.text


def test_delete_the_account_keeps_its_games(client: TestClient) -> None:
    sign_up(client, "Marcel")
    table_id = create_solo(client, "classic", 700, "beginner")
    player = rows(client, AccountRow)[0].player_id
    assert post_form(client, "/compte/supprimer", {"password": "wrong one!"}, page="/compte").status_code == 400
    r = post_form(client, "/compte/supprimer", {"password": PASSWORD}, page="/compte")
    assert r.status_code == 200 and "Compte supprimé" in r.text
    assert rows(client, AccountRow) == [] and rows(client, SessionRow) == []
    (gone,) = [p for p in rows(client, PlayerRow) if p.id == player]
    assert gone.deleted_at is not None
    assert client.app.state.store.load_table(table_id) is not None  # type: ignore[attr-defined]
    assert log_in(client, "Marcel").status_code == 400
    assert logged_in_as(client) is None


# ----- a guest who signs up -----


def test_a_guest_who_signs_up_keeps_the_game_in_progress(client: TestClient) -> None:
    guest, _ = new_guest(client)
    table_id = create_solo(client, "classic", 700, "beginner")
    assert f'href="/table/{table_id}"' in client.get("/").text  # "Reprendre la partie"
    r = sign_up(client, "Marcel", next=f"/table/{table_id}")
    assert r.status_code == 303 and r.headers["location"] == f"/table/{table_id}"
    assert rows(client, AccountRow)[0].player_id == guest
    assert client.get(f"/table/{table_id}").status_code == 200
    home = client.get("/").text
    assert "Reprendre la partie" in home and f'href="/table/{table_id}"' in home
    assert parts_of(client).settings.free_deals == 3
    assert call(client, parts_of(client).free_deals.left, guest, True) is None  # no limit
    # Logging out leaves a new guest: not the account's player.
    post_form(client, "/deconnexion", {}, page="/compte")
    assert client.get(f"/table/{table_id}").status_code == 404


def test_next_goes_nowhere_but_this_site(client: TestClient) -> None:
    for target in ("//evil.example/", "https://evil.example/", "/\\evil.example", "/\tx"):
        client.cookies.clear()
        r = sign_up(client, f"Name{len(target)}x", next=target)
        assert r.status_code == 303 and r.headers["location"] == "/compte", target


# ----- CSRF and origins -----


FORMS = [
    ("/solo", {"profile": "classic", "target": "700", "level": "beginner"}),
    ("/inscription", {"name": "Marcel", "password": PASSWORD, "confirm": PASSWORD}),
    ("/signup", {"name": "Marcel", "password": PASSWORD, "confirm": PASSWORD}),
    ("/connexion", {"name": "Marcel", "password": PASSWORD}),
    ("/login", {"name": "Marcel", "password": PASSWORD}),
    ("/deconnexion", {}),
    ("/logout", {}),
    ("/compte/mot-de-passe", {"old": PASSWORD, "new": "x" * 10, "confirm": "x" * 10}),
    ("/compte/supprimer", {"password": PASSWORD}),
    ("/compte/donnees", {"lang": "fr"}),
    ("/compte/donnees-ouvertes", {"named": "on"}),
    ("/partie/abc/abandonner", {}),
    ("/amis", {"profile": "classic", "target": "1000", "level_1": "expert"}),
    ("/friends", {"profile": "classic", "target": "1000", "level_1": "expert"}),
    ("/rejoindre/ABCDEF", {"name": "Paul", "seat": "1"}),
    ("/verifier", {"record": "{}"}),
    ("/verify", {"record": "{}"}),
    ("/revoir", {"record": "{}"}),
    ("/replay", {"record": "{}"}),
    ("/defi", {}),
    ("/challenge", {}),
    ("/partie-rapide", {"action": "join", "rules": "any"}),
    ("/quick-game", {"action": "join", "rules": "any"}),
    ("/table/abc/ouverte", {"public": "on"}),
    ("/mes-amis", {"action": "follow", "name": "Marcel"}),
    ("/my-friends", {"action": "follow", "name": "Marcel"}),
    ("/inviter", {"table_id": "abc", "name": "Marcel"}),
    ("/invitations/abc", {"action": "accept"}),
    ("/table/abc/signaler", {"seat": "1", "reason": "name"}),
    ("/table/abc/spectateurs", {"watchable": "off"}),
    ("/table/abc/robots", {"bots": "on"}),
    ("/tournois/nouveau", {"name": "T", "profile": "classic", "format": "swiss"}),
    ("/tournaments/new", {"name": "T", "profile": "classic", "format": "swiss"}),
    ("/tournoi/abc", {"action": "enter"}),
    ("/tournament/abc", {"action": "enter"}),
    ("/robots", {"action": "create", "value": "Zebulon"}),
    ("/bots", {"action": "create", "value": "Zebulon"}),
    ("/problemes/abc", {"card": "AS"}),
    ("/puzzles/abc", {"card": "AS"}),
    ("/problemes/encheres/abc", {"call": "pass"}),
    ("/puzzles/bidding/abc", {"call": "pass"}),
    ("/apprendre/2", {"action": "80H"}),
    ("/learn/2", {"action": "80H"}),
    ("/mes-erreurs/abc", {"card": "AS"}),
    ("/my-mistakes/abc", {"card": "AS"}),
    ("/equipe/joueur/pid", {"kind": "warn", "reason": "x"}),
    ("/team/player/pid", {"kind": "warn", "reason": "x"}),
    ("/equipe/action/aid/annuler", {"reason": "x"}),
    ("/team/action/aid/undo", {"reason": "x"}),
    ("/clubs", {"name": "Les Belotiers", "open": "on"}),
    ("/club/cid", {"action": "join"}),
    ("/mot-de-passe-oublie", {"email": "a@example.org"}),
    ("/forgot-password", {"email": "a@example.org"}),
    ("/reinitialiser/tok", {"password": "x" * 10, "confirm": "x" * 10}),
    ("/reset-password/tok", {"password": "x" * 10, "confirm": "x" * 10}),
    ("/confirmer-adresse/tok", {}),
    ("/confirm-address/tok", {}),
    ("/compte/adresse", {"email": "a@example.org", "password": PASSWORD}),
]


def test_every_form_refuses_a_missing_or_foreign_token(client: TestClient) -> None:
    sign_up(client, "Owner")
    mine = csrf_of(client)
    stranger = another_visitor(client)
    theirs = csrf_of(stranger)
    for path, form in FORMS:
        for token in (None, "", "x" * 32, theirs):
            data = {**form, "pad": "1"} if token is None else {**form, "csrf": token}  # never an empty body
            r = client.post(path, data=data, follow_redirects=False)
            assert r.status_code == 403, (path, token, r.status_code)
            # said in the language the address says (/bots, /puzzles... are English)
            lang = address_language(path) or "fr"
            assert i18n.gettext(lang, "accounts.forbidden.text") in html.unescape(r.text), path
        r = client.post(path, data={**form, "csrf": mine}, headers={"origin": "https://evil.example"})
        assert r.status_code == 403, path
    assert logged_in_as(client) == "Owner"  # nothing happened
    assert len(rows(client, AccountRow)) == 1


def test_every_route_that_changes_something_is_guarded(client: TestClient) -> None:
    """Every POST route of the site is in ``FORMS`` (or is the calculator's, which changes
    nothing): a new form must come with its CSRF test."""
    posts = {
        r.path
        for r in client.app.routes  # type: ignore[attr-defined]
        if isinstance(r, Route) and r.methods is not None and "POST" in r.methods
    }
    guarded = {
        path.replace("/abc/", "/{table_id}/")
        .replace("/ABCDEF", "/{code}")
        .replace("ns/abc", "ns/{invitation_id}")
        .replace("nt/abc", "nt/{tournament_id}")
        .replace("oi/abc", "oi/{tournament_id}")
        .replace("mes/abc", "mes/{puzzle_id}")
        .replace("les/abc", "les/{puzzle_id}")
        .replace("res/abc", "res/{puzzle_id}")
        .replace("ing/abc", "ing/{puzzle_id}")
        .replace("dre/2", "dre/{step}")
        .replace("arn/2", "arn/{step}")
        .replace("urs/abc", "urs/{mistake_id}")
        .replace("kes/abc", "kes/{mistake_id}")
        .replace("/pid", "/{player}")
        .replace("/aid/", "/{action_id}/")
        .replace("club/cid", "club/{club_id}")
        .replace("/tok", "/{token}")
        for path, _ in FORMS
    }
    stateless = {"/calculateur", "/calculator", "/api/calculate"}
    # the bot API reads a bot's token from its Authorization header, never a cookie: no
    # page of another site can send it (test_bot_api checks a session opens no bot)
    by_token = {path for path in posts if path.startswith("/api/bot/")}
    assert posts - guarded - by_token <= stateless, posts - guarded


# ----- rate limits -----


def test_log_in_is_limited_per_name_and_per_address(make_client: MakeClient) -> None:
    client = make_client(login_limit="3/minute")
    sign_up(client, "Marcel")
    post_form(client, "/deconnexion", {}, page="/compte")
    for _ in range(3):
        assert log_in(client, "Marcel", "wrong password").status_code == 400
    r = log_in(client, "Marcel")  # even the right password waits
    assert r.status_code == 429 and 0 < int(r.headers["retry-after"]) <= 60
    assert "Trop d'essais : réessayez dans" in html.unescape(r.text)


def test_the_name_limit_counts_every_way_of_typing_the_name(make_client: MakeClient) -> None:
    """The per-name limit's key is the account lookup's key: spaces around the name, another
    case or full-width letters reach the same account, so they count against its one window.
    Each try comes from another address: only the name's window can stop the last one."""
    client = make_client(login_limit="3/minute")
    sign_up(client, "Marcel")
    app = client.app
    variants = [" Marcel", "Marcel\t", "Marcel\u3000"]
    for i, variant in enumerate(variants):
        other = TestClient(app, client=(f"198.51.100.{i}", 4000))
        assert log_in(other, variant, "wrong password").status_code == 400, variant
    last = TestClient(app, client=("198.51.100.9", 4000))
    r = log_in(last, "  MARCEL  ")  # the right password, typed another way, still waits
    assert r.status_code == 429, r.status_code
    assert logged_in_as(last) is None


def test_the_login_key_is_the_lookup_key() -> None:
    typed = ("Marcel", " Marcel", "Marcel\t", "Marcel\u3000", " marcel ", "\uff2darcel")
    assert len({login_key(v) for v in typed}) == 1
    assert login_key("Marcel") == name_key(clean_name("Marcel"))


@pytest.mark.both_databases
@pytest.mark.parametrize("name", ["\x00Marcel", "\ufdfa" * 96, "\u202eMarcel\u200b", "M" * 5000])
def test_a_hostile_name_gets_a_refusal_not_a_crash(make_client: MakeClient, name: str) -> None:
    """NUL, a character NFKC makes 18 long, an RTL override: the per-name limit's key is
    stored as it is on PostgreSQL, so it must fit its column whatever was typed."""
    client = make_client(raise_server_exceptions=False, login_limit="3/minute")
    r = log_in(client, name)
    assert r.status_code == 400, r.status_code
    assert "Nom ou mot de passe incorrect" in html.unescape(r.text)


def test_sign_up_is_limited_per_address(make_client: MakeClient) -> None:
    client = make_client(signup_limit="2/hour")
    for i in range(2):
        client.cookies.clear()
        assert sign_up(client, f"Player{i}").status_code == 303
    client.cookies.clear()
    r = sign_up(client, "Player3")
    assert r.status_code == 429 and int(r.headers["retry-after"]) > 60
    assert len(rows(client, AccountRow)) == 2


def test_sign_up_refusals_say_why(client: TestClient) -> None:
    cases = [
        ({"name": "ab"}, "de 3 à 24 caractères"),
        ({"password": "short", "confirm": "short"}, "au moins 8 caractères"),
        ({"confirm": "something else"}, "ne sont pas les mêmes"),
        ({"email": "not an address"}, "adresse e-mail n'est pas valable"),
    ]
    for change, words in cases:
        form = {"name": "Valid_Name", "password": PASSWORD, "confirm": PASSWORD, **change}
        r = post_form(client, "/inscription", form, page="/inscription")
        assert r.status_code == 400 and words in html.unescape(r.text), change
    assert rows(client, AccountRow) == []


def test_an_account_value_is_frozen() -> None:
    account = Account("a", "Marcel", "p")
    with pytest.raises(AttributeError):
        account.name = "other"  # type: ignore[misc]
