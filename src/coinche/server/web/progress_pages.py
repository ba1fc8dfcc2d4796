"""A person's progress (issue 50): their accuracy over their last games of each rules
profile, and their faults grouped by kind (``features.progress``), week by week, each
linked to its deal."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ...bots.patterns import KINDS
from ..features.progress import LISTED, WEEKS, Progress
from ..infra.config import Settings
from ..table import i18n
from .pages import ADDRESSES, page, player_in_session
from .profile_pages import accuracy_trends

PATHS: Final = {lang: ADDRESSES[lang]["progress"] for lang in ("fr", "en")}


def progress_of(request: Request) -> Progress:
    progress: Progress = request.app.state.progress
    return progress


def _lang(request: Request) -> str:
    return "en" if request.url.path.startswith(PATHS["en"]) else "fr"


async def progress_page(request: Request) -> Response:
    lang = _lang(request)
    other = "fr" if lang == "en" else "en"
    player = player_in_session(request)
    settings: Settings = request.app.state.settings
    moment = settings.clock()
    today = moment.date()
    monday = today - timedelta(days=today.weekday())
    weeks = [monday - timedelta(weeks=WEEKS - 1 - k) for k in range(WEEKS)]
    found = await progress_of(request).of_player(player, moment) if player is not None else []
    kinds = []
    for kind in KINDS:
        mine = [f for f in found if f.kind == kind]
        counts = [sum(1 for f in mine if week <= f.at.date() < week + timedelta(weeks=1)) for week in weeks]
        kinds.append(
            {
                "kind": kind,
                "name": i18n.gettext(lang, f"progress.kind.{kind}"),
                "help": i18n.gettext(lang, f"progress.help.{kind}"),
                "counts": counts,
                "total": len(mine),
                "deals": [
                    {
                        "url": f"/table/{f.table_id}/donne/{f.deal}",
                        "text": i18n.gettext(
                            lang,
                            "progress.deal_link",
                            date=f.at.strftime("%Y-%m-%d"),
                            n=f.deal,
                            profile=i18n.gettext(lang, f"profile.{f.profile}"),
                        ),
                    }
                    for f in mine[:LISTED]
                ],
            }
        )
    return page(
        request,
        "progress.html",
        lang=lang,
        other_url=PATHS[other],
        weeks=[_week(lang, w) for w in weeks],
        kinds=kinds,
        any_fault=bool(found),
        accuracy=await accuracy_trends(request, lang, player) if player is not None else [],
    )


def _week(lang: str, monday: date) -> dict[str, Any]:
    return {"short": monday.strftime("%d/%m"), "label": i18n.gettext(lang, "progress.week", day=monday.isoformat())}


routes: list[BaseRoute] = [Route(PATHS[lang], progress_page) for lang in i18n.LANGUAGES]
