"""The monthly season of quick play (``features.seasons``): ``/saison`` and ``/season``, one
rules profile at a time (``?profile=``): the days left, the reader's division and points,
a division's table with who goes up and down as it stands, and a past month's final
tables (``?season=YYYY-MM``)."""

from __future__ import annotations

from typing import Any, Final
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ...engine.rules import PROFILES
from ..features.seasons import Badge, Seasons
from ..table import i18n
from ..table.divisions import DIVISIONS, MIN_GAMES, POINTS, SEASON_FORMAT, SHARE, placement, previous_season
from .pages import ADDRESSES, account_of, page

DEFAULT_PROFILE: Final = "classic"


def seasons_of(request: Request) -> Seasons:
    seasons: Seasons = request.app.state.seasons
    return seasons


def _lang(request: Request) -> str:
    return "en" if request.url.path == ADDRESSES["en"]["season"] else "fr"


def badge_words(lang: str, b: Badge) -> str:
    """A past season on the profile: "décembre 2026 · Classique · division 2, 3e : montée"."""
    return i18n.gettext(
        lang,
        "season.badge",
        month=i18n.month(lang, b.season),
        profile=i18n.gettext(lang, f"profile.{b.profile}"),
        division=b.division,
        rank=b.rank,
        move=i18n.gettext(lang, f"season.move.{b.move}"),
    )


async def season_page(request: Request) -> Response:
    lang = _lang(request)
    seasons = seasons_of(request)
    current = seasons.current()
    profile = request.query_params.get("profile", DEFAULT_PROFILE)
    if profile not in PROFILES:
        profile = DEFAULT_PROFILE
    season = request.query_params.get("season", current)
    if not SEASON_FORMAT.fullmatch(season) or season > current:
        season = current
    account = account_of(request)
    mine = await seasons.mine(account.player, season, profile) if account is not None else None
    division_text = request.query_params.get("division", "")
    if division_text.isdigit() and 1 <= int(division_text) <= DIVISIONS:
        division = int(division_text)
    else:
        division = mine.division if mine is not None else 1
    lines = await seasons.division(season, profile, division)
    starts = None
    if account is not None and mine is None and season == current:
        earned = await seasons.earned(account.player, profile)
        starts = earned if earned is not None else placement(await seasons.rating(account.player))
    path = ADDRESSES[lang]["season"]
    other = ADDRESSES["fr" if lang == "en" else "en"]["season"]

    def link(**changes: Any) -> str:
        query = {"profile": profile, "season": season, "division": str(division), **changes}
        if query["season"] == current:
            del query["season"]
        return path + "?" + "&".join(f"{k}={v}" for k, v in query.items())

    previous = previous_season(season)
    return page(
        request,
        "season.html",
        lang=lang,
        other_url=other + "?" + f"profile={profile}",
        month=i18n.month(lang, season),
        current=season == current,
        days_left=seasons.days_left(),
        profile_name=i18n.gettext(lang, f"profile.{profile}"),
        profiles=[
            {"name": i18n.gettext(lang, f"profile.{p}"), "url": link(profile=p, division=1), "here": p == profile}
            for p in PROFILES
        ],
        divisions=[{"n": n, "url": link(division=n), "here": n == division} for n in range(1, DIVISIONS + 1)],
        division=division,
        mine=mine,
        starts=starts,
        account=account,
        lines=[
            {
                "rank": x.rank,
                "name": x.name if x.name is not None else i18n.gettext(lang, "accounts.deleted_name"),
                "url": f"{ADDRESSES[lang]['profile']}/{quote(x.name, safe='')}" if x.name is not None else None,
                "you": account is not None and x.player == account.player,
                "points": x.points,
                "games": x.games,
                "wins": x.wins,
                "losses": x.losses,
                "left": x.left,
                "zone": x.zone,
                "zone_words": i18n.gettext(lang, f"season.zone.{x.zone}") if x.zone != "stay" else "",
            }
            for x in lines
        ],
        previous_url=link(season=previous, division=division),
        current_url=link(season=current),
        rules=i18n.gettext(
            lang,
            "season.rules",
            won=POINTS["won"],
            lost=POINTS["lost"],
            left=-POINTS["left"],
            share=SHARE,
            games=MIN_GAMES,
        ),
    )


routes: list[BaseRoute] = [
    Route(ADDRESSES["fr"]["season"], season_page),
    Route(ADDRESSES["en"]["season"], season_page),
]
