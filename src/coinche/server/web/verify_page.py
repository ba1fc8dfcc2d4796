"""The page that checks a deal's dealing (docs/dealing.md): ``/verifier`` in French,
``/verify`` in English. A person pastes a record or chooses its file; for each deal that
carries ``dealing``, the page says whether the revealed seed gives back the commitment
and the hands, or what differs. The engine does the checking (``dealing.check_record``);
this module reads the form and bounds it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import BaseRoute, Route

from ...engine.dealing import DealCheck, Fault, check_record
from ...engine.errors import EngineError
from ...engine.record import NotJSONError, decode_record, parse_record
from ..table import i18n
from ..table.seating import record_seat_names
from .pages import ADDRESSES, page, read_checked_form

PATHS: Final = {lang: ADDRESSES[lang]["verify"] for lang in i18n.LANGUAGES}
MAX_RECORD_BYTES: Final = 256 * 1024
"""The largest record the page checks (a game's record is a few KB)."""
MAX_BODY_BYTES: Final = 2 * MAX_RECORD_BYTES + 16 * 1024
"""The form's body: the pasted text, the file and the fields around them."""
DOC_PATH: Final = "/dealing.md"
DOC: Final = Path(__file__).resolve().parents[4] / "docs" / "dealing.md"
"""The algorithm's description, served as text where the sources are (not in a wheel)."""


def check_text(raw: bytes, lang: str) -> tuple[str | None, list[dict[str, Any]]]:
    """(the refusal to show, or None; each deal's result in words) for a record's bytes."""
    if not raw.strip():
        return i18n.gettext(lang, "verify.empty"), []
    if len(raw) > MAX_RECORD_BYTES:
        return i18n.gettext(lang, "verify.too_large", size=MAX_RECORD_BYTES // 1024), []
    try:
        data = decode_record(raw)
        checks = check_record(data)
        names = record_seat_names(lang, parse_record(data).rules.direction)
    except EngineError as e:
        return record_error_words(lang, e), []
    return None, [_deal_words(check, lang, names) for check in checks]


def record_error_words(lang: str, error: EngineError) -> str:
    """Why a record is refused, in the visitor's language: bytes that are not JSON get a
    plain sentence with the line and column (never the JSON parser's own text); any other
    fault is the engine's one-line English message."""
    if isinstance(error, NotJSONError):
        if error.line is None or error.column is None:
            return i18n.gettext(lang, "verify.not_utf8")
        return i18n.gettext(lang, "verify.not_json", line=error.line, column=error.column)
    return i18n.gettext(lang, "verify.bad_record", message=str(error))


@dataclass(frozen=True)
class PostedRecord:
    """A record posted by the form of ``/verifier`` or ``/revoir``: ``raw``, its bytes
    (None when refused), the pasted ``text`` to show back, the refusal and its status."""

    raw: bytes | None
    text: str
    error: str | None = None
    status: int = 200


async def read_record_form(request: Request, lang: str) -> PostedRecord:
    """The record of a posted form (field ``record`` pasted, or ``file`` chosen; the file
    wins), checked for its CSRF token (else 403) and bounded: an empty or too large one is
    refused here (400, 413), with the words to show."""
    try:
        form = await read_checked_form(request, MAX_BODY_BYTES, files=True)
    except HTTPException as e:
        if e.status_code != 413:
            raise
        return PostedRecord(None, "", i18n.gettext(lang, "verify.too_large", size=MAX_RECORD_BYTES // 1024), 413)
    pasted, upload = form.get("record"), form.get("file")
    text = pasted if isinstance(pasted, str) else ""
    chosen = upload if isinstance(upload, str) and upload.strip() else text
    raw = chosen.encode("utf-8", "surrogateescape" if chosen is upload else "replace")  # a file's own bytes
    if len(text) > MAX_RECORD_BYTES:
        text = ""  # not shown back
    if len(raw) > MAX_RECORD_BYTES:
        return PostedRecord(None, text, i18n.gettext(lang, "verify.too_large", size=MAX_RECORD_BYTES // 1024), 413)
    if not raw.strip():
        return PostedRecord(None, text, i18n.gettext(lang, "verify.empty"), 400)
    return PostedRecord(raw, text)


def _fault_words(fault: Fault, lang: str, names: list[str]) -> str:
    """One fault in the visitor's language, seats named as the site's tables name them."""
    if fault.kind == "unrevealed":
        return i18n.gettext(lang, "verify.fault.unrevealed")
    if fault.kind == "commitment":
        return i18n.gettext(lang, "verify.fault.commitment", computed=fault.computed, given=fault.given)
    nothing = i18n.gettext(lang, "verify.fault.nothing")
    return i18n.gettext(
        lang,
        "verify.fault.hand",
        seat=names[fault.seat],
        extra=" ".join(i18n.card_short(lang, c) for c in fault.extra.split()) or nothing,
        missing=" ".join(i18n.card_short(lang, c) for c in fault.missing.split()) or nothing,
    )


def _deal_words(check: DealCheck, lang: str, names: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {"title": i18n.gettext(lang, "verify.deal_heading", n=check.number), "ok": check.ok}
    if check.info is None:
        out["facts"] = [i18n.gettext(lang, "verify.not_verifiable")]
        out["checkable"] = False
        return out
    out["checkable"] = True
    out["facts"] = [
        i18n.gettext(lang, key)
        for key, holds in (("verify.commitment_ok", check.commitment_ok), ("verify.hands_ok", check.hands_ok))
        if holds
    ]
    out["problems"] = [_fault_words(fault, lang, names) for fault in check.faults]
    return out


def _page_for(lang: str) -> Any:
    other = "en" if lang == "fr" else "fr"

    async def verify(request: Request) -> Response:
        error: str | None = None
        results: list[dict[str, Any]] = []
        text = ""
        status = 200
        if request.method == "POST":
            posted = await read_record_form(request, lang)
            text, error, status = posted.text, posted.error, posted.status
            if posted.raw is not None:
                error, results = check_text(posted.raw, lang)
                if error is not None:
                    status = 400
        return page(
            request,
            "verify.html",
            status,
            lang=lang,
            other_url=PATHS[other],
            error=error,
            results=results,
            record_text=text,
            verdict=verdict(results),
            doc_path=DOC_PATH,
        )

    return verify


def verdict(results: list[dict[str, Any]]) -> str:
    """The line over the results: ``all_ok`` only when some deal was checked and every
    checked deal matches; ``nothing_checkable`` when no deal carries a seed."""
    checked = [r for r in results if r["checkable"]]
    if not checked:
        return "nothing_checkable"
    return "all_ok" if all(r["ok"] for r in checked) else "some_failed"


async def dealing_doc(request: Request) -> Response:
    """docs/dealing.md as plain text (404 where the sources are not installed)."""
    if not DOC.is_file():
        raise HTTPException(404)
    return PlainTextResponse(DOC.read_text(encoding="utf-8"), media_type="text/markdown; charset=utf-8")


routes: list[BaseRoute] = [
    *(Route(PATHS[lang], _page_for(lang), methods=["GET", "POST"]) for lang in i18n.LANGUAGES),
    Route(DOC_PATH, dealing_doc),
]
