"""Quick play's pages (``/partie-rapide``, ``/quick-game``): a signed-in player chooses the
rules (or any) and presses one button; the page then waits, counting down to the moment
computers take the free seats, with a button to stop waiting. The seat found comes over
the person's socket (``person_socket``: ``/ws/me``), and the page goes to the table.

The queue and the waves are ``features/quick_play.py``; nothing here decides who sits
where.
"""

from __future__ import annotations

from typing import Any, Final

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from ..features.moderation import Moderation, refusal
from ..features.quick_play import RULES, QuickPlay, Wait
from ..table import i18n
from ..table.live_table import TableError
from ..table.matchmaking import nearest_level
from .account_pages import lang_of_path, limits_of, rate_limited
from .pages import ADDRESSES, account_of, page, read_checked_form

ANY: Final = "any"
"""The form's value for "any rules"."""
FIELDS: Final = frozenset({"csrf", "action", "rules"})


def quick_play_of(request: Request) -> QuickPlay:
    quick: QuickPlay = request.app.state.quick_play
    return quick


async def quick_page(request: Request) -> Response:
    """The choice of rules and the button; once pressed, the wait (or the table found)."""
    lang, _ = lang_of_path(request, "quick")
    account = account_of(request)
    if account is None:
        if request.method == "POST":
            raise HTTPException(403)
        return RedirectResponse(f"{ADDRESSES[lang]['login']}?next={ADDRESSES[lang]['quick']}", status_code=303)
    quick = quick_play_of(request)
    if request.method == "POST":
        return await _pressed(request, quick, account.player, lang)
    return await _page(request, quick, lang, account.player)


async def _page(
    request: Request, quick: QuickPlay, lang: str, player: str, status: int = 200, refused: str | None = None
) -> Response:
    """The choice, the wait or the table found; ``refused``: why the person may not wait
    (a suspension: they are told why and until when, before they press)."""
    wait = await quick.status(player)
    if wait is not None and wait.table_id is not None:
        seated = await quick.seated(wait.table_id, player)
        if seated:
            return RedirectResponse(f"/table/{wait.table_id}", status_code=303)
        if seated is False:
            wait = None  # that game is over: choose again
        # None: claimed, not made yet: the wait shows, its socket tells the table made
    if refused is None and wait is None:
        moderation: Moderation = request.app.state.moderation
        bound = await moderation.restriction(player)
        refused = i18n.render(lang, refusal(bound)) if bound is not None else None
    return page(
        request,
        "quick.html",
        status=status,
        lang=lang,
        other_url=ADDRESSES["fr" if lang == "en" else "en"]["quick"],
        rules_choices=(ANY, *RULES),
        wait_words=i18n.duration(lang, quick.settings.quick_wait_seconds),
        refused=refused,
        **_wait_context(quick, wait),
    )


def _wait_context(quick: QuickPlay, wait: Wait | None) -> dict[str, Any]:
    if wait is None:
        return {"wait": None}
    return {
        "wait": wait,
        "chosen": wait.rules or ANY,
        "seconds_left": round(wait.seconds_left(quick.settings.clock())),
        "computer_level": nearest_level([wait.rating], quick.levels),
    }


async def _pressed(request: Request, quick: QuickPlay, player: str, lang: str) -> Response:
    form = await read_checked_form(request)
    if any(name not in FIELDS for name in form) or len(form.multi_items()) > len(FIELDS):
        raise HTTPException(400)
    action = form.get("action")
    rules = form.get("rules", ANY)
    if action not in ("join", "leave") or not isinstance(rules, str) or rules not in (ANY, *RULES):
        raise HTTPException(400)
    retry = await limits_of(request).hit(quick.settings.quick_limit, f"quick:{player}")
    if retry is not None:
        return rate_limited(request, retry)
    if action == "leave":
        await quick.leave(player)
    else:
        try:
            await quick.join(player, None if rules == ANY else rules)
        except TableError as e:
            if e.message is None:
                raise HTTPException(400) from None
            return await _page(request, quick, lang, player, status=403, refused=i18n.render(lang, e.message))
    return RedirectResponse(ADDRESSES[lang]["quick"], status_code=303)


routes: list[BaseRoute] = [
    Route(ADDRESSES["fr"]["quick"], quick_page, methods=["GET", "POST"]),
    Route(ADDRESSES["en"]["quick"], quick_page, methods=["GET", "POST"]),
]
