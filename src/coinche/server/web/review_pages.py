"""The deal review's addresses: the page, its analysis as JSON, and the deal's record.

``/table/{id}/donne/{n}`` is deal ``n`` (1-based) of a table, for a player seated there and
once the deal is over; anything else is a 404 (a deal in progress would show hidden
cards). The analysis is computed in the worker pool on the first request (the page's
included) and answered 202 until it is ready.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ...engine.actions import call_str, card_of, is_card
from ...engine.cards import card_str
from ...engine.deal import Deal
from ...engine.record import deal_record
from ..features.accuracy import Accuracies, SeatAccuracy
from ..features.call_meanings import deal_meanings
from ..features.comparisons import Comparisons, deal_lines, first_entry
from ..features.review import (
    Reviews,
    accuracy_view,
    analysis_view,
    build_review,
    contract_call,
    finished_deal,
    first_step,
)
from ..table import i18n
from ..table.fair_deals import dealing_info
from ..table.kinds import tournament_of
from ..table.live_table import LiveTable
from ..table.seating import seat_names
from .daily_pages import contract_text, made_text
from .pages import lang_of, page, player_in_session, tables_of
from .tournament_pages import tournaments_of

DEAL_NUMBER = re.compile(r"[1-9][0-9]{0,5}")


def reviews_of(request: Request) -> Reviews:
    """The server's analyses (``services.py`` built them)."""
    reviews: Reviews = request.app.state.reviews
    return reviews


async def _deal_of(request: Request) -> tuple[LiveTable, int, int] | None:
    """(table, deal number, the visitor's seat) when the visitor may review that deal."""
    text = request.path_params["n"]
    player = player_in_session(request)
    if not DEAL_NUMBER.fullmatch(text) or player is None:
        return None
    live = await tables_of(request).table(request.path_params["table_id"], fresh=True)
    if live is None:
        return None
    seat = live.seat_of(player)
    n = int(text)
    if seat is None and await _tournament_over(request, live):
        seat = 0  # a finished tournament's deals are everyone's to compare (from south's chair)
    if seat is None or finished_deal(live, n) is None:
        return None
    return live, n, seat


async def _tournament_over(request: Request, live: LiveTable) -> bool:
    """The table played a round of a tournament that is over (its deals are public then)."""
    tournament = tournament_of(live.spec.kind)
    if tournament is None:
        return False
    found = await tournaments_of(request).get(tournament)
    return found is not None and found.state == "finished"


def _json_for_script(data: Any) -> str:
    """JSON safe inside a ``<script>`` element."""
    return json.dumps(data, ensure_ascii=False).replace("<", "\\u003c")


def _catalogue(lang: str) -> dict[str, str]:
    """The words the page's script needs: the table's (cards, calls) and the review's."""
    return i18n.js_catalogue(lang, more=("review.",))


def _analysis_json(lang: str, live: LiveTable, seat: int, data: dict[str, Any]) -> dict[str, Any]:
    names = seat_names(lang, live.spec.rules.direction, seat)
    return {
        "status": "ready",
        **data,
        "rows": analysis_view(lang, names, data),
        "accuracy": accuracy_view(lang, names, data),
    }


async def review_page(request: Request) -> Response:
    found = await _deal_of(request)
    if found is None:
        raise HTTPException(404)
    live, n, seat = found
    lang = lang_of(request)
    start = first_step(live.game, n)
    stop = start + len(live.game.deals[n - 1].log)
    review = build_review(live, n, seat, lang, await tables_of(request).explanations(live, start, stop))
    analysis = await reviews_of(request).analysis(live, n)  # the first visit starts it
    return render_review(request, review, analysis, "review.back", compare_url=f"/table/{live.id}/donne/{n}/expert")


def render_review(
    request: Request,
    review: dict[str, Any],
    analysis: dict[str, Any] | None,
    back_key: str,
    compare_url: str | None = None,
) -> Response:
    """The review page of ``review`` (``review.build_review`` or ``review_deal``), with its
    analysis when it is ready: the one rendering of a table's deal and an uploaded one."""
    lang = lang_of(request)
    short = [i18n.gettext(lang, f"seat.short.{p}") for p in review["positions"]]
    teams = [i18n.gettext(lang, "review.team", a=short[t], b=short[t + 2]) for t in (0, 1)]
    return page(
        request,
        "review.html",
        review=review,
        back_key=back_key,
        teams=teams,
        short_names=short,
        leader=review["seat_names"][(review["dealer"] + 1) & 3],
        analysis=analysis_view(lang, review["seat_names"], analysis) if analysis is not None else None,
        payload=_json_for_script({**review, "short_names": short, "teams": teams}),
        catalogue=_json_for_script(_catalogue(lang)),
        compare_url=compare_url,
    )


async def review_analysis(request: Request) -> Response:
    found = await _deal_of(request)
    if found is None:
        return JSONResponse({"status": "not_found"}, status_code=404)
    live, n, seat = found
    data = await reviews_of(request).analysis(live, n)
    if data is None:
        return JSONResponse({"status": "pending"}, status_code=202, headers={"Retry-After": "1"})
    return JSONResponse(_analysis_json(lang_of(request), live, seat, data))


async def review_record(request: Request) -> Response:
    found = await _deal_of(request)
    if found is None:
        return JSONResponse({"error": "not_found"}, status_code=404)
    live, n, _seat = found
    deal = live.game.deals[n - 1]
    record = {**deal_record(deal), "table": live.id, "deal": n}  # extra keys: kept for information
    dealing = dealing_info(live.spec, live.game, n)
    if dealing is not None:
        record["dealing"] = dealing.to_json()  # the deal is over: its seed is revealed
    return JSONResponse(
        record, headers={"Content-Disposition": f'attachment; filename="coinche-{live.id}-donne-{n}.json"'}
    )


def accuracies_of(request: Request) -> Accuracies:
    """The server's accuracies (``services.py`` built them)."""
    accuracies: Accuracies = request.app.state.accuracies
    return accuracies


async def review_accuracy(request: Request) -> Response:
    """How well each seat played the deal (``features.accuracy``), 202 until it is ready:
    by seat, the seat's name as the visitor sees it, a computer's level, the counts and
    the measures; ``you`` the visitor's seat."""
    found = await _deal_of(request)
    if found is None:
        return JSONResponse({"status": "not_found"}, status_code=404)
    live, n, seat = found
    seats = await accuracies_of(request).of_deal(live, n)
    if seats is None:
        return JSONResponse({"status": "pending"}, status_code=202, headers={"Retry-After": "1"})
    return JSONResponse(accuracy_json(lang_of(request), live, seat, seats), headers={"Cache-Control": "no-store"})


def accuracy_json(lang: str, live: LiveTable, viewer: int, seats: Sequence[SeatAccuracy]) -> dict[str, Any]:
    names = seat_names(lang, live.spec.rules.direction, viewer)
    return {
        "status": "ready",
        "you": viewer,
        "seats": [{**s.to_json(), "name": names[s.seat]} for s in seats],
    }


def comparisons_of(request: Request) -> Comparisons:
    """The server's comparisons with the expert (``services.py`` built them)."""
    comparisons: Comparisons = request.app.state.comparisons
    return comparisons


async def compare_page(request: Request) -> Response:
    """The deal as played and as the expert would have played it in the visitor's seat."""
    found = await _deal_of(request)
    if found is None:
        raise HTTPException(404)
    live, n, seat = found
    lang = lang_of(request)
    data = comparisons_of(request).of(live, n, seat)
    back = f"/table/{live.id}/donne/{n}"
    if data is None:
        return page(request, "compare.html", pending=True, back=back, n=n)
    original = live.game.deals[n - 1]
    expert = Deal.from_log(original.rules, original.dealer, original.dealt, data["log"])
    names = seat_names(lang, live.spec.rules.direction, seat)
    first = data["first"]
    team = seat & 1
    sides = []
    for key, deal in (("compare.yours", original), ("compare.experts", expert)):
        lines = deal_lines(lang, deal, names, first)
        result = lines["result"]
        contract = result.contract if result is not None else None
        call = contract_call(contract)
        lines["title"] = i18n.gettext(lang, key)
        lines["contract"] = contract_text(lang, call)
        lines["made"] = made_text(lang, None if result is None else result.made)
        lines["score"] = 0 if result is None else result.score[team]
        sides.append(lines)
    difference = None
    if first is not None:
        kind, played = first_entry(original, first)
        _, chosen = first_entry(expert, first)
        if kind == "card":
            assert isinstance(played, int) and isinstance(chosen, int)
            a, b = card_str(card_of(played)), card_str(card_of(chosen))
            values = data["values"] or {}
            difference = i18n.gettext(
                lang,
                "compare.first_card",
                number=sum(1 for e in original.log[:first] if isinstance(e, int) and is_card(e)) // 4 + 1,
                played=i18n.card_with_article(lang, a),
                chosen=i18n.card_with_article(lang, b),
            )
            if a in values and b in values:
                difference += " " + i18n.gettext(lang, "compare.cost", played=values[a], chosen=values[b])
        else:
            assert isinstance(played, int) and isinstance(chosen, int)
            difference = i18n.gettext(
                lang,
                "compare.first_call",
                played=i18n.call_name(lang, call_str(played)),
                chosen=i18n.call_name(lang, call_str(chosen)),
            )
    return page(
        request,
        "compare.html",
        pending=False,
        back=back,
        n=n,
        sides=sides,
        difference=difference,
        same=first is None,
        card_name=lambda code: i18n.card_name(lang, code),
    )


async def call_meanings(request: Request) -> Response:
    """What each call of a deal says (``features.call_meanings``): for a player seated at
    the table, a deal in progress included (a person's calls read once it is over)."""
    text = request.path_params["n"]
    player = player_in_session(request)
    live = await tables_of(request).table(request.path_params["table_id"]) if player is not None else None
    if live is None or player is None or live.seat_of(player) is None or not DEAL_NUMBER.fullmatch(text):
        return JSONResponse({"error": "not_found"}, status_code=404)
    found = deal_meanings(lang_of(request), live, int(text))
    if found is None:
        return JSONResponse({"error": "not_found"}, status_code=404)
    return JSONResponse(found, headers={"Cache-Control": "no-store"})


routes: list[BaseRoute] = [
    Route("/table/{table_id}/donne/{n}", review_page),
    Route("/table/{table_id}/donne/{n}/analyse", review_analysis),
    Route("/table/{table_id}/donne/{n}/precision", review_accuracy),
    Route("/table/{table_id}/donne/{n}/record.json", review_record),
    Route("/table/{table_id}/donne/{n}/expert", compare_page),
    Route("/table/{table_id}/donne/{n}/encheres", call_meanings),
]
