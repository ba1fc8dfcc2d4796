"""Every page of the site on a phone 390 px wide: nothing scrolls sideways (long codes and
SHA-256 strings wrap), the home page's "Jouer" is within the first screen, a friends'
table's lobby shows that it scrolls to "Commencer la partie", and the invitation page is
styled like the rest of the site."""

from __future__ import annotations

from datetime import datetime

from browser_helpers import LIVE_RECORDER, new_page
from playwright.sync_api import Browser, Page, expect
from table_driver import keep_screenshot
from test_browser_friends import TABLE_URL, host_table

from coinche.server.features.tournaments.model import daily_arena_id
from coinche.server.table.days import CLUB_TIME

PHONE_390 = {"width": 390, "height": 844}

WIDEST = """() => {
  const doc = document.documentElement;
  let widest = null;
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (r.width && r.right > 390.5 && (!widest || r.right > widest.right)) {
      if (el.closest('.games-scroll, .calendar-scroll, .history-scroll, [role="region"]')) continue;
      widest = {tag: el.tagName, cls: String(el.className), right: r.right, text: (el.textContent || '').slice(0, 60)};
    }
  }
  return {scroll: doc.scrollWidth, inner: window.innerWidth, widest};
}"""
"""How wide the page is, and the element that reaches furthest past 390 px (inside a box of
its own that scrolls, a wide table is fine)."""


def phone_page(browser: Browser, base: str) -> Page:
    ctx = browser.new_context(
        base_url=base, locale="fr-FR", viewport=PHONE_390, has_touch=True, is_mobile=True, device_scale_factor=2
    )
    ctx.add_init_script(LIVE_RECORDER)
    return new_page(ctx, base)


def check_width(page: Page, name: str) -> str | None:
    page.wait_for_load_state("load")
    keep_screenshot(page, f"phone-page-{name}", full_page=True)
    sizes = page.evaluate(WIDEST)
    # a phone's browser widens its layout to the widest content (and zooms out): the
    # page must fit the phone's own width
    if sizes["scroll"] > PHONE_390["width"] or sizes["widest"] is not None:
        return f"{name} ({page.url}): {sizes}"
    return None


def test_no_page_scrolls_sideways_on_a_phone(browser: Browser, server: str) -> None:
    page = phone_page(browser, server)
    wide: list[str | None] = []
    guest_pages = {
        "home": "/",
        "rules": "/regles",
        "rules-classic": "/regles/classic",
        "calculator": "/calculateur",
        "challenge": "/defi",
        "join": "/rejoindre",
        "signup": "/inscription",
        "login": "/connexion",
        "history": "/historique",
        "verify": "/verifier",
        "replay": "/revoir",
        "tournaments": "/tournois",
        "learn": "/apprendre",
        "learn-auction": "/apprendre/2",
        "learn-trick": "/apprendre/5",
        "learn-count": "/apprendre/12",
    }
    for name, path in guest_pages.items():
        page.goto(path)
        wide.append(check_width(page, name))

    # "Jouer contre l'ordinateur" within the first screen of the home page.
    page.goto("/")
    play = page.get_by_role("button", name="Jouer contre l'ordinateur", exact=True)
    box = play.bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE_390["height"], f"below the first screen: {box}"
    page.goto("/solo")
    wide.append(check_width(page, "solo settings"))
    page.goto("/")

    # A solo table.
    page.get_by_role("button", name="Jouer contre l'ordinateur", exact=True).tap()
    page.wait_for_url(TABLE_URL)
    expect(page.locator("#hand button").first).to_be_visible()
    wide.append(check_width(page, "table"))
    # the score box shows all its lines: the computers' level and the rules' link too
    score = page.locator(".corner-score").evaluate(
        """(el) => { const box = el.getBoundingClientRect();
                    const inside = (q) => { const r = el.querySelector(q).getBoundingClientRect();
                                            return r.height > 0 && r.bottom <= box.bottom + 0.5; };
                    return {scrolls: el.scrollHeight > el.clientHeight + 1, level: inside('#level'),
                            rules: inside('.rules-link')}; }"""
    )
    assert score == {"scrolls": False, "level": True, "rules": True}, f"the score box cuts its lines: {score}"

    # An account: its page, its profile, a friends' table's lobby and its invitation.
    code = host_table(page, "Phonie")
    wide.append(check_width(page, "lobby"))
    # "Commencer la partie" within the lobby panel's visible box, not below its bottom
    start = page.get_by_role("button", name="Commencer la partie")
    expect(start).to_be_visible()
    where = start.evaluate(
        """(el) => { const r = el.getBoundingClientRect();
                    const p = el.closest('.lobby').getBoundingClientRect();
                    return {top: r.top, bottom: r.bottom, panelTop: p.top, panelBottom: p.bottom,
                            viewport: window.innerHeight}; }"""
    )
    assert where["top"] >= where["panelTop"] and where["bottom"] <= min(where["panelBottom"], where["viewport"]), where
    arena = f"/tournoi/{daily_arena_id(datetime.now(CLUB_TIME).date())}"  # the site runs one every day
    signed_in_pages = {
        "account": "/compte",
        "amis": "/amis",
        "profile": "/joueur/Phonie",
        "tournament-new": "/tournois/nouveau",
        "tournament": arena,
    }
    for name, path in signed_in_pages.items():
        page.goto(path)
        wide.append(check_width(page, name))
    other = phone_page(browser, server)
    other.goto(f"/rejoindre/{code}")
    wide.append(check_width(other, "invitation"))
    seats = other.locator(".lobby-seat")
    expect(seats.first).to_be_visible()
    # styled: the seats are boxes (a background), not a bare list with bullets
    style = seats.first.evaluate("(el) => [getComputedStyle(el).backgroundColor, getComputedStyle(el).listStyleType]")
    assert style[0] not in ("rgba(0, 0, 0, 0)", "transparent") and style[1] == "none", style
    problems = [w for w in wide if w]
    assert not problems, "pages wider than the phone:\n" + "\n".join(problems)
