"""The pages of play: home (the solo form), a new solo table, the table's page, the
account page and the language switch. The live table itself is the WebSocket of
``table_socket``."""

from __future__ import annotations

import json
from typing import Any, Final

from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute

from ...engine.rules import OPTION_CHOICES, OPTION_NAMES, PROFILES, TARGET_RANGE, RulesError, RuleSet
from ...engine.text import is_number, parse_number
from ..features.coach import Coach
from ..features.following import REASONS
from ..features.friends import EMOTES, PHRASES
from ..live.tables import LEVELS
from ..table import i18n
from ..table.kinds import invitation_code
from ..table.live_table import TableError
from ..table.lobby import FRIEND_LEVELS
from . import rules_pages
from .account_pages import account_page, address_of, limits_of, rate_limited
from .kind_words import part_of_link
from .open_tables_pages import open_tables_of
from .pages import (
    ADDRESSES,
    account_of,
    free_deals_of,
    lang_of,
    page,
    player_in_session,
    player_of,
    read_checked_form,
    settings_of,
    tables_of,
)
from .people_pages import home_people
from .puzzle_pages import puzzles_of
from .table_socket import table_socket

SOLO_FIELDS: Final = frozenset({"profile", "target", "level", "csrf", "coach", *OPTION_NAMES})
"""The fields the solo form may send (``csrf``: the session's form token, checked elsewhere;
``coach=1``: switch the person's coach on, as the guided first deal's last page does); any
other name is refused."""
NOT_KEPT: Final = frozenset({"csrf", "coach"})
"""Fields of the solo form that are not settings of the next solo table."""


def option_text(value: Any) -> str:
    """How the solo form writes an option's value: ``true``/``false``, ``180``, ``forced``."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def _value_key(name: str, value: Any) -> str:
    """The catalogue key of an option value's words (``home.value.yes``, ``home.value.rounding.house``)."""
    if isinstance(value, bool):
        return "home.value.yes" if value else "home.value.no"
    return f"home.value.{name}.{value}"


def _solo_options() -> list[dict[str, Any]]:
    """The form's "more options": each option with its choices (value, words key) and each
    profile's default (its words key)."""
    return [
        {
            "name": name,
            "choices": [(option_text(c), _value_key(name, c)) for c in choices],
            "defaults": {p: _value_key(name, getattr(rules, name)) for p, rules in PROFILES.items()},
        }
        for name, choices in OPTION_CHOICES.items()
    ]


def rules_form_context() -> dict[str, Any]:
    """What ``_rules_fields.html`` needs: the profiles, the options, the target's range."""
    return {
        "profiles": [{"name": name, "default": PROFILES[name].target} for name in PROFILES],
        "options": _solo_options(),
        "target_min": TARGET_RANGE.start,
        "target_max": TARGET_RANGE.stop - 1,
    }


SOLO_KEPT: Final = "solo"
"""The session's key of the last solo form's settings (the home page's "Jouer" plays them)."""
DEFAULT_SOLO: Final = {"profile": "classic", "target": str(PROFILES["classic"].target), "level": "adaptive"}


def remembered_solo(request: Request) -> dict[str, str]:
    """The solo settings the visitor played last (checked again: a session is a cookie),
    else the defaults."""
    kept = request.session.get(SOLO_KEPT)
    if not isinstance(kept, dict) or not all(
        isinstance(k, str) and k in SOLO_FIELDS and k not in NOT_KEPT and isinstance(v, str) and len(v) <= 16
        for k, v in kept.items()
    ):
        return dict(DEFAULT_SOLO)
    try:
        rules_from_form(FormData(list(kept.items())))
    except HTTPException:
        return dict(DEFAULT_SOLO)
    if kept.get("level", "adaptive") not in LEVELS:
        return dict(DEFAULT_SOLO)
    return {**DEFAULT_SOLO, **kept}


async def home(request: Request) -> Response:
    player = player_of(request)
    playing = await tables_of(request).games_in_progress(player)
    solo_settings = remembered_solo(request)
    return page(
        request,
        "home.html",
        **rules_form_context(),
        levels=LEVELS,
        free_deals_left=await free_deals_of(request).left(player),
        resume=playing[0] if playing else None,
        solo=solo_settings,
        friend_defaults={"profile": "classic", "target": str(PROFILES["classic"].target)},
        puzzles_offered=await puzzles_of(request).offered(),
        **await home_people(request),
    )


async def solo_settings_page(request: Request) -> Response:
    """``GET /solo``: the solo settings (rules, target, options, level), as last played."""
    player = player_of(request)
    return page(
        request,
        "solo.html",
        **rules_form_context(),
        levels=LEVELS,
        free_deals_left=await free_deals_of(request).left(player),
        solo=remembered_solo(request),
    )


def rules_from_form(form: FormData, fields: frozenset[str] = SOLO_FIELDS) -> RuleSet:
    """The rules a new table's form asks for, every field checked: a field not in
    ``fields``, a field sent twice or a value out of its choices is refused (400), never
    replaced by a default. An option sent empty (the form's "as the rules say") keeps the
    profile's value."""
    seen: set[str] = set()
    for name, value in form.multi_items():
        if name not in fields or name in seen or not isinstance(value, str):
            raise HTTPException(400)
        seen.add(name)
    profile = str(form.get("profile") or "classic")
    if profile not in PROFILES:
        raise HTTPException(400)
    text = str(form.get("target") or PROFILES[profile].target)
    target = parse_number(text) if is_number(text) else None  # digits only, no spaces
    if target is None or target not in TARGET_RANGE:
        raise HTTPException(400)
    options: dict[str, Any] = {"target": target}
    for name, choices in OPTION_CHOICES.items():
        chosen = str(form.get(name) or "")
        if not chosen:
            continue
        values = {option_text(c): c for c in choices}
        if chosen not in values:
            raise HTTPException(400)
        options[name] = values[chosen]
    try:
        return RuleSet.profile(profile, **options)
    except RulesError:  # pragma: no cover - every value was one of its choices
        raise HTTPException(400) from None


async def solo(request: Request) -> Response:
    form = await read_checked_form(request)
    player = player_of(request)
    rules = rules_from_form(form)
    level = str(form.get("level") or "adaptive")
    if level not in LEVELS:
        raise HTTPException(400)
    coach = str(form.get("coach") or "")
    if coach not in ("", "0", "1"):
        raise HTTPException(400)
    lang = lang_of(request)
    settings = settings_of(request)
    limits = limits_of(request)
    retry = await limits.hit(settings.table_limit, f"tables:{player}") or await limits.hit(
        settings.table_limit_per_address, f"tables:{address_of(request)}"
    )
    if retry is not None:
        return rate_limited(request, retry)
    request.session[SOLO_KEPT] = {
        k: v for k, v in form.items() if k not in NOT_KEPT and isinstance(v, str) and v and k in SOLO_FIELDS
    }
    if coach == "1":
        await coach_of(request).switch(player, True)
    try:
        spec = await tables_of(request).create_solo(player, rules, level)
    except TableError as e:
        if e.code == "limit":
            return RedirectResponse(f"{ADDRESSES[lang]['signup']}?next=/", status_code=303)
        if e.code == "too_many_tables":
            notice = i18n.gettext(lang, "accounts.notice.too_many_tables")
            return await account_page(request, lang, status=409, error=notice)
        raise HTTPException(400) from None
    return RedirectResponse(f"/table/{spec.id}", status_code=303)


async def table_page(request: Request) -> Response:
    player = player_in_session(request)
    live = await tables_of(request).opened(request.path_params["table_id"]) if player is not None else None
    if live is None or player is None or live.seat_of(player) is None:
        raise HTTPException(404)
    lang = lang_of(request)
    friends = live.spec.kind.several_people
    listed = await open_tables_of(request).get(live.id) if invitation_code(live.spec.kind) is not None else None
    public = listed is not None
    coach = live.spec.kind.allows_hints
    coach_on = coach and await coach_of(request).switched_on(player)
    words = i18n.js_catalogue(lang)
    if not friends:  # the friends' table's words go with its module, which a solo table never loads
        words = {key: text for key, text in words.items() if not key.startswith("js.friends.")}
    return page(
        request,
        "table.html",
        table_id=live.id,
        profile=live.spec.rules.name,
        rules_url=rules_pages.rules_url(lang, live.spec.rules.name),
        catalogue=json.dumps(words, ensure_ascii=False),
        friends=friends,
        public=public,
        you_host=invitation_code(live.spec.kind) is not None and live.spec.kind.host == player,
        can_invite=invitation_code(live.spec.kind) is not None and account_of(request) is not None,
        notice=request.session.pop("table_notice", None),
        report_reasons=REASONS,
        watchable=listed.watchable if listed is not None else None,
        bots_welcome=listed.bots if listed is not None else None,
        phrases=PHRASES,
        emotes=EMOTES,
        friend_levels=FRIEND_LEVELS,
        trick_hold_ms=round(settings_of(request).trick_pause * 1000),
        deal_accuracy=settings_of(request).deal_accuracy,
        part_of=await part_of_link(request, lang, live.spec.kind),
        coach=coach,
        coach_on=coach_on,
    )


def _in_language(lang: str, target: str) -> Response:
    """Go to ``target`` with the site in ``lang`` from now on (the ``lang`` cookie)."""
    response = RedirectResponse(target, status_code=303)
    response.set_cookie("lang", lang, max_age=365 * 24 * 3600, samesite="lax")
    return response


def coach_of(request: Request) -> Coach:
    """The coach of the first deals (``features/coach``)."""
    coach: Coach = request.app.state.coach
    return coach


async def switch_language(request: Request) -> Response:
    lang = request.path_params["lang"]
    if lang not in i18n.LANGUAGES:
        raise HTTPException(404)
    target = request.query_params.get("next", "/")
    if not target.startswith("/") or target.startswith("//"):
        target = "/"
    return _in_language(lang, target)


async def home_in_language(request: Request) -> Response:
    """``/en``, ``/fr``: the home page in that language (the address people type or share)."""
    return _in_language(request.url.path.strip("/"), "/")


routes: list[BaseRoute] = [
    Route("/", home),
    Route("/solo", solo, methods=["POST"]),
    Route("/solo", solo_settings_page),
    Route("/table/{table_id}", table_page),
    Route("/langue/{lang}", switch_language),
    *(Route(f"/{lang}", home_in_language) for lang in i18n.LANGUAGES),
    WebSocketRoute("/ws/table/{table_id}", table_socket),
]
