"""The bots' page (``/robots``, ``/bots``): the bots' leaderboard for everyone and, for a
signed-in person, their own bots: make one, get a token (shown once), revoke a token,
delete a bot. The rows and their rules are ``features/bots.py``; the API the bots play
through is ``bot_api.py``."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Final

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from ..features.accounts import AccountError
from ..features.bots import BOT_NAME_MAX, MAX_BOTS, Bots
from ..table import i18n
from .account_pages import lang_of_path, limits_of, rate_limited
from .ladder_pages import ladder_of
from .pages import ADDRESSES, account_of, page, read_checked_form, settings_of

ACTIONS: Final = frozenset({"create", "token", "revoke", "delete", "ladder_in", "ladder_out", "ladder_resume"})
LADDER: Final = {"ladder_in": True, "ladder_out": False}
"""The ladder's forms (``features/ladder``): opting a bot in or out."""


def bots_of(request: Request) -> Bots:
    bots: Bots = request.app.state.bot_accounts
    return bots


async def bots_page(request: Request) -> Response:
    lang, other_url = lang_of_path(request, "bots")
    account = account_of(request)
    bots = bots_of(request)
    context: dict[str, Any] = {"token": None, "error": None, "notice": None}
    status = 200
    if request.method == "POST":
        if account is None:
            raise HTTPException(403)
        form = await read_checked_form(request)
        action, value = form.get("action"), form.get("value")
        if action not in ACTIONS or not isinstance(value, str) or len(form.multi_items()) != 3:
            raise HTTPException(400)
        retry = await limits_of(request).hit(settings_of(request).bots_limit, f"bots:{account.player}")
        if retry is not None:
            return rate_limited(request, retry)
        value = value.strip()[:64]
        try:
            if action == "create":
                made = await bots.create(account, value)
                context["notice"] = i18n.gettext(lang, "bots.created", name=made.name)
            elif action == "token":
                context["token"] = await bots.new_token(account.id, value, datetime.now(UTC))
            elif action in LADDER:
                if not await ladder_of(request).opt(account.id, value, LADDER[action]):
                    raise AccountError("not_your_bot")
                context["notice"] = i18n.gettext(lang, "ladder.done")
            elif action == "ladder_resume":
                if not await ladder_of(request).resume(account.id, value):
                    raise AccountError("not_your_bot")
                context["notice"] = i18n.gettext(lang, "ladder.done")
            elif action == "revoke":
                await bots.revoke(account.id, value)
                return RedirectResponse(ADDRESSES[lang]["bots"], status_code=303)
            else:
                await request.app.state.account_life.delete_bot(account, value)
                return RedirectResponse(ADDRESSES[lang]["bots"], status_code=303)
        except AccountError as e:
            context["error"] = i18n.gettext(lang, f"bots.error.{e.code}")
            status = 400
    mine = await bots.bots_of(account.id) if account is not None else []
    engines = await ladder_of(request).engines([bot.account.player for bot in mine]) if mine else {}
    response = page(
        request,
        "bots.html",
        status=status,
        lang=lang,
        other_url=other_url,
        mine=mine,
        engines=engines,
        max_bots=MAX_BOTS,
        name_max=BOT_NAME_MAX,
        leaderboard=await bots.leaderboard(),
        request_base=str(request.base_url).rstrip("/"),
        **context,
    )
    if context["token"] is not None:
        response.headers["Cache-Control"] = "no-store"  # a token is shown once, kept nowhere
    return response


routes: list[BaseRoute] = [
    Route(ADDRESSES[lang]["bots"], bots_page, methods=["GET", "POST"]) for lang in i18n.LANGUAGES
]
