"""The table page over a connection that fails: a cut mid-deal (the page's own action lost
on its way to the server, or answered and the answer lost), the table gone (close 4404),
and a request the server refuses.

Playwright's ``page.route_web_socket`` stands between the page and the server: the
``Wire`` below passes every frame on, records them, and lets a test hold one back or close
the page's side of the connection, as a dropped network would. The page itself exposes
nothing for the tests.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlparse

from browser_helpers import new_page
from playwright.sync_api import BrowserContext, Page, WebSocketRoute, expect
from table_driver import DealPlayed, Table, keep_screenshot, start_solo
from websockets.sync.client import connect

from coinche.server.web.table_socket import MAX_CONNECTIONS

SOCKET = re.compile(r"/ws/table/[^/?]+(\?.*)?$")
TABLE_GONE = 4404
DROPPED = 1011
"""The close code of the page's side when the test cuts the connection: a failure, so the
page connects again."""


@dataclass
class Link:
    """One connection of the page: its address and every frame, both ways, as JSON."""

    route: WebSocketRoute
    server: WebSocketRoute
    url: str
    up: list[dict[str, Any]] = field(default_factory=list)
    """What the page sent (and whether the server got it: ``passed``)."""
    down: list[dict[str, Any]] = field(default_factory=list)
    """What the server sent that reached the page."""
    held: list[dict[str, Any]] = field(default_factory=list)
    """What the server sent that the test held back (or that came after the cut)."""
    cut: bool = False


Rule = Callable[["Wire", Link, dict[str, Any]], "str | None"]
"""Decides what becomes of one frame: None passes it on, ``"drop"`` holds it back,
``"cut"`` holds it back and closes the page's side, anything else is sent instead."""


class Wire:
    """Every WebSocket of the page, passed through (or not) by ``up`` and ``down`` rules."""

    def __init__(self, page: Page) -> None:
        self.links: list[Link] = []
        self.up_rule: Rule | None = None
        self.down_rule: Rule | None = None
        page.route_web_socket(SOCKET, self._route)

    def _route(self, ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()
        link = Link(ws, server, ws.url)
        self.links.append(link)

        def cut() -> None:
            self.cut(link)

        def up(raw: str | bytes) -> None:
            frame = json.loads(raw)
            verdict = self.up_rule(self, link, frame) if self.up_rule else None
            link.up.append({**frame, "passed": verdict != "drop" and verdict != "cut"})
            if verdict is None:
                server.send(raw)
            elif verdict not in ("drop", "cut"):
                server.send(verdict)
            if verdict == "cut":
                cut()

        def down(raw: str | bytes) -> None:
            frame = json.loads(raw)
            verdict = self.down_rule(self, link, frame) if self.down_rule and not link.cut else None
            if verdict is None and not link.cut:
                link.down.append(frame)
                ws.send(raw)
            else:
                link.held.append(frame)
            if verdict == "cut":
                cut()

        ws.on_message(up)
        server.on_message(down)

    @staticmethod
    def cut(link: Link) -> None:
        """Closes both sides of ``link``, as a dropped network would: the page sees a
        failure (and nothing the server sends after)."""
        link.cut = True
        link.route.close(code=DROPPED, reason="cut by the test")
        link.server.close()

    def last_seq(self, link: Link) -> int:
        """The last seq the page received on ``link``."""
        return max(m["seq"] for m in link.down if m["type"] in ("state", "step"))


def is_card(frame: dict[str, Any]) -> bool:
    return frame.get("type") == "action" and isinstance(frame.get("action", {}).get("card"), str)


def states_of(frames: list[dict[str, Any]], you: int, card: str) -> list[dict[str, Any]]:
    """The states and steps whose step is the player's playing ``card``."""
    return [
        m
        for m in frames
        if m["type"] in ("state", "step")
        and m.get("last")
        and m["last"]["seat"] == you
        and m["last"]["action"].get("card") == card
    ]


def check_whole_deal(played: DealPlayed) -> None:
    """The deal went on to its end, each card of the player's leaving the hand once."""
    assert played.end in ("next", "account"), played
    assert played.hand_sizes == list(range(8, 0, -1)), played
    assert len(set(played.cards)) == 8, played


def cut_at_first_card(lost: str) -> tuple[Rule, Rule]:
    """Rules that cut the connection at the player's first card: ``lost="request"``, the
    card's request never reaches the server; ``lost="answer"``, the server takes it but
    none of its answers (the ack, the states after it) reaches the page."""
    cut: dict[str, Any] = {}

    def up(wire: Wire, link: Link, frame: dict[str, Any]) -> str | None:
        if cut or not is_card(frame):
            return None
        cut.update(frame=frame, link=link)
        return "cut" if lost == "request" else None

    def down(wire: Wire, link: Link, frame: dict[str, Any]) -> str | None:
        if lost != "answer" or cut.get("link") is not link:
            return None
        if frame["type"] == "ack" and frame["id"] == cut["frame"]["id"]:
            return "cut"
        return "drop"

    return up, down


def run_cut_mid_deal(page: Page, lost: str) -> None:
    wire = Wire(page)
    up, down = cut_at_first_card(lost)
    table = start_solo(page)
    expect(page).to_have_url(re.compile(r"/table/[^/]+$"))
    wire.up_rule, wire.down_rule = up, down

    def shoot(t: Table, done: DealPlayed) -> None:
        if len(done.cards) == 3:
            keep_screenshot(page, f"reconnect-{lost}-mid-deal")

    played = table.play_deal(bid=True, before_card=shoot)
    check_whole_deal(played)

    # One cut, one new connection, which asked for what the page missed.
    assert len(wire.links) == 2, [link.url for link in wire.links]
    first, second = wire.links
    assert "since=" not in first.url
    since = wire.last_seq(first)
    assert second.url.endswith(f"?since={since}"), (second.url, since)
    hello = second.down[0]
    assert hello["type"] == "hello" and hello["resumed"] is True, hello
    you = hello["you"]

    # The card's request, sent again on the new connection with the same id, once.
    lost_frame = next(f for f in first.up if is_card(f))
    assert lost_frame["passed"] is (lost == "answer")
    card = lost_frame["action"]["card"]
    again = [f for f in second.up if f.get("id") == lost_frame["id"]]
    assert len(again) == 1 and again[0]["action"] == lost_frame["action"], again
    assert not [f for f in second.up if is_card(f) and f["action"]["card"] == card and f["id"] != lost_frame["id"]]

    # Applied once: one ack (the same on both connections when the first was lost), one
    # state of that card reached the page, and the server's steps came in order, none twice.
    acks = [m for m in second.down if m["type"] == "ack" and m["id"] == lost_frame["id"]]
    assert len(acks) == 1, second.down
    if lost == "answer":
        first_ack = [m for m in first.held if m["type"] == "ack" and m["id"] == lost_frame["id"]]
        assert [a["seq"] for a in first_ack] == [acks[0]["seq"]]
    received = first.down + second.down
    assert len(states_of(received, you, card)) == 1
    seqs = [m["seq"] for m in received if m["type"] in ("state", "step")]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), seqs
    assert not [m for m in received if m["type"] == "error"], [m for m in received if m["type"] == "error"]
    assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]


def test_a_cut_before_the_server_got_the_card(page: Page) -> None:
    run_cut_mid_deal(page, "request")


def test_a_cut_after_the_server_took_the_card(page: Page) -> None:
    run_cut_mid_deal(page, "answer")


def test_only_the_players_own_answer_settles_the_request(page: Page) -> None:
    """The ack of the player's first card is held back, everything else passes: the other
    seats' moves come and it is the player's turn again, yet the page sends nothing while
    its card waits for its answer. Once the connection is cut, the page sends the card
    again, gets the same ack, and plays on."""
    wire = Wire(page)
    table = start_solo(page)
    expect(page).to_have_url(re.compile(r"/table/[^/]+$"))
    first_card: dict[str, Any] = {}

    def up(wire: Wire, link: Link, frame: dict[str, Any]) -> str | None:
        if is_card(frame) and not first_card:
            first_card.update(frame)
        return None

    def down(wire: Wire, link: Link, frame: dict[str, Any]) -> str | None:
        held = link is wire.links[0] and frame["type"] == "ack" and frame["id"] == first_card.get("id")
        return "drop" if held else None

    wire.up_rule, wire.down_rule = up, down

    def probe(t: Table, done: DealPlayed) -> None:
        if len(done.cards) != 1:
            return
        first = wire.links[0]
        sent = len(first.up)
        card = t.playable_cards().first
        name = t.name_of(card)
        t.press(card)
        page.wait_for_timeout(1_000)
        assert len(first.up) == sent, first.up[sent:]
        expect(t.card(name)).to_have_count(1)
        wire.cut(first)
        # play on once the answer is back (the page ignores a card pressed while it waits)
        for _ in range(100):
            if len(wire.links) == 2 and any(m["type"] == "ack" for m in wire.links[1].down):
                break
            page.wait_for_timeout(100)
        page.wait_for_timeout(300)

    played = table.play_deal(bid=True, before_card=probe)
    check_whole_deal(played)
    assert len(wire.links) == 2, [link.url for link in wire.links]
    first, second = wire.links
    held = [m for m in first.held if m["type"] == "ack"]
    assert [m["id"] for m in held] == [first_card["id"]]
    hello = second.down[0]
    assert hello["type"] == "hello" and hello["resumed"] is True, hello
    assert second.url.endswith(f"?since={wire.last_seq(first)}")
    assert [f["id"] for f in second.up][:1] == [first_card["id"]], second.up
    acks = [m for m in second.down if m["type"] == "ack" and m["id"] == first_card["id"]]
    assert [m["seq"] for m in acks] == [held[0]["seq"]]
    assert len(states_of(first.down + second.down, hello["you"], first_card["action"]["card"])) == 1
    assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]


def test_the_table_gone(page: Page) -> None:
    wire = Wire(page)
    table = start_solo(page)
    expect(table.hand()).to_have_count(8)
    wire.links[0].route.close(code=TABLE_GONE, reason="no seat")
    gone = "Cette table n'existe plus."
    expect(table.notice()).to_have_text(gone)
    table.wait_for_live(gone)
    page.wait_for_timeout(2_000)  # the page would have tried again by now
    assert len(wire.links) == 1, [link.url for link in wire.links]
    expect(table.notice()).to_have_text(gone)
    assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]


def test_a_refusal_is_shown_and_the_player_goes_on(page: Page) -> None:
    wire = Wire(page)
    table = start_solo(page)
    refused: dict[str, Any] = {}

    def spoil(wire: Wire, link: Link, frame: dict[str, Any]) -> str | None:
        """The player's first call goes to the server as a card: refused in the auction."""
        if refused or frame.get("type") != "action":
            return None
        refused["frame"] = frame
        return json.dumps({**frame, "action": {"card": "7S"}})

    wire.up_rule = spoil
    pass_button = table.pass_button()
    expect(pass_button).to_be_visible()
    table.press(pass_button)
    expect(table.notice()).to_be_visible()
    errors = [m for link in wire.links for m in link.down if m["type"] == "error"]
    assert len(errors) == 1, errors
    error = errors[0]
    assert error["id"] == refused["frame"]["id"]
    assert error["message"]
    expect(table.notice()).to_have_text(error["message"])
    table.wait_for_live(error["message"])

    # The refusal settled the request: the player calls again, and the deal goes on.
    played = table.play_deal(bid=True)
    assert played.end in ("next", "account"), played
    assert played.calls, played
    assert len(wire.links) == 1
    assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]


def test_too_many_connections_is_said_plainly_and_the_page_comes_in_once_one_closes(
    page: Page, context: BrowserContext, server: str
) -> None:
    """The table open in 32 places (this page and 31 other connections of the same guest):
    a 33rd tab is told why it gets no table (close 1013), and gets it once one closes."""
    table = start_solo(page)
    expect(table.hand()).to_have_count(8)
    cookie = next(c for c in context.cookies() if c["name"] == "session")
    address = server.replace("http://", "ws://") + urlparse(page.url).path.replace("/table/", "/ws/table/")
    with contextlib.ExitStack() as stack:
        others = []
        for _ in range(MAX_CONNECTIONS - 1):
            ws = stack.enter_context(connect(address, additional_headers={"Cookie": f"session={cookie['value']}"}))
            assert json.loads(ws.recv(timeout=10))["type"] == "hello"
            others.append(ws)
        extra = new_page(context, server)
        extra.goto(page.url)
        full = Table(extra)
        expect(full.notice()).to_have_text("Cette table est ouverte dans trop d'onglets ou d'appareils : fermez-en un.")
        expect(full.hand()).to_have_count(0)
        others.pop().close()
        expect(full.hand()).to_have_count(8, timeout=20_000)  # its next try comes in
        expect(full.notice()).to_be_hidden()
        assert not extra.js_errors, extra.js_errors  # type: ignore[attr-defined]
