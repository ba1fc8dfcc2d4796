"""Calibrate the expert's auction from self-play (``coinche.bots.expert.calibration``).

Four experts play whole deals under each profile (random hands, the dealer turning). For
every contract it records, at the taker's final bid, the estimate the expert's auction made
of the takers' card points (``auction.team_estimate``), the points the takers actually took,
and the double-dummy points of the real deal for the same trump (to tell the solver's
optimism, "double dummy minus real play", from the evaluator's error, "estimate minus
double dummy"); at the end of the auction, each defender's estimate of its own team's
points; and for every call, the caller's one-hand estimate in every trump, under the
context its partner will read from the call (``auction.partner_context``). The log keeps
the deals themselves (hands, calls, result): the estimates are made when fitting, with the
partner table of the same fit, so that the shifts measure the estimates the auction will
make.

Real play is slow (the expert's cards: about 1 s a deal on a core), and a line needs many
contracts: ``--auction-only N`` also plays N deals per profile whose auction alone is
played (about 50 ms each), recording the double-dummy points of their contract. The lines
are fitted on every contract's double-dummy points less real play's shortfall (``dd -
taken``, its mean per trump kind over the deals whose cards were played), with real play's
spread around double dummy added to theirs; the made rates, the sweeps and the report's
levels come from the played deals alone.

It then writes ``src/coinche/bots/data/auction_calibration.json`` (what each table means:
``coinche.bots.expert.calibration``): per profile, and pooled, the lines that predict the
points taken from the estimate, for the takers and the defence, the sweep correction, the
spread, the partner table, and a report of the double-dummy optimism and the estimate's
error per trump kind and bid level.

    python scripts/calibrate_auction.py --deals 800 --jobs 2 --minutes 20 --log /tmp/calib.jsonl
    python scripts/calibrate_auction.py --deals 0 --auction-only 5000 --log /tmp/calib.jsonl
    python scripts/calibrate_auction.py --fit-only --log /tmp/calib.jsonl

``--log`` keeps the played deals (JSON lines, appended as they finish), so that a run cut by
``--minutes`` still counts and a refit needs no replay. The calibration depends on the
expert's own calls, which depend on the calibration: run it again after a change of the
auction (two rounds settle it).
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import random
import sys
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from coinche.bots.engine_protocol import EngineBot
from coinche.bots.expert import ExpertBot
from coinche.bots.expert.auction import partner_context, situation, team_estimate
from coinche.bots.expert.calibration import POOLED, Calibration, level_of, trump_kind
from coinche.bots.hand_evaluator import estimate, first_trick_place
from coinche.bots.knowledge import parse_auction
from coinche.bots.loading import load_bot
from coinche.bots.solver import Position, solve
from coinche.engine.actions import is_bid
from coinche.engine.auction import contract_of
from coinche.engine.deal import Deal, Phase, random_hands
from coinche.engine.rules import RuleSet

DEFAULT_OUT = Path(__file__).resolve().parent.parent / "src" / "coinche" / "bots" / "data" / "auction_calibration.json"
PROFILES = ("classic", "federation", "house", "online")
OPPONENTS: dict[str, dict[str, Any]] = {"expert": {}, "expert-v1": {"samples": 40}, "confirmed": {}, "expert-v2": {}}
"""The project's bots the expert may meet (the lines then hold against other styles of
bidding than its own), with their settings: ``expert-v1``'s card play on fewer deals, for
time (its calls are its own)."""
DEFAULT_OPPONENTS = ("expert", "expert-v1", "confirmed")
"""The mix of the played deals unless ``--opponents`` names others (``expert-v2``: to measure
real play's shortfall against the defence the arena meets)."""
MIN_LINE = 20
"""Fewest contracts a fitted line rests on (fewer: the pooled profiles' line is used)."""
MIN_SHORTFALL = 100
"""Fewest played contracts a profile's real-play shortfall rests on (fewer: the pooled one)."""


def play_deal(profile: str, seed: int, opponent: str, cards: bool = True) -> dict[str, Any]:
    """One deal of the expert (the team ``expert_team(seed)``) against ``opponent``: its
    hands, calls, contract and result (the estimates are made at fit time, with the partner
    table of the same fit). ``cards``: the cards are played; else the auction alone, and
    the contract has only its double-dummy points (``"cards": false`` in the record)."""
    rules = RuleSet.profile(profile)
    rng = random.Random(seed)
    dealer = seed & 3
    hands = random_hands(rng)
    deal = Deal(rules, dealer, hands)
    team = expert_team(seed)
    bots = [
        ExpertBot(seed=seed * 4 + s) if s & 1 == team else load_bot(opponent, seed=seed * 4 + s, **OPPONENTS[opponent])
        for s in range(4)
    ]
    actions = []
    try:
        while not deal.is_over and (cards or deal.phase is Phase.AUCTION):
            seat = deal.to_move
            a = bots[seat].choose(deal.view(seat)).action
            deal.apply(a)
            actions.append(a)
    finally:
        for bot in bots:
            if isinstance(bot, EngineBot):
                bot.close()  # a bot of another commit is a process
    rec: dict[str, Any] = {
        "profile": profile,
        "seed": seed,
        "dealer": dealer,
        "hands": list(hands),
        "calls": list(deal.auction.calls),
        "actions": actions,
        "opponent": opponent,
        "expert_team": team,
        "cards": cards,
    }
    contract = deal.contract
    if contract is None:
        return rec
    team = contract.taker & 1
    pos = Position(
        (hands[0], hands[1], hands[2], hands[3]),
        contract.trump,
        (dealer + 1) & 3,
        (),
        rules.undertrump == "forced",
        rules.ta_values == "ffb",
    )
    rec["contract"] = {
        "trump": contract.trump,
        "value": contract.value,
        "taker": contract.taker,
        "coinched": contract.multiplier > 1,
        "dd": min(solve(pos, team), 162),
    }
    if cards:
        result = deal.result()
        assert result is not None
        swept = result.sweep in ("taker", "taker_alone")
        taken = 162 if swept else 0 if result.sweep == "defense" else min(result.card_points[team], 162)
        rec["contract"].update(made=bool(result.made), taken=taken, swept=swept)
    return rec


def is_expert(rec: dict[str, Any], seat: int) -> bool:
    """Whether the expert held ``seat`` (logs from before the opponents mix: every seat)."""
    return bool(rec.get("opponent", "expert") == "expert" or seat & 1 == rec.get("expert_team", seat & 1))


def partner_rows(rec: dict[str, Any]) -> list[tuple[str, str, float]]:
    """(trump kind, context, the caller's one-hand estimate) for each call of the expert in
    the deal and each trump, as its partner reads the call; once per deal, seat and trump."""
    rules = RuleSet.profile(rec["profile"])
    dealer, hands, calls = rec["dealer"], rec["hands"], rec["calls"]
    seen = set()
    rows = []
    for i in range(len(calls)):
        seat = (dealer + 1 + i) & 3
        if not is_expert(rec, seat):
            continue
        info = parse_auction(calls[: i + 1], dealer, rules)
        for t in rules.trumps:
            ctx = partner_context(info, (seat + 2) & 3, t)
            if ctx is None or (seat, t, ctx) in seen:
                continue
            seen.add((seat, t, ctx))
            rows.append((trump_kind(t), ctx, estimate(hands[seat], t, rules, first_trick_place(seat, dealer)).mean_162))
    return rows


def contract_row(rec: dict[str, Any], book: Calibration) -> dict[str, Any]:
    """The contract of a deal with the estimates the auction made of it under ``book``: the
    taker's at its final bid, each defender's at the end of the auction."""
    rules = RuleSet.profile(rec["profile"])
    dealer, hands, calls = rec["dealer"], rec["hands"], rec["calls"]
    c = rec["contract"]
    taker, trump = c["taker"], c["trump"]
    team = taker & 1
    last = max(i for i, call in enumerate(calls) if is_bid(call) and (dealer + 1 + i) & 3 == taker)
    info = parse_auction(calls[:last], dealer, rules)
    est = team_estimate(hands[taker], taker, dealer, info, rules, trump, book)
    # The situation the auction saw at that bid (``auction.situation``: its own contract is
    # never coinched yet).
    seen, _ = situation(info, contract_of(calls[last], taker, False, False, rules))
    full = parse_auction(calls, dealer, rules)
    defence = [
        team_estimate(hands[d], d, dealer, full, rules, trump, book) for d in (1 - team, 3 - team) if is_expert(rec, d)
    ]
    played = "taken" in c
    return {
        "played": played,
        "expert_taker": is_expert(rec, taker),
        "kind": trump_kind(trump),
        "level": level_of(c["value"]),
        "value": c["value"],
        "contested": seen == "contested",
        "coinched": c["coinched"],
        "made": c.get("made"),
        "estimate": est.mean_162,
        "sd": est.sd,
        "p_sweep": est.p_sweep,
        "taken": c.get("taken"),
        "swept": c.get("swept"),
        "dd": c["dd"],
        "defence_estimates": [e.mean_162 for e in defence],
        "defence_sds": [e.sd for e in defence],
    }


def expert_team(seed: int) -> int:
    """The team the expert holds in a deal (the other team is the opponent; both are the
    expert in self-play)."""
    return (seed >> 2) & 1


def _play(args: tuple[str, int, str, bool]) -> dict[str, Any]:
    return play_deal(*args)


AUCTION_ONLY_SEEDS = 500_000
"""The seeds of the deals whose auction alone is played start here (after the played ones)."""


def run(
    profiles: Sequence[str],
    opponents: Sequence[str],
    deals: int,
    seed: int,
    jobs: int,
    minutes: float,
    log: Path,
    auction_only: int = 0,
    auction_opponents: Sequence[str] = (),
) -> None:
    done = set()
    if log.exists():
        for line in log.read_text().splitlines():
            r = json.loads(line)
            done.add((r["profile"], r["seed"]))
    first = seed * 1_000_000
    tasks = [
        (p, first + AUCTION_ONLY_SEEDS + i, auction_opponents[i % len(auction_opponents)], False)
        for i in range(auction_only)
        for p in profiles
        if (p, first + AUCTION_ONLY_SEEDS + i) not in done
    ]
    tasks += [
        (p, first + i, opponents[i % len(opponents)], True)
        for i in range(deals)
        for p in profiles
        if (p, first + i) not in done
    ]
    deadline = time.monotonic() + 60 * minutes
    with log.open("a") as out, ProcessPoolExecutor(jobs) as pool:
        pending = {pool.submit(_play, t) for t in tasks[: jobs * 4]}
        rest = iter(tasks[jobs * 4 :])
        n = 0
        while pending:
            fut = next(as_completed(pending))
            pending.remove(fut)
            out.write(json.dumps(fut.result()) + "\n")
            out.flush()
            n += 1
            if n % 500 == 0:
                print(f"{n} deals played", file=sys.stderr)
            if time.monotonic() < deadline:
                nxt = next(rest, None)
                if nxt is not None:
                    pending.add(pool.submit(_play, nxt))


def _mean(xs: Iterable[float]) -> tuple[float, int]:
    xs = list(xs)
    return (sum(xs) / len(xs) if xs else 0.0), len(xs)


def fit(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The calibration tables from played deals (see the module's text)."""
    by_profile: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        by_profile[r["profile"]].append(r)
        by_profile[POOLED].append(r)
    partner = {name: partner_table(recs) for name, recs in by_profile.items()}
    book = Calibration({name: {"partner": table} for name, table in partner.items()}, {})
    rows = {id(r): contract_row(r, book) for r in records if "contract" in r}
    pooled = shortfalls(list(rows.values()), least=MIN_LINE)
    # The takers' lines rest on the expert's own contracts; the defence lines on its
    # defenders (``contract_row`` keeps only those), whoever took.
    profiles: dict[str, Any] = {}
    report: dict[str, Any] = {}
    for name, recs in sorted(by_profile.items()):
        cs = [rows[id(r)] for r in recs if id(r) in rows]
        profiles[name], report[name] = line_tables(cs, shortfalls(cs, pooled))
        profiles[name]["partner"] = partner[name]
        report[name]["deals"] = len(recs)
    return {"profiles": profiles, "meta": {"report": report}}


def partner_table(recs: Sequence[dict[str, Any]]) -> dict[str, dict[str, float]]:
    rows: dict[tuple[str, str], list[float]] = defaultdict(list)
    for r in recs:
        for kind, ctx, v in partner_rows(r):
            rows[(kind, ctx)].append(v)
    table: dict[str, dict[str, float]] = defaultdict(dict)
    for (kind, ctx), vs in sorted(rows.items()):
        if len(vs) >= 5:
            table[kind][ctx] = round(sum(vs) / len(vs), 1)
    return dict(table)


@dataclass(frozen=True)
class Shortfall:
    """How many card points fewer than double dummy the takers took in real play, over
    the deals whose cards were played: the mean, its variance, how many contracts."""

    mean: float
    variance: float
    contracts: int


NO_SHORTFALL = Shortfall(0.0, 0.0, 0)


def shortfalls(
    cs: Sequence[dict[str, Any]], fallback: dict[tuple[str, str], Shortfall] | None = None, least: int = MIN_SHORTFALL
) -> dict[tuple[str, str], Shortfall]:
    """The shortfall of real play per side the expert held (``take``: its own contracts,
    ``defend``: the contracts it defended) and trump kind, from contract rows; a kind with
    fewer than ``least`` played contracts takes ``fallback``'s figure (a profile: the
    pooled profiles'), then the suits' figure, then none."""
    out: dict[tuple[str, str], Shortfall] = {}
    played = [c for c in cs if c["played"]]
    for side, keep in (("take", lambda c: c["expert_taker"]), ("defend", lambda c: bool(c["defence_estimates"]))):
        for kind in ("suit", "sa", "ta"):
            gaps = [c["dd"] - c["taken"] for c in played if c["kind"] == kind and keep(c)]
            if len(gaps) >= least:
                mean = sum(gaps) / len(gaps)
                var = sum((g - mean) ** 2 for g in gaps) / (len(gaps) - 1)
                out[(side, kind)] = Shortfall(mean, var, len(gaps))
            elif fallback is not None and (side, kind) in fallback:
                out[(side, kind)] = fallback[(side, kind)]
            elif kind != "suit" and (side, "suit") in out:
                out[(side, kind)] = out[(side, "suit")]
    return out


def line_tables(
    cs: Sequence[dict[str, Any]], short: dict[tuple[str, str], Shortfall]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Take and defend lines and the sweep correction from contract rows; and a report.

    The lines rest on every contract's double-dummy points less the real play's shortfall
    (``short``): a deal whose auction alone was played counts as much as one whose cards
    were; the spread of real play around double dummy is added to the lines' spread. The
    made rates, sweeps and levels are those of the deals whose cards were played."""
    take: dict[str, Any] = {}
    defend: dict[str, Any] = {}
    every = cs
    cs = [c for c in every if c["expert_taker"]]
    played = [c for c in cs if c["played"]]
    rep: dict[str, Any] = {"contracts": len(cs), "played": len(played)}
    for kind in sorted({c["kind"] for c in cs}):
        kc = [c for c in cs if c["kind"] == kind]
        pk = [c for c in kc if c["played"]]
        gap = short.get(("take", kind), NO_SHORTFALL)
        groups = (
            ("free", [c for c in kc if not c["contested"]], None),
            ("contested", [c for c in kc if c["contested"]], None),
            ("coinched", [c for c in kc if c["coinched"]], "value"),
        )
        take[kind] = {}
        for label, fc, other in groups:
            if len(fc) >= MIN_LINE:
                xs = [(c["estimate"], min(c[other], 250) if other else 0) for c in fc]
                ys = [float(c["dd"]) - gap.mean for c in fc]
                take[kind][label] = line(xs, ys, [c["sd"] for c in fc], gap.variance)
        levels = {}
        for level in sorted({c["level"] for c in kc}):
            lc = [c for c in pk if c["level"] == level]
            levels[level] = {"contracts": sum(c["level"] == level for c in kc), "played": len(lc)}
            if lc:
                levels[level].update(
                    played_figures(lc), estimate_minus_taken=round(_mean(c["estimate"] - c["taken"] for c in lc)[0], 1)
                )
        # Where the made rate goes, by the lines' groups: against expert-v2, contracts it
        # coinched were made 36-44 %, the others 74 % (issue 33); and the shortfall is larger
        # after an uncontested auction (the defenders learnt nothing from it).
        auctions = {}
        not_coinched = [c for c in kc if not c["coinched"]]
        for label, fc in [(label, fc) for label, fc, _ in groups] + [("not coinched", not_coinched)]:
            lc = [c for c in fc if c["played"]]
            if lc:
                auctions[label] = {"played": len(lc), **played_figures(lc)}
        dc = [c for c in every if c["kind"] == kind]
        dgap = short.get(("defend", kind), NO_SHORTFALL)
        xs = [(e, min(c["value"], 250)) for c in dc for e in c["defence_estimates"]]
        ys = [162.0 - c["dd"] + dgap.mean for c in dc for _ in c["defence_estimates"]]
        sds = [s for c in dc for s in c["defence_sds"]]
        if len(xs) < MIN_LINE:
            continue
        defend[kind] = line(xs, ys, sds, dgap.variance)
        bias, n = _mean(c["estimate"] - c["dd"] for c in kc)
        rep[kind] = {
            "contracts": n,
            "played": len(pk),
            "made": round(_mean(float(c["made"]) for c in pk)[0], 3) if pk else None,
            "coinched": round(_mean(float(c["coinched"]) for c in kc)[0], 3),
            "double_dummy_optimism": round(gap.mean, 1),
            "double_dummy_optimism_contracts": gap.contracts,
            "defence_double_dummy_optimism": round(dgap.mean, 1),
            "estimate_minus_double_dummy": round(bias, 1),
            "levels": levels,
            "auctions": auctions,
        }
    pred_sweeps = sum(c["p_sweep"] for c in played)
    sweeps = sum(c["swept"] for c in played)
    rep["sweeps"] = {"observed": sweeps, "predicted": round(pred_sweeps, 1)}
    rep["made"] = round(_mean(float(c["made"]) for c in played)[0], 3) if played else None
    tables = {
        "take": take,
        "defend": defend,
        "sweep_line": sweep_line([c["p_sweep"] for c in played], [bool(c["swept"]) for c in played]),
    }
    return tables, rep


def played_figures(cs: Sequence[dict[str, Any]]) -> dict[str, float]:
    """The made rate and real play's shortfall (double dummy less the points taken) of
    contract rows whose cards were played (not empty)."""
    return {
        "made": round(_mean(float(c["made"]) for c in cs)[0], 3),
        "double_dummy_minus_taken": round(_mean(c["dd"] - c["taken"] for c in cs)[0], 1),
    }


def least_squares(rows: Sequence[Sequence[float]], ys: Sequence[float]) -> list[float]:
    """The coefficients minimising the squared error of y = coef . row (a slight ridge
    keeps them defined on few points); the normal equations solved by elimination."""
    k = len(rows[0]) if rows else 0
    m = [[sum(r[i] * r[j] for r in rows) + (1e-3 if i == j else 0.0) for j in range(k)] for i in range(k)]
    v = [sum(r[i] * y for r, y in zip(rows, ys, strict=True)) for i in range(k)]
    for i in range(k):
        piv = max(range(i, k), key=lambda q: abs(m[q][i]))
        m[i], m[piv] = m[piv], m[i]
        v[i], v[piv] = v[piv], v[i]
        for q in range(i + 1, k):
            f = m[q][i] / m[i][i]
            m[q] = [x - f * y for x, y in zip(m[q], m[i], strict=True)]
            v[q] -= f * v[i]
    out = [0.0] * k
    for i in reversed(range(k)):
        out[i] = (v[i] - sum(m[i][j] * out[j] for j in range(i + 1, k))) / m[i][i]
    return out


SLOPE_RANGE = (0.2, 1.5)
"""The slopes a fitted line may have: more estimated points never mean fewer taken, and
contracts bid on a narrow band of estimates (SA: 134 and more) fit a slope of noise."""


def line(
    xs: Sequence[tuple[float, float]], ys: Sequence[float], sds: Sequence[float], added_variance: float = 0.0
) -> dict[str, float]:
    """The line of ``Calibration``: points = e + w * (a + b * e + c * o - e), with e the
    estimate, o the other figure and w = min(sd / estimate_sd, 1) the estimate's own
    uncertainty against the typical one (b kept within ``SLOPE_RANGE``); the spread of the
    points around it, per unit of w (``added_variance``: a spread the ``ys`` do not hold,
    added to it); and the band of estimates it rests on (``low``, ``high``: the 5th and 95th
    percentiles), beyond which ``Calibration`` keeps its correction as at the band's end."""
    ref = math.sqrt(sum(s * s for s in sds) / max(len(sds), 1))
    ws = [min(s / ref, 1.0) if ref > 0 else 1.0 for s in sds]
    rows = [(w, w * e, w * o) for (e, o), w in zip(xs, ws, strict=True)]
    target = [y - e + w * e for (e, _), y, w in zip(xs, ys, ws, strict=True)]
    a, b, c = least_squares(rows, target)
    if not SLOPE_RANGE[0] <= b <= SLOPE_RANGE[1]:
        b = min(max(b, SLOPE_RANGE[0]), SLOPE_RANGE[1])
        a, c = least_squares([(r[0], r[2]) for r in rows], [t - b * r[1] for r, t in zip(rows, target, strict=True)])
    resid = [(t - (a * r[0] + b * r[1] + c * r[2])) / max(r[0], 0.05) for r, t in zip(rows, target, strict=True)]
    sd = math.sqrt(sum(x * x for x in resid) / max(len(resid) - 3, 1) + added_variance)
    es = sorted(e for e, _ in xs)
    return {
        "intercept": round(a, 3),
        "estimate": round(b, 4),
        "other": round(c, 4),
        "sd": round(sd, 2),
        "estimate_sd": round(ref, 2),
        "low": round(es[len(es) // 20], 1),
        "high": round(es[-1 - len(es) // 20], 1),
    }


def sweep_line(predicted: Sequence[float], swept: Sequence[bool]) -> dict[str, float]:
    """``Calibration.sweep_chance``'s line: the sweep's log-odds as ``intercept + slope *
    logit(p)`` of the evaluator's ``p``, by maximum likelihood (Newton's method, each step
    halved until it gains), with a weak prior towards the evaluator as it is (intercept 0,
    slope 1: one pseudo-contract's worth) so that few contracts, or none swept, leave it
    finite."""
    xs = [math.log(p / (1 - p)) for p in (min(max(q, 1e-6), 1 - 1e-6) for q in predicted)]
    ys = [1.0 if s else 0.0 for s in swept]
    prior = 1.0

    def chance(a: float, b: float, x: float) -> float:
        return 1.0 / (1.0 + math.exp(-max(min(a + b * x, 50.0), -50.0)))

    def log_likelihood(a: float, b: float) -> float:
        total = -prior / 2 * (a * a + (b - 1.0) ** 2)
        for x, y in zip(xs, ys, strict=True):
            p = min(max(chance(a, b, x), 1e-15), 1 - 1e-15)
            total += math.log(p) if y else math.log(1 - p)
        return total

    a, b = 0.0, 1.0
    best = log_likelihood(a, b)
    for _ in range(100):
        ga, gb = -prior * a, -prior * (b - 1.0)
        haa, hab, hbb = prior, 0.0, prior
        for x, y in zip(xs, ys, strict=True):
            p = chance(a, b, x)
            w = p * (1 - p)
            ga += y - p
            gb += (y - p) * x
            haa += w
            hab += w * x
            hbb += w * x * x
        det = haa * hbb - hab * hab
        da, db = (hbb * ga - hab * gb) / det, (haa * gb - hab * ga) / det
        step = 1.0
        while step > 1e-6:
            value = log_likelihood(a + step * da, b + step * db)
            if value >= best:
                break
            step /= 2
        else:
            break
        a, b, best = a + step * da, b + step * db, value
        if step * (abs(da) + abs(db)) < 1e-9:
            break
    return {"intercept": round(a, 4), "slope": round(b, 4)}


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--profiles", default=",".join(PROFILES))
    ap.add_argument("--deals", type=int, default=600, help="deals per profile whose cards are played")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--opponents", default=",".join(DEFAULT_OPPONENTS), help="the bots the expert meets, in turn")
    ap.add_argument("--auction-only", type=int, default=0, help="deals per profile whose auction alone is played")
    ap.add_argument("--auction-opponents", default="expert,confirmed", help="the bots the expert meets there")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--minutes", type=float, default=30.0, help="no new deal is started after this")
    ap.add_argument("--log", type=Path, required=True, help="JSON lines of played deals (appended)")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--fit-only", action="store_true", help="fit on the log without playing")
    args = ap.parse_args(argv)
    profiles = [p for p in args.profiles.split(",") if p]
    opponents = [o for o in args.opponents.split(",") if o]
    auction_opponents = [o for o in args.auction_opponents.split(",") if o]
    for o in opponents + auction_opponents:
        if o not in OPPONENTS:
            ap.error(f"unknown opponent {o!r}: one of {', '.join(OPPONENTS)}")
    if not args.fit_only:
        run(
            profiles,
            opponents,
            args.deals,
            args.seed,
            args.jobs,
            args.minutes,
            args.log,
            args.auction_only,
            auction_opponents,
        )
    records = [json.loads(line) for line in args.log.read_text().splitlines()]
    data = fit(records)
    data["meta"].update(
        {
            "date": datetime.date.today().isoformat(),
            "deals": len(records),
            "seed": args.seed,
            "script": Path(__file__).name,
        }
    )
    args.out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(json.dumps(data["meta"]["report"], indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
