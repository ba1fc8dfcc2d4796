"""Measure the computer levels' fixed ratings from duplicate arena matches between them.

The ratings of ``coinche.server.table.ratings`` count a computer seat at a fixed rating per level
(beginner, confirmed, expert). This script plays the three pairings (beginner vs confirmed,
confirmed vs expert, beginner vs expert) in the arena (``coinche.bots.arena``: each duplicate
pair is one deal played twice with the cards swapped, so luck cancels) and fits the levels'
ratings with the same openskill model as the players' (``ratings.make_model``).

How the fit works: each duplicate pair counts as one game between two teams of two of the
same level, won by the level whose team scored more over the pair's two deals (a pair with an
equal score is a draw, half a win each way). The levels' mus are those of highest likelihood
under the win probability of the ratings' own update (``win_probability``), the confirmed
level held at the library's default mu (25): only differences mean anything, and the anchor
makes a new account (mu 25) start level with the confirmed computer. Each sigma is the
standard error of its mu. A batch fit rather than feeding the games one by one to
``model.rate``: the online update tracks the latest games (tau keeps it moving), so its
result depends on their order and on which pairing was played last. Why winners and not the
match-point margins: the players' ratings are updated from who won a game, not by how much,
so the computers are measured the same way. A caveat: a real game is many deals long, so a
stronger level wins whole games more often than single pairs; ratings measured on pairs
understate the gaps between levels (a measure by whole games is left for later).

    PYTHONPATH=src python scripts/measure_level_ratings.py --pairs 200 --expert-pairs 40 --jobs 2

Writes ``src/coinche/server/data/level_ratings.json`` (``--out``): mu and sigma per level,
the number of pairs and deals of each pairing, the totals, the seed, the rules and the date.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from coinche.bots.adaptive import KNOB_LEVELS
from coinche.bots.arena import run_arena
from coinche.engine.rules import RuleSet
from coinche.server.table.ratings import MODEL_PARAMS

OUT = Path(__file__).resolve().parent.parent / "src" / "coinche" / "server" / "data" / "level_ratings.json"


def win_probability(mu_a: float, mu_b: float, sigma_a: float, sigma_b: float) -> float:
    """The chance that a team of two ``a`` beats a team of two ``b`` as the ratings' update sees
    it (Plackett-Luce for two teams): ``1 / (1 + exp((2 mu_b - 2 mu_a) / c))``,
    ``c = sqrt(2 sigma_a^2 + 2 sigma_b^2 + 2 beta^2)``."""
    beta = float(MODEL_PARAMS["beta"])
    c = math.sqrt(2 * sigma_a**2 + 2 * sigma_b**2 + 2 * beta**2)
    return 1 / (1 + math.exp((2 * mu_b - 2 * mu_a) / c))


def fit(counts: list[tuple[str, str, int, int, int]]) -> dict[str, dict[str, float]]:
    """The levels' ratings from ``(a, b, a_wins, b_wins, draws)`` counts: the mus of highest
    likelihood under ``win_probability`` (a draw counts half a win each way), the confirmed mu
    held at the model's default; each sigma the standard error of that mu (from the curvature
    of the likelihood), the confirmed level's the smaller of the two others'. The sigmas enter
    the probabilities, so the fit is repeated with the new sigmas until they settle."""
    anchor = float(MODEL_PARAMS["mu"])
    sigma = dict.fromkeys(KNOB_LEVELS, 1.0)

    def loglik(x: tuple[float, float]) -> float:
        mu = {"beginner": x[0], "confirmed": anchor, "expert": x[1]}
        total = 0.0
        for a, b, wa, wb, d in counts:
            p = win_probability(mu[a], mu[b], sigma[a], sigma[b])
            total += (wa + d / 2) * math.log(p) + (wb + d / 2) * math.log(1 - p)
        return total

    x = (anchor, anchor)
    h = 1e-3
    for _ in range(5):
        for _ in range(100):  # Newton steps on the two free mus
            f0 = loglik(x)
            g = [(loglik(_moved(x, i, h)) - loglik(_moved(x, i, -h))) / (2 * h) for i in (0, 1)]
            hess = _hessian(loglik, x, h, f0)
            det = hess[0][0] * hess[1][1] - hess[0][1] * hess[1][0]
            step = (
                (hess[1][1] * g[0] - hess[0][1] * g[1]) / det,
                (hess[0][0] * g[1] - hess[1][0] * g[0]) / det,
            )
            x = (x[0] - step[0], x[1] - step[1])
            if max(abs(s) for s in step) < 1e-9:
                break
        hess = _hessian(loglik, x, h, loglik(x))
        det = hess[0][0] * hess[1][1] - hess[0][1] * hess[1][0]
        se_b, se_e = math.sqrt(-hess[1][1] / det), math.sqrt(-hess[0][0] / det)
        sigma = {"beginner": se_b, "confirmed": min(se_b, se_e), "expert": se_e}
    mus = {"beginner": x[0], "confirmed": anchor, "expert": x[1]}
    return {level: {"mu": mus[level], "sigma": sigma[level]} for level in KNOB_LEVELS}


def _moved(x: tuple[float, float], i: int, d: float) -> tuple[float, float]:
    return (x[0] + d, x[1]) if i == 0 else (x[0], x[1] + d)


def _hessian(
    f: Callable[[tuple[float, float]], float], x: tuple[float, float], h: float, f0: float
) -> list[list[float]]:
    hess = [[0.0, 0.0], [0.0, 0.0]]
    for i in (0, 1):
        hess[i][i] = (f(_moved(x, i, h)) - 2 * f0 + f(_moved(x, i, -h))) / h**2
    pp = f(_moved(_moved(x, 0, h), 1, h))
    pm = f(_moved(_moved(x, 0, h), 1, -h))
    mp = f(_moved(_moved(x, 0, -h), 1, h))
    mm = f(_moved(_moved(x, 0, -h), 1, -h))
    hess[0][1] = hess[1][0] = (pp - pm - mp + mm) / (4 * h * h)
    return hess


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rules", default="online", help="rules profile (default online)")
    p.add_argument("--pairs", type=int, default=200, help="duplicate pairs of beginner vs confirmed")
    p.add_argument("--expert-pairs", type=int, default=40, help="duplicate pairs of each pairing with the expert")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--out", type=Path, default=OUT)
    args = p.parse_args(argv)
    rules = RuleSet.profile(args.rules)
    pairings = [
        ("beginner", "confirmed", args.pairs),
        ("confirmed", "expert", args.expert_pairs),
        ("beginner", "expert", args.expert_pairs),
    ]
    matches: list[dict[str, Any]] = []
    for a, b, pairs in pairings:
        start = time.perf_counter()
        result = run_arena(rules, a, b, pairs, args.seed, jobs=args.jobs)
        diffs = result.pair_diffs
        matches.append(
            {
                "a": a,
                "b": b,
                "pairs": result.pairs,
                "deals": result.deals,
                "a_wins": sum(d > 0 for d in diffs),
                "b_wins": sum(d < 0 for d in diffs),
                "draws": sum(d == 0 for d in diffs),
                "mean_diff_per_deal": result.mean_diff,
                "ci95": list(result.ci95),
            }
        )
        print(
            f"{a} vs {b}: {result.pairs} pairs in {time.perf_counter() - start:.0f} s, "
            f"{matches[-1]['a_wins']}-{matches[-1]['b_wins']}-{matches[-1]['draws']}, "
            f"{result.mean_diff:+.1f} per deal",
            file=sys.stderr,
        )
    levels = fit([(m["a"], m["b"], m["a_wins"], m["b_wins"], m["draws"]) for m in matches])
    data = {
        "about": "Fixed ratings of the computer levels (openskill Plackett-Luce, scripts/measure_level_ratings.py)",
        "date": datetime.date.today().isoformat(),
        "rules": args.rules,
        "seed": args.seed,
        "model": {k: v for k, v in MODEL_PARAMS.items()},
        "levels": levels,
        "pairs": sum(m["pairs"] for m in matches),
        "deals": sum(m["deals"] for m in matches),
        "matches": matches,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    for level, r in levels.items():
        print(f"{level:>10}: mu {r['mu']:.2f} sigma {r['sigma']:.2f}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
