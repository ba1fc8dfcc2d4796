"""'Apprendre en jouant' | 'Learn by playing' (issue 32): the guided first deal,
``/apprendre`` | ``/learn`` and its steps ``…/{n}``.

The state is the step number of the address: the script (``table.tutorial``) is fixed, so
the position at step n is its first actions replayed by the engine. No table, no database,
no free deal. Each step is a plain form of real buttons (the engine's legal moves), posted
with the visitor's CSRF token: the right move leads to the next step (303), another legal
one is explained on the same step (200), anything else is refused (400); a step that does
not exist is a 404. The last page shows the engine's count of the deal.
"""

from __future__ import annotations

from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from ...engine.actions import action_str, call_str, is_card
from ...engine.cards import card_str, sorted_cards
from ...engine.deal import Deal
from ..table import i18n, tutorial
from ..table.seating import seat_names
from .pages import ADDRESSES, page, read_checked_form

PATHS = {lang: ADDRESSES[lang]["learn"] for lang in i18n.LANGUAGES}
ORDER_TRUMP = ("JH", "9H", "AH", "TH", "KH", "QH", "8H", "7H")
ORDER_PLAIN = ("AS", "TS", "KS", "QS", "JS", "9S", "8S", "7S")
"""The two orders the first step draws (the rule book's, section 7)."""


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
        puzzles_url=ADDRESSES[lang]["puzzles"],
    )


def step_context(lang: str, step: int) -> dict[str, Any]:
    """What step ``step`` shows, all read from the engine's deal at that step."""
    deal = tutorial.position(step)
    names = seat_names(lang, deal.rules.direction, tutorial.PLAYER)
    trump = deal.contract.trump if deal.contract is not None else None
    offered = tutorial.offered(step)
    legal_cards = {card_str(a) for a in offered if is_card(a)}
    hand = [
        {"code": card_str(c), "legal": card_str(c) in legal_cards}
        for c in sorted_cards(deal.hands[tutorial.PLAYER], trump)
    ]
    calls = [{"code": call_str(a), "name": i18n.call_name(lang, call_str(a))} for a in offered if not is_card(a)]
    auction = [
        i18n.gettext(
            lang, "tutorial.did.call", seat=names[(deal.dealer + 1 + i) & 3], call=i18n.call_name(lang, call_str(a))
        )
        for i, a in enumerate(deal.auction.calls)
    ]
    trick = [{"seat": names[(deal.trick_leader + i) & 3], "code": card_str(c)} for i, c in enumerate(deal.trick)]
    key = tutorial.lesson(step)
    return {
        "step": step,
        "steps": tutorial.STEPS,
        "end": step == tutorial.END,
        "key": key,
        "title": i18n.gettext(lang, f"tutorial.title.{key}"),
        "lesson": i18n.gettext(lang, f"tutorial.step.{key}"),
        "events": _events(lang, step, names),
        "hand": hand,
        "playing": bool(legal_cards),
        "calls": calls,
        "auction": auction,
        "trick": trick,
        "score": _score(lang, deal, names),
        "count": _count(lang, deal),
        "order_trump": ORDER_TRUMP,
        "order_plain": ORDER_PLAIN,
        "card_name": lambda code: i18n.card_name(lang, code),
    }


def _events(lang: str, step: int, names: list[str]) -> list[str]:
    """What happened since the player's last move, that move included: each call, each
    card, each trick's winner, in words."""
    end = tutorial.actions_before(step)
    start = tutorial.actions_before(step - 1) if step > 1 else 0
    deal = tutorial.replayed(start)
    out = []
    for action in tutorial.ACTIONS[start:end]:
        seat = deal.to_move
        tricks = len(deal.tricks)
        deal.apply(action)
        if is_card(action):
            out.append(
                i18n.gettext(
                    lang, "tutorial.did.card", seat=names[seat], card=i18n.card_with_article(lang, action_str(action))
                )
            )
        else:
            out.append(
                i18n.gettext(lang, "tutorial.did.call", seat=names[seat], call=i18n.call_name(lang, call_str(action)))
            )
        if len(deal.tricks) > tricks:
            last = deal.tricks[-1]
            out.append(i18n.gettext(lang, "tutorial.did.trick", seat=names[last.winner], points=last.points))
    return out


def _score(lang: str, deal: Deal, names: list[str]) -> str | None:
    """The contract and the tricks each side has won so far (None before a contract)."""
    contract = deal.contract
    if contract is None:
        return None
    team = tutorial.PLAYER & 1
    ours = sum(1 for t in deal.tricks if t.winner & 1 == team)
    return i18n.gettext(
        lang,
        "tutorial.score",
        contract=i18n.gettext(
            lang,
            f"tutorial.contract.x{contract.multiplier}",
            call=i18n.call_name(lang, contract.call),
        ),
        seat=names[contract.taker],
        us=ours,
        them=len(deal.tricks) - ours,
    )


def _count(lang: str, deal: Deal) -> dict[str, Any] | None:
    """The engine's count of the finished deal: its lines in words, made or not, the score."""
    result = deal.result()
    if result is None or result.contract is None:
        return None
    team = tutorial.PLAYER & 1
    return {
        "lines": [i18n.render(lang, m) for m in result.lines],
        "made": bool(result.made),
        "ours": result.score[team],
        "theirs": result.score[1 - team],
    }


routes: list[BaseRoute] = [
    *(Route(PATHS[lang], step_page) for lang in i18n.LANGUAGES),
    *(Route(PATHS[lang] + "/{step}", step_page, methods=["GET", "POST"]) for lang in i18n.LANGUAGES),
]
