"""Tournaments' pages (issue 30): the list (``/tournois``, ``/tournaments``: upcoming,
running, finished), the organiser's form (``/tournois/nouveau``), a tournament's page
(``/tournoi/{id}``: its rules, entrants, entering and withdrawing, the standings kept live
by ``/ws/tournament/{id}``, each round's tables, the deals' comparison once it is over)
and its forms (``POST /tournoi/{id}``). The rules are ``features/tournaments``; the
entrants are taken to their tables by their person socket (``person.js``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket

from ...engine.rules import PROFILES
from ..features.clubs import Clubs
from ..features.tournaments.model import (
    FORMATS,
    LEVELS,
    LIMITS,
    SITE,
    Plan,
    RoundTable,
    Tournament,
    channel,
    result_sheet,
    seen_deals,
    shown_results,
)
from ..features.tournaments.runner import Tournaments
from ..table import i18n
from ..table.days import CLUB_TIME
from ..table.live_table import TableError
from ..table.tournament_scoring import deal_percents
from .account_pages import lang_of_path, limits_of, rate_limited
from .change_socket import serve_changes
from .daily_pages import par_rows
from .pages import ADDRESSES, account_of, page, read_checked_form, settings_of

ENTRY_ACTIONS: Final = frozenset({"enter", "withdraw", "accept", "decline", "cancel", "start"})
PAGE_PATHS: Final = {lang: ADDRESSES[lang]["tournament"] for lang in ("fr", "en")}
"""A tournament's page, ``/tournoi/{id}``, by language."""
SHEET_PATHS: Final = {"fr": "feuille", "en": "sheet"}
"""Its result sheet, ``/tournoi/{id}/feuille``, by language."""
FRAGMENTS_KEPT: Final = 128
"""Rendered standings fragments a process keeps (a change of the standings makes a new one)."""

_fragments: dict[tuple[str, str, Any], bytes] = {}


def tournaments_of(request: Request | WebSocket) -> Tournaments:
    found: Tournaments = request.app.state.tournaments
    return found


def refusal(lang: str, error: TableError) -> str:
    """Why a tournament refused, in ``lang``: the message it gave (a suspension's), else
    its code's sentence."""
    if error.message is not None:
        return i18n.render(lang, error.message)
    return i18n.gettext(lang, f"tournament.error.{error.code}")


def _parse_local(text: str) -> datetime:
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=CLUB_TIME)
    return moment.astimezone(UTC)


async def list_page(request: Request) -> Response:
    lang, other_url = lang_of_path(request, "tournaments")
    found = await tournaments_of(request).listing()
    return page(
        request,
        "tournaments.html",
        lang=lang,
        other_url=other_url,
        listing=found,
        page_path=PAGE_PATHS[lang],
        signed_in=account_of(request) is not None,
    )


def _plan_of(form: Any, now: datetime) -> Plan:
    def number(key: str, kind: type[Any] = int) -> Any:
        try:
            return kind(str(form.get(key, "")).strip().replace(",", "."))
        except ValueError:
            raise TableError(f"bad_{key}") from None

    try:
        starts_at = _parse_local(str(form.get("starts_at", ""))[:40])
    except (ValueError, OverflowError):
        raise TableError("bad_start") from None
    return Plan(
        name=str(form.get("name", ""))[:61],
        profile=str(form.get("profile", "")),
        format=str(form.get("format", "")),
        rounds=number("rounds"),
        deals=number("deals"),
        minutes_per_deal=number("minutes_per_deal", float),
        starts_at=starts_at,
        opens_at=min(now, starts_at),
        private=form.get("private") == "on",
        alone=form.get("alone") == "on",
        computer_partner=form.get("computer_partner") == "on",
        bots=form.get("bots") == "on",
        level=str(form.get("level", "")),
        break_seconds=number("break_seconds"),
        duration_minutes=number("duration_minutes") if form.get("duration_minutes") else 60,
    )


async def new_page(request: Request) -> Response:
    """The organiser's form, and its answer (on to the new tournament's page)."""
    lang, other_url = lang_of_path(request, "new_tournament")
    account = account_of(request)
    if account is None:
        if request.method == "POST":
            raise HTTPException(403)
        return RedirectResponse(f"{ADDRESSES[lang]['login']}?next={ADDRESSES[lang]['new_tournament']}", status_code=303)
    tournaments = tournaments_of(request)
    now = tournaments.now()
    values: dict[str, Any] = {
        "name": "",
        "profile": "classic",
        "format": "swiss",
        "rounds": 4,
        "deals": 12,
        "minutes_per_deal": 3,
        "break_seconds": 60,
        "duration_minutes": 60,
        "starts_at": (now + timedelta(minutes=30)).astimezone(CLUB_TIME).strftime("%Y-%m-%dT%H:%M"),
        "level": "confirmed",
        "private": False,
        "alone": True,
        "computer_partner": True,
        "bots": False,
    }
    error = None
    status = 200
    if request.method == "POST":
        form = await read_checked_form(request)
        if len(form.multi_items()) > 20:
            raise HTTPException(400)
        retry = await limits_of(request).hit(settings_of(request).tournament_limit, f"tournament:{account.player}")
        if retry is not None:
            return rate_limited(request, retry)
        values.update({k: v for k, v in form.items() if k in values and isinstance(v, str)})
        for box in ("private", "alone", "computer_partner", "bots"):
            values[box] = form.get(box) == "on"
        club = form.get("club") or None
        try:
            plan = _plan_of(form, now)
            if club is not None:
                # a club's tournament: organised by the club's owner or one of its moderators
                clubs: Clubs = request.app.state.clubs
                if not isinstance(club, str) or await clubs.role(club[:16], account.player) not in (
                    "owner",
                    "moderator",
                ):
                    raise TableError("not_club_moderator")
                plan = replace(plan, club=club[:16])
            created = await tournaments.create(plan, account.player)
        except TableError as e:
            error = refusal(lang, e)
            status = 400
        else:
            return RedirectResponse(f"{PAGE_PATHS[lang]}/{created.id}", status_code=303)
    return page(
        request,
        "tournament_new.html",
        status=status,
        lang=lang,
        other_url=other_url,
        values=values,
        error=error,
        club=request.query_params.get("club") if request.method == "GET" else None,
        profiles=tuple(PROFILES),
        formats=FORMATS,
        levels=LEVELS,
        limits=LIMITS,
    )


def _entry_names(entries: Sequence[Any], names: dict[str, str]) -> dict[str, str]:
    out = {}
    for entry in entries:
        people = [names.get(p, "?") for p in entry.players]
        out[entry.id] = " & ".join(people) if len(people) == 2 else people[0]
    return out


def draw_ids(tournament: Tournament, tables: Sequence[RoundTable]) -> list[str]:
    """The entries round 1's draw shuffled, in the order it took them (sorted): those of
    round 1's tables, what the page shows so that anyone can recompute the draw with the
    secret (docs/tournaments.md); none for an arena (no draw) or before the start."""
    if tournament.is_arena:
        return []
    return sorted({p for t in tables if t.round == 1 for p in (t.ns, t.ew) if p is not None})


async def _context(request: Request, tournament: Tournament, lang: str) -> dict[str, Any]:
    tournaments = tournaments_of(request)
    snapshot = await tournaments.snapshot(tournament)
    version = snapshot.key
    entries, tables = snapshot.entries, snapshot.tables
    people = {p for e in entries for p in (e.first, e.second) if p is not None} | {tournament.organiser}
    names = await tournaments.names(sorted(people))
    names[SITE] = "Coinche"
    entry_names = _entry_names(entries, names)
    entry_names.setdefault("", "")
    lines = snapshot.lines
    rounds: dict[int, list[RoundTable]] = {}
    for table in tables:
        rounds.setdefault(table.round, []).append(table)
    return {
        "tournament": tournament,
        "entries": entries,
        "names": names,
        "entry_names": entry_names,
        "lines": lines,
        "rounds": sorted(rounds.items(), reverse=True),
        "seen_deals": seen_deals(tournament, tables),
        "shown": shown_results(tournament, tables),
        "draw_ids": draw_ids(tournament, tables),
        "page_path": PAGE_PATHS[lang],
        "sheet_path": SHEET_PATHS[lang],
        "public": tournament.code is None,
        "version": version,
    }


async def tournament_page(request: Request) -> Response:
    lang = "en" if request.url.path.startswith(PAGE_PATHS["en"] + "/") else "fr"
    tournaments = tournaments_of(request)
    account = account_of(request)
    form = None
    if request.method == "POST":  # the form's token first: a forged post learns nothing
        if account is None:
            raise HTTPException(403)
        form = await read_checked_form(request)
    tournament = await tournaments.get(request.path_params["tournament_id"])
    if tournament is None:
        raise HTTPException(404)
    other = "fr" if lang == "en" else "en"
    error = None
    status = 200
    if form is not None and account is not None:
        action = form.get("action")
        if action not in ENTRY_ACTIONS or len(form.multi_items()) > 4:
            raise HTTPException(400)
        retry = await limits_of(request).hit(settings_of(request).tournament_limit, f"tournament:{account.player}")
        if retry is not None:
            return rate_limited(request, retry)
        try:
            await _act(tournaments, tournament, account.player, str(action), form)
        except TableError as e:
            error = refusal(lang, e)
            status = 400
        else:
            return RedirectResponse(f"{PAGE_PATHS[lang]}/{tournament.id}", status_code=303)
        refreshed = await tournaments.get(tournament.id)
        assert refreshed is not None
        tournament = refreshed
    context = await _context(request, tournament, lang)
    if request.query_params.get("part") == "standings":
        # every watcher of a round under way asks at each result: rendered once per change
        version = context["version"]  # None: entries still open, nothing kept
        key = (tournament.id, lang, version)
        body = _fragments.get(key) if version is not None else None
        if body is None:
            body = bytes(page(request, "_tournament_standings.html", lang=lang, **context).body)
            if version is not None:
                _fragments[key] = body
                while len(_fragments) > FRAGMENTS_KEPT:
                    _fragments.pop(next(iter(_fragments)))
        return HTMLResponse(body)
    mine = None
    proposals: list[Any] = []
    if account is not None:
        mine = next((e for e in context["entries"] if account.player in e.players or account.player == e.first), None)
        proposals = await tournaments.proposals(tournament.id, account.player)
    return page(
        request,
        "tournament.html",
        status=status,
        lang=lang,
        other_url=f"{PAGE_PATHS[other]}/{tournament.id}",
        error=error,
        mine=mine,
        proposals=proposals,
        organiser=account is not None and account.player == tournament.organiser,
        signed_in=account is not None,
        now=tournaments.now(),
        **context,
    )


async def _act(tournaments: Tournaments, tournament: Tournament, player: str, action: str, form: Any) -> None:
    if action == "enter":
        partner_name = str(form.get("partner", "")).strip()[:64]
        partner = None
        if partner_name:
            partner = await tournaments.account_named(partner_name)
        code = form.get("code")
        await tournaments.enter(tournament.id, player, partner, str(code)[:16] if code is not None else None)
    elif action == "withdraw":
        await tournaments.withdraw(tournament.id, player)
    elif action in ("accept", "decline"):
        await tournaments.answer(tournament.id, player, str(form.get("entry", "")), action == "accept")
    elif action == "start":
        await tournaments.start_now(tournament.id, player)
    else:
        await tournaments.cancel(tournament.id, player)


async def round_page(request: Request) -> Response:
    """A round's deals compared, table by table (once the tournament is over: its deals
    are public then)."""
    lang = "en" if request.url.path.startswith(PAGE_PATHS["en"] + "/") else "fr"
    tournaments = tournaments_of(request)
    tournament = await tournaments.get(request.path_params["tournament_id"])
    try:
        number = int(request.path_params["number"])
    except ValueError:
        raise HTTPException(404) from None
    if tournament is None or tournament.state != "finished":
        raise HTTPException(404)
    context = await _context(request, tournament, lang)
    tables = [t for _, ts in context["rounds"] if ts and ts[0].round == number for t in ts]
    if not tables:
        raise HTTPException(404)
    results = [t.result for t in tables if t.result is not None]
    played = [t for t in tables if t.result is not None]
    pars = await tournaments.pars(tournament, number)
    seats = [i18n.gettext(lang, f"seat.short.{seat}") for seat in ("south", "west", "north", "east")]
    deals = []
    for d in range(tournament.deals):
        percents = deal_percents(results, d) if results else []
        rows = []
        for table, (ns_pct, ew_pct) in zip(played, percents, strict=True):
            assert table.result is not None
            rows.append((table, table.result.deals[d], ns_pct, ew_pct))
        deals.append((d + 1, rows, par_rows(lang, seats, pars[d])))
    other = "fr" if lang == "en" else "en"
    return page(
        request,
        "tournament_round.html",
        lang=lang,
        other_url=f"{PAGE_PATHS[other]}/{tournament.id}/manche/{number}",
        number=number,
        deals=deals,
        **context,
    )


async def sheet_page(request: Request) -> Response:
    """The result sheet, to print and pin on the club's board: rank, pair, each round's
    score and the totals, as anyone may see them (a round under way as it stands)."""
    lang = "en" if request.url.path.startswith(PAGE_PATHS["en"] + "/") else "fr"
    tournaments = tournaments_of(request)
    tournament = await tournaments.get(request.path_params["tournament_id"])
    if tournament is None or tournament.state in ("open", "cancelled"):
        raise HTTPException(404)
    context = await _context(request, tournament, lang)
    sheet = result_sheet(tournament, [t for _, ts in context["rounds"] for t in ts], context["lines"])
    club = None
    if tournament.club is not None:
        clubs: Clubs = request.app.state.clubs
        club = await clubs.club(tournament.club)
    other = "fr" if lang == "en" else "en"
    return page(
        request,
        "tournament_sheet.html",
        lang=lang,
        other_url=f"{PAGE_PATHS[other]}/{tournament.id}/{SHEET_PATHS[other]}",
        sheet=sheet,
        columns=len(sheet[0].games) if sheet else 0,
        club=club,
        **context,
    )


async def standings_socket(websocket: WebSocket) -> None:
    """``/ws/tournament/{id}``: ``{"type": "changed"}`` when its standings may have changed."""
    await serve_changes(websocket, channel(websocket.path_params["tournament_id"][:16]))


routes: list[BaseRoute] = [
    *(Route(ADDRESSES[lang]["tournaments"], list_page) for lang in i18n.LANGUAGES),
    *(Route(ADDRESSES[lang]["new_tournament"], new_page, methods=["GET", "POST"]) for lang in i18n.LANGUAGES),
    *(
        Route(PAGE_PATHS[lang] + "/{tournament_id}", tournament_page, methods=["GET", "POST"])
        for lang in i18n.LANGUAGES
    ),
    *(Route(PAGE_PATHS[lang] + "/{tournament_id}/manche/{number}", round_page) for lang in i18n.LANGUAGES),
    *(Route(f"{PAGE_PATHS[lang]}/{{tournament_id}}/{SHEET_PATHS[lang]}", sheet_page) for lang in i18n.LANGUAGES),
    WebSocketRoute("/ws/tournament/{tournament_id}", standings_socket),
]
