"""Replay throughput: ``coinche replay --json`` over many record files.

Writes N deal records (random legal deals, the simple auction of bench_engine) and M game
records to a temporary folder, then times one ``coinche replay --json`` process over all
deal files and one over all game files, checking every answer line.

    python bench/bench_replay.py [--records 10000] [--games 200]
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_engine import play_deal, simple_call
from coinche.engine.deal import Deal, Phase, random_hands
from coinche.engine.game import Game
from coinche.engine.record import deal_record, game_record
from coinche.engine.rules import RuleSet


def write_deals(folder: Path, n: int, rules: RuleSet) -> list[str]:
    rng = random.Random(7)
    paths = []
    for i in range(n):
        deal = Deal(rules, i & 3, random_hands(rng))
        play_deal(deal, rng)
        p = folder / f"deal{i:05d}.json"
        p.write_text(json.dumps(deal_record(deal)))
        paths.append(str(p))
    return paths


def write_games(folder: Path, n: int, rules: RuleSet) -> tuple[list[str], int]:
    rng = random.Random(8)
    paths = []
    deals = 0
    for i in range(n):
        game = Game(rules, seed=i)
        while not game.is_over:
            deal = game.current
            assert deal is not None
            acts = game.legal_actions()
            game.apply(simple_call(deal) if deal.phase is Phase.AUCTION else acts[rng.randrange(len(acts))])
        deals += len(game.deals)
        p = folder / f"game{i:04d}.json"
        p.write_text(json.dumps(game_record(game)))
        paths.append(str(p))
    return paths, deals


def time_replay(paths: list[str]) -> float:
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-m", "coinche.cli", "replay", "--json", *paths], capture_output=True, text=True, check=False
    )
    elapsed = time.perf_counter() - start
    lines = out.stdout.splitlines()
    assert out.returncode == 0, out.stderr[:500]
    assert len(lines) == len(paths) and all("error" not in json.loads(line) for line in lines)
    return elapsed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--records", type=int, default=10000)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--rules", default="classic")
    args = ap.parse_args()
    rules = RuleSet.profile(args.rules)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        deal_paths = write_deals(folder, args.records, rules)
        game_paths, game_deals = write_games(folder, args.games, rules)
        t = time_replay(deal_paths[:1])
        print(f"one deal record:           {t * 1000:7.1f} ms for the whole process (start-up included)")
        t = time_replay(deal_paths)
        print(f"{len(deal_paths)} deal records:      {t:7.2f} s  = {len(deal_paths) / t:7.0f} records/s")
        t = time_replay(game_paths)
        print(
            f"{len(game_paths)} game records:        {t:7.2f} s  = {len(game_paths) / t:7.1f} games/s, "
            f"{game_deals / t:.0f} deals/s ({game_deals / len(game_paths):.1f} deals per game)"
        )


if __name__ == "__main__":
    main()
