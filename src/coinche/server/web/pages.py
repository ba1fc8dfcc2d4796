"""What every page of the site shares: the templates, who the visitor is (their account
through the session cookie, else a guest's player id), their language, the forms' CSRF
token, and ``page()``, which renders a template with the catalogue's ``t()`` in that
language.

The feature modules (the table in ``app``, the deal review, the calculator, the rules
pages) each hold their own routes and import these helpers; ``app`` puts them together.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from pathlib import Path
from typing import Any, Final
from urllib.parse import quote

from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import HTTPConnection, Request
from starlette.responses import HTMLResponse, Response
from starlette.templating import Jinja2Templates
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

from ..features.account_recovery import PATHS as RECOVERY_PATHS
from ..features.accounts import Account, AccountService, token_hash
from ..infra.config import Settings
from ..infra.store import new_id
from ..live.free_deals import FreeDeals
from ..live.parts import TableParts
from ..live.tables import Tables
from ..table import i18n
from ..table.days import club_clock
from .forms import MAX_FORM_BYTES, read_form
from .security import origin_allowed

WEB = Path(__file__).resolve().parents[2] / "web"
TEMPLATES = Jinja2Templates(directory=str(WEB / "templates"))


ADDRESSES: dict[str, dict[str, str]] = {
    "fr": {
        "calculator": "/calculateur",
        "rules": "/regles",
        "signup": "/inscription",
        "login": "/connexion",
        "forgot": "/mot-de-passe-oublie",
        "logout": "/deconnexion",
        "account": "/compte",
        "friends": "/amis",
        "verify": "/verifier",
        "replay": "/revoir",
        "challenge": "/defi",
        "history": "/historique",
        "profile": "/joueur",
        "quick": "/partie-rapide",
        "open_tables": "/tables-ouvertes",
        "contacts": "/mes-amis",
        "tournaments": "/tournois",
        "tournament": "/tournoi",
        "new_tournament": "/tournois/nouveau",
        "bots": "/robots",
        "ladder": "/echelle",
        "puzzles": "/problemes",
        "learn": "/apprendre",
        "leaderboard": "/classement",
        "mistakes": "/mes-erreurs",
        "progress": "/progres",
        "season": "/saison",
        "open_data": "/donnees-ouvertes",
    },
    "en": {
        "calculator": "/calculator",
        "rules": "/rules",
        "signup": "/signup",
        "login": "/login",
        "forgot": "/forgot-password",
        "logout": "/logout",
        "account": "/account",
        "friends": "/friends",
        "verify": "/verify",
        "replay": "/replay",
        "challenge": "/challenge",
        "history": "/history",
        "profile": "/player",
        "quick": "/quick-game",
        "open_tables": "/open-tables",
        "contacts": "/my-friends",
        "tournaments": "/tournaments",
        "tournament": "/tournament",
        "new_tournament": "/tournaments/new",
        "bots": "/bots",
        "ladder": "/ladder",
        "puzzles": "/puzzles",
        "learn": "/learn",
        "leaderboard": "/leaderboard",
        "mistakes": "/my-mistakes",
        "progress": "/progress",
        "season": "/season",
        "open_data": "/open-data",
    },
}
"""The pages whose address says their language, in each language (the header links there)."""


def parts_of(request: Request | WebSocket) -> TableParts:
    parts: TableParts = request.app.state.parts
    return parts


def tables_of(request: Request | WebSocket) -> Tables:
    """The live tables: made, read, and what players ask of them."""
    tables: Tables = request.app.state.tables
    return tables


def free_deals_of(request: Request | WebSocket) -> FreeDeals:
    """The guests' free deals."""
    free_deals: FreeDeals = request.app.state.free_deals
    return free_deals


def settings_of(request: Request | WebSocket) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


SESSION_COOKIE = "sid"
"""The cookie of a logged-in browser: a random token (see ``accounts``)."""
ACCOUNT_KEY = "coinche.account"
TOKEN_KEY = "coinche.session"


GUEST_KEYS = ("player", "guest")
"""Where the signed ``session`` cookie names a guest's player (``guest``: cookies of before)."""


UNSEEN_PATHS: Final = ("/static/", "/api/bot/", "/avatar/")
"""Addresses whose visitor is never looked up (no page of theirs depends on it)."""


class VisitorMiddleware:
    """ASGI middleware: finds the account of the request's session cookie, else checks that
    the guest the signed ``session`` cookie names is still one (one database read, off the
    loop), for the pages and the table socket; static files, the avatars and the bot API
    (which reads a token, never a cookie) skip it.

    A guest who signed up or logged in to an account is retired (``PlayerRow.retired_at``,
    shared by every process): a copy of their cookie is dropped here, so the request is a new
    guest's, who gets a new player id and nothing of the account's."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and not scope["path"].startswith(UNSEEN_PATHS):
            token = HTTPConnection(scope).cookies.get(SESSION_COOKIE)
            accounts: AccountService | None = getattr(scope["app"].state, "accounts", None)
            account = await accounts.session_account(token) if token and accounts is not None else None
            if account is not None:
                scope[ACCOUNT_KEY] = account
                scope[TOKEN_KEY] = token
            elif accounts is not None:
                await _drop_retired_guest(scope, accounts)
        await self.app(scope, receive, send)


async def _drop_retired_guest(scope: Scope, accounts: AccountService) -> None:
    """Forget the session's guest if it is retired (or not a string id at all)."""
    session = scope.get("session")
    if not isinstance(session, dict):
        return
    for key in GUEST_KEYS:
        guest = session.get(key)
        if guest is not None and (not isinstance(guest, str) or await accounts.guest_retired(guest)):
            del session[key]


def account_of(request: HTTPConnection) -> Account | None:
    """The account the visitor is logged in to, None for a guest."""
    account = request.scope.get(ACCOUNT_KEY)
    return account if isinstance(account, Account) else None


def session_token(request: HTTPConnection) -> str | None:
    """The visitor's live session token (None for a guest)."""
    token = request.scope.get(TOKEN_KEY)
    return token if isinstance(token, str) else None


def player_in_session(request: HTTPConnection) -> str | None:
    """The visitor's player: their account's, else the guest's id in the signed session
    cookie (cookies of before players name it ``guest``); None if they have none."""
    account = account_of(request)
    if account is not None:
        return account.player
    return guest_in_session(request)


def guest_in_session(request: HTTPConnection) -> str | None:
    """The guest's player id of the signed ``session`` cookie (a retired guest's is dropped
    by ``VisitorMiddleware``), whether or not an account is logged in too."""
    player = request.session.get("player") or request.session.get("guest")
    return player if isinstance(player, str) and player else None


def player_of(request: Request) -> str:
    """The visitor's player id, made on first visit (a guest's)."""
    player = player_in_session(request)
    if player is None:
        player = new_id(12)
        request.session["player"] = player
    return player


def csrf_token(request: Request) -> str:
    """The token every form of the visitor's pages carries (field ``csrf``): an HMAC of
    their session (the logged-in session, else the guest's id) with the site's key. It
    stays the same for the whole session (a page restored by Back still sends a good one)
    and no other site can know it."""
    token = session_token(request)
    identity = f"session:{token_hash(token)}" if token is not None else f"guest:{player_of(request)}"
    secret: str = request.app.state.secret
    digest = hmac.new(secret.encode(), identity.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


def csrf_ok(request: Request, sent: object) -> bool:
    return isinstance(sent, str) and hmac.compare_digest(sent.encode(), csrf_token(request).encode())


async def read_checked_form(request: Request, max_bytes: int = MAX_FORM_BYTES, files: bool = False) -> FormData:
    """A posted form that changes something: from a page of this site (``Origin``, when the
    browser sends one) and carrying the visitor's CSRF token, else 403; then read strictly
    (``forms.read_form``: at most ``max_bytes``, file parts only with ``files``)."""
    settings = request.app.state.settings
    if not origin_allowed(request.scope, settings.allowed_origins):
        raise HTTPException(403)
    form = await read_form(request, max_bytes, files=files)
    if not csrf_ok(request, form.get("csrf")):
        raise HTTPException(403)
    return form


def set_session_cookie(response: Response, request: Request, token: str, days: int) -> None:
    """Log the browser in: HttpOnly (no script reads it), SameSite=Lax (no other site's
    form sends it), Secure when the site is served over HTTPS (a proxy's
    ``X-Forwarded-Proto`` counts: uvicorn reads it from a trusted proxy)."""
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=days * 24 * 3600,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
        path="/",
    )


def clear_session_cookie(response: Response, request: Request) -> None:
    response.delete_cookie(
        SESSION_COOKIE, httponly=True, samesite="lax", secure=request.url.scheme == "https", path="/"
    )


def lang_of(request: Request | WebSocket) -> str:
    return i18n.language(request.cookies.get("lang"))


for _lang, _paths in RECOVERY_PATHS.items():  # the links the site mails: the feature's to say
    ADDRESSES[_lang]["reset_password"] = _paths["reset"]
    ADDRESSES[_lang]["confirm_address"] = _paths["confirm"]

_FIRST_PARTS: Final = {
    lang: frozenset({lang} | {address.split("/")[1] for address in ADDRESSES[lang].values()}) for lang in i18n.LANGUAGES
}
"""The first part of the addresses that say their language (``/en``, ``/puzzles/...``)."""


def address_language(path: str) -> str | None:
    """The language an address says (``/en/...``, ``/puzzles/...`` English; ``/problemes/...``
    French), None for one both languages share (``/table/...``): what a page about that
    address, such as its 404, is said in."""
    first = path.split("/")[1] if path.startswith("/") else ""
    found = [lang for lang, parts in _FIRST_PARTS.items() if first in parts]
    return found[0] if len(found) == 1 else None


def lang_of_address(request: Request) -> str:
    """The language the address says, else the visitor's (``lang_of``)."""
    return address_language(request.url.path) or lang_of(request)


def page(
    request: Request,
    name: str,
    status: int = 200,
    *,
    lang: str | None = None,
    other_url: str | None = None,
    **context: Any,
) -> HTMLResponse:
    """``name`` rendered in the visitor's language, or in ``lang`` for a page whose address
    says its language (``/calculateur``, ``/calculator``): ``other_url`` is then the same
    page in the other language, where the header's language link leads."""
    lang = lang or lang_of(request)
    other_lang = "en" if lang == "fr" else "fr"

    def t(key: str, **params: object) -> str:
        return i18n.gettext(lang, key, **params)

    switch = f"/langue/{other_lang}?next={quote(other_url or request.url.path)}"
    return TEMPLATES.TemplateResponse(
        request,
        name,
        {
            "t": t,
            # plural entries: tn("key", count, ...) picks the form for count (ngettext)
            "tn": lambda key, count, **params: i18n.ngettext(lang, key, count, **params),
            # numbers as the language writes them: num(2.5) is "2,5" in French
            "num": lambda value, decimals=None: i18n.number(
                lang, value, (1 if value % 1 else 0) if decimals is None else decimals
            ),
            "lang": lang,
            "other_lang": other_lang,
            "language_switch": switch,
            "path": request.url.path,
            "addresses": ADDRESSES[lang],
            "account": account_of(request),
            "csrf": lambda: csrf_token(request),
            "local": club_clock,
            **context,
        },
        status_code=status,
    )
