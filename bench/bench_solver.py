"""Double-dummy solver speed: the previous C solver and the current one, side by side.

The previous solver is ``src/coinche/bots/solver/dds.c`` as it was at a git revision
(``--old REV``, default 023e446, the last one before the rewrite), read with ``git show``
from the repository this file lives in, compiled with gcc (``-O3 -shared -fPIC -fwrapv
-DNDEBUG``, its init function renamed ``PyInit__dds_old``) into a cache directory keyed by
the commit (``$XDG_CACHE_HOME/coinche/dds_old/<commit>``, default ``~/.cache``) and loaded
as the module ``_dds_old``. The current solver is the built extension
``coinche.bots.solver._dds`` (``python setup.py build_ext --inplace``).

    PYTHONPATH=src python bench/bench_solver.py [--deals N] [--seed S] [--old REV] [--reference K]

Both solvers get the same positions, one call at a time on one core, alternating which
one runs first. Groups (N = ``--deals``, default 200):

- the four suit trumps of a full deal: N random deals with a random leader, each solved
  with spades, hearts, diamonds and clubs as trump (4N positions; a second line sums the
  four calls of one deal);
- SA (no trump) and TA (all trump) with the classic and the ffb TA values: N full deals
  each (the two TA tables on the same deals);
- ``move_values`` after 1 and after 3 tricks of random legal play (random trump mode,
  0..3 cards of the current trick played): N positions each.

For the full deals it times ``solve(pos, team 0)`` and ``can_reach(pos, 0, 81)``. Each
line prints, for old and new, the median, p99 and max in milliseconds and the mean number
of trick starts visited (``last_nodes``), then the speed ratio old/new of the medians and
of the p99s (above 1: the current solver is faster). Every value of the current solver is
checked against the previous one; mismatches are printed at the end and the exit status
is 1 if there is any.

``--reference K`` also solves K of the suit-contract deals with the pure-Python twin,
checks that the current solver gives the same value and prints how much slower the twin is.

``--expert K`` checks that the expert decides as before where its decisions do not depend on
time: K card decisions (with a choice) of deals the expert plays against itself (classic,
online and federation in turn), each made twice with its work budget lifted (so that it
searches all its sampled deals), once on each solver; the cards played and their expected
margins must be the same. It prints the time of both on those decisions.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import os
import random
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib.machinery import ExtensionFileLoader
from pathlib import Path
from types import ModuleType

from coinche.bots.solver import Position, _dds, position_args
from coinche.bots.solver import reference as ref
from coinche.engine.cards import card_list
from coinche.engine.deal import random_hands
from coinche.engine.play import legal_mask, tables, trick_winner

DEFAULT_OLD = "023e446"
DDS_PATH = "src/coinche/bots/solver/dds.c"
REPO = Path(__file__).resolve().parent


# ----- the previous solver -----


def git(*args: str) -> str:
    done = subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"git {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "coinche" / "dds_old"


def build_old(rev: str) -> Path:
    """Compile ``dds.c`` of ``rev`` (once per commit and source) and return the module file."""
    commit = git("rev-parse", "--verify", f"{rev}^{{commit}}").strip()
    source = git("show", f"{commit}:{DDS_PATH}")
    digest = hashlib.sha256(source.encode()).hexdigest()[:16]
    out_dir = cache_dir() / commit
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    target = out_dir / f"_dds_old{suffix}"
    stamp = out_dir / "source.sha256"
    if target.exists() and stamp.exists() and stamp.read_text() == digest:
        return target
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = sysconfig.get_paths()
    includes = dict.fromkeys((paths["include"], paths["platinclude"]))
    with tempfile.TemporaryDirectory(dir=out_dir) as tmp:
        c_file = Path(tmp) / "dds.c"
        c_file.write_text(source)
        so_file = Path(tmp) / target.name
        cmd = ["gcc", "-O3", "-shared", "-fPIC", "-fwrapv", "-DNDEBUG", "-DPyInit__dds=PyInit__dds_old"]
        cmd += [f"-I{d}" for d in includes]
        cmd += [str(c_file), "-o", str(so_file)]
        subprocess.run(cmd, check=True)
        os.replace(so_file, target)
    stamp.write_text(digest)
    return target


def load_old(path: Path) -> ModuleType:
    loader = ExtensionFileLoader("_dds_old", str(path))
    spec = importlib.util.spec_from_file_location("_dds_old", path, loader=loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


# ----- the two solvers behind one interface -----


@dataclass
class Solver:
    """A ``_dds``-like module (its functions take the position's nine arguments first)."""

    name: str
    module: ModuleType

    def solve(self, pos: Position, team: int) -> int:
        return int(self.module.solve(*position_args(pos), team))

    def can_reach(self, pos: Position, team: int, target: int) -> bool:
        return bool(self.module.can_reach(*position_args(pos), team, target))

    def move_values(self, pos: Position, team: int) -> dict[int, int]:
        return dict(self.module.move_values(*position_args(pos), team))

    def last_nodes(self) -> int:
        return int(self.module.last_nodes())


# ----- positions -----


def full_deal(rng: random.Random, trump: int, *, ffb_ta: bool = False) -> Position:
    h = random_hands(rng)
    return Position(hands=(h[0], h[1], h[2], h[3]), trump=trump, leader=rng.randrange(4), ffb_ta=ffb_ta)


def mid_deal(rng: random.Random, tricks_played: int) -> Position:
    """A full deal with a random trump mode and leader, then random legal cards (engine
    legality): ``tricks_played`` tricks and 0..3 cards of the next one."""
    hands = list(random_hands(rng))
    trump = rng.randrange(6)
    ffb = rng.random() < 0.5
    uf = rng.random() < 0.5
    tt = tables(trump, ffb)
    leader = rng.randrange(4)
    trick: list[int] = []
    for _ in range(tricks_played * 4 + rng.randrange(4)):
        seat = (leader + len(trick)) & 3
        if trick:
            w = trick_winner(trick, tt)
            legal = legal_mask(hands[seat], trick, trick[w], (leader + w) & 1 == seat & 1, tt, uf)
        else:
            legal = hands[seat]
        c = rng.choice(card_list(legal))
        hands[seat] &= ~(1 << c)
        trick.append(c)
        if len(trick) == 4:
            leader = (leader + trick_winner(trick, tt)) & 3
            trick = []
    return Position((hands[0], hands[1], hands[2], hands[3]), trump, leader, tuple(trick), uf, ffb)


# ----- timing and reports -----


@dataclass
class Series:
    times: list[float] = field(default_factory=list)
    nodes: list[int] = field(default_factory=list)


def percentile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


Call = Callable[[Solver, Position], object]


def timed(solver: Solver, call: Call, pos: Position) -> tuple[object, float, int]:
    t0 = time.perf_counter()
    value = call(solver, pos)
    ms = (time.perf_counter() - t0) * 1000.0
    return value, ms, solver.last_nodes()


def summary(s: Series) -> str:
    nodes = f"{statistics.fmean(s.nodes):9.0f}" if s.nodes else "        -"
    return (
        f"median {statistics.median(s.times):7.3f}  p99 {percentile(s.times, 0.99):8.3f}  "
        f"max {max(s.times):8.3f} ms  nodes {nodes}"
    )


def report(name: str, old: Series, new: Series) -> None:
    med = statistics.median(old.times) / max(statistics.median(new.times), 1e-9)
    p99 = percentile(old.times, 0.99) / max(percentile(new.times, 0.99), 1e-9)
    print(f"  {name}")
    print(f"    old  {summary(old)}")
    print(f"    new  {summary(new)}")
    print(f"    old/new  median x{med:.2f}  p99 x{p99:.2f}")


class Bench:
    def __init__(self, old: Solver, new: Solver) -> None:
        self.old = old
        self.new = new
        self.mismatches: list[str] = []

    def compare(self, what: str, pos: Position, call: Call, o: Series, n: Series) -> None:
        """Time ``call`` on both solvers (each goes first every other position) and check the values."""
        order = (self.new, self.old) if len(o.times) % 2 else (self.old, self.new)
        results: dict[str, object] = {}
        for solver in order:
            value, ms, nodes = timed(solver, call, pos)
            series = o if solver is self.old else n
            series.times.append(ms)
            series.nodes.append(nodes)
            results[solver.name] = value
        if results[self.old.name] != results[self.new.name]:
            self.mismatches.append(f"{what}: old {results[self.old.name]} new {results[self.new.name]}  {pos}")

    def full_deals(self, label: str, positions: list[Position], per_deal: int = 1) -> None:
        so, sn, ro, rn = Series(), Series(), Series(), Series()
        for pos in positions:
            self.compare("solve", pos, lambda s, p: s.solve(p, 0), so, sn)
            self.compare("can_reach 81", pos, lambda s, p: s.can_reach(p, 0, 81), ro, rn)
        print(f"{label}: {len(positions)} positions")
        report("solve(pos, 0)", so, sn)
        report("can_reach(pos, 0, 81)", ro, rn)
        if per_deal > 1:
            report(f"solve, the {per_deal} calls of one deal", grouped(so, per_deal), grouped(sn, per_deal))

    def move_values(self, label: str, positions: list[Position]) -> None:
        mo, mn = Series(), Series()
        for pos in positions:
            self.compare("move_values", pos, lambda s, p: s.move_values(p, 0), mo, mn)
        print(f"{label}: {len(positions)} positions")
        report("move_values(pos, 0)", mo, mn)


def grouped(s: Series, k: int) -> Series:
    """Sums of ``k`` consecutive calls (the four trumps of one deal)."""
    out = Series()
    for i in range(0, len(s.times) - k + 1, k):
        out.times.append(sum(s.times[i : i + k]))
        out.nodes.append(sum(s.nodes[i : i + k]))
    return out


def compare_reference(new: Solver, k: int, seed: int) -> None:
    rng = random.Random(seed)
    ratios = []
    for _ in range(k):
        pos = full_deal(rng, rng.randrange(4))
        t0 = time.perf_counter()
        fast = new.solve(pos, 0)
        t1 = time.perf_counter()
        slow = ref.solve(pos, 0)
        t2 = time.perf_counter()
        assert fast == slow, (pos, fast, slow)
        ratios.append((t2 - t1) / (t1 - t0))
    print(f"reference twin on {k} suit deals: same values; median {statistics.median(ratios):.0f}x slower than C")


def compare_expert(old: Solver, k: int, seed: int) -> bool:
    """The expert's card decisions on the old and on the new solver, its budget lifted."""
    from dataclasses import replace

    from coinche.bots import solver as solver_api
    from coinche.bots.expert import ExpertBot, card_play
    from coinche.engine.actions import is_announce, is_card, is_declaration
    from coinche.engine.deal import Deal, Phase
    from coinche.engine.rules import RuleSet

    def on_old() -> dict[str, object]:
        return {
            "solve": lambda pos, team: old.solve(pos, team),
            "can_reach": lambda pos, team, target: old.can_reach(pos, team, target),
            "can_sweep": lambda pos, team, seat=None: bool(old.module.can_sweep(*position_args(pos), team, seat)),
            "last_nodes": old.last_nodes,
        }

    on_new = {name: getattr(solver_api, name) for name in ("solve", "can_reach", "can_sweep", "last_nodes")}
    rng = random.Random(seed)
    checked = same = 0
    times = {"old": 0.0, "new": 0.0}
    profiles = ("classic", "online", "federation")
    d = 0
    while checked < k:
        rules = RuleSet.profile(profiles[d % 3])
        deal = Deal(rules, d & 3, random_hands(rng))
        players = [ExpertBot(seed=seed + 10 * d + s) for s in range(4)]
        d += 1
        while not deal.is_over and checked < k:
            view = deal.view(deal.to_move)
            acts = view.legal_actions
            cards = [a for a in acts if is_card(a) and not is_announce(a)]
            card_turn = view.phase is Phase.PLAY and not any(is_declaration(a) for a in acts)
            if card_turn and len(card_play.representatives(view, cards)) > 1:
                config = replace(players[0].config, work=10**12)
                found = {}
                for name, api in (("old", on_old()), ("new", on_new)):
                    for attr, fn in api.items():
                        setattr(card_play, attr, fn)
                    t0 = time.perf_counter()
                    found[name] = card_play.search(view, cards, config, random.Random(checked))
                    times[name] += time.perf_counter() - t0
                for attr, fn in on_new.items():
                    setattr(card_play, attr, fn)
                a, b = found["old"], found["new"]
                if a is not None and b is not None and (a.best, a.expected, a.deals) == (b.best, b.expected, b.deals):
                    same += 1
                else:
                    print(f"  expert decision {checked}: old {a} / new {b}")
                checked += 1
            deal.apply(players[deal.to_move].choose(view).action)
    print(
        f"expert, {checked} card decisions with the budget lifted: {same} the same on both solvers; "
        f"old {times['old']:.1f} s, new {times['new']:.1f} s (x{times['old'] / max(times['new'], 1e-9):.2f})"
    )
    return same == checked


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=200, help="deals (positions) per group (default 200)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--old", default=DEFAULT_OLD, metavar="REV", help=f"revision of the old dds.c ({DEFAULT_OLD})")
    ap.add_argument("--reference", type=int, default=0, metavar="K", help="compare K deals with the Python twin")
    ap.add_argument("--expert", type=int, default=0, metavar="K", help="compare K expert card decisions")
    ap.add_argument("--only-expert", action="store_true", help="skip the solver timings")
    args = ap.parse_args()
    n = max(args.deals, 1)

    path = build_old(args.old)
    old = Solver("old", load_old(path))
    new = Solver("new", _dds)
    print(f"old: dds.c of {args.old} ({path})")
    print(f"new: {_dds.__file__}")
    bench = Bench(old, new)
    if args.only_expert:
        return 0 if compare_expert(old, max(args.expert, 1), args.seed) else 1

    rng = random.Random(args.seed)
    suit_positions = []
    for _ in range(n):
        deal = full_deal(rng, 0)
        suit_positions += [Position(deal.hands, trump, deal.leader) for trump in range(4)]
    bench.full_deals("the four suit trumps of a full deal", suit_positions, per_deal=4)

    rng = random.Random(args.seed + 1)
    bench.full_deals("SA", [full_deal(rng, 4) for _ in range(n)])

    rng = random.Random(args.seed + 2)
    ta = [full_deal(rng, 5) for _ in range(n)]
    bench.full_deals("TA, classic values", ta)
    bench.full_deals("TA, ffb values", [Position(p.hands, 5, p.leader, ffb_ta=True) for p in ta])

    for played in (1, 3):
        rng = random.Random(args.seed + 10 + played)
        bench.move_values(f"after {played} trick{'s' if played > 1 else ''}", [mid_deal(rng, played) for _ in range(n)])

    if args.reference:
        compare_reference(new, args.reference, args.seed + 3)
    if args.expert and not compare_expert(old, args.expert, args.seed):
        return 1

    if bench.mismatches:
        print(f"\n{len(bench.mismatches)} MISMATCHES between old and new:")
        for m in bench.mismatches:
            print("  " + m)
        return 1
    print("\nold and new agree on every value")
    return 0


if __name__ == "__main__":
    sys.exit(main())
