"""The table's notice (a refusal, a hint, what the computer played for a person, the
connection lost) never lies over a control the player needs nor over the hand's cards:
while calling, while declaring melds and while playing, on a laptop and on a phone.

Between the server and the page a relay lets the test show a notice at any moment (an
`error` message, as the server sends one), and turns the player's second turn to play into
a declaration (the melds of a deal are chance: a fixed panel of choices is shown the same
way every run)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect
from table_driver import Table, keep_screenshot, start_solo

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}

LONG_NOTICE = (
    "Pendant votre absence, l'ordinateur a joué pour vous : 80 cœur, Passe, Valet de cœur, "
    "Neuf de cœur, As de pique, Dix de trèfle"
)
"""As long as the longest notice a person meets (what the computer played for them)."""

DECLARES = [
    {"declare": 0, "melds": []},
    {"declare": 1, "melds": [{"name": "tierce QH", "points": 20}]},
    {"declare": 2, "melds": [{"name": "cinquante AS", "points": 50}]},
]
"""The declaration panel's choices the relay offers: nothing, a tierce, a fifty."""

COVERED = """async () => {
  // after a frame: the notices' place follows them by a ResizeObserver, which runs in the
  // frame's rendering (before its paint), not when the page's script shows the notice
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const seen = (el) => el.checkVisibility({ visibilityProperty: true, opacityProperty: true });
  const sheets = [...document.querySelectorAll('#bidding button, #declare button')].filter(seen);
  const others = [...document.querySelectorAll('.bottom-bar button, #belote-box, #notice button')].filter(seen);
  const cards = [...document.querySelectorAll('#hand .hand-card')].filter(seen);
  const notices = [...document.querySelectorAll('.notice')].filter(seen);
  const top = (x, y) => document.elementFromPoint(x, y);
  const name = (el) => el.getAttribute('aria-label') || el.textContent.trim() || el.id;
  const missed = [];
  const covered = [];
  // the open panel's buttons: a click at their middle reaches them, whatever is over them
  for (const el of sheets) {
    const r = el.getBoundingClientRect();
    const hit = top(r.left + r.width / 2, r.top + r.height / 2);
    if (hit === null || !(hit === el || el.contains(hit))) missed.push(name(el));
  }
  // the bar's tools and the hand's cards: no notice over them (the phone's bidding box lies
  // over them by design); a card of the fan shows its left part and its top
  const under = (el, x, y) => {
    const hit = top(x, y);
    return hit !== null && notices.some((n) => n.contains(hit) && !n.contains(el));
  };
  for (const el of others) {
    const r = el.getBoundingClientRect();
    if (under(el, r.left + r.width / 2, r.top + r.height / 2)) covered.push(name(el));
  }
  for (const el of cards) {
    const r = el.getBoundingClientRect();
    const x = r.left + r.width * 0.22;
    if (under(el, x, r.top + r.height * 0.3) || under(el, x, r.top + r.height * 0.8)) covered.push(name(el));
  }
  return { missed, covered, buttons: sheets.length + others.length, cards: cards.length };
}"""
"""The open panel's buttons a click at their middle would miss, the other controls and the
cards a notice lies over (a card: at its top and at its foot), and how many buttons and cards were looked at."""

SETTLED = """() => [...document.querySelectorAll('.sheet')].every(
  (sheet) => sheet.getAnimations().every((a) => a.playState !== 'running'))"""
"""The panels stand where they stay: they rise as they open."""


class Relay:
    """The table's socket, relayed: ``say()`` sends the page a notice as the server would;
    once ``declare_next`` is set, the next state that offers cards offers the declaration
    panel instead; once ``belote_next`` is set, the page's next card of its own is told
    it as announcing the belote (its bubble shows at the seat)."""

    def __init__(self, page: Page) -> None:
        self.to_page: WebSocketRoute | None = None
        self.declare_next = False
        self.declaring = False
        self.belote_next = False
        self.you: int | None = None
        page.route_web_socket(re.compile(r"/ws/table/"), self._relay)

    def _relay(self, ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()
        self.to_page = ws

        def from_server(message: str | bytes) -> None:
            if isinstance(message, str) and (self.belote_next or self.you is None):
                data = json.loads(message)
                if data.get("type") == "state" and data.get("table"):
                    self.you = data["table"].get("you")
                last = data.get("last") or {}
                action = last.get("action") or {}
                if self.belote_next and "card" in action and last.get("seat") == self.you:
                    action["belote"] = True
                    self.belote_next = False
                    message = json.dumps(data)
            if isinstance(message, str) and self.declare_next:
                data = json.loads(message)
                holder: Any = None
                key: Any = None
                if data.get("type") == "state" and data.get("game"):
                    holder, key = data["game"]["deal"], "legal_actions"
                elif data.get("type") == "step":
                    for change in data["set"]:
                        if change[0] == ["game", "deal", "legal_actions"]:
                            holder, key = change, 1
                legal = holder[key] if holder is not None else None
                if legal and all("card" in a for a in legal):
                    holder[key] = DECLARES
                    self.declare_next = False
                    self.declaring = True
                    message = json.dumps(data)
            ws.send(message)

        ws.on_message(lambda m: server.send(m))
        server.on_message(from_server)

    def say(self, text: str = LONG_NOTICE) -> None:
        assert self.to_page is not None, "the table's socket is not open"
        self.to_page.send(json.dumps({"type": "error", "message": text}))


def nothing_covered(table: Table, relay: Relay, what: str, shot: str) -> None:
    """With a long notice shown, a click at every visible control and card lands on it."""
    relay.say()
    expect(table.notice()).to_have_text(LONG_NOTICE)
    table.page.wait_for_function(SETTLED, polling=50, timeout=5_000)
    found = table.page.evaluate(COVERED)
    keep_screenshot(table.page, shot)
    assert found["buttons"] and found["cards"], f"{what}: nothing looked at ({found})"
    assert not found["missed"], f"{what}: a click on {found['missed']} lands on something else"
    assert not found["covered"], f"{what}: the notice lies over {found['covered']}"


def until(table: Table, ready: Callable[[], bool], act: Callable[[], None], timeout: float = 30_000) -> None:
    """``act()`` whenever the page offers something to do, until ``ready()``."""
    deadline = table.page.evaluate("() => performance.now()") + timeout
    while not ready():
        assert table.page.evaluate("() => performance.now()") < deadline, "the table did not reach the state"
        table.page.wait_for_function(
            "() => !!document.querySelector('#hand button:not(:disabled), #bidding:not([hidden]) button, "
            "#declare:not([hidden]) button, button[data-do=next]')",
            polling=50,
            timeout=20_000,
        )
        if not ready():
            act()


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_a_notice_covers_no_control_nor_card_in_any_phase(make_page: Any, server: str, size: dict[str, int]) -> None:
    phone = size is PHONE
    options: dict[str, Any] = {"viewport": size}
    if phone:
        options |= {"has_touch": True, "is_mobile": True, "device_scale_factor": 2}
    page = make_page(server, **options)
    relay = Relay(page)
    table = start_solo(page, profile="classic", how="click")
    tag = "phone" if phone else "laptop"

    # calling: the bidding box open
    table.pass_button().wait_for(timeout=20_000)
    nothing_covered(table, relay, "calling", f"notice-{tag}-calling")
    table.call(table.lowest_bid() or table.pass_button())

    # playing: the first card of the player (passed out, the next deal: call until cards come)
    def playing() -> bool:
        return bool(table.playable_cards().count())

    def act() -> None:
        if table.no_melds_button().count():  # the deal's own melds: declared or not, cards come after
            table.press(table.no_melds_button())
            expect(table.no_melds_button()).to_have_count(0)
        elif table.pass_button().count():
            table.call(table.pass_button())
        elif table.next_deal_button().is_visible():
            table.next_deal()

    until(table, playing, act)
    nothing_covered(table, relay, "playing", f"notice-{tag}-playing")
    relay.declare_next = True
    table.play_card(table.playable_cards().first)

    # declaring: the declaration panel (the relay's) over the table
    expect(table.no_melds_button()).to_be_visible(timeout=30_000)
    assert relay.declaring
    nothing_covered(table, relay, "declaring", f"notice-{tag}-declaring")
    # a click without force, as a person's: the button takes it (playwright checks what is on top)
    table.no_melds_button().click(trial=True, timeout=3_000)
    assert not page.js_errors, page.js_errors
