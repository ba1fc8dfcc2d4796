"""The built-in job kinds: ``decision`` (a hint, a stand-in's move: a built-in bot's name,
its seed and one seat's ``View`` in the wire format), ``analysis`` (a finished deal's
double-dummy review), ``puzzle`` and ``bidding_puzzle`` (a finished deal's puzzles, if it
has any), ``compare`` (a finished deal played again with the expert in one seat),
``standings`` (the daily challenge's ranking) and ``par`` (a deal's double-dummy par).
Each checks its JSON arguments and answer with ``jobs.py``'s checks; ``BUILTIN_KINDS`` is
what ``services.register_job_kinds`` registers of them."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from ...bots.accuracy import call_costs
from ...bots.analysis import analyse_deal, card_values, is_step, par_of_deal
from ...bots.base import Decision
from ...bots.bidding_puzzles import BiddingPuzzle, best_bidding_puzzle, find_bidding_puzzles
from ...bots.compare import replay_as
from ...bots.loading import BUILTIN_BOTS, load_bot
from ...bots.puzzles import THEMES, Puzzle, best_puzzle, find_puzzles
from ...engine.actions import call_str, card_of, is_card, parse_call
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
from ..table.matchpoints import Standing, ranking
from .bot_pool import BotSpec, decide
from .jobs import (
    Job,
    JobKind,
    JobRefused,
    json_int,
    json_list,
    json_number,
    json_object,
    json_optional_str,
    json_str,
)

MAX_RESULTS = 1_000_000
"""The most results one ranking job ranks."""

MAX_ENTRIES = 1000
"""The most log entries one deal's analysis replays (a deal has 32 cards, at most four
declarations and a bounded auction: a few hundred at the very most)."""

MAX_NAME = 64
"""The longest player id a ranking takes."""


# ----- decisions: hints and stand-ins' moves -----


def decision_job(spec: BotSpec, view: View) -> Job[Decision]:
    """A built-in bot's decision on one seat's view."""
    return Job(DECISION, {"bot": spec.name, "seed": spec.seed, "params": dict(spec.params), "view": view_to_json(view)})


def _decision_args(args: Any) -> tuple[BotSpec, View]:
    data = json_object(args, ("bot", "seed", "params", "view"))
    bot = data["bot"]
    if not isinstance(bot, str) or bot not in BUILTIN_BOTS:  # never a module:attribute
        raise JobRefused(f"not a built-in bot: {short_repr(bot)}")
    seed = json_int(data["seed"], 0, (1 << 63) - 1)
    raw = json_object(data["params"], (), ("level", "human_seat", "explain"))
    params: list[tuple[str, Any]] = []
    if "level" in raw:
        params.append(("level", json_number(raw["level"], 0.0, 1.0)))
    if "human_seat" in raw:
        params.append(("human_seat", json_int(raw["human_seat"], 0, 3)))
    if params and bot != "adaptive":
        raise JobRefused(f"bot {bot!r} takes no parameters")
    if "explain" in raw:  # the player's reason with a hint (the expert only)
        if bot != "expert" or not isinstance(raw["explain"], bool):
            raise JobRefused(f"bot {bot!r} takes no explain={short_repr(raw['explain'])}")
        params.append(("explain", raw["explain"]))
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
    data = json_object(answer, ("action", "explanation", "private_explanation", "reason", "private_reason"))
    try:
        reason = None if data["reason"] is None else message_from_json(data["reason"])
        private = None if data["private_reason"] is None else message_from_json(data["private_reason"])
    except (EngineError, KeyError, TypeError, AttributeError, RecursionError) as e:
        raise JobRefused(f"not a reason: {short_repr(str(e))}") from None
    return Decision(
        json_int(data["action"], 0, 1 << 16),
        json_optional_str(data["explanation"], 2000),
        json_optional_str(data["private_explanation"], 2000),
        reason,
        private,
    )


DECISION: JobKind[Decision] = JobKind("decision", run_decision, read_decision)


# ----- a deal's analysis (the review) -----


def analyse(rules: RuleSet, dealer: int, hands: Sequence[CardSet], entries: Sequence[LogEntry]) -> dict[str, Any]:
    """The deal's double-dummy analysis as JSON: ``trumps`` (``coinche solve --json``'s
    rows: each team's points per trump, the best contract per seat, sweeps) and
    ``positions``: before each card played, the value of each legal card for the player
    to move and the card played, keyed by review ``step``; ``calls``: the cost of each
    call that had a choice (``bots.accuracy.call_costs``). Runs in a pool process."""
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
        "calls": [c.to_json() for c in call_costs(rules, dealer, hands, deal.auction.calls)],
    }


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
        return rules_from_json(json_object(value, ("profile", "options")))
    except (EngineError, TypeError) as e:
        raise JobRefused(f"not rules: {short_repr(str(e))}") from None


def _hands(value: Any) -> list[CardSet]:
    return [json_int(h, 0, FULL_DECK) for h in json_list(value, 4, 4)]


def entry_from_json(value: Any) -> LogEntry:
    """A log entry of ``log_json``, checked (``JobRefused``)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return json_int(value, 0, 1 << 16)
    melds = json_list(json_object(value, ("melds",))["melds"], 8)
    try:
        return Declaration(tuple(parse_meld(json_str(m, 32)) for m in melds))
    except EngineError as e:
        raise JobRefused(str(e)) from None


def read_deal(data: Mapping[str, Any]) -> Deal:
    """The deal of ``deal_args`` (more keys may come with them), rebuilt by the engine: a
    deal that is not one is refused here (``JobRefused``)."""
    rules, dealer, hands = _rules(data["rules"]), json_int(data["dealer"], 0, 3), _hands(data["hands"])
    entries = [entry_from_json(e) for e in json_list(data["log"], MAX_ENTRIES)]
    try:
        return Deal.from_log(rules, dealer, hands, entries)
    except EngineError as e:
        raise JobRefused(f"not a deal: {short_repr(str(e))}") from None


def run_analysis(args: Any) -> Any:
    deal = read_deal(json_object(args, ("rules", "dealer", "hands", "log")))
    return analyse(deal.rules, deal.dealer, deal.dealt, deal.log)


def _trump_rows(value: Any) -> list[dict[str, Any]]:
    rows = []
    for row in json_list(value, len(TRUMP_NAMES)):
        r = json_object(row, ("trump", "points", "best_bid", "sweep"))
        if r["trump"] not in TRUMP_NAMES:
            raise JobRefused(f"not a trump: {short_repr(r['trump'])}")
        points = [json_int(p, 0, 1000) for p in json_list(r["points"], 2, 2)]
        bids = [None if b is None else json_int(b, 0, 1000) for b in json_list(r["best_bid"], 4, 4)]
        sweeps = [json_optional_str(s, 16) for s in json_list(r["sweep"], 4, 4)]
        rows.append({"trump": r["trump"], "points": points, "best_bid": bids, "sweep": sweeps})
    return rows


def json_card(value: Any) -> str:
    """A card of a JSON answer, checked (``JobRefused``), in record notation."""
    try:
        return card_str(parse_card(json_str(value, 3)))
    except EngineError as e:
        raise JobRefused(str(e)) from None


def read_analysis(answer: Any) -> dict[str, Any]:
    data = json_object(answer, ("trumps", "positions", "calls"))
    positions = []
    for position in json_list(data["positions"], 32):
        p = json_object(position, ("step", "seat", "values", "played"))
        values = p["values"]
        if not isinstance(values, Mapping) or len(values) > 8:
            raise JobRefused(f"not card values: {short_repr(values)}")
        positions.append(
            {
                "step": json_int(p["step"], 1, MAX_ENTRIES),
                "seat": json_int(p["seat"], 0, 3),
                "values": {json_card(c): json_int(v, 0, 1000) for c, v in values.items()},
                "played": json_card(p["played"]),
            }
        )
    calls = []
    for entry in json_list(data["calls"], MAX_ENTRIES):
        c = json_object(entry, ("step", "seat", "played", "best", "cost"))
        calls.append(
            {
                "step": json_int(c["step"], 1, MAX_ENTRIES),
                "seat": json_int(c["seat"], 0, 3),
                "played": _call(c["played"]),
                "best": _call(c["best"]),
                "cost": json_number(c["cost"], 0, 100_000),
            }
        )
    return {"trumps": _trump_rows(data["trumps"]), "positions": positions, "calls": calls}


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
    deal = read_deal(json_object(args, ("rules", "dealer", "hands", "log")))
    found = best_puzzle(find_puzzles(deal.rules, deal.dealer, deal.dealt, deal.log))
    return None if found is None else puzzle_to_json(found)


def read_puzzle(answer: Any) -> dict[str, Any] | None:
    if answer is None:
        return None
    data = json_object(answer, ("upto", "seat", "goal", "solution", "values", "line", "themes", "swing"))
    if data["goal"] not in ("make", "beat"):
        raise JobRefused(f"not a goal: {short_repr(data['goal'])}")
    values = []
    for pair in json_list(data["values"], 8):
        card, value = json_list(pair, 2, 2)
        values.append([json_card(card), json_int(value, 0, 1000)])
    themes = [json_str(t, 32) for t in json_list(data["themes"], len(THEMES))]
    if not set(themes) <= set(THEMES):
        raise JobRefused(f"not themes: {short_repr(themes)}")
    return {
        "upto": json_int(data["upto"], 0, MAX_ENTRIES),
        "seat": json_int(data["seat"], 0, 3),
        "goal": data["goal"],
        "solution": json_card(data["solution"]),
        "values": values,
        "line": [json_card(c) for c in json_list(data["line"], 32)],
        "themes": themes,
        "swing": json_int(data["swing"], 0, 10_000),
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
    deal = read_deal(json_object(args, ("rules", "dealer", "hands", "log")))
    found = best_bidding_puzzle(find_bidding_puzzles(deal.rules, deal.dealer, deal.dealt, deal.auction.calls))
    return None if found is None else bidding_puzzle_to_json(found)


def _call(value: Any) -> str:
    try:
        return call_str(parse_call(json_str(value, 16)))
    except EngineError as e:
        raise JobRefused(str(e)) from None


def read_bidding_puzzle(answer: Any) -> dict[str, Any] | None:
    if answer is None:
        return None
    data = json_object(answer, ("upto", "seat", "call", "played", "values", "margin"))
    values = []
    for entry in json_list(data["values"], MAX_CALL_VALUES):
        call, expected, chance = json_list(entry, 3, 3)
        values.append(
            [_call(call), json_number(expected, -10_000, 10_000), None if chance is None else json_number(chance, 0, 1)]
        )
    calls = {v[0] for v in values}
    if _call(data["call"]) not in calls:
        raise JobRefused("the expert's call is not among the calls valued")
    return {
        "upto": json_int(data["upto"], 0, MAX_ENTRIES),
        "seat": json_int(data["seat"], 0, 3),
        "call": _call(data["call"]),
        "played": _call(data["played"]),
        "values": values,
        "margin": json_number(data["margin"], 0, 10_000),
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
    data = json_object(args, ("rules", "dealer", "hands", "log", "seat", "level"))
    seat, level = json_int(data["seat"], 0, 3), data["level"]
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
    data = json_object(answer, ("log", "first", "values"))
    log = [entry_from_json(e) for e in json_list(data["log"], MAX_ENTRIES)]
    first = None if data["first"] is None else json_int(data["first"], 0, MAX_ENTRIES)
    values = data["values"]
    if values is not None and (not isinstance(values, Mapping) or len(values) > 8):
        raise JobRefused(f"not card values: {short_repr(values)}")
    return {
        "log": log,
        "first": first,
        "values": None if values is None else {json_card(c): json_int(v, 0, 1000) for c, v in values.items()},
    }


COMPARE_LEVELS = ("beginner", "confirmed", "expert")
"""The computers that may play the other seats of a comparison."""
COMPARE: JobKind[dict[str, Any]] = JobKind("compare", run_compare, read_compare)


# ----- the daily challenge: a day's ranking, a deal's par -----


def standings_job(results: Sequence[tuple[str, int, int]], deals: int, final: bool) -> Job[list[Standing]]:
    """The day's ranking from its results ``(player, deal index from 0, net score)``."""
    return Job(STANDINGS, {"results": [list(r) for r in results], "deals": deals, "final": final})


def run_standings(args: Any) -> Any:
    data = json_object(args, ("results", "deals", "final"))
    deals = json_int(data["deals"], 1, 16)
    final = data["final"]
    if not isinstance(final, bool):
        raise JobRefused(f"final is {short_repr(final)}")
    results = []
    for r in json_list(data["results"], MAX_RESULTS):
        player, deal, score = json_list(r, 3, 3)
        results.append((json_str(player, MAX_NAME), json_int(deal, 0, deals - 1), json_int(score, -100_000, 100_000)))
    standings = ranking(results, deals, final)  # ValueError: two results of a player on one deal
    return [[s.player, s.rank, s.average, list(s.percents)] for s in standings]


def read_standings(answer: Any) -> list[Standing]:
    out = []
    for line in json_list(answer, MAX_RESULTS):
        player, rank, average, percents = json_list(line, 4, 4)
        out.append(
            Standing(
                json_str(player, MAX_NAME),
                json_int(rank, 1, MAX_RESULTS),
                json_number(average, 0.0, 100.0),
                tuple(None if p is None else json_number(p, 0.0, 100.0) for p in json_list(percents, 16)),
            )
        )
    return out


STANDINGS: JobKind[list[Standing]] = JobKind("standings", run_standings, read_standings)


def par_job(rules: RuleSet, dealer: int, hands: Sequence[CardSet]) -> Job[dict[str, Any]]:
    """A deal's analysis rows and each side's best contract."""
    return Job(PAR, {"rules": rules_to_json(rules), "dealer": dealer, "hands": list(hands)})


def run_par(args: Any) -> Any:
    data = json_object(args, ("rules", "dealer", "hands"))
    rules, dealer, hands = _rules(data["rules"]), json_int(data["dealer"], 0, 3), _hands(data["hands"])
    try:
        Deal(rules, dealer, hands)
    except EngineError as e:
        raise JobRefused(f"not a deal: {short_repr(str(e))}") from None
    return par_of_deal(rules, dealer, hands)


def read_par(answer: Any) -> dict[str, Any]:
    data = json_object(answer, ("trumps", "sides"))
    sides = []
    for side in json_list(data["sides"], 2, 2):
        s = json_object(side, ("team", "call", "taker", "score"))
        sides.append(
            {
                "team": json_int(s["team"], 0, 1),
                "call": json_optional_str(s["call"], 16),
                "taker": None if s["taker"] is None else json_int(s["taker"], 0, 3),
                "score": [json_int(n, -10_000, 10_000) for n in json_list(s["score"], 2, 2)],
            }
        )
    return {"trumps": _trump_rows(data["trumps"]), "sides": sides}


PAR: JobKind[dict[str, Any]] = JobKind("par", run_par, read_par)


BUILTIN_KINDS: tuple[JobKind[Any], ...] = (DECISION, ANALYSIS, PUZZLE, BIDDING_PUZZLE, COMPARE, STANDINGS, PAR)
"""The kinds every server and worker registers first (``services.register_job_kinds``)."""
