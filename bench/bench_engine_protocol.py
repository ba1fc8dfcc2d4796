"""The engine protocol's cost per decision: the same bot deciding on the same views in this
process and through ``coinche engine`` over a pipe (``docs/engine-protocol.md``).

``--deals`` random deals are played by four bots of ``--bot``; at each of seat 0's
decisions, the bot in process and the engine (one process kept for the whole run, told
each deal's seed as the arena does) decide on the same view, each timed; both must choose
the same action. Prints the medians and 95th percentiles of both times and of their
difference per decision (the protocol's overhead: the view written as JSON, read back by
the engine, the answer read and checked).

    python bench/bench_engine_protocol.py [--bot expert] [--deals 200] [--rules classic]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from bench_server import percentile
from coinche.bots.engine_protocol import EngineBot
from coinche.bots.loading import load_bot
from coinche.engine.deal import Deal, random_hands
from coinche.engine.rules import RuleSet


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bot", default="expert")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--rules", default="classic")
    args = parser.parse_args()
    rules = RuleSet.profile(args.rules)
    engine = EngineBot(f"{sys.executable} -m coinche.cli engine --level {args.bot}", seed=0)
    in_process: list[float] = []
    piped: list[float] = []
    overhead: list[float] = []
    rng = random.Random(1)
    clock = time.perf_counter
    try:
        for n in range(args.deals):
            seed = rng.getrandbits(62)
            deal = Deal(rules, n % 4, random_hands(random.Random(seed)))
            ours = load_bot(args.bot, seed=seed)
            engine.new_deal(seed)
            others = [load_bot(args.bot, seed=seed + s) for s in range(4)]
            while not deal.is_over:
                seat = deal.to_move
                view = deal.view(seat)
                if seat != 0:
                    deal.apply(others[seat].choose(view).action)
                    continue
                t0 = clock()
                here = ours.choose(view).action
                t1 = clock()
                there = engine.choose(view).action
                t2 = clock()
                if here != there:
                    raise SystemExit(f"deal {n}: the engine chose {there}, the bot in process {here}")
                in_process.append(t1 - t0)
                piped.append(t2 - t1)
                overhead.append((t2 - t1) - (t1 - t0))
                deal.apply(here)
            for bot, s in ((ours, 0), (engine, 0)):
                bot.observe_result(deal.view(s))
    finally:
        engine.close()
    if engine.faults:
        raise SystemExit(f"the engine made {engine.faults} faults: {engine.fault_log}")
    ms = 1000.0
    print(f"{args.bot}, {args.deals} deals, {len(overhead)} decisions of seat 0 ({args.rules})")
    for label, values in (("in process", in_process), ("through the protocol", piped), ("overhead", overhead)):
        median = statistics.median(values) * ms
        print(f"  {label:<22} median {median:7.2f} ms   p95 {percentile(values, 0.95) * ms:7.2f} ms")


if __name__ == "__main__":
    main()
