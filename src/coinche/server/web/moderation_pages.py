"""The site's team's pages (``features.moderation``): the reports grouped by person, a
person's page (their reports, the tables they came from with what was said there and
the moves with their times, the team's actions and the form to act), and the audit log.

Every route reads the visitor's role from the database, at each request: anyone not on
the team gets 404 (the pages are not there for them). Every form carries the CSRF token
and is checked for this site's origin (``read_checked_form``).
"""

from __future__ import annotations

from typing import Any, Final

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from ...engine.actions import ANNOUNCE, action_str, call_str, is_card, is_declaration
from ...engine.cards import card_str
from ..features.accounts import Account
from ..features.friends import EMOTES
from ..features.moderation import KINDS, LONGEST, REASON_MAX, Action, Moderation, Move
from ..table import i18n
from ..table.seating import record_seat_names
from .account_pages import TEAM_HOME
from .pages import account_of, page, read_checked_form, tables_of

PATHS: Final = {
    "fr": {
        "home": TEAM_HOME["fr"],
        "person": "/equipe/joueur",
        "undo": "/equipe/action/{action_id}/annuler",
        "log": "/equipe/journal",
    },
    "en": {
        "home": TEAM_HOME["en"],
        "person": "/team/player",
        "undo": "/team/action/{action_id}/undo",
        "log": "/team/log",
    },
}
FIELDS: Final = frozenset({"csrf", "kind", "days", "reason"})


def moderation_of(request: Request) -> Moderation:
    moderation: Moderation = request.app.state.moderation
    return moderation


def _lang(request: Request) -> str:
    return "en" if request.url.path.startswith("/team") else "fr"


def _other(lang: str) -> str:
    return "fr" if lang == "en" else "en"


async def _team(request: Request) -> tuple[Account, str]:
    """The visitor's account and role on the team; anyone else: 404."""
    account = account_of(request)
    role = await moderation_of(request).role(account)
    if account is None or role is None:
        raise HTTPException(404)
    return account, role


def _when(moment: Any) -> str:
    return str(moment.strftime("%Y-%m-%d %H:%M"))


def action_view(lang: str, a: Action) -> dict[str, Any]:
    """An action of the log, in words."""
    return {
        "id": a.id,
        "kind": a.kind,
        "what": i18n.gettext(lang, f"moderation.kind.{a.kind}"),
        "name": a.name,
        "person_url": f"{PATHS[lang]['person']}/{a.player}",
        "moderator": a.moderator,
        "reason": a.reason,
        "at": _when(a.at),
        "until": _when(a.until) if a.until is not None else None,
        "undone": a.undone_by is not None,
        "undoes": a.undoes,
        "undo_url": PATHS[lang]["undo"].format(action_id=a.id),
        "undoable": a.kind != "undo" and a.undone_by is None,
    }


def _move_text(lang: str, m: Move) -> str:
    """What a step of the log did, in words."""
    if m.kind == "deal":
        return i18n.gettext(lang, "moderation.move.next_deal")
    if m.kind in ("seat", "swap"):
        return i18n.gettext(lang, f"moderation.move.{m.kind}")
    if m.kind != "action" or m.action is None:
        return m.kind
    if is_card(m.action):
        return i18n.card_short(lang, card_str(m.action))
    if ANNOUNCE <= m.action < ANNOUNCE + 32:
        return i18n.gettext(lang, "moderation.move.belote", card=i18n.card_short(lang, card_str(m.action - ANNOUNCE)))
    if is_declaration(m.action):
        return i18n.gettext(lang, "moderation.move.declare")
    try:
        return i18n.call_name(lang, call_str(m.action))
    except ValueError:
        return action_str(m.action)


async def home_page(request: Request) -> Response:
    """The people reported lately, the most reporters first."""
    await _team(request)
    lang = _lang(request)
    found = await moderation_of(request).reported()
    rows = [
        {
            "name": r.name,
            "url": f"{PATHS[lang]['person']}/{r.player}",
            "reporters": r.reporters,
            "reports": r.reports,
            "reasons": ", ".join(
                f"{i18n.gettext(lang, f'report.reason.{reason}')} ×{count}"
                for reason, count in sorted(r.reasons.items())
            ),
            "last": _when(r.last),
            "restriction": action_view(lang, r.restriction) if r.restriction is not None else None,
        }
        for r in found
    ]
    return page(request, "team.html", lang=lang, other_url=PATHS[_other(lang)]["home"], rows=rows, paths=PATHS[lang])


async def person_page(request: Request) -> Response:
    """A person's reports, the tables they came from, the team's actions; POST: an action."""
    form = await read_checked_form(request) if request.method == "POST" else None  # a forged form: 403 first
    account, role = await _team(request)
    lang = _lang(request)
    moderation = moderation_of(request)
    player = request.path_params["player"]
    status = 200
    error = None
    if form is not None:
        if any(name not in FIELDS for name in form) or len(form.multi_items()) > len(FIELDS):
            raise HTTPException(400)
        kind, reason, days_text = form.get("kind"), form.get("reason"), form.get("days")
        days: int | None = None
        if isinstance(days_text, str) and days_text.strip():
            days = int(days_text) if days_text.strip().isdigit() and len(days_text) <= 5 else -1
        person = await moderation.person(player)
        if person is None:
            raise HTTPException(404)
        try:
            if not isinstance(kind, str) or not isinstance(reason, str):
                raise ValueError("missing")
            await moderation.act(account, role, kind, person.player, reason, days)
        except ValueError as e:
            status = 400
            error = i18n.gettext(lang, f"moderation.error.{_error_code(str(e))}")
        else:
            return RedirectResponse(f"{PATHS[lang]['person']}/{person.player}", status_code=303)
    person = await moderation.person(player)
    if person is None:
        raise HTTPException(404)
    tables = []
    for table_id in dict.fromkeys(r.table_id for r in person.reports):
        said = await moderation.said(table_id)
        moves, names = await moderation.moves(table_id)
        live = await tables_of(request).table(table_id)
        positions = record_seat_names(lang, live.spec.rules.direction if live is not None else "anticlockwise")
        tables.append(
            {
                "id": table_id,
                "said": [
                    {
                        "at": _when(x.at),
                        "seat": positions[x.seat],
                        "who": names.get(x.player, x.player),
                        "mine": x.player == person.player,
                        "what": i18n.gettext(lang, f"say.{x.what}") if x.kind == "say" else EMOTES.get(x.what, "?"),
                    }
                    for x in said
                ],
                "moves": [
                    {
                        "seq": m.seq,
                        "at": m.at.strftime("%H:%M:%S"),
                        "seconds": round((m.at - moves[i - 1].at).total_seconds()) if i else None,
                        "seat": positions[m.seat],
                        "who": names.get(m.player, m.player)
                        if m.player is not None
                        else i18n.gettext(lang, "moderation.computer"),
                        "mine": m.player == person.player,
                        "what": _move_text(lang, m),
                        "by": i18n.gettext(lang, f"moderation.by.{m.by}") if m.by in ("away", "idle") else None,
                    }
                    for i, m in enumerate(moves)
                ],
            }
        )
    restriction = await moderation.restriction(person.player)
    return page(
        request,
        "team_person.html",
        status=status,
        lang=lang,
        other_url=f"{PATHS[_other(lang)]['person']}/{person.player}",
        person=person,
        role=person.role,
        may_act=person.player != account.player
        and person.role != "admin"
        and (person.role != "moderator" or role == "admin"),
        restriction=action_view(lang, restriction) if restriction is not None else None,
        reports=[
            {
                "at": _when(r.at),
                "table": r.table_id,
                "reporter": r.reporter or i18n.gettext(lang, "moderation.a_guest", id=r.reporter_id[:8]),
                "reason": i18n.gettext(lang, f"report.reason.{r.reason}"),
            }
            for r in person.reports
        ],
        tables=tables,
        actions=[action_view(lang, a) for a in person.actions],
        kinds=KINDS,
        longest=LONGEST.days,
        reason_max=REASON_MAX,
        error=error,
        action=f"{PATHS[lang]['person']}/{person.player}",
        paths=PATHS[lang],
    )


def _error_code(text: str) -> str:
    return {"yourself": "yourself", "a team member": "team", "bad time": "time"}.get(text, "action")


async def undo_page(request: Request) -> Response:
    """POST: undo an action of the log (the undo is kept too, with who and why)."""
    form = await read_checked_form(request)
    account, _ = await _team(request)
    lang = _lang(request)
    reason = form.get("reason")
    if not isinstance(reason, str) or not reason.strip() or len(reason) > REASON_MAX:
        raise HTTPException(400)
    moderation = moderation_of(request)
    undone = await moderation.undo(account, request.path_params["action_id"], reason)
    if undone is None:
        raise HTTPException(404)
    return RedirectResponse(f"{PATHS[lang]['person']}/{undone.player}", status_code=303)


async def log_page(request: Request) -> Response:
    """The audit log: every action of the team, the newest first."""
    await _team(request)
    lang = _lang(request)
    actions = [action_view(lang, a) for a in await moderation_of(request).log()]
    return page(
        request, "team_log.html", lang=lang, other_url=PATHS[_other(lang)]["log"], actions=actions, paths=PATHS[lang]
    )


routes: list[BaseRoute] = [
    r
    for lang in ("fr", "en")
    for r in (
        Route(PATHS[lang]["home"], home_page),
        Route(PATHS[lang]["log"], log_page),
        Route(PATHS[lang]["person"] + "/{player}", person_page, methods=["GET", "POST"]),
        Route(PATHS[lang]["undo"], undo_page, methods=["POST"]),
    )
]
