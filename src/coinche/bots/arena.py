"""Duplicate matches between two bots: the arena.

``run_arena(rules, ns, ew, deals, seed)`` plays ``deals`` duplicate *pairs*. Each pair is
one random deal (hands and dealer drawn from a seed derived from ``(seed, pair index)``)
played twice:

* half 0: the ``ns`` bots sit in seats 0 and 2, the ``ew`` bots in seats 1 and 3;
* half 1: the same hands and dealer, the ``ns`` bots in seats 1 and 3 and the ``ew`` bots in
  seats 0 and 2 (the two specs swap cards).

So ``deals`` pairs are ``2 * deals`` played deals. For each played deal the arena records
the deal score (the match points of RULES.md section 5) of the team holding the ``ns`` bots
minus the ``ew`` bots' team, and the same for card points (a void deal counts 0). Luck of
the cards cancels within a pair, so the 95% confidence interval is computed over the pair
sums (a t interval on the pairs, halved to a per-deal figure).

Four fresh bots are built for every played deal (every pair half), each with a seed derived
from ``(seed, pair, half, seat)``; every bot sees ``observe_result`` once the deal is over.
A program speaking the engine protocol (``cmd:...``, and a bot of an earlier commit) is
started once per seat for a run of pairs and told each new deal with its seed
(``engine_protocol``): it plays as a fresh bot.
A bot that raises (anything but ``KeyboardInterrupt``: a ``sys.exit`` in a bot is that bot's
failure), returns something that is not a ``Decision`` or an action outside
``view.legal_actions`` is recorded as an error and a random legal action (from a seeded
generator) is played for it: a bot never crashes or ends the arena.

Everything but the timings (``deals_per_s``, ``*_time``) depends only on ``rules``, the
two specs, ``deals`` and ``seed``, whatever ``jobs`` is: each worker recomputes its pairs from
``(seed, index)`` and results are combined in pair order. The result, its figures and
timings: ``arena_result``.
"""

from __future__ import annotations

import hashlib
import math
import multiprocessing
import os
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

from ..engine.actions import Action, is_declaration
from ..engine.deal import Deal, Phase, View, random_hands
from ..engine.rules import RuleSet
from .arena_result import (
    MAX_ERROR_LOG,
    PHASES,
    SIDES,
    ArenaResult,
    SideTally,
    deal_tally,
    move_times,
    paired_ci,
    phase_of,
    side_stats,
)
from .base import Bot, BotFactory, Decision, failure_text
from .engine_protocol import EngineBot
from .loading import bot_factory, build_bot

_MAX_STEPS: Final = 1000
"""A deal never takes this many actions; reaching it means an engine bug, not a bot's."""


def run_arena(
    rules: RuleSet,
    ns: str,
    ew: str,
    deals: int,
    seed: int,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> ArenaResult:
    """Play ``deals`` duplicate pairs (``2 * deals`` deals) of ``ns`` against ``ew``.

    ``jobs`` worker processes share the pairs (``jobs <= 0``: one per CPU); the result is
    the same for any ``jobs`` except for the timings. ``progress`` is called in this
    process with the number of pairs finished so far. Unknown bot specs raise
    ``BotLoadError`` before anything is played.
    """
    if deals < 1:
        raise ValueError(f"an arena needs at least one duplicate pair, not {deals}")
    for spec in (ns, ew):
        _check_spec(spec)
    if jobs <= 0:
        jobs = os.cpu_count() or 1
    jobs = min(jobs, deals)
    task = _Task(rules, ns, ew, seed)
    outcomes: list[_PairOutcome] = []
    start = time.perf_counter()
    if jobs == 1:
        try:
            for i in range(deals):
                outcomes.append(_play_pair(task, i))
                if progress is not None:
                    progress(i + 1)
        finally:
            _close_engines()
    else:
        chunk = max(1, min(50, deals // (jobs * 4)))
        chunks = [(task, range(lo, min(lo + chunk, deals))) for lo in range(0, deals, chunk)]
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
        done = 0
        with ctx.Pool(jobs) as pool:
            for part in pool.imap_unordered(_play_chunk, chunks):
                outcomes.extend(part)
                done += len(part)
                if progress is not None:
                    progress(done)
        outcomes.sort(key=lambda o: o.pair)
    elapsed = time.perf_counter() - start
    return _combine(task, outcomes, elapsed)


def _check_spec(spec: str) -> None:
    """Fail early on a bot spec that cannot be loaded (not a bot's in-game error)."""
    bot = _make_bot(bot_factory(spec), spec, seed=0)
    if isinstance(bot, EngineBot):
        bot.close()


@dataclass(frozen=True)
class _Task:
    rules: RuleSet
    ns: str
    ew: str
    seed: int


@dataclass
class _PairOutcome:
    pair: int
    diffs: list[int] = field(default_factory=list)
    """Score diff (NS bots' team minus EW bots' team) of half 0 and half 1."""
    cp_diffs: list[int] = field(default_factory=list)
    tally: dict[str, SideTally] = field(default_factory=lambda: {s: SideTally() for s in SIDES})
    times: dict[str, list[float]] = field(default_factory=lambda: {s: [] for s in SIDES})
    call_times: dict[str, list[float]] = field(default_factory=lambda: {s: [] for s in SIDES})
    """Times of the decisions with a choice only (more than one legal action)."""
    card_times: dict[str, list[float]] = field(default_factory=lambda: {s: [] for s in SIDES})
    card_phase_times: dict[str, dict[str, list[float]]] = field(
        default_factory=lambda: {s: {p: [] for p, _, _ in PHASES} for s in SIDES}
    )
    errors: list[str] = field(default_factory=list)


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from ``parts`` (stable across processes and Python runs)."""
    text = ":".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


def pair_deal(seed: int, pair: int) -> tuple[int, tuple[int, ...]]:
    """Dealer and hands of duplicate pair ``pair`` of an arena seeded ``seed``."""
    rng = random.Random(derive_seed(seed, "deal", pair))
    dealer = rng.randrange(4)
    return dealer, random_hands(rng)


def _play_chunk(args: tuple[_Task, range]) -> list[_PairOutcome]:
    task, pairs = args
    try:
        return [_play_pair(task, i) for i in pairs]
    finally:
        _close_engines()


def _close_engines() -> None:
    """End the engines' processes (told ``quit``, killed if they linger)."""
    while _ENGINES:
        _, engine = _ENGINES.popitem()
        engine.close()


_FACTORIES: dict[str, BotFactory] = {}


def _factory(spec: str) -> BotFactory:
    f = _FACTORIES.get(spec)
    if f is None:
        f = _FACTORIES[spec] = bot_factory(spec)
    return f


def _make_bot(factory: BotFactory, spec: str, seed: int) -> Bot:
    return build_bot(factory, spec, seed)


class _Unbuilt(Bot):
    """Stands in for a bot whose constructor failed during the match: every decision is an
    error (and a random legal action is played for it)."""

    name = "unbuilt"

    def __init__(self, problem: str) -> None:
        super().__init__(None)
        self.problem = problem

    def choose(self, view: View) -> Decision:
        raise RuntimeError(f"the bot could not be built: {self.problem}")


_ENGINES: dict[tuple[str, int], EngineBot] = {}
"""The engine process playing each seat for each spec that makes one (``cmd:...``, a bot
of an earlier commit), kept from deal to deal: one process a seat for a whole run of
pairs (starting a program is slower than many decisions), told each deal's seed."""


def _build(spec: str, seed: int, seat: int) -> Bot:
    engine = _ENGINES.get((spec, seat))
    if engine is not None:
        engine.new_deal(seed)
        return engine
    try:
        bot = _make_bot(_factory(spec), spec, seed)
    except Exception as e:  # build_bot turns whatever the bot's code raised into BotLoadError
        return _Unbuilt(str(e))
    if isinstance(bot, EngineBot):
        _ENGINES[spec, seat] = bot
    return bot


def _play_pair(task: _Task, pair: int) -> _PairOutcome:
    dealer, hands = pair_deal(task.seed, pair)
    out = _PairOutcome(pair)
    for half in (0, 1):
        _play_half(task, pair, half, dealer, hands, out)
    return out


def _side_of(seat: int, half: int) -> str:
    """The NS bots hold team ``half``: seats 0/2 in half 0, seats 1/3 in half 1."""
    return "ns" if seat & 1 == half else "ew"


def _play_half(task: _Task, pair: int, half: int, dealer: int, hands: Sequence[int], out: _PairOutcome) -> None:
    specs = {"ns": task.ns, "ew": task.ew}
    sides = [_side_of(s, half) for s in range(4)]
    bots = [_build(specs[sides[s]], derive_seed(task.seed, pair, half, s), s) for s in range(4)]
    fallback = random.Random(derive_seed(task.seed, pair, half, "fallback"))
    deal = Deal(task.rules, dealer, hands)
    times = out.times
    tally = {s: SideTally() for s in SIDES}

    def error(seat: int, what: str) -> None:
        side = sides[seat]
        tally[side].errors += 1
        if len(out.errors) < MAX_ERROR_LOG:
            out.errors.append(f"pair {pair} half {half} seat {seat} ({side} {specs[side]}): {what}")

    clock = time.perf_counter
    steps = 0
    while not deal.is_over:
        steps += 1
        if steps > _MAX_STEPS:
            raise RuntimeError(f"pair {pair} half {half}: the deal did not end after {_MAX_STEPS} actions")
        seat = deal.to_move
        view = deal.view(seat)
        legal = view.legal_actions
        side = sides[seat]
        action: Action | None = None
        chosen = {Phase.AUCTION: out.call_times, Phase.PLAY: out.card_times}.get(deal.phase) if len(legal) > 1 else None
        t0 = clock()
        try:
            decision = bots[seat].choose(view)
        except KeyboardInterrupt:
            raise
        except BaseException as e:  # sys.exit in a bot is that bot's failure, not the arena's end
            elapsed = clock() - t0
            times[side].append(elapsed)
            error(seat, f"choose raised {failure_text(e)}")
        else:
            elapsed = clock() - t0
            times[side].append(elapsed)
            if not isinstance(decision, Decision):
                error(seat, f"choose returned {type(decision).__name__}, not a Decision")
            else:
                a = decision.action
                if isinstance(a, int) and not isinstance(a, bool) and a in legal:
                    action = int(a)
                else:
                    error(seat, f"illegal action {a!r}")
        if chosen is not None and not is_declaration(legal[0]):  # a meld declaration is neither
            chosen[side].append(elapsed)
            if chosen is out.card_times:
                out.card_phase_times[side][phase_of(len(deal.tricks) + 1)].append(elapsed)
        tally[side].decisions += 1
        if action is None:
            action = legal[fallback.randrange(len(legal))]
        deal.apply(action)

    for s in range(4):
        try:
            bots[s].observe_result(deal.view(s))
        except KeyboardInterrupt:
            raise
        except BaseException as e:
            error(s, f"observe_result raised {failure_text(e)}")
        if isinstance(bots[s], EngineBot):  # a program: its faults of this deal counted
            engine = bots[s]
            assert isinstance(engine, EngineBot)
            faults = engine.take_faults()
            tally[sides[s]].faults += engine.faults - engine.counted  # its start's faults too
            engine.counted = engine.faults
            for what in faults[: max(0, MAX_ERROR_LOG - len(out.errors))]:
                out.errors.append(
                    f"pair {pair} half {half} seat {s} ({sides[s]} {specs[sides[s]]}): engine fault: {what}"
                )

    result = deal.result()
    assert result is not None
    ns_team = half
    score, cp = result.score, result.card_points
    out.diffs.append(score[ns_team] - score[1 - ns_team])
    out.cp_diffs.append(cp[ns_team] - cp[1 - ns_team])

    for side in SIDES:
        t = tally[side]
        t.add(deal_tally(deal, ns_team if side == "ns" else 1 - ns_team))
        out.tally[side].add(t)


def _combine(task: _Task, outcomes: Sequence[_PairOutcome], elapsed: float) -> ArenaResult:
    mean, ci = paired_ci([sum(o.diffs) for o in outcomes])
    cp_mean, cp_ci = paired_ci([sum(o.cp_diffs) for o in outcomes])
    tallies = {s: SideTally() for s in SIDES}
    times: dict[str, list[float]] = {s: [] for s in SIDES}
    call_times: dict[str, list[float]] = {s: [] for s in SIDES}
    card_times: dict[str, list[float]] = {s: [] for s in SIDES}
    phase_times: dict[str, dict[str, list[float]]] = {s: {p: [] for p, _, _ in PHASES} for s in SIDES}
    errors: list[str] = []
    for o in outcomes:
        for s in SIDES:
            tallies[s].add(o.tally[s])
            times[s].extend(o.times[s])
            call_times[s].extend(o.call_times[s])
            card_times[s].extend(o.card_times[s])
            for p, _, _ in PHASES:
                phase_times[s][p].extend(o.card_phase_times[s][p])
        errors.extend(o.errors)
    played = 2 * len(outcomes)
    return ArenaResult(
        rules=task.rules.name,
        ns=task.ns,
        ew=task.ew,
        deals=played,
        mean_diff=mean,
        ci95=ci,
        card_points_diff=cp_mean,
        card_points_ci95=cp_ci,
        deals_per_s=played / elapsed if elapsed > 0 else math.inf,
        move_time={s: move_times(times[s]) for s in SIDES},
        stats={s: side_stats(tallies[s]) for s in SIDES},
        seed=task.seed,
        options=task.rules.options(),
        error_log=tuple(errors[:MAX_ERROR_LOG]),
        call_time={s: move_times(call_times[s]) for s in SIDES},
        card_time={s: move_times(card_times[s]) for s in SIDES},
        pair_diffs=tuple(sum(o.diffs) for o in outcomes),
        faults={s: tallies[s].faults for s in SIDES},
        card_phase_time={s: {p: move_times(phase_times[s][p]) for p, _, _ in PHASES} for s in SIDES},
    )
