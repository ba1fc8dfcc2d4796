"""The pages of friends' tables: the form that makes one (``/amis``, ``/friends``), the
form that finds one by its code (``/rejoindre``), and a table's invitation
(``/rejoindre/CODE``): its seats, a name to give, a button to take each free seat.

Once seated, a person plays at ``/table/ID``: the seats, the host's controls and the game
itself come over the table's WebSocket (``table_socket``). Only the seats and the rules of
a table are ever shown here, never a card.
"""

from __future__ import annotations

from typing import Any, Final

from starlette.datastructures import FormData, UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route
from starlette.websockets import WebSocket

from ...engine.rules import OPTION_NAMES
from ..features import friends
from ..features.friends import Friends, clean_code, clean_person_name
from ..table import i18n
from ..table.kinds import invitation_code
from ..table.live_table import LiveTable, TableError
from ..table.lobby import FRIEND_LEVELS, seats_open
from ..table.seating import seat_positions
from .account_pages import accounts_of, address_of, lang_of_path, limits_of, rate_limited
from .pages import ADDRESSES, account_of, lang_of, page, player_of, read_checked_form
from .table_pages import rules_form_context, rules_from_form

FRIENDS_FIELDS: Final = frozenset(
    {"profile", "target", "csrf", "level_1", "level_2", "level_3", "late_joins", "public", "idle_clock", *OPTION_NAMES}
)
"""The fields the friends' table form may send."""
RULE_FIELDS: Final = frozenset({"profile", "target", "csrf", *OPTION_NAMES})
SEAT_ERRORS: Final = frozenset({"full", "seat_taken", "in_progress", "over", "bad_seat", "not_private", "club_only"})


def friends_of(request: Request | WebSocket) -> Friends:
    found: Friends = request.app.state.friends
    return found


async def new_table(request: Request) -> Response:
    """The form of a new friends' table (a signed-in player only), and making it."""
    lang, other_url = lang_of_path(request, "friends")
    account = account_of(request)
    if account is None:
        if request.method == "POST":
            raise HTTPException(403)
        target = ADDRESSES[lang]["login"] + "?next=" + ADDRESSES[lang]["friends"]
        return RedirectResponse(target, status_code=303)
    if request.method == "GET":
        return page(
            request, "friends_new.html", lang=lang, other_url=other_url, levels=FRIEND_LEVELS, **rules_form_context()
        )
    form = await read_checked_form(request)
    rules = rules_from_form(_rule_fields(form), RULE_FIELDS)
    levels = [str(form.get(f"level_{n}") or friends.DEFAULT_LEVEL) for n in (1, 2, 3)]
    late = form.get("late_joins")
    public = form.get("public")
    clock = form.get("idle_clock")
    if any(v not in (None, "on") for v in (late, public, clock)) or any(level not in FRIEND_LEVELS for level in levels):
        raise HTTPException(400)
    settings = request.app.state.settings
    retry = await limits_of(request).hit(settings.table_limit, f"tables:{account.player}")
    if retry is not None:
        return rate_limited(request, retry)
    try:
        spec = await friends_of(request).create_table(
            account.player,
            account.name,
            rules,
            levels,
            late_joins=late == "on",
            idle_clock=clock == "on" or public == "on",  # an open table keeps the clock
        )
    except TableError as e:
        if e.code == "too_many_tables":
            notice = i18n.gettext(lang, "accounts.notice.too_many_tables")
            return page(request, "forbidden.html", status=409, reason="too_many_tables", notice=notice)
        raise HTTPException(400) from None
    if public == "on":
        await request.app.state.open_tables.set_public(spec.id, account.player, True)
    return RedirectResponse(f"/table/{spec.id}", status_code=303)


def _rule_fields(form: FormData) -> FormData:
    """The form without the fields that are not rules (checked here, not by the rules)."""
    seen: set[str] = set()
    items: list[tuple[str, str | UploadFile]] = []
    for name, value in form.multi_items():
        if name not in FRIENDS_FIELDS or name in seen or not isinstance(value, str):
            raise HTTPException(400)
        seen.add(name)
        if name in RULE_FIELDS:
            items.append((name, value))
    return FormData(items)


async def join_form(request: Request) -> Response:
    """``/rejoindre``: the field "Code de la table"; a code sent goes to its invitation."""
    lang = lang_of(request)
    text = request.query_params.get("code")
    if text is None:
        return page(request, "friends_join.html")
    code = clean_code(text[:32])
    if code is None:
        error = i18n.gettext(lang, "friends.error.bad_code")
        return page(request, "friends_join.html", status=400, error=error, code=text[:32])
    return RedirectResponse(f"/rejoindre/{code}", status_code=303)


async def invitation(request: Request) -> Response:
    """``/rejoindre/CODE``: the table's seats and, for a newcomer, a name and a button to
    take each free seat; a seated player goes on to the table."""
    lang = lang_of(request)
    friends_here = friends_of(request)
    settings = request.app.state.settings
    retry = await limits_of(request).hit(settings.join_limit, f"join:{address_of(request)}")
    if retry is not None:
        return rate_limited(request, retry)
    form = await read_checked_form(request) if request.method == "POST" else None  # CSRF first
    code = clean_code(request.path_params["code"][:32])
    live = await friends_here.find(code) if code is not None else None
    if live is None:
        error = i18n.gettext(lang, "friends.error.no_table")
        return page(request, "friends_join.html", status=404, error=error, code=request.path_params["code"][:32])
    player = player_of(request)
    if live.seat_of(player) is not None and form is None:
        return RedirectResponse(f"/table/{live.id}", status_code=303)
    if form is None:
        return _invitation_page(request, live, lang)
    account = account_of(request)
    name = account.name if account is not None else clean_person_name(str(form.get("name") or "")[:200])
    if name is None:
        return _invitation_page(request, live, lang, 400, i18n.gettext(lang, "friends.error.name"), form)
    if account is None and await accounts_of(request).name_or_lookalike_taken(name):
        return _invitation_page(request, live, lang, 400, i18n.gettext(lang, "friends.error.account_name"), form)
    seat_text = str(form.get("seat") or "")
    if seat_text not in ("0", "1", "2", "3"):
        raise HTTPException(400)
    try:
        await friends_here.take_seat(live.id, player, name, int(seat_text), guest=account is None)
    except TableError as e:
        if e.code not in SEAT_ERRORS:
            raise HTTPException(400) from None
        live = (await friends_here.find(code) if code is not None else None) or live
        return _invitation_page(request, live, lang, 409, i18n.gettext(lang, f"friends.error.{e.code}"), form)
    if account is None:
        request.session["name"] = name  # offered again at the next invitation
    return RedirectResponse(f"/table/{live.id}", status_code=303)


async def accept_invitation(request: Request, code: str, seat: int | None) -> Response:
    """An invitation accepted (its table's ``code``, the ``seat`` offered): the person sits
    there, or at the first free seat, and goes on to the table; the invitation page with
    what went wrong (the table full, the game under way) otherwise."""
    account = account_of(request)
    assert account is not None
    lang = lang_of(request)
    friends_here = friends_of(request)
    live = await friends_here.find(code)
    if live is None:
        error = i18n.gettext(lang, "friends.error.no_table")
        return page(request, "friends_join.html", status=404, error=error, code=code)
    try:
        await friends_here.take_invited_seat(live.id, account.player, account.name, seat)
    except TableError as e:
        if e.code not in SEAT_ERRORS:
            raise HTTPException(400) from None
        live = await friends_here.find(code) or live
        return _invitation_page(request, live, lang, 409, i18n.gettext(lang, f"friends.error.{e.code}"))
    return RedirectResponse(f"/table/{live.id}", status_code=303)


def _invitation_page(
    request: Request, live: LiveTable, lang: str, status: int = 200, error: str | None = None, form: Any = None
) -> Response:
    spec = live.spec
    positions = seat_positions(spec.rules.direction, 0)
    seats = [
        {
            "seat": i,
            "position": positions[i],
            "kind": holder.kind,
            "name": holder.name,
            "level": holder.level,
            "host": holder.player is not None and holder.player == spec.kind.host,
            "guest": holder.guest,
        }
        for i, holder in enumerate(live.seats)
    ]
    name = str(form.get("name") or "")[:40] if form is not None else request.session.get("name", "")
    return page(
        request,
        "friends_invitation.html",
        status=status,
        code=invitation_code(spec.kind),
        profile=spec.rules.name,
        target=spec.rules.target,
        seats=seats,
        open=seats_open(live),
        full=all(holder.kind == "human" for holder in live.seats),
        started=live.started,
        over=live.game.is_over,
        person_name=name if isinstance(name, str) else "",
        error=error,
        name_max=friends.NAME_MAX,
    )


routes: list[BaseRoute] = [
    *(Route(ADDRESSES[lang]["friends"], new_table, methods=["GET", "POST"]) for lang in i18n.LANGUAGES),
    Route("/rejoindre", join_form),
    Route("/rejoindre/{code}", invitation, methods=["GET", "POST"]),
]
