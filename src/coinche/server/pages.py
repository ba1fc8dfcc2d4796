"""What every page of the site shares: the templates, the visitor's player id and language,
and ``page()``, which renders a template with the catalogue's ``t()`` in that language.

The feature modules (the table in ``app``, the deal review, the calculator, the rules
pages) each hold their own routes and import these helpers; ``app`` puts them together.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.templating import Jinja2Templates
from starlette.websockets import WebSocket

from . import i18n
from .store import new_id
from .tables import TableService

WEB = Path(__file__).resolve().parent.parent / "web"
TEMPLATES = Jinja2Templates(directory=str(WEB / "templates"))


ADDRESSES: dict[str, dict[str, str]] = {
    "fr": {"calculator": "/calculateur", "rules": "/regles"},
    "en": {"calculator": "/calculator", "rules": "/rules"},
}
"""The pages whose address says their language, in each language (the header links there)."""


def service_of(request: Request | WebSocket) -> TableService:
    service: TableService = request.app.state.service
    return service


def player_in_session(request: Request | WebSocket) -> str | None:
    """The visitor's player id in the signed session cookie, None if it has none (a guest
    is a player without an account; cookies of before players name it ``guest``)."""
    player = request.session.get("player") or request.session.get("guest")
    return player if isinstance(player, str) and player else None


def player_of(request: Request) -> str:
    """The visitor's player id, made on first visit (a guest's)."""
    player = player_in_session(request)
    if player is None:
        player = new_id(12)
        request.session["player"] = player
    return player


def lang_of(request: Request | WebSocket) -> str:
    return i18n.language(request.cookies.get("lang"))


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
            "lang": lang,
            "other_lang": other_lang,
            "language_switch": switch,
            "path": request.url.path,
            "addresses": ADDRESSES[lang],
            **context,
        },
        status_code=status,
    )
