"""The score calculator page (issue 8): ``/calculateur`` in French, ``/calculator`` in English.

Every input of ``coinche score`` is a form field; the page is a plain GET form, so it works
without JavaScript and a result has an address one can share. With JavaScript the page's
script asks ``/api/calculate`` (the same fields as a query) on each change and shows the
answer at once. Both go through ``evaluate``: the rules are the engine's
(``scoring.calculate``), this module only reads the fields and says, next to the field at
fault, what cannot be read or what the engine refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ...engine.cards import TRUMP_NAMES
from ...engine.errors import EngineError, short_repr
from ...engine.rules import PROFILES, RuleSet
from ...engine.scoring import SWEEPS, DealScore, ScoringError, Sweep, calculate, deal_total
from ...engine.text import is_number, parse_number
from ..live.tables import TARGETS
from ..table import i18n
from .pages import ADDRESSES, page

PATHS: Final = {lang: ADDRESSES[lang]["calculator"] for lang in i18n.LANGUAGES}
API_PATH: Final = "/api/calculate"

DEFAULT_PROFILE: Final = "classic"
TRUMPS: Final = tuple(TRUMP_NAMES)
"""``S H D C SA TA``, the trumps of record notation, in the engine's order."""
DOUBLES: Final = ("none", "coinche", "surcoinche")
BELOTE_COUNTS: Final = tuple(range(5))
"""0 to 4 belotes a side (four in an all-trump contract; the engine says when fewer)."""

OPTIONS: Final[dict[str, tuple[str, ...]]] = {
    "sa_ta": ("yes", "no"),
    "rounding": ("none", "nearest10", "house"),
    "melds": ("yes", "no"),
    "generale": ("yes", "no"),
    "max_bid": ("160", "180"),
}
"""The table options that change a deal's score or which contracts exist (RULES.md 5.5),
as the form writes them; an empty or absent value keeps the profile's own."""

SLOTS: Final = {"melds": "meld_points", "multiplier": "double"}
"""Where the form shows a ``ScoringError`` whose ``field`` is not itself a form slot."""


@dataclass
class Outcome:
    """What the calculator made of the fields: the rules it read, and either a score or the
    messages to show next to the fields at fault (keyed by slot, in the page's language)."""

    rules: RuleSet
    values: dict[str, str]
    errors: dict[str, str] = field(default_factory=dict)
    score: DealScore | None = None
    asked: bool = False
    """Whether the fields asked for a score (a first visit asks nothing and gets no error)."""


def _option_value(rules: RuleSet, name: str) -> str:
    value = getattr(rules, name)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _whole(text: str, lang: str, slot: str, errors: dict[str, str], *, label: str) -> int | None:
    """``text`` as a whole number, or None after putting a message for ``slot``."""
    t = text.strip()
    if is_number(t):
        number = parse_number(t)
        if number is not None:
            return number
        errors[slot] = i18n.gettext(lang, "calc_page.error.too_large", field=label, value=short_repr(t))
        return None
    errors[slot] = i18n.gettext(lang, "calc_page.error.not_number", field=label, value=short_repr(t))
    return None


def evaluate(params: Mapping[str, str], lang: str) -> Outcome:
    """Read the calculator's fields (raw text, as a query or a form sends them) and score the
    deal with the engine; never raises on any input."""
    values = {k: str(v)[:200] for k, v in params.items()}
    errors: dict[str, str] = {}

    profile = values.get("profile", "").strip() or DEFAULT_PROFILE
    if profile not in PROFILES:
        errors["profile"] = i18n.gettext(lang, "calc_page.error.profile", value=short_repr(profile))
        profile = DEFAULT_PROFILE
    base = PROFILES[profile]

    options: dict[str, Any] = {}
    target_text = values.get("target", "").strip()
    if target_text:
        targets = TARGETS[profile]
        target = parse_number(target_text) if is_number(target_text) else None
        if target in targets:
            options["target"] = target
        elif "profile" not in errors:
            errors["target"] = i18n.gettext(
                lang,
                "calc_page.error.target",
                value=short_repr(target_text),
                profile=i18n.gettext(lang, f"profile.{profile}"),
                choices=", ".join(str(c) for c in targets),
            )
    for name, choices in OPTIONS.items():
        text = values.get(name, "").strip()
        if not text:
            continue
        if text not in choices:
            errors[name] = i18n.gettext(lang, "calc_page.error.option", value=short_repr(text))
        elif name == "max_bid":
            options[name] = int(text)
        elif choices == ("yes", "no"):
            options[name] = text == "yes"
        else:
            options[name] = text
    try:
        rules = RuleSet.profile(profile, **options)
    except EngineError:  # every value was checked above: only a future option could get here
        errors["form"] = i18n.gettext(lang, "calc_page.error.rules")
        rules = base

    asked = any(k in values for k in ("bid", "trump", "points"))
    outcome = Outcome(rules, values, errors, asked=asked)
    if not asked:
        return outcome

    bid = values.get("bid", "").strip()
    trump = values.get("trump", "").strip()
    if not bid or not trump:
        errors["contract"] = i18n.gettext(lang, "calc_page.error.contract_missing")
    elif trump not in TRUMPS or not (bid in ("capot", "generale") or is_number(bid)):
        errors["contract"] = i18n.gettext(lang, "calc_page.error.contract", value=short_repr(bid + trump))
    contract = bid + trump

    double = values.get("double", "").strip() or "none"
    if double not in DOUBLES:
        errors["double"] = i18n.gettext(lang, "calc_page.error.option", value=short_repr(double))
    multiplier = rules.surcoinche_multiplier if double == "surcoinche" else 2 if double == "coinche" else 1

    sweep_text = values.get("sweep", "").strip() or "none"
    sweep: Sweep | None = None
    if sweep_text != "none":
        for s in SWEEPS:
            if s == sweep_text:
                sweep = s
        if sweep is None:
            errors["sweep"] = i18n.gettext(lang, "calc_page.error.option", value=short_repr(sweep_text))

    total = deal_total(rules, sweep is not None)
    points: int | None = None
    points_text = values.get("points", "").strip()
    if not points_text:
        errors["points"] = i18n.gettext(lang, "calc_page.error.points_missing", total=total)
    else:
        points = _whole(points_text, lang, "points", errors, label=i18n.gettext(lang, "calc_page.points"))

    counts: dict[str, int] = {}
    for name, slot, label in (
        ("taker_belote", "belote", "calc_page.taker_belote"),
        ("defense_belote", "belote", "calc_page.defense_belote"),
        ("taker_melds", "taker_melds", "calc_page.taker_melds"),
        ("defense_melds", "defense_melds", "calc_page.defense_melds"),
    ):
        text = values.get(name, "").strip()
        number = _whole(text, lang, slot, errors, label=i18n.gettext(lang, label)) if text else 0
        counts[name] = number or 0

    if errors or points is None:
        return outcome
    try:
        outcome.score = calculate(
            rules,
            contract,
            points,
            multiplier=multiplier,
            taker_belotes=counts["taker_belote"],
            defense_belotes=counts["defense_belote"],
            taker_melds=counts["taker_melds"],
            defense_melds=counts["defense_melds"],
            sweep=sweep,
        )
    except ScoringError as e:
        text = i18n.render(lang, e.message)
        errors[SLOTS.get(e.field, e.field)] = text[:1].upper() + text[1:]
    return outcome


def summary(outcome: Outcome, lang: str) -> str:
    """The one sentence the live region announces."""
    score = outcome.score
    if score is not None:
        key = "calc_page.summary_made" if score.made else "calc_page.summary_failed"
        return i18n.gettext(lang, key, takers=score.taker, defense=score.defense)
    if outcome.errors:
        return i18n.gettext(lang, "calc_page.summary_error", message=next(iter(outcome.errors.values())))
    return ""


def rules_facts(rules: RuleSet) -> dict[str, Any]:
    """What the form shows of the rules (read from the ``RuleSet``): which contracts and
    fields exist, and the profile's own option values."""
    base = PROFILES[rules.name]
    return {
        "profile": rules.name,
        "target": rules.target,
        "bid_values": list(rules.bid_values),
        "sa_ta": rules.sa_ta,
        "generale": rules.generale,
        "generale_value": rules.generale_value,
        "melds": rules.melds,
        "surcoinche": rules.surcoinche_multiplier,
        "total": deal_total(rules, False),
        "defaults": {name: _option_value(base, name) for name in OPTIONS},
    }


def to_json(outcome: Outcome, lang: str) -> dict[str, Any]:
    score = outcome.score
    doc: dict[str, Any] = {
        "ok": score is not None,
        "errors": outcome.errors,
        "summary": summary(outcome, lang),
        "rules": rules_facts(outcome.rules),
    }
    if score is not None:
        doc.update(
            made=score.made,
            taker=score.taker,
            defense=score.defense,
            verdict=i18n.gettext(lang, "calc_page.made" if score.made else "calc_page.failed"),
            lines=[i18n.render(lang, line) for line in score.lines],
        )
    return doc


async def _params(request: Request) -> dict[str, str]:
    """The fields of a GET query or of a posted form (the last value of a repeated name)."""
    params = {k: v for k, v in request.query_params.items()}
    if request.method == "POST":
        try:
            form = await request.form()
        except Exception:  # a body that is no form: read as no fields
            return params
        params.update({k: v for k, v in form.items() if isinstance(v, str)})
    return params


SUIT_SYMBOLS: Final = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def _bid_choices(outcome: Outcome, lang: str, bid: str) -> list[tuple[str, str]]:
    """The contract values the rules allow, and the asked one if they do not (the engine's
    message then says why, next to it)."""
    rules = outcome.rules
    choices = [(str(b), str(b)) for b in rules.bid_values]
    choices.append(("capot", i18n.gettext(lang, "calc_page.capot")))
    if rules.generale:
        choices.append(("generale", i18n.gettext(lang, "calc_page.generale", value=rules.generale_value)))
    if bid and bid not in (c for c, _ in choices):
        choices.append((bid, bid))
    return choices


def _form_context(outcome: Outcome, lang: str) -> dict[str, Any]:
    """What the template needs beyond the outcome: each field's current choice and labels."""
    v = outcome.values
    bid = v.get("bid", "").strip() or "80"
    targets = TARGETS
    labels = [(code, i18n.gettext(lang, f"trump.{code}")) for code in TRUMPS]
    score = outcome.score
    return {
        "outcome": outcome,
        "rules": outcome.rules,
        "facts": rules_facts(outcome.rules),
        "summary": summary(outcome, lang),
        "lines": [i18n.render(lang, line) for line in score.lines] if score else [],
        "profiles": [(name, targets[name], PROFILES[name].target) for name in PROFILES],
        "default_target": PROFILES[outcome.rules.name].target,
        "options": OPTIONS,
        "options_open": any(v.get(n) for n in OPTIONS) or any(n in outcome.errors for n in OPTIONS),
        "bid": bid,
        "bid_choices": _bid_choices(outcome, lang, bid),
        "trump": v.get("trump", "").strip() or "H",
        "trump_labels": [(code, label[:1].upper() + label[1:]) for code, label in labels],
        "symbols": SUIT_SYMBOLS,
        "double": v.get("double", "").strip() or "none",
        "doubles": DOUBLES,
        "sweep": v.get("sweep", "").strip() or "none",
        "sweeps": ("none", *SWEEPS),
        "belote_counts": BELOTE_COUNTS,
        "api_path": API_PATH,
    }


def _page_for(lang: str) -> Any:
    other = "en" if lang == "fr" else "fr"

    async def calculator(request: Request) -> Response:
        params = await _params(request)
        params.pop("lang", None)
        outcome = evaluate(params, lang)
        query = urlencode(params)
        return page(
            request,
            "calculator.html",
            lang=lang,
            other_url=PATHS[other] + (f"?{query}" if query else ""),
            **_form_context(outcome, lang),
        )

    return calculator


async def api_calculate(request: Request) -> Response:
    params = await _params(request)
    lang = i18n.language(params.pop("lang", None))
    outcome = evaluate(params, lang)
    status = 422 if outcome.errors else 200
    return JSONResponse(to_json(outcome, lang), status_code=status, headers={"Cache-Control": "no-store"})


routes: list[BaseRoute] = [
    *(Route(PATHS[lang], _page_for(lang), methods=["GET", "POST"]) for lang in i18n.LANGUAGES),
    Route(API_PATH, api_calculate, methods=["GET", "POST"]),
]
