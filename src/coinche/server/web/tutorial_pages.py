"""'Apprendre en jouant' | 'Learn by playing' (issue 32): the guided first deal,
``/apprendre`` | ``/learn`` and its steps ``…/{n}``.

The state is the step number of the address: the script (``table.tutorial``) is fixed, so
the position at step n is its first actions replayed by the engine. No table, no database,
no free deal. Each step is a form posted with the visitor's CSRF token; its script
(``tutorial.js``) draws the moves with the table's own bidding box and hand, its plain
buttons are the page without script; either way the moves are the engine's legal ones and
the server judges them: the right move leads to the next step (303), another legal one is
explained on the same step (200), anything else is refused (400); a step that does not
exist is a 404. The last page says the deal in words, from the engine's count, and offers
a first real deal against the computer with the coach on.
"""

from __future__ import annotations

from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from ...engine.actions import call_str, is_card
from ...engine.cards import PLAIN_POINTS, TRUMP_POINTS, card_str, parse_card, sorted_cards
from ...engine.deal import Deal
from ..table import i18n, tutorial
from ..table.seating import seat_positions
from .pages import ADDRESSES, page, read_checked_form

PATHS = {lang: ADDRESSES[lang]["learn"] for lang in i18n.LANGUAGES}
ORDER_TRUMP = ("JH", "9H", "AH", "TH", "KH", "QH", "8H", "7H")
ORDER_PLAIN = ("AS", "TS", "KS", "QS", "JS", "9S", "8S", "7S")
"""The two orders the first step draws (the rule book's, section 7), each card with its
points (the engine's)."""


def _lang(request: Request) -> str:
    return "en" if request.url.path.startswith(PATHS["en"]) else "fr"


def step_url(lang: str, step: int) -> str:
    return PATHS[lang] if step == 1 else f"{PATHS[lang]}/{step}"


def _step(request: Request) -> int:
    raw = request.path_params.get("step", "1")
    if not (isinstance(raw, str) and raw.isascii() and raw.isdigit() and len(raw) <= 3):
        raise HTTPException(404)
    step = int(raw)
    if not 1 <= step <= tutorial.END:
        raise HTTPException(404)
    return step


async def step_page(request: Request) -> Response:
    step = _step(request)
    lang = _lang(request)
    wrong: str | None = None
    refused = False
    if request.method == "POST":
        form = await read_checked_form(request)
        chosen = form.get("action")
        verdict, why = tutorial.answer(step, chosen) if isinstance(chosen, str) else (tutorial.Answer.ILLEGAL, None)
        if verdict is tutorial.Answer.RIGHT:
            return RedirectResponse(step_url(lang, step + 1), status_code=303)
        if verdict is tutorial.Answer.WRONG:
            wrong = why
        else:
            refused = True
    other = "en" if lang == "fr" else "fr"
    return page(
        request,
        "tutorial.html",
        status=400 if refused else 200,
        lang=lang,
        other_url=step_url(other, step),
        **step_context(lang, step),
        wrong=None if wrong is None else i18n.gettext(lang, wrong),
        refused=refused,
        action_url=f"{PATHS[lang]}/{step}",
        next_url=step_url(lang, step + 1) if step < tutorial.END else None,
        restart_url=PATHS[lang],
    )


def step_context(lang: str, step: int) -> dict[str, Any]:
    """What step ``step`` shows, all read from the engine's deal at that step: the lesson,
    the trick on the table, the player's hand and moves (the page's script draws them with
    the table's bidding box and hand; the plain buttons are the page without script)."""
    deal = tutorial.position(step)
    positions = seat_positions(deal.rules.direction, tutorial.PLAYER)
    trump = deal.contract.trump if deal.contract is not None else None
    offered = tutorial.offered(step)
    legal_cards = [card_str(a) for a in offered if is_card(a)]
    hand = [card_str(c) for c in sorted_cards(deal.hands[tutorial.PLAYER], trump)]
    calls = [call_str(a) for a in offered if not is_card(a)]
    trick = [
        {
            "pos": positions[(deal.trick_leader + i) & 3],
            "seat": i18n.gettext(lang, f"seat.short.{positions[(deal.trick_leader + i) & 3]}"),
            "code": card_str(c),
        }
        for i, c in enumerate(deal.trick)
    ]
    key = tutorial.lesson(step)
    return {
        "step": step,
        "steps": tutorial.STEPS,
        "end": step == tutorial.END,
        "key": key,
        "title": i18n.gettext(lang, f"tutorial.title.{key}"),
        "lesson": i18n.gettext(lang, f"tutorial.step.{key}"),
        "hand": [{"code": c, "legal": c in legal_cards} for c in hand],
        "playing": bool(legal_cards),
        "bid_rows": _bid_rows(lang, calls),
        "big_calls": [{"code": c, "name": i18n.call_name(lang, c)} for c in calls if not c[0].isdigit()],
        "trick": trick,
        "points": (
            [(c, TRUMP_POINTS[parse_card(c) & 7]) for c in ORDER_TRUMP],
            [(c, PLAIN_POINTS[parse_card(c) & 7]) for c in ORDER_PLAIN],
        ),
        "count": _count(lang, deal),
        "card_name": lambda code: i18n.card_name(lang, code),
        "moves": {"hand": hand, "legal": legal_cards, "calls": calls},
        "catalogue": i18n.js_catalogue(lang) if offered else None,
    }


def _bid_rows(lang: str, calls: list[str]) -> list[dict[str, Any]]:
    """The bids of ``calls`` by value, as the bidding box groups them: a value, then one
    button per trump (its suit drawn, its name in words for screen readers)."""
    rows: dict[str, list[dict[str, str]]] = {}
    for code in calls:
        value = code.rstrip("SHDCAT")
        if value.isdigit():
            rows.setdefault(value, []).append(
                {"code": code, "name": i18n.call_name(lang, code), "trump": code[len(value) :]}
            )
    return [{"value": v, "calls": cs} for v, cs in rows.items()]


def _count(lang: str, deal: Deal) -> str | None:
    """The finished deal in words, from the engine's count: the contract, the points the
    player's side made of the deal's, made or not, the score."""
    result = deal.result()
    if result is None or result.contract is None:
        return None
    contract = result.contract
    ours = tutorial.PLAYER & 1
    takers = contract.taker & 1
    return i18n.gettext(
        lang,
        "tutorial.end.made" if result.made else "tutorial.end.failed",
        contract=i18n.gettext(
            lang, f"tutorial.contract.x{contract.multiplier}", call=i18n.call_name(lang, contract.call)
        ),
        side=i18n.gettext(lang, "tutorial.side.ours" if takers == ours else "tutorial.side.theirs"),
        points=result.card_points[takers],
        total=sum(result.card_points),
        us=result.score[ours],
        them=result.score[1 - ours],
    )


routes: list[BaseRoute] = [
    *(Route(PATHS[lang], step_page) for lang in i18n.LANGUAGES),
    *(Route(PATHS[lang] + "/{step}", step_page, methods=["GET", "POST"]) for lang in i18n.LANGUAGES),
]
