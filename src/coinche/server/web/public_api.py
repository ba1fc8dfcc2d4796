"""The public read API (issue 53, docs/public-api.md): JSON under ``/api/v1/``, read-only,
for anyone: a player's profile and ratings, their finished games (paged), a finished
game and its record (RECORD.md, with the revealed seeds), the tournaments and their
standings, the leaderboards, a past day's ranking of the daily challenge. Described by an
OpenAPI 3.1 document (``OPENAPI``, served at ``/api/v1/openapi.json``); its page for people
is ``/api``.

``PublicApi`` is an ASGI middleware placed before the sessions: an API request reads no
cookie and sets none, and reaches no page's machinery. Every answer is JSON, errors too
(``{"error": code, "message": text}``: 400 a bad parameter, 404 unknown, 405 a method other
than GET/HEAD/OPTIONS, 429 past the rate limit with ``Retry-After``, 500 never a traceback);
every answer says ``Access-Control-Allow-Origin: *`` (no credentials: there are none to
send), and ``OPTIONS`` is a preflight's answer. Each address (as uvicorn gives it behind
the proxies it trusts) may ask ``Settings.public_api_limit``.

What a page hides stays hidden (``features/public_read.py`` decides which games are
public): no game in progress, no friends' or club table, no daily challenge's game, a
tournament's games once it is over; a private or club tournament, today's challenge (or a
day to come), a deleted account: 404. Never an email, a token, nor a seed of a deal not
over (a record holds the finished deals only, each with its revealed seed).
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any, Final
from urllib.parse import quote, urlencode

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Match, Route
from starlette.types import ASGIApp, Receive, Scope, Send

from ...engine.rules import PROFILES
from ..features.bots import Bots
from ..features.daily.runner import DailyChallenge
from ..features.history import EPOCH, parse_cursor
from ..features.leaderboard import MIN_GAMES, Leaderboard
from ..features.player_stats import COUNTERS, PROVISIONAL_SIGMA
from ..features.public_read import PublicGame, PublicReads
from ..features.tournaments.model import SITE, Tournament, shown_results
from ..features.tournaments.runner import Tournaments
from ..infra.db import aware
from ..infra.rate_limits import RateLimits
from ..table.days import day_end, day_of
from .account_pages import address_of
from .pages import ADDRESSES, page, parts_of, settings_of

log = logging.getLogger("coinche.public_api")

BASE: Final = "/api/v1"
PAGE_PATH: Final = "/api"
"""The API's page for people."""
GAMES_LIMIT: Final = (1, 100, 50)
"""A page of a player's games: the fewest, the most and the default."""
CHALLENGE_LIMIT: Final = (1, 500, 100)
"""A page of a day's ranking: the fewest, the most and the default."""
START_MAX: Final = 10_000_000
TOURNAMENT_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,16}")
TABLE_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,16}")
DAY: Final = re.compile(r"20[0-9]{2}-[01][0-9]-[0-3][0-9]")
NUMBER: Final = re.compile(r"[0-9]{1,9}")
BOARDS: Final = ("site", "bots", *PROFILES)
NAME_LONGEST: Final = 96
METHODS: Final = "GET, HEAD, OPTIONS"
CORS: Final = (
    ("access-control-allow-origin", "*"),
    ("access-control-expose-headers", "Retry-After"),
)
PREFLIGHT: Final = (
    ("access-control-allow-methods", METHODS),
    ("access-control-allow-headers", "Accept, Accept-Language, Content-Type, If-None-Match"),
    ("access-control-max-age", "86400"),
)


class ApiError(Exception):
    """A refusal: its status and its JSON (``{"error": code, "message": text}``)."""

    def __init__(self, status: int, code: str, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.retry_after = retry_after


def not_found(what: str) -> ApiError:
    return ApiError(404, "not_found", f"no such {what}")


@dataclass(frozen=True)
class Answer:
    """An endpoint's JSON and how long anyone may keep it (seconds)."""

    body: Any
    max_age: int = 30


_encoder = msgspec.json.Encoder()


def json_response(body: Any, status: int = 200, max_age: int | None = None) -> Response:
    response = Response(_encoder.encode(body), status_code=status, media_type="application/json")
    for name, value in CORS:
        response.headers[name] = value
    response.headers["cache-control"] = f"public, max-age={max_age}" if max_age else "no-store"
    return response


def error_response(e: ApiError) -> Response:
    response = json_response({"error": e.code, "message": e.message}, e.status)
    if e.retry_after is not None:
        response.headers["retry-after"] = str(e.retry_after)
    if e.status == 405:
        response.headers["allow"] = METHODS
    return response


# ----- reading a request -----


def bounded(request: Request, name: str, limits: tuple[int, int, int]) -> int:
    """The query's ``name``: ASCII digits within ``limits`` (its default when absent)."""
    low, high, default = limits
    text = request.query_params.get(name)
    if text is None:
        return default
    if not NUMBER.fullmatch(text) or not low <= int(text) <= high:
        raise ApiError(400, f"bad_{name}", f"{name} is a whole number from {low} to {high}")
    return int(text)


def checked_query(request: Request, allowed: tuple[str, ...]) -> None:
    """400 for a parameter the endpoint does not take (a typo is told, not ignored), or
    one given twice."""
    keys = [k for k, _ in request.query_params.multi_items()]
    for key in keys:
        if key not in allowed:
            raise ApiError(400, "bad_parameter", f"unknown parameter: {key[:40]!r}")
    if len(keys) != len(set(keys)):
        raise ApiError(400, "bad_parameter", "a parameter is given twice")


def when(moment: datetime | None) -> str | None:
    """An RFC 3339 time in UTC (``2026-12-07T20:15:00Z``)."""
    return None if moment is None else aware(moment).isoformat().replace("+00:00", "Z")


def api_url(path: str, **query: Any) -> str:
    kept = {k: v for k, v in query.items() if v is not None}
    return BASE + path + (("?" + urlencode(kept)) if kept else "")


def player_url(name: str) -> str:
    return api_url(f"/players/{quote(name, safe='')}")


def reads_of(request: Request) -> PublicReads:
    state = request.app.state
    found = getattr(state, "public_reads", None)
    if not isinstance(found, PublicReads):
        found = state.public_reads = PublicReads(state.store, parts_of(request).db)
    return found


SHARED_SECONDS: Final = 10.0
"""An answer the same for everyone (a leaderboard, the tournaments' list, a page of a past
day's ranking) is made once this long for every request that asks (it says ``max-age``
30 s anyway): the database is asked once, not a hundred times a second."""
SHARED_KEPT: Final = 256


async def shared(request: Request, key: tuple[Any, ...], make: Callable[[], Awaitable[Answer]]) -> Answer:
    """``make()``'s answer, made once for all the requests of ``key`` for ``SHARED_SECONDS``
    (those that come while it is made wait for it); a refusal or a failure is not kept."""
    state = request.app.state
    kept: dict[tuple[Any, ...], tuple[float, asyncio.Task[Answer]]] | None = getattr(state, "public_shared", None)
    if kept is None:
        kept = state.public_shared = {}
    now = time.monotonic()
    found = kept.get(key)
    if found is None or found[0] <= now:
        if len(kept) >= SHARED_KEPT:
            for old in [k for k, (until, _) in kept.items() if until <= now] or list(kept)[: SHARED_KEPT // 2]:
                del kept[old]
        found = kept[key] = (now + SHARED_SECONDS, asyncio.ensure_future(make()))
    try:
        return await asyncio.shield(found[1])
    except Exception:
        if kept.get(key) is found:
            del kept[key]
        raise


# ----- the endpoints -----


async def index(request: Request) -> Answer:
    checked_query(request, ())
    return Answer(
        {
            "version": "1",
            "openapi": api_url("/openapi.json"),
            "documentation": PAGE_PATH,
            "endpoints": [route.path for route in routes if isinstance(route, Route)],
        },
        3600,
    )


async def openapi(request: Request) -> Answer:
    checked_query(request, ())
    return Answer(OPENAPI, 3600)


def _name(request: Request) -> str:
    name = request.path_params["name"]
    if not isinstance(name, str) or not name or len(name) > NAME_LONGEST:
        raise not_found("player")
    return name


def _rating(display: int, sigma: float) -> dict[str, Any]:
    return {"rating": display, "provisional": sigma > PROVISIONAL_SIGMA}


async def player(request: Request) -> Answer:
    """A player's profile: their ratings and counters, whether they are a bot (and whose)."""
    checked_query(request, ())
    reads = reads_of(request)
    found = await reads.db(reads.player, _name(request))
    if found is None:
        raise not_found("player")
    shown, data, owner = found
    return Answer(
        {
            "name": shown,
            "bot": owner is not None,
            "owner": owner,
            **_rating(data.rating.display, data.rating.sigma),
            **{name: getattr(data, name) for name in COUNTERS},
            "profiles": [
                {"profile": b.profile, **_rating(b.rating.display, b.rating.sigma), "rated_games": b.rated_games}
                for b in data.boards
            ],
            "games": player_url(shown) + "/games",
            "page": f"{ADDRESSES['en']['profile']}/{quote(shown, safe='')}",
        }
    )


def _person(kind: str, name: str | None) -> dict[str, Any]:
    if kind == "account" and name is not None:
        return {"kind": "account", "name": name, "player": player_url(name)}
    if kind == "bot":
        return {"kind": "computer", "level": name}
    return {"kind": "deleted" if kind == "deleted" else "guest"}


def game_json(game: PublicGame) -> dict[str, Any]:
    """A finished game as the API gives it (from its player's side when in their list)."""
    result = game.result or {}
    abandoned = bool(result.get("abandoned")) or "winner" not in result
    out: dict[str, Any] = {
        "id": game.table_id,
        "finished_at": when(game.finished_at),
        "profile": game.profile,
        "target": game.target,
        "kind": game.kind,
        "tournament": None if game.tournament is None else api_url(f"/tournaments/{game.tournament}"),
        "seats": [{"seat": n, **_person(p.kind, p.name)} for n, p in enumerate(game.people)],
        "totals": None if abandoned else result.get("totals"),
        "winner": None if abandoned else result.get("winner"),
        "record": api_url(f"/games/{game.table_id}/record"),
    }
    if game.seat is not None:
        out["seat"] = game.seat
        out["outcome"] = "abandoned" if abandoned else "won" if result.get("winner") == game.seat % 2 else "lost"
    return out


async def player_games(request: Request) -> Answer:
    """A player's finished public games, newest first, by pages (``before``: a cursor)."""
    checked_query(request, ("before", "limit"))
    limit = bounded(request, "limit", GAMES_LIMIT)
    raw = request.query_params.get("before")
    before = None
    if raw is not None:
        before = parse_cursor(raw)
        if before is None:
            raise ApiError(400, "bad_before", "before is a cursor given by a page's next link")
    reads = reads_of(request)
    found = await reads.db(reads.player_games, _name(request), before, limit + 1)
    if found is None:
        raise not_found("player")
    shown, games = found
    more = len(games) > limit
    games = games[:limit]
    following = None
    if more:
        last = games[-1]
        cursor = f"{(aware(last.finished_at) - EPOCH) // timedelta(microseconds=1)}.{last.table_id}"
        following = player_url(shown) + "/games?" + urlencode({"before": cursor, "limit": limit})
    return Answer({"player": shown, "games": [game_json(g) for g in games], "next": following})


async def game(request: Request) -> Answer:
    checked_query(request, ())
    table_id = request.path_params["table_id"]
    if not TABLE_ID.fullmatch(table_id):
        raise not_found("game")
    reads = reads_of(request)
    found = await reads.db(reads.game, table_id)
    if found is None:
        raise not_found("game")
    return Answer(game_json(found), 3600)


async def record(request: Request) -> Answer:
    """The game's record (RECORD.md): what ``coinche verify`` and ``coinche replay`` read."""
    checked_query(request, ())
    table_id = request.path_params["table_id"]
    if not TABLE_ID.fullmatch(table_id):
        raise not_found("game")
    reads = reads_of(request)
    kept, found = reads.kept_record(table_id)
    if not kept:  # the log read on the database's thread, the game replayed on another
        found = await asyncio.to_thread(reads.keep_record, table_id, await reads.db(reads.record_log, table_id))
    if found is None:
        raise not_found("game")
    return Answer(found, 86400)


def tournament_json(t: Tournament) -> dict[str, Any]:
    return {
        "id": t.id,
        "name": t.name,
        "profile": t.rules.name,
        "target": t.rules.target,
        "format": t.format,
        "state": t.state,
        "rounds": t.rounds,
        "round": t.round,
        "deals": t.deals,
        "starts_at": when(t.starts_at),
        "ends_at": when(t.ends_at),
        "finished_at": when(t.finished_at),
        "commitment": t.commitment,
        "secret": t.revealed_secret,
        "url": api_url(f"/tournaments/{t.id}"),
    }


def tournaments_of(request: Request) -> Tournaments:
    found: Tournaments = request.app.state.tournaments
    return found


async def tournaments(request: Request) -> Answer:
    """The public tournaments, as the tournaments' page lists them."""
    checked_query(request, ())
    return await shared(request, ("tournaments",), lambda: _tournaments(request))


async def _tournaments(request: Request) -> Answer:
    listing = await tournaments_of(request).listing()
    return Answer(
        {state: [tournament_json(t) for t in listing.get(state, [])] for state in ("open", "running", "finished")}
    )


async def tournament(request: Request) -> Answer:
    """A public tournament and its standings from the deals anyone may see (a round under
    way counts the deals every table of it has played, as on its page)."""
    checked_query(request, ())
    tournament_id = request.path_params["tournament_id"]
    if not TOURNAMENT_ID.fullmatch(tournament_id):
        raise not_found("tournament")
    found = await tournaments_of(request).get(tournament_id)
    if found is None or found.code is not None or found.club is not None:
        raise not_found("tournament")
    key = ("tournament", tournament_id, found.state, found.round, found.round_closed_at)
    return await shared(request, key, lambda: _tournament(request, found))


async def _tournament(request: Request, found: Tournament) -> Answer:
    runner = tournaments_of(request)
    snapshot = await runner.snapshot(found)
    people = sorted({p for e in snapshot.entries for p in e.players})
    names = await runner.names(people)
    names[SITE] = "Coinche"

    def pair(entry_id: str | None) -> list[str] | None:
        entry = next((e for e in snapshot.entries if e.id == entry_id), None)
        return None if entry is None else [names.get(p, "") for p in entry.players]

    over = found.state == "finished"
    tables = sorted(snapshot.tables, key=lambda t: (t.round, t.number))
    shown = shown_results(found, tables)
    results = []
    for t in tables:
        seen = shown.get(t.table_id)
        if seen is None:
            continue
        results.append(
            {
                "round": t.round,
                "ns": pair(t.ns),
                "ew": pair(t.ew),
                "deals": [list(d) if d is not None else None for d in seen.deals],
                "totals": list(seen.totals),
                "game": api_url(f"/games/{t.table_id}") if over else None,
            }
        )
    return Answer(
        {
            **tournament_json(found),
            "organiser": names.get(found.organiser) if found.organiser != SITE else "Coinche",
            "standings": [
                {
                    "rank": line.rank,
                    "players": [names.get(p, "") for p in line.entry.players],
                    "wins": line.standing.wins,
                    "points": line.standing.points,
                    "matchpoints": round(line.standing.matchpoints, 2),
                    "games": line.rounds,
                    "arena_points": None if line.arena is None else line.arena.points,
                }
                for line in snapshot.lines
            ],
            "tables": results,
        },
        3600 if over else 15,
    )


async def leaderboard(request: Request) -> Answer:
    """The site's leaderboard, a rules profile's, or the bots'."""
    checked_query(request, ())
    board = request.path_params["board"]
    if board not in BOARDS:
        raise not_found("leaderboard")
    return await shared(request, ("leaderboard", board), lambda: _leaderboard(request, board))


async def _leaderboard(request: Request, board: str) -> Answer:
    if board == "bots":
        bots: Bots = request.app.state.bot_accounts
        lines = [
            {"place": n, "name": b.name, "owner": b.owner, "rating": b.rating, "games": b.games, "won": b.won}
            for n, b in enumerate(await bots.leaderboard(), start=1)
        ]
        return Answer({"board": board, "places": lines})
    boards: Leaderboard = request.app.state.leaderboard
    found = await boards.board(None, None if board == "site" else board)
    return Answer(
        {
            "board": board,
            "min_games": MIN_GAMES,
            "places": [
                {
                    "place": p.place,
                    "name": p.name,
                    "rating": p.rating,
                    "rated_games": p.rated_games,
                    "player": player_url(p.name),
                }
                for p in found.top
            ],
        }
    )


async def challenge_day(request: Request) -> Answer:
    """A finished day of the daily challenge: its revealed seed and its final ranking, by
    pages of lines (``start``: the first line, 0 the best)."""
    checked_query(request, ("start", "limit"))
    day = request.path_params["day"]
    try:
        valid = DAY.fullmatch(day) is not None and date.fromisoformat(day) is not None
    except ValueError:
        valid = False
    if not valid:
        raise ApiError(400, "bad_day", "a day is written YYYY-MM-DD")
    start = bounded(request, "start", (0, START_MAX, 0))
    limit = bounded(request, "limit", CHALLENGE_LIMIT)
    daily: DailyChallenge = request.app.state.daily
    moment = daily.now()
    if day >= day_of(moment) or moment < day_end(day):
        raise ApiError(404, "not_over", "only a day over is given: its ranking is final then")
    return await shared(request, ("challenge", day, start, limit), lambda: _challenge_day(request, day, start, limit))


async def _challenge_day(request: Request, day: str, start: int, limit: int) -> Answer:
    daily: DailyChallenge = request.app.state.daily
    moment = daily.now()
    reads = reads_of(request)
    found = await reads.db(reads.challenge, day, start, limit)
    if found is None:
        raise not_found("day")
    if not found[0][3]:  # nobody asked since the day ended: its final ranking first
        await daily.refresh_ranking(day, moment)
        found = await reads.db(reads.challenge, day, start, limit)
        assert found is not None
    (profile, commitment, seed, _, count), lines = found
    following = api_url(f"/challenge/{day}", start=start + limit, limit=limit) if start + limit < count else None
    return Answer(
        {
            "day": day,
            "profile": profile,
            "commitment": commitment,
            "seed": seed,
            "players": count,
            "ranking": [
                {
                    "rank": line.rank,
                    "name": line.name,
                    "player": None if line.name is None else player_url(line.name),
                    "average": round(line.average, 2),
                    "percents": [None if p is None else round(p, 2) for p in line.percents],
                    "deals": line.finished,
                }
                for line in lines
            ],
            "next": following,
        },
        3600,
    )


Endpoint = Callable[[Request], Awaitable[Answer]]

routes: list[BaseRoute] = [
    Route(BASE, index, methods=["GET"]),
    Route(BASE + "/openapi.json", openapi, methods=["GET"]),
    Route(BASE + "/players/{name}", player, methods=["GET"]),
    Route(BASE + "/players/{name}/games", player_games, methods=["GET"]),
    Route(BASE + "/games/{table_id}", game, methods=["GET"]),
    Route(BASE + "/games/{table_id}/record", record, methods=["GET"]),
    Route(BASE + "/tournaments", tournaments, methods=["GET"]),
    Route(BASE + "/tournaments/{tournament_id}", tournament, methods=["GET"]),
    Route(BASE + "/leaderboards/{board}", leaderboard, methods=["GET"]),
    Route(BASE + "/challenge/{day}", challenge_day, methods=["GET"]),
]
"""The API's routes (matched by ``PublicApi``, not the application's router)."""


class PublicApi:
    """ASGI middleware: the requests under ``/api/v1`` are answered here (before sessions
    and visitors: no cookie read or set); anything else passes on."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "") if scope["type"] == "http" else ""
        if path != BASE and not path.startswith(BASE + "/"):
            await self.app(scope, receive, send)
            return
        response = await self.answer(scope, receive)
        await response(scope, receive, send)

    async def answer(self, scope: Scope, receive: Receive) -> Response:
        request = Request(scope, receive)
        try:
            await self.limited(request)
            if scope["method"] == "OPTIONS":
                response = Response(status_code=204)
                for name, value in (*CORS, *PREFLIGHT):
                    response.headers[name] = value
                return response
            if scope["method"] not in ("GET", "HEAD"):
                raise ApiError(405, "method_not_allowed", "the API only reads: GET (or HEAD, OPTIONS)")
            for route in routes:
                match, child = route.matches({**scope, "method": "GET"})
                if match == Match.FULL:
                    scope["route"] = route  # the request's figures are counted by route (request_metrics)
                    request = Request({**scope, **child}, receive)
                    assert isinstance(route, Route)
                    handler: Endpoint = route.endpoint
                    found = await handler(request)
                    return json_response(found.body, max_age=found.max_age)
            raise ApiError(404, "no_endpoint", f"no such endpoint: see {BASE}/openapi.json")
        except ApiError as e:
            return error_response(e)
        except Exception:
            log.exception("%s %s failed", scope.get("method"), scope.get("path"))
            return error_response(ApiError(500, "server_error", "the server failed to answer; try again later"))

    @staticmethod
    async def limited(request: Request) -> None:
        limits: RateLimits = parts_of(request).rate_limits
        retry = await limits.hit(settings_of(request).public_api_limit, f"api:{address_of(request)}")
        if retry is not None:
            raise ApiError(429, "rate_limited", f"too many requests from this address: try again in {retry} s", retry)


# ----- the page for people -----


async def api_page(request: Request) -> Response:
    """The API told to people: what it gives, its limits, its description's address."""
    return page(
        request,
        "public_api.html",
        base=BASE,
        endpoints=[(path, item["get"]["operationId"]) for path, item in OPENAPI["paths"].items()],
        limit=settings_of(request).public_api_limit,
    )


page_routes: list[BaseRoute] = [Route(PAGE_PATH, api_page)]


# ----- the description -----


def _error(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    }


def _ok(schema: str, description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}}},
    }


def _path_parameter(name: str, description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "description": description, "schema": schema}


def _query_parameter(name: str, description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": False, "description": description, "schema": schema}


def _get(
    operation: str, summary: str, ok: dict[str, Any], *parameters: dict[str, Any], not_found_too: bool = True
) -> dict[str, Any]:
    responses: dict[str, Any] = {
        "200": ok,
        "400": _error("A bad parameter"),
        "429": _error("Past the rate limit (see Retry-After)"),
    }
    if not_found_too:
        responses["404"] = _error("Unknown, or not public")
    return {
        "get": {"operationId": operation, "summary": summary, "parameters": list(parameters), "responses": responses}
    }


_NAME = _path_parameter("name", "An account's name (any case)", {"type": "string", "maxLength": NAME_LONGEST})
_TABLE = _path_parameter("table_id", "A game's id", {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,16}$"})
_NULLABLE_STRING: Final = {"type": ["string", "null"]}
_RATING = {
    "rating": {"type": "integer", "description": "The rating as shown (1000 at the start)"},
    "provisional": {"type": "boolean", "description": "Too few games for the rating to be settled"},
}

OPENAPI: Final[dict[str, Any]] = {
    "openapi": "3.1.0",
    "info": {
        "title": "Coinche public read API",
        "version": "1.0.0",
        "description": (
            "Read-only JSON about the site's players, finished games, tournaments, leaderboards "
            "and daily challenge. No authentication, no cookie; CORS open for reading; rate-limited "
            'per address (429 with Retry-After). Errors are {"error": code, "message": text}. '
            "Only what the site's pages show anyone: no game in progress, no private table or "
            "tournament, no club's, no day of the challenge not over."
        ),
    },
    "servers": [{"url": "/"}],
    "paths": {
        BASE: _get(
            "index", "What the API holds and where it is described", _ok("Index", "The index"), not_found_too=False
        ),
        BASE + "/openapi.json": _get(
            "openapi",
            "This description (OpenAPI 3.1)",
            {"description": "The description", "content": {"application/json": {}}},
            not_found_too=False,
        ),
        BASE + "/players/{name}": _get("player", "A player's profile and ratings", _ok("Player", "The player"), _NAME),
        BASE + "/players/{name}/games": _get(
            "player_games",
            "A player's finished public games, newest first, paged",
            _ok("GamesPage", "A page of games"),
            _NAME,
            _query_parameter(
                "before",
                "The cursor of a page's next link",
                {"type": "string", "pattern": "^[0-9]{1,16}\\.[A-Za-z0-9_-]{1,16}$"},
            ),
            _query_parameter(
                "limit",
                "Games a page",
                {"type": "integer", "minimum": GAMES_LIMIT[0], "maximum": GAMES_LIMIT[1], "default": GAMES_LIMIT[2]},
            ),
        ),
        BASE + "/games/{table_id}": _get("game", "A finished public game", _ok("Game", "The game"), _TABLE),
        BASE + "/games/{table_id}/record": _get(
            "record",
            "A finished public game's record (RECORD.md: its deals with their revealed seeds)",
            {
                "description": "The record (RECORD.md, 'A game')",
                "content": {"application/json": {"schema": {"type": "object"}}},
            },
            _TABLE,
        ),
        BASE + "/tournaments": _get(
            "tournaments",
            "The public tournaments: open, running, finished",
            _ok("Tournaments", "The list"),
            not_found_too=False,
        ),
        BASE + "/tournaments/{tournament_id}": _get(
            "tournament",
            "A public tournament and its standings (from the deals every table of a round has played)",
            _ok("TournamentStandings", "The tournament"),
            _path_parameter(
                "tournament_id", "A tournament's id", {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,16}$"}
            ),
        ),
        BASE + "/leaderboards/{board}": _get(
            "leaderboard",
            "The site's leaderboard, a rules profile's, or the bots'",
            _ok("Leaderboard", "The leaderboard"),
            _path_parameter("board", "site, bots, or a rules profile", {"type": "string", "enum": list(BOARDS)}),
        ),
        BASE + "/challenge/{day}": _get(
            "challenge_day",
            "A finished day of the daily challenge: its revealed seed and final ranking, paged",
            _ok("ChallengeDay", "The day"),
            _path_parameter("day", "A day over (UTC), YYYY-MM-DD", {"type": "string", "format": "date"}),
            _query_parameter(
                "start",
                "The first line (0: the best)",
                {"type": "integer", "minimum": 0, "maximum": START_MAX, "default": 0},
            ),
            _query_parameter(
                "limit",
                "Lines a page",
                {
                    "type": "integer",
                    "minimum": CHALLENGE_LIMIT[0],
                    "maximum": CHALLENGE_LIMIT[1],
                    "default": CHALLENGE_LIMIT[2],
                },
            ),
        ),
    },
    "components": {
        "schemas": {
            "Error": {
                "type": "object",
                "required": ["error", "message"],
                "properties": {"error": {"type": "string"}, "message": {"type": "string"}},
            },
            "Index": {
                "type": "object",
                "properties": {
                    "version": {"type": "string"},
                    "openapi": {"type": "string"},
                    "documentation": {"type": "string"},
                    "endpoints": {"type": "array", "items": {"type": "string"}},
                },
            },
            "Player": {
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "bot": {"type": "boolean", "description": "A bot account (the bot API)"},
                    "owner": {**_NULLABLE_STRING, "description": "A bot's owner"},
                    **_RATING,
                    **{key: {"type": "integer"} for key in COUNTERS},
                    "profiles": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {
                                "profile": {"type": "string"},
                                **_RATING,
                                "rated_games": {"type": "integer"},
                            },
                        },
                    },
                    "games": {"type": "string"},
                    "page": {"type": "string"},
                },
            },
            "Seat": {
                "type": "object",
                "properties": {
                    "seat": {"type": "integer", "description": "0 South, 1 West, 2 North, 3 East"},
                    "kind": {"enum": ["account", "computer", "guest", "deleted"]},
                    "name": {"type": "string"},
                    "player": {"type": "string"},
                    "level": {"type": "string"},
                },
            },
            "Game": {
                "type": "object",
                "properties": {
                    "id": {"type": "string"},
                    "finished_at": {"type": "string", "format": "date-time"},
                    "profile": {"type": "string"},
                    "target": {"type": "integer"},
                    "kind": {"enum": ["solo", "quick_play", "tournament", "ladder"]},
                    "tournament": _NULLABLE_STRING,
                    "seats": {"type": "array", "items": {"$ref": "#/components/schemas/Seat"}},
                    "totals": {"type": ["array", "null"], "items": {"type": "integer"}},
                    "winner": {"type": ["integer", "null"], "description": "0 South-North, 1 West-East"},
                    "record": {"type": "string"},
                    "seat": {"type": "integer", "description": "In a player's list: their seat"},
                    "outcome": {"enum": ["won", "lost", "abandoned"], "description": "In a player's list: for them"},
                },
            },
            "GamesPage": {
                "type": "object",
                "properties": {
                    "player": {"type": "string"},
                    "games": {"type": "array", "items": {"$ref": "#/components/schemas/Game"}},
                    "next": {**_NULLABLE_STRING, "description": "The next page's address (null: the last page)"},
                },
            },
            "Tournament": {
                "type": "object",
                "properties": {
                    "id": {"type": "string"},
                    "name": {"type": "string"},
                    "profile": {"type": "string"},
                    "target": {"type": "integer"},
                    "format": {"enum": ["swiss", "duplicate", "arena"]},
                    "state": {"enum": ["open", "running", "finished", "cancelled"]},
                    "rounds": {"type": "integer"},
                    "round": {"type": "integer"},
                    "deals": {"type": "integer"},
                    "starts_at": {"type": "string", "format": "date-time"},
                    "ends_at": {"type": ["string", "null"], "format": "date-time"},
                    "finished_at": {"type": ["string", "null"], "format": "date-time"},
                    "commitment": {"type": "string"},
                    "secret": {**_NULLABLE_STRING, "description": "Revealed once the tournament is over"},
                    "url": {"type": "string"},
                },
            },
            "Tournaments": {
                "type": "object",
                "properties": {
                    state: {"type": "array", "items": {"$ref": "#/components/schemas/Tournament"}}
                    for state in ("open", "running", "finished")
                },
            },
            "TournamentStandings": {
                "allOf": [
                    {"$ref": "#/components/schemas/Tournament"},
                    {
                        "type": "object",
                        "properties": {
                            "organiser": {"type": "string"},
                            "standings": {
                                "type": "array",
                                "items": {
                                    "type": "object",
                                    "properties": {
                                        "rank": {"type": "integer"},
                                        "players": {"type": "array", "items": {"type": "string"}},
                                        "wins": {"type": "number"},
                                        "points": {"type": "integer"},
                                        "matchpoints": {"type": "number"},
                                        "games": {"type": "integer"},
                                        "arena_points": {"type": ["integer", "null"]},
                                    },
                                },
                            },
                            "tables": {
                                "type": "array",
                                "items": {
                                    "type": "object",
                                    "properties": {
                                        "round": {"type": "integer"},
                                        "ns": {"type": "array", "items": {"type": "string"}},
                                        "ew": {"type": ["array", "null"], "items": {"type": "string"}},
                                        "deals": {"type": "array"},
                                        "totals": {"type": "array", "items": {"type": "integer"}},
                                        "game": _NULLABLE_STRING,
                                    },
                                },
                            },
                        },
                    },
                ]
            },
            "Leaderboard": {
                "type": "object",
                "properties": {
                    "board": {"type": "string"},
                    "min_games": {"type": "integer"},
                    "places": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {
                                "place": {"type": "integer"},
                                "name": {"type": "string"},
                                "rating": {"type": "integer"},
                                "rated_games": {"type": "integer"},
                                "owner": {"type": "string", "description": "The bots' board: the bot's owner"},
                                "games": {"type": "integer"},
                                "won": {"type": "integer"},
                                "player": {"type": "string"},
                            },
                        },
                    },
                },
            },
            "ChallengeDay": {
                "type": "object",
                "properties": {
                    "day": {"type": "string", "format": "date"},
                    "profile": {"type": "string"},
                    "commitment": {"type": "string"},
                    "seed": {"type": "string", "description": "The day's seed, revealed (hex)"},
                    "players": {"type": "integer"},
                    "ranking": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {
                                "rank": {"type": "integer"},
                                "name": {**_NULLABLE_STRING, "description": "null: an account since deleted"},
                                "player": _NULLABLE_STRING,
                                "average": {"type": "number"},
                                "percents": {"type": "array", "items": {"type": ["number", "null"]}},
                                "deals": {"type": "integer"},
                            },
                        },
                    },
                    "next": _NULLABLE_STRING,
                },
            },
        }
    },
}
"""The API's OpenAPI 3.1 description (a test checks that it names every route and that
every path it names answers)."""
