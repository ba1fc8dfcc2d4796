"""The history's addresses (issue 18): the visitor's finished games (``/historique``,
``/history``), one game's deals (``/historique/partie/{id}``, ``/history/game/{id}``), and
the record of a whole game (``/table/{id}/record.json``).

Everything is the visitor's own (a guest's or an account's player): a game of a table they
never sat at is a 404, as if it did not exist. Each deal links to the deal review
(``review_pages``: card by card, with its analysis) and to its record; the whole game's
record holds its finished deals only (an unfinished one would show hidden cards), each
with its commitment and revealed seed (``coinche verify`` and ``/verifier`` check them), and
is read back by the engine and by ``/revoir``.
"""

from __future__ import annotations

from typing import Any, Final

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ...bots.accuracy import total
from ..features.accuracy import accuracy_words
from ..features.history import (
    TABLE_ID,
    FinishedDeal,
    History,
    HistoryGame,
    Person,
    cursor_of,
    finished_record,
    parse_cursor,
)
from ..table import i18n
from ..table.seating import seat_names
from .pages import ADDRESSES, page, player_in_session, tables_of
from .review_pages import accuracies_of

GAME_PATHS: Final = {"fr": "/historique/partie", "en": "/history/game"}
LEVEL_KEYS: Final = frozenset({"adaptive", "beginner", "confirmed", "expert"})


def history_of(request: Request) -> History:
    """The server's history (``services.py`` built it, its listener registered)."""
    history: History = request.app.state.history
    return history


def person_name(lang: str, person: Person) -> str:
    """How the history names a seat's holder: an account's name, "deleted account", "Guest"
    (with the name given at a friends' table), a computer's level."""
    if person.kind == "account" and person.name is not None:
        return person.name
    if person.kind == "deleted":
        return i18n.gettext(lang, "accounts.deleted_name")
    if person.kind == "bot":
        level = person.name or ""
        label = i18n.gettext(lang, f"level.{level}") if level in LEVEL_KEYS else level
        return i18n.gettext(lang, "history.bot", level=label)
    if person.name:
        return i18n.gettext(lang, "history.guest_named", name=person.name)
    return i18n.gettext(lang, "history.guest")


def outcome(lang: str, game: HistoryGame) -> tuple[str, str]:
    """(status, score) of a finished game for its player: ``won``, ``lost`` or ``abandoned``,
    and "us – them" (empty when given up)."""
    result = game.result or {}
    if result.get("abandoned") or "winner" not in result:
        return "abandoned", ""
    status = "won" if result.get("winner") == game.seat % 2 else "lost"
    totals = result.get("totals") or [0, 0]
    us, them = (totals[0], totals[1]) if game.seat % 2 == 0 else (totals[1], totals[0])
    return status, i18n.gettext(lang, "accounts.games.score", us=us, them=them)


def game_row(lang: str, game: HistoryGame) -> dict[str, Any]:
    """A game as the history shows it, from its player's side (partner, opponents, score)."""
    status, score = outcome(lang, game)
    me = game.seat
    return {
        "id": game.table_id,
        "url": f"{GAME_PATHS[lang]}/{game.table_id}",
        "date": game.finished_at.strftime("%Y-%m-%d %H:%M"),
        "profile": i18n.gettext(lang, f"profile.{game.profile}"),
        "target": game.target,
        "challenge": game.challenge,
        "partner": person_name(lang, game.people[(me + 2) & 3]),
        "opponents": [person_name(lang, game.people[(me + k) & 3]) for k in (1, 3)],
        "status": status,
        "score": score,
    }


def _lang_of_path(request: Request) -> str:
    """The language the address says (``/history...`` English, ``/historique...`` French)."""
    path = request.url.path
    return "en" if path == ADDRESSES["en"]["history"] or path.startswith(GAME_PATHS["en"] + "/") else "fr"


async def history_page(request: Request) -> Response:
    """The visitor's finished games, newest first, 50 a page (``?avant=`` cursor)."""
    lang = _lang_of_path(request)
    other = "en" if lang == "fr" else "fr"
    raw = request.query_params.get("avant")
    before = None
    if raw is not None:
        before = parse_cursor(raw)
        if before is None:
            raise HTTPException(400)
    player = player_in_session(request)
    history = history_of(request)
    games = await history.games(player, before) if player is not None else []
    full = len(games) == 50
    accuracy = await accuracies_of(request).games(player, [g.table_id for g in games]) if player is not None else {}
    rows = []
    for g in games:
        row = game_row(lang, g)
        row["accuracy"] = accuracy_words(lang, accuracy.get(g.table_id))
        rows.append(row)
    return page(
        request,
        "history.html",
        lang=lang,
        other_url=ADDRESSES[other]["history"],
        games=rows,
        older=f"{ADDRESSES[lang]['history']}?avant={cursor_of(games[-1])}" if full else None,
        first_page=before is None,
    )


def deal_row(lang: str, table_id: str, names: list[str], deal: FinishedDeal, seat: int) -> dict[str, Any]:
    """A deal as the game's page shows it (seats named as the table named them for ``seat``)."""
    contract = None
    if deal.contract is not None:
        call, _, multiplier = deal.contract.partition(" x")
        contract = i18n.call_name(lang, call)
        if multiplier == "2":
            contract += " · " + i18n.gettext(lang, "call.coinche")
        elif multiplier:
            contract += " · " + i18n.gettext(lang, "call.surcoinche")
    us, them = (deal.score[0], deal.score[1]) if seat % 2 == 0 else (deal.score[1], deal.score[0])
    return {
        "n": deal.deal,
        "dealer": names[deal.dealer],
        "contract": contract,
        "taker": names[deal.taker] if deal.taker is not None else None,
        "made": deal.made,
        "score": i18n.gettext(lang, "accounts.games.score", us=us, them=them),
        "review": f"/table/{table_id}/donne/{deal.deal}",
        "record": f"/table/{table_id}/donne/{deal.deal}/record.json",
    }


async def game_page(request: Request) -> Response:
    """One game of the visitor's: its deals, each with its review and record."""
    lang = _lang_of_path(request)
    other = "en" if lang == "fr" else "fr"
    table_id = request.path_params["table_id"]
    player = player_in_session(request)
    if player is None or not TABLE_ID.fullmatch(table_id):
        raise HTTPException(404)
    history = history_of(request)
    game = await history.game(player, table_id)
    if game is None:
        raise HTTPException(404)
    live = await tables_of(request).table(table_id, fresh=True)  # its listeners fill in any deal missed
    if live is None:
        raise HTTPException(404)
    names = seat_names(lang, live.spec.rules.direction, game.seat)
    accuracies = accuracies_of(request)
    by_deal = await accuracies.deals_of(player, table_id)
    deals = []
    for d in await history.deals(table_id):
        deal = deal_row(lang, table_id, names, d, game.seat)
        deal["accuracy"] = accuracy_words(lang, by_deal.get(d.deal))
        deals.append(deal)
    row = game_row(lang, game)
    row["accuracy"] = accuracy_words(lang, total(by_deal.values()) if by_deal else None)
    if game.result is None:
        row["status"], row["score"] = "playing", ""
    return page(
        request,
        "history_game.html",
        lang=lang,
        other_url=f"{GAME_PATHS[other]}/{table_id}",
        game=row,
        deals=deals,
        record_url=f"/table/{table_id}/record.json" if deals else None,
        back=ADDRESSES[lang]["history"],
    )


async def game_record_json(request: Request) -> Response:
    """The record of the whole game (its finished deals), for a player seated there."""
    table_id = request.path_params["table_id"]
    player = player_in_session(request)
    if player is None or not TABLE_ID.fullmatch(table_id):
        return JSONResponse({"error": "not_found"}, status_code=404)
    if await history_of(request).game(player, table_id) is None:
        return JSONResponse({"error": "not_found"}, status_code=404)
    live = await tables_of(request).table(table_id, fresh=True)
    if live is None:
        return JSONResponse({"error": "not_found"}, status_code=404)
    record = finished_record(live)
    if record is None:
        return JSONResponse({"error": "not_found"}, status_code=404)
    return JSONResponse(record, headers={"Content-Disposition": f'attachment; filename="coinche-{live.id}.json"'})


routes: list[BaseRoute] = [
    *(Route(ADDRESSES[lang]["history"], history_page) for lang in i18n.LANGUAGES),
    *(Route(GAME_PATHS[lang] + "/{table_id}", game_page) for lang in i18n.LANGUAGES),
    Route("/table/{table_id}/record.json", game_record_json),
]
