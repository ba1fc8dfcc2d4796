"""The table's timeline in real Chromium: a complete trick stays on show about a second
whatever the player does (a lead made at once is shown after it), and the live region
says each event once, in table order, when it is drawn."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from table_driver import DealPlayed, Table, card_sentence, start_solo

TRICK_WATCH = """
(() => {
  window.__holds = [];
  window.__firstSeen = {};
  let current = null;
  const trick = document.getElementById('trick');
  const look = () => {
    const winner = trick.querySelector('.trick-winner');
    const cards = trick.querySelectorAll('.slot .card').length;
    const now = performance.now();
    for (const c of trick.querySelectorAll('.slot .card')) {
      if (!(c.dataset.card in window.__firstSeen)) window.__firstSeen[c.dataset.card] = now;
    }
    const complete = winner && cards === 4 ? winner : null;
    if (current && complete !== current.el) {
      // the trick on show went (a mutation record may hold its going and the next one)
      current.end = now;
      window.__holds.push(current);
      const done = current;
      current = null;
      delete done.el;
    }
    if (complete && !current) current = {start: now, end: null, played: false, el: complete};
  };
  new MutationObserver(look).observe(trick, {childList: true, subtree: true, attributes: true});
  document.addEventListener('click', (e) => {
    const card = e.target.closest && e.target.closest('#hand button.hand-card');
    if (card && current && !current.played) {
      current.played = true;
      current.card = card.dataset.card;
    }
  }, true);
})();
"""

ME = r"Sud \(vous\)"
SEATS = r"Sud \(vous\)|Est|Ouest|Nord \(partenaire\)"
TRICK_WON = re.compile(r"^(Sud \(vous\)|Est|Ouest|Nord \(partenaire\)) remporte le pli : \d+ points\.$")
CARD = re.compile(rf"^{card_sentence(SEATS)}$")


def holds(page: Page) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.evaluate("() => window.__holds")
    return found


def play_until_a_quick_lead(table: Table, deals: int = 2) -> list[tuple[DealPlayed, list[str]]]:
    """Play deals until the player has led at once while a complete trick was on show;
    the deals and the live region's texts of each."""
    page = table.page
    played: list[tuple[DealPlayed, list[str]]] = []
    for n in range(deals):
        page.evaluate(TRICK_WATCH)
        before = len(table.live_log())
        done = table.play_deal(bid=True)
        expect(table.summary()).to_be_visible()
        played.append((done, table.live_log()[before:]))
        if any(h["played"] for h in holds(page)) or done.end != "next" or n == deals - 1:
            break
        table.next_deal()
    return played


@pytest.fixture
def page(server_factory: Any, tmp_path: Path, make_page: Callable[..., Page]) -> Iterator[Page]:
    """A page of a server with the site's own trick pause (the other browser tests' servers
    shorten it): the hold is what these tests measure."""
    with server_factory(tmp_path, "--trick-pause", "1") as base:
        yield make_page(base)


def test_a_complete_trick_stays_and_the_live_region_keeps_table_order(page: Page) -> None:
    table = start_solo(page, profile="classic", target=700)
    played = play_until_a_quick_lead(table)
    done, said = played[-1]

    # Every complete trick stayed on show at least 0.8 s, the player's quick leads included,
    # and the lead made during it came after it.
    seen = holds(page)
    assert len(seen) >= 7, seen
    short = [h for h in seen if h["end"] - h["start"] < 800]
    assert not short, f"a complete trick went in less than 0.8 s: {short}"
    quick = [h for h in seen if h["played"]]
    assert quick, f"the player never led at once after a trick (holds: {seen})"
    first_seen: dict[str, float] = page.evaluate("() => window.__firstSeen")
    for h in quick:
        assert first_seen[h["card"]] >= h["end"] - 1, f"the player's card showed before the trick on show went: {h}"

    # The live region: each card once, four of them before each trick is won, in order.
    cards = [text for text in said if CARD.match(text)]
    assert len(cards) == 32, f"32 cards said once each: {len(cards)} {said}"
    assert len(set(cards)) == 32, f"a card was said twice: {said}"
    won = [i for i, text in enumerate(said) if TRICK_WON.match(text)]
    assert len(won) == 8, said
    for k, i in enumerate(won):
        before = [text for text in said[:i] if CARD.match(text)]
        assert len(before) == 4 * (k + 1), f"trick {k + 1} said as won after {len(before)} cards: {said}"
    for card in done.cards:
        matches = [text for text in said if re.fullmatch(card_sentence(ME, card), text)]
        assert len(matches) == 1, (card, said)
    assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]


def test_the_live_region_speaks_when_the_table_draws(page: Page) -> None:
    """A computer's card is said as it is drawn: the region's sentence about a card comes
    within 0.3 s of that card appearing on the table (no queue lagging behind)."""
    table = start_solo(page, profile="classic", target=700)
    page.evaluate(
        """() => {
          window.__drawn = {};
          const trick = document.getElementById('trick');
          new MutationObserver(() => {
            for (const c of trick.querySelectorAll('.slot .card')) {
              const name = c.getAttribute('aria-label');
              if (!(name in window.__drawn)) window.__drawn[name] = performance.now();
            }
          }).observe(trick, {childList: true, subtree: true});
        }"""
    )
    table.play_deal(bid=True)
    drawn: dict[str, float] = page.evaluate("() => window.__drawn")
    log: list[str] = page.evaluate("() => window.__live")
    at: list[float] = page.evaluate("() => window.__liveAt")
    lags = []
    for text, when in zip(log, at, strict=True):
        if not CARD.match(text):
            continue
        m = re.match(rf"^({SEATS}) joue (?:le |la |l'|l’)?(.+?)(?: : (?:re)?belote !)?$", text)
        assert m, text
        card = m.group(2)
        shown = [t for name, t in drawn.items() if name.endswith(card) or card in name]
        if shown:
            lags.append((text, when - min(shown)))
    assert len(lags) >= 28, lags
    late = [x for x in lags if abs(x[1]) > 300]
    assert not late, f"sentences said away from their card's drawing: {late}"
