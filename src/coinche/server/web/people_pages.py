"""The people one can see: the home page's counts (people online, games being played) and
friends online, and the leaderboards (``/classement``, ``/leaderboard``): the site's by
default, one rules profile's with ``?regles=<profile>`` (one of ``PROFILES``; any other
value is a 404).

The counts and the leaderboard are read from the database (``people_now``,
``leaderboard``); the friends are the accounts the person follows (``following``), those
online shown with the way to their table when it is public (a private table is not named).
"""

from __future__ import annotations

from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ...engine.rules import PROFILES
from ..features.following import Following
from ..features.leaderboard import MIN_GAMES, TOP, Leaderboard
from ..features.people_now import PeopleNow
from ..table import i18n
from .pages import ADDRESSES, account_of, page, settings_of


def people_now_of(request: Request) -> PeopleNow:
    found: PeopleNow = request.app.state.people_now
    return found


def leaderboard_of(request: Request) -> Leaderboard:
    found: Leaderboard = request.app.state.leaderboard
    return found


async def home_people(request: Request) -> dict[str, Any]:
    """What the home page shows of the people: the counts, and the signed-in person's
    friends online (None for a visitor)."""
    counts = await people_now_of(request).now(settings_of(request).clock())
    account = account_of(request)
    friends = None
    if account is not None:
        following: Following = request.app.state.following
        friends = [f for f in await following.friends(account.player) if f.online]
    return {"site_now": counts, "friends_online": friends}


async def leaderboard(request: Request) -> Response:
    lang = "en" if request.url.path == ADDRESSES["en"]["leaderboard"] else "fr"
    other = "fr" if lang == "en" else "en"
    profile = request.query_params.get("regles") or None
    if profile is not None and profile not in PROFILES:
        raise HTTPException(404)
    account = account_of(request)
    board = await leaderboard_of(request).board(account.player if account is not None else None, profile)
    query = f"?regles={profile}" if profile is not None else ""
    return page(
        request,
        "leaderboard.html",
        lang=lang,
        other_url=ADDRESSES[other]["leaderboard"] + query,
        board=board,
        profile=profile,
        profiles=tuple(PROFILES),
        top_size=TOP,
        min_games=MIN_GAMES,
    )


routes: list[BaseRoute] = [Route(ADDRESSES[lang]["leaderboard"], leaderboard) for lang in i18n.LANGUAGES]
