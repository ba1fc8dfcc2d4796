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

Timings: ``move_time`` covers every ``choose`` call, forced ones included (a single legal
action); ``call_time`` and ``card_time`` only the decisions with a real choice (more than
one legal action), calls and cards apart: the figures a person waiting at a table feels;
``card_phase_time`` the cards' again by part of the play (``PHASES``: where a search runs long).

Everything but the timings (``deals_per_s``, ``*_time``) depends only on ``rules``, the
two specs, ``deals`` and ``seed``, whatever ``jobs`` is: each worker recomputes its pairs from
``(seed, index)`` and results are combined in pair order.
"""

from __future__ import annotations

import hashlib
import math
import multiprocessing
import os
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ..engine.actions import COINCHE, SURCOINCHE, Action, is_bid, is_declaration
from ..engine.deal import Deal, Phase, View, random_hands
from ..engine.rules import RuleSet
from .base import Bot, BotFactory, Decision, failure_text
from .engine_protocol import EngineBot
from .loading import bot_factory, build_bot

SIDES: Final = ("ns", "ew")
MAX_ERROR_LOG: Final = 50
"""At most this many error messages are kept (the ``errors`` counts are always complete)."""
_MAX_STEPS: Final = 1000
"""A deal never takes this many actions; reaching it means an engine bug, not a bot's."""


PHASES: tuple[tuple[str, int, int], ...] = (("tricks 1-2", 1, 2), ("tricks 3-5", 3, 5), ("tricks 6-8", 6, 8))
"""The parts of the play a card's time is also reported by (``card_phase_time``): the first
tricks, where a card search has the most deals and cards to weigh, the middle, the end."""


def phase_of(trick: int) -> str:
    """The part of the play (``PHASES``) of trick ``trick`` (1-based)."""
    return next(name for name, first, last in PHASES if first <= trick <= last)


@dataclass(frozen=True)
class MoveTimes:
    """Seconds per decision (``Bot.choose`` call) of one side."""

    mean: float
    p95: float
    max: float

    def to_json(self) -> dict[str, float]:
        return {"mean": self.mean, "p95": self.p95, "max": self.max}


@dataclass(frozen=True)
class ArenaResult:
    """The outcome of a duplicate match; differences are NS minus EW, per played deal."""

    rules: str
    """The rules profile name (changed table options are in ``options``)."""
    ns: str
    ew: str
    deals: int
    """Played deals: two per duplicate pair."""
    mean_diff: float
    """Mean deal score of the ``ns`` bots' team minus the ``ew`` bots' team, per deal."""
    ci95: tuple[float, float]
    card_points_diff: float
    card_points_ci95: tuple[float, float]
    deals_per_s: float
    move_time: dict[str, MoveTimes]
    """Per side (``ns``, ``ew``): seconds per ``choose`` call, forced ones included."""
    stats: dict[str, dict[str, float]]
    """Per side: ``bid_rate``, ``taker_rate``, ``made_rate``, ``coinche_rate`` and more (see
    ``STAT_DOCS``)."""
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    """Table options that differ from the profile's defaults."""
    error_log: tuple[str, ...] = ()
    """The first ``MAX_ERROR_LOG`` bot errors, in pair order."""
    call_time: dict[str, MoveTimes] = field(default_factory=dict)
    """Per side: seconds per call of the auction with more than one legal call."""
    card_time: dict[str, MoveTimes] = field(default_factory=dict)
    """Per side: seconds per card played with more than one legal card."""
    pair_diffs: tuple[int, ...] = ()
    """Score diff (NS bots' team minus EW bots' team) of each duplicate pair, its two deals
    summed, in pair order: the match one pair at a time (the ratings' measure of the levels
    counts each pair as one game); not in ``to_json``."""
    faults: dict[str, int] = field(default_factory=dict)
    """Per side: the faults of engines speaking the protocol (``engine_protocol``: no
    answer in time, not JSON, an illegal action, a crash), each played as its seat's first
    legal action."""
    card_phase_time: dict[str, dict[str, MoveTimes]] = field(default_factory=dict)
    """Per side, per part of the play (``PHASES``): ``card_time`` of the cards played there."""

    @property
    def pairs(self) -> int:
        return self.deals // 2

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (non-finite numbers, as a CI over a single pair, become None)."""
        return {
            "rules": self.rules,
            "options": dict(self.options),
            "ns": self.ns,
            "ew": self.ew,
            "seed": self.seed,
            "pairs": self.pairs,
            "deals": self.deals,
            "mean_diff": _finite(self.mean_diff),
            "ci95": [_finite(x) for x in self.ci95],
            "card_points_diff": _finite(self.card_points_diff),
            "card_points_ci95": [_finite(x) for x in self.card_points_ci95],
            "deals_per_s": self.deals_per_s,
            "move_time": {side: t.to_json() for side, t in self.move_time.items()},
            "call_time": {side: t.to_json() for side, t in self.call_time.items()},
            "card_time": {side: t.to_json() for side, t in self.card_time.items()},
            "card_phase_time": {
                side: {phase: t.to_json() for phase, t in phases.items()}
                for side, phases in self.card_phase_time.items()
            },
            "stats": {side: dict(s) for side, s in self.stats.items()},
            "errors": list(self.error_log),
            "faults": {side: self.faults.get(side, 0) for side in ("ns", "ew")},
        }

    @property
    def verdict(self) -> str:
        lo, hi = self.ci95
        if lo > 0:
            return f"{self.ns} (NS) is stronger"
        if hi < 0:
            return f"{self.ew} (EW) is stronger"
        return "no significant difference"

    def format(self) -> str:
        """A readable multi-line report."""
        opts = " ".join(f"{k}={v}" for k, v in self.options.items())
        rules = f"{self.rules} ({opts})" if opts else self.rules
        lines = [
            f"Arena [{rules}] NS {self.ns} vs EW {self.ew}: {self.pairs} duplicate pairs = {self.deals} deals"
            f" (seed {self.seed}), {self.deals_per_s:.1f} deals/s",
            f"score diff per deal (NS - EW):  {self.mean_diff:+8.2f}   95% CI {_fmt_ci(self.ci95)}",
            f"card points diff per deal:      {self.card_points_diff:+8.2f}   95% CI {_fmt_ci(self.card_points_ci95)}",
            f"verdict: {self.verdict}",
            "",
        ]
        names = {"ns": f"NS {self.ns}", "ew": f"EW {self.ew}"}
        width = max(14, *(len(n) for n in names.values()))
        lines.append(f"{'':<22}" + "".join(f"{names[s]:>{width + 2}}" for s in SIDES))
        keys = [k for k in STAT_DOCS if all(k in self.stats.get(s, {}) for s in SIDES)]
        for key in keys:
            cells = "".join(f"{_fmt_stat(key, self.stats[s][key]):>{width + 2}}" for s in SIDES)
            lines.append(f"{key:<22}{cells}")
        timings = (("move", self.move_time), ("call (choice)", self.call_time), ("card (choice)", self.card_time))
        for what, table in timings:
            if not table:
                continue
            for attr in ("mean", "p95", "max"):
                cells = "".join(f"{_fmt_time(getattr(table[s], attr)):>{width + 2}}" for s in SIDES)
                lines.append(f"{what + ' time ' + attr:<22}{cells}")
        for phase, _, _ in PHASES:
            if all(phase in self.card_phase_time.get(s, {}) for s in SIDES):
                cells = "".join(f"{_fmt_time(self.card_phase_time[s][phase].p95):>{width + 2}}" for s in SIDES)
                lines.append(f"{'card p95, ' + phase:<22}{cells}")
        if any(self.faults.values()):
            cells = "".join(f"{self.faults.get(s, 0):>{width + 2}}" for s in SIDES)
            lines.append(f"{'engine faults':<22}{cells}")
        if self.error_log:
            lines.append("")
            lines.append("bot errors (first ones):")
            lines.extend(f"  {e}" for e in self.error_log[:10])
        return "\n".join(lines)


STAT_DOCS: Final[dict[str, str]] = {
    "bid_rate": "share of deals where the side made at least one bid",
    "taker_rate": "share of deals where the side became the taker",
    "contracts": "number of contracts the side took",
    "made_rate": "share of the side's contracts made (0 without contracts)",
    "mean_contract": "mean value of the side's contracts (capot 250, générale its value)",
    "coinche_rate": "share of deals where the side coinched",
    "coinche_set_rate": "share of the side's coinches where the contract failed",
    "coinched_rate": "share of the side's contracts that were coinched",
    "surcoinche_rate": "share of deals where the side surcoinched",
    "score_per_deal": "mean deal score of the side",
    "card_points_per_deal": "mean card points of the side",
    "void_rate": "share of void deals (four passes), the same for both sides",
    "decisions": "number of choose calls",
    "errors": "bot errors: exceptions, non-Decision returns, illegal actions",
}


# ----- running -----


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
class SideTally:
    """Counts of one side over played deals (``side_stats`` turns them into rates)."""

    deals: int = 0
    bid: int = 0
    taker: int = 0
    made: int = 0
    contract_value: int = 0
    coinche: int = 0
    coinche_set: int = 0
    coinched: int = 0
    surcoinche: int = 0
    score: int = 0
    card_points: int = 0
    void: int = 0
    decisions: int = 0
    errors: int = 0
    faults: int = 0

    def add(self, other: SideTally) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))


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
    faults_before = [b.faults if isinstance(b, EngineBot) else 0 for b in bots]
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
            tally[sides[s]].faults += engine.faults - faults_before[s]
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


def deal_tally(deal: Deal, team: int) -> SideTally:
    """What one finished deal adds to the figures of ``team``'s side (its calls, its
    contract or its coinche, its score); the decisions and errors are counted apart."""
    result = deal.result()
    assert result is not None
    calls = deal.auction.calls
    first = deal.auction.first
    mine = [c for k, c in enumerate(calls) if (first + k) & 1 == team]
    contract = result.contract
    t = SideTally(deals=1, score=result.score[team], card_points=result.card_points[team])
    t.bid = int(any(is_bid(c) for c in mine))
    t.coinche = int(COINCHE in mine)
    t.surcoinche = int(SURCOINCHE in mine)
    if contract is None:
        t.void = 1
    elif contract.team == team:
        t.taker = 1
        t.made = int(bool(result.made))
        t.contract_value = contract.value
        t.coinched = int(contract.multiplier > 1)
    elif t.coinche:
        t.coinche_set = int(result.made is False)
    return t


# ----- combining -----


def _t975(df: int) -> float:
    """The 97.5% quantile of Student's t with ``df`` degrees of freedom."""
    if df <= len(_T975):
        return _T975[df - 1]
    z = 1.959963984540054
    # Cornish-Fisher expansion (error < 1e-5 beyond 30 degrees of freedom).
    return (
        z
        + (z**3 + z) / (4 * df)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3)
    )


_T975: Final = (
    12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
    2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
    2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
)  # fmt: skip


def paired_ci(pair_sums: Sequence[float]) -> tuple[float, tuple[float, float]]:
    """Per-deal mean and 95% CI from the per-pair sums of a duplicate match (a t interval
    over the pairs, halved). A single pair gives an infinite interval."""
    n = len(pair_sums)
    mean = statistics.fmean(pair_sums) / 2
    if n < 2:
        return mean, (-math.inf, math.inf)
    half_width = _t975(n - 1) * statistics.stdev(pair_sums) / math.sqrt(n) / 2
    return mean, (mean - half_width, mean + half_width)


def move_times(samples: Sequence[float]) -> MoveTimes:
    """Mean, 95th percentile (nearest rank) and maximum of decision times."""
    if not samples:
        return MoveTimes(0.0, 0.0, 0.0)
    ordered = sorted(samples)
    rank = max(1, math.ceil(0.95 * len(ordered)))
    return MoveTimes(statistics.fmean(ordered), ordered[rank - 1], ordered[-1])


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


def _ratio(a: int, b: int) -> float:
    return a / b if b else 0.0


def side_stats(t: SideTally) -> dict[str, float]:
    return {
        "bid_rate": _ratio(t.bid, t.deals),
        "taker_rate": _ratio(t.taker, t.deals),
        "contracts": float(t.taker),
        "made_rate": _ratio(t.made, t.taker),
        "mean_contract": _ratio(t.contract_value, t.taker),
        "coinche_rate": _ratio(t.coinche, t.deals),
        "coinche_set_rate": _ratio(t.coinche_set, t.coinche),
        "coinched_rate": _ratio(t.coinched, t.taker),
        "surcoinche_rate": _ratio(t.surcoinche, t.deals),
        "score_per_deal": _ratio(t.score, t.deals),
        "card_points_per_deal": _ratio(t.card_points, t.deals),
        "void_rate": _ratio(t.void, t.deals),
        "decisions": float(t.decisions),
        "errors": float(t.errors),
    }


# ----- formatting -----


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


def _fmt_ci(ci: tuple[float, float]) -> str:
    return f"[{ci[0]:+.2f}, {ci[1]:+.2f}]"


def _fmt_stat(key: str, value: float) -> str:
    if key.endswith("_rate"):
        return f"{100 * value:.1f}%"
    if key in ("contracts", "decisions", "errors"):
        return f"{value:.0f}"
    return f"{value:.1f}"


def _fmt_time(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.0f} µs"
