"""Replaying an uploaded record (issue 18, history and replays): ``/revoir`` in French,
``/replay`` in English. A visitor pastes or chooses the record of a deal or of a game
(RECORD.md, written by this site or by any other program); the engine replays it and
checks every call and card (``coinche replay``'s checks). An invalid record gets the
engine's one-line message; a valid one is stored for its owner (the visitor's player, a
guest's or an account's) under a random id and reviewed as a table's deal is, by the same
code (``review.review_deal``), its analysis computed in the same pool and cached.

An uploaded record is its owner's only: anyone else gets a 404, even with its id. Uploads
are limited per address and per visitor (``Settings.upload_limit*``); a visitor keeps their
newest ``uploads_kept`` records, and a record is deleted after ``upload_days`` days (both
enforced when a record is stored).
"""

from __future__ import annotations

import re
from typing import Any, Final

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from ...engine.errors import EngineError
from ...engine.game import Game
from ...engine.record import NotJSONError, deal_record, decode_record, parse_record, replay
from ..features.review import accuracy_view, analysis_view, contract_code, review_deal
from ..table import i18n
from ..table.seating import seat_positions
from .account_pages import address_of, limits_of, rate_limited
from .pages import ADDRESSES, lang_of, page, player_in_session, player_of, settings_of
from .review_pages import DEAL_NUMBER, render_review, reviews_of
from .verify_page import read_record_form, record_error_words

PATHS: Final = {lang: ADDRESSES[lang]["replay"] for lang in i18n.LANGUAGES}
UPLOAD_ID: Final = re.compile(r"[A-Za-z0-9_-]{8,16}")
BASE: Final = "/revoir"


def check_record(raw: bytes) -> Game:
    """The game the record replays to; ``EngineError`` (its one-line message) if the
    record is not valid JSON, not a record, or breaks a rule."""
    return replay(parse_record(decode_record(raw)))


def _page_for(lang: str) -> Any:
    other = "en" if lang == "fr" else "fr"

    async def upload(request: Request) -> Response:
        error: str | None = None
        text = ""
        status = 200
        if request.method == "POST":
            posted = await read_record_form(request, lang)
            text, error, status = posted.text, posted.error, posted.status
            if posted.raw is not None:
                player = player_of(request)
                settings = settings_of(request)
                limits = limits_of(request)
                retry = await limits.hit(settings.upload_limit_per_address, f"uploads-address:{address_of(request)}")
                if retry is None:
                    retry = await limits.hit(settings.upload_limit, f"uploads:{player}")
                if retry is not None:
                    return rate_limited(request, retry)
                try:
                    game = check_record(posted.raw)
                except NotJSONError as e:  # a plain sentence, never the JSON parser's text
                    error, status = record_error_words(lang, e), 400
                except EngineError as e:
                    error, status = i18n.gettext(lang, "replay.bad_record", message=str(e)), 400
                else:
                    upload_id = await reviews_of(request).keep_upload(
                        player, posted.raw.decode("utf-8"), settings.uploads_kept, settings.upload_days
                    )
                    single = len(game.deals) == 1 and game.deals[0].is_over
                    where = f"{BASE}/{upload_id}/donne/1" if single else f"{BASE}/{upload_id}"
                    return RedirectResponse(where, status_code=303)
        return page(
            request,
            "replay.html",
            status,
            lang=lang,
            other_url=PATHS[other],
            error=error,
            record_text=text,
        )

    return upload


async def _upload_of(request: Request) -> tuple[str, str, Game]:
    """(id, record text, replayed game) of the visitor's own upload; else 404."""
    upload_id = request.path_params["upload_id"]
    player = player_in_session(request)
    if not UPLOAD_ID.fullmatch(upload_id) or player is None:
        raise HTTPException(404)
    found = await reviews_of(request).upload(upload_id)
    if found is None or found[0] != player:
        raise HTTPException(404)
    try:
        game = check_record(found[1].encode("utf-8"))
    except EngineError:  # checked when stored: only a change of the engine's rules gets here
        raise HTTPException(404) from None
    return upload_id, found[1], game


async def _deal_of(request: Request) -> tuple[str, Game, int]:
    upload_id, _text, game = await _upload_of(request)
    text = request.path_params["n"]
    if not DEAL_NUMBER.fullmatch(text) or not 1 <= int(text) <= len(game.deals):
        raise HTTPException(404)
    n = int(text)
    if not game.deals[n - 1].is_over:
        raise HTTPException(404)
    return upload_id, game, n


def _names_for(lang: str, game: Game) -> list[str]:
    """The seats' names of an uploaded deal: plain positions, seat 0 South (nobody is "you")."""
    return [i18n.gettext(lang, f"seat.short.{p}") for p in seat_positions(game.rules.direction, 0)]


async def upload_list(request: Request) -> Response:
    upload_id, _text, game = await _upload_of(request)
    lang = lang_of(request)
    names = _names_for(lang, game)
    deals = []
    for n, deal in enumerate(game.deals, start=1):
        result = deal.result()
        c = deal.contract
        deals.append(
            {
                "n": n,
                "url": f"{BASE}/{upload_id}/donne/{n}" if deal.is_over else None,
                "contract": i18n.gettext(
                    lang, "review.contract_by", call=i18n.call_name(lang, contract_code(c)), seat=names[c.taker]
                )
                if c is not None
                else None,
                "score": list(result.score) if result is not None else None,
            }
        )
    return page(
        request,
        "replay_list.html",
        upload_id=upload_id,
        profile=game.rules.name,
        deals=deals,
        record_url=f"{BASE}/{upload_id}/record.json",
    )


async def upload_review(request: Request) -> Response:
    upload_id, game, n = await _deal_of(request)
    lang = lang_of(request)
    deal = game.deals[n - 1]
    review = review_deal(
        deal,
        n,
        lang,
        names=_names_for(lang, game),
        viewer=0,
        explanations={},
        base=f"{BASE}/{upload_id}/donne/{n}",
        back=f"{BASE}/{upload_id}",
    )
    analysis = await reviews_of(request).analysis_of(("upload", upload_id, n), deal)
    return render_review(request, review, analysis, "replay.back")


async def upload_analysis(request: Request) -> Response:
    try:
        upload_id, game, n = await _deal_of(request)
    except HTTPException:
        return JSONResponse({"status": "not_found"}, status_code=404)
    data = await reviews_of(request).analysis_of(("upload", upload_id, n), game.deals[n - 1])
    if data is None:
        return JSONResponse({"status": "pending"}, status_code=202, headers={"Retry-After": "1"})
    lang = lang_of(request)
    names = _names_for(lang, game)
    return JSONResponse(
        {
            "status": "ready",
            **data,
            "rows": analysis_view(lang, names, data),
            "accuracy": accuracy_view(lang, names, data),
        }
    )


async def upload_deal_record(request: Request) -> Response:
    upload_id, game, n = await _deal_of(request)
    return JSONResponse(
        deal_record(game.deals[n - 1]),
        headers={"Content-Disposition": f'attachment; filename="coinche-{upload_id}-donne-{n}.json"'},
    )


async def upload_record(request: Request) -> Response:
    """The record as it was uploaded."""
    upload_id, text, _game = await _upload_of(request)
    return Response(
        text,
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="coinche-{upload_id}.json"'},
    )


routes: list[BaseRoute] = [
    *(Route(PATHS[lang], _page_for(lang), methods=["GET", "POST"]) for lang in i18n.LANGUAGES),
    Route(BASE + "/{upload_id}", upload_list),
    Route(BASE + "/{upload_id}/record.json", upload_record),
    Route(BASE + "/{upload_id}/donne/{n}", upload_review),
    Route(BASE + "/{upload_id}/donne/{n}/analyse", upload_analysis),
    Route(BASE + "/{upload_id}/donne/{n}/record.json", upload_deal_record),
]
