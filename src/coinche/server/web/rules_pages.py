"""The rules pages: the four profiles side by side, and one page per profile, in French
(``/regles``...) and English (``/rules``...).

The pages word the rules from the catalogues ``rules.po``; every fact they show (card
values, legal cards, meld values, worked scores) comes from ``rules_content``, which asks
the engine. One template serves the four profiles: it reads the ``RuleSet``'s attributes.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ...engine.messages import Message
from ...engine.rules import PROFILES, RuleSet
from ..table import i18n
from ..table.rules_content import RulesContent, content
from .pages import ADDRESSES, TEMPLATES, page


def rules_url(lang: str, profile: str | None = None) -> str:
    """The address of the rules of ``profile`` in ``lang`` (``/regles/house``), or of the
    page that compares the four profiles when ``profile`` is None."""
    base = ADDRESSES[i18n.language(lang)]["rules"]
    return base if profile is None else f"{base}/{profile}"


def _other(lang: str) -> str:
    return "en" if lang == "fr" else "fr"


def _helpers(lang: str) -> dict[str, Any]:
    """What the templates use to name cards and calls and render the engine's lines."""

    def card_name(code: str) -> str:
        return i18n.card_name(lang, code)

    def card_names(codes: Sequence[str]) -> str:
        return ", ".join(i18n.card_name(lang, code) for code in codes)

    def call_name(code: str) -> str:
        return i18n.call_name(lang, code)

    def render(message: Message) -> str:
        return i18n.render(lang, message)

    def rules_link(profile: str | None = None) -> str:
        return rules_url(lang, profile)

    return {
        "card_name": card_name,
        "card_names": card_names,
        "call_name": call_name,
        "render": render,
        "rules_link": rules_link,
    }


def profiles_content() -> list[RulesContent]:
    """The content of every profile with its default options, in the profiles' order."""
    return [content(rules) for rules in PROFILES.values()]


def overview(lang: str) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        return page(
            request,
            "rules.html",
            lang=lang,
            other_url=rules_url(_other(lang)),
            profiles=profiles_content(),
            **_helpers(lang),
        )

    return endpoint


def profile_context(lang: str, rules: RuleSet) -> dict[str, Any]:
    """What ``rules_profile.html`` shows for ``rules`` (any rule set, table options too)."""
    return {"rules": rules, "c": content(rules), **_helpers(lang)}


def render_profile(lang: str, rules: RuleSet) -> str:
    """The page of ``rules`` as HTML without a request (what the tests read for a rule set
    no address serves, such as a profile with one option changed)."""
    other = _other(lang)

    def t(key: str, **params: object) -> str:
        return i18n.gettext(lang, key, **params)

    return TEMPLATES.get_template("rules_profile.html").render(
        t=t,
        lang=lang,
        other_lang=other,
        language_switch=f"/langue/{other}",
        path=rules_url(lang, rules.name),
        addresses=ADDRESSES[lang],
        **profile_context(lang, rules),
    )


def profile_page(lang: str) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        name = request.path_params["profile"]
        if name not in PROFILES:
            raise HTTPException(404)
        rules: RuleSet = PROFILES[name]
        return page(
            request,
            "rules_profile.html",
            lang=lang,
            other_url=rules_url(_other(lang), name),
            **profile_context(lang, rules),
        )

    return endpoint


routes: list[BaseRoute] = [
    route
    for lang in ("fr", "en")
    for route in (
        Route(rules_url(lang), overview(lang)),
        Route(rules_url(lang) + "/{profile}", profile_page(lang)),
    )
]
