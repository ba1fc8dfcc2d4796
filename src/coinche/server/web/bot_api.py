"""The bot API (``docs/bot-api.md``): programs play on the site with a bot account's
token, as Lichess's Bot API lets them play chess. This module holds its requests; the
event stream a bot reads is ``bot_stream.py``.

The POSTs act, each answered in JSON: an action with an ``id`` (a resent id is answered
again, not played again: the page's idempotent requests), the next deal, leaving,
accepting an invitation, joining a friends' table by its code, starting a game against
the site's computers (rated: the bots' leaderboard). Every request is authenticated by the
token alone (no cookie, so no CSRF), read strictly (at most ``MAX_BODY`` bytes of JSON),
rate limited per bot, and refused with a status and a JSON ``{"error": code, "message":
text}``: bad input changes nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Final, TypeVar

import msgspec
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ...engine.errors import EngineError
from ...engine.rules import PROFILES, RulesError, RuleSet
from ...engine.wire import WireError, action_from_json, rules_from_json, rules_to_json
from ..features import friends
from ..features.accounts import Account
from ..features.bots import BotStore
from ..features.following import Following
from ..features.quick_play import person_channel
from ..features.tournaments.runner import Tournaments
from ..live.tables import LEVELS
from ..table import i18n
from ..table.live_table import LiveTable, TableError
from .forms import _read_body
from .friends_pages import friends_of
from .messages import (
    BotAccount,
    BotAction,
    BotAnswer,
    BotAnswerBody,
    BotBody,
    BotEntered,
    BotEntry,
    BotNewGame,
    BotNewTable,
    BotNextDeal,
    BotOk,
    BotOpenTable,
    BotOpenTables,
    BotRefusal,
    BotSeat,
    BotSeated,
    BotStepDone,
    BotTournament,
    BotTournaments,
    encode,
    field_in_error,
    is_json,
)
from .open_tables_pages import open_tables_of
from .pages import parts_of
from .protocol import error_message

log = logging.getLogger("coinche.bot_api")

API: Final = "/api/bot"
MAX_BODY: Final = 16 * 1024
"""The most read of a request's body (an action is under 100 bytes)."""
MAX_ID: Final = 64
"""The longest request id."""


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.retry_after = retry_after


TABLE_STATUS: Final = {"gone": 404, "not_seated": 403, "not_host": 403}
"""The status of a refusal of the table (others: 409, the table is not in that state)."""


REFUSAL_FAMILIES: Final = ("error.", "friends.error.", "tournament.error.", "contacts.error.")
"""Where a refusal's words are looked for (the table's, a friends' table's...)."""


def refusal(e: TableError) -> ApiError:
    """A refusal of the table, in English: the engine's words for an illegal action, else
    the first family's that has the code."""
    if e.message is not None:
        text = error_message("en", e.code, error=e).message
    else:
        for family in REFUSAL_FAMILIES:
            text = i18n.gettext("en", family + e.code)
            if text != family + e.code:
                break
        else:
            text = e.code.replace("_", " ")
    return ApiError(TABLE_STATUS.get(e.code, 409), e.code, text)


def json_response(body: BotAnswerBody, status: int = 200) -> Response:
    """A bot request's answer, written by the protocol's encoder."""
    return Response(encode(body), status_code=status, media_type="application/json")


def error_response(e: ApiError) -> Response:
    response = json_response(BotRefusal(e.code, e.message), e.status)
    if e.retry_after is not None:
        response.headers["Retry-After"] = str(e.retry_after)
    return response


def bots_of(request: Request) -> BotStore:
    found: BotStore = request.app.state.bots
    return found


async def authenticate(request: Request) -> Account:
    """The bot whose token the ``Authorization: Bearer`` header holds (``ApiError`` 401)."""
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "no_token", "send the bot's token: Authorization: Bearer <token>")
    parts = parts_of(request)
    bots, now = bots_of(request), datetime.now(UTC)
    bot = bots.trusted(token.strip(), now) or await parts.db(bots.bot_of_token, token.strip(), now)
    if bot is None:
        raise ApiError(401, "bad_token", "this token opens no bot (revoked, or never made)")
    return bot


async def limited(request: Request, bot: Account, limit: str, kind: str) -> None:
    """Count one request of ``kind`` for the bot (``ApiError`` 429 past ``limit``)."""
    retry = await parts_of(request).rate_limits.hit(limit, f"bot-{kind}:{bot.player}")
    if retry is not None:
        raise ApiError(429, "rate_limited", f"too many requests: try again in {retry} s", retry)


Body = TypeVar("Body", bound=BotBody)

BODY_ERRORS: Final = {
    "id": ("bad_id", f"each request has an id: a string of 1 to {MAX_ID} characters"),
    "seat": ("bad_seat", "a seat is 0, 1, 2 or 3"),
    "partner": ("bad_entry", "partner and code are strings"),
    "code": ("bad_entry", "partner and code are strings"),
    "entry": ("bad_answer", "entry is a string, accept a boolean"),
    "accept": ("bad_answer", "entry is a string, accept a boolean"),
    "level": ("bad_level", f"a level is one of {', '.join(LEVELS)}"),
    "rules": ("bad_rules", f"rules are one of {', '.join(PROFILES)}, or a rules object"),
}
"""The refusal of a body whose key holds what it may not (``messages.field_in_error``)."""


async def read_body(request: Request, kind: type[Body]) -> Body:
    """The request's JSON object, read and checked as ``kind`` (an empty body: ``{}``);
    ``ApiError`` 400 (the key at fault's code) or 413."""
    try:
        body = await _read_body(request, MAX_BODY)
    except HTTPException as e:
        if e.status_code == 413:
            raise ApiError(413, "too_big", f"a request's body is at most {MAX_BODY} bytes") from None
        raise ApiError(400, "bad_body", "the body could not be read") from None
    try:
        data = msgspec.json.decode(body if body.strip() else b"{}", type=kind)
    except msgspec.ValidationError as e:  # JSON, but not the request's object
        key = field_in_error(e)
        if key is None:
            if not is_json(body):  # msgspec refuses ``[1,`` for its first byte
                raise ApiError(400, "not_json", "the body is not JSON") from None
            raise ApiError(400, "not_an_object", "the body is a JSON object") from None
        code, words = BODY_ERRORS.get(key, ("bad_body", "the body does not fit the request"))
        raise ApiError(400, code, words) from None
    except (msgspec.DecodeError, RecursionError):
        raise ApiError(400, "not_json", "the body is not JSON") from None
    if isinstance(data, BotAction | BotNextDeal) and not data.id.isprintable():
        code, words = BODY_ERRORS["id"]
        raise ApiError(400, code, words)
    return data


def endpoint(
    handler: Callable[[Request, Account], Awaitable[BotAnswerBody]], limit: str = "bot_request_limit"
) -> Callable[[Request], Awaitable[Response]]:
    """A JSON endpoint of a bot: authenticated, rate limited, its refusals JSON."""

    async def run(request: Request) -> Response:
        try:
            bot = await authenticate(request)
            await limited(request, bot, getattr(request.app.state.settings, limit), limit.removesuffix("_limit"))
            return json_response(await handler(request, bot))
        except ApiError as e:
            return error_response(e)
        except TableError as e:
            return error_response(refusal(e))

    return run


# ----- the requests -----


async def account(request: Request, bot: Account) -> BotAccount:
    parts = parts_of(request)
    owner = await parts.db(bots_of(request).owner_of, bot.player)
    return BotAccount(bot.name, owner, bot.player)


async def seated(request: Request, bot: Account, table_id: str) -> tuple[LiveTable, int]:
    parts = parts_of(request)
    live = await parts.tables.table(table_id[:32]) if table_id.isascii() else None
    if live is None:
        raise TableError("gone")
    seat = live.seat_of(bot.player)
    if seat is None:
        live = await parts.tables.table(live.id, fresh=True) or live  # seated through another process
        seat = live.seat_of(bot.player)
    if seat is None:
        raise TableError("not_seated")
    return live, seat


async def act(request: Request, bot: Account) -> BotStepDone:
    """``{"id": ..., "action": <an entry of the view's legal_actions>}``: the table's step
    after it."""
    data = await read_body(request, BotAction)
    live, seat = await seated(request, bot, request.path_params["table_id"])
    deal = live.game.current
    view = deal.view(seat) if deal is not None and not deal.is_over else None
    try:
        action = action_from_json(data.action, view)
    except EngineError as e:
        raise ApiError(400, "bad_action", f"not an action of the wire format: {e}") from None
    return BotStepDone(await parts_of(request).tables.act(live.id, bot.player, action, data.id))


async def next_deal(request: Request, bot: Account) -> BotStepDone:
    data = await read_body(request, BotNextDeal)
    live, _ = await seated(request, bot, request.path_params["table_id"])
    return BotStepDone(await parts_of(request).tables.next_deal(live.id, bot.player, data.id))


async def leave(request: Request, bot: Account) -> BotOk:
    """Give up the table's game: alone with computers it ends (lost, for the ratings); with
    people a computer plays the bot's seat to the end (``friends.give_up``)."""
    live, _ = await seated(request, bot, request.path_params["table_id"])
    await friends_of(request).give_up(live.id, bot.player)
    return BotOk()


async def sit(
    request: Request, bot: Account, live: LiveTable, wanted: int | None, offered: int | None = None
) -> BotSeated:
    """Take the seat ``wanted`` at a friends' table; without one, the seat ``offered`` (an
    invitation's) or, when a person holds it or none was, the first a computer holds
    (``check_take_invited_seat``, as a person's acceptance); a bot seated already stays."""
    parts = parts_of(request)
    seat = live.seat_of(bot.player)
    if wanted is None and seat is not None:
        return BotSeated(live.id, seat)  # sat already: stays
    if wanted is not None:
        await friends_of(request).take_seat(live.id, bot.player, bot.name, wanted)
        seat = wanted
    else:
        await friends_of(request).take_invited_seat(live.id, bot.player, bot.name, offered)
        seated = await parts.tables.table(live.id)
        seat = seated.seat_of(bot.player) if seated is not None else None
        if seat is None:
            raise TableError("gone")
    await parts.hub.signal(person_channel(bot.player), {"kind": "seated", "table": live.id})
    return BotSeated(live.id, seat)


async def join(request: Request, bot: Account) -> BotSeated:
    """A friends' table by its code, public with bots welcome or one the bot is invited
    to: ``{"seat": n}`` or the first computer's seat."""
    data = await read_body(request, BotSeat)
    code = friends.clean_code(request.path_params["code"])
    live = await friends_of(request).find(code) if code is not None else None
    if live is None:
        raise TableError("gone")
    listed = await open_tables_of(request).get(live.id)
    if listed is None or not listed.bots:
        following: Following = request.app.state.following
        if not any(i.table_id == live.id for i in await following.invitations(bot.player)):
            raise ApiError(403, "bots_not_welcome", "this table is not open to bots and nobody invited this one")
    return await sit(request, bot, live, data.seat)


async def open_tables(request: Request, bot: Account) -> BotOpenTables:
    """The public tables with a free seat whose hosts welcome bots."""
    found = await open_tables_of(request).for_bots()
    return BotOpenTables([BotOpenTable(t.code, t.profile, t.target, t.free_seats, t.seats) for t in found])


def tournaments_of(request: Request) -> Tournaments:
    found: Tournaments = request.app.state.tournaments
    return found


async def tournaments(request: Request, bot: Account) -> BotTournaments:
    """The tournaments open for entries that bots may enter."""
    listing = await tournaments_of(request).listing()
    return BotTournaments(
        [
            BotTournament(t.id, t.name, t.format, rules_to_json(t.rules), t.starts_at.isoformat(), t.alone)
            for t in listing.get("open", [])
            if t.bots and t.code is None
        ]
    )


async def enter(request: Request, bot: Account) -> BotEntered:
    """Enter a tournament that welcomes bots: ``{"partner": NAME}`` (who must accept) or
    alone; ``"code"`` for a private one."""
    data = await read_body(request, BotEntry)
    partner_name, code = data.partner, data.code
    chosen = tournaments_of(request)
    partner = await chosen.account_named(partner_name) if partner_name else None
    entry = await chosen.enter(request.path_params["tournament_id"][:32], bot.player, partner, code)
    return BotEntered(entry.id)


async def withdraw(request: Request, bot: Account) -> BotOk:
    await tournaments_of(request).withdraw(request.path_params["tournament_id"][:32], bot.player)
    return BotOk()


async def answer_entry(request: Request, bot: Account) -> BotOk:
    """Answer a proposal to play a tournament as someone's partner: ``{"entry": id,
    "accept": true}``."""
    data = await read_body(request, BotAnswer)
    await tournaments_of(request).answer(request.path_params["tournament_id"][:32], bot.player, data.entry, data.accept)
    return BotOk()


async def accept(request: Request, bot: Account) -> BotSeated:
    """Accept an invitation: ``{"seat": n}``, or ``{}`` for the seat it offered (the first
    computer's if a person took that one meanwhile), as a person's acceptance does."""
    data = await read_body(request, BotSeat)
    following: Following = request.app.state.following
    answered = await following.answer(bot.player, request.path_params["invitation_id"])
    live = await friends_of(request).find(answered.code) if answered is not None else None
    if answered is None or live is None:
        raise TableError("gone")
    return await sit(request, bot, live, data.seat, answered.seat)


async def decline(request: Request, bot: Account) -> BotOk:
    following: Following = request.app.state.following
    await following.answer(bot.player, request.path_params["invitation_id"])
    return BotOk()


async def new_game(request: Request, bot: Account) -> BotNewTable:
    """A rated game against the site's computers: ``{"rules": PROFILE or a rules object of
    docs/wire.md, "target": N, "level": LEVEL}`` (the bot at seat 0, a computer partner);
    ``{"table": id}``."""
    data = await read_body(request, BotNewGame)
    level = data.level
    if level not in LEVELS:
        raise ApiError(400, "bad_level", f"a level is one of {', '.join(LEVELS)}")
    parts = parts_of(request)
    spec = await parts.tables.create_solo(bot.player, rules_of(data), level, bot.name)
    await parts.hub.signal(person_channel(bot.player), {"kind": "seated", "table": spec.id})
    return BotNewTable(spec.id)


def rules_of(data: BotNewGame) -> RuleSet:
    """The rules a request asks for: a profile's name or a rules object, and a target."""
    asked = data.rules
    target = data.target
    try:
        if isinstance(asked, dict):
            rules = rules_from_json(asked)
        elif isinstance(asked, str) and asked in PROFILES:
            rules = RuleSet.profile(asked)
        else:
            raise ApiError(400, "bad_rules", f"rules are one of {', '.join(PROFILES)}, or a rules object")
        if target is not None:
            rules = rules.with_options({"target": target})
    except (WireError, RulesError, TypeError) as e:
        raise ApiError(400, "bad_rules", f"these rules cannot be played: {e}") from None
    return rules


routes: list[BaseRoute] = [
    Route(f"{API}/account", endpoint(account), methods=["GET"]),
    Route(f"{API}/tables/{{table_id}}/action", endpoint(act, "bot_action_limit"), methods=["POST"]),
    Route(f"{API}/tables/{{table_id}}/next-deal", endpoint(next_deal, "bot_action_limit"), methods=["POST"]),
    Route(f"{API}/tables/{{table_id}}/leave", endpoint(leave), methods=["POST"]),
    Route(f"{API}/join/{{code}}", endpoint(join), methods=["POST"]),
    Route(f"{API}/invitations/{{invitation_id}}/accept", endpoint(accept), methods=["POST"]),
    Route(f"{API}/invitations/{{invitation_id}}/decline", endpoint(decline), methods=["POST"]),
    Route(f"{API}/games", endpoint(new_game), methods=["POST"]),
    Route(f"{API}/open-tables", endpoint(open_tables), methods=["GET"]),
    Route(f"{API}/tournaments", endpoint(tournaments), methods=["GET"]),
    Route(f"{API}/tournaments/{{tournament_id}}/enter", endpoint(enter), methods=["POST"]),
    Route(f"{API}/tournaments/{{tournament_id}}/withdraw", endpoint(withdraw), methods=["POST"]),
    Route(f"{API}/tournaments/{{tournament_id}}/answer", endpoint(answer_entry), methods=["POST"]),
]
