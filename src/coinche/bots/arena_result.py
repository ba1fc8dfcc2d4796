"""What a duplicate match measures and how it is reported: ``ArenaResult`` (the score
difference with its 95% confidence interval over the pairs, each side's figures and
timings), the counts of one side (``SideTally``) and the statistics behind them.

Timings: ``move_time`` covers every ``choose`` call, forced ones included (a single legal
action); ``call_time`` and ``card_time`` only the decisions with a real choice (more than
one legal action), calls and cards apart: the figures a person waiting at a table feels;
``card_phase_time`` the cards' again by part of the play (``PHASES``: where a search runs long).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ..engine.actions import COINCHE, SURCOINCHE, is_bid
from ..engine.deal import Deal

SIDES: Final = ("ns", "ew")
MAX_ERROR_LOG: Final = 50
"""At most this many error messages are kept (the ``errors`` counts are always complete)."""


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
