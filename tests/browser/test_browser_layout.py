"""No seat hidden (issue 49, item 2): at every common screen size, during the auction, during
a trick and at the deal's end (the table under the summary), the four seats' name plates
and bubbles, the clock, the trick, the hand, the bidding box, the notice, the contract and
the score never overlap, none leaves the window, and the score shows all its lines.

Measured with one person (solo against the computers) and with several (a public friends'
table of two people and two computers, watched: the host's score panel then holds the
watchers' count and the switch that closes the table to them, and a clock runs at the seat
of the person to play), one page of each person resized through the sizes."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from browser_helpers import signed_up
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect
from table_driver import Table, keep_screenshot, start_solo
from test_browser_friends import TABLE_URL, computers_at_beginner, deal_over, play_until, take_a_seat
from test_browser_notice import Relay

SIZES = [(1280, 720), (1366, 768), (1536, 864), (1920, 1080), (390, 844), (844, 390)]
"""Laptops and desktops, and a phone held upright and sideways."""

SIDEWAYS_CALLING = ", auction, 844x390: "
"""Not laid out yet: on a phone held sideways, while the person calls, the bidding box
takes the middle from north's row down to the bar, and a notice lifted above it comes over
north's plate and the corners. Checked to be still wrong (playing alone), so that this line
goes with its fix."""

NOT_YET = "guest, auction, 390x844: "
"""Not laid out yet: on a phone at a friends' table, while the person calls, a long notice
(lifted above the bidding box, which two rows of tools below it push up) comes over the
seats' plates and bubbles. Checked to be still wrong, so that this line goes with its fix."""

UPRIGHT_CALLING = re.compile(r"^solo, auction, 390x844: bubble \w+ overlaps notice \d+ \(\d+x[1-8] px\)$")
"""Not laid out yet: on a phone held upright, while the person calls alone, a long notice
lifted above the bidding box may touch the side seats' call bubbles by a few pixels, in
the deals whose box stands a line taller (one deal in four or so). Bringing the notice down
over the box's head instead hid the box from the hint (``test_browser_bidding_keys``):
there is no room for both on that screen, and the bubbles lose least."""

EDGE = 4
"""How near a plate or a bubble may come to the window's edge (touching it reads as cut)."""

BOXES = """
async () => {
  // where things come to rest: short entrances (a bubble's pop, a panel rising, a card
  // coming to the trick) are waited for; the turn's long glow is not a move
  const short = document.getAnimations().filter((a) => {
    const t = a.effect.getTiming();
    return t.iterations !== Infinity && Number(t.duration) * t.iterations <= 1000;
  });
  await Promise.all(short.map((a) => a.finished.catch(() => null)));
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const seen = (el) => !!el && el.checkVisibility({opacityProperty: true, visibilityProperty: true})
    && el.getBoundingClientRect().width > 0 && el.getBoundingClientRect().height > 0;
  const out = [];
  const add = (what, el, group = what) => {
    const r = el.getBoundingClientRect();
    out.push({what, group, left: r.left, top: r.top, right: r.right, bottom: r.bottom});
  };
  const union = (what, els) => {
    const shown = els.filter(seen);
    if (!shown.length) return;
    const rs = shown.map((el) => el.getBoundingClientRect());
    out.push({what, group: what, left: Math.min(...rs.map((r) => r.left)), top: Math.min(...rs.map((r) => r.top)),
              right: Math.max(...rs.map((r) => r.right)), bottom: Math.max(...rs.map((r) => r.bottom))});
  };
  for (const p of ['north', 'west', 'east', 'south']) {
    const plate = document.querySelector(`#seat-${p} .plate`);
    if (seen(plate)) add(`plate ${p}`, plate);
    const clock = document.querySelector(`#seat-${p} .plate .clock`);
    if (seen(clock)) add(`clock ${p}`, clock, `plate ${p}`);
    const bubble = document.querySelector(`#seat-${p} > .bubble`);
    if (seen(bubble)) add(`bubble ${p}`, bubble);
  }
  const trick = document.getElementById('trick');
  if (seen(trick) && [...trick.querySelectorAll('.card')].some(seen)) add('trick', trick);
  union('hand', [...document.querySelectorAll('#hand .hand-card')]);
  for (const [what, q] of [['bidding box', '#bidding'], ['declarations', '#declare'], ['score', '.corner-score'],
                           ['contract', '.corner-contract']]) {
    const el = document.querySelector(q);
    if (seen(el)) add(what, el);
  }
  document.querySelectorAll('.bottom > .notice').forEach((el, i) => { if (seen(el)) add(`notice ${i}`, el); });
  const score = document.querySelector('.corner-score');
  const cut = seen(score) && score.scrollHeight > score.clientHeight + 1;
  return {boxes: out, width: window.innerWidth, height: window.innerHeight, scoreCut: cut,
          scrollWidth: document.documentElement.scrollWidth};
}
"""
"""The boxes of what must stay apart (each with its group: a clock belongs to its plate),
the window's size, whether the score panel scrolls (its last lines cut off) and how wide
the page is."""


def problems(found: dict[str, Any]) -> list[str]:
    """What is wrong in one page's boxes: overlaps, boxes out of the window, a score cut."""
    boxes, width, height = found["boxes"], found["width"], found["height"]
    wrong = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            if a["group"] == b["group"]:
                continue
            across = min(a["right"], b["right"]) - max(a["left"], b["left"])
            down = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
            if across > 0.5 and down > 0.5:
                wrong.append(f"{a['what']} overlaps {b['what']} ({across:.0f}x{down:.0f} px)")
    for a in boxes:
        margin = EDGE if a["what"].startswith(("plate", "bubble", "clock")) else 0
        out = (
            a["left"] < margin - 0.5
            or a["top"] < -0.5
            or a["right"] > width - margin + 0.5
            or a["bottom"] > height + 0.5
        )
        if out:
            where = f"{a['left']:.0f},{a['top']:.0f} to {a['right']:.0f},{a['bottom']:.0f}"
            wrong.append(f"{a['what']} leaves the window ({where})")
    if found["scoreCut"]:
        wrong.append("the score panel cuts its last lines (it scrolls)")
    if found["scrollWidth"] > width:
        wrong.append(f"the page scrolls sideways ({found['scrollWidth']} px)")
    return wrong


def measure(pages: dict[str, Page], state: str, found: list[str], before: Callable[[], None] | None = None) -> None:
    """Each page resized through ``SIZES``: what is wrong at each, added to ``found``
    (``before()`` runs before each size: a notice shown anew)."""
    for width, height in SIZES:
        for page in pages.values():
            page.set_viewport_size({"width": width, "height": height})
        if before is not None:
            before()
        for who, page in pages.items():
            seen = page.evaluate(BOXES)
            found += [f"{who}, {state}, {width}x{height}: {p}" for p in problems(seen)]
            keep_screenshot(page, f"layout-{who}-{state}-{width}x{height}")


TRICK_TURN = """() => [...document.querySelectorAll('#hand .hand-card')].some((b) => !b.disabled)
  && [...document.querySelectorAll('#trick .card')].some((c) => c.checkVisibility())"""
"""The page's turn to play, with a card of the trick already on the table."""


def playing(tables: list[Table], done: Callable[[], bool]) -> None:
    """``play_until``, pressed again when a button it found left the page before its click
    (the table moved on between the look and the click: a move of another page)."""
    for _ in range(3):
        try:
            play_until(tables, done)
            return
        except PlaywrightError as e:
            if "not visible" not in str(e):
                raise
    play_until(tables, done)


def at_a_trick(table: Table) -> bool:
    ready: bool = table.page.evaluate(TRICK_TURN)
    return ready


def test_nothing_overlaps_playing_alone(make_page: Callable[..., Page], server: str) -> None:
    page = make_page(server, viewport={"width": 1366, "height": 768})
    relay = Relay(page)
    table = start_solo(page, profile="classic", how="click")
    notice = table.notice()

    def say() -> None:
        relay.say()
        expect(notice).to_be_visible()

    found: list[str] = []
    table.pass_button().wait_for(timeout=20_000)
    measure({"solo": page}, "auction", found, say)
    playing([table], lambda: at_a_trick(table))
    measure({"solo": page}, "trick", found, say)
    page.set_viewport_size({"width": 1366, "height": 768})
    assert table.play_deal().end == "next"
    measure({"solo": page}, "summary", found)
    known = [f for f in found if SIDEWAYS_CALLING in f and "overlaps notice" in f]
    assert known, "the notice while calling on a phone held sideways is laid out: drop SIDEWAYS_CALLING"
    found = [f for f in found if f not in known and not UPRIGHT_CALLING.match(f)]
    assert not found, "\n".join(found)
    assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]


def test_nothing_overlaps_at_a_watched_table_of_friends(make_page: Callable[..., Page], server: str) -> None:
    host, guest, watcher = make_page(server), make_page(server), make_page(server)
    relay = Relay(guest)
    signed_up(host, "Hortense")
    host.goto("/amis")
    host.get_by_label("Table ouverte : visible de tous dans la liste des tables ouvertes").check()
    host.get_by_label("Un ami qui arrive en retard peut prendre la place d'un ordinateur entre deux donnes").uncheck()
    host.get_by_role("button", name="Créer la table", exact=True).click()
    host.wait_for_url(TABLE_URL)
    expect(host.locator("#invite-code")).to_have_text(re.compile(r"^[A-Z2-9]{6}$"))
    code = host.locator("#invite-code").text_content() or ""
    guest.goto(f"/rejoindre/{code}")
    take_a_seat(guest, "Gaspard")
    computers_at_beginner(host)
    host.get_by_role("button", name="Commencer la partie").click()
    tables = [Table(p, how="click") for p in (host, guest)]
    for t in tables:
        expect(t.hand()).to_have_count(8)
    watcher.goto(re.sub(r"/table/([^/]+)$", r"/table/\1/regarder", host.url))
    expect(watcher.get_by_text("Vous regardez cette partie")).to_be_visible()
    expect(host.locator("#watchers")).to_have_text("1 spectateur")
    expect(host.get_by_role("button", name="Fermer la table aux spectateurs")).to_be_visible()
    expect(host.locator(".plate .clock")).to_have_count(1)
    pages = {"host": host, "guest": guest, "watcher": watcher}

    def say() -> None:
        relay.say()
        expect(tables[1].notice()).to_be_visible()

    # the auction at the guest's call (the host calls, the computers at once, until then)
    calling = tables[1].pass_button()
    playing([tables[0]], lambda: calling.count() > 0 and calling.is_visible())
    found: list[str] = []
    measure(pages, "auction", found, say)
    known = [f for f in found if f.startswith(NOT_YET) and "overlaps notice" in f]
    assert known, "the phone's notice over the seats while calling is laid out: drop NOT_YET"
    found = [f for f in found if f not in known and not (SIDEWAYS_CALLING in f and "overlaps notice" in f)]
    for page in pages.values():
        page.set_viewport_size({"width": 1366, "height": 768})
    playing(tables, lambda: any(at_a_trick(t) for t in tables))
    expect(host.locator(".plate .clock")).to_have_count(1)
    measure(pages, "trick", found, say)
    for page in pages.values():
        page.set_viewport_size({"width": 1366, "height": 768})
    playing(tables, lambda: all(deal_over(t) for t in tables))
    expect(watcher.locator("#summary")).to_be_visible()
    measure(pages, "summary", found)
    assert not found, "\n".join(found)
    for page in pages.values():
        assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]


OWN_TURN = """() => [...document.querySelectorAll('#hand .hand-card')].some((b) => !b.disabled)"""


def test_the_own_belote_bubble_keeps_clear_of_a_notice(make_page: Callable[..., Page], server: str) -> None:
    """The player's belote is a bubble at its seat for a moment (which deal holds a belote
    is chance: the relay tells the page's card as announcing one); a notice coming then
    stands clear of it, on a laptop and on a phone (it came under the notice's place, above
    the plate)."""
    page = make_page(server, viewport={"width": 1366, "height": 768})
    relay = Relay(page)
    table = start_solo(page, profile="classic", how="click")
    bubble = page.locator("#seat-south > .bubble")
    table.pass_button().wait_for(timeout=20_000)
    found: list[str] = []
    for width, height in [(1366, 768), (390, 844)]:  # sideways, the own bubble is not shown
        page.set_viewport_size({"width": width, "height": height})
        seen = False
        for _ in range(3):  # the bubble lasts 2.5 s: a machine slower than that tries the next card
            playing([table], lambda: page.evaluate(OWN_TURN) and table.pass_button().count() == 0)
            relay.belote_next = True
            table.playable_cards().first.click()
            expect(bubble).to_have_text("Belote !")
            relay.say()
            expect(table.notice()).to_be_visible()
            boxes = page.evaluate(BOXES)
            if any(b["what"] == "bubble south" for b in boxes["boxes"]):
                seen = True
                found += [f"{width}x{height}: {p}" for p in problems(boxes)]
                keep_screenshot(page, f"layout-belote-{width}x{height}")
                break
        assert seen, f"{width}x{height}: the bubble was gone before it was measured, three times"
    assert not found, "\n".join(found)
