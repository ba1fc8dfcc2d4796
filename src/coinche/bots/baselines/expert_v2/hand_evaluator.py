"""A fast, fitted estimate of what a hand is worth under each trump, for the auction.

The expert used to value a call by dealing a dozen random deals around its hand and solving
each double dummy: about 10 ms a solve, so several hundred ms a call. This module replaces
that with a small model fitted offline (``scripts/fit_hand_evaluator.py``) on tens of
thousands of hands from random deals solved by the project's solver: from ONE hand (and optionally a
summary of the partner's), the double-dummy card points its team takes with each trump, the
spread of that value over the unseen deals, and the chance of a sweep::

    from coinche.bots.hand_evaluator import estimate, first_trick_place
    est = estimate(hand, trump, rules, first_trick_place(seat, dealer))
    est.mean_points, est.sd, est.p_reach(82), est.p_sweep

The numbers are double-dummy values of the actual deal, averaged over the hidden hands: they
share the double-dummy optimism for the takers (a real declarer does not see the cards), which
a caller must still correct for: the expert's auction does it with the lines
``expert/calibration.py`` fits on self-play.

The model per trump kind is a ridge regression (on a log-odds scale of the points, mapped
back by a fitted increasing curve) on a few dozen explainable hand features (trump honours
and length, side aces and tens, voids, belote, the hand's place in the first trick), a
logistic regression on the same features for the sweep, and, per bucket of predicted mean,
the quantiles of the residual (for ``p_reach``). Pure Python, tens of microseconds a call.
"""

from __future__ import annotations

import bisect
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from itertools import pairwise
from typing import Final

from ....engine.cards import ALL_TRUMP, NO_TRUMP, CardSet, Trump
from ....engine.rules import RuleSet

__all__ = [
    "Estimate",
    "Model",
    "estimate",
    "estimate_pair",
    "features",
    "first_trick_place",
    "model_key",
]

DATA_FILE: Final = "data/hand_evaluator.json"
"""The fitted data, shipped with the ``coinche.bots.baselines.expert_v2`` package (package data)."""

MAX_POINTS: Final = 162
"""Card points of a deal, last-trick bonus included (without a sweep bonus)."""

# Rank indexes (engine/cards.py): 7 8 9 T J Q K A.
_SEVEN, _EIGHT, _NINE, _TEN, _JACK, _QUEEN, _KING, _ACE = range(8)
_PLAIN_TOP: Final = (_ACE, _TEN, _KING, _QUEEN, _JACK, _NINE, _EIGHT, _SEVEN)
"""Plain-suit (and SA) order, strongest first."""
_TRUMP_TOP: Final = (_JACK, _NINE, _ACE, _TEN, _KING, _QUEEN, _EIGHT, _SEVEN)
"""Trump-suit (and TA) order, strongest first."""
_PLAIN_PTS: Final = (0, 0, 0, 10, 2, 3, 4, 11)
_SA_PTS: Final = (0, 0, 0, 10, 2, 3, 4, 19)
_TRUMP_PTS: Final = (0, 0, 14, 10, 20, 3, 4, 11)
_TA_PTS: Final = (0, 0, 9, 5, 14, 1, 3, 6)


def _top_run(byte: int, order: Sequence[int]) -> int:
    """How many of the suit's best cards, from the top, the hand holds without a gap."""
    n = 0
    for r in order:
        if not byte >> r & 1:
            break
        n += 1
    return n


def _points(byte: int, table: Sequence[int]) -> int:
    return sum(table[r] for r in range(8) if byte >> r & 1)


_LEN: Final = tuple(b.bit_count() for b in range(256))
_RUN_PLAIN: Final = tuple(_top_run(b, _PLAIN_TOP) for b in range(256))
_RUN_TRUMP: Final = tuple(_top_run(b, _TRUMP_TOP) for b in range(256))
_PTS_PLAIN: Final = tuple(_points(b, _PLAIN_PTS) for b in range(256))
_PTS_SA: Final = tuple(_points(b, _SA_PTS) for b in range(256))
_PTS_TRUMP: Final = tuple(_points(b, _TRUMP_PTS) for b in range(256))
_PTS_TA: Final = tuple(_points(b, _TA_PTS) for b in range(256))

# ----- features -----

_PLACES: Final = ("place1", "place2", "place3")

SUIT_FEATURES: Final = (
    "bias",
    *("tJ", "t9", "tA", "t10", "tK", "tQ"),
    *("tn1", "tn2", "tn3", "tn4", "tn5", "tn6", "tn7p"),
    *("tJ9", "belote", "t9guard", "tJn"),
    *("sA", "sA10", "sAK", "s10guard", "s10bare", "sAbare", "sAlong", "srun", "spts"),
    *("void", "single", "void_tn", "single_tn", "long_side"),
    *_PLACES,
    *("lead_tn", "lead_tJ", "lead_sA"),
)
"""Suit contract (trump suit ``t``, the three side suits ``s``): ``tn`` trump count (one-hot,
7 and 8 together), ``t9guard`` the 9 with another trump, ``tJn`` the Jack times the other
trumps; side ``sA10`` A+10 in a suit,
``s10guard`` a 10 without the Ace but with another card, ``sAlong`` an Ace in a suit of 5+,
``srun`` master side cards from the Ace down, ``spts`` side card points; ``void_tn`` voids
times trumps (ruffing power); ``placeN`` the hand's place in the first trick (0 leads, 2 is
the leader's partner); ``lead_*`` interactions with the team leading."""

SA_FEATURES: Final = (
    "bias",
    *("nA", "n10", "nK", "A10", "A10K", "10guard", "10bare", "Kguard"),
    *("run", "run_len", "long", "longA", "pts", "void", "single"),
    *_PLACES,
    *("lead_nA", "lead_run_len", "lead_long"),
)
"""No trump: ``run`` master cards from each Ace down, ``run_len`` the same capped by what
the suit's length can cash, ``long``/``longA`` cards beyond the third in all suits / suits
headed by the Ace, ``pts`` SA card points."""

TA_FEATURES: Final = (
    "bias",
    *("nJ", "n9", "nA", "n10", "J9", "J9A", "Jguard", "9guard", "9bare", "belotes"),
    *("run", "long", "longJ", "pts", "void", "single"),
    *_PLACES,
    *("lead_nJ", "lead_run"),
)
"""All trump: every suit ranks J 9 A 10; ``belotes`` K+Q pairs, ``Jguard`` a Jack with
another card of its suit, ``pts`` TA card points (classic values)."""

PAIR_EXTRA: Final = ("pp", "pp2", "pp_own")
"""Two-hand form: ``pp`` the partner's one-hand estimate (points / 100), ``pp2`` its square
around 80, ``pp_own`` its product with this hand's own one-hand estimate."""


def _place_features(place: int) -> list[float]:
    return [float(place == 1), float(place == 2), float(place == 3)]


def _suit_features(hand: CardSet, trump: int, place: int) -> list[float]:
    t = hand >> (8 * trump) & 255
    n = _LEN[t]
    j, nine, ace, ten = t >> _JACK & 1, t >> _NINE & 1, t >> _ACE & 1, t >> _TEN & 1
    king, queen = t >> _KING & 1, t >> _QUEEN & 1
    sa = sa10 = sak = s10g = s10b = sab = salong = srun = spts = 0
    void = single = long_side = 0
    for s in range(4):
        if s == trump:
            continue
        b = hand >> (8 * s) & 255
        ln = _LEN[b]
        a = b >> _ACE & 1
        x = b >> _TEN & 1
        sa += a
        sa10 += a & x
        sak += a & (b >> _KING & 1)
        s10g += x and not a and ln >= 2
        s10b += x and ln == 1
        sab += a and ln == 1
        salong += a and ln >= 5
        srun += _RUN_PLAIN[b]
        spts += _PTS_PLAIN[b]
        void += ln == 0
        single += ln == 1
        long_side = max(long_side, ln)
    lead = float(place in (0, 2))
    return [
        1.0,
        *(float(j), float(nine), float(ace), float(ten), float(king), float(queen)),
        *(float(n == k) for k in range(1, 7)),
        float(n >= 7),
        float(j & nine),
        float(king & queen),
        float(nine and n >= 2),
        float(j * (n - 1)),
        *(float(sa), float(sa10), float(sak), float(s10g), float(s10b), float(sab), float(salong)),
        float(srun),
        spts / 10.0,
        *(float(void), float(single), float(void * n), float(single * n), float(long_side)),
        *_place_features(place),
        lead * n,
        lead * j,
        lead * sa,
    ]


def _sa_features(hand: CardSet, place: int) -> list[float]:
    na = n10 = nk = a10 = a10k = g10 = b10 = gk = 0
    run = run_len = long = long_a = pts = void = single = 0
    for s in range(4):
        b = hand >> (8 * s) & 255
        ln = _LEN[b]
        a = b >> _ACE & 1
        x = b >> _TEN & 1
        k = b >> _KING & 1
        na += a
        n10 += x
        nk += k
        a10 += a & x
        a10k += a & x & k
        g10 += x and not a and ln >= 2
        b10 += x and ln == 1
        gk += k and not a and not x and ln >= 3
        r = _RUN_PLAIN[b]
        run += r
        # A run of r masters in a suit of ln cards cashes the whole suit once r covers
        # what the other hands can hold (8 - ln cards among three hands).
        run_len += ln if r >= min(ln, 8 - ln) else r
        long += max(0, ln - 3)
        long_a += max(0, ln - 3) * a
        pts += _PTS_SA[b]
        void += ln == 0
        single += ln == 1
    lead = float(place in (0, 2))
    return [
        1.0,
        *(float(na), float(n10), float(nk), float(a10), float(a10k), float(g10), float(b10), float(gk)),
        *(float(run), float(run_len), float(long), float(long_a), pts / 10.0, float(void), float(single)),
        *_place_features(place),
        lead * na,
        lead * run_len,
        lead * long_a,
    ]


def _ta_features(hand: CardSet, place: int) -> list[float]:
    nj = n9 = na = n10 = j9 = j9a = gj = g9 = b9 = bel = 0
    run = long = long_j = pts = void = single = 0
    for s in range(4):
        b = hand >> (8 * s) & 255
        ln = _LEN[b]
        j = b >> _JACK & 1
        nine = b >> _NINE & 1
        a = b >> _ACE & 1
        nj += j
        n9 += nine
        na += a
        n10 += b >> _TEN & 1
        j9 += j & nine
        j9a += j & nine & a
        gj += j and ln >= 2
        g9 += nine and not j and ln >= 2
        b9 += nine and ln == 1
        bel += b >> _KING & b >> _QUEEN & 1
        run += _RUN_TRUMP[b]
        long += max(0, ln - 3)
        long_j += max(0, ln - 3) * j
        pts += _PTS_TA[b]
        void += ln == 0
        single += ln == 1
    lead = float(place in (0, 2))
    return [
        1.0,
        *(float(nj), float(n9), float(na), float(n10), float(j9), float(j9a), float(gj), float(g9), float(b9)),
        float(bel),
        *(float(run), float(long), float(long_j), pts / 10.0, float(void), float(single)),
        *_place_features(place),
        lead * nj,
        lead * run,
    ]


def feature_names(trump: Trump) -> tuple[str, ...]:
    if trump == NO_TRUMP:
        return SA_FEATURES
    if trump == ALL_TRUMP:
        return TA_FEATURES
    return SUIT_FEATURES


def features(hand: CardSet, trump: Trump, place: int) -> list[float]:
    """The model's inputs for ``hand`` with ``trump``, the hand being ``place``-th (0..3) in
    the first trick (names in ``feature_names(trump)``)."""
    if not 0 <= place <= 3:
        raise ValueError(f"place must be 0..3 (0 leads the first trick), not {place}")
    if trump == NO_TRUMP:
        return _sa_features(hand, place)
    if trump == ALL_TRUMP:
        return _ta_features(hand, place)
    if not 0 <= trump <= 3:
        raise ValueError(f"trump must be 0..5, not {trump}")
    return _suit_features(hand, trump, place)


def model_key(trump: Trump, rules: RuleSet) -> str:
    """The fitted model that applies: suit contracts depend on the undertrump rule, TA on its
    card values, SA on neither."""
    if trump == NO_TRUMP:
        return "sa"
    if trump == ALL_TRUMP:
        return "ta_ffb" if rules.ta_values == "ffb" else "ta"
    return "suit_forced" if rules.undertrump == "forced" else "suit_optional"


def first_trick_place(seat: int, dealer: int) -> int:
    """A seat's place in the first trick: seat dealer + 1 leads (RULES.md section 1)."""
    return (seat - dealer - 1) & 3


# ----- the fitted data -----


def curve_value(curve: Sequence[tuple[float, float]], score: float) -> float:
    """The increasing piecewise-linear ``curve`` at ``score``, extended past its ends along
    its end segments, within 0..162."""
    i = bisect.bisect_left(curve, score, key=lambda k: k[0])
    i = min(max(i, 1), len(curve) - 1)
    (s0, m0), (s1, m1) = curve[i - 1], curve[i]
    m = m0 + (score - s0) * (m1 - m0) / (s1 - s0) if s1 > s0 else m1
    return min(max(m, 0.0), float(MAX_POINTS))


@dataclass(frozen=True)
class Model:
    """One fitted model (one trump kind, one or two hands).

    The mean is ``curve(coef · x)``: a ridge regression of the points on a log-odds scale
    (where honours add up instead of saturating near 162) gives a strength score, and the
    increasing ``curve`` ((score, mean points) knots, fitted on the training deals) turns it
    back into expected points. The sweep chance is a logistic regression on the same inputs;
    the spread, per bucket of predicted mean (``bucket`` points wide), is the residual
    quantiles at ``levels`` and the residual sd."""

    names: tuple[str, ...]
    coef: tuple[float, ...]
    curve: tuple[tuple[float, float], ...]
    bucket: float
    levels: tuple[float, ...]
    quantiles: tuple[tuple[float, ...], ...]
    sd: tuple[float, ...]
    sweep_coef: tuple[float, ...]

    @staticmethod
    def from_json(d: dict[str, object]) -> Model:
        def floats(x: object) -> tuple[float, ...]:
            assert isinstance(x, list)
            return tuple(float(v) for v in x)

        qs = d["quantiles"]
        assert isinstance(qs, list)
        names = d["names"]
        assert isinstance(names, list)
        bucket = d["bucket"]
        assert isinstance(bucket, int | float)
        curve = d["curve"]
        assert isinstance(curve, list)
        return Model(
            names=tuple(str(n) for n in names),
            coef=floats(d["coef"]),
            curve=tuple((float(a), float(b)) for a, b in curve),
            bucket=float(bucket),
            levels=floats(d["levels"]),
            quantiles=tuple(floats(q) for q in qs),
            sd=floats(d["sd"]),
            sweep_coef=floats(d["sweep_coef"]),
        )

    def predict(self, x: Sequence[float]) -> float:
        """Expected points for inputs ``x`` (0..162)."""
        return curve_value(self.curve, sum(c * v for c, v in zip(self.coef, x, strict=True)))

    def p_sweep(self, x: Sequence[float]) -> float:
        z = sum(c * v for c, v in zip(self.sweep_coef, x, strict=True))
        return 1.0 / (1.0 + math.exp(-min(max(z, -50.0), 50.0)))

    def spread(self, mean: float) -> tuple[tuple[float, ...], float]:
        """Residual quantiles and sd at ``mean``, interpolated between buckets."""
        pos = min(max(mean / self.bucket - 0.5, 0.0), len(self.sd) - 1.0)
        i = min(int(pos), len(self.sd) - 2)
        w = pos - i
        q = tuple(a + w * (b - a) for a, b in zip(self.quantiles[i], self.quantiles[i + 1], strict=True))
        sd = self.sd[i] + w * (self.sd[i + 1] - self.sd[i])
        return q, sd

    def estimate(self, x: Sequence[float], rules: RuleSet) -> Estimate:
        """The estimate for inputs ``x``: the predicted mean (0..162 scale), the spread from
        the bucket tables, the sweep chance; the expected sweep bonus of ``rules`` is added to
        the mean."""
        mean = min(max(self.predict(x), 0.0), float(MAX_POINTS))
        res, sd = self.spread(mean)
        sweep = self.p_sweep(x)
        qs = []
        last = 0.0
        for level, r in zip(self.levels, res, strict=True):
            p = min(max(mean + r, last), float(MAX_POINTS))
            qs.append((level, p))
            last = p
        bonus = rules.last_trick_sweep - 10
        return Estimate(mean + bonus * sweep, sd, sweep, tuple(qs), mean)


@dataclass(frozen=True)
class FittedData:
    """The whole data file: one-hand and two-hand models per key, and the fit's metadata."""

    single: dict[str, Model]
    pair: dict[str, Model]
    meta: dict[str, object]


def parse_data(raw: dict[str, object]) -> FittedData:
    """Check and read the data file's content (the feature names must match this module's)."""
    single_raw = raw["single"]
    pair_raw = raw["pair"]
    meta = raw.get("meta", {})
    assert isinstance(single_raw, dict) and isinstance(pair_raw, dict) and isinstance(meta, dict)
    single = {k: Model.from_json(v) for k, v in single_raw.items()}
    pair = {k: Model.from_json(v) for k, v in pair_raw.items()}
    kinds = {"suit_forced": 0, "suit_optional": 0, "sa": NO_TRUMP, "ta": ALL_TRUMP, "ta_ffb": ALL_TRUMP}
    for key, trump in kinds.items():
        names = feature_names(trump)
        if key not in single or single[key].names != names:
            raise ValueError(f"hand evaluator data: model {key!r} missing or fitted on other features")
        if key in pair and pair[key].names != names + PAIR_EXTRA:
            raise ValueError(f"hand evaluator data: pair model {key!r} fitted on other features")
    return FittedData(single, pair, meta)


@cache
def data() -> FittedData:
    """The shipped fit, read once."""
    text = resources.files("coinche.bots.baselines.expert_v2").joinpath(DATA_FILE).read_text(encoding="utf-8")
    return parse_data(json.loads(text))


# ----- estimates -----


@dataclass(frozen=True)
class Estimate:
    """The double-dummy card points (last trick included) a hand's team takes with one trump,
    over the deals consistent with what is known."""

    mean_points: float
    """Expected points; under a sweep bonus (``rules.last_trick_sweep``) its expected share
    is included."""
    sd: float
    """Spread of the points over the unseen hands."""
    p_sweep: float
    """Chance the team wins all eight tricks (a capot)."""
    quantiles: tuple[tuple[float, float], ...]
    """(level, points) pairs, increasing: the points are below ``points`` with chance
    ``level`` (on the 0..162 scale, without sweep bonus)."""
    mean_162: float
    """Expected points on the 0..162 scale (no sweep bonus): what ``estimate_pair`` takes as
    the partner's strength."""

    def p_reach(self, points_needed: float) -> float:
        """Chance the team takes at least ``points_needed`` card points (0..162 scale)."""
        if points_needed > MAX_POINTS:
            return 0.0
        # The points reach any threshold up to 162 at least when the team sweeps.
        return max(self._p_above(points_needed), self.p_sweep)

    def _p_above(self, points_needed: float) -> float:
        qs = self.quantiles
        if points_needed <= qs[0][1]:
            # Below the lowest quantile: share the first level out linearly down to 0 points.
            lo = qs[0][1]
            below = qs[0][0] * (max(points_needed, 0.0) / lo if lo > 0 else 0.0)
            return 1.0 - below
        for (l0, p0), (l1, p1) in pairwise(qs):
            if points_needed <= p1:
                w = (points_needed - p0) / (p1 - p0) if p1 > p0 else 1.0
                return 1.0 - (l0 + w * (l1 - l0))
        top_level, top = qs[-1]
        # Above the highest quantile the rest of the mass is spread evenly up to 162.
        w = (points_needed - top) / (MAX_POINTS - top) if top < MAX_POINTS else 1.0
        return (1.0 - top_level) * (1.0 - w)


def estimate(hand: CardSet, trump: Trump, rules: RuleSet, place: int) -> Estimate:
    """The double-dummy points of ``hand``'s team with ``trump`` under ``rules``, the other
    three hands unknown (random); ``place``: the hand's place in the first trick, 0..3
    (``first_trick_place``; 0 or 2: the team leads)."""
    model = data().single[model_key(trump, rules)]
    return model.estimate(features(hand, trump, place), rules)


def estimate_pair(hand: CardSet, trump: Trump, rules: RuleSet, place: int, partner_points: float) -> Estimate:
    """As ``estimate``, knowing also the partner's strength in ``trump``.

    ``partner_points`` is what the partner's own one-hand estimate would say
    (``estimate(partner_hand, trump, rules, partner_place).mean_162``), as the caller infers
    it from the partner's calls: e.g. the lowest one-hand estimate with which the bidding
    policy makes the partner's last bid in ``trump`` (a policy that opens from an estimate
    of 95 gives 95 or a little more for an opening); about 65 for a partner who passed with
    no bid yet (random hands whose best suit estimates below 95 average 66 in a given suit;
    ``bench/bench_hand_evaluator.py`` prints this table)."""
    key = model_key(trump, rules)
    single = data().single[key]
    pair = data().pair[key]
    x = features(hand, trump, place)
    own = min(max(single.predict(x), 0.0), float(MAX_POINTS))
    pp = partner_points / 100.0
    x += [pp, (pp - 0.8) ** 2, pp * own / 100.0]
    return pair.estimate(x, rules)
