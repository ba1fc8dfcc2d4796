"""The commands that play without the site: ``play`` (a game in the terminal against three
computers) and ``score`` (the score of one deal)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from ..engine.scoring import ScoringError, Sweep, calculate
from .parser import rules_from_args


def cmd_play(args: argparse.Namespace) -> int:
    from ..terminal import run_play

    rules = rules_from_args(args.rules, args.option, args.target)
    return run_play(rules, args.seed, sys.stdin, sys.stdout, level=args.level)


def cmd_score(args: argparse.Namespace, out: TextIO) -> int:
    rules = rules_from_args(args.rules, args.option, args.target)
    multiplier = rules.surcoinche_multiplier if args.surcoinche else 2 if args.coinche else 1
    sweep: Sweep | None = None
    if args.sweep:
        sweep = "taker_alone" if args.sweep == "taker-alone" else args.sweep
    try:
        result = calculate(
            rules,
            args.contract,
            args.points,
            multiplier=multiplier,
            taker_belotes=args.taker_belote,
            defense_belotes=args.defense_belote,
            taker_melds=args.taker_melds,
            defense_melds=args.defense_melds,
            sweep=sweep,
        )
    except ScoringError as e:
        print(f"coinche score: error: {e}", file=sys.stderr)
        return 2
    if args.json:
        doc = {
            "made": result.made,
            "score": {"taker": result.taker, "defense": result.defense},
            "steps": list(result.steps),
        }
        print(json.dumps(doc, ensure_ascii=False), file=out)
    else:
        print(f"{'made' if result.made else 'failed'}: takers {result.taker}, defense {result.defense}", file=out)
        for step in result.steps:
            print(f"  {step}", file=out)
    return 0
