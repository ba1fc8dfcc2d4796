"""Accounts in the browser: a guest out of free deals signs up from the summary and the same
table goes on; log-out and log-in (a wrong password, then too many tries: 429 with
Retry-After); a password change ends the other browser's session; deleting the account
keeps the finished games; "Reprendre la partie"; five tables opened at once give no more
than three free deals; names with markup.

Each test starts a server of its own (``server_factory``): sign-ups are limited to five an
hour per address and log-ins to ten a minute, in the server's memory, and the server
cannot be given other limits from the command line. Its SQLite file is read directly to
check what the database keeps.
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from accessibility import assert_accessible, assert_no_horizontal_scroll
from playwright.sync_api import Locator, Page, Response, expect
from table_driver import DealPlayed, Table, keep_screenshot, start_solo

PASSWORD = "cartes-sur-table-1"
TABLE_URL = re.compile(r"/table/([^/?#]+)$")


@dataclass
class Site:
    base: str
    db: Path

    def query(self, sql: str, *params: object) -> list[tuple[Any, ...]]:
        """Rows of the server's own database (opened read-only)."""
        with sqlite3.connect(f"file:{self.db}?mode=ro", uri=True) as conn:
            return conn.execute(sql, params).fetchall()


@contextlib.contextmanager
def own_site(server_factory: Any, tmp_path: Path, *options: str) -> Iterator[Site]:
    """A server of the test's own; after the test its log must hold no traceback."""
    with server_factory(tmp_path, *options) as base:
        yield Site(base, tmp_path / "coinche.db")
    log = (tmp_path / "server.log").read_text("utf-8")
    assert "Traceback" not in log, log


@pytest.fixture
def site(server_factory: Any, tmp_path: Path) -> Iterator[Site]:
    with own_site(server_factory, tmp_path) as site:
        yield site


@pytest.fixture
def one_free_deal_site(server_factory: Any, tmp_path: Path) -> Iterator[Site]:
    """A server that gives a guest one free deal (three are the limit's own test, in
    ``test_browser_limit.py``): the account is asked for after one deal that counts."""
    with own_site(server_factory, tmp_path, "--free-deals", "1") as site:
        yield site


def another_page(page: Page) -> Page:
    """A new page (tab) of the same browser context: the same visitor."""
    other = page.context.new_page()
    other.set_default_timeout(15_000)
    return other


def header_account(page: Page) -> Locator:
    """The header's account link: "Connexion" for a guest, else the account's name."""
    return page.locator("header.site-header nav a").nth(2)


def assert_clean(page: Page) -> None:
    """No traceback nor server error text on the page."""
    text = page.content()
    assert "Traceback" not in text, page.url
    assert "Internal Server Error" not in text, page.url


def submit(page: Page, button: str) -> Response:
    """Press a form's submit button; the response of the page it leads to (after redirects)."""
    with page.expect_navigation() as navigation:
        page.get_by_role("button", name=button, exact=True).click()
    response = navigation.value
    assert response is not None
    assert_clean(page)
    return response


def sign_up(page: Page, name: str, password: str = PASSWORD, confirm: str | None = None) -> Response:
    """Fill the sign-up form already shown (name, password, confirmation) and send it."""
    expect(page.get_by_role("heading", level=1)).to_have_text("Créer un compte")
    page.get_by_label("Nom", exact=True).fill(name)
    page.get_by_label("Mot de passe", exact=True).fill(password)
    page.get_by_label("Confirmer le mot de passe", exact=True).fill(password if confirm is None else confirm)
    return submit(page, "Créer mon compte")


def log_in(page: Page, name: str, password: str) -> Response:
    page.goto("/connexion")
    expect(page.get_by_role("heading", level=1)).to_have_text("Connexion")
    page.get_by_label("Nom", exact=True).fill(name)
    page.get_by_label("Mot de passe", exact=True).fill(password)
    return submit(page, "Se connecter")


def log_out(page: Page) -> None:
    page.goto("/compte")
    response = submit(page, "Se déconnecter")
    assert response.status == 200
    expect(page).to_have_url(re.compile(r"/$"))
    expect(header_account(page)).to_have_text("Connexion")


def new_account(page: Page, name: str, password: str = PASSWORD) -> None:
    page.goto("/inscription")
    response = sign_up(page, name, password)
    assert response.status == 200, response.status
    expect(page).to_have_url(re.compile(r"/compte$"))
    expect(header_account(page)).to_have_text(name)


def table_id(page: Page) -> str:
    m = TABLE_URL.search(page.url)
    assert m, page.url
    return m.group(1)


# ----- 1. out of free deals: sign up from the summary, the same table goes on -----


def test_sign_up_from_the_summary_and_the_same_table_goes_on(
    one_free_deal_site: Site, make_page: Callable[..., Page]
) -> None:
    site = one_free_deal_site
    page = make_page(site.base)
    table = start_solo(page, profile="classic", target=700)  # one deal stays below it (a coinched capot aside)
    tid = table_id(page)
    counted = void = 0
    for n in range(12):
        since = len(table.live_log())
        # South passes in the first deal: the beginner computers mostly pass too, a void
        # deal that must not use up the free deal; then South opens, so deals count.
        played = table.play_deal(bid=n >= 1)
        ended = table.wait_for_live("terminée", since=since)
        if "Donne blanche" in ended:  # four passes: the free deal is given back
            void += 1
        else:
            counted += 1
        if played.end == "account":
            break
        assert played.end == "next", (counted, void, played)
        assert counted < 1, (counted, void, played)
        table.next_deal()
    assert played.end == "account" and counted == 1, (counted, void, played)
    print(f"free deals: 1 played, {void} void deal(s) not counted")

    link = table.account_link()
    expect(link).to_be_visible()
    expect(link).to_have_attribute("href", re.compile(rf"^/inscription\?next=(%2F|/)table(%2F|/){tid}$"))
    table.press(link)
    page.wait_for_url(re.compile(r"/inscription\?next="))
    assert_clean(page)
    expect(page.get_by_text("Vous avez joué vos donnes gratuites.")).to_be_visible()

    response = sign_up(page, "Capucine")
    assert response.status == 200
    expect(page).to_have_url(re.compile(rf"/table/{tid}$"))  # the same table
    expect(header_account(page)).to_have_text("Capucine")

    # The deal that used the last free deal is over; the game goes on with the next one.
    table = Table(page)
    expect(table.next_deal_button()).to_be_visible(timeout=30_000)
    expect(table.account_link()).to_have_count(0)
    table.next_deal()

    deals: list[DealPlayed] = []
    deadline = time.monotonic() + 420
    while time.monotonic() < deadline:
        played = table.play_deal(bid=True)  # bidding makes the scores climb to the target
        deals.append(played)
        if played.end == "over":
            break
        assert played.end == "next", (len(deals), played)
        table.next_deal()
    assert deals and len(deals[0].cards) == 8, deals  # at least one whole deal after signing up
    assert deals[-1].end == "over", f"the game did not end in time after {len(deals)} more deals"
    assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]

    # The account keeps the game, finished.
    page.goto("/compte")
    assert_clean(page)
    finished = page.get_by_role("table", name="Parties terminées")
    expect(finished.locator("tbody tr")).to_have_count(1)
    expect(finished.locator("tbody tr")).to_contain_text(re.compile(r"(Gagnée|Perdue) · \d+ à \d+"))
    expect(finished.locator("tbody tr")).to_contain_text("Classique · 700 points")
    expect(page.get_by_text("Aucune partie en cours.")).to_be_visible()
    rows = site.query(
        "SELECT t.finished_at FROM tables t JOIN table_players p ON p.table_id = t.id"
        " JOIN accounts a ON a.player_id = p.player_id WHERE a.name = ? AND t.id = ?",
        "Capucine",
        tid,
    )
    assert len(rows) == 1 and rows[0][0] is not None, rows


# ----- 2. log out, log in, a wrong password, too many tries -----


def test_log_out_log_in_wrong_password_and_the_rate_limit(site: Site, make_page: Callable[..., Page]) -> None:
    page = make_page(site.base)
    new_account(page, "Lina")
    log_out(page)

    response = log_in(page, "Lina", PASSWORD)
    assert response.status == 200
    expect(page).to_have_url(re.compile(r"/$"))
    expect(header_account(page)).to_have_text("Lina")
    log_out(page)

    response = log_in(page, "Lina", "pas-le-bon-mot")
    assert response.status == 400, response.status
    expect(page.get_by_role("alert")).to_have_text("Nom ou mot de passe incorrect.")
    expect(page.get_by_label("Nom", exact=True)).to_have_value("Lina")  # kept for the next try
    expect(header_account(page)).to_have_text("Connexion")

    # Ten tries a minute per name (and per address): two are used; the next ones run out.
    statuses = []
    for _ in range(12):
        response = log_in(page, "Lina", "pas-le-bon-mot")
        statuses.append(response.status)
        if response.status == 429:
            break
    assert statuses[-1] == 429, statuses
    assert set(statuses[:-1]) == {400}, statuses
    assert len(statuses) == 9, statuses  # the 11th try of the minute
    retry_after = response.headers.get("retry-after")
    assert retry_after is not None and retry_after.isdigit() and 0 < int(retry_after) <= 60, retry_after
    expect(page.get_by_role("alert")).to_have_text(f"Trop d'essais : réessayez dans {retry_after} secondes.")

    # Even the right password waits now (the page says so, nothing is logged in).
    response = log_in(page, "Lina", PASSWORD)
    assert response.status == 429
    expect(header_account(page)).to_have_text("Connexion")

    # The same answer to a request outside the page.
    answer = page.request.get("/connexion")
    assert answer.status == 200  # showing the form is not limited
    assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]


# ----- 3. a password change ends the other sessions -----


def test_a_password_change_logs_the_other_browser_out(site: Site, make_page: Callable[..., Page]) -> None:
    first = make_page(site.base)
    new_account(first, "Basile")
    second = make_page(site.base)  # another browser context: another device
    response = log_in(second, "Basile", PASSWORD)
    assert response.status == 200
    expect(header_account(second)).to_have_text("Basile")

    new_password = "un-tout-autre-mot-2"
    first.goto("/compte")
    first.get_by_label("Mot de passe actuel", exact=True).fill(PASSWORD)
    first.get_by_label("Nouveau mot de passe", exact=True).fill(new_password)
    first.get_by_label("Confirmer le mot de passe", exact=True).fill(new_password)
    response = submit(first, "Changer le mot de passe")
    assert response.status == 200
    expect(first).to_have_url(re.compile(r"/compte\?done=password$"))
    expect(first.get_by_role("status")).to_have_text("Mot de passe changé. Vos autres appareils sont déconnectés.")

    second.reload()
    assert_clean(second)
    expect(header_account(second)).to_have_text("Connexion")
    second.goto("/compte")
    expect(second.get_by_role("link", name="Créer un compte", exact=True)).to_be_visible()  # a guest's page

    first.goto("/")
    expect(header_account(first)).to_have_text("Basile")
    first.goto("/compte")
    expect(first.locator(".account-name")).to_have_text("Basile")

    response = log_in(second, "Basile", PASSWORD)
    assert response.status == 400
    expect(second.get_by_role("alert")).to_have_text("Nom ou mot de passe incorrect.")
    response = log_in(second, "Basile", new_password)
    assert response.status == 200
    expect(header_account(second)).to_have_text("Basile")


def test_a_wrong_current_password_changes_nothing(site: Site, make_page: Callable[..., Page]) -> None:
    page = make_page(site.base)
    new_account(page, "Octave")
    page.get_by_label("Mot de passe actuel", exact=True).fill("pas-le-bon-mot")
    page.get_by_label("Nouveau mot de passe", exact=True).fill("un-tout-autre-mot-2")
    page.get_by_label("Confirmer le mot de passe", exact=True).fill("un-tout-autre-mot-2")
    response = submit(page, "Changer le mot de passe")
    assert response.status == 400
    expect(page.get_by_role("alert")).to_have_text("Mot de passe incorrect.")
    expect(header_account(page)).to_have_text("Octave")
    log_out(page)
    assert log_in(page, "Octave", PASSWORD).status == 200


# ----- 4. deleting the account keeps the finished games -----


def test_deleting_the_account_keeps_the_finished_games(site: Site, make_page: Callable[..., Page]) -> None:
    page = make_page(site.base)
    new_account(page, "Mireille")
    table = start_solo(page, profile="classic", target=100)  # one played deal ends the game
    tid = table_id(page)
    played = table.play_deal(bid=True)
    deadline = time.monotonic() + 120
    while played.end != "over" and time.monotonic() < deadline:
        assert played.end == "next", played
        table.next_deal()
        played = table.play_deal(bid=True)
    assert played.end == "over", played
    start_solo(page, profile="classic", target=1000)  # and a game in progress
    in_progress = table_id(page)

    page.goto("/compte")
    expect(page.get_by_role("table", name="Parties terminées").locator("tbody tr")).to_have_count(1)
    expect(page.get_by_role("table", name="Parties en cours").locator("tbody tr")).to_have_count(1)
    (player,) = site.query("SELECT player_id FROM accounts WHERE name = 'Mireille'")[0]

    # A wrong password deletes nothing.
    page.get_by_label("Mot de passe", exact=True).fill("pas-le-bon-mot")
    response = submit(page, "Supprimer mon compte")
    assert response.status == 400
    expect(page.get_by_role("alert")).to_have_text("Mot de passe incorrect.")
    assert site.query("SELECT count(*) FROM accounts") == [(1,)]

    page.get_by_label("Mot de passe", exact=True).fill(PASSWORD)
    response = submit(page, "Supprimer mon compte")
    assert response.status == 200
    expect(page.get_by_role("heading", level=1)).to_have_text("Compte supprimé")
    expect(header_account(page)).to_have_text("Connexion")
    page.goto("/")
    expect(header_account(page)).to_have_text("Connexion")
    expect(page.get_by_role("link", name="Reprendre la partie")).to_have_count(0)  # a new guest

    response = log_in(page, "Mireille", PASSWORD)
    assert response.status == 400
    expect(page.get_by_role("alert")).to_have_text("Nom ou mot de passe incorrect.")

    assert site.query("SELECT count(*) FROM accounts") == [(0,)]
    assert site.query("SELECT count(*) FROM sessions") == [(0,)]
    kept = site.query(
        "SELECT t.id, t.finished_at IS NOT NULL FROM tables t JOIN table_players p ON p.table_id = t.id"
        " WHERE p.player_id = ? ORDER BY t.created_at",
        player,
    )
    assert [row[0] for row in kept] == [tid, in_progress], kept
    assert kept[0][1] == 1, kept  # the finished game stays, finished
    ((deleted_at,),) = site.query("SELECT deleted_at FROM players WHERE id = ?", player)
    assert deleted_at is not None


# ----- 5. "Reprendre la partie" -----


class _Stop(Exception):
    pass


def test_resume_the_game_in_a_new_tab(site: Site, make_page: Callable[..., Page]) -> None:
    page = make_page(site.base)
    table = start_solo(page, profile="classic", target=1000)
    tid = table_id(page)

    def stop_at_second_card(_table: Table, done: DealPlayed) -> None:
        if done.cards:
            raise _Stop

    with pytest.raises(_Stop):
        table.play_deal(bid=True, before_card=stop_at_second_card)
    expect(table.hand()).to_have_count(7)
    assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]
    context = page.context
    page.close()

    home = another_page(page)
    assert context.pages == [home]
    home.goto("/")
    assert_clean(home)
    resume = home.get_by_role("link", name="Reprendre la partie", exact=True)
    expect(resume).to_have_attribute("href", f"/table/{tid}")
    resume.click()
    home.wait_for_url(re.compile(rf"/table/{tid}$"))
    assert_clean(home)
    again = Table(home)
    expect(again.hand()).to_have_count(7)  # where it was: one card played
    expect(again.playable_cards().first).to_be_visible(timeout=30_000)  # and it is South's turn again
    played = again.play_deal(bid=False)
    assert len(played.cards) == 7, played


# ----- 6. five tables at once: no more than three free deals -----


def test_five_tables_at_once_give_no_more_than_three_deals(site: Site, make_page: Callable[..., Page]) -> None:
    first = make_page(site.base)
    first.goto("/")  # the guest's cookie, before the tabs share it
    expect(first.get_by_text("Donnes gratuites restantes : 3")).to_be_visible()
    tabs = [first, *(another_page(first) for _ in range(4))]
    for tab in tabs:
        tab.goto("/solo")
        tab.get_by_role("radio", name="Débutant", exact=True).check()
    with contextlib.ExitStack() as answers:
        # Each tab's navigation awaited, not its address: a refused one stays at /solo (the
        # account page answers the POST), which a wait for the address took for done while
        # the answer was still loading.
        for tab in tabs:
            answers.enter_context(tab.expect_navigation())
        for tab in tabs:  # all sent before any answer is read
            tab.get_by_role("button", name="Jouer", exact=True).click(no_wait_after=True)
    landed = []
    for tab in tabs:
        tab.wait_for_load_state()
        assert_clean(tab)
        landed.append(tab.url)
    tables = [url for url in landed if TABLE_URL.search(url)]
    others = [tab for tab in tabs if not TABLE_URL.search(tab.url)]
    assert 1 <= len(tables) <= 3, landed
    assert len(set(tables)) == len(tables), landed
    for tab in others:
        if "/inscription" in tab.url:
            # Read once every tab has landed: a sign-up page drawn while another tab's
            # refused table was giving its deal back could still count one free deal.
            tab.reload()
            expect(tab.get_by_role("heading", level=1)).to_have_text("Créer un compte")
            expect(tab.get_by_text("Vous avez joué vos donnes gratuites.")).to_be_visible()
        else:  # the account page, answered to the form's POST (409)
            expect(tab.get_by_role("heading", level=1)).to_have_text("Mon compte")
            expect(tab.get_by_role("alert")).to_contain_text("Vous avez déjà trop de parties en cours")
            rows = tab.get_by_role("table", name="Parties en cours").locator("tbody tr")
            expect(rows).to_have_count(len(tables))
            expect(rows.first).to_contain_text(re.compile(r"Classique · [1-9][\d\s]* points"))  # not "0 points"
    assert site.query("SELECT count(*) FROM tables") == [(len(tables),)]
    first.goto("/")
    expect(first.get_by_text("Donnes gratuites restantes : 0")).to_be_visible()


# ----- names -----


def test_names_with_markup_are_refused_and_accents_shown_as_text(site: Site, make_page: Callable[..., Page]) -> None:
    page = make_page(site.base)
    page.goto("/inscription")
    response = sign_up(page, "<b>x</b>")
    assert response.status == 400
    expect(page.get_by_role("alert")).to_have_text("Le nom ne peut contenir que des lettres, des chiffres, - et _.")
    expect(page.get_by_label("Nom", exact=True)).to_have_value("<b>x</b>")  # given back as text
    assert page.locator("main b").count() == 0
    expect(header_account(page)).to_have_text("Connexion")

    response = sign_up(page, "Zoé", confirm="autre-chose-9")
    assert response.status == 400
    expect(page.get_by_role("alert")).to_have_text("Les deux mots de passe ne sont pas les mêmes.")

    response = sign_up(page, "Zoé_42")
    assert response.status == 200
    expect(page).to_have_url(re.compile(r"/compte$"))
    expect(header_account(page)).to_have_text("Zoé_42")
    assert header_account(page).evaluate("a => a.innerHTML") == "<span>Zoé_42</span>"  # text, no markup
    expect(page.locator(".account-name")).to_have_text("Zoé_42")
    log_out(page)
    assert log_in(page, "ZOÉ_42", PASSWORD).status == 200  # one name whatever the case
    expect(header_account(page)).to_have_text("Zoé_42")


# ----- the pages' look: screenshots (test-artifacts/) -----


@pytest.mark.parametrize(
    ("lang", "viewport"),
    [("fr", {"width": 1280, "height": 800}), ("en", {"width": 360, "height": 740})],
    ids=["desktop-fr", "phone-en"],
)
def test_sign_up_and_account_pages_fit_the_screen(
    site: Site, make_page: Callable[..., Page], lang: str, viewport: dict[str, int]
) -> None:
    phone = viewport["width"] < 600
    options: dict[str, Any] = {"viewport": viewport}
    if phone:
        options.update(has_touch=True, is_mobile=True, device_scale_factor=2)
    page = make_page(site.base, **options)
    if lang == "en":
        page.goto("/langue/en?next=/")
    signup, account = ("/inscription", "/compte") if lang == "fr" else ("/signup", "/account")
    page.goto(signup)
    assert_clean(page)
    page.locator("#name").fill("Anne-Sophie_Durand")
    page.locator("#password").fill(PASSWORD)
    page.locator("#confirm").fill("not-the-same-1")
    page.locator("form.account-form button[type=submit]").click()
    expect(page.get_by_role("alert")).to_be_visible()
    assert_clean(page)
    mismatch = {"fr": "Les deux mots de passe ne sont pas les mêmes.", "en": "The two passwords are not the same."}
    expect(page.get_by_role("alert")).to_have_text(mismatch[lang])
    assert_no_horizontal_scroll(page)
    # the inputs fill the form's width (no address field: this site sends no mail)
    expect(page.locator("#email")).to_have_count(0)
    for field in ("#name", "#password", "#confirm"):
        box, form = page.locator(field).bounding_box(), page.locator("form.account-form").bounding_box()
        assert box is not None and form is not None
        assert box["width"] >= form["width"] - 2, (field, box, form)
    keep_screenshot(page, f"accounts-signup-{lang}-{viewport['width']}", full_page=True)
    assert_accessible(page)

    page.locator("#password").fill(PASSWORD)
    page.locator("#confirm").fill(PASSWORD)
    with page.expect_navigation():
        page.locator("form.account-form button[type=submit]").click()
    expect(page).to_have_url(re.compile(rf"{account}$"))
    for target in (1000, 2000):  # two games in progress, one given up: both lists show
        start_solo(page, lang=lang, profile="classic", target=target)
    page.goto(account)
    with page.expect_navigation():
        page.locator("table.games form button[type=submit]").first.click()
    page.goto(account)
    assert_clean(page)
    expect(page.locator("table.games")).to_have_count(2)
    assert_no_horizontal_scroll(page)
    keep_screenshot(page, f"accounts-account-{lang}-{viewport['width']}", full_page=True)
    assert_accessible(page)
    assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]
