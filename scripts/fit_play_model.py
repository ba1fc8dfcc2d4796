"""Fit the expert's model of the play (``coinche.bots.expert.play_model``) on self-play deals.

It reads the deals ``scripts/calibrate_auction.py`` logged (four experts; hands, calls and
every action) and replays them. After each card a seat plays, it takes the view of the
next seat, finds the clue the card gives (``play_model.clues``), and compares:

* how often the seat really held one of the clue's cards (the truth of the deal),
* with how often the expert's sampled deals give it one before the play model is applied
  (``--samples`` deals of ``sampling.sample_deals`` per clue, weighted by the auction's
  likelihood as ``deals.play_weights`` does).

The factor of a rule is the odds ratio of the two, pooled over every clue of the rule: the
factor by which holding such a card changes how likely the observed play is, which is what
``PlayModel.likelihood`` multiplies in. Below 1: the project's players follow the rule.

    python scripts/fit_play_model.py --log /tmp/calib.jsonl --samples 20
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from coinche.bots.expert.config import ExpertConfig
from coinche.bots.expert.deals import play_weights
from coinche.bots.expert.play_model import RULES, clues
from coinche.bots.sampling import constraints_from_view, sample_deals
from coinche.engine.actions import is_card
from coinche.engine.deal import Deal, Phase
from coinche.engine.rules import RuleSet

PRIOR = ExpertConfig(play_inference=False)
"""The expert's weighting of sampled deals without the play model."""

DEFAULT_OUT = Path(__file__).resolve().parent.parent / "src" / "coinche" / "bots" / "data" / "play_model.json"


def deal_clues(rec: dict[str, Any], samples: int, rng: random.Random) -> list[tuple[str, bool, float]]:
    """(rule, the seat held a clue card, the sampler's share of deals where it does) for
    every clue of one logged deal."""
    rules = RuleSet.profile(rec["profile"])
    deal = Deal(rules, rec["dealer"], tuple(rec["hands"]))
    out = []
    for a in rec["actions"]:
        seat = deal.to_move
        playing = deal.phase is Phase.PLAY and is_card(a)
        deal.apply(a)
        if not playing or deal.is_over:
            continue
        observer = (seat + 1) & 3
        view = deal.view(observer)
        found = [c for c in clues(view) if c.seat == seat and c.index == _last_index(view)]
        if not found:
            continue
        drawn = sample_deals(constraints_from_view(view), samples, rng)
        if not drawn:
            continue
        # The sampler's share as the expert weighs its deals before the play model: by the
        # auction's likelihood (what the calls already say is not counted twice).
        weights = play_weights(view, drawn, PRIOR)
        total = sum(weights)
        for clue in found:
            held = bool(deal.hands[seat] & clue.cards)
            share = sum(w for w, h in zip(weights, drawn, strict=True) if h[seat] & clue.cards) / total
            out.append((clue.rule, held, share))
    return out


def _last_index(view: Any) -> int:
    return sum(len(t.cards) for t in view.tricks) + len(view.trick) - 1


def fit(rows: Sequence[tuple[str, bool, float]]) -> dict[str, Any]:
    held: dict[str, float] = defaultdict(float)
    share: dict[str, float] = defaultdict(float)
    count: dict[str, int] = defaultdict(int)
    for rule, h, s in rows:
        held[rule] += h
        share[rule] += s
        count[rule] += 1
    ratios = {}
    report = {}
    for rule in RULES:
        n = count[rule]
        if n < 30:
            continue
        # Odds of holding a clue card given the play, over the sampler's odds (+0.5 each
        # way so that an empty cell is not a zero).
        odds_true = (held[rule] + 0.5) / (n - held[rule] + 0.5)
        odds_prior = (share[rule] + 0.5) / (n - share[rule] + 0.5)
        ratios[rule] = round(odds_true / odds_prior, 3)
        report[rule] = {"clues": n, "held": round(held[rule] / n, 3), "sampler": round(share[rule] / n, 3)}
    return {"ratios": ratios, "meta": {"report": report}}


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--log", type=Path, action="append", required=True, help="calibrate_auction.py log (repeatable)")
    ap.add_argument("--samples", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    rows: list[tuple[str, bool, float]] = []
    deals = 0
    for log in args.log:
        for line in log.read_text().splitlines():
            rec = json.loads(line)
            if "actions" in rec:
                rows += deal_clues(rec, args.samples, rng)
                deals += 1
    data = fit(rows)
    data["meta"].update({"date": datetime.date.today().isoformat(), "deals": deals, "samples": args.samples})
    args.out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(json.dumps(data, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
