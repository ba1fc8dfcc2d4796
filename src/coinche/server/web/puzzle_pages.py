"""The puzzles' pages (issue 32): ``/problemes`` | ``/puzzles`` (the visitor's puzzle
rating and streak, the puzzle of the day, the next one), ``…/{id}`` (a position of a real
deal, all four hands shown: the visitor plays the card; then the solver's value of every
card, the line, and one plain sentence why), ``…/{id}/record.json`` (the position as a deal
record; with its solution, for the visitor to check, once they have answered: issue 50),
``…/jour`` | ``…/day`` and ``…/serie`` |
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
from ...bots.knowledge import parse_auction
from ...engine.actions import COINCHE, PASS, Action, call_str, is_bid, parse_call
from ...engine.cards import TRUMP_NAMES, card_str, sorted_cards
from ...engine.deal import Deal
from ..features.bidding_puzzles import StoredBiddingPuzzle
from ..features.call_meanings import meaning_json
from ..features.puzzles import Puzzles, StoredPuzzle, Tried
from ..features.review import contract_call
from ..table import i18n
from ..table.days import day_of
from ..table.seating import seat_names
from .daily_pages import contract_text
from .pages import ADDRESSES, page, player_in_session, player_of, read_checked_form

PATHS = {lang: ADDRESSES[lang]["puzzles"] for lang in i18n.LANGUAGES}
DAY_WORD = {"fr": "jour", "en": "day"}
BIDDING_WORD = {"fr": "encheres", "en": "bidding"}
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
    day = await puzzles.of_day(day_of(puzzles.settings.clock()))
    return page(
        request,
        "puzzles.html",
        lang=lang,
        other_url=PATHS[_other(lang)],
        mine=mine,
        count=await puzzles.db(puzzles.store.count),
        bidding_count=await puzzles.db(puzzles.bidding.count),
        bidding_url=bidding_url(lang),
        day_url=None if day is None else puzzle_url(lang, day),
        streak_url=f"{PATHS[lang]}/{STREAK_WORD[lang]}",
    )


async def of_day(request: Request) -> Response:
    lang = _lang(request)
    puzzles = puzzles_of(request)
    day = await puzzles.of_day(day_of(puzzles.settings.clock()))
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
        title=puzzle_title(lang, puzzle, deal, await puzzles_of(request).number(puzzle)),
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


def puzzle_title(lang: str, puzzle: StoredPuzzle, deal: Deal, number: int) -> str:
    """A puzzle's name, from what it is: its number in the order puzzles were found, the
    contract and the tricks left to play ("Problème n°12 · 90 cœur, 3 plis à jouer")."""
    contract = deal.contract
    assert contract is not None
    left = i18n.ngettext(lang, "puzzles.tricks_left", 8 - len(deal.tricks))
    contract_words = contract_text(lang, contract_call(contract))
    return i18n.gettext(lang, "puzzles.one", number=number, contract=contract_words, left=left)


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


def bidding_url(lang: str, puzzle_id: str | None = None) -> str:
    base = f"{PATHS[lang]}/{BIDDING_WORD[lang]}"
    return base if puzzle_id is None else f"{base}/{puzzle_id}"


async def next_bidding(request: Request) -> Response:
    """The latest bidding puzzle the visitor has not answered (after ``?after=``)."""
    lang = _lang(request)
    found = await puzzles_of(request).next_bidding(player_of(request), request.query_params.get("after"))
    if found is None:
        return RedirectResponse(PATHS[lang], status_code=303)
    return RedirectResponse(bidding_url(lang, found), status_code=303)


async def bidding_page(request: Request) -> Response:
    """ "What do you call?": the seat's hand and the auction so far, a form of the calls the
    engine allows (pass, coinche, surcoinche, every bid but the générale); once answered,
    the expert's call and every call's value as it computed them, and why."""
    form = await read_checked_form(request) if request.method == "POST" else None
    puzzles = puzzles_of(request)
    puzzle = await puzzles.bidding_puzzle(request.path_params["puzzle_id"])
    if puzzle is None:
        raise HTTPException(404)
    lang = _lang(request)
    status = 200
    chosen: str | None = None
    if form is not None:
        call = form.get("call")
        if call == "bid":
            call = form.get("bid")
        try:
            if not isinstance(call, str):
                raise ValueError("no call")
            await puzzles.answer(player_of(request), puzzle, call)
            chosen = call_str(parse_call(call))
        except ValueError:
            status = 400  # not a call of the position: the page again, nothing recorded
    deal = puzzle.position()
    names = seat_names(lang, deal.rules.direction, puzzle.seat)
    calls = [
        {"seat": names[(deal.dealer + 1 + i) & 3], "call": i18n.call_name(lang, call_str(a))}
        for i, a in enumerate(puzzle.calls)
    ]
    legal = [a for a in deal.legal_actions() if puzzle.value_of(a) is not None]
    bids = [a for a in legal if is_bid(a)]
    return page(
        request,
        "bidding_puzzle.html",
        status=status,
        lang=lang,
        other_url=bidding_url(_other(lang), puzzle.id),
        puzzle=puzzle,
        number=await puzzles.db(puzzles.bidding.number, puzzle.id),
        seat=names[puzzle.seat],
        dealer=names[deal.dealer],
        calls=calls,
        hand=[card_str(c) for c in sorted_cards(deal.hands[puzzle.seat])],
        others=[{"code": call_str(a), "name": i18n.call_name(lang, call_str(a))} for a in legal if not is_bid(a)],
        bids=[{"code": call_str(a), "name": i18n.call_name(lang, call_str(a))} for a in bids],
        calls_codes=[call_str(a) for a in legal],
        catalogue=json.dumps(box_words(lang), ensure_ascii=False).replace("<", "\\u003c"),
        action=bidding_url(lang, puzzle.id),
        next_url=f"{bidding_url(lang)}?after={puzzle.id}",
        home_url=PATHS[lang],
        card_name=lambda code: i18n.card_name(lang, code),
        **({} if chosen is None else bidding_answer(lang, puzzle, chosen)),
    )


BOX_WORDS = ("call.", "trump.", "js.trump.", "js.bid.", "js.capot", "js.generale")
"""The words the table's bidding box (``bidding.js``) says: calls, trumps, its rows' names."""


def box_words(lang: str) -> dict[str, str]:
    """The catalogue of the bidding puzzle's script: the bidding box's words only."""
    return {k: v for k, v in i18n.js_catalogue(lang).items() if k.startswith(BOX_WORDS)}


SHOWN_CALLS = 10
"""The best calls the answer lists (and the player's, and passing, wherever they stand)."""


def bidding_answer(lang: str, puzzle: StoredBiddingPuzzle, chosen: str) -> dict[str, Any]:
    """The expert's call, the calls' values, and one sentence why."""
    mine = parse_call(chosen)
    best = puzzle.value_of(puzzle.call)
    assert best is not None
    rows = []
    for i, (call, expected, chance) in enumerate(puzzle.values):
        if i >= SHOWN_CALLS and call not in (mine, PASS, puzzle.call):
            continue
        rows.append(
            {
                "call": i18n.call_name(lang, call_str(call)),
                "expected": f"{expected:+.0f}",
                "chance": ""
                if chance is None
                else i18n.gettext(lang, _chance_key(puzzle, call), percent=round(100 * chance)),
                "expert": call == puzzle.call,
                "chosen": call == mine,
            }
        )
    others = [v for v in puzzle.values if not puzzle.good(v.call)]
    why = i18n.gettext(
        lang,
        "puzzles.bidding.why",
        call=i18n.call_name(lang, call_str(puzzle.call)),
        expected=f"{best.expected:+.0f}",
        other=i18n.call_name(lang, call_str(others[0].call)) if others else "",
        other_expected=f"{others[0].expected:+.0f}" if others else "",
    )
    reading = meaning_json(lang, puzzle.rules, puzzle.dealer, [*puzzle.calls, puzzle.call], len(puzzle.calls))
    return {
        "answered": True,
        "solved": puzzle.good(mine),
        "chosen": i18n.call_name(lang, chosen),
        "expert_call": i18n.call_name(lang, call_str(puzzle.call)),
        "rows": rows,
        "why": why,
        "reading": reading,
    }


def _chance_key(puzzle: StoredBiddingPuzzle, call: Action) -> str:
    """How a call's chance reads: the contract's failure for a coinche, or a pass under the
    other team's contract; its success otherwise."""
    if call == COINCHE:
        return "puzzles.bidding.fails"
    if call == PASS:
        own = _standing_team(puzzle) == puzzle.seat & 1
        return "puzzles.bidding.made" if own else "puzzles.bidding.fails"
    return "puzzles.bidding.made"


def _standing_team(puzzle: StoredBiddingPuzzle) -> int | None:
    """The team whose bid stands at the position (None before any bid)."""
    info = parse_auction(puzzle.calls, puzzle.dealer, puzzle.rules)
    return None if info.bidder < 0 else info.bidder & 1


async def record(request: Request) -> Response:
    """The puzzle's record: its solution only for a visitor who has answered it (their
    rated first try is behind them)."""
    puzzle = await _puzzle(request)
    player = player_in_session(request)
    answered = player is not None and await puzzles_of(request).tried(player, puzzle.id) is not None
    body = json.dumps(puzzle.record(answered), ensure_ascii=False, indent=1)
    return Response(
        body,
        media_type="application/json",
        headers={
            "Content-Disposition": f'inline; filename="puzzle-{puzzle.id}.json"',
            "Cache-Control": "private, no-store",  # the solution is the visitor's own to see
        },
    )


routes: list[BaseRoute] = [
    *(Route(PATHS[lang], home) for lang in i18n.LANGUAGES),
    *(Route(f"{PATHS[lang]}/{DAY_WORD[lang]}", of_day) for lang in i18n.LANGUAGES),
    *(Route(f"{PATHS[lang]}/{STREAK_WORD[lang]}", streak) for lang in i18n.LANGUAGES),
    *(Route(bidding_url(lang), next_bidding) for lang in i18n.LANGUAGES),
    *(Route(bidding_url(lang, "{puzzle_id}"), bidding_page, methods=["GET", "POST"]) for lang in i18n.LANGUAGES),
    *(Route(PATHS[lang] + "/{puzzle_id}", puzzle_page, methods=["GET", "POST"]) for lang in i18n.LANGUAGES),
    *(Route(PATHS[lang] + "/{puzzle_id}/record.json", record) for lang in i18n.LANGUAGES),
]
