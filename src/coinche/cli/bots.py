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


def cmd_engine_check(args: argparse.Namespace, out: TextIO) -> int:
    """``coinche engine-check -- COMMAND``: 0 when the engine conforms, 1 when not, 2 when
    the command cannot be started or an option is wrong."""
    from ..bots.base import BotLoadError
    from ..bots.engine_check import engine_check
    from ..engine.rules import PROFILES

    command = list(args.engine)
    if command and command[0] == "--":
        command = command[1:]
    problem = None
    if not command:
        problem = "give the engine's command after --: coinche engine-check -- python3 my_engine.py"
    elif not 1 <= args.short_ms <= args.time_ms:
        problem = "--short-ms must be at least 1 and at most --time-ms"
    elif args.time_ms > 600_000:
        problem = "--time-ms must be at most 600000 (10 minutes)"
    if problem:
        print(f"coinche engine-check: error: {problem}", file=sys.stderr)
        return 2
    try:
        report = engine_check(
            shlex.join(command),
            args.seed,
            args.time_ms,
            args.short_ms,
            profiles=tuple(dict.fromkeys(args.rules or PROFILES)),
        )
    except BotLoadError as e:
        print(f"coinche engine-check: error: {e}", file=sys.stderr)
        return 2
    print(json.dumps(report.to_json()) if args.json else report.format(), file=out)
    return 0 if report.conforms else 1


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
