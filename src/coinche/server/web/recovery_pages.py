"""The way back into an account (``features.account_recovery``): "Mot de passe oublié"
(``/mot-de-passe-oublie``, ``/forgot-password``), the reset link's page
(``/reinitialiser/{token}``, ``/reset-password/{token}``) and the address link's
(``/confirmer-adresse/{token}``, ``/confirm-address/{token}``: a button, not the link
itself, confirms: a mail reader that opens links ahead confirms nothing). Every form
carries its CSRF token; a refusal shows the page again with why, nothing changed."""

from __future__ import annotations

from typing import Any, Final

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from ..features.account_recovery import PATHS, AccountRecovery
from ..features.accounts import AccountError
from ..table import i18n
from .account_pages import account_page, address_of, lang_of_path, limits_of, logged_in, too_many, try_again
from .pages import ADDRESSES, account_of, lang_of, page, player_of, read_checked_form, settings_of

TOKEN_MAX: Final = 64
"""A link's token is 43 characters; anything longer is no token of ours."""


def recovery_of(request: Request) -> AccountRecovery:
    found: AccountRecovery = request.app.state.recovery
    return found


async def forgot(request: Request) -> Response:
    lang, other_url = lang_of_path(request, "forgot")
    recovery = recovery_of(request)
    context: dict[str, Any] = {"other_url": other_url, "mail": recovery.mail_goes_out, "values": {}}
    if request.method == "GET":
        player_of(request)  # the form's CSRF token needs the visitor's id
        return page(request, "forgot.html", lang=lang, **context)
    form = await read_checked_form(request)
    email = str(form.get("email") or "")[:300]
    context["values"] = {"email": email[:254]}
    retry = await limits_of(request).hit(settings_of(request).login_limit, f"forgot:{address_of(request)}")
    if retry is not None:
        return too_many(request, lang, retry, "forgot.html", **context)
    if not recovery.mail_goes_out:
        return page(request, "forgot.html", lang=lang, **context)
    try:
        recovery.ask_reset(email, lang)
    except AccountError as e:
        error = i18n.gettext(lang, f"accounts.error.{e.code}")
        return page(request, "forgot.html", status=400, lang=lang, error=error, **context)
    return page(request, "forgot.html", lang=lang, sent=True, **context)


def _lang_of_link(request: Request, kind: str) -> tuple[str, str]:
    lang = "en" if request.url.path.startswith(PATHS["en"][kind] + "/") else "fr"
    other = "fr" if lang == "en" else "en"
    return lang, f"{PATHS[other][kind]}/{request.path_params['token']}"


async def reset(request: Request) -> Response:
    lang, other_url = _lang_of_link(request, "reset")
    token = request.path_params["token"][:TOKEN_MAX]
    recovery = recovery_of(request)
    form = await read_checked_form(request) if request.method == "POST" else None
    context: dict[str, Any] = {"other_url": other_url, "action": f"{PATHS[lang]['reset']}/{token}"}
    if form is None:
        player_of(request)
        if not await recovery.reset_valid(token):
            error = i18n.gettext(lang, "accounts.error.link_invalid")
            return page(request, "reset_password.html", status=400, lang=lang, error=error, spent=True, **context)
        return page(request, "reset_password.html", lang=lang, **context)
    try:
        _, session = await recovery.reset(token, str(form.get("password") or ""), str(form.get("confirm") or ""))
    except AccountError as e:
        error = i18n.gettext(lang, f"accounts.error.{e.code}")
        spent = e.code == "link_invalid"
        return page(request, "reset_password.html", status=400, lang=lang, error=error, spent=spent, **context)
    return logged_in(request, f"{ADDRESSES[lang]['account']}?done=password", session)


async def confirm(request: Request) -> Response:
    lang, other_url = _lang_of_link(request, "confirm")
    token = request.path_params["token"][:TOKEN_MAX]
    context: dict[str, Any] = {"other_url": other_url, "action": f"{PATHS[lang]['confirm']}/{token}"}
    if request.method == "GET":
        player_of(request)
        return page(request, "confirm_address.html", lang=lang, **context)
    await read_checked_form(request)
    address = await recovery_of(request).confirm_address(token)
    if address is None:
        error = i18n.gettext(lang, "accounts.error.link_invalid")
        return page(request, "confirm_address.html", status=400, lang=lang, error=error, spent=True, **context)
    return page(request, "confirm_address.html", lang=lang, confirmed=address, **context)


async def set_address(request: Request) -> Response:
    """``POST /compte/adresse``: send a confirmation link to a new address (the account's
    password with it)."""
    form = await read_checked_form(request)
    account = account_of(request)
    if account is None:
        raise HTTPException(403)
    lang = lang_of(request)
    retry = await limits_of(request).hit(settings_of(request).login_limit, f"address:{account.id}")
    if retry is not None:
        return await account_page(request, lang, status=429, error=try_again(lang, retry))
    try:
        await recovery_of(request).set_address(
            account, str(form.get("email") or "")[:300], str(form.get("password") or ""), lang
        )
    except AccountError as e:
        return await account_page(request, lang, status=400, error=i18n.gettext(lang, f"accounts.error.{e.code}"))
    return RedirectResponse(f"{ADDRESSES[lang]['account']}?done=address", status_code=303)


routes: list[BaseRoute] = [
    Route("/compte/adresse", set_address, methods=["POST"]),
    *(Route(ADDRESSES[lang]["forgot"], forgot, methods=["GET", "POST"]) for lang in i18n.LANGUAGES),
    *(Route(PATHS[lang]["reset"] + "/{token}", reset, methods=["GET", "POST"]) for lang in i18n.LANGUAGES),
    *(Route(PATHS[lang]["confirm"] + "/{token}", confirm, methods=["GET", "POST"]) for lang in i18n.LANGUAGES),
]
