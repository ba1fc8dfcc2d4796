"""Friends' tables in Chromium (issue 17): one browser context per person.

A host signs up, makes a table at /amis, friends come by the invitation link or by the
code typed at /rejoindre, take seats under a name, exchange quick messages in the lobby
and at the table, and play a whole deal through the page's own buttons. A person whose
page closes is replaced by the computer after the grace period (the others are told) and
plays again once back; a player who lets the clock run is warned, then the computer plays
that move; a fifth person finds the table full.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import DESKTOP, LIVE_RECORDER, LiveServer, new_page
from playwright.sync_api import Browser, BrowserContext, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from table_driver import Table, keep_screenshot

PASSWORD = "correct horse battery staple"
TABLE_URL = re.compile(r"/table/[^/]+$")


@pytest.fixture(scope="module")
def friends_server(tmp_path_factory: pytest.TempPathFactory, server_factory: Callable[..., Any]) -> Iterator[str]:
    """A server whose absent players are replaced after 3 s (the idle clock stays long)."""
    with server_factory(tmp_path_factory.mktemp("friends"), "--grace-seconds", "3") as base:
        yield base


class People:
    """One browser context per person, closed at the end of the test."""

    def __init__(self, browser: Browser, base: str) -> None:
        self.browser = browser
        self.base = base
        self.contexts: list[BrowserContext] = []

    def new(self, **options: Any) -> Page:
        ctx = self.browser.new_context(base_url=self.base, locale="fr-FR", **{"viewport": DESKTOP, **options})
        ctx.add_init_script(LIVE_RECORDER)
        self.contexts.append(ctx)
        return new_page(ctx, self.base)

    def close(self) -> None:
        for ctx in self.contexts:
            ctx.close()


@pytest.fixture
def people(browser: Browser, friends_server: str) -> Iterator[People]:
    made = People(browser, friends_server)
    yield made
    made.close()


def host_table(page: Page, name: str) -> str:
    """Sign up as ``name``, make a friends' table at /amis; its code (from the lobby)."""
    page.goto("/inscription")
    page.get_by_label("Nom", exact=True).fill(name)
    page.get_by_label("Mot de passe", exact=True).fill(PASSWORD)
    page.get_by_label("Confirmer le mot de passe", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Créer mon compte", exact=True).click()
    page.wait_for_url(re.compile(r"/compte$"))
    page.goto("/amis")
    page.get_by_role("button", name="Créer la table", exact=True).click()
    page.wait_for_url(TABLE_URL)
    expect(page.get_by_role("heading", name="Avant la partie")).to_be_visible()
    expect(page.get_by_role("button", name="Commencer la partie")).to_be_visible()
    code = page.locator("#invite-code").text_content() or ""
    assert re.fullmatch(r"[A-Z2-9]{6}", code), code
    expect(page.get_by_label("Lien d'invitation")).to_have_value(re.compile(rf"/rejoindre/{code}$"))
    return code


def take_a_seat(page: Page, name: str) -> None:
    """On an invitation page: give a name and take the first free seat."""
    page.get_by_label("Votre nom à la table").fill(name)
    page.get_by_role("button", name=re.compile(r"^S'asseoir en ")).first.click()
    page.wait_for_url(TABLE_URL)
    expect(page.get_by_text("En attente de l'hôte pour commencer la partie.")).to_be_visible()


def lobby_row(page: Page, text: str) -> Any:
    return page.locator(".lobby-seat", has_text=text)


def computers_at_beginner(host: Page) -> None:
    """In the host's lobby, every computer's level set to the beginner's, the quickest to
    play (a test that does not look at the computers' play)."""
    levels = lobby_row(host, "Ordinateur").get_by_role("combobox", name=re.compile(r"^Niveau de l'ordinateur en "))
    n = levels.count()
    assert n, "no computer in the lobby"
    for i in range(n):
        levels.nth(i).select_option(label="Débutant")
    expect(lobby_row(host, "Ordinateur (Débutant)")).to_have_count(n)


def plate_of(page: Page, name: str) -> Any:
    """The seat (plate, badge, bubble) of the person called ``name``, as ``page`` shows it."""
    return page.locator(".seat", has=page.locator(".name", has_text=re.compile(rf"\({re.escape(name)}[,)]")))


NEXT_MOVE = """(bidder) => {
  const shown = (el) => el.checkVisibility();
  const first = (selector) => [...document.querySelectorAll(selector)].find(shown);
  if (first('button[data-do="next"]')) return { kind: "over" };
  const nothing = [...document.querySelectorAll('#declare button:not(:disabled)')]
    .find((b) => shown(b) && b.getAttribute('aria-label') === 'Ne rien annoncer');
  if (nothing) return { kind: "declare", selector: `#declare button[data-declare="${nothing.dataset.declare}"]` };
  const card = first('#hand button.hand-card:not(:disabled)');
  if (card) return { kind: "card", selector: `#hand button[data-card="${card.dataset.card}"]` };
  const pass = first('#bidding button.call-pass:not(:disabled)');
  if (!pass) return { kind: "" };
  const bids = [...document.querySelectorAll('#bidding button.call[data-call]:not(:disabled)')]
    .filter((b) => shown(b) && /^\\d+/.test(b.dataset.call))
    .sort((a, b) => parseInt(a.dataset.call, 10) - parseInt(b.dataset.call, 10));
  const call = bidder && bids.length ? bids[0] : pass;
  return { kind: "call", selector: `#bidding button.call[data-call="${call.dataset.call}"]` };
}"""
"""What a page offers now: ``{"kind": "over"}`` (the deal's summary), a declaration ("Ne rien
annoncer"), a card (the first playable) or a call (the lowest bid for ``bidder``, else
"Passe") with the CSS selector of its button, or ``{"kind": ""}``: nothing to do. One look at
the page: finding the buttons by their roles and names (the accessibility tree) at each move
was most of a deal's time."""

ON_TOP = """(selector) => {
  const b = document.querySelector(selector);
  if (!b) return "gone";
  const r = b.getBoundingClientRect();
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return top === null || b.contains(top) ? "" : top.outerHTML.slice(0, 160);
}"""
"""What lies over the middle of a button, if anything does (else "")."""

TAKEN = """(selector) => {
  const b = document.querySelector(selector);
  return !b || b.disabled || !b.checkVisibility();
}"""
"""The button pressed is gone, disabled or hidden: the table took the move."""


def cards_held(table: Table) -> int:
    """How many cards the page's hand shows (one look, not a search by roles and names)."""
    n: int = table.page.evaluate("() => document.querySelectorAll('#hand .hand-card').length")
    return n


DEAL_OVER = """() => [...document.querySelectorAll('button[data-do="next"]')].some((b) => b.checkVisibility())"""


def deal_over(table: Table) -> bool:
    """The deal's summary offers the next deal."""
    over: bool = table.page.evaluate(DEAL_OVER)
    return over


def press(table: Table, selector: str, what: str, timeout: float = 10.0) -> None:
    """A click at the middle of the button of ``selector``, as a person's, at once (waiting
    for a button to hold still, as Playwright's click does, doubled a deal's time: a playable
    card rises), then again while the table has not taken it (a click as the hand is drawn
    again can miss; a request already sent is not sent twice). A button under something else
    (a notice) is never taken: what covers it is said."""
    deadline = time.monotonic() + timeout
    while True:
        with contextlib.suppress(PlaywrightTimeoutError):  # gone meanwhile: taken
            table.page.locator(selector).click(force=True, timeout=1_000)
        with contextlib.suppress(PlaywrightTimeoutError):
            table.page.wait_for_function(TAKEN, arg=selector, polling=50, timeout=2_000)
            return
        if time.monotonic() > deadline:
            over = table.page.evaluate(ON_TOP, selector)
            told = table.page.locator("#notice").text_content()
            raise AssertionError(f"{what} clicked, not taken in {timeout:.0f} s; over it: {over!r}; notice: {told!r}")


def play_until(tables: list[Table], done: Callable[[], bool], timeout: float = 90.0) -> dict[int, int]:
    """Each page plays whenever its turn comes, until ``done()``, clicking the page's own
    buttons; how many things each page did (by index). The first page opens the auction
    with a bid."""
    acts = dict.fromkeys(range(len(tables)), 0)
    bid = False
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, f"nothing ended within {timeout:.0f} s: {acts}"
        moved = False
        for i, table in enumerate(tables):
            if table.page.is_closed():
                continue
            bidder = i == 0 and not bid
            move = table.page.evaluate(NEXT_MOVE, bidder)
            if move["kind"] not in ("declare", "card", "call"):
                continue
            press(table, move["selector"], f"page {i}: {move}")
            acts[i] += 1
            bid = bid or (bidder and move["kind"] == "call")
            moved = True
        if not moved:
            time.sleep(0.05)
    return acts


def test_three_friends_and_a_computer_play_a_deal_and_one_comes_back(people: People) -> None:
    host = people.new()
    code = host_table(host, "Hote")
    link = host.get_by_label("Lien d'invitation").input_value()

    # Paul comes by the link, Marie types the code.
    paul = people.new()
    paul.goto(link)
    take_a_seat(paul, "Paul")
    marie = people.new()
    marie.goto("/rejoindre")
    marie.get_by_label("Code de la table").fill(code.lower())
    marie.get_by_role("button", name="Rejoindre", exact=True).click()
    marie.wait_for_url(re.compile(rf"/rejoindre/{code}$"))
    take_a_seat(marie, "Marie")

    # The host's lobby: the three names, here, the guests marked; the computer's level set by the host.
    for name in ("Paul", "Marie"):
        expect(lobby_row(host, name)).to_contain_text("présent")
        expect(lobby_row(host, name)).to_contain_text(f"{name} (invité)")
    expect(lobby_row(paul, "Hote (hôte)")).not_to_contain_text("invité")
    computer = lobby_row(host, "Ordinateur")
    expect(computer).to_have_count(1)
    level = computer.get_by_role("combobox", name=re.compile(r"^Niveau de l'ordinateur en "))
    level.select_option(label="Débutant")
    expect(lobby_row(host, "Ordinateur (Débutant)")).to_have_count(1)
    expect(lobby_row(paul, "Ordinateur (Débutant)")).to_have_count(1)
    expect(paul.get_by_role("button", name="Commencer la partie")).to_have_count(0)

    # A quick message in the lobby reaches the others.
    marie.get_by_role("button", name="Messages", exact=True).click()
    marie.get_by_role("button", name="On y va ?", exact=True).click()
    expect(lobby_row(host, "Marie").locator(".say")).to_have_text("On y va ?")
    Table(host).wait_for_live("Marie", "On y va ?")

    host.get_by_role("button", name="Commencer la partie").click()
    tables = [Table(p, how="click") for p in (host, paul, marie)]
    for t in tables:
        expect(t.hand()).to_have_count(8)
    expect(plate_of(host, "Paul").locator(".presence")).to_have_text("présent")
    expect(plate_of(host, "Paul").locator(".presence")).to_be_visible()

    # At the table, a quick message shows beside the speaker's seat.
    host.get_by_role("button", name="Messages", exact=True).click()
    host.get_by_role("button", name="Bien joué", exact=True).click()
    expect(paul.locator(".seat", has=paul.locator(".name", has_text="(Hote)")).locator(".say")).to_have_text(
        "Bien joué"
    )

    # Play to the first card, then Paul's page closes.
    play_until(tables, lambda: any(cards_held(t) < 8 for t in tables))
    paul_ctx = paul.context
    table_url = paul.url
    paul.close()
    remaining = [tables[0], tables[2]]
    host_table_ = tables[0]
    start = len(host_table_.live_log())
    play_until(
        remaining,
        lambda: any("Paul, invité) est remplacé par l'ordinateur" in t for t in host_table_.live_log()[start:]),
        timeout=30,
    )
    expect(plate_of(host, "Paul").locator(".presence")).to_have_text("remplacé par l'ordinateur")
    said = host_table_.live_log()[start:]
    replaced_at = next(i for i, t in enumerate(said) if "Paul, invité) est remplacé" in t)
    # the computer plays Paul's seat: a move of that seat is said after the change
    play_until(
        remaining,
        lambda: any(
            re.match(r".*\(Paul, invité\) (joue|: )", t) for t in host_table_.live_log()[start + replaced_at + 1 :]
        ),
        timeout=30,
    )

    # Paul comes back (same guest cookie) and plays his seat again.
    paul = new_page(paul_ctx, people.base)
    paul.goto(table_url)
    back = Table(paul, how="click")
    host_table_.wait_for_live("(Paul, invité) reprend sa place", since=start)
    # He is told what the computer played for him while he was away.
    expect(back.notice()).to_contain_text("Pendant votre absence, l'ordinateur a joué pour vous : ")
    expect(plate_of(host, "Paul").locator(".presence")).to_have_text("présent")
    tables = [tables[0], back, tables[2]]
    acts = play_until(tables, lambda: all(deal_over(t) for t in tables))
    assert acts[1] >= 1, acts
    for t in tables:
        assert not t.page.js_errors, t.page.js_errors  # type: ignore[attr-defined]


def test_four_friends_play_a_deal_and_a_fifth_finds_the_table_full(people: People) -> None:
    host = people.new()
    code = host_table(host, "Hotesse")
    guests = []
    for name in ("Ana", "Bob", "Cyd"):
        page = people.new()
        page.goto(f"/rejoindre/{code}")
        take_a_seat(page, name)
        guests.append(page)
    expect(host.locator(".lobby-seat", has_text="Ordinateur")).to_have_count(0)

    late = people.new()
    late.goto(f"/rejoindre/{code}")
    expect(late.get_by_text("La table est complète")).to_be_visible()
    expect(late.get_by_role("button", name=re.compile("^S'asseoir"))).to_have_count(0)

    host.get_by_role("button", name="Commencer la partie").click()
    tables = [Table(p, how="click") for p in (host, *guests)]
    acts = play_until(tables, lambda: all(deal_over(t) for t in tables))
    assert all(n >= 8 for n in acts.values()), acts  # eight cards each, at least

    # Cyd leaves the table: asked first (and stays once), then gone home; a computer plays on.
    cyd = guests[2]
    cyd.keyboard.press("Escape")  # the deal's summary
    leave = cyd.get_by_role("button", name="Quitter la table", exact=True)
    leave.click()
    dialog = cyd.get_by_role("dialog", name="Quitter la table ?")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Rester", exact=True).click()
    expect(dialog).to_be_hidden()
    expect(cyd).to_have_url(TABLE_URL)
    leave.click()
    dialog.get_by_role("button", name="Quitter", exact=True).click()
    cyd.wait_for_url(re.compile(r"/$"))
    tables[0].wait_for_live("(Cyd, invité) quitte la table : l'ordinateur (Expert) prend sa place")
    for t in tables:
        assert not t.page.js_errors, t.page.js_errors  # type: ignore[attr-defined]


def test_an_idle_player_is_warned_then_the_computer_plays_for_them(
    browser: Browser, server_factory: Callable[..., Any], tmp_path: Path
) -> None:
    with server_factory(tmp_path, "--idle-warning-seconds", "1", "--idle-move-seconds", "3") as base:
        people = People(browser, base)
        try:
            host = people.new()
            code = host_table(host, "Lent")
            guest = people.new()
            guest.goto(f"/rejoindre/{code}")
            take_a_seat(guest, "Zoe")
            host.get_by_role("button", name="Commencer la partie").click()
            pages = [host, guest]
            for p in pages:
                expect(Table(p).hand()).to_have_count(8)
            # nobody acts: whoever is to call is warned, with a countdown, then the computer calls
            deadline = time.monotonic() + 20
            idle: Page | None = None
            while idle is None:
                assert time.monotonic() < deadline, "no warning came"
                for p in pages:
                    if p.locator("#idle").is_visible():
                        idle = p
                time.sleep(0.1)
            # both pages show the clock of the person to play, at their seat
            other = guest if idle is host else host
            expect(idle.locator("#seat-south .plate .clock")).to_have_text(re.compile(r"^0:0[0-3]$"))
            expect(other.locator(".seat:not(.seat-south) .plate .clock")).to_have_count(1)
            keep_screenshot(other, "friends-clock")
            expect(idle.get_by_role("alert")).to_contain_text("l'ordinateur jouera pour vous")
            expect(idle.locator("#idle .idle-count")).to_have_text(re.compile(r"^\d+ s$"))
            Table(idle).wait_for_live("Temps écoulé, l'ordinateur joue pour", timeout=10_000)
            expect(idle.locator("#idle")).to_be_hidden()
            # the person it played for is told what it played, until they close the notice
            told = Table(idle).notice()
            expect(told).to_contain_text("Votre temps était écoulé : l'ordinateur a joué pour vous ")
            keep_screenshot(idle, "friends-played-for-you")
            idle.locator("#notice .notice-close").click()
            expect(told).to_be_hidden()
            assert not idle.js_errors, idle.js_errors  # type: ignore[attr-defined]
        finally:
            people.close()


AT_HAND = """async () => {
  // after the frame's layout and its ResizeObservers (bottom_place.js lifts the notices there)
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const shown = (el) => el.checkVisibility();
  const controls = [...document.querySelectorAll('#bidding button, #declare button, #hand .hand-card')]
    .filter((b) => shown(b) && !b.disabled);
  const missed = [];
  for (const b of controls) {
    // a card of the fan shows its left part and its top
    const r = b.getBoundingClientRect();
    const x = b.matches('.hand-card') ? r.left + r.width * 0.22 : r.left + r.width / 2;
    const top = document.elementFromPoint(x, r.top + r.height * 0.4);
    const name = b.getAttribute('aria-label') || b.textContent.trim();
    if (top === null || !b.contains(top)) missed.push(`${name} under ${top && top.outerHTML.slice(0, 80)}`);
  }
  return { controls: controls.length, missed, dialogs: document.querySelectorAll('dialog[open]').length };
}"""
"""The page's enabled controls (bidding box, declaration, playable cards), those a click at
them would not reach (the element there is something else), and how many dialogs are open."""


def my_turn(table: Table) -> bool:
    """The page offers a move (a call, a declaration or a card)."""
    move = table.page.evaluate(NEXT_MOVE, False)
    return move["kind"] in ("call", "declare", "card")


def nothing_over_the_table(table: Table) -> int:
    """No dialog open and every enabled control reachable by a click; how many there are."""
    seen = table.page.evaluate(AT_HAND)
    assert seen["dialogs"] == 0, f"{seen['dialogs']} dialog(s) open over the table"
    assert not seen["missed"], seen["missed"]
    n: int = seen["controls"]
    return n


def test_one_friends_next_deal_folds_every_summary_into_the_last_deal(people: People) -> None:
    """One person's "Donne suivante" deals for everyone, and no page keeps a summary over the
    live table: the others are told who dealt on, and the last deal's summary can be reopened
    from its button, not modal, closing when the person's turn comes."""
    laptop = {"width": 1366, "height": 768}
    host = people.new(viewport=laptop)
    code = host_table(host, "Hugo")
    paul = people.new(viewport=laptop)
    paul.goto(f"/rejoindre/{code}")
    take_a_seat(paul, "Paul")
    computers_at_beginner(host)
    host.get_by_role("button", name="Commencer la partie").click()
    tables = [Table(p, how="click") for p in (host, paul)]
    for t in tables:
        expect(t.hand()).to_have_count(8)
    play_until(tables, lambda: all(deal_over(t) for t in tables))
    host_t, paul_t = tables
    verdict = paul.locator("#summary .verdict").text_content() or ""
    assert verdict, "the summary shows no result"

    # The host goes on: the new deal on every page, no summary left open over it.
    host_t.next_deal_button().click()
    for t in (paul_t, host_t):
        expect(t.page.locator("#summary")).not_to_be_visible()
        expect(t.page.locator("dialog[open]")).to_have_count(0)
        expect(t.hand()).to_have_count(8)
        nothing_over_the_table(t)
        expect(t.page.get_by_role("button", name="Donne précédente", exact=True)).to_be_visible()
    # Paul is told who dealt on, in the notice and by the live region; the host is not.
    expect(paul_t.notice()).to_have_text(re.compile(r"\(Hugo\) a lancé la donne suivante\.$"))
    paul_t.wait_for_live("(Hugo) a lancé la donne suivante.")
    expect(host_t.notice()).not_to_contain_text("la donne suivante")
    keep_screenshot(paul, "friends-dealt-on")
    paul.set_viewport_size({"width": 390, "height": 844})
    nothing_over_the_table(paul_t)
    keep_screenshot(paul, "friends-dealt-on-phone")
    paul.set_viewport_size(laptop)

    # Paul reopens the last deal while it is not his turn: its result, who dealt on, no way on.
    if my_turn(paul_t):
        press(paul_t, "#bidding button.call-pass:not(:disabled)", "Paul's pass")
    host.wait_for_function(f"() => ['call', 'declare', 'card'].includes(({NEXT_MOVE})(false).kind)", polling=50)
    assert not my_turn(paul_t)  # nothing moves until the host does
    paul.get_by_role("button", name="Donne précédente", exact=True).click()
    last = paul.locator("#summary")
    expect(last).to_be_visible()
    expect(last.get_by_role("heading", name="Donne 1 terminée")).to_be_visible()
    expect(last.locator(".verdict")).to_have_text(verdict)
    expect(last.locator(".went-on")).to_have_text(re.compile(r"\(Hugo\) a lancé la donne suivante\.$"))
    expect(last.locator(".score-sheet tbody tr")).to_have_count(1)
    expect(paul_t.next_deal_button()).to_have_count(0)
    assert paul.evaluate("() => document.querySelector('#summary').matches(':modal')") is False
    keep_screenshot(paul, "friends-last-deal")
    paul.set_viewport_size({"width": 390, "height": 844})
    keep_screenshot(paul, "friends-last-deal-phone")
    paul.set_viewport_size(laptop)
    # ... and his turn closes it: his controls are his to click.
    play_until([host_t], lambda: my_turn(paul_t))
    expect(last).not_to_be_visible()
    assert nothing_over_the_table(paul_t) > 0
    # reopened and closed by hand, the focus goes back to its button
    paul.get_by_role("button", name="Donne précédente", exact=True).click()
    last.get_by_role("button", name="Voir la table", exact=True).click()
    expect(last).not_to_be_visible()
    expect(paul.get_by_role("button", name="Donne précédente", exact=True)).to_be_focused()
    for t in tables:
        assert not t.page.js_errors, t.page.js_errors  # type: ignore[attr-defined]


def card_names(table: Table) -> list[str]:
    return [table.name_of(card) for card in table.hand().all()]


# The pages' reconnect waits (connection.js) shortened: the same back-off, doubling from 0.1 s
# to at most 0.8 s instead of 0.4 s to 8 s, so the pages come back soon after the server.
FAST_RECONNECT = "window.coincheTestWaits = {first: 100, max: 800};"


def test_a_crash_loses_nothing_and_every_page_comes_back_by_itself(browser: Browser, tmp_path: Path) -> None:
    """Issue 17, item 5: four people mid-deal, the server killed (SIGKILL) and started
    again on the same port and database: each page says it is reconnecting, comes back by
    itself with its own seat and hand, and the four play the deal to its end."""
    server = LiveServer(tmp_path)
    people = People(browser, server.base)
    try:
        host = people.new()
        host.context.add_init_script(FAST_RECONNECT)
        code = host_table(host, "Hote")
        pages = [host]
        for name in ("Ana", "Bob", "Cyd"):
            page = people.new()
            page.context.add_init_script(FAST_RECONNECT)
            page.goto(f"/rejoindre/{code}")
            take_a_seat(page, name)
            pages.append(page)
        host.get_by_role("button", name="Commencer la partie").click()
        tables = [Table(p, how="click") for p in pages]
        play_until(tables, lambda: sum(8 - cards_held(t) for t in tables) >= 6)
        time.sleep(0.3)  # the last move's state reaches every page
        before = [card_names(t) for t in tables]
        urls = [p.url for p in pages]

        server.kill()
        for t in tables:
            expect(t.notice()).to_contain_text("connexion", ignore_case=True, timeout=10_000)
        server = LiveServer(tmp_path, port=server.port)

        for t, cards, url in zip(tables, before, urls, strict=True):
            expect(t.notice()).not_to_contain_text("connexion", ignore_case=True, timeout=20_000)
            assert t.page.url == url
            assert card_names(t) == cards
        acts = play_until(tables, lambda: all(deal_over(t) for t in tables))
        assert sum(acts.values()) >= 1, acts
        for t in tables:
            assert not t.page.js_errors, t.page.js_errors  # type: ignore[attr-defined]
        assert "Traceback" not in server.log()
    finally:
        people.close()
        server.stop()
