"""Every account's picture, drawn from its name (no uploads): a disc of a colour chosen by
a hash of the name's key (``Zoé`` and ``ZOÉ`` alike) with the name's initials, an SVG made
here (``/avatar/<name>.svg``). The initials are escaped and the SVG holds no script; it
is sent as ``image/svg+xml`` with the site's headers (``nosniff``, a CSP without inline
script), and browsers keep it a day. Templates write ``avatar(name)`` for its address; the table's script
builds the same address for its name plates.
"""

from __future__ import annotations

import hashlib
from html import escape
from typing import Final
from urllib.parse import quote

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ..features.accounts import NAME_MAX
from ..table.names import base_name, clean_name, name_key
from .pages import TEMPLATES

COLOURS: Final = (
    "#1f6f8b",
    "#7a4fa3",
    "#b5473a",
    "#2e7d4f",
    "#a2600e",
    "#3d5a99",
    "#8c3b6e",
    "#4a6b2a",
)
"""Discs dark enough for white initials to read on them (contrast above 4.5:1)."""
MAX_AGE: Final = 86400
"""Seconds a browser keeps a picture (it changes only with the name)."""


def initials(name: str) -> str:
    """Up to two letters: the first of each of the first two words (``Jean-Paul`` is
    ``JP``), else the name's first letter; ``?`` for a name without any."""
    words = [w for w in base_name(clean_name(name)).replace("-", " ").replace("_", " ").split() if w]
    letters = [w[0] for w in words if w[0].isalnum()][:2]
    return "".join(letters).upper() or "?"


def colour(name: str) -> str:
    digest = hashlib.sha256(name_key(base_name(clean_name(name))).encode()).digest()
    return COLOURS[digest[0] % len(COLOURS)]


def avatar_svg(name: str) -> str:
    """The picture of ``name``, a square SVG of 64 units."""
    text = escape(initials(name))
    size = 26 if len(text) > 1 else 30
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64">'
        f'<circle cx="32" cy="32" r="32" fill="{colour(name)}"/>'
        f'<text x="32" y="32" dy=".35em" text-anchor="middle" font-family="sans-serif" '
        f'font-size="{size}" font-weight="600" fill="#fff">{text}</text></svg>'
    )


def avatar_url(name: str) -> str:
    """The address of ``name``'s picture."""
    return f"/avatar/{quote(name, safe='')}.svg"


TEMPLATES.env.globals["avatar"] = avatar_url


async def avatar(request: Request) -> Response:
    """``GET /avatar/<name>.svg``: the picture of any name (an account's or not: it says
    nothing of who exists)."""
    name = request.path_params["name"]
    if not isinstance(name, str) or not name.strip() or len(name) > 4 * NAME_MAX:
        raise HTTPException(404)
    return Response(
        avatar_svg(name),
        media_type="image/svg+xml",
        headers={"Cache-Control": f"public, max-age={MAX_AGE}"},
    )


routes: list[BaseRoute] = [Route("/avatar/{name}.svg", avatar)]
