"""Your mistakes as puzzles (``features.mistakes``): the list of a person's own, and each
one played again from the position they faced, with what they could know then (their
hand, the calls, the cards played): never another hand until they have answered.

Only the person who made a mistake opens it (anyone else: 404). An answer is a form sent
with its CSRF token; one that is not a card or a call open at the position gives the page
again (400), nothing counted.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any, Final

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ...bots.puzzles import play_card
from ...engine.actions import call_str, card_of, is_bid, is_card, parse_call
from ...engine.cards import TRUMP_NAMES, card_str, parse_card, sorted_cards
from ...engine.deal import Deal
from ...engine.errors import EngineError
from ..compute.bot_pool import PoolBusy
from ..features.mistakes import SOLVED_DAYS, Mistake, Mistakes
from ..features.review import contract_call
from ..infra.config import Settings
from ..table import i18n
from ..table.seating import seat_names
from .daily_pages import contract_text
from .pages import ADDRESSES, page, player_in_session, read_checked_form
from .puzzle_pages import box_words

PATHS: Final = {lang: ADDRESSES[lang]["mistakes"] for lang in ("fr", "en")}
SHOWN_CALLS: Final = 8
"""The best calls an answer lists (and the person's, wherever it stands)."""


def mistakes_of(request: Request) -> Mistakes:
    mistakes: Mistakes = request.app.state.mistakes
    return mistakes


def _lang(request: Request) -> str:
    return "en" if request.url.path.startswith(PATHS["en"]) else "fr"


def _other(lang: str) -> str:
    return "fr" if lang == "en" else "en"


def mistake_url(lang: str, mistake_id: str) -> str:
    return f"{PATHS[lang]}/{mistake_id}"


def _what(lang: str, m: Mistake) -> str:
    """ "Une carte à 22 points", "Une annonce à environ 45 points"."""
    return i18n.gettext(lang, f"mistakes.what.{m.kind}", points=round(m.cost))


async def list_page(request: Request) -> Response:
    lang = _lang(request)
    player = player_in_session(request)
    found = await mistakes_of(request).of_player(player) if player is not None else []
    rows = [
        {
            "url": mistake_url(lang, m.id),
            "date": m.created_at.strftime("%Y-%m-%d"),
            "profile": i18n.gettext(lang, f"profile.{m.profile}"),
            "what": _what(lang, m),
            "solved": i18n.gettext(lang, "mistakes.solved_days", count=len(m.solved_days), of=SOLVED_DAYS),
        }
        for m in found
    ]
    return page(request, "mistakes.html", lang=lang, other_url=PATHS[_other(lang)], rows=rows)


async def mistake_page(request: Request) -> Response:
    form = await read_checked_form(request) if request.method == "POST" else None
    lang = _lang(request)
    mistakes = mistakes_of(request)
    player = player_in_session(request)
    mistake = await mistakes.get(request.path_params["mistake_id"])
    if mistake is None or player is None or mistake.player != player:
        raise HTTPException(404)
    status = 200
    answer: dict[str, Any] | None = None
    if form is not None:
        chosen = _chosen(mistake, form)
        settings: Settings = request.app.state.settings
        judged = await mistakes.answer(mistake, chosen, settings.clock()) if chosen is not None else None
        if judged is None:
            status = 400  # not a card or a call of the position: the page again, nothing counted
        else:
            solved, days = judged
            assert chosen is not None
            mistake = replace(mistake, line=await _line(mistakes, mistake))
            answer = answer_context(lang, mistake, chosen, solved, days)
    return page(
        request,
        "mistake.html",
        status=status,
        lang=lang,
        other_url=mistake_url(_other(lang), mistake.id),
        action=mistake_url(lang, mistake.id),
        home_url=PATHS[lang],
        review_url=f"/table/{mistake.table_id}/donne/{mistake.deal_number}",
        title=i18n.gettext(lang, f"mistakes.title.{mistake.kind}", date=mistake.created_at.strftime("%Y-%m-%d")),
        card_name=lambda code: i18n.card_name(lang, code),
        **position_context(lang, mistake),
        **(answer or {"answered": False}),
    )


async def _line(mistakes: Mistakes, mistake: Mistake) -> tuple[str, ...]:
    """The card's line to show with the answer (none when the workers are too busy: the
    answer stands without it)."""
    try:
        return await mistakes.line(mistake)
    except PoolBusy:
        return ()


def _chosen(m: Mistake, form: Any) -> str | None:
    """The answer the form names, in record notation (None: none that reads as one; a
    card is judged against the position's cards)."""
    if m.kind == "card":
        card = form.get("card")
        return card if isinstance(card, str) and len(card) <= 3 else None
    call = form.get("call")
    if call == "bid":
        call = form.get("bid")
    if not isinstance(call, str) or len(call) > 16:
        return None
    try:
        return call_str(parse_call(call))
    except EngineError:
        return None


def position_context(lang: str, m: Mistake) -> dict[str, Any]:
    """What the seat knew at the position, read from the engine's view of it: their hand,
    the calls, the tricks played and the trick in progress; the legal answers."""
    deal = m.position
    view = deal.view(m.seat)
    names = seat_names(lang, deal.rules.direction, m.seat)
    calls = [
        {"seat": names[(deal.dealer + 1 + i) & 3], "call": i18n.call_name(lang, call_str(a))}
        for i, a in enumerate(view.calls)
    ]
    contract = deal.contract
    trump = contract.trump if contract is not None else None
    legal_codes = {code for code, _ in m.values}
    hand = [
        {"code": card_str(c), "legal": m.kind == "card" and card_str(c) in legal_codes}
        for c in sorted_cards(view.hand, trump)
    ]
    tricks = [
        {
            "cards": [{"seat": names[(t.leader + i) & 3], "code": card_str(c)} for i, c in enumerate(t.cards)],
            "winner": names[t.winner],
        }
        for t in deal.tricks
    ]
    trick = [{"seat": names[(deal.trick_leader + i) & 3], "code": card_str(c)} for i, c in enumerate(deal.trick)]
    legal_calls = (
        [a for a in deal.legal_actions() if not is_card(a) and call_str(a) in legal_codes] if m.kind == "call" else []
    )
    team = m.seat & 1
    return {
        "mistake": m,
        "seat": names[m.seat],
        "dealer": names[deal.dealer],
        "profile": i18n.gettext(lang, f"profile.{m.profile}"),
        "contract": None if contract is None else contract_text(lang, contract_call(contract)),
        "taker": None if contract is None else names[contract.taker],
        "trump": None if trump is None else TRUMP_NAMES[trump],
        "calls": calls,
        "hand": hand,
        "tricks": tricks,
        "trick": trick,
        "points": (deal.card_points[team], deal.card_points[1 - team]),
        "others": [
            {"code": call_str(a), "name": i18n.call_name(lang, call_str(a))} for a in legal_calls if not is_bid(a)
        ],
        "bids": [{"code": call_str(a), "name": i18n.call_name(lang, call_str(a))} for a in legal_calls if is_bid(a)],
        "calls_codes": [call_str(a) for a in legal_calls],
        "catalogue": json.dumps(box_words(lang), ensure_ascii=False).replace("<", "\\u003c"),
    }


def answer_context(lang: str, m: Mistake, chosen: str, solved: bool, days: tuple[str, ...]) -> dict[str, Any]:
    """The answer: solved or not, why the best is best (a card: the solver's line, said
    trick by trick; a call: the expert's values), and how far the spaced repetition is."""
    names = seat_names(lang, m.position.rules.direction, m.seat)
    best_code, best = m.values[0]
    mine = m.value_of(chosen)
    assert mine is not None

    def name(code: str) -> str:
        return i18n.card_with_article(lang, code) if m.kind == "card" else i18n.call_name(lang, code)

    why = [
        i18n.gettext(
            lang,
            f"mistakes.why.{m.kind}",
            best=name(best_code),
            value=_points(best),
            chosen=name(chosen),
            mine=_points(mine),
            played=name(m.played),
            then=_points(m.value_of(m.played) or 0.0),
        )
    ]
    line = line_tricks(lang, m, names) if m.kind == "card" else []
    shown = [(c, v) for c, v in m.values][:SHOWN_CALLS]
    if m.kind == "call" and chosen not in {c for c, _ in shown}:
        shown.append((chosen, mine))
    rows = [
        {"code": c, "name": name(c), "value": _points(v), "best": v == best, "chosen": c == chosen}
        for c, v in (m.values if m.kind == "card" else shown)
    ]
    left = len(days) >= SOLVED_DAYS
    return {
        "answered": True,
        "solved": solved,
        "chosen_name": name(chosen),
        "why": why,
        "line": line,
        "rows": rows,
        "repetition": i18n.gettext(
            lang, "mistakes.left" if left else "mistakes.repetition", count=len(days), of=SOLVED_DAYS
        ),
    }


def _points(value: float) -> str:
    return str(round(value))


def line_tricks(lang: str, m: Mistake, names: list[str]) -> list[str]:
    """The solver's line after the best card, trick by trick in words: "Pli 4 : V♥ Sud (vous),
    7♥ Ouest, ... — pour Sud (vous)"."""
    deal: Deal = m.position.copy()
    out = []
    start = len(deal.tricks)
    for code in m.line:
        card = parse_card(code)
        if not any(is_card(a) and card_of(a) == card for a in deal.legal_actions()):
            break
        play_card(deal, card)
        if len(deal.tricks) > start and not deal.trick:
            start = len(deal.tricks)
            t = deal.tricks[-1]
            cards = ", ".join(
                i18n.gettext(
                    lang, "mistakes.line_card", card=i18n.card_short(lang, card_str(c)), seat=names[(t.leader + i) & 3]
                )
                for i, c in enumerate(t.cards)
            )
            out.append(
                i18n.gettext(lang, "mistakes.line_trick", number=len(deal.tricks), cards=cards, winner=names[t.winner])
            )
    return out


routes: list[BaseRoute] = [
    *(Route(PATHS[lang], list_page) for lang in i18n.LANGUAGES),
    *(Route(PATHS[lang] + "/{mistake_id}", mistake_page, methods=["GET", "POST"]) for lang in i18n.LANGUAGES),
]
