"""The front end's files (``/static``), stylesheets sent minified: their comments and
indentation are for the people who read them, and were a quarter of the table page's
weight."""

from __future__ import annotations

import hashlib
import os
from email.utils import formatdate
from pathlib import Path

import rcssmin
from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.staticfiles import NotModifiedResponse, PathLike, StaticFiles
from starlette.types import Scope


class StaticAssets(StaticFiles):
    """``StaticFiles`` whose ``.css`` files are minified once (again when a file changes),
    with their own ``ETag`` so a browser's copy is checked as any other file's."""

    def __init__(self, directory: str) -> None:
        super().__init__(directory=directory)
        self._minified: dict[str, tuple[float, bytes, str]] = {}

    def file_response(
        self, full_path: PathLike, stat_result: os.stat_result, scope: Scope, status_code: int = 200
    ) -> Response:
        if not str(full_path).endswith(".css"):
            return super().file_response(full_path, stat_result, scope, status_code)
        body, etag = self._stylesheet(Path(full_path), stat_result.st_mtime)
        headers = {"etag": etag, "last-modified": formatdate(stat_result.st_mtime, usegmt=True)}
        response = Response(body, status_code=status_code, media_type="text/css", headers=headers)
        if self.is_not_modified(response.headers, Headers(scope=scope)):
            return NotModifiedResponse(response.headers)
        return response

    def _stylesheet(self, path: Path, mtime: float) -> tuple[bytes, str]:
        """The minified stylesheet and its tag, read when first asked for or changed
        (a few kilobytes, read once: not worth a thread)."""
        cached = self._minified.get(str(path))
        if cached is None or cached[0] != mtime:
            body = rcssmin.cssmin(path.read_text(encoding="utf-8")).encode()
            cached = (mtime, body, f'"{hashlib.sha256(body).hexdigest()[:32]}"')
            self._minified[str(path)] = cached
        return cached[1], cached[2]
