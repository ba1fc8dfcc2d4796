"""Fit the hand evaluator (``coinche.bots.hand_evaluator``) on random deals solved double dummy.

Each deal is drawn from its own seeded generator (deal ``i`` is the same whatever ``--deals``)
and solved from the first trick, the lead by seat 0 and by seat 1, with:

* every suit as trump, undertrump forced (classic, house, online);
* one suit as trump (drawn per deal), undertrump optional (federation);
* SA; TA with classic card values; TA with the ffb values (classic's option).

Every seat of a solved deal is one sample: its hand, its place in the first trick, its team's
points (and whether the team swept). The model per kind is a ridge regression of the
points' log-odds on the module's hand features, mapped back to points by an increasing
curve fitted on the same deals, a logistic regression on the same features for the sweep, and, per
bucket of predicted mean, the quantiles of the residual. The two-hand models add the
partner's one-hand estimate. The last ``--holdout`` share of the deals is kept out of the
fit and gives the reported R² and MAE.

    python scripts/fit_hand_evaluator.py --deals 9000 --seed 1 --cache /tmp/solved.jsonl

``--cache`` keeps the solved deals (JSON lines) so that a rerun, or a refit after a change
of features, only solves what is missing. Standard library only.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import operator
import random
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from coinche.bots.hand_evaluator import MAX_POINTS, PAIR_EXTRA, Model, feature_names, features
from coinche.bots.solver import Position, can_sweep, solve
from coinche.engine.cards import ALL_TRUMP, NO_TRUMP
from coinche.engine.deal import random_hands
from coinche.engine.rules import RuleSet

DEFAULT_OUT = Path(__file__).resolve().parent.parent / "src" / "coinche" / "bots" / "data" / "hand_evaluator.json"

KINDS: dict[str, tuple[tuple[int, ...], bool, bool]] = {
    # key: (trumps solved, undertrump forced, ffb TA values)
    "suit_forced": ((0, 1, 2, 3), True, False),
    "suit_optional": ((), False, False),  # one suit per deal, drawn below
    "sa": ((NO_TRUMP,), True, False),
    "ta": ((ALL_TRUMP,), True, False),
    "ta_ffb": ((ALL_TRUMP,), True, True),
}
LEVELS = (0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.98)
"""Residual quantile levels stored per bucket (what ``p_reach`` interpolates)."""
BUCKET = 10.0
"""Width, in predicted points, of the buckets of residual quantiles."""
MIN_BUCKET = 300
"""Fewest samples a bucket's statistics rest on (thin buckets borrow from their neighbours)."""

RULES_NO_BONUS = RuleSet.profile("classic")
"""Rules without sweep bonus: estimates on the 0..162 scale."""

Solved = list[tuple[int, int, int, int]]
"""One kind's solves of a deal: (trump, leader, points of team 0, sweep: 1 team 0, -1 team 1, 0)."""


@dataclass(frozen=True)
class Record:
    index: int
    hands: tuple[int, int, int, int]
    solved: dict[str, Solved]

    def to_json(self) -> str:
        return json.dumps({"i": self.index, "h": list(self.hands), "s": self.solved}, separators=(",", ":"))

    @staticmethod
    def from_json(line: str) -> Record:
        d = json.loads(line)
        h = d["h"]
        solved = {k: [(int(a), int(b), int(c), int(e)) for a, b, c, e in v] for k, v in d["s"].items()}
        return Record(int(d["i"]), (h[0], h[1], h[2], h[3]), solved)


def deal_rng(seed: int, index: int) -> random.Random:
    return random.Random(seed * 1_000_003 + index)


def solve_deal(seed: int, index: int) -> Record:
    """Deal ``index`` of ``seed``, solved for every kind and both leading teams."""
    rng = deal_rng(seed, index)
    h = random_hands(rng)
    hands = (h[0], h[1], h[2], h[3])
    optional_suit = rng.randrange(4)
    out: dict[str, Solved] = {}
    for key, (trumps, forced, ffb) in KINDS.items():
        rows: Solved = []
        for t in trumps or (optional_suit,):
            for leader in (0, 1):
                pos = Position(hands, t, leader, (), forced, ffb)
                p0 = solve(pos, 0)
                sweep = 0
                if p0 == MAX_POINTS and can_sweep(pos, 0):
                    sweep = 1
                elif p0 == 0 and can_sweep(pos, 1):
                    sweep = -1
                rows.append((t, leader, p0, sweep))
        out[key] = rows
    return Record(index, hands, out)


def solve_all(n: int, seed: int, cache: Path | None, budget_s: float | None, quiet: bool) -> list[Record]:
    """Deals 0..n-1, read from ``cache`` where already solved, the rest solved (and appended)."""
    done: dict[int, Record] = {}
    if cache is not None and cache.exists():
        with cache.open(encoding="utf-8") as f:
            for line in f:
                try:
                    r = Record.from_json(line)
                except (ValueError, KeyError):
                    continue  # the last line of an interrupted run
                done[r.index] = r
        if done and not quiet:
            print(f"cache: {len(done)} solved deals in {cache}", file=sys.stderr)
    todo = [i for i in range(n) if i not in done]
    start = time.perf_counter()
    sink = cache.open("a", encoding="utf-8") if cache is not None and todo else None
    if sink is not None and cache is not None and cache.stat().st_size and not cache.read_bytes().endswith(b"\n"):
        sink.write("\n")  # end an interrupted run's partial line
    try:
        for k, i in enumerate(todo, 1):
            r = solve_deal(seed, i)
            done[i] = r
            if sink is not None:
                sink.write(r.to_json() + "\n")
            elapsed = time.perf_counter() - start
            if not quiet and (k % 100 == 0 or k == len(todo)):
                eta = elapsed / k * (len(todo) - k)
                print(f"solved {k}/{len(todo)} deals  {elapsed:6.0f} s  eta {eta:6.0f} s", file=sys.stderr, flush=True)
            if budget_s is not None and elapsed > budget_s:
                if not quiet:
                    print(f"time budget reached after {k} new deals", file=sys.stderr)
                break
    finally:
        if sink is not None:
            sink.close()
    # Only a gapless prefix counts, so that the held-out split does not depend on timing.
    out = []
    for i in range(n):
        if i not in done:
            break
        out.append(done[i])
    return out


# ----- samples -----


@dataclass(frozen=True)
class Sample:
    hand: int
    trump: int
    place: int
    points: int
    swept: bool
    partner: int
    partner_place: int


def samples_of(records: Iterable[Record], key: str) -> list[Sample]:
    """Every seat of every solved deal of kind ``key``: one sample each."""
    out = []
    for r in records:
        for t, leader, p0, sweep in r.solved[key]:
            for seat in range(4):
                team = seat & 1
                pts = p0 if team == 0 else MAX_POINTS - p0
                swept = sweep == (1 if team == 0 else -1)
                place = (seat - leader) & 3
                out.append(Sample(r.hands[seat], t, place, pts, swept, r.hands[seat ^ 2], place ^ 2))
    return out


# ----- ridge regression, plain Python -----


def ridge(xs: Sequence[Sequence[float]], ys: Sequence[float], lam: float) -> list[float]:
    """Least squares with an L2 penalty ``lam`` on every coefficient but the first (the bias):
    normal equations from column products, solved by Gaussian elimination."""
    p = len(xs[0])
    cols = [list(c) for c in zip(*xs, strict=True)]
    a = [[0.0] * p for _ in range(p)]
    for i in range(p):
        for j in range(i, p):
            a[i][j] = a[j][i] = sum(map(operator.mul, cols[i], cols[j]))
        if i:
            a[i][i] += lam
    b = [sum(map(operator.mul, cols[i], ys)) for i in range(p)]
    return solve_linear(a, b)


def solve_linear(a: list[list[float]], b: list[float]) -> list[float]:
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(m[r][c]))
        if abs(m[piv][c]) < 1e-12:
            continue  # a feature that never fires: its coefficient stays 0
        m[c], m[piv] = m[piv], m[c]
        for r in range(n):
            if r != c and m[r][c]:
                f = m[r][c] / m[c][c]
                row_c = m[c]
                row_r = m[r]
                for k in range(c, n + 1):
                    row_r[k] -= f * row_c[k]
    return [m[i][n] / m[i][i] if abs(m[i][i]) >= 1e-12 else 0.0 for i in range(n)]


def quantile(sorted_xs: Sequence[float], q: float) -> float:
    pos = q * (len(sorted_xs) - 1)
    i = int(pos)
    j = min(i + 1, len(sorted_xs) - 1)
    return sorted_xs[i] + (pos - i) * (sorted_xs[j] - sorted_xs[i])


def logistic(xs: Sequence[Sequence[float]], ys: Sequence[bool], lam: float, iters: int = 25) -> list[float]:
    """Logistic regression by Newton's method with step halving, with an L2 penalty ``lam``
    on every coefficient but the bias (which also keeps separable features finite)."""
    p = len(xs[0])
    cols = [list(c) for c in zip(*xs, strict=True)]
    rate = min(max(sum(ys) / len(ys), 1e-4), 1 - 1e-4)
    yf = [float(y) for y in ys]

    def scores(w: Sequence[float]) -> list[float]:
        return [min(max(float(sum(map(operator.mul, w, x))), -30.0), 30.0) for x in xs]

    def objective(w: Sequence[float], z: Sequence[float]) -> float:
        ll = math.fsum(y * v - math.log1p(math.exp(v)) for y, v in zip(yf, z, strict=True))
        return ll - 0.5 * lam * math.fsum(v * v for v in w[1:])

    w = [math.log(rate / (1 - rate))] + [0.0] * (p - 1)
    z = scores(w)
    best = objective(w, z)
    for _ in range(iters):
        probs = [1.0 / (1.0 + math.exp(-v)) for v in z]
        weights = [q * (1.0 - q) for q in probs]
        resid = [y - q for y, q in zip(yf, probs, strict=True)]
        g = [sum(map(operator.mul, cols[i], resid)) - (lam * w[i] if i else 0.0) for i in range(p)]
        h = [[0.0] * p for _ in range(p)]
        for i in range(p):
            wc = list(map(operator.mul, cols[i], weights))
            for j in range(i, p):
                h[i][j] = h[j][i] = sum(map(operator.mul, wc, cols[j]))
            h[i][i] += lam if i else 1e-6
        step = solve_linear(h, g)
        t = 1.0
        for _ in range(20):
            trial = [a + t * b for a, b in zip(w, step, strict=True)]
            z_trial = scores(trial)
            value = objective(trial, z_trial)
            if value >= best - 1e-9:
                break
            t /= 2
        else:
            break
        gain = value - best
        w, z, best = trial, z_trial, value
        if gain < 1e-6 * max(1.0, abs(best)):
            break
    return w


def spread_tables(preds: Sequence[float], ys: Sequence[float]) -> tuple[list[list[float]], list[float]]:
    """Per bucket of predicted mean: residual quantiles and residual sd. A thin bucket pools
    its nearest neighbours until it has ``MIN_BUCKET`` samples."""
    nb = int(MAX_POINTS // BUCKET) + 1
    by: list[list[float]] = [[] for _ in range(nb)]
    for p, y in zip(preds, ys, strict=True):
        by[min(int(p // BUCKET), nb - 1)].append(y - p)
    qs, sds = [], []
    for b in range(nb):
        pool = list(by[b])
        width = 1
        while len(pool) < MIN_BUCKET and width < nb:
            for nb_i in (b - width, b + width):
                if 0 <= nb_i < nb:
                    pool += by[nb_i]
            width += 1
        res = sorted(pool)
        qs.append([round(quantile(res, q), 2) for q in LEVELS])
        mean = math.fsum(res) / len(res)
        sds.append(round(math.sqrt(math.fsum((r - mean) ** 2 for r in res) / len(res)), 2))
    return qs, sds


def sweep_metrics(probs: Sequence[float], ys: Sequence[bool]) -> dict[str, float]:
    """Held-out sweep figures: Brier score, predicted and observed rates, and the observed
    rate among hands given at least 50 %."""
    brier = math.fsum((q - y) ** 2 for q, y in zip(probs, ys, strict=True)) / len(ys)
    hi = [y for q, y in zip(probs, ys, strict=True) if q >= 0.5]
    return {
        "brier": round(brier, 4),
        "predicted": round(math.fsum(probs) / len(probs), 4),
        "observed": round(sum(ys) / len(ys), 4),
        "observed_when_p50": round(sum(hi) / len(hi), 4) if hi else -1.0,
        "n_p50": len(hi),
    }


def metrics(preds: Sequence[float], ys: Sequence[float]) -> dict[str, float]:
    n = len(ys)
    mean_y = math.fsum(ys) / n
    ss_tot = math.fsum((y - mean_y) ** 2 for y in ys)
    ss_res = math.fsum((y - p) ** 2 for p, y in zip(preds, ys, strict=True))
    mae = math.fsum(abs(y - p) for p, y in zip(preds, ys, strict=True)) / n
    return {"r2": round(1 - ss_res / ss_tot, 4), "mae": round(mae, 2), "rmse": round(math.sqrt(ss_res / n), 2), "n": n}


def log_odds(y: float) -> float:
    """The regression's target scale: points as log-odds, so that strong hands do not
    saturate against 162 (the 8 keeps 0 and 162 finite)."""
    return math.log((y + 8.0) / (MAX_POINTS + 8.0 - y))


def monotone_curve(scores: Sequence[float], ys: Sequence[float]) -> list[list[float]]:
    """Knots (score, mean points) of E[points | score]: equal-count bins of the score, made
    increasing by pooling adjacent violators."""
    order = sorted(range(len(scores)), key=scores.__getitem__)
    k = min(max(len(order) // 1500, 4), 80)
    blocks: list[list[float]] = []  # [sum of scores, sum of points, count]
    for b in range(k):
        idx = order[b * len(order) // k : (b + 1) * len(order) // k]
        blocks.append([math.fsum(scores[i] for i in idx), math.fsum(ys[i] for i in idx), float(len(idx))])
        while len(blocks) > 1 and blocks[-2][1] / blocks[-2][2] >= blocks[-1][1] / blocks[-1][2]:
            last = blocks.pop()
            blocks[-1] = [u + v for u, v in zip(blocks[-1], last, strict=True)]
    return [[round(s / n, 5), round(y / n, 3)] for s, y, n in blocks]


def fit_model(
    names: Sequence[str],
    x_tr: Sequence[Sequence[float]],
    y_tr: Sequence[float],
    sw_tr: Sequence[bool],
    x_te: Sequence[Sequence[float]],
    y_te: Sequence[float],
    sw_te: Sequence[bool],
    lam: float,
) -> tuple[dict[str, object], list[float], list[float]]:
    """One model's JSON, with its held-out figures, and its predictions on both sets."""
    coef = ridge(x_tr, [log_odds(y) for y in y_tr], lam)
    curve = monotone_curve([float(sum(map(operator.mul, coef, x))) for x in x_tr], y_tr)
    sweep_coef = logistic(x_tr, sw_tr, lam)
    model: dict[str, object] = {
        "names": list(names),
        "coef": [round(c, 6) for c in coef],
        "curve": curve,
        "sweep_coef": [round(c, 5) for c in sweep_coef],
        "bucket": BUCKET,
        "levels": list(LEVELS),
    }
    m = Model.from_json(model | {"quantiles": [[0.0] * len(LEVELS)] * 2, "sd": [0.0, 0.0]})
    p_tr = [m.predict(x) for x in x_tr]
    p_te = [m.predict(x) for x in x_te]
    model["quantiles"], model["sd"] = spread_tables(p_tr, y_tr)
    model["heldout"] = metrics(p_te, y_te) | {
        "train": metrics(p_tr, y_tr),
        "reach": reach_calibration(model, x_te, y_te),
        "sweep": sweep_metrics([m.p_sweep(x) for x in x_te], sw_te),
    }
    return model, p_tr, p_te


def fit_kind(
    key: str, train: Sequence[Record], test: Sequence[Record], lam: float
) -> tuple[dict[str, object], dict[str, object]]:
    """The one-hand and two-hand models of one kind, with their held-out figures."""
    names = feature_names(KINDS[key][0][0] if KINDS[key][0] else 0)
    tr, te = samples_of(train, key), samples_of(test, key)
    x_tr = [features(s.hand, s.trump, s.place) for s in tr]
    x_te = [features(s.hand, s.trump, s.place) for s in te]
    y_tr = [float(s.points) for s in tr]
    y_te = [float(s.points) for s in te]
    sw_tr = [s.swept for s in tr]
    sw_te = [s.swept for s in te]
    single, p_tr, p_te = fit_model(names, x_tr, y_tr, sw_tr, x_te, y_te, sw_te, lam)
    m = Model.from_json(single)

    def pair_x(s: Sample, x: list[float], own: float) -> list[float]:
        pp = m.predict(features(s.partner, s.trump, s.partner_place)) / 100.0
        return [*x, pp, (pp - 0.8) ** 2, pp * own / 100.0]

    xp_tr = [pair_x(s, x, p) for s, x, p in zip(tr, x_tr, p_tr, strict=True)]
    xp_te = [pair_x(s, x, p) for s, x, p in zip(te, x_te, p_te, strict=True)]
    pair, _, _ = fit_model([*names, *PAIR_EXTRA], xp_tr, y_tr, sw_tr, xp_te, y_te, sw_te, lam)
    return single, pair


def reach_calibration(model: dict[str, object], xs: Sequence[Sequence[float]], ys: Sequence[float]) -> dict[str, float]:
    """Held-out check of the spread: the mean predicted chance of reaching 82 and 102 points
    (the module's ``p_reach``) against the observed share; both should agree."""
    m = Model.from_json(model)
    ests = [m.estimate(x, RULES_NO_BONUS) for x in xs]
    out: dict[str, float] = {}
    for need in (82, 102):
        out[f"p{need}_predicted"] = round(math.fsum(e.p_reach(need) for e in ests) / len(ests), 4)
        out[f"p{need}_observed"] = round(sum(y >= need for y in ys) / len(ys), 4)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--deals", type=int, default=9000, help="random deals to solve (default 9000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="the JSON data file to write")
    ap.add_argument("--cache", type=Path, default=None, help="JSON-lines file of solved deals to reuse and extend")
    ap.add_argument("--budget", type=float, default=None, help="stop solving after this many seconds")
    ap.add_argument("--holdout", type=float, default=0.1, help="share of the deals kept out of the fit")
    ap.add_argument("--ridge", type=float, default=10.0, help="L2 penalty of the regressions")
    ap.add_argument("--only", default=None, help="comma-separated kinds to refit; the others are kept from --out")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    if args.deals < 10:
        ap.error("--deals must be at least 10")
    t0 = time.perf_counter()
    records = solve_all(args.deals, args.seed, args.cache, args.budget, args.quiet)
    solve_s = time.perf_counter() - t0
    n_test = max(1, round(len(records) * args.holdout))
    train, test = records[:-n_test], records[-n_test:]
    single: dict[str, object] = {}
    pair: dict[str, object] = {}
    summary: dict[str, object] = {}
    kinds = list(KINDS)
    if args.only:
        kinds = args.only.split(",")
        if not set(kinds) <= set(KINDS):
            ap.error(f"--only takes kinds among {', '.join(KINDS)}")
        old = json.loads(args.out.read_text())
        single, pair, summary = old["single"], old["pair"], old["meta"]["heldout"]
    for key in kinds:
        s, p = fit_kind(key, train, test, args.ridge)
        single[key], pair[key] = s, p
        summary[key] = {"single": s["heldout"], "pair": p["heldout"]}
        if not args.quiet:
            h, hp = s["heldout"], p["heldout"]
            assert isinstance(h, dict) and isinstance(hp, dict)
            print(
                f"{key:<14} one hand: R² {h['r2']:.3f}  MAE {h['mae']:5.2f}   "
                f"two hands: R² {hp['r2']:.3f}  MAE {hp['mae']:5.2f}   (held-out samples {h['n']})",
                file=sys.stderr,
            )
    meta = {
        "deals": len(records),
        "train_deals": len(train),
        "heldout_deals": len(test),
        "seed": args.seed,
        "date": datetime.date.today().isoformat(),
        "ridge": args.ridge,
        "solve_seconds": round(solve_s),
        "samples": "every seat of every deal, lead by seat 0 and by seat 1; suits: 4 trumps per deal "
        "(undertrump forced), 1 per deal (optional); SA; TA classic and ffb values",
        "heldout": summary,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"meta": meta, "single": single, "pair": pair}, separators=(",", ":")) + "\n")
    if not args.quiet:
        print(f"wrote {args.out} ({args.out.stat().st_size} bytes), {len(records)} deals", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
