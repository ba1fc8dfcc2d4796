"""A player's public profile (``/joueur/<name>``, ``/player/<name>``): the rating and its
history as a chart drawn on the server (an inline SVG, no script: the CSP allows none
inline), the games and deals counted by ``player_stats``, and a calendar of the daily
challenge's days the player played (read-only from the challenge's tables).

Only accounts have a profile: the name is matched by its folded key (``Zoé`` is ``ZOÉ``);
an unknown or deleted account is a 404.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any
from urllib.parse import quote

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ...bots.accuracy import total
from ..features.accounts import NAME_MAX
from ..features.accuracy import accuracy_words
from ..features.player_stats import PROVISIONAL_SIGMA, PlayerStats, Profile
from ..features.seasons import Seasons
from ..table import i18n
from .account_pages import accounts_of
from .bot_pages import bots_of
from .daily_pages import daily_of
from .pages import ADDRESSES, account_of, page
from .review_pages import accuracies_of
from .season_pages import badge_words
from .tournament_pages import tournaments_of

CHART_POINTS = 300
"""At most this many points are drawn: a long history is down-sampled (each bucket's
lowest and highest), so the page stays light with 10,000 games."""
CHART_WIDTH = 600
CHART_HEIGHT = 230
CHART_LEFT = 52
"""Room on the left for the rating axis's figures and its title."""
CHART_BOTTOM = 40
"""Room below for the games axis's figures and its title."""
CHART_PAD = 10
CALENDAR_WEEKS = 12


def down_sample(points: list[tuple[datetime, int]], most: int = CHART_POINTS) -> list[tuple[int, int]]:
    """(game number, display) to draw: every point, or of each of ``most // 2`` buckets its
    lowest and its highest in order (the chart keeps its peaks and troughs), first and last
    always kept."""
    numbered = [(i + 1, value) for i, (_, value) in enumerate(points)]
    if len(numbered) <= most:
        return numbered
    buckets = most // 2
    size = len(numbered) / buckets
    out: list[tuple[int, int]] = []
    for b in range(buckets):
        chunk = numbered[int(b * size) : int((b + 1) * size)]
        if not chunk:
            continue
        low = min(chunk, key=lambda p: p[1])
        high = max(chunk, key=lambda p: p[1])
        out.extend(sorted({low, high}))
    if out[0] != numbered[0]:
        out.insert(0, numbered[0])
    if out[-1] != numbered[-1]:
        out.append(numbered[-1])
    return out


@dataclass(frozen=True)
class Chart:
    """The rating chart in SVG coordinates: the polyline, the plot's box, the ticks of both
    axes (position, figure), the scale's ends and the ratings it starts and ends at."""

    points: str
    low: int
    high: int
    games: int
    start: int
    last: int
    box: tuple[float, float, float, float]
    """left, top, right, bottom of the plot area."""
    y_ticks: tuple[tuple[float, int], ...]
    x_ticks: tuple[tuple[float, int], ...]


def chart_of(history: list[tuple[datetime, int]]) -> Chart | None:
    if not history:
        return None
    drawn = [(0, 1000), *down_sample(history)]  # every account starts at 1000
    low = min(v for _, v in drawn)
    high = max(v for _, v in drawn)
    span = max(high - low, 1)
    last = max(drawn[-1][0], 1)
    left, top = CHART_LEFT, CHART_PAD
    right, bottom = CHART_WIDTH - CHART_PAD, CHART_HEIGHT - CHART_BOTTOM

    def x(n: float) -> float:
        return left + (right - left) * n / last

    def y(v: float) -> float:
        return bottom - (bottom - top) * (v - low) / span

    coords = " ".join(f"{x(n):.1f},{y(v):.1f}" for n, v in drawn)
    ratings = sorted({low, high, 1000} if low <= 1000 <= high else {low, high})
    games = sorted({0, len(history)} | ({len(history) // 2} if len(history) >= 4 else set()))
    return Chart(
        coords,
        low,
        high,
        len(history),
        1000,
        history[-1][1],
        (left, top, right, bottom),
        tuple((round(y(v), 1), v) for v in ratings),
        tuple((round(x(n), 1), n) for n in games),
    )


def chart_caption(lang: str, chart: Chart) -> str:
    """What the chart says in words, its direction told truthfully ("De 1000 à 924": down)."""
    way = "up" if chart.last > chart.start else "down" if chart.last < chart.start else "flat"
    return i18n.ngettext(
        lang, f"player.chart_{way}", chart.games, start=chart.start, last=chart.last, low=chart.low, high=chart.high
    )


def calendar_of(days: dict[str, int], today: date) -> list[list[dict[str, Any]]]:
    """The last ``CALENDAR_WEEKS`` weeks, Monday first, each day with what was played."""
    monday = today - timedelta(days=today.weekday() + 7 * (CALENDAR_WEEKS - 1))
    weeks = []
    for w in range(CALENDAR_WEEKS):
        week = []
        for d in range(7):
            day = monday + timedelta(days=7 * w + d)
            key = day.isoformat()
            week.append({"day": key, "future": day > today, "played": key in days, "deals": days.get(key, 0)})
        weeks.append(week)
    return weeks


def percent(lang: str, part: int, whole: int) -> str | None:
    """``part`` of ``whole`` as the language writes a percentage ("50 %", "50%")."""
    return None if whole == 0 else i18n.percent(lang, part, whole)


TREND_WIDTH, TREND_HEIGHT = 240, 60


async def accuracy_trends(request: Request, lang: str, player: str) -> list[dict[str, Any]]:
    """For each rules profile the person played: their accuracy over their last games
    (each game's and all of them), a line of the cards' share game by game, and each
    computer level's over the site's deals of that profile (where they stand)."""
    accuracies = accuracies_of(request)
    out = []
    for profile_name in await accuracies.profiles(player):
        games = await accuracies.trend(player, profile_name)
        if not games:
            continue
        shares = [g.accuracy.card_share for g in games]
        points = [
            (TREND_WIDTH * i / max(1, len(games) - 1), TREND_HEIGHT * (1 - share))
            for i, share in enumerate(shares)
            if share is not None
        ]
        levels = await accuracies.levels(profile_name)
        out.append(
            {
                "profile": profile_name,
                "name": i18n.gettext(lang, f"profile.{profile_name}"),
                "all": accuracy_words(lang, total(g.accuracy for g in games)),
                "count": len(games),
                "games": [{"n": i + 1, "words": accuracy_words(lang, g.accuracy) or "—"} for i, g in enumerate(games)],
                "line": " ".join(f"{x:.1f},{y:.1f}" for x, y in points),
                "levels": [
                    {"name": i18n.gettext(lang, f"level.{level}"), "words": accuracy_words(lang, a)}
                    for level, a in sorted(levels.items())
                    if level in ("beginner", "confirmed", "expert") and accuracy_words(lang, a)
                ],
            }
        )
    return out


def player_stats_of(request: Request) -> PlayerStats:
    stats: PlayerStats = request.app.state.player_stats
    return stats


async def profile(request: Request) -> Response:
    lang = "en" if request.url.path.startswith(ADDRESSES["en"]["profile"] + "/") else "fr"
    name = request.path_params["name"]
    if not isinstance(name, str) or not name or len(name) > 4 * NAME_MAX:
        raise HTTPException(404)
    found = await accounts_of(request).named(name)
    if found is None:
        raise HTTPException(404)
    shown, player = found
    data: Profile = await player_stats_of(request).profile(player)
    today = datetime.now(UTC).date()
    since = (today - timedelta(days=7 * CALENDAR_WEEKS)).isoformat()
    days = await daily_of(request).days_played(player, since)
    other = "fr" if lang == "en" else "en"
    rating = data.rating
    chart = chart_of(data.history)
    viewer = account_of(request)
    own = viewer is not None and viewer.player == player  # a club's tournaments: for their own eyes
    tournaments = await tournaments_of(request).results_of(player, own)
    bot_owner = await bots_of(request).owner_of(player)
    accuracy = await accuracy_trends(request, lang, player)
    seasons: Seasons = request.app.state.seasons
    badges = [badge_words(lang, b) for b in await seasons.badges(player)]
    return page(
        request,
        "profile.html",
        lang=lang,
        season_badges=badges,
        bot_owner=bot_owner,
        accuracy=accuracy,
        tournaments=tournaments,
        other_url=f"{ADDRESSES[other]['profile']}/{quote(shown, safe='')}",
        player_name=shown,
        display=rating.display,
        provisional=rating.sigma > PROVISIONAL_SIGMA,
        data=data,
        won_pct=percent(lang, data.games_won, data.games_played),
        made_pct=percent(lang, data.contracts_made, data.contracts_taken),
        coinche_pct=percent(lang, data.coinches_won, data.coinches),
        chart=chart,
        chart_size=(CHART_WIDTH, CHART_HEIGHT),
        chart_caption=chart_caption(lang, chart) if chart else "",
        chart_desc=i18n.ngettext(
            lang,
            "player.chart_desc",
            chart.games,
            first=data.history[0][1],
            last=rating.display,
            best=max(v for _, v in data.history),
            low=chart.low,
            high=chart.high,
        )
        if chart
        else "",
        weeks=calendar_of(days, today),
        played_days=len(days),
        weekdays=[i18n.gettext(lang, f"player.weekday.{d}") for d in range(7)],
    )


routes: list[BaseRoute] = [Route(ADDRESSES[lang]["profile"] + "/{name}", profile) for lang in i18n.LANGUAGES]
