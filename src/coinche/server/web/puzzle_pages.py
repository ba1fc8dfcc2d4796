"""The puzzles' pages (issue 32): ``/problemes`` | ``/puzzles`` (the visitor's puzzle
rating and streak, the puzzle of the day, the next one), ``…/{id}`` (a position of a real
deal, all four hands shown: the visitor plays the card; then the solver's value of every
card, the line, and one plain sentence why), ``…/{id}/record.json`` (the position as a deal
record with its solution, for anyone to check), ``…/jour`` | ``…/day`` and ``…/serie`` |
``…/streak`` (the day's puzzle, the next one near the visitor's rating).

Everything shown comes from the engine and the stored solver's answer: the page is a plain
form of real buttons (one per legal card), works without script, and never computes a rule.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from ...bots.expert.outcome import Scorer
from ...engine.actions import call_str
from ...engine.cards import TRUMP_NAMES, card_str, sorted_cards
from ...engine.deal import Deal
from ..features.puzzles import Puzzles, StoredPuzzle, Tried
from ..features.review import contract_call
from ..table import i18n
from ..table.days import day_of
from ..table.seating import seat_names
from .daily_pages import contract_text
from .pages import ADDRESSES, page, player_in_session, player_of, read_checked_form

PATHS = {lang: ADDRESSES[lang]["puzzles"] for lang in i18n.LANGUAGES}
DAY_WORD = {"fr": "jour", "en": "day"}
STREAK_WORD = {"fr": "serie", "en": "streak"}
VIEWER = 0
"""The seat the page draws at the bottom: the mover's is turned to it."""


def puzzles_of(request: Request) -> Puzzles:
    found = request.app.state.puzzles
    assert isinstance(found, Puzzles)
    return found


def _lang(request: Request) -> str:
    return "en" if request.url.path.startswith(PATHS["en"]) else "fr"


def _other(lang: str) -> str:
    return "en" if lang == "fr" else "fr"


def puzzle_url(lang: str, puzzle_id: str) -> str:
    return f"{PATHS[lang]}/{puzzle_id}"


async def home(request: Request) -> Response:
    lang = _lang(request)
    puzzles = puzzles_of(request)
    player = player_in_session(request)
    mine = await puzzles.player(player) if player is not None else None
    day = await puzzles.of_day(day_of(puzzles.tables.settings.clock()))
    return page(
        request,
        "puzzles.html",
        lang=lang,
        other_url=PATHS[_other(lang)],
        mine=mine,
        count=await puzzles.tables.db(puzzles.store.count),
        day_url=None if day is None else puzzle_url(lang, day),
        streak_url=f"{PATHS[lang]}/{STREAK_WORD[lang]}",
    )


async def of_day(request: Request) -> Response:
    lang = _lang(request)
    puzzles = puzzles_of(request)
    day = await puzzles.of_day(day_of(puzzles.tables.settings.clock()))
    if day is None:
        return RedirectResponse(PATHS[lang], status_code=303)
    return RedirectResponse(puzzle_url(lang, day), status_code=303)


async def streak(request: Request) -> Response:
    lang = _lang(request)
    puzzles = puzzles_of(request)
    found = await puzzles.next_for(player_of(request), request.query_params.get("after"))
    if found is None:
        return RedirectResponse(PATHS[lang], status_code=303)
    return RedirectResponse(puzzle_url(lang, found) + "?serie=1", status_code=303)


async def _puzzle(request: Request) -> StoredPuzzle:
    found = await puzzles_of(request).puzzle(request.path_params["puzzle_id"])
    if found is None:
        raise HTTPException(404)
    return found


async def puzzle_page(request: Request) -> Response:
    form = await read_checked_form(request) if request.method == "POST" else None
    puzzle = await _puzzle(request)
    lang = _lang(request)
    card: str | None = None
    tried: Tried | None = None
    status = 200
    if form is not None:
        chosen = form.get("card")
        try:
            if not isinstance(chosen, str):
                raise ValueError("no card")
            tried = await puzzles_of(request).attempt(player_of(request), puzzle, chosen)
            card = chosen
        except ValueError:
            status = 400  # not a card of the position: the page again, nothing recorded
    deal = puzzle.position()
    streak_mode = request.query_params.get("serie") == "1"
    return page(
        request,
        "puzzle.html",
        status=status,
        lang=lang,
        other_url=puzzle_url(_other(lang), puzzle.id),
        **position_context(lang, puzzle, deal),
        **({} if card is None else answer_context(lang, puzzle, deal, card, tried)),
        streak_mode=streak_mode,
        streak_url=f"{PATHS[lang]}/{STREAK_WORD[lang]}?after={puzzle.id}",
        record_url=f"{puzzle_url(lang, puzzle.id)}/record.json",
        home_url=PATHS[lang],
        action=puzzle_url(lang, puzzle.id) + ("?serie=1" if streak_mode else ""),
        card_name=lambda code: i18n.card_name(lang, code),
        card_with_article=lambda code: i18n.card_with_article(lang, code),
    )


def position_context(lang: str, puzzle: StoredPuzzle, deal: Deal) -> dict[str, Any]:
    """What the page shows of the position (``deal``: ``puzzle.position()``), all read
    from the engine's deal."""
    contract = deal.contract
    assert contract is not None
    names = seat_names(lang, deal.rules.direction, puzzle.seat)
    view = deal.view(puzzle.seat)
    calls = [
        {"seat": names[(deal.dealer + 1 + i) & 3], "call": i18n.call_name(lang, call_str(a))}
        for i, a in enumerate(view.calls)
    ]
    legal = {c for c, _ in puzzle.values}
    hands = []
    for s in (puzzle.seat, (puzzle.seat + 1) & 3, (puzzle.seat + 2) & 3, (puzzle.seat + 3) & 3):
        codes = [card_str(c) for c in sorted_cards(deal.hands[s], contract.trump)]
        mover = s == puzzle.seat
        shown = [{"code": c, "legal": mover and c in legal} for c in codes]
        hands.append({"seat": names[s], "mover": mover, "cards": shown})
    trick = [{"seat": names[(deal.trick_leader + i) & 3], "code": card_str(c)} for i, c in enumerate(deal.trick)]
    team = puzzle.seat & 1
    call = contract_call(contract)
    return {
        "puzzle": puzzle,
        "goal_text": i18n.gettext(lang, f"puzzles.goal.{puzzle.goal}", seat=names[puzzle.seat]),
        "contract": contract_text(lang, call),
        "taker": names[contract.taker],
        "trump": TRUMP_NAMES[contract.trump],
        "calls": calls,
        "hands": hands,
        "trick": trick,
        "tricks_played": len(deal.tricks),
        "points": (deal.card_points[team], deal.card_points[1 - team]),
        "rating": puzzle.rating.display,
    }


def answer_context(lang: str, puzzle: StoredPuzzle, deal: Deal, card: str, tried: Tried | None) -> dict[str, Any]:
    """The answer at the position ``deal``: every card's value and outcome, the line, the
    sentence why."""
    scorer = Scorer(deal.view(puzzle.seat))
    rows = []
    for code, value in puzzle.values:
        made = scorer.made(value)
        rows.append(
            {
                "code": code,
                "value": value,
                "outcome": i18n.gettext(lang, "puzzles.made" if made else "puzzles.failed"),
                "solution": code == puzzle.solution,
                "chosen": code == card,
            }
        )
    best_other = max(v for c, v in puzzle.values if c != puzzle.solution)
    solution_value = dict(puzzle.values)[puzzle.solution]
    why = [
        i18n.gettext(
            lang,
            f"puzzles.why.{puzzle.goal}",
            card=i18n.card_with_article(lang, puzzle.solution),
            points=solution_value,
            other=best_other,
        )
    ]
    why += [i18n.gettext(lang, f"puzzles.theme_why.{t}") for t in puzzle.themes]
    return {
        "answered": True,
        "solved": card == puzzle.solution,
        "chosen": card,
        "rows": rows,
        "why": why,
        "line": _tricks(puzzle.line, 4 - len(deal.trick)),
        "themes": [i18n.gettext(lang, f"puzzles.theme.{t}") for t in puzzle.themes],
        "tried": tried,
    }


def _tricks(line: tuple[str, ...], first: int) -> list[list[str]]:
    """The line cut into tricks: the rest of the trick in progress, then four by four."""
    return [list(line[:first])] + [list(line[i : i + 4]) for i in range(first, len(line), 4)]


async def record(request: Request) -> Response:
    puzzle = await _puzzle(request)
    body = json.dumps(puzzle.record(), ensure_ascii=False, indent=1)
    return Response(
        body,
        media_type="application/json",
        headers={"Content-Disposition": f'inline; filename="puzzle-{puzzle.id}.json"'},
    )


routes: list[BaseRoute] = [
    *(Route(PATHS[lang], home) for lang in i18n.LANGUAGES),
    *(Route(f"{PATHS[lang]}/{DAY_WORD[lang]}", of_day) for lang in i18n.LANGUAGES),
    *(Route(f"{PATHS[lang]}/{STREAK_WORD[lang]}", streak) for lang in i18n.LANGUAGES),
    *(Route(PATHS[lang] + "/{puzzle_id}", puzzle_page, methods=["GET", "POST"]) for lang in i18n.LANGUAGES),
    *(Route(PATHS[lang] + "/{puzzle_id}/record.json", record) for lang in i18n.LANGUAGES),
]
