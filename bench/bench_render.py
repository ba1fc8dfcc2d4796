"""The feed's rendering alone: the steps of friends' tables (four people, a watcher) rendered
for each audience as ``StateFeed.moved`` does (``feed.render``), without sockets or database.

    python bench/bench_render.py [--games 20] [--runs 5] [--profile]

Prints the rendering's CPU time a step (four seats and a watcher, one language) and, with
``--profile``, where it goes (cProfile). The best of ``--runs`` runs counts.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import time

from coinche.engine.rules import PROFILES
from coinche.server.infra.store import new_id
from coinche.server.table.kinds import FriendsTable
from coinche.server.table.live_table import LiveTable
from coinche.server.table.spec import Seat, Step, TableSpec
from coinche.server.web.feed import WATCHED_SEAT, Audience
from coinche.server.web.feed import render as render_audience
from coinche.server.web.seat_state import SeatState, StepParts

AUDIENCES: list[Audience] = [*((seat, "fr", False) for seat in range(4)), (WATCHED_SEAT, "fr", True)]
PRESENCE = ["here"] * 4


def played(seed: int, steps: int) -> LiveTable:
    """A friends' table of four people after ``steps`` random legal moves."""
    p0, p1, p2, p3 = (Seat("human", player=f"p{i}", name=f"P{i}") for i in range(4))
    people = (p0, p1, p2, p3)
    kind = FriendsTable(code="ABCDEF", host_player="p0")
    spec = TableSpec(new_id(), PROFILES["classic"], seed, 0, people, "confirmed", kind=kind)
    live = LiveTable.build(spec, [])
    rng = random.Random(seed)
    for _ in range(steps):
        game = live.game
        if game.is_over:
            break
        if game.awaiting_deal:
            live.apply(Step(live.seq, "deal", 0))
            continue
        deal = game.current
        assert deal is not None
        live.apply(Step(live.seq, "action", deal.to_move, rng.choice(game.legal_actions())))
    return live


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--steps", type=int, default=400)
    ap.add_argument("--runs", type=int, default=5, help="runs, the best one counts")
    ap.add_argument("--profile", action="store_true", help="where the time goes (cProfile), one run")
    args = ap.parse_args()
    tables = [played(seed, args.steps) for seed in range(args.games)]

    def render(watched: bool) -> int:
        """Each table's steps read again, each rendered for its audiences as the feed does
        (``watched``; else only read)."""
        n = 0
        for table in tables:
            live = LiveTable.build(table.spec, [])
            before: dict[Audience, SeatState] = {}
            for step in table.steps:
                live.apply(step)
                n += 1
                if watched:
                    parts = StepParts(live)
                    for audience in AUDIENCES:
                        render_audience(live, audience, PRESENCE, before, parts)
        return n

    def timed(watched: bool) -> tuple[int, float]:
        start = time.process_time()
        n = render(watched)
        return n, time.process_time() - start

    render(True)
    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        timed(True)
        profile.disable()
        pstats.Stats(profile).sort_stats("tottime").print_stats(25)
        return
    # the best of a few runs: the machine may be shared
    n, bare = min((timed(False) for _ in range(args.runs)), key=lambda r: r[1])
    took = min(timed(True)[1] for _ in range(args.runs))
    print(f"{n} steps, {(took - bare) * 1e6 / n:.0f} us a step rendered (4 seats and a watcher)")


if __name__ == "__main__":
    main()
