"""The commands of the bots: ``arena`` (a duplicate match between two bots), ``engine`` (a
bot of this project over the engine protocol) and ``connect`` (an engine playing on a site
through its bot API)."""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from .parser import rules_from_args


def cmd_arena(args: argparse.Namespace, out: TextIO) -> int:
    from ..bots.arena import run_arena
    from ..bots.base import BotLoadError

    rules = rules_from_args(args.rules, args.option, args.target)
    if args.deals < 1:
        print("coinche arena: error: --deals must be at least 1", file=sys.stderr)
        return 2
    try:
        progress = _arena_progress(args.deals) if sys.stderr.isatty() else None
        result = run_arena(rules, args.ns, args.ew, args.deals, args.seed, jobs=args.jobs, progress=progress)
    except BotLoadError as e:
        print(f"coinche arena: error: {e}", file=sys.stderr)
        return 2
    print(json.dumps(result.to_json()) if args.json else result.format(), file=out)
    return 0


def cmd_engine(level: str) -> int:
    from ..bots.base import BotLoadError
    from ..bots.engine_protocol import serve
    from ..bots.loading import bot_factory

    try:
        factory = bot_factory(level)
    except BotLoadError as e:
        print(f"coinche engine: error: {e}", file=sys.stderr)
        return 2
    return serve(factory, f"coinche {level}", sys.stdin, sys.stdout)


def _arena_progress(total: int) -> Callable[[int], None]:
    """A progress line on the terminal (a long match otherwise shows nothing for an hour)."""

    def show(done: int) -> None:
        end = "\n" if done >= total else ""
        print(f"\r{done}/{total} pairs played", end=end, file=sys.stderr, flush=True)

    return show


def cmd_connect(args: argparse.Namespace) -> int:
    from ..bot_bridge import connect

    command = list(args.engine)
    if command and command[0] == "--":
        command = command[1:]
    token = args.token or os.environ.get("COINCHE_BOT_TOKEN")
    if not command or not token:
        print("coinche connect: error: give a token (--token) and an engine command after --", file=sys.stderr)
        return 2
    log = Path(args.log) if args.log else None
    return connect(args.url, token, shlex.join(command), not args.no_accept, args.games, args.rules, args.level, log)
