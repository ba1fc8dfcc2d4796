"""The words at the seams that the pages' scripts write (issue 49 item 3): quick play's
button and how long it waits in the first screen, the deal's verdict said from the
reader's side (a made contract is bad news to the defenders), and the score chart's words
in the singular and the plural."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from browser_helpers import signed_up
from playwright.sync_api import Page, expect
from table_driver import keep_screenshot, start_solo

IN_FIRST_SCREEN = """(el) => {
  const r = el.getBoundingClientRect();
  return r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth;
}"""


@pytest.mark.parametrize(("width", "height"), [(1366, 768), (390, 844)])
def test_quick_play_says_its_wait_and_its_button_is_in_the_first_screen(
    make_page: Callable[..., Page], server: str, width: int, height: int
) -> None:
    page = make_page(server, viewport={"width": width, "height": height})
    signed_up(page, f"Rapide{width}")
    page.goto("/partie-rapide")
    expect(page.get_by_text(re.compile(r"trouvés en \d+ secondes,"))).to_be_visible()
    button = page.get_by_role("button", name="Trouver une partie")
    assert button.evaluate(IN_FIRST_SCREEN), button.bounding_box()
    keep_screenshot(page, f"words-quick-{width}")
    assert page.js_errors == []  # type: ignore[attr-defined]


VERDICT = """async ([taker, made, you, watching]) => {
  const { verdictOf, summaryHTML } = await import('/static/js/summary.js');
  const state = JSON.parse(JSON.stringify(window.__words_state));
  state.table.you = you;
  state.table.watching = watching;
  state.game.deal.result.made = made;
  state.game.deal.result.contract.taker = taker;
  const box = document.createElement('div');
  box.innerHTML = summaryHTML(state);
  const p = box.querySelector('.verdict');
  return { said: verdictOf(state).text, text: p.textContent, cls: p.className };
}"""

STATE: dict[str, Any] = {
    "table": {
        "id": "x",
        "you": 0,
        "watching": False,
        "seat_names": ["Vous", "Ouest", "Nord", "Est"],
        "heading": {"target": 700, "sheet": "Feuille", "compare": None},
    },
    "game": {
        "winner": None,
        "deal_number": 1,
        "history": [[90, 72]],
        "totals": [90, 72],
        "deal": {
            "calls": [],
            "shown_melds": [[], [], [], []],
            "result": {
                "made": True,
                "contract": {"taker": 0, "call": "80H"},
                "sweep": None,
                "card_points": [90, 72],
                "belote": [0, 0],
                "melds": [0, 0],
                "score": [90, 72],
            },
        },
    },
    "over": False,
    "after_game": {"line": None, "url": "/", "text": ""},
    "result_lines": [],
    "can_continue": True,
    "free_deals_over": False,
}
"""A deal's end as a seat's state says it (the fields the summary reads)."""


def test_the_verdict_is_said_from_the_readers_side_and_the_chart_counts_its_deals(page: Page, server: str) -> None:
    start_solo(page)  # a table page: its catalogue, its scripts
    page.evaluate("(state) => { window.__words_state = state; }", STATE)
    cases = [  # taker, made, reader's seat, watching: what the reader reads, and its colour
        (0, True, 0, False, "Contrat réussi", "made"),
        (0, False, 0, False, "Chuté", "failed"),
        (0, True, 1, False, "Ils ont réussi leur contrat", "failed"),
        (2, False, 3, False, "Ils ont chuté : bien défendu !", "made"),
        (1, True, 3, False, "Contrat réussi", "made"),
        (1, True, 0, True, "Contrat réussi", "plain"),
    ]
    for taker, made, you, watching, words, colour in cases:
        found = page.evaluate(VERDICT, [taker, made, you, watching])
        assert found["said"] == words and found["text"] == words, (taker, made, you, found)
        assert found["cls"].split() == ["verdict", colour], (taker, made, you, found)
    descs = page.evaluate(
        """async () => {
          const { scoreChartSVG } = await import('/static/js/summary.js');
          const desc = (history, target) => {
            const box = document.createElement('div');
            box.innerHTML = scoreChartSVG(history, target, 0);
            return box.querySelector('desc').textContent;
          };
          return [desc([[90, 72]], 700), desc([[90, 72], [0, 162]], 700), desc([[90, 72]], null)];
        }"""
    )
    assert descs == [
        "Après 1 donne : nous 90, eux 72, objectif 700.",
        "Après 2 donnes : nous 90, eux 234, objectif 700.",
        "Après 1 donne : nous 90, eux 72.",
    ]
    assert page.js_errors == []  # type: ignore[attr-defined]
