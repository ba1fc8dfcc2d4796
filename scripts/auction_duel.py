"""The auction half of a duplicate match, fast enough to tune the expert's calls on.

``coinche arena`` measures whole bots, but a pair of experts plays about one deal a second
on this machine, and 60 pairs are far too few to tell two auction settings apart. Here the
bots make the calls of the arena's deals (the same pairs, the same bot seeds), and the
cards are then played double dummy by all four hands (each card the one that keeps the
most points for its team with every hand open): what is measured is the auction alone,
without the noise of the card play.

Two caches make repeated runs cheap (``--cache DIR``): the calls of a slow bot (as
``expert-v1``, 0.2 s a call) are stored by deal, seat and auction so far, and the result of
every auction played out. A second run with other settings of the expert asks the slow bot
only the auctions it has not seen. The cached call is the one the bot made the first time
the same auction reached it (a sampling bot may choose otherwise with another seed); the
cache is keyed by the bot's name and settings, so a bot whose code changed needs a new
cache.

    python scripts/auction_duel.py --rules online --ns expert --ew expert-v1 --pairs 500 \\
        --cache /tmp/duel --jobs 2 --set ns:coinche_fails=0.75

``--set SIDE:KNOB=VALUE`` changes one of ``ExpertConfig``'s knobs of that side's expert.
The figures are per played deal, the NS bots' team minus the EW bots', with a 95%
interval over the pairs (the arena's own ``paired_ci``).
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import multiprocessing
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from coinche.bots.arena import derive_seed, pair_deal
from coinche.bots.arena_result import SideTally, deal_tally, paired_ci, side_stats
from coinche.bots.base import Bot, with_belote
from coinche.bots.expert import ExpertBot
from coinche.bots.loading import load_bot
from coinche.bots.solver import Position, move_values
from coinche.engine.actions import DECLARE_BASE, Action, is_announce, is_declaration
from coinche.engine.deal import Deal, Phase
from coinche.engine.rules import RuleSet


@dataclasses.dataclass(frozen=True)
class Side:
    spec: str
    settings: tuple[tuple[str, float], ...] = ()

    @property
    def key(self) -> str:
        """The cache's name of this bot: its spec and settings."""
        return self.spec + "".join(f";{k}={v}" for k, v in self.settings)

    def build(self, seed: int) -> Bot:
        bot = load_bot(self.spec, seed=seed)
        if self.settings:
            if not isinstance(bot, ExpertBot):
                raise SystemExit(f"--set applies to the expert, not {self.spec!r}")
            bot.config = dataclasses.replace(bot.config, **dict(self.settings))
        return bot


@dataclasses.dataclass
class Task:
    rules: RuleSet
    sides: dict[str, Side]
    seed: int
    cached: set[str]
    """Sides whose calls are cached."""
    calls: dict[str, Action]
    outcomes: dict[str, list[Any]]


def _key(*parts: object) -> str:
    return hashlib.blake2b(repr(parts).encode(), digest_size=12).hexdigest()


def double_dummy_play(deal: Deal) -> None:
    """Play the deal out, every card the best for its team with all hands open; every meld
    declared, every belote announced."""
    while not deal.is_over:
        legal = deal.legal_actions()
        if is_declaration(legal[0]):
            deal.apply(DECLARE_BASE)
            continue
        cards = [a for a in legal if not is_announce(a)]
        if len(cards) == 1:
            deal.apply(with_belote(cards[0], legal))
            continue
        values = move_values(Position.from_deal(deal), deal.to_move & 1)
        best = max(cards, key=lambda c: (values.get(c, -1), -c))
        deal.apply(with_belote(best, legal))


def play_half(task: Task, pair: int, half: int, new_calls: dict[str, Action]) -> tuple[list[Any], str]:
    """One pair half: the auction by the bots, the cards double dummy. Returns the figures
    of ``outcome`` and the auction's cache key."""
    rules = task.rules
    dealer, hands = pair_deal(task.seed, pair)
    deal = Deal(rules, dealer, hands)
    names = ["ns" if s & 1 == half else "ew" for s in range(4)]
    bots: dict[int, Bot] = {}
    while deal.phase is Phase.AUCTION:
        seat = deal.to_move
        view = deal.view(seat)
        side = names[seat]
        action: Action | None = None
        ck = ""
        if side in task.cached:
            ck = _key(rules.name, task.sides[side].key, task.seed, pair, half, seat, view.calls)
            action = task.calls.get(ck, new_calls.get(ck))
        if action is None:
            if seat not in bots:
                bots[seat] = task.sides[side].build(derive_seed(task.seed, pair, half, seat))
            action = bots[seat].choose(view).action
            if ck:
                new_calls[ck] = action
        deal.apply(action)
    ok = _key(rules.name, task.seed, pair, half, deal.auction.calls)
    known = task.outcomes.get(ok)
    if known is not None:
        return known, ok
    if not deal.is_over:
        double_dummy_play(deal)
    return outcome(deal, half), ok


def outcome(deal: Deal, half: int) -> list[Any]:
    """[score diff, card points diff, the NS bots' tally, the EW bots' tally] (the arena's
    ``deal_tally``, as dicts for the cache)."""
    result = deal.result()
    assert result is not None
    ns = half
    return [
        result.score[ns] - result.score[1 - ns],
        result.card_points[ns] - result.card_points[1 - ns],
        dataclasses.asdict(deal_tally(deal, ns)),
        dataclasses.asdict(deal_tally(deal, 1 - ns)),
    ]


Rows = list[tuple[int, list[list[Any]]]]
"""Per pair: the figures of each half (``outcome``)."""
_Chunk = tuple[Rows, dict[str, Action], dict[str, list[Any]]]


def _chunk(args: tuple[Task, Sequence[int]]) -> _Chunk:
    task, pairs = args
    new_calls: dict[str, Action] = {}
    new_outcomes: dict[str, list[Any]] = {}
    rows = []
    for p in pairs:
        halves = []
        for half in (0, 1):
            figures, ok = play_half(task, p, half, new_calls)
            if ok not in task.outcomes:
                new_outcomes[ok] = figures
            halves.append(figures)
        rows.append((p, halves))
    return rows, new_calls, new_outcomes


def _read_cache(path: Path) -> Iterator[tuple[str, Any]]:
    if path.exists():
        with path.open() as f:
            for line in f:
                k, v = json.loads(line)
                yield k, v


def run(task: Task, pairs: int, jobs: int, cache: Path | None) -> Rows:
    calls_file = outcomes_file = None
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
        calls_file, outcomes_file = cache / "calls.jsonl", cache / "outcomes.jsonl"
        task.calls.update(_read_cache(calls_file))
        task.outcomes.update(_read_cache(outcomes_file))
    size = 10
    chunks = [(task, range(lo, min(lo + size, pairs))) for lo in range(0, pairs, size)]
    rows: Rows = []
    if jobs > 1:
        pool = multiprocessing.get_context("fork").Pool(jobs)
        parts: Iterable[_Chunk] = pool.imap_unordered(_chunk, chunks)
    else:
        pool, parts = None, map(_chunk, chunks)
    try:
        for part, calls, outs in parts:
            rows.extend(part)
            if calls_file is not None and outcomes_file is not None:
                with calls_file.open("a") as f:
                    f.writelines(json.dumps([k, v]) + "\n" for k, v in calls.items())
                with outcomes_file.open("a") as f:
                    f.writelines(json.dumps([k, v]) + "\n" for k, v in outs.items())
            print(f"\r{len(rows)}/{pairs} pairs", end="", file=sys.stderr, flush=True)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    print(file=sys.stderr)
    rows.sort()
    return rows


def report(rows: Rows) -> dict[str, Any]:
    halves = [h for _, hs in rows for h in hs]
    mean, ci = paired_ci([a[0] + b[0] for _, (a, b) in rows])
    cp_mean, cp_ci = paired_ci([a[1] + b[1] for _, (a, b) in rows])
    out: dict[str, Any] = {
        "pairs": len(rows),
        "mean_diff": round(mean, 1),
        "ci95": [round(ci[0], 1), round(ci[1], 1)],
        "card_points_diff": round(cp_mean, 1),
        "card_points_ci95": [round(cp_ci[0], 1), round(cp_ci[1], 1)],
    }
    for i, side in enumerate(("ns", "ew")):
        total = SideTally()
        for h in halves:
            total.add(SideTally(**h[2 + i]))
        out[f"{side}_stats"] = {k: round(v, 3) for k, v in side_stats(total).items()}
    return out


def parse_settings(items: Sequence[str]) -> dict[str, list[tuple[str, float]]]:
    default = ExpertBot().config
    known = {f.name for f in dataclasses.fields(default)}
    out: dict[str, list[tuple[str, float]]] = {"ns": [], "ew": []}
    for item in items:
        side, _, rest = item.partition(":")
        name, _, value = rest.partition("=")
        if side not in out or name not in known or not value:
            raise SystemExit(f"--set wants ns:KNOB=VALUE or ew:KNOB=VALUE with a knob of ExpertConfig, not {item!r}")
        kind = type(getattr(default, name))  # an int knob (a count) stays an int
        out[side].append((name, kind(float(value))))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", default="online")
    p.add_argument("--ns", default="expert")
    p.add_argument("--ew", default="expert-v1")
    p.add_argument("--pairs", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--cache", type=Path, help="folder of the call and outcome caches")
    p.add_argument("--cached", default="expert-v1", help="bot specs whose calls are cached (comma-separated)")
    p.add_argument("--set", action="append", default=[], help="SIDE:KNOB=VALUE, a knob of the side's expert")
    args = p.parse_args(argv)
    settings = parse_settings(args.set)
    sides = {
        "ns": Side(args.ns, tuple(settings["ns"])),
        "ew": Side(args.ew, tuple(settings["ew"])),
    }
    cached = {name for name, s in sides.items() if s.spec in args.cached.split(",")}
    task = Task(RuleSet.profile(args.rules), sides, args.seed, cached, {}, {})
    start = time.perf_counter()
    rows = run(task, args.pairs, args.jobs, args.cache)
    out = report(rows)
    out.update(rules=args.rules, ns=sides["ns"].key, ew=sides["ew"].key, seed=args.seed)
    out["seconds"] = round(time.perf_counter() - start, 1)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
