"""Expert decision times: whole deals played by the bot under test (NS) against an
opponent (EW), every NS decision with more than one legal action timed, one core.

Prints, for calls and for cards, the count, mean, p50, p95 (nearest rank) and max, and the
cards by trick. With ``--ref expert-v1`` the reference bot is timed on the very same views
(its choice is not played), so that both figures see the same machine load. A bot of an
earlier commit (``expert-v1``, ``expert@REV``) plays in a process of its own tree and on
its own solver, speaking the engine protocol (see ``coinche.bots.history``; one process a
seat for the whole run, told each deal's seed): its times include the pipe to it, about
1.4 ms a decision (``bench_engine_protocol.py``).

    python bench/bench_expert.py [--bot expert] [--ref expert-v1] [--vs confirmed] [--rules online] [--deals 40]
"""

from __future__ import annotations

import argparse
import random
import time
from collections import defaultdict

from coinche.bots.base import Bot
from coinche.bots.engine_protocol import EngineBot
from coinche.bots.loading import load_bot
from coinche.engine.actions import is_declaration
from coinche.engine.deal import Deal, Phase, random_hands
from coinche.engine.rules import PROFILES, RuleSet


def _stats(xs: list[float]) -> str:
    if not xs:
        return "none"
    s = sorted(xs)
    p = lambda q: s[min(len(s) - 1, max(0, -(-len(s) * q // 100) - 1))]  # noqa: E731 (nearest rank)
    mean = sum(s) / len(s)
    return (
        f"n {len(s):4d}  mean {mean * 1000:6.1f} ms  p50 {p(50) * 1000:6.1f} ms  "
        f"p95 {p(95) * 1000:6.1f} ms  max {s[-1] * 1000:6.0f} ms"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--bot", default="expert")
    ap.add_argument("--ref", default=None, help="a bot timed on the same views, for comparison")
    ap.add_argument("--vs", default="confirmed")
    ap.add_argument("--rules", choices=list(PROFILES), default="online")
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rules = RuleSet.profile(args.rules)
    rng = random.Random(args.seed)
    names = [args.bot] + ([args.ref] if args.ref else [])
    kept: dict[tuple[str, int], EngineBot] = {}

    def seat_bot(name: str, seat: int, seed: int) -> Bot:
        """A fresh bot of ``seed``; a program's process is kept and told the new seed."""
        engine = kept.get((name, seat))
        if engine is not None:
            engine.new_deal(seed)
            return engine
        bot = load_bot(name, seed=seed)
        if isinstance(bot, EngineBot):
            kept[name, seat] = bot
        return bot

    calls: dict[str, list[float]] = defaultdict(list)
    cards: dict[str, list[float]] = defaultdict(list)
    by_trick: dict[tuple[str, int], list[float]] = defaultdict(list)
    clock = time.perf_counter
    for d in range(args.deals):
        deal = Deal(rules, rng.randrange(4), random_hands(rng))
        bots = {name: [seat_bot(name if s & 1 == 0 else args.vs, s, 1000 * d + s) for s in range(4)] for name in names}
        while not deal.is_over:
            seat = deal.to_move
            view = deal.view(seat)
            legal = view.legal_actions
            timed = seat & 1 == 0 and len(legal) > 1 and not is_declaration(legal[0])
            action = -1
            for name in names if seat & 1 == 0 else names[:1]:
                t0 = clock()
                a = bots[name][seat].choose(view).action
                elapsed = clock() - t0
                if name == args.bot:
                    action = a
                if timed and deal.phase is Phase.AUCTION:
                    calls[name].append(elapsed)
                elif timed:
                    cards[name].append(elapsed)
                    by_trick[name, len(view.tricks)].append(elapsed)
            deal.apply(action)
    print(f"{args.rules}, {args.deals} deals, seed {args.seed}, NS against {args.vs}")
    for name in names:
        print(f"{name}")
        print(f"  calls  {_stats(calls[name])}")
        print(f"  cards  {_stats(cards[name])}")
        for t in range(8):
            if by_trick[name, t]:
                print(f"    trick {t + 1}  {_stats(by_trick[name, t])}")


if __name__ == "__main__":
    main()
