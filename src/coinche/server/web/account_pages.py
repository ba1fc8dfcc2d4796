"""The account pages: sign up, log in, log out, the account page (games, password,
one's data as an archive, deletion), and giving up a game. Each page has a French and an
English address (``/inscription`` and ``/signup``...), like the calculator.

Every form that changes something is read with ``read_checked_form`` (same origin, CSRF
token); sign-up and log-in are limited per address and per name (429 with ``Retry-After``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from ..features.account_life import AccountLife
from ..features.account_recovery import AccountRecovery
from ..features.accounts import NAME_MAX, AccountError, AccountService, clean_email
from ..features.friends import Friends
from ..features.moderation import Moderation, notice_of
from ..features.personal_data import PersonalData
from ..infra.rate_limits import RateLimits
from ..infra.store import GameEntry
from ..table import i18n
from ..table.live_table import TableError
from ..table.names import login_key
from .pages import (
    ACCOUNT_KEY,
    ADDRESSES,
    TOKEN_KEY,
    account_of,
    clear_session_cookie,
    free_deals_of,
    guest_in_session,
    lang_of,
    lang_of_address,
    page,
    player_in_session,
    player_of,
    read_checked_form,
    session_token,
    set_session_cookie,
    settings_of,
    tables_of,
)


def accounts_of(request: Request) -> AccountService:
    accounts: AccountService = request.app.state.accounts
    return accounts


def account_life_of(request: Request) -> AccountLife:
    """Sign-up, log-in and deletion with what they change at the tables."""
    life: AccountLife = request.app.state.account_life
    return life


def limits_of(request: Request) -> RateLimits:
    limits: RateLimits = request.app.state.rate_limits
    return limits


def address_of(request: Request) -> str:
    """The client's address (the proxy's ``X-Forwarded-For`` when uvicorn trusts it)."""
    return request.client.host if request.client is not None else "unknown"


def safe_next(value: object) -> str | None:
    """A ``next`` address to go on to: a path of this site only (no other site, no
    ``//host``, no backslash trick), else None."""
    if not isinstance(value, str) or not value.startswith("/") or value.startswith("//") or len(value) > 200:
        return None
    if "\\" in value or any(ord(ch) < 0x21 for ch in value):
        return None
    return value


def lang_of_path(request: Request, key: str) -> tuple[str, str]:
    """The language a page's address says (``ADDRESSES[lang][key]``), and the same page's
    address in the other one."""
    lang = "en" if request.url.path == ADDRESSES["en"][key] else "fr"
    other = "fr" if lang == "en" else "en"
    return lang, ADDRESSES[other][key]


def try_again(lang: str, retry_after: float) -> str:
    """What every rate limit's refusal says: when to try again, in seconds, minutes or
    hours as the wait is long ("réessayez dans 44 minutes")."""
    return i18n.gettext(lang, "accounts.error.rate_limited", wait=i18n.duration(lang, retry_after))


def rate_limited(request: Request, retry_after: int) -> Response:
    """The page of a request a rate limit refused: 429, and when to try again."""
    lang = lang_of_address(request)
    response = page(request, "forbidden.html", status=429, lang=lang, notice=try_again(lang, retry_after))
    response.headers["Retry-After"] = str(retry_after)
    return response


def too_many(request: Request, lang: str, retry_after: int, template: str, **context: Any) -> Response:
    response = page(request, template, status=429, lang=lang, error=try_again(lang, retry_after), **context)
    response.headers["Retry-After"] = str(retry_after)
    return response


def logged_in(request: Request, target: str, token: str) -> Response:
    """Go on to ``target`` with the new session's cookie; the guest cookie is dropped, so
    logging out later leaves a new guest, not the account's player."""
    response = RedirectResponse(target, status_code=303)
    set_session_cookie(response, request, token, settings_of(request).session_days)
    request.session.clear()
    return response


# ----- sign up -----


async def signup(request: Request) -> Response:
    lang, other_url = lang_of_path(request, "signup")
    form = await read_checked_form(request) if request.method == "POST" else None
    if account_of(request) is not None:
        return RedirectResponse(ADDRESSES[lang]["account"], status_code=303)
    if form is None:
        player = player_of(request)
        left = await free_deals_of(request).left(player)
        next_url = safe_next(request.query_params.get("next"))
        return page(
            request,
            "signup.html",
            lang=lang,
            other_url=other_url,
            next=next_url,
            values={},
            free_left=left,
            mail=request.app.state.recovery.mail_goes_out,
        )
    values = {"name": str(form.get("name") or "")[: 4 * NAME_MAX], "email": str(form.get("email") or "")[:254]}
    next_url = safe_next(form.get("next"))
    context: dict[str, Any] = {
        "other_url": other_url,
        "next": next_url,
        "values": values,
        "free_left": None,
        "mail": request.app.state.recovery.mail_goes_out,
    }
    retry = await limits_of(request).hit(settings_of(request).signup_limit, f"signup:{address_of(request)}")
    if retry is not None:
        return too_many(request, lang, retry, "signup.html", **context)
    player = player_of(request)
    try:
        account, token = await account_life_of(request).sign_up(
            values["name"], str(form.get("password") or ""), str(form.get("confirm") or ""), values["email"], player
        )
    except AccountError as e:
        error = i18n.gettext(lang, f"accounts.error.{e.code}")
        return page(request, "signup.html", status=400, lang=lang, error=error, **context)
    recovery: AccountRecovery = request.app.state.recovery
    address = clean_email(values["email"])  # checked by the sign-up
    if address is not None and recovery.mail_goes_out:
        await recovery.send_confirmation(account, address, lang)
        next_url = next_url or f"{ADDRESSES[lang]['account']}?done=address"
    return logged_in(request, next_url or ADDRESSES[lang]["account"], token)


# ----- log in, log out -----


async def login(request: Request) -> Response:
    lang, other_url = lang_of_path(request, "login")
    if request.method == "GET":
        player_of(request)  # the form's CSRF token needs the visitor's id
        next_url = safe_next(request.query_params.get("next"))
        return page(request, "login.html", lang=lang, other_url=other_url, next=next_url, values={})
    form = await read_checked_form(request)
    name = str(form.get("name") or "")[: 4 * NAME_MAX]
    next_url = safe_next(form.get("next"))
    context: dict[str, Any] = {"other_url": other_url, "next": next_url, "values": {"name": name}}
    retry = await limits_of(request).hit(
        settings_of(request).login_limit, f"login:{address_of(request)}", f"login-name:{login_key(name)}"
    )
    if retry is not None:
        return too_many(request, lang, retry, "login.html", **context)
    try:
        _, token = await account_life_of(request).log_in(
            name, str(form.get("password") or ""), guest_in_session(request)
        )
    except AccountError as e:
        # a ban is told (the password was right); anything else is one sentence
        error = (
            i18n.render(lang, e.message) if e.message is not None else i18n.gettext(lang, "accounts.error.wrong_login")
        )
        return page(
            request, "login.html", status=403 if e.message is not None else 400, lang=lang, error=error, **context
        )
    return logged_in(request, next_url or "/", token)


async def logout(request: Request) -> Response:
    await read_checked_form(request)
    token = session_token(request)
    if token is not None:
        await accounts_of(request).log_out(token)
    response = RedirectResponse("/", status_code=303)
    clear_session_cookie(response, request)
    request.session.clear()
    return response


# ----- the account page -----


def game_rows(lang: str, games: list[GameEntry]) -> list[dict[str, Any]]:
    """The player's games as the account page lists them."""
    rows = []
    for g in games:
        result = g.result or {}
        if g.finished_at is None:
            status = "playing"
        elif result.get("abandoned") or "winner" not in result:  # given up, or gone from it
            status = "abandoned"
        else:
            status = "won" if result.get("winner") == g.seat % 2 else "lost"
        totals = result.get("totals") or [0, 0]
        us, them = (totals[0], totals[1]) if g.seat % 2 == 0 else (totals[1], totals[0])
        rows.append(
            {
                "id": g.table_id,
                # one time per game: when it started while it goes on, when it ended after
                "date": _date(g.created_at if g.finished_at is None else g.finished_at),
                "profile": i18n.gettext(lang, f"profile.{g.profile}"),
                "level": i18n.gettext(lang, f"level.{g.level}") if g.level in LEVEL_KEYS else g.level,
                "target": g.target,
                "status": status,
                "score": i18n.gettext(lang, "accounts.games.score", us=us, them=them)
                if status in ("won", "lost")
                else "",
            }
        )
    return rows


LEVEL_KEYS = frozenset({"adaptive", "beginner", "confirmed", "expert"})


def _date(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M")


async def account_page(
    request: Request, lang: str, *, status: int = 200, notice: str | None = None, error: str | None = None
) -> Response:
    """The account page in ``lang``: a guest's (free deals, sign up, log in) or an account's
    (name, password, deletion), with the player's games in progress and finished."""
    player = player_of(request)
    games = game_rows(lang, await tables_of(request).games(player))
    if notice is None and request.query_params.get("done") in NOTICES:
        notice = i18n.gettext(lang, NOTICES[request.query_params["done"]])
    moderation: Moderation = request.app.state.moderation
    account = account_of(request)
    told = await moderation.notices(player) if account is not None else []
    recovery: AccountRecovery = request.app.state.recovery
    address, pending = await recovery.address(account) if account is not None else (None, None)
    return page(
        request,
        "account.html",
        status=status,
        lang=lang,
        other_url=ADDRESSES["en" if lang == "fr" else "fr"]["account"],
        playing=[g for g in games if g["status"] == "playing"],
        finished=[g for g in games if g["status"] != "playing"],
        free_left=await free_deals_of(request).left(player),
        free_deals=settings_of(request).free_deals,
        notice=notice,
        error=error,
        team_notices=[{"kind": a.kind, "text": i18n.render(lang, notice_of(a))} for a in told],
        team_role=await moderation.role(account),
        team_url=TEAM_HOME[lang],
        address=address,
        pending_address=pending,
        mail=recovery.mail_goes_out,
        open_data_named=await request.app.state.open_data.named(account.id) if account is not None else False,
    )


TEAM_HOME = {"fr": "/equipe", "en": "/team"}
"""The team's pages (``moderation_pages.PATHS``), linked from a team member's account page."""
NOTICES = {
    "password": "accounts.notice.password_changed",
    "abandoned": "accounts.notice.abandoned",
    "address": "recovery.notice.address_sent",
    "open_data": "open_data.notice.saved",
}


async def account(request: Request) -> Response:
    return await account_page(request, lang_of_path(request, "account")[0])


async def change_password(request: Request) -> Response:
    form = await read_checked_form(request)
    account = account_of(request)
    if account is None:
        raise HTTPException(403)
    lang = lang_of(request)
    try:
        new_token = await accounts_of(request).change_password(
            account, str(form.get("old") or ""), str(form.get("new") or ""), str(form.get("confirm") or "")
        )
    except AccountError as e:
        return await account_page(request, lang, status=400, error=i18n.gettext(lang, f"accounts.error.{e.code}"))
    response = RedirectResponse(f"{ADDRESSES[lang]['account']}?done=password", status_code=303)
    set_session_cookie(response, request, new_token, settings_of(request).session_days)
    return response


async def delete_account(request: Request) -> Response:
    form = await read_checked_form(request)
    account = account_of(request)
    if account is None:
        raise HTTPException(403)
    lang = lang_of(request)
    try:
        await account_life_of(request).delete(account, str(form.get("password") or ""))
    except AccountError as e:
        return await account_page(request, lang, status=400, error=i18n.gettext(lang, f"accounts.error.{e.code}"))
    request.scope.pop(ACCOUNT_KEY, None)  # the page that says so is a guest's (header: "Connexion")
    request.scope.pop(TOKEN_KEY, None)
    request.session.clear()
    response = page(request, "account_deleted.html")
    clear_session_cookie(response, request)
    return response


async def download_data(request: Request) -> Response:
    """Everything the site keeps about the logged-in person, as one ZIP
    (``personal_data``): a form of the account page (same origin, CSRF token), a few an
    hour per account (429 on the account page), the README in the language of the page
    it came from. A POST: no other site's page can have a browser fetch it."""
    form = await read_checked_form(request)
    account = account_of(request)
    if account is None:
        raise HTTPException(403)
    asked = form.get("lang")
    lang = asked if isinstance(asked, str) and asked in i18n.LANGUAGES else lang_of(request)
    retry = await limits_of(request).hit(settings_of(request).data_limit, f"data:{account.id}")
    if retry is not None:
        response = await account_page(request, lang, status=429, error=try_again(lang, retry))
        response.headers["Retry-After"] = str(retry)
        return response
    personal_data: PersonalData = request.app.state.personal_data
    archive = await personal_data.archive(account, lang)
    if archive is None:  # deleted meanwhile
        raise HTTPException(403)
    name = f"coinche-{DATA_FILE[lang]}-{datetime.now(UTC):%Y-%m-%d}.zip"
    return Response(
        archive,
        media_type="application/zip",
        headers={"Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "no-store"},
    )


DATA_FILE = {"fr": "donnees", "en": "data"}
"""The archive's file name's word (ASCII: ``coinche-donnees-2026-12-07.zip``)."""


async def abandon(request: Request) -> Response:
    """Give up a game in progress (``friends.give_up``): alone with computers, the game ends
    and leaves the list of games in progress (no longer counting against the limit of open
    tables); with other people, a computer plays the seat for the rest of the game. 404 for
    a game that is not the visitor's, or that they may no longer give up."""
    form = await read_checked_form(request)
    player = player_in_session(request)
    table_id = request.path_params["table_id"]
    if player is None or table_id not in await tables_of(request).games_in_progress(player):
        raise HTTPException(404)
    try:
        friends: Friends = request.app.state.friends
        await friends.give_up(table_id, player)
    except TableError:  # not seated any more, over, gone: nothing changed
        raise HTTPException(404) from None
    lang = lang_of(request)
    target = safe_next(form.get("next")) or f"{ADDRESSES[lang]['account']}?done=abandoned"
    return RedirectResponse(target, status_code=303)


routes: list[BaseRoute] = [
    *(Route(ADDRESSES[lang]["signup"], signup, methods=["GET", "POST"]) for lang in i18n.LANGUAGES),
    *(Route(ADDRESSES[lang]["login"], login, methods=["GET", "POST"]) for lang in i18n.LANGUAGES),
    *(Route(ADDRESSES[lang]["logout"], logout, methods=["POST"]) for lang in i18n.LANGUAGES),
    *(Route(ADDRESSES[lang]["account"], account) for lang in i18n.LANGUAGES),
    Route("/compte/mot-de-passe", change_password, methods=["POST"]),
    Route("/compte/supprimer", delete_account, methods=["POST"]),
    Route("/compte/donnees", download_data, methods=["POST"]),
    Route("/partie/{table_id}/abandonner", abandon, methods=["POST"]),
]
