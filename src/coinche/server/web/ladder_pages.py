"""The engine ladder's page (``/echelle``, ``/ladder``): the engines ranked, each with its
rating's 95% interval, matches, faults per 100 decisions and whether it is paused, and
the anchors (the computer levels, fixed). The ladder itself is ``features/ladder``; a bot's
owner opts it in on the bots' page (``bot_pages.py``)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ..features.ladder.runner import Ladder
from ..table import i18n
from ..table.ladder_pairing import ANCHORS, figure, interval
from .account_pages import lang_of_path
from .pages import ADDRESSES, page


def ladder_of(request: Request) -> Ladder:
    ladder: Ladder = request.app.state.ladder
    return ladder


async def ladder_page(request: Request) -> Response:
    lang, other_url = lang_of_path(request, "ladder")
    ladder = ladder_of(request)
    lines = [
        {
            "name": line.name,
            "owner": line.owner,
            "rating": figure(line.rating),
            "low": interval(line.rating)[0],
            "high": interval(line.rating)[1],
            "matches": line.matches,
            "won": line.won,
            "drawn": line.drawn,
            "faults": f"{line.faults_per_100:.1f}",
            "paused": line.paused,
            "opted_in": line.opted_in,
        }
        for line in await ladder.standings()
    ]
    anchors = [{"level": level, "rating": figure(ladder.levels.of(level))} for level in ANCHORS]
    return page(request, "ladder.html", lang=lang, other_url=other_url, lines=lines, anchors=anchors)


routes: list[BaseRoute] = [Route(ADDRESSES[lang]["ladder"], ladder_page, methods=["GET"]) for lang in i18n.LANGUAGES]
