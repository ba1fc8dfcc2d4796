"""The daily challenge's pages: ``/defi`` | ``/challenge`` (today: the commitments, the
button that starts or resumes the visitor's attempt, their results and the ranking),
``/defi/{day}`` | ``/challenge/{day}`` (a day: once over, its revealed seed, its final
ranking and the expert's result on each deal) and ``/defi/{day}/donne/{n}`` |
``/challenge/{day}/deal/{n}`` (one deal compared: every player's result on the same cards,
the visitor's matchpoints, the double-dummy par and the review).

What stays hidden: a deal of a day not over is compared only for a visitor who has finished
it; nothing here shows a deal's cards before the day is over (the review of one's own
finished deal is the table's, for its player only)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date, timedelta
from typing import Any
from urllib.parse import quote

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from ...engine.cards import card_str, cards_of
from ..features.daily.model import DEALS, FIRST_DEALER, SOUTH, FieldLine, RankingLine, challenge_rules, day_hands
from ..features.daily.runner import DailyChallenge
from ..table import i18n
from ..table.days import day_end, day_of, next_day
from ..table.live_table import TableError
from ..table.matchpoints import DealField
from ..table.ratings import NEW_PLAYER, Rating
from ..table.seating import seat_names
from .account_pages import address_of, free_deals_of, limits_of, rate_limited
from .pages import ADDRESSES, account_of, page, player_in_session, player_of, read_checked_form

PATHS = {lang: ADDRESSES[lang]["challenge"] for lang in i18n.LANGUAGES}
DEAL_WORD = {"fr": "donne", "en": "deal"}
DAY = re.compile(r"20[0-9]{2}-[01][0-9]-[0-3][0-9]")


def daily_of(request: Request) -> DailyChallenge:
    daily = request.app.state.daily
    assert isinstance(daily, DailyChallenge)
    return daily


def day_url(lang: str, day: str | None = None) -> str:
    return PATHS[lang] + (f"/{day}" if day else "")


def deal_url(lang: str, day: str, n: int) -> str:
    return f"{PATHS[lang]}/{day}/{DEAL_WORD[lang]}/{n}"


def _lang(request: Request) -> str:
    return "en" if request.url.path.startswith(PATHS["en"]) else "fr"


def _other(lang: str) -> str:
    return "en" if lang == "fr" else "fr"


def _day_param(request: Request, today: str) -> str:
    """The day of the address: a real date, not after today (else 404)."""
    text = str(request.path_params["day"])
    if not DAY.fullmatch(text):
        raise HTTPException(404)
    try:
        date.fromisoformat(text)
    except ValueError:
        raise HTTPException(404) from None
    if text > today:
        raise HTTPException(404)
    return text


def contract_text(lang: str, contract: str | None) -> str:
    """``100H x2`` as ``100 cœur, coinché``; all passed when None."""
    if contract is None:
        return i18n.gettext(lang, "daily.passed")
    call, _, mult = contract.partition(" ")
    text = i18n.call_name(lang, call)
    if mult == "x2":
        text += " · " + i18n.gettext(lang, "call.coinche")
    elif mult:
        text += " · " + i18n.gettext(lang, "call.surcoinche")
    return text


def day_seat_names(lang: str, profile: str) -> list[str]:
    """Each seat's name as the day's table shows it to its player (South, seat 0): asked of
    ``seating``, which knows which way the day's rules go round."""
    return seat_names(lang, challenge_rules(profile).direction, SOUTH)


def seat_name(names: Sequence[str], seat: int | None) -> str:
    return "" if seat is None else names[seat & 3]


def made_text(lang: str, made: bool | None) -> str:
    if made is None:
        return ""
    return i18n.gettext(lang, "daily.made" if made else "daily.failed")


def ranking_rows(
    lines: list[RankingLine], player: str | None, lang: str, ratings: dict[str, Rating]
) -> list[dict[str, Any]]:
    return [
        {
            "rank": line.rank,
            "name": line.name if line.name is not None else i18n.gettext(lang, "daily.deleted"),
            "profile": None if line.name is None else f"{ADDRESSES[lang]['profile']}/{quote(line.name, safe='')}",
            "rating": ratings.get(line.player, NEW_PLAYER).display,
            "average": i18n.percent(lang, line.average, 100, decimals=1),
            "finished": line.finished,
            "me": line.player == player,
            "gap": i > 0 and line.position != lines[i - 1].position + 1,
        }
        for i, line in enumerate(lines)
    ]


async def day_page(request: Request, lang: str, day: str, *, error: str | None = None, status: int = 200) -> Response:
    """Today's page (start, resume) or a past day's (its deals, final ranking, expert)."""
    daily = daily_of(request)
    moment = daily_of(request).now()
    today = day_of(moment)
    over = moment >= day_end(day)
    found = await daily.ensure_day(today) if day == today else await daily.day(day)
    if found is None:
        raise HTTPException(404)
    player = player_in_session(request)
    attempt = await daily.db(daily.store.attempt, day, player) if player is not None else None
    mine = await daily.results(day, player) if player is not None else []
    lines, players = await daily.ranking_lines(day, moment, player)
    ratings = await daily.db(daily.store.ratings, [line.player for line in lines])
    expert = await daily.expert_results(day) if over else []
    if over and not expert:
        daily.expert_play_soon(day)  # a day nobody finished yet (the server was down at midnight)
    tomorrow = await daily.day(next_day(day)) if day == today else None
    yesterday = (date.fromisoformat(today) - timedelta(days=1)).isoformat()
    seed = await daily.revealed_seed(day, moment) if over else None
    if not over:
        seed = await daily.revealed_seed(yesterday, moment)
    finished = {r.deal for r in mine}
    names = day_seat_names(lang, found.profile)
    deals = [
        {
            "n": n,
            "url": deal_url(lang, day, n),
            "open": over or n in finished,
            "mine": next(
                (result_view(lang, names, r.contract, r.taker, r.made, r.deal_score) for r in mine if r.deal == n),
                None,
            ),
            "expert": next(
                (
                    result_view(lang, names, e["contract"], e["taker"], e["made"], e["deal_score"])
                    for e in expert
                    if e["deal"] == n
                ),
                None,
            ),
        }
        for n in range(1, DEALS + 1)
    ]
    return page(
        request,
        "daily.html",
        status=status,
        lang=lang,
        other_url=day_url(_other(lang), None if day == today else day),
        day=day,
        today=day == today,
        over=over,
        previous_url=day_url(lang, (date.fromisoformat(day) - timedelta(days=1)).isoformat()),
        next_url=None if day >= today else day_url(lang, None if next_day(day) == today else next_day(day)),
        path=PATHS[lang],
        profile=found.profile,
        deals_count=DEALS,
        deals=deals,
        commitment=found.commitment,
        tomorrow=next_day(day),
        tomorrow_commitment=tomorrow.commitment if tomorrow is not None else None,
        seed_day=day if over else yesterday,
        seed=seed,
        started=attempt is not None,
        finished=attempt is not None and attempt[1],
        table_id=attempt[0] if attempt is not None else None,
        ranking=ranking_rows(lines, player, lang, ratings),
        players=players,
        guest=account_of(request) is None,
        error=error,
    )


async def challenge(request: Request) -> Response:
    lang = _lang(request)
    today = day_of(daily_of(request).now())
    if request.method == "GET":
        asked = request.query_params.get("jour") or request.query_params.get("day")
        if asked and DAY.fullmatch(asked) and asked != today:  # the profile's calendar
            return RedirectResponse(day_url(lang, asked), status_code=303)
        return await day_page(request, lang, today)
    await read_checked_form(request)
    player = player_of(request)
    settings = request.app.state.settings
    limits = limits_of(request)  # a new guest at each request would make a table each time
    retry = await limits.hit(settings.table_limit, f"tables:{player}") or await limits.hit(
        settings.table_limit_per_address, f"tables:{address_of(request)}"
    )
    if retry is not None:
        return rate_limited(request, retry)
    try:
        spec = await daily_of(request).start(player, is_guest=account_of(request) is None)
    except TableError as e:
        if e.code == "challenge_done":
            return await day_page(request, lang, today, error="daily.done", status=409)
        raise
    free_deals_of(request).forget(player)
    return RedirectResponse(f"/table/{spec.id}", status_code=303)


async def past_day(request: Request) -> Response:
    lang = _lang(request)
    today = day_of(daily_of(request).now())
    day = _day_param(request, today)
    return await day_page(request, lang, day)


def result_view(
    lang: str, names: Sequence[str], contract: str | None, taker: int | None, made: bool | None, score: Sequence[int]
) -> dict[str, Any]:
    """One result of a deal in words: its contract, taker (``names``: the seats' names),
    made or not, and its score."""
    return {
        "contract": contract_text(lang, contract),
        "taker": seat_name(names, taker),
        "made": made_text(lang, made),
        "score": score,
    }


def field_rows(lang: str, names: Sequence[str], field: list[FieldLine]) -> tuple[list[dict[str, Any]], DealField]:
    """The deal's field as table rows, best score first, each with its matchpoints."""
    counts: dict[int, int] = {}
    for line in field:
        counts[line.score] = counts.get(line.score, 0) + line.count
    rows = []
    for line in sorted(field, key=lambda f: (-f.score, -f.count, f.contract or "")):
        rows.append(
            result_view(lang, names, line.contract, line.taker, line.made, line.deal_score)
            | {"count": line.count, "percent": f"{DealField(counts).percent(line.score):.0f}"}
        )
    return rows, DealField(counts)


def percent_against(field: DealField, score: int, counted: bool) -> str:
    """A result's matchpoints against the field (``counted``: it is one of the field's)."""
    if counted:
        return f"{field.percent(score):.0f}"
    counts = dict(field.counts)
    counts[score] = counts.get(score, 0) + 1
    return f"{DealField(counts).percent(score):.0f}"


def par_rows(lang: str, names: Sequence[str], par: dict[str, Any] | None) -> list[dict[str, Any]]:
    if par is None:
        return []
    out = []
    for side in par["sides"]:
        team = side["team"]
        out.append(
            {
                "side": i18n.gettext(lang, "daily.side.ns" if team == 0 else "daily.side.ew"),
                "contract": contract_text(lang, side["call"]) if side["call"] else i18n.gettext(lang, "daily.par.none"),
                "taker": seat_name(names, side["taker"]),
                "score": side["score"],
            }
        )
    return out


async def deal_page(request: Request) -> Response:
    lang = _lang(request)
    if request.path_params["word"] != DEAL_WORD[lang]:
        raise HTTPException(404)
    daily = daily_of(request)
    moment = daily_of(request).now()
    today = day_of(moment)
    day = _day_param(request, today)
    text = request.path_params["n"]
    if not text.isdigit() or not 1 <= int(text) <= DEALS or len(text) > 1:
        raise HTTPException(404)
    n = int(text)
    found = await daily.day(day)
    if found is None:
        raise HTTPException(404)
    over = moment >= day_end(day)
    player = player_in_session(request)
    mine = [r for r in await daily.results(day, player) if r.deal == n] if player is not None else []
    own = mine[0] if mine else None
    if not over and own is None:  # others' results stay hidden until one has played the deal
        return page(
            request,
            "daily_deal_hidden.html",
            status=403,
            lang=lang,
            other_url=deal_url(_other(lang), day, n),
            day=day,
            n=n,
            day_url=day_url(lang, day),
        )
    field = await daily.deal_field(day, n)
    expert = [e for e in await daily.expert_results(day) if e["deal"] == n] if over else []
    names = day_seat_names(lang, found.profile)
    rows, deal_field = field_rows(lang, names, field)
    par = await daily.par(day, n, wait=10.0)
    attempt = await daily.db(daily.store.attempt, day, player) if player is not None else None
    hands: list[dict[str, Any]] = []
    if over:
        dealt = day_hands(found.seed, day, n)
        hands = [{"seat": names[s], "cards": [card_str(c) for c in cards_of(dealt[s])]} for s in (0, 1, 2, 3)]
    return page(
        request,
        "daily_deal.html",
        lang=lang,
        other_url=deal_url(_other(lang), day, n),
        day=day,
        n=n,
        deals_count=DEALS,
        day_url=day_url(lang, day),
        deal_urls=[deal_url(lang, day, k) for k in range(1, DEALS + 1)],
        dealer=seat_name(names, (FIRST_DEALER + n - 1) % 4),
        over=over,
        own=None
        if own is None
        else result_view(lang, names, own.contract, own.taker, own.made, own.deal_score)
        | {"percent": percent_against(deal_field, own.score, counted=not own.guest)},
        review_url=f"/table/{attempt[0]}/donne/{n}" if attempt is not None and own is not None else None,
        expert=None
        if not expert
        else result_view(
            lang, names, expert[0]["contract"], expert[0]["taker"], expert[0]["made"], expert[0]["deal_score"]
        )
        | {"percent": percent_against(deal_field, expert[0]["score"], counted=False) if deal_field.size else None},
        field=rows,
        players=deal_field.size,
        par=par_rows(lang, names, par),
        par_pending=par is None,
        hands=hands,
        card_name=lambda code: i18n.card_name(lang, code),
    )


routes: list[BaseRoute] = [
    *(Route(PATHS[lang], challenge, methods=["GET", "POST"]) for lang in i18n.LANGUAGES),
    *(Route(PATHS[lang] + "/{day}", past_day) for lang in i18n.LANGUAGES),
    *(Route(PATHS[lang] + "/{day}/{word}/{n}", deal_page) for lang in i18n.LANGUAGES),
]
