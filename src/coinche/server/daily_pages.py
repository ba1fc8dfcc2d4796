"""The daily challenge's page (``/defi``): the day's commitment and tomorrow's, yesterday's
seed once revealed, the button that starts (or resumes) the visitor's attempt, their
results of the day and the day's ranking by matchpoints (accounts only)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from .account_pages import address_of, limits_of
from .daily import DEALS, DailyChallenge, day_of, next_day
from .db import AccountRow
from .pages import account_of, page, player_in_session, player_of, read_checked_form, service_of
from .tables import TableError

PATH = "/defi"


def daily_of(request: Request) -> DailyChallenge:
    daily = request.app.state.daily
    assert isinstance(daily, DailyChallenge)
    return daily


def _names(daily: DailyChallenge, players: list[str]) -> dict[str, str]:
    """The account names of these players (blocking)."""
    if not players:
        return {}
    with daily.tables.store.session() as s:
        rows = s.execute(select(AccountRow.player_id, AccountRow.name).where(AccountRow.player_id.in_(players)))
        return {player: name for player, name in rows}


async def challenge_page(request: Request, error: str | None = None, status: int = 200) -> Response:
    daily = daily_of(request)
    moment = datetime.now(UTC)
    day = day_of(moment)
    today = await daily.ensure_day(day)
    tomorrow = await daily.day(next_day(day))
    yesterday = day_of(moment - timedelta(days=1))
    revealed = await daily.revealed_seed(yesterday, moment)
    player = player_in_session(request)
    attempt = await daily.tables.db(daily.store.attempt, day, player) if player is not None else None
    mine = await daily.results(day, player) if player is not None else []
    standings = await daily.ranking(day, moment)
    names = await daily.tables.db(_names, daily, [s.player for s in standings])
    ranking: list[dict[str, Any]] = [
        {
            "rank": s.rank,
            "name": names.get(s.player, "?"),
            "average": f"{s.average:.1f}",
            "finished": s.finished,
            "me": s.player == player,
        }
        for s in standings
    ]
    return page(
        request,
        "daily.html",
        status=status,
        day=day,
        profile=today.profile,
        deals=DEALS,
        commitment=today.commitment,
        tomorrow=tomorrow.day if tomorrow is not None else next_day(day),
        tomorrow_commitment=tomorrow.commitment if tomorrow is not None else None,
        yesterday=yesterday,
        yesterday_seed=revealed,
        started=attempt is not None,
        finished=attempt is not None and attempt[1],
        table_id=attempt[0] if attempt is not None else None,
        results=mine,
        ranking=ranking,
        guest=account_of(request) is None,
        error=error,
    )


async def challenge(request: Request) -> Response:
    if request.method == "GET":
        return await challenge_page(request)
    await read_checked_form(request)
    player = player_of(request)
    settings = request.app.state.settings
    limits = limits_of(request)  # a new guest at each request would make a table each time
    retry = await limits.hit(settings.table_limit, f"tables:{player}") or await limits.hit(
        settings.table_limit_per_address, f"tables:{address_of(request)}"
    )
    if retry is not None:
        response = page(request, "forbidden.html", status=429, reason="rate_limited", seconds=retry)
        response.headers["Retry-After"] = str(retry)
        return response
    try:
        spec = await daily_of(request).start(player, is_guest=account_of(request) is None)
    except TableError as e:
        if e.code == "challenge_done":
            return await challenge_page(request, error="daily.done", status=409)
        raise
    service_of(request).forget_player(player)
    return RedirectResponse(f"/table/{spec.id}", status_code=303)


routes: list[BaseRoute] = [Route(PATH, challenge, methods=["GET", "POST"])]
