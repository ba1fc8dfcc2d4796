"""Friends' pages (``/mes-amis``, ``/my-friends``): follow an account by its name, one's
friends (online, at a table, a public one named with a link), the invitations waiting,
blocking; an invitation by name from a table's lobby (``POST /inviter``) and its answer
(``POST /invitations/{id}``: accepting seats the person at the seat offered, in one press).

The rows and their rules are ``features/following.py``; the live banner of an invitation
on any page is ``person.js`` over ``/ws/me``.
"""

from __future__ import annotations

from typing import Final

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from ..features.following import Following
from ..table import i18n
from ..table.live_table import TableError
from .account_pages import lang_of_path, limits_of, rate_limited
from .friends_pages import accept_invitation
from .pages import ADDRESSES, account_of, page, player_in_session, read_checked_form

ACTIONS: Final = frozenset({"follow", "unfollow", "block", "unblock"})
SEATS: Final = (None, "0", "1", "2", "3")
"""The seat an invitation offers (a computer's; none sent: the first free one)."""
NAME_MAX: Final = 64


def following_of(request: Request) -> Following:
    found: Following = request.app.state.following
    return found


async def friends_page(request: Request) -> Response:
    lang, other_url = lang_of_path(request, "contacts")
    account = account_of(request)
    if account is None:
        if request.method == "POST":
            raise HTTPException(403)
        return RedirectResponse(f"{ADDRESSES[lang]['login']}?next={ADDRESSES[lang]['contacts']}", status_code=303)
    following = following_of(request)
    notice = error = None
    status = 200
    if request.method == "POST":
        form = await read_checked_form(request)
        action, name = form.get("action"), form.get("name")
        if action not in ACTIONS or not isinstance(name, str) or len(form.multi_items()) != 3:
            raise HTTPException(400)
        retry = await limits_of(request).hit(request.app.state.settings.follow_limit, f"follow:{account.player}")
        if retry is not None:
            return rate_limited(request, retry)
        try:
            name = name.strip()[:NAME_MAX]
            if action == "follow":
                written = await following.follow(account.player, name)
                notice = i18n.gettext(lang, "contacts.followed", name=written)
            elif action == "unfollow":
                await following.unfollow(account.player, name)
            elif action == "block":
                await following.block(account.player, name)
                notice = i18n.gettext(lang, "contacts.blocked_notice", name=name)
            else:
                await following.unblock(account.player, name)
            if notice is None:  # undone: the page as it is now
                return RedirectResponse(ADDRESSES[lang]["contacts"], status_code=303)
        except TableError as e:
            error = i18n.gettext(lang, f"contacts.error.{e.code}")
            status = 400
    return page(
        request,
        "contacts.html",
        status=status,
        lang=lang,
        other_url=other_url,
        friends=await following.friends(account.player),
        blocked=await following.blocked(account.player),
        invitations=await following.invitations(account.player),
        notice=notice,
        error=error,
    )


async def invite(request: Request) -> Response:
    """From a table's lobby: invite an account by its name (``table_id``, ``name``)."""
    account = account_of(request)
    if account is None:
        raise HTTPException(403)
    form = await read_checked_form(request)
    table_id, name, seat = form.get("table_id"), form.get("name"), form.get("seat")
    if not isinstance(table_id, str) or not isinstance(name, str) or seat not in SEATS:
        raise HTTPException(400)
    if len(form.multi_items()) != (3 if seat is None else 4):
        raise HTTPException(400)
    retry = await limits_of(request).hit(request.app.state.settings.invite_limit, f"invite:{account.player}")
    if retry is not None:
        return rate_limited(request, retry)
    offered = int(seat) if isinstance(seat, str) else None
    try:
        await following_of(request).invite(account.player, name.strip()[:NAME_MAX], table_id[:32], offered)
    except TableError as e:
        if e.code in ("gone", "not_seated"):
            raise HTTPException(404) from None
        request.session["table_notice"] = f"error.{e.code}"
    else:
        request.session["table_notice"] = "invite_sent"
    return RedirectResponse(f"/table/{table_id}", status_code=303)


async def answer(request: Request) -> Response:
    """Accept (seated at once at the seat offered, or the first free one: on to the table)
    or decline an invitation."""
    account = account_of(request)
    if account is None:
        raise HTTPException(403)
    form = await read_checked_form(request)
    action = form.get("action")
    if action not in ("accept", "decline") or len(form.multi_items()) != 2:
        raise HTTPException(400)
    answered = await following_of(request).answer(account.player, request.path_params["invitation_id"])
    if action == "accept" and answered is not None:
        return await accept_invitation(request, answered.code, answered.seat)
    return RedirectResponse(ADDRESSES[i18n.language(request.cookies.get("lang"))]["contacts"], status_code=303)


async def report(request: Request) -> Response:
    """From the table: report the person at ``seat`` for ``reason`` (one of ``REASONS``)."""
    player = player_in_session(request)
    if player is None:
        raise HTTPException(403)
    form = await read_checked_form(request)
    seat, reason = form.get("seat"), form.get("reason")
    if seat not in ("0", "1", "2", "3") or not isinstance(reason, str) or len(form.multi_items()) != 3:
        raise HTTPException(400)
    table_id = request.path_params["table_id"]
    retry = await limits_of(request).hit(request.app.state.settings.report_limit, f"report:{player}")
    if retry is not None:
        return rate_limited(request, retry)
    try:
        await following_of(request).report(player, table_id, int(str(seat)), reason)
    except TableError as e:
        if e.code in ("gone", "not_seated"):
            raise HTTPException(404) from None
        raise HTTPException(400) from None
    request.session["table_notice"] = "reported"
    return RedirectResponse(f"/table/{table_id}", status_code=303)


routes: list[BaseRoute] = [
    Route(ADDRESSES["fr"]["contacts"], friends_page, methods=["GET", "POST"]),
    Route(ADDRESSES["en"]["contacts"], friends_page, methods=["GET", "POST"]),
    Route("/inviter", invite, methods=["POST"]),
    Route("/invitations/{invitation_id}", answer, methods=["POST"]),
    Route("/table/{table_id}/signaler", report, methods=["POST"]),
]
