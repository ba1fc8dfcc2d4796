"""What self-play taught the expert's auction: how far the hand evaluator's double-dummy
estimate of a contract runs ahead of what is actually taken at the table, and what a
partner's calls say of its hand.

The hand evaluator (``bots.hand_evaluator``) predicts the double-dummy card points of a
team: an optimistic figure for the takers, who in real play do not see the defence's cards,
and blind to what the other seats' calls say. ``scripts/calibrate_auction.py`` plays the
expert against itself, compares every contract's estimate with the points actually taken,
and writes ``data/auction_calibration.json``, per profile and pooled (``POOLED``):

* ``take[kind][situation]``: a line predicting the takers' points from their estimate,
  ``intercept + estimate * e + other * o``, per trump kind (suit, SA, TA) and situation:
  ``free`` (the opponents never bid) and ``contested`` (``o`` is 0), ``coinched`` (``o`` is
  the contract's value: what the taker knows once an opponent coinches). A line in the
  estimate, not a shift per bid level: the expert chooses the level, and a correction that
  depended on it would reward bidding higher for its own sake; fitted on the contracts the
  expert chose, a regression on the estimate is not biased by that choice (the choice
  depends on the estimate), where a mean would be;
* ``defend[kind]``: the same for the defenders' points, from their estimate and the
  contract's value (how strong the takers' bid says they are);
* ``sweep_line``: the evaluator's sweep chance as self-play found it, on the log-odds scale
  (``intercept + slope * logit(p)``, fitted by maximum likelihood on the expert's contracts
  whose cards were played): the evaluator rates a bidding hand's sweep far too high (its
  0.9 to 0.95 were swept 20 % of the time, 39 % double dummy: the partner's cards decide a
  sweep, and a hand chosen for its sweep chance is the evaluator's most optimistic), and
  too low on hands it gives no chance (0.01 for 4 %);
* each line also keeps ``sd``, the spread of the real results around it, and
  ``estimate_sd``, the evaluator's own spread on the contracts it was fitted on: the auction
  gives the team's points the shape of the evaluator's quantiles, scaled to that spread, and
  applies a line in proportion to the estimate's uncertainty (``_predict``), and ``low`` and
  ``high``, the band of estimates it was fitted on (outside it, the correction at the
  band's end);
* ``partner[kind][context]``: the partner's own one-hand estimate, on average, given what it
  called (``partner_context``), the input ``estimate_pair`` asks for.

A missing entry falls back to the pooled figure of all profiles, a missing SA or TA line to
the suit line (a correction of the same kind is better than none), then to a neutral value.
The file's ``meta.report`` keeps what the fit measured, the double-dummy optimism per bid
level included.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Final

from ...engine.cards import ALL_TRUMP, NO_TRUMP, Trump
from ...engine.rules import RuleSet
from ..hand_evaluator import Estimate

DATA_FILE: Final = "data/auction_calibration.json"

POOLED: Final = "all"
"""The table of every profile's contracts together."""

UNKNOWN_PARTNER: Final = 66.0
"""A partner's one-hand estimate in a trump when nothing is known (random hands: the mean
one-hand estimate of a suit is about 66 card points)."""


def trump_kind(trump: Trump) -> str:
    """Calibration groups contracts by kind of trump: a suit, no trump, all trump."""
    if trump == NO_TRUMP:
        return "sa"
    if trump == ALL_TRUMP:
        return "ta"
    return "suit"


def level_of(value: int) -> str:
    """The bid-level bucket of a contract value: 80 ... 130 (130 and more), capot."""
    if value >= 250:
        return "capot"
    return str(min(max(value, 80), 130) // 10 * 10)


@dataclass(frozen=True)
class Prediction:
    """A team's card points as a fitted line predicts them: the mean and the residual
    spread (None when the calibration has no line: the estimate is used as it is)."""

    mean: float
    sd: float | None


def _predict(line: tuple[float, ...] | None, est: Estimate, other: int) -> Prediction:
    """The line's prediction, applied in proportion to the estimate's own uncertainty: the
    line is fitted on typical hands (whose estimates spread ``estimate_sd``); a hand the
    evaluator is sure of (eight trumps) keeps its estimate and its narrow spread. Outside
    the estimates the line was fitted on (``low`` to ``high``), its correction stays what it
    is at the nearer end: the expert contracts SA only on estimates of 134 and more, and
    a line extrapolated from there to a hand of 70 predicted 139 points."""
    if line is None:
        return Prediction(est.mean_162, None)
    a, b, c, sd, ref, low, high = line
    weight = min(est.sd / ref, 1.0) if ref > 0 else 1.0
    e = est.mean_162
    at = min(max(e, low), high)
    mean = min(max(a + b * at + c * min(other, 250) + (e - at), 0.0), 162.0)
    return Prediction(e + (mean - e) * weight, sd * weight)


@dataclass(frozen=True)
class Calibration:
    """The fitted tables, by profile name (``POOLED`` for all profiles together)."""

    profiles: dict[str, dict[str, object]]
    meta: dict[str, object]

    def _nodes(self, rules: RuleSet, *path: str) -> list[object]:
        """What ``path`` leads to in the profile's table, then in the pooled one (None where
        it leads nowhere)."""
        out = []
        for name in (rules.name, POOLED):
            node: object = self.profiles.get(name)
            for key in path:
                node = node.get(key) if isinstance(node, dict) else None
            out.append(node)
        return out

    def _lookup(self, rules: RuleSet, *path: str) -> float | None:
        for node in self._nodes(rules, *path):
            if isinstance(node, int | float):
                return float(node)
        return None

    def _line(self, rules: RuleSet, *path: str) -> tuple[float, ...] | None:
        names = ("intercept", "estimate", "other", "sd", "estimate_sd")
        values = [self._lookup(rules, *path, n) for n in names]
        if any(v is None for v in values):
            return None
        low, high = self._lookup(rules, *path, "low"), self._lookup(rules, *path, "high")
        return (*(v or 0.0 for v in values), 0.0 if low is None else low, 162.0 if high is None else high)

    def takers(self, rules: RuleSet, trump: Trump, situation: str, est: Estimate, other: int) -> Prediction:
        """The takers' points, from their estimate: ``situation`` is ``free``,
        ``contested`` or ``coinched`` (``other``: the contract's value)."""
        line = self._line(rules, "take", trump_kind(trump), situation) or self._line(rules, "take", "suit", situation)
        return _predict(line, est, other)

    def defenders(self, rules: RuleSet, trump: Trump, value: int, est: Estimate) -> Prediction:
        """The defenders' points against a contract of ``value``, from their estimate (the
        line knows how strong the takers' bid says they are)."""
        line = self._line(rules, "defend", trump_kind(trump)) or self._line(rules, "defend", "suit")
        return _predict(line, est, value)

    def sweep_chance(self, rules: RuleSet, p: float) -> float:
        """The evaluator's sweep chance ``p`` as self-play found it: the fitted
        ``sweep_line`` on the log-odds scale (none fitted: ``p`` as it is)."""
        p = min(max(p, 1e-9), 1 - 1e-9)
        z = math.log(p / (1 - p))
        intercept = self._lookup(rules, "sweep_line", "intercept")
        slope = self._lookup(rules, "sweep_line", "slope")
        if intercept is not None and slope is not None:
            z = intercept + slope * z
        return 1.0 / (1.0 + math.exp(-min(max(z, -50.0), 50.0)))

    def partner_points(self, rules: RuleSet, trump: Trump, context: str) -> float:
        """The partner's one-hand estimate in ``trump`` given its calls (``partner_context``)."""
        kind = trump_kind(trump)
        v = self._lookup(rules, "partner", kind, context)
        if v is None and ":" in context:
            # A level self-play never saw: the nearest one below it that it saw.
            family, level = context.split(":")
            below = [int(k.split(":")[1]) for k in self._keys(rules, "partner", kind) if k.startswith(family + ":")]
            n = 250 if level == "capot" else int(level)
            lower = [b for b in below if b <= n]
            if lower:
                v = self._lookup(rules, "partner", kind, f"{family}:{max(lower)}")
        return UNKNOWN_PARTNER if v is None else v

    def _keys(self, rules: RuleSet, *path: str) -> set[str]:
        """The keys ending in a number under ``path``, in either table."""
        keys: set[str] = set()
        for node in self._nodes(rules, *path):
            if isinstance(node, dict):
                keys |= {k for k in node if k.split(":")[-1].isdigit()}
        return keys


def parse_calibration(raw: dict[str, object]) -> Calibration:
    profiles = raw.get("profiles", {})
    meta = raw.get("meta", {})
    if not isinstance(profiles, dict) or not isinstance(meta, dict):
        raise ValueError("auction calibration: 'profiles' and 'meta' must be objects")
    return Calibration(profiles, meta)


@cache
def calibration() -> Calibration:
    """The shipped calibration, read once."""
    text = resources.files("coinche.bots").joinpath(DATA_FILE).read_text(encoding="utf-8")
    return parse_calibration(json.loads(text))
