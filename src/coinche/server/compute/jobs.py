"""The work a server hands to a pool or to the workers: data, never code.

A job is a kind's name and its arguments as JSON; its answer is JSON too. The kinds are a
fixed registry (``KINDS``), the same in every server and worker: ``decision`` (a hint, a
stand-in's move: a built-in bot's name, its seed and one seat's ``View`` in the wire
format), ``analysis`` (a finished deal's double-dummy review), ``puzzle`` (a finished deal's
card-play puzzle, if it has one), ``compare`` (a finished deal played again with the
expert in one seat), ``standings`` (the daily
challenge's ranking) and ``par`` (a challenge deal's double-dummy par). ``bot_jobs`` rows
cross the database, which other programs may write: a row's kind is looked up in the
registry (an unknown one is refused, never imported), its arguments and the answer are
checked for types and sizes before anything is computed or believed, and nothing is ever
unpickled. A refused job is recorded as failed; the server then computes it itself, as
when no worker answers.

Each kind has ``run`` (module level, in a pool process: checks the JSON arguments, computes,
returns the JSON answer) and ``read`` (in the asking server: checks the JSON answer and
turns it into the value the caller wants). The same path serves the server's own pool, so
the workers' path is the one every test exercises.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from ...bots.analysis import analyse_deal, card_values, par_of_deal
from ...bots.base import Decision
from ...bots.bidding_puzzles import BiddingPuzzle, best_bidding_puzzle, find_bidding_puzzles
from ...bots.compare import replay_as
from ...bots.loading import BUILTIN_BOTS, load_bot
from ...bots.puzzles import THEMES, Puzzle, best_puzzle, find_puzzles
from ...engine.actions import call_str, card_of, is_card, is_declaration, parse_call
from ...engine.cards import FULL_DECK, TRUMP_NAMES, CardSet, card_str, parse_card
from ...engine.deal import Deal, Declaration, LogEntry, Phase, View
from ...engine.errors import EngineError, short_repr
from ...engine.melds import parse_meld
from ...engine.rules import RuleSet
from ...engine.wire import (
    message_from_json,
    message_to_json,
    rules_from_json,
    rules_to_json,
    view_from_json,
    view_to_json,
)
from ..infra.work_queue import MAX_TEXT
from ..table.matchpoints import Standing, ranking
from .bot_pool import BotSpec, decide

R = TypeVar("R")

MAX_RESULTS = 1_000_000
"""The most results one ranking job ranks."""

MAX_ENTRIES = 1000
"""The most log entries one deal's analysis replays (a deal has 32 cards, at most four
declarations and a bounded auction: a few hundred at the very most)."""

MAX_NAME = 64
"""The longest player id a ranking takes."""


class JobRefused(Exception):
    """A job or an answer that is not data of its kind (unknown kind, malformed or oversized
    arguments, an answer of the wrong shape): refused, nothing of it computed or believed."""


@dataclass(frozen=True)
class JobKind(Generic[R]):
    """One kind of job: its registered ``name``, ``run`` (JSON arguments to JSON answer, in
    a pool process) and ``read`` (JSON answer to the caller's value, ``JobRefused`` if it
    is not of the kind's shape)."""

    name: str
    run: Callable[[Any], Any]
    read: Callable[[Any], R]


@dataclass(frozen=True)
class Job(Generic[R]):
    """A job asked for: its kind and its JSON arguments."""

    kind: JobKind[R]
    args: dict[str, Any]


# ----- JSON text, bounded -----


def dumps(value: Any) -> str:
    """JSON text of a job's arguments or answer (``JobRefused`` past ``MAX_TEXT``)."""
    out = json.dumps(value, separators=(",", ":"), allow_nan=False)
    if len(out) > MAX_TEXT:
        raise JobRefused(f"{len(out)} characters of JSON, more than {MAX_TEXT}")
    return out


def loads(raw: object) -> Any:
    """The JSON data of stored text; ``JobRefused`` when it is not text, is too long, is
    not JSON (a pickle, say) or holds a non-finite number."""
    if not isinstance(raw, str):
        raise JobRefused(f"not JSON text but {type(raw).__name__}")
    if len(raw) > MAX_TEXT:
        raise JobRefused(f"{len(raw)} characters, more than {MAX_TEXT}")
    try:
        return json.loads(raw, parse_constant=_no_constant)
    except (ValueError, RecursionError) as e:  # JSONDecodeError, int digits limit
        raise JobRefused(f"not JSON: {short_repr(str(e))}") from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


# ----- checking JSON data -----


def _object(value: Any, keys: Sequence[str], optional: Sequence[str] = ()) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise JobRefused(f"expected an object, not {short_repr(value)}")
    missing = [k for k in keys if k not in value]
    extra = [k for k in value if k not in keys and k not in optional]
    if missing or extra:
        raise JobRefused(f"expected the keys {list(keys)}, missing {missing}, unexpected {short_repr(extra)}")
    return value


def _int(value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise JobRefused(f"expected a whole number in {low}..{high}, not {short_repr(value)}")
    return value


def _number(value: Any, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise JobRefused(f"expected a number, not {short_repr(value)}")
    if not low <= value <= high:
        raise JobRefused(f"expected a number in {low}..{high}, not {short_repr(value)}")
    return float(value)


def _str(value: Any, limit: int) -> str:
    if not isinstance(value, str) or len(value) > limit:
        raise JobRefused(f"expected a string of at most {limit} characters, not {short_repr(value)}")
    return value


def _list(value: Any, limit: int, length: int | None = None) -> list[Any]:
    if not isinstance(value, list) or len(value) > limit or (length is not None and len(value) != length):
        size = f"{length}" if length is not None else f"at most {limit}"
        raise JobRefused(f"expected a list of {size} items, not {short_repr(value)}")
    return value


def _optional_str(value: Any, limit: int) -> str | None:
    return None if value is None else _str(value, limit)


# ----- decisions: hints and stand-ins' moves -----


def decision_job(spec: BotSpec, view: View) -> Job[Decision]:
    """A built-in bot's decision on one seat's view."""
    return Job(DECISION, {"bot": spec.name, "seed": spec.seed, "params": dict(spec.params), "view": view_to_json(view)})


def _decision_args(args: Any) -> tuple[BotSpec, View]:
    data = _object(args, ("bot", "seed", "params", "view"))
    bot = data["bot"]
    if not isinstance(bot, str) or bot not in BUILTIN_BOTS:  # never a module:attribute
        raise JobRefused(f"not a built-in bot: {short_repr(bot)}")
    seed = _int(data["seed"], 0, (1 << 63) - 1)
    raw = _object(data["params"], (), ("level", "human_seat"))
    params: list[tuple[str, Any]] = []
    if "level" in raw:
        params.append(("level", _number(raw["level"], 0.0, 1.0)))
    if "human_seat" in raw:
        params.append(("human_seat", _int(raw["human_seat"], 0, 3)))
    if params and bot != "adaptive":
        raise JobRefused(f"bot {bot!r} takes no parameters")
    if not isinstance(data["view"], Mapping):
        raise JobRefused("the view is not an object")
    try:
        view = view_from_json(data["view"])
    except (EngineError, RecursionError) as e:
        raise JobRefused(f"not a view: {short_repr(str(e))}") from None
    if not view.legal_actions:
        raise JobRefused("a view with nothing to decide")
    return BotSpec(bot, seed, tuple(params)), view


def run_decision(args: Any) -> Any:
    spec, view = _decision_args(args)
    return decision_to_json(decide(spec, view))


def decision_to_json(decision: Decision) -> dict[str, Any]:
    return {
        "action": decision.action,
        "explanation": decision.explanation,
        "private_explanation": decision.private_explanation,
        "reason": None if decision.reason is None else message_to_json(decision.reason),
        "private_reason": None if decision.private_reason is None else message_to_json(decision.private_reason),
    }


def read_decision(answer: Any) -> Decision:
    """The decision of an answer (its action's legality is the asker's to check against
    the view it sent)."""
    data = _object(answer, ("action", "explanation", "private_explanation", "reason", "private_reason"))
    try:
        reason = None if data["reason"] is None else message_from_json(data["reason"])
        private = None if data["private_reason"] is None else message_from_json(data["private_reason"])
    except (EngineError, KeyError, TypeError, AttributeError, RecursionError) as e:
        raise JobRefused(f"not a reason: {short_repr(str(e))}") from None
    return Decision(
        _int(data["action"], 0, 1 << 16),
        _optional_str(data["explanation"], 2000),
        _optional_str(data["private_explanation"], 2000),
        reason,
        private,
    )


DECISION: JobKind[Decision] = JobKind("decision", run_decision, read_decision)


# ----- a deal's analysis (the review) -----


def analyse(rules: RuleSet, dealer: int, hands: Sequence[CardSet], entries: Sequence[LogEntry]) -> dict[str, Any]:
    """The deal's double-dummy analysis as JSON: ``trumps`` (``coinche solve --json``'s
    rows: each team's points per trump, the best contract per seat, sweeps) and
    ``positions``: before each card played, the value of each legal card for the player
    to move and the card played, keyed by review ``step``. Runs in a pool process."""
    rows = analyse_deal(rules, dealer, hands)
    positions = []
    deal = Deal(rules, dealer, hands)
    step = 0
    for entry in entries:
        if is_step(entry):
            step += 1
            if isinstance(entry, int) and is_card(entry) and deal.phase is Phase.PLAY and deal.contract is not None:
                values = card_values(deal)
                positions.append(
                    {
                        "step": step,
                        "seat": deal.to_move,
                        "values": {card_str(c): v for c, v in sorted(values.items())},
                        "played": card_str(card_of(entry)),
                    }
                )
        deal.replay_entry(entry)
    return {
        "trumps": [r.to_json() for r in rows],
        "positions": positions,
    }


def is_step(entry: LogEntry) -> bool:
    """Calls and cards are the review's steps; a meld declaration shows with the next card."""
    return not isinstance(entry, Declaration) and not is_declaration(entry)


def log_json(entries: Sequence[LogEntry]) -> list[Any]:
    """A deal's log as JSON: an action as its number, a declaration as its melds' names
    (``entry_from_json`` reads it back)."""
    return [e if isinstance(e, int) else {"melds": [m.name for m in e.melds]} for e in entries]


def deal_args(deal: Deal) -> dict[str, Any]:
    """A deal as the jobs on deals take it: its rules, dealer, hands and log (``read_deal``)."""
    return {
        "rules": rules_to_json(deal.rules),
        "dealer": deal.dealer,
        "hands": list(deal.dealt),
        "log": log_json(deal.log),
    }


def analysis_job(deal: Deal) -> Job[dict[str, Any]]:
    """The analysis of a finished deal."""
    return Job(ANALYSIS, deal_args(deal))


def _rules(value: Any) -> RuleSet:
    try:
        return rules_from_json(_object(value, ("profile", "options")))
    except (EngineError, TypeError) as e:
        raise JobRefused(f"not rules: {short_repr(str(e))}") from None


def _hands(value: Any) -> list[CardSet]:
    return [_int(h, 0, FULL_DECK) for h in _list(value, 4, 4)]


def entry_from_json(value: Any) -> LogEntry:
    """A log entry of ``log_json``, checked (``JobRefused``)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return _int(value, 0, 1 << 16)
    melds = _list(_object(value, ("melds",))["melds"], 8)
    try:
        return Declaration(tuple(parse_meld(_str(m, 32)) for m in melds))
    except EngineError as e:
        raise JobRefused(str(e)) from None


def read_deal(data: Mapping[str, Any]) -> Deal:
    """The deal of ``deal_args`` (more keys may come with them), rebuilt by the engine: a
    deal that is not one is refused here (``JobRefused``)."""
    rules, dealer, hands = _rules(data["rules"]), _int(data["dealer"], 0, 3), _hands(data["hands"])
    entries = [entry_from_json(e) for e in _list(data["log"], MAX_ENTRIES)]
    try:
        return Deal.from_log(rules, dealer, hands, entries)
    except EngineError as e:
        raise JobRefused(f"not a deal: {short_repr(str(e))}") from None


def run_analysis(args: Any) -> Any:
    deal = read_deal(_object(args, ("rules", "dealer", "hands", "log")))
    return analyse(deal.rules, deal.dealer, deal.dealt, deal.log)


def _trump_rows(value: Any) -> list[dict[str, Any]]:
    rows = []
    for row in _list(value, len(TRUMP_NAMES)):
        r = _object(row, ("trump", "points", "best_bid", "sweep"))
        if r["trump"] not in TRUMP_NAMES:
            raise JobRefused(f"not a trump: {short_repr(r['trump'])}")
        points = [_int(p, 0, 1000) for p in _list(r["points"], 2, 2)]
        bids = [None if b is None else _int(b, 0, 1000) for b in _list(r["best_bid"], 4, 4)]
        sweeps = [_optional_str(s, 16) for s in _list(r["sweep"], 4, 4)]
        rows.append({"trump": r["trump"], "points": points, "best_bid": bids, "sweep": sweeps})
    return rows


def _card(value: Any) -> str:
    try:
        return card_str(parse_card(_str(value, 3)))
    except EngineError as e:
        raise JobRefused(str(e)) from None


def read_analysis(answer: Any) -> dict[str, Any]:
    data = _object(answer, ("trumps", "positions"))
    positions = []
    for position in _list(data["positions"], 32):
        p = _object(position, ("step", "seat", "values", "played"))
        values = p["values"]
        if not isinstance(values, Mapping) or len(values) > 8:
            raise JobRefused(f"not card values: {short_repr(values)}")
        positions.append(
            {
                "step": _int(p["step"], 1, MAX_ENTRIES),
                "seat": _int(p["seat"], 0, 3),
                "values": {_card(c): _int(v, 0, 1000) for c, v in values.items()},
                "played": _card(p["played"]),
            }
        )
    return {"trumps": _trump_rows(data["trumps"]), "positions": positions}


ANALYSIS: JobKind[dict[str, Any]] = JobKind("analysis", run_analysis, read_analysis)


# ----- a finished deal's puzzle -----


def puzzle_job(deal: Deal) -> Job[dict[str, Any] | None]:
    """The best card-play puzzle of a finished deal (``bots.puzzles``), None if it has none."""
    return Job(PUZZLE, deal_args(deal))


def puzzle_to_json(puzzle: Puzzle) -> dict[str, Any]:
    """A puzzle as a job answers it: the position is the deal's log up to ``upto``."""
    return {
        "upto": len(puzzle.log),
        "seat": puzzle.seat,
        "goal": puzzle.goal,
        "solution": card_str(puzzle.solution),
        "values": [[card_str(c), v] for c, v in puzzle.values],
        "line": [card_str(c) for c in puzzle.line],
        "themes": list(puzzle.themes),
        "swing": puzzle.swing,
    }


def run_puzzle(args: Any) -> Any:
    deal = read_deal(_object(args, ("rules", "dealer", "hands", "log")))
    found = best_puzzle(find_puzzles(deal.rules, deal.dealer, deal.dealt, deal.log))
    return None if found is None else puzzle_to_json(found)


def read_puzzle(answer: Any) -> dict[str, Any] | None:
    if answer is None:
        return None
    data = _object(answer, ("upto", "seat", "goal", "solution", "values", "line", "themes", "swing"))
    if data["goal"] not in ("make", "beat"):
        raise JobRefused(f"not a goal: {short_repr(data['goal'])}")
    values = []
    for pair in _list(data["values"], 8):
        card, value = _list(pair, 2, 2)
        values.append([_card(card), _int(value, 0, 1000)])
    themes = [_str(t, 32) for t in _list(data["themes"], len(THEMES))]
    if not set(themes) <= set(THEMES):
        raise JobRefused(f"not themes: {short_repr(themes)}")
    return {
        "upto": _int(data["upto"], 0, MAX_ENTRIES),
        "seat": _int(data["seat"], 0, 3),
        "goal": data["goal"],
        "solution": _card(data["solution"]),
        "values": values,
        "line": [_card(c) for c in _list(data["line"], 32)],
        "themes": themes,
        "swing": _int(data["swing"], 0, 10_000),
    }


PUZZLE: JobKind[dict[str, Any] | None] = JobKind("puzzle", run_puzzle, read_puzzle)


# ----- a finished deal's bidding puzzle -----


def bidding_puzzle_job(deal: Deal) -> Job[dict[str, Any] | None]:
    """The best bidding puzzle of a finished deal's auction (``bots.bidding_puzzles``),
    None if it has none."""
    return Job(BIDDING_PUZZLE, deal_args(deal))


def bidding_puzzle_to_json(puzzle: BiddingPuzzle) -> dict[str, Any]:
    """A bidding puzzle as the job answers it: the position is the auction's first
    ``upto`` calls."""
    return {
        "upto": puzzle.upto,
        "seat": puzzle.seat,
        "call": call_str(puzzle.call),
        "played": call_str(puzzle.played),
        "values": [
            [call_str(v.call), round(v.expected, 1), None if v.chance is None else round(v.chance, 3)]
            for v in puzzle.values
        ],
        "margin": round(puzzle.margin, 1),
    }


def run_bidding_puzzle(args: Any) -> Any:
    deal = read_deal(_object(args, ("rules", "dealer", "hands", "log")))
    found = best_bidding_puzzle(find_bidding_puzzles(deal.rules, deal.dealer, deal.dealt, deal.auction.calls))
    return None if found is None else bidding_puzzle_to_json(found)


def _call(value: Any) -> str:
    try:
        return call_str(parse_call(_str(value, 16)))
    except EngineError as e:
        raise JobRefused(str(e)) from None


def read_bidding_puzzle(answer: Any) -> dict[str, Any] | None:
    if answer is None:
        return None
    data = _object(answer, ("upto", "seat", "call", "played", "values", "margin"))
    values = []
    for entry in _list(data["values"], MAX_CALL_VALUES):
        call, expected, chance = _list(entry, 3, 3)
        values.append(
            [_call(call), _number(expected, -10_000, 10_000), None if chance is None else _number(chance, 0, 1)]
        )
    calls = {v[0] for v in values}
    if _call(data["call"]) not in calls:
        raise JobRefused("the expert's call is not among the calls valued")
    return {
        "upto": _int(data["upto"], 0, MAX_ENTRIES),
        "seat": _int(data["seat"], 0, 3),
        "call": _call(data["call"]),
        "played": _call(data["played"]),
        "values": values,
        "margin": _number(data["margin"], 0, 10_000),
    }


MAX_CALL_VALUES = 128
"""More calls than any auction offers (numeric bids, capots, pass, coinche, surcoinche)."""
BIDDING_PUZZLE: JobKind[dict[str, Any] | None] = JobKind("bidding_puzzle", run_bidding_puzzle, read_bidding_puzzle)


# ----- a finished deal played again with the expert in one seat -----


def compare_job(deal: Deal, seat: int, level: str) -> Job[dict[str, Any]]:
    """Deal ``deal`` again with the expert in ``seat`` and, once it differs, computers of
    ``level`` in the others (``bots.compare``)."""
    return Job(COMPARE, {**deal_args(deal), "seat": seat, "level": level})


def run_compare(args: Any) -> Any:
    data = _object(args, ("rules", "dealer", "hands", "log", "seat", "level"))
    seat, level = _int(data["seat"], 0, 3), data["level"]
    if level not in COMPARE_LEVELS:
        raise JobRefused(f"not a computers' level: {short_repr(level)}")
    original = read_deal(data)
    if not original.is_over:
        raise JobRefused("the deal is not over")
    dealer, hands = original.dealer, list(original.dealt)
    seed = int.from_bytes(hashlib.sha256(json.dumps([dealer, hands, seat]).encode()).digest()[:4], "big")
    expert = load_bot("expert", seed=seed)
    others = [load_bot(level, seed=seed + s + 1) for s in range(4)]
    compared = replay_as(original.rules, dealer, hands, original.log, seat, expert, others)
    values = None if compared.values is None else {card_str(c): v for c, v in sorted(compared.values.items())}
    return {"log": log_json(compared.deal.log), "first": compared.first, "values": values}


def read_compare(answer: Any) -> dict[str, Any]:
    data = _object(answer, ("log", "first", "values"))
    log = [entry_from_json(e) for e in _list(data["log"], MAX_ENTRIES)]
    first = None if data["first"] is None else _int(data["first"], 0, MAX_ENTRIES)
    values = data["values"]
    if values is not None and (not isinstance(values, Mapping) or len(values) > 8):
        raise JobRefused(f"not card values: {short_repr(values)}")
    return {
        "log": log,
        "first": first,
        "values": None if values is None else {_card(c): _int(v, 0, 1000) for c, v in values.items()},
    }


COMPARE_LEVELS = ("beginner", "confirmed", "expert")
"""The computers that may play the other seats of a comparison."""
COMPARE: JobKind[dict[str, Any]] = JobKind("compare", run_compare, read_compare)


# ----- the daily challenge: a day's ranking, a deal's par -----


def standings_job(results: Sequence[tuple[str, int, int]], deals: int, final: bool) -> Job[list[Standing]]:
    """The day's ranking from its results ``(player, deal index from 0, net score)``."""
    return Job(STANDINGS, {"results": [list(r) for r in results], "deals": deals, "final": final})


def run_standings(args: Any) -> Any:
    data = _object(args, ("results", "deals", "final"))
    deals = _int(data["deals"], 1, 16)
    final = data["final"]
    if not isinstance(final, bool):
        raise JobRefused(f"final is {short_repr(final)}")
    results = []
    for r in _list(data["results"], MAX_RESULTS):
        player, deal, score = _list(r, 3, 3)
        results.append((_str(player, MAX_NAME), _int(deal, 0, deals - 1), _int(score, -100_000, 100_000)))
    standings = ranking(results, deals, final)  # ValueError: two results of a player on one deal
    return [[s.player, s.rank, s.average, list(s.percents)] for s in standings]


def read_standings(answer: Any) -> list[Standing]:
    out = []
    for line in _list(answer, MAX_RESULTS):
        player, rank, average, percents = _list(line, 4, 4)
        out.append(
            Standing(
                _str(player, MAX_NAME),
                _int(rank, 1, MAX_RESULTS),
                _number(average, 0.0, 100.0),
                tuple(None if p is None else _number(p, 0.0, 100.0) for p in _list(percents, 16)),
            )
        )
    return out


STANDINGS: JobKind[list[Standing]] = JobKind("standings", run_standings, read_standings)


def par_job(rules: RuleSet, dealer: int, hands: Sequence[CardSet]) -> Job[dict[str, Any]]:
    """A deal's analysis rows and each side's best contract."""
    return Job(PAR, {"rules": rules_to_json(rules), "dealer": dealer, "hands": list(hands)})


def run_par(args: Any) -> Any:
    data = _object(args, ("rules", "dealer", "hands"))
    rules, dealer, hands = _rules(data["rules"]), _int(data["dealer"], 0, 3), _hands(data["hands"])
    try:
        Deal(rules, dealer, hands)
    except EngineError as e:
        raise JobRefused(f"not a deal: {short_repr(str(e))}") from None
    return par_of_deal(rules, dealer, hands)


def read_par(answer: Any) -> dict[str, Any]:
    data = _object(answer, ("trumps", "sides"))
    sides = []
    for side in _list(data["sides"], 2, 2):
        s = _object(side, ("team", "call", "taker", "score"))
        sides.append(
            {
                "team": _int(s["team"], 0, 1),
                "call": _optional_str(s["call"], 16),
                "taker": None if s["taker"] is None else _int(s["taker"], 0, 3),
                "score": [_int(n, -10_000, 10_000) for n in _list(s["score"], 2, 2)],
            }
        )
    return {"trumps": _trump_rows(data["trumps"]), "sides": sides}


PAR: JobKind[dict[str, Any]] = JobKind("par", run_par, read_par)


# ----- the registry -----

KINDS: Mapping[str, JobKind[Any]] = {
    kind.name: kind for kind in (DECISION, ANALYSIS, PUZZLE, BIDDING_PUZZLE, COMPARE, STANDINGS, PAR)
}
"""Every kind a worker computes, by name: nothing else is ever run."""


def kind_named(name: object) -> JobKind[Any]:
    """The registered kind of that name; ``JobRefused`` for any other."""
    kind = KINDS.get(name) if isinstance(name, str) else None
    if kind is None:
        raise JobRefused(f"unknown job kind {short_repr(name)}")
    return kind


# ----- answers as stored -----


def ok_answer(value: Any) -> str:
    return dumps({"ok": value})


def failed_answer(error: BaseException) -> str:
    """A failure as stored: ``refused`` (the job was not computed) or ``error``."""
    key = "refused" if isinstance(error, JobRefused) else "error"
    return dumps({key: " ".join(f"{type(error).__name__}: {error}".split())[:500]})


def read_answer(kind: JobKind[R], raw: object) -> tuple[str, R | str]:
    """A stored answer read for ``kind``: ``("ok", value)``, ``("error", text)`` (the job
    failed where it ran) or ``("refused", text)``; ``JobRefused`` when it is none of these
    (not JSON, a pickle, the wrong shape)."""
    data = _object(loads(raw), (), ("ok", "error", "refused"))
    if len(data) != 1:
        raise JobRefused("an answer is one of ok, error, refused")
    key, value = next(iter(data.items()))
    if key == "ok":
        return "ok", kind.read(value)
    return key, _str(value, 1000)
