"""The ``coinche`` command line: play, replay, verify, score, and run the site.

Every command turns bad input into a one-line message and an exit status (1 for an
illegal call or card in a record, 2 for malformed input); no traceback reaches a user.
The parser is ``parser.py``; each module beside it holds one group of commands.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from ..engine.rules import RulesError
from .bots import cmd_arena, cmd_connect, cmd_engine, cmd_engine_check
from .games import cmd_play, cmd_score
from .parser import build_parser
from .records import cmd_replay, cmd_solve, cmd_verify
from .site import cmd_backup, cmd_export, cmd_reports, cmd_reset_link, cmd_restore, cmd_role, cmd_serve, cmd_worker


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command (``argv``: the arguments after ``coinche``); its exit status."""
    args = build_parser().parse_args(argv)
    try:
        if args.command == "play":
            return cmd_play(args)
        if args.command == "serve":
            return cmd_serve(args)
        if args.command == "worker":
            return cmd_worker(args)
        if args.command == "reports":
            return cmd_reports(args, sys.stdout)
        if args.command == "role":
            return cmd_role(args, sys.stdout)
        if args.command == "reset-link":
            return cmd_reset_link(args, sys.stdout)
        if args.command == "backup":
            return cmd_backup(args, sys.stdout)
        if args.command == "export":
            return cmd_export(args, sys.stdout)
        if args.command == "restore":
            return cmd_restore(args, sys.stdout)
        if args.command == "replay":
            return cmd_replay(args.files, args.json, sys.stdout, sys.stderr)
        if args.command == "verify":
            return cmd_verify(args.files, args.strict, sys.stdout, sys.stderr)
        if args.command == "score":
            return cmd_score(args, sys.stdout)
        if args.command == "arena":
            return cmd_arena(args, sys.stdout)
        if args.command == "engine":
            return cmd_engine(args.level)
        if args.command == "connect":
            return cmd_connect(args)
        if args.command == "engine-check":
            return cmd_engine_check(args, sys.stdout)
        if args.command == "solve":
            return cmd_solve(args.file, args.json, sys.stdout)
    except RulesError as e:
        print(f"coinche {args.command}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. piped into head): stop quietly, as Unix tools do.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    return 2
