"""The open games database's page (issue 53): ``/donnees-ouvertes`` in French,
``/open-data`` in English, the monthly files ``coinche export`` put in the operator's
folder (``Settings.open_data_dir``) with their month, games, size and SHA-256, each
downloadable at ``/open-data/<file>`` (either language's address).

A file is served only under a monthly file's exact name (``open_data.FILE_NAME``, or its
``.json`` manifest) and only if it is a regular file of that folder: no other name, no
link, no ``..`` reaches anything else. The account page's setting ("name me in it") is a
form of ``account_pages``' kind, posted here (same origin, CSRF token).
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from ..features.open_data import LICENCE, OpenData, monthly_files, servable
from ..table import i18n
from .pages import ADDRESSES, account_of, lang_of, lang_of_address, page, read_checked_form, settings_of

PATHS: Final = {lang: ADDRESSES[lang]["open_data"] for lang in i18n.LANGUAGES}
DOC_PATH: Final = "/open-data.md"
DOC: Final = Path(__file__).resolve().parents[4] / "docs" / "open-data.md"
"""What the files hold and how to read them, served as text where the sources are (not in
a wheel)."""


def folder_of(request: Request) -> Path | None:
    folder: Path | None = settings_of(request).open_data_dir
    return folder


async def open_data_page(request: Request) -> Response:
    lang = lang_of_address(request)
    files = await run_in_threadpool(monthly_files, folder_of(request))
    return page(
        request,
        "open_data.html",
        lang=lang,
        other_url=PATHS["en" if lang == "fr" else "fr"],
        files=files,
        licence=LICENCE,
        base=PATHS[lang],
        doc_path=DOC_PATH,
    )


async def open_data_doc(request: Request) -> Response:
    """docs/open-data.md as plain text (404 where the sources are not installed)."""
    if not DOC.is_file():
        raise HTTPException(404)
    text = await run_in_threadpool(DOC.read_text, encoding="utf-8")
    return PlainTextResponse(text, media_type="text/markdown; charset=utf-8")


async def open_data_file(request: Request) -> Response:
    """A monthly file or its manifest; 404 for any other name."""
    name = request.path_params["name"]
    path = await run_in_threadpool(servable, folder_of(request), name)
    if path is None:
        raise HTTPException(404)
    json_file = name.endswith(".json")
    return FileResponse(
        path,
        media_type="application/json" if json_file else "application/gzip",
        headers={
            "Content-Disposition": f'attachment; filename="{name}"',
            "Cache-Control": "public, max-age=3600",
            "X-Content-Type-Options": "nosniff",
        },
    )


async def name_me(request: Request) -> Response:
    """The account page's setting: named in the open games database (checked) or by a
    pseudonym (not); counted at the next monthly file."""
    form = await read_checked_form(request)
    account = account_of(request)
    if account is None:
        raise HTTPException(403)
    open_data: OpenData = request.app.state.open_data
    await open_data.set_named(account.id, form.get("named") == "on")
    return RedirectResponse(f"{ADDRESSES[lang_of(request)]['account']}?done=open_data", status_code=303)


routes: list[BaseRoute] = [
    *(Route(PATHS[lang], open_data_page) for lang in i18n.LANGUAGES),
    *(Route(PATHS[lang] + "/{name}", open_data_file) for lang in i18n.LANGUAGES),
    Route(DOC_PATH, open_data_doc),
    Route("/compte/donnees-ouvertes", name_me, methods=["POST"]),
]
