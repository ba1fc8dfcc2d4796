"""The web application (Starlette): the pages and the table's WebSocket.

It only talks to the table service (``tables.TableService``): it turns requests into
service calls and the service's state into each seat's messages (docs/protocol.md). Pages
come from the front end's templates and static files (``coinche/web``); every text is
looked up in the catalogues of ``i18n`` in the visitor's language.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any

from starlette.applications import Starlette
from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from ..bots.adaptive import KNOB_LEVELS, level_span
from ..engine.actions import DECLARE_BASE, Action, call_str, card_of, is_announce, is_card, is_declaration
from ..engine.cards import card_str
from ..engine.deal import View
from ..engine.errors import EngineError, short_repr
from ..engine.rules import PROFILES, RuleSet
from ..engine.text import is_number, parse_number
from ..engine.wire import WireError, action_from_json, action_to_json, game_view_to_json
from . import calculator_page, i18n, review_pages, rules_pages
from .bot_pool import BotPool
from .config import Settings
from .pages import WEB, guest_of, lang_of, page, service_of
from .store import Store
from .tables import LEVELS, TARGETS, Event, LiveTable, TableError, TableService

log = logging.getLogger("coinche.web")


SEAT_POSITIONS = {"anticlockwise": ("south", "east", "north", "west"), "clockwise": ("south", "west", "north", "east")}
"""Where each seat sits seen from the player (0 = the player, then in playing order): the
next player sits on the player's right when play goes anticlockwise."""


def create_app(settings: Settings | None = None) -> Starlette:
    """The application, its database migrated and its secret key loaded."""
    from starlette.requests import ClientDisconnect

    from .forms import client_left
    from .security import SecurityHeaders, secured

    settings = settings or Settings()
    store = Store(settings.database_url)
    secret = settings.secret_key or store.secret_key()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        pool = BotPool(settings.bot_workers)
        await asyncio.get_running_loop().run_in_executor(None, pool.warm_up)
        service = TableService(store, pool, settings)
        app.state.service = service
        try:
            yield
        finally:
            await service.close()
            pool.close()
            store.close()

    routes = [
        Route("/", home),
        Route("/solo", solo, methods=["POST"]),
        Route("/table/{table_id}", table_page),
        Route("/compte", account),
        Route("/langue/{lang}", switch_language),
        WebSocketRoute("/ws/table/{table_id}", table_socket),
        *calculator_page.routes,
        *review_pages.routes,
        *rules_pages.routes,
        Mount("/static", StaticFiles(directory=str(WEB / "static")), name="static"),
    ]
    app = Starlette(
        routes=routes,
        middleware=[
            Middleware(SecurityHeaders),
            Middleware(SessionMiddleware, secret_key=secret, same_site="lax", max_age=365 * 24 * 3600),
        ],
        exception_handlers={HTTPException: http_error, ClientDisconnect: client_left, Exception: secured(server_error)},
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.store = store
    return app


# ----- errors -----


async def http_error(request: Request, exc: Exception) -> Response:
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    if status == 404:
        return page(request, "404.html", status=404)
    return page(request, "error.html", status=status, status_code=status)


async def server_error(request: Request, exc: Exception) -> Response:
    log.exception("%s %s failed", request.method, request.url.path, exc_info=exc)
    return page(request, "error.html", status=500, status_code=500)


# ----- pages -----


async def home(request: Request) -> Response:
    guest = guest_of(request)
    profiles = [
        {
            "name": name,
            "targets": TARGETS[name],
            "default": PROFILES[name].target,
            "sa_ta_option": not PROFILES[name].sa_ta,
        }
        for name in PROFILES
    ]
    return page(
        request,
        "home.html",
        profiles=profiles,
        levels=LEVELS,
        free_deals_left=service_of(request).free_deals_left(guest),
    )


def _solo_rules(form: FormData) -> RuleSet:
    profile = str(form.get("profile") or "classic")
    if profile not in PROFILES:
        raise HTTPException(400)
    text = str(form.get("target") or PROFILES[profile].target)
    target = parse_number(text) if is_number(text) else None  # digits only, no spaces
    if target not in TARGETS[profile]:
        raise HTTPException(400)
    options: dict[str, Any] = {"target": target}
    if not PROFILES[profile].sa_ta and form.get("sa_ta") == "on":
        options["sa_ta"] = True
    return RuleSet.profile(profile, **options)


async def solo(request: Request) -> Response:
    from .forms import read_form  # strict: a body that is no form is a 400, not the defaults

    guest = guest_of(request)
    form = await read_form(request)
    rules = _solo_rules(form)
    level = str(form.get("level") or "adaptive")
    if level not in LEVELS:
        raise HTTPException(400)
    try:
        spec = service_of(request).create_solo(guest, rules, level)
    except TableError as e:
        if e.code == "limit":
            return RedirectResponse("/compte", status_code=303)
        raise HTTPException(400) from None
    return RedirectResponse(f"/table/{spec.id}", status_code=303)


async def table_page(request: Request) -> Response:
    guest = guest_of(request)
    live = service_of(request).get(request.path_params["table_id"])
    if live is None or live.spec.seat_of(guest) is None:
        raise HTTPException(404)
    lang = lang_of(request)
    return page(
        request,
        "table.html",
        table_id=live.id,
        profile=live.spec.rules.name,
        rules_url=rules_pages.rules_url(lang, live.spec.rules.name),
        catalogue=json.dumps(i18n.js_catalogue(lang), ensure_ascii=False),
    )


async def account(request: Request) -> Response:
    guest_of(request)
    return page(request, "account.html", free_deals=request.app.state.settings.free_deals)


async def switch_language(request: Request) -> Response:
    lang = request.path_params["lang"]
    if lang not in i18n.LANGUAGES:
        raise HTTPException(404)
    target = request.query_params.get("next", "/")
    if not target.startswith("/") or target.startswith("//"):
        target = "/"
    response = RedirectResponse(target, status_code=303)
    response.set_cookie("lang", lang, max_age=365 * 24 * 3600, samesite="lax")
    return response


# ----- the table's messages -----


def seat_name(lang: str, live: LiveTable, viewer: int, seat: int) -> str:
    positions = SEAT_POSITIONS[live.spec.rules.direction]
    return i18n.gettext(lang, f"seat.{positions[(seat - viewer) & 3]}")


def level_label(lang: str, live: LiveTable) -> str:
    level = live.adaptive_level
    if level is None:
        return i18n.gettext(lang, f"level.{live.spec.level}")
    names = [i18n.gettext(lang, f"level.{KNOB_LEVELS[i]}") for i in level_span(level)]
    shown = names[0] if len(names) == 1 else i18n.gettext(lang, "level.between", low=names[0], high=names[1])
    return i18n.gettext(lang, "level.adaptive_label", percent=round(level * 100), names=shown)


def action_sentence(lang: str, live: LiveTable, viewer: int, seat: int, action: Action) -> str:
    """What the live region says of an action: ``Est joue le Dix de pique``."""
    who = seat_name(lang, live, viewer, seat)
    if is_card(action):
        key = "live.card_belote" if is_announce(action) else "live.card"
        return i18n.gettext(lang, key, seat=who, card=i18n.card_with_article(lang, card_str(card_of(action))))
    if is_declaration(action):
        return ""
    return i18n.gettext(lang, "live.call", seat=who, call=i18n.call_name(lang, call_str(action)))


def last_action(lang: str, live: LiveTable, view: View, event: Event | None) -> dict[str, Any] | None:
    """The action that made this state, as ``view.seat`` may see it."""
    if event is None or event.seat is None or event.action is None:
        return None
    action = event.action
    viewer = view.seat
    record: dict[str, Any]
    if is_declaration(action):
        # Which choice another seat took would tell that it holds melds (a seat without
        # any has one choice only): only the seat itself learns it; melds show when shown.
        record = {"declare": action - DECLARE_BASE if event.seat == viewer else None}
    else:
        record = action_to_json(action, view)
    return {"seat": event.seat, "action": record, "text": action_sentence(lang, live, viewer, event.seat, action)}


def state_message(live: LiveTable, seat: int, lang: str, service: TableService) -> dict[str, Any]:
    """The ``state`` message for ``seat`` (docs/protocol.md): only that seat's view."""
    game = live.game
    view = game.view(seat)
    deal_view = view.deal
    guest = live.spec.seats[seat].guest
    free_left = service.free_deals_left(guest) if guest is not None else None
    result = deal_view.result
    return {
        "type": "state",
        "table": {
            "id": live.id,
            "profile": live.spec.rules.name,
            "options": live.spec.rules.options(),
            "direction": live.spec.rules.direction,
            "you": seat,
            "seats": [
                {"seat": i, "kind": s.kind, **({"level": s.level} if s.kind == "bot" else {})}
                for i, s in enumerate(live.spec.seats)
            ],
            "seat_names": [seat_name(lang, live, seat, i) for i in range(4)],
            "level": live.spec.level,
            "level_label": level_label(lang, live),
            "free_deals_left": free_left,
        },
        "game": game_view_to_json(view),
        "last": last_action(lang, live, deal_view, live.last),
        "awaiting_next_deal": game.awaiting_deal and not game.is_over,
        "result_lines": [i18n.render(lang, m) for m in result.lines] if result is not None else [],
        "can_continue": free_left is None or free_left > 0,
    }


def error_message(lang: str, code: str, detail: str = "", error: TableError | None = None) -> dict[str, Any]:
    if error is not None and error.message is not None:
        text = i18n.render(lang, error.message)
    else:
        text = i18n.gettext(lang, f"error.{code}", detail=detail)
    out: dict[str, Any] = {"type": "error", "code": code, "message": text}
    if error is not None and error.rule is not None:
        out["rule"] = error.rule
    return out


async def table_socket(websocket: WebSocket) -> None:
    service = service_of(websocket)
    settings: Settings = websocket.app.state.settings
    guest = websocket.session.get("guest")
    live = service.get(websocket.path_params["table_id"])
    seat = live.spec.seat_of(guest) if live is not None and isinstance(guest, str) else None
    if live is None or seat is None:
        await websocket.close(code=4404)
        return
    await websocket.accept()
    lang = lang_of(websocket)
    queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    def listener(table: LiveTable, _event: Event) -> None:
        queue.put_nowait(state_message(table, seat, lang, service))

    async def sender() -> None:
        while True:
            message = await queue.get()
            if websocket.application_state is not WebSocketState.CONNECTED:
                return
            await websocket.send_text(json.dumps(message, ensure_ascii=False))

    async with live.lock:
        token = service.listen(live, listener)
        queue.put_nowait(state_message(live, seat, lang, service))
    sending = asyncio.get_running_loop().create_task(sender())
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            reply = await handle_message(service, settings, live, seat, lang, message)
            if reply is not None:
                queue.put_nowait(reply)
    except WebSocketDisconnect:
        pass
    except Exception:
        # A fault of the server: the log gets the traceback, the player only sees the
        # connection close (1011); a page that connects again gets the table's state.
        log.exception("table %s seat %s: the connection failed", live.id, seat)
        with contextlib.suppress(Exception):
            await websocket.close(code=1011)
    finally:
        service.unlisten(live, token)
        sending.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sending


async def handle_message(
    service: TableService, settings: Settings, live: LiveTable, seat: int, lang: str, message: Mapping[str, Any]
) -> dict[str, Any] | None:
    """One client message; the reply to send (an error or a hint), None when the change
    itself is the answer (every listener gets the new state)."""
    text = message.get("text")
    if text is None:
        data = message.get("bytes") or b""
        if len(data) > settings.max_message_bytes:
            return _refuse(live, seat, lang, "too_large")
        return _refuse(live, seat, lang, "malformed", "binary frame")
    if len(text) > settings.max_message_bytes or len(text.encode("utf-8", "replace")) > settings.max_message_bytes:
        return _refuse(live, seat, lang, "too_large")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: nested too deeply
        return _refuse(live, seat, lang, "malformed", "not JSON")
    if not isinstance(data, dict):
        return _refuse(live, seat, lang, "malformed", "not an object")
    kind = data.get("type")
    handlers: dict[str, Callable[[], Any]] = {
        "action": lambda: _act(service, live, seat, data.get("action")),
        "next_deal": lambda: service.next_deal(live, seat),
        "hint": lambda: _hint(service, live, seat, lang),
    }
    handler = handlers.get(kind) if isinstance(kind, str) else None
    if handler is None:
        return _refuse(live, seat, lang, "malformed", f"unknown type {short_repr(kind)}")
    try:
        result: dict[str, Any] | None = await handler()
    except TableError as e:
        return _refuse(live, seat, lang, e.code, error=e)
    except (WireError, EngineError) as e:
        return _refuse(live, seat, lang, "malformed", short_repr(str(e), 120))
    return result


async def _act(service: TableService, live: LiveTable, seat: int, record: Any) -> None:
    action = action_from_json(record)
    await service.act(live, seat, action)


async def _hint(service: TableService, live: LiveTable, seat: int, lang: str) -> dict[str, Any]:
    decision = await service.hint(live, seat)
    deal = live.game.current
    assert deal is not None
    if decision.reason is not None:  # the reason in the player's language
        text = i18n.render(lang, decision.reason)
    else:
        text = decision.full_explanation or action_sentence(lang, live, seat, seat, decision.action)
    return {"type": "hint", "action": action_to_json(decision.action, deal.view(seat)), "text": text}


def _refuse(
    live: LiveTable, seat: int, lang: str, code: str, detail: str = "", error: TableError | None = None
) -> dict[str, Any]:
    log.warning("table %s seat %s: refused (%s) %s", live.id, seat, code, (error and str(error)) or detail)
    return error_message(lang, code, detail, error)
