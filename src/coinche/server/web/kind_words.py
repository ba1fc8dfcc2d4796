"""What a table's page says of its kind, in the page's language: the heading (the
objective, the score sheet's caption, the score read aloud, where a deal is compared),
where the game's end leads and what the table is part of (``TableKind.heading``,
``TableKind.after_game``, ``TableKind.part_of``). The page shows these words as
they come: it never tests which kind of table it is at."""

from __future__ import annotations

from starlette.requests import Request

from ..features.tournaments.runner import Tournaments
from ..table import i18n
from ..table.kinds import CHALLENGE_DEAL, CHALLENGE_RANKING, TOURNAMENT, TableKind
from ..table.live_table import LiveTable
from .messages import AfterGameJson, CompareJson, HeadingJson, PartOfLink
from .pages import ADDRESSES

SCORE_PLACES = {"us": "{us}", "them": "{them}", "number": "{number}"}
"""The score read aloud is sent with these places left for the page to fill in."""


def heading_json(lang: str, kind: TableKind, target: int) -> HeadingJson:
    """What the game is played to, in ``lang`` (``target``: the rules' objective; None in
    ``target`` when a fixed number of deals ends the game instead)."""
    heading = kind.heading(target)
    params = dict(heading.params)
    return {
        "goal": i18n.gettext(lang, heading.goal, **params),
        "sheet": i18n.gettext(lang, heading.sheet, **params),
        "score": i18n.gettext(lang, heading.score, **params, **SCORE_PLACES),
        "target": None if heading.deals is not None else target,
        "deals": heading.deals,
        "compare": _compare(lang, kind),
    }


def _compare(lang: str, kind: TableKind) -> CompareJson | None:
    """Where a finished deal is compared (``{number}`` left for the page: the deal's)."""
    way = kind.deal_compared
    if way is None or way.to != CHALLENGE_DEAL:
        return None
    url = i18n.gettext(lang, "js.challenge_deal_url", day=way.of, number="{number}")
    return {"url": url, "text": i18n.gettext(lang, "js.challenge_compare")}


async def part_of_link(request: Request, lang: str, kind: TableKind) -> PartOfLink | None:
    """What the table is part of as the page names it, in ``lang``: a tournament's name and
    page (None: nothing, or a tournament no longer found)."""
    way = kind.part_of
    if way is None or way.to != TOURNAMENT or way.of is None:
        return None
    tournaments: Tournaments = request.app.state.tournaments
    found = await tournaments.get(way.of)
    if found is None:
        return None
    return {"url": f"{ADDRESSES[lang]['tournament']}/{way.of}", "text": found.name}


def after_game_json(lang: str, live: LiveTable, seat: int) -> AfterGameJson:
    """Where the game's end leads, in ``lang``: the way on's address and words, and once
    the game is over a line that says how it ended when no team won it by reaching a
    target (a tournament's round: which side is ahead, from ``seat``'s)."""
    after = live.spec.kind.after_game
    over = live.started and live.game.is_over
    line: str | None = None
    if after.to == TOURNAMENT:
        url = f"{ADDRESSES[lang]['tournament']}/{after.of}#round-{after.number}"
        text = i18n.gettext(lang, "tournament.round_results")
        if over:
            ahead = live.spec.kind.winner(live.game)
            verdict = "tie" if ahead is None else "won" if ahead == seat % 2 else "lost"
            totals = live.game.totals
            score = {"round": after.number, "us": totals[seat % 2], "them": totals[1 - seat % 2]}
            line = i18n.gettext(lang, f"tournament.round_{verdict}", **score)
    elif after.to == CHALLENGE_RANKING:
        url = ADDRESSES[lang]["challenge"]  # the day's results, until the next day starts
        text = i18n.gettext(lang, "js.challenge_ranking")
        if over:
            line = i18n.gettext(lang, "js.challenge_over")
    else:
        url, text = "/", i18n.gettext(lang, "js.new_game")
    return {"to": after.to, "url": url, "text": text, "line": line}
