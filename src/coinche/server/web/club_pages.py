"""Clubs' pages (``features.clubs``): ``/clubs`` lists them and makes one, ``/club/{id}`` is a
club's page (its members online and at which public table, their ranking by rating, its
board of predefined messages, and for its moderators the requests, invitations, removals
and bans). Every change is a form with its CSRF token; who may do it is the feature's
decision; a refusal shows the page again with why (400), nothing changed."""

from __future__ import annotations

import asyncio
from typing import Any, Final
from urllib.parse import quote

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from ...engine.rules import PROFILES, RuleSet
from ..features.accounts import Account
from ..features.club_points import ClubPoints, MonthLine, club_month
from ..features.clubs import DESCRIPTION_MAX, NAME_MAX, PAGE, PHRASES, Club, ClubError, Clubs
from ..features.friends import DEFAULT_LEVEL, Friends
from ..features.tournaments.runner import Tournaments
from ..table import i18n
from ..table.divisions import SEASON_FORMAT, next_season, previous_season
from ..table.live_table import TableError
from .account_pages import limits_of, rate_limited
from .pages import ADDRESSES, account_of, lang_of, page, read_checked_form
from .tournament_pages import PAGE_PATHS as TOURNAMENT_PATHS

MONTH_SHOWN: Final = 50
"""The players the month's points table names."""
ONLINE_SHOWN: Final = 60
"""The members online the page names (the others are counted)."""
LIST_FIELDS: Final = frozenset({"csrf", "name", "description", "open"})
CLUB_FIELDS: Final = frozenset({"csrf", "action", "player", "name", "phrase", "profile", "members_only", "confirm"})
ACTIONS: Final = frozenset(
    {
        "join",
        "decline",
        "leave",
        "post",
        "accept",
        "refuse",
        "invite",
        "remove",
        "ban",
        "unban",
        "promote",
        "demote",
        "delete",
        "table",
    }
)


async def _month_view(
    lang: str, tournaments: Tournaments, club_id: str, month: str, this_month: str, lines: list[MonthLine]
) -> dict[str, Any]:
    """The month's points table as the page shows it, with the months either side."""
    shown = lines[:MONTH_SHOWN]
    names = await tournaments.names([line.player for line in shown])
    url = f"{club_url(club_id)}?month="
    return {
        "name": i18n.month(lang, month),
        "lines": [(line, names.get(line.player, "?")) for line in shown],
        "more": len(lines) - len(shown),
        "previous": url + previous_season(month),
        "previous_name": i18n.month(lang, previous_season(month)),
        "next": url + next_season(month) if month < this_month else None,
        "next_name": i18n.month(lang, next_season(month)),
    }


def clubs_of(request: Request) -> Clubs:
    clubs: Clubs = request.app.state.clubs
    return clubs


def club_url(club_id: str) -> str:
    return f"/club/{club_id}"


async def list_page(request: Request) -> Response:
    """The clubs, the reader's own and their invitations; POST: make a club."""
    lang = lang_of(request)
    clubs = clubs_of(request)
    account = account_of(request)
    status, error = 200, None
    values = {"name": "", "description": "", "open": True}
    if request.method == "POST":
        form = await read_checked_form(request)
        if account is None:
            raise HTTPException(403)
        if any(k not in LIST_FIELDS for k in form) or len(form.multi_items()) > len(LIST_FIELDS):
            raise HTTPException(400)
        name, description = form.get("name"), form.get("description", "")
        if not isinstance(name, str) or not isinstance(description, str):
            raise HTTPException(400)
        values = {
            "name": name[: 4 * NAME_MAX],
            "description": description[: 2 * DESCRIPTION_MAX],
            "open": form.get("open") == "on",
        }
        try:
            club_id = await clubs.create(
                account.player, name[: 4 * NAME_MAX], description[: 4 * DESCRIPTION_MAX], form.get("open") == "on"
            )
        except ClubError as e:
            status, error = 400, i18n.gettext(lang, f"clubs.error.{e.code}")
        else:
            return RedirectResponse(club_url(club_id), status_code=303)
    mine = await clubs.of_player(account.player) if account is not None else []
    invited = await clubs.invitations(account.player) if account is not None else []
    return page(
        request,
        "clubs.html",
        status=status,
        error=error,
        clubs=await clubs.listing(),
        mine=[{"club": c, "role": i18n.gettext(lang, f"clubs.role.{role}")} for c, role in mine],
        invited=invited,
        values=values,
        name_max=NAME_MAX,
        description_max=DESCRIPTION_MAX,
        club_url=club_url,
    )


async def club_page(request: Request) -> Response:
    """A club's page; POST: an action of the reader on it (``ACTIONS``)."""
    lang = lang_of(request)
    clubs = clubs_of(request)
    form = await read_checked_form(request) if request.method == "POST" else None
    club = await clubs.club(request.path_params["club_id"])
    if club is None:
        raise HTTPException(404)
    account = account_of(request)
    status, error, done = 200, None, None
    if form is not None:
        if account is None:
            raise HTTPException(403)
        if any(k not in CLUB_FIELDS for k in form) or len(form.multi_items()) > len(CLUB_FIELDS):
            raise HTTPException(400)
        action = form.get("action")
        if action not in ACTIONS:
            raise HTTPException(400)
        if action == "table":
            return await _open_table(request, club, account, form)
        if action == "delete" and form.get("confirm") != "on":
            raise HTTPException(400)  # the box says the owner meant it
        fields = {k: form.get(k) for k in ("player", "name", "phrase")}
        if any(v is not None and not isinstance(v, str) for v in fields.values()):
            raise HTTPException(400)
        try:
            done = await _act(clubs, club, account.player, str(action), {k: str(v or "") for k, v in fields.items()})
        except ClubError as e:
            status, error = 400, i18n.gettext(lang, f"clubs.error.{e.code}")
        else:
            if action == "delete":
                return RedirectResponse("/clubs", status_code=303)
            return RedirectResponse(f"{club_url(club.id)}?done={done}", status_code=303)
        refreshed = await clubs.club(club.id)
        if refreshed is None:
            raise HTTPException(404)
        club = refreshed
    player = account.player if account is not None else None
    role = await clubs.role(club.id, player)
    moderating = role in ("owner", "moderator")
    page_text = request.query_params.get("page", "1")
    page_number = int(page_text) if page_text.isdigit() and len(page_text) < 6 else 1
    page_number = max(1, min(page_number, max(1, -(-club.members // PAGE))))
    # the page's reads are independent: asked together (a club of thousands, on PostgreSQL)
    tournaments: Tournaments = request.app.state.tournaments
    club_points: ClubPoints = request.app.state.club_points
    this_month = club_month(tournaments.now())
    month = request.query_params.get("month", this_month)
    if not SEASON_FORMAT.fullmatch(month) or month > this_month:
        month = this_month
    (members, online, ranking, posts, tables, club_tournaments), month_lines = await asyncio.gather(
        asyncio.gather(
            clubs.members(club.id, page_number - 1),
            clubs.members(club.id, online_only=True),
            clubs.ranking(club.id),
            clubs.posts(club.id),
            clubs.tables(club.id),
            tournaments.of_club(club.id),
        ),
        club_points.month(club.id, month),
    )
    done_key = request.query_params.get("done")
    return page(
        request,
        "club.html",
        status=status,
        error=error,
        notice=i18n.gettext(lang, f"clubs.done.{done_key}") if done_key in DONE else None,
        club=club,
        role=role,
        moderating=moderating,
        owner=role == "owner",
        join_request=await clubs.request_of(club.id, player) if player is not None and role is None else None,
        members=[_member_view(lang, m) for m in members],
        online=[_member_view(lang, m) for m in online],
        online_shown=ONLINE_SHOWN,
        ranking=ranking,
        page_number=page_number,
        pages=-(-club.members // PAGE),
        tables=[
            {"url": f"/rejoindre/{code}", "only": only} for _, code, only in tables if not only or role is not None
        ],
        profiles=[{"key": p, "name": i18n.gettext(lang, f"profile.{p}")} for p in PROFILES],
        club_tournaments=[
            {
                "name": t.name,
                "url": f"{TOURNAMENT_PATHS[lang]}/{t.id}",
                "state": i18n.gettext(lang, f"clubs.tournament.{t.state}"),
            }
            for t in club_tournaments
        ],
        new_tournament=f"{ADDRESSES[lang]['new_tournament']}?club={club.id}",
        month=await _month_view(lang, tournaments, club.id, month, this_month, month_lines),
        posts=[
            {"name": p.name, "text": i18n.gettext(lang, f"clubs.say.{p.phrase}"), "at": p.at.strftime("%Y-%m-%d %H:%M")}
            for p in posts
        ],
        phrases=[{"key": k, "text": i18n.gettext(lang, f"clubs.say.{k}")} for k in PHRASES],
        waiting=await clubs.waiting(club.id) if moderating else [],
        bans=await clubs.bans(club.id) if moderating else [],
        action=club_url(club.id),
        profile_url=lambda name: f"{ADDRESSES[lang]['profile']}/{quote(name, safe='')}",
        account=account,
    )


DONE: Final = frozenset(
    {
        "joined",
        "asked",
        "left",
        "declined",
        "posted",
        "accepted",
        "refused",
        "invited",
        "removed",
        "banned",
        "unbanned",
        "promoted",
        "demoted",
    }
)


def _member_view(lang: str, m: Any) -> dict[str, Any]:
    return {
        "player": m.player,
        "name": m.name,
        "role": m.role,
        "role_words": i18n.gettext(lang, f"clubs.role.{m.role}"),
        "online": m.online,
        "table": f"/rejoindre/{m.public_table}" if m.public_table else None,
        "rating": m.rating,
    }


async def _open_table(request: Request, club: Club, account: Account, form: Any) -> Response:
    """A member opens a table of the club (for its members only, or for all): a friends'
    table of the profile chosen, the member hosting, computers in the other seats."""
    lang = lang_of(request)
    profile, only = form.get("profile"), form.get("members_only")
    if profile not in PROFILES or only not in (None, "on"):
        raise HTTPException(400)
    clubs = clubs_of(request)
    if await clubs.role(club.id, account.player) is None:
        return await _refused(request, club, lang, "not_member")
    retry = await limits_of(request).hit(request.app.state.settings.table_limit, f"tables:{account.player}")
    if retry is not None:
        return rate_limited(request, retry)
    friends: Friends = request.app.state.friends
    try:
        spec = await friends.create_table(
            account.player,
            account.name,
            RuleSet.profile(str(profile)),
            [DEFAULT_LEVEL] * 3,
            late_joins=True,
            club=club.id,
            club_only=only == "on",
        )
    except TableError:
        return await _refused(request, club, lang, "table")
    return RedirectResponse(f"/table/{spec.id}", status_code=303)


async def _refused(request: Request, club: Club, lang: str, code: str) -> Response:
    return page(request, "forbidden.html", status=400, reason=code, notice=i18n.gettext(lang, f"clubs.error.{code}"))


async def _act(clubs: Clubs, club: Club, player: str, action: str, fields: dict[str, str]) -> str:
    """Do ``action``; the word of what was done (``clubs.done.*``)."""
    target = fields["player"]
    if action == "join":
        return await clubs.join(club, player)
    if action == "decline":
        await clubs.decline(club, player)
        return "declined"
    if action == "leave":
        await clubs.leave(club, player)
        return "left"
    if action == "post":
        await clubs.post(club, player, fields["phrase"])
        return "posted"
    if action == "accept":
        await clubs.accept(club, player, target)
        return "accepted"
    if action == "refuse":
        await clubs.refuse(club, player, target)
        return "refused"
    if action == "invite":
        await clubs.invite(club, player, fields["name"])
        return "invited"
    if action in ("remove", "ban"):
        await clubs.remove(club, player, target, ban=action == "ban")
        return "removed" if action == "remove" else "banned"
    if action == "unban":
        await clubs.unban(club, player, target)
        return "unbanned"
    if action in ("promote", "demote"):
        await clubs.name_moderator(club, player, target, action == "promote")
        return "promoted" if action == "promote" else "demoted"
    await clubs.delete(club, player)
    return "deleted"


routes: list[BaseRoute] = [
    Route("/clubs", list_page, methods=["GET", "POST"]),
    Route("/club/{club_id}", club_page, methods=["GET", "POST"]),
]
