"""Reading a posted form strictly: a body the server cannot read is refused (400), never
read as an empty form (which would act on default values the visitor did not choose).

Starlette's ``request.form()`` reads any other content type as no fields, decodes bytes
that are not UTF-8 as Latin-1, accepts a multipart body cut before its closing boundary and
reads up to megabytes; ``read_form`` accepts the two types a browser's form sends, UTF-8
only, complete bodies only, at most ``MAX_FORM_BYTES``. A client that leaves in the middle
of its body is no fault of the server: ``client_left`` answers it without a traceback.
"""

from __future__ import annotations

import logging
from typing import Final
from urllib.parse import parse_qsl

from python_multipart.exceptions import FormParserError
from python_multipart.multipart import MultipartParser, MultipartState, parse_options_header
from starlette.datastructures import FormData, UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

log = logging.getLogger("coinche.web")

MAX_FORM_BYTES: Final = 16 * 1024
"""The most read of a form's body (the site's forms send less than 200 bytes)."""
MAX_FORM_FIELDS: Final = 64
"""The most fields one form may hold."""
URLENCODED: Final = "application/x-www-form-urlencoded"
MULTIPART: Final = "multipart/form-data"


async def read_form(
    request: Request, max_bytes: int = MAX_FORM_BYTES, max_fields: int = MAX_FORM_FIELDS, files: bool = False
) -> FormData:
    """The fields of a posted form (text values only; with ``files``, a file part is read
    as the text of its field). ``HTTPException(400)`` for a body
    that is no complete UTF-8 form of the two form types, 413 for one over ``max_bytes``;
    ``ClientDisconnect`` (Starlette's) goes through: the client is gone, nobody to answer."""
    kind, params = parse_options_header(request.headers.get("content-type", ""))
    kind_text = kind.decode("latin-1").strip().lower()
    if kind_text not in (URLENCODED, MULTIPART):
        raise HTTPException(400)
    charset = params.get(b"charset", b"utf-8").decode("latin-1").strip().lower()
    if charset not in ("utf-8", "utf8"):
        raise HTTPException(400)
    body = await _read_body(request, max_bytes)
    if kind_text == URLENCODED:
        items = _urlencoded(body, max_fields)
    else:
        items = _multipart(body, params.get(b"boundary", b""), max_fields, files)
    fields: list[tuple[str, str | UploadFile]] = [(no_nul(k), no_nul(v) if isinstance(v, str) else v) for k, v in items]
    return FormData(fields)


def no_nul(text: str) -> str:
    """``text`` with any NUL read as U+FFFD: no name, code or record holds a NUL, and
    PostgreSQL's text cannot store one (a hostile NUL must find nothing, not fail)."""
    return text.replace("\x00", "\ufffd")


async def _read_body(request: Request, max_bytes: int) -> bytes:
    """The body, refused (413) past ``max_bytes`` before reading more than that."""
    declared = request.headers.get("content-length")
    if declared is not None:
        if not declared.isascii() or not declared.isdigit() or len(declared) > 18:
            raise HTTPException(400)
        if int(declared) > max_bytes:
            raise HTTPException(413)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > max_bytes:
            raise HTTPException(413)
        chunks.append(chunk)
    return b"".join(chunks)


def _urlencoded(body: bytes, max_fields: int) -> list[tuple[str, str]]:
    """``name=value`` pairs joined by ``&`` (a browser percent-encodes everything else)."""
    if not body:
        return []
    try:
        text = body.decode("ascii")
        return parse_qsl(
            text,
            keep_blank_values=True,
            strict_parsing=True,
            encoding="utf-8",
            errors="strict",
            max_num_fields=max_fields,
        )
    except ValueError:  # not ASCII, a pair with no '=', %-escapes that are not UTF-8, too many
        raise HTTPException(400) from None


def _multipart(body: bytes, boundary: bytes, max_fields: int, files: bool = False) -> list[tuple[str, str]]:
    """The text parts of a complete multipart body; a file part is refused unless ``files``
    (the verification page's upload), then read as UTF-8 text; a file's bytes that are not
    UTF-8 are kept as lone surrogates (``surrogateescape``), so the page that reads it can
    say plainly that the file is not text rather than refuse the whole form."""
    if not boundary:
        raise HTTPException(400)
    items: list[tuple[str, str]] = []
    header_name = bytearray()
    header_value = bytearray()
    headers: dict[bytes, bytes] = {}
    data = bytearray()

    def on_part_begin() -> None:
        headers.clear()
        data.clear()

    def on_header_field(chunk: bytes, start: int, end: int) -> None:
        header_name.extend(chunk[start:end])

    def on_header_value(chunk: bytes, start: int, end: int) -> None:
        header_value.extend(chunk[start:end])

    def on_header_end() -> None:
        headers[bytes(header_name).strip().lower()] = bytes(header_value).strip()
        header_name.clear()
        header_value.clear()

    def on_part_data(chunk: bytes, start: int, end: int) -> None:
        data.extend(chunk[start:end])

    def on_part_end() -> None:
        disposition, options = parse_options_header(headers.get(b"content-disposition", b""))
        if disposition != b"form-data" or b"name" not in options or (b"filename" in options and not files):
            raise HTTPException(400)
        if len(items) >= max_fields:
            raise HTTPException(400)
        errors = "surrogateescape" if b"filename" in options else "strict"
        items.append((options[b"name"].decode("utf-8"), bytes(data).decode("utf-8", errors)))

    try:
        parser = MultipartParser(
            boundary,
            {
                "on_part_begin": on_part_begin,
                "on_header_field": on_header_field,
                "on_header_value": on_header_value,
                "on_header_end": on_header_end,
                "on_part_data": on_part_data,
                "on_part_end": on_part_end,
            },
        )
        parser.write(body)
        parser.finalize()
    except (FormParserError, ValueError):  # ValueError: UnicodeDecodeError, a bad boundary
        raise HTTPException(400) from None
    if parser.state != MultipartState.END:  # cut before its closing boundary
        raise HTTPException(400)
    return items


async def client_left(request: Request, exc: Exception) -> Response:
    """Starlette's ``ClientDisconnect``: the client closed its connection in the middle of
    its request's body. Nobody is left to answer (the response goes nowhere): one debug
    line, no traceback, no 500 in the log."""
    log.debug("%s %s: the client left before the end of its request", request.method, request.url.path)
    return Response(status_code=400)
