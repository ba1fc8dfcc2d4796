"""The ``coinche`` command line: play, replay, verify, score.

Every command turns bad input into a one-line message and an exit status (1 for an
illegal call or card in a record, 2 for malformed input); no traceback reaches a user.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final, NoReturn, TextIO

from .engine.actions import call_str
from .engine.cards import SUIT_CHARS, cards_str
from .engine.deal import Deal
from .engine.dealing import check_record
from .engine.errors import EngineError, short_repr
from .engine.game import Game
from .engine.record import Record, RecordError, ReplayError, decode_record, game_answer, parse_record, replay
from .engine.rules import PROFILES, RulesError, RuleSet, parse_option_value
from .engine.scoring import ScoringError, Sweep, calculate
from .engine.text import is_number

MAX_RECORD_BYTES: Final = 64 * 1024 * 1024
"""The most read from one record file (``coinche replay /dev/zero`` must end)."""


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error on one line, with exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _whole(max_digits: int) -> Callable[[str], int]:
    """The argparse type of a whole-number option: ASCII digits only (``²`` passes
    ``str.isdigit``), a minus sign allowed, at most ``max_digits`` digits; the error repeats
    a short part of a bad value only."""

    def convert(text: str) -> int:
        t = text.strip()
        digits = t[1:] if t.startswith("-") else t
        if not is_number(digits):
            raise argparse.ArgumentTypeError(f"invalid int value: {short_repr(text)}")
        if len(digits) > max_digits:
            raise argparse.ArgumentTypeError(f"{short_repr(text)} is out of range ({len(digits)} digits)")
        return int(t)

    convert.__name__ = "int"
    return convert


_INT = _whole(100)  # the commands check the ranges themselves; int() stops at 4,300 digits
_COUNT = _whole(9)
_SEED = _whole(100)


def _rules_from_args(profile: str, options: Sequence[str], target: int | None) -> RuleSet:
    opts: dict[str, Any] = {}
    for item in options:
        name, sep, value = item.partition("=")
        if not sep:
            raise RulesError(f"--option takes name=value, not {short_repr(item)}")
        opts[name.strip()] = parse_option_value(name.strip(), value)
    if target is not None:
        opts["target"] = target
    return RuleSet.profile(profile, **opts)


def _add_rules_args(p: argparse.ArgumentParser, default: str | None = "classic") -> None:
    p.add_argument("--rules", default=default, required=default is None, choices=list(PROFILES), help="rules profile")
    p.add_argument("--target", type=_INT, help="game target (100..10000)")
    p.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="set one table option (RULES.md 5.5)"
    )


def _play_options(p: argparse.ArgumentParser) -> None:
    """The options that say how the site plays, which ``coinche serve`` and ``coinche worker``
    both take (a worker plays the servers' tables by the same settings)."""
    p.add_argument(
        "--free-deals", type=_COUNT, default=3, metavar="N", help="deals a guest plays without an account (default 3)"
    )
    p.add_argument(
        "--challenge-profile",
        choices=sorted(PROFILES),
        default="online",
        help="the rules of the daily challenge's days made from now on (default online)",
    )
    p.add_argument(
        "--challenge-level",
        choices=("beginner", "confirmed", "expert"),
        default="expert",
        help="the computers' level at the daily challenge (default expert)",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="coinche", description="Coinche (belote coinchée): play, replay and score deals.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("play", help="play a game in the terminal against three computer players")
    _add_rules_args(p)
    p.add_argument("--seed", type=_SEED, help="seed for a reproducible game")
    p.add_argument(
        "--level", default="confirmed", help="computer players: beginner, confirmed, expert, adaptive (or module:attr)"
    )

    p = sub.add_parser("serve", help="the web site: solo tables against the computer, in the browser")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=_INT, default=8000, help="port (default 8000)")
    p.add_argument("--db", help="database URL (default: $COINCHE_DATABASE_URL, else sqlite:///coinche.db)")
    p.add_argument("--bot-delay", type=float, default=0.7, help="seconds before a computer's move is shown")
    p.add_argument(
        "--trick-pause",
        type=float,
        default=1.0,
        metavar="SECONDS",
        help="seconds a complete trick stays on the table before it is gathered (default 1)",
    )
    p.add_argument("--workers", type=_COUNT, default=2, help="worker processes for the computer players")
    _play_options(p)
    p.add_argument(
        "--table-limit-per-address",
        default="100/minute",
        metavar="RATE",
        help="tables one address may open, e.g. 100/minute (default); a load test from one address raises it",
    )
    p.add_argument(
        "--idle-seconds",
        type=float,
        default=300.0,
        metavar="S",
        help="a table nobody watches leaves memory after S seconds unused (default 300)",
    )
    p.add_argument(
        "--quick-wait",
        type=float,
        default=20.0,
        metavar="S",
        help="quick play: a person waits S seconds for others before computers take the free seats (default 20)",
    )
    p.add_argument(
        "--grace-seconds",
        type=float,
        default=60.0,
        metavar="S",
        help="at a friends' table, a player whose connection dropped keeps the seat S seconds "
        "before the computer plays it (default 60)",
    )
    p.add_argument(
        "--idle-warning-seconds",
        type=float,
        default=45.0,
        metavar="S",
        help="at a friends' table, a player who has not acted S seconds at their turn is warned (default 45)",
    )
    p.add_argument(
        "--idle-move-seconds",
        type=float,
        default=90.0,
        metavar="S",
        help="...and after S seconds the computer plays that move for them (default 90)",
    )
    p.add_argument(
        "--name",
        metavar="NAME",
        help="this process's name in every log line (default: $COINCHE_PROCESS_NAME, else hostname:pid)",
    )
    p.add_argument(
        "--secret-file",
        metavar="PATH",
        help="the key that signs the cookies, kept in this file (at least 32 characters; default: "
        "$COINCHE_SECRET_KEY, else a key kept in the database)",
    )
    p.add_argument(
        "--origin",
        action="append",
        default=[],
        metavar="URL",
        help="another origin whose pages may open the tables' WebSocket, as https://host[:port] "
        "(the public address behind a proxy that rewrites Host); repeatable",
    )
    p.add_argument(
        "--forwarded-allow-ips",
        metavar="IPS",
        help="the proxies whose X-Forwarded-For and X-Forwarded-Proto are believed: addresses or "
        "networks separated by commas, or * (default: $FORWARDED_ALLOW_IPS, else 127.0.0.1)",
    )

    p = sub.add_parser(
        "worker", help="play the computers' moves of every server on a PostgreSQL database (run any number)"
    )
    p.add_argument("--db", help="PostgreSQL database URL (default: $COINCHE_DATABASE_URL)")
    p.add_argument("--processes", type=_COUNT, default=2, help="bot processes, one move each at a time (default 2)")
    _play_options(p)
    p.add_argument("--name", help="this worker's name among the workers (default: host-pid)")
    p.add_argument(
        "--lease",
        type=float,
        default=10.0,
        metavar="S",
        help="a turn this worker claimed goes to another worker S seconds after this one stops answering (default 10)",
    )

    p = sub.add_parser("reports", help="the players reported from their tables (for the site's team)")
    p.add_argument("--db", help="database URL (default: $COINCHE_DATABASE_URL, else the local SQLite file)")
    p.add_argument("--days", type=_COUNT, default=30, help="reports of the last N days (default 30)")
    p.add_argument("--json", action="store_true", help="print one JSON object per report (JSON Lines)")

    p = sub.add_parser("replay", help="check and replay deal or game records (RECORD.md)")
    p.add_argument("--json", action="store_true", help="print one JSON answer per file (JSON Lines)")
    p.add_argument("files", nargs="+", metavar="FILE")

    p = sub.add_parser(
        "verify", help="check the dealing of records: each seed gives its commitment and hands (docs/dealing.md)"
    )
    p.add_argument(
        "--strict", action="store_true", help="a deal without dealing information is an error (exit status 1)"
    )
    p.add_argument("files", nargs="+", metavar="RECORD")

    p = sub.add_parser(
        "engine", help="play a bot of this project over the engine protocol on stdin/stdout (docs/engine-protocol.md)"
    )
    p.add_argument("--level", default="expert", help="the bot (beginner, confirmed, expert, NAME@COMMIT, ...)")

    p = sub.add_parser(
        "connect",
        help="play on a site through its bot API: a protocol engine, with a bot's token (docs/bot-api.md)",
    )
    p.add_argument("--url", required=True, help="the site, e.g. https://coinche.example")
    p.add_argument("--token", help="the bot's token (or the environment's COINCHE_BOT_TOKEN)")
    p.add_argument("--no-accept", action="store_true", help="leave invitations unanswered")
    p.add_argument("--games", type=_COUNT, default=0, help="play this many games against the computers, then stop")
    p.add_argument("--rules", default="classic", help="their rules (a profile)")
    p.add_argument("--level", default="expert", help="their computers' level")
    p.add_argument("--log", help="append every event received to this file (NDJSON)")
    p.add_argument("engine", nargs=argparse.REMAINDER, metavar="-- COMMAND", help="the engine's command line")

    p = sub.add_parser("arena", help="duplicate match between two bots (each deal played twice, cards swapped)")
    _add_rules_args(p, default=None)
    p.add_argument(
        "--ns",
        required=True,
        help="bot of seats 0 and 2 (random, beginner, confirmed, expert, ..., 'cmd:COMMAND')",
    )
    p.add_argument("--ew", required=True, help="bot of seats 1 and 3")
    p.add_argument("--deals", type=_COUNT, required=True, help="number of duplicate deal pairs")
    p.add_argument("--seed", type=_SEED, default=1)
    p.add_argument("--jobs", type=_COUNT, default=1, help="worker processes")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")

    p = sub.add_parser("solve", help="double-dummy analysis of a deal record (every trump; each legal card)")
    p.add_argument("--json", action="store_true", help="print the analysis as JSON")
    p.add_argument("file", metavar="FILE")

    p = sub.add_parser("score", help="score calculator: the score of one deal")
    _add_rules_args(p, default=None)
    p.add_argument("--contract", required=True, help="contract call: 90H, 120SA, capotS, generaleTA")
    dbl = p.add_mutually_exclusive_group()
    dbl.add_argument("--coinche", action="store_true")
    dbl.add_argument("--surcoinche", action="store_true")
    p.add_argument("--points", type=_INT, required=True, help="takers' card points with the last-trick bonus")
    p.add_argument("--taker-belote", type=_INT, default=0, metavar="K", help="number of belotes of the takers")
    p.add_argument("--defense-belote", type=_INT, default=0, metavar="K", help="number of belotes of the defense")
    p.add_argument("--taker-melds", type=_INT, default=0, metavar="N", help="valid meld points of the takers")
    p.add_argument("--defense-melds", type=_INT, default=0, metavar="N", help="valid meld points of the defense")
    p.add_argument("--sweep", choices=["taker", "taker-alone", "defense"], help="who won all eight tricks")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    return parser


def _cmd_connect(args: argparse.Namespace) -> int:
    from .bot_bridge import connect

    command = list(args.engine)
    if command and command[0] == "--":
        command = command[1:]
    token = args.token or os.environ.get("COINCHE_BOT_TOKEN")
    if not command or not token:
        print("coinche connect: error: give a token (--token) and an engine command after --", file=sys.stderr)
        return 2
    log = Path(args.log) if args.log else None
    return connect(args.url, token, shlex.join(command), not args.no_accept, args.games, args.rules, args.level, log)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "play":
            return _cmd_play(args)
        if args.command == "serve":
            return _cmd_serve(args)
        if args.command == "worker":
            return _cmd_worker(args)
        if args.command == "reports":
            return _cmd_reports(args, sys.stdout)
        if args.command == "replay":
            return _cmd_replay(args.files, args.json, sys.stdout, sys.stderr)
        if args.command == "verify":
            return _cmd_verify(args.files, args.strict, sys.stdout, sys.stderr)
        if args.command == "score":
            return _cmd_score(args, sys.stdout)
        if args.command == "arena":
            return _cmd_arena(args, sys.stdout)
        if args.command == "engine":
            return _cmd_engine(args.level)
        if args.command == "connect":
            return _cmd_connect(args)
        if args.command == "solve":
            return _cmd_solve(args.file, args.json, sys.stdout)
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


def _cmd_reports(args: argparse.Namespace, out: TextIO) -> int:
    """The reports of the last ``--days`` days, newest first, and how often each person
    was reported by how many people."""
    from datetime import UTC, datetime, timedelta

    from .server.features.following import FollowingStore
    from .server.infra.config import default_database_url
    from .server.infra.store import Store

    store = Store(args.db or default_database_url())
    try:
        found = FollowingStore(store).reports(datetime.now(UTC) - timedelta(days=args.days))
    finally:
        store.close()
    if args.json:
        for r in found:
            entry = {
                "at": r.created_at.isoformat(),
                "table": r.table_id,
                "reporter": r.reporter,
                "reported": r.reported,
                "reported_id": r.reported_id,
                "reason": r.reason,
            }
            print(json.dumps(entry, ensure_ascii=False), file=out)
        return 0
    if not found:
        print(f"no report in the last {args.days} days", file=out)
        return 0
    for r in found:
        line = f"{r.created_at:%Y-%m-%d %H:%M}  {r.table_id}  {r.reporter!r} reported {r.reported!r}: {r.reason}"
        print(line, file=out)
    by_person: dict[str, set[str]] = {}
    for r in found:
        by_person.setdefault(f"{r.reported!r} ({r.reported_id})", set()).add(r.reporter)
    print("", file=out)
    for person, reporters in sorted(by_person.items(), key=lambda item: -len(item[1])):
        print(f"{person}: reported by {len(reporters)}", file=out)
    return 0


def _cmd_serve(args: argparse.Namespace) -> int:
    import math

    from limits import parse as parse_rate

    from .server.infra.config import (
        SecretKeyError,
        Settings,
        default_database_url,
        read_secret_file,
        secret_key_of_environment,
    )
    from .server.infra.process_logs import default_name, valid_name
    from .server.web import drain
    from .server.web.app import create_app
    from .server.web.security import normalise_origin
    from .server.web.ws_protocol import AnsweringWebSocketProtocol

    if not math.isfinite(args.bot_delay) or not 0 <= args.bot_delay <= 10:
        print("coinche serve: error: --bot-delay must be between 0 and 10 seconds", file=sys.stderr)
        return 2
    if not math.isfinite(args.trick_pause) or not 0 <= args.trick_pause <= 10:
        print("coinche serve: error: --trick-pause must be between 0 and 10 seconds", file=sys.stderr)
        return 2
    if not 0 < args.port < 65536:
        print("coinche serve: error: --port must be between 1 and 65535", file=sys.stderr)
        return 2
    if args.free_deals < 0:
        print("coinche serve: error: --free-deals must be 0 or more", file=sys.stderr)
        return 2
    if not math.isfinite(args.idle_seconds) or not 1 <= args.idle_seconds <= 86_400:
        print("coinche serve: error: --idle-seconds must be between 1 and 86400", file=sys.stderr)
        return 2
    for flag, value in (
        ("--grace-seconds", args.grace_seconds),
        ("--quick-wait", args.quick_wait),
        ("--idle-warning-seconds", args.idle_warning_seconds),
        ("--idle-move-seconds", args.idle_move_seconds),
    ):
        if not math.isfinite(value) or not 0.5 <= value <= 86_400:
            print(f"coinche serve: error: {flag} must be between 0.5 and 86400", file=sys.stderr)
            return 2
    if args.idle_move_seconds <= args.idle_warning_seconds:
        print("coinche serve: error: --idle-move-seconds must be more than --idle-warning-seconds", file=sys.stderr)
        return 2
    try:
        parse_rate(args.table_limit_per_address)
    except ValueError:
        print(
            f"coinche serve: error: --table-limit-per-address takes a rate such as 100/minute, "
            f"not {short_repr(args.table_limit_per_address)}",
            file=sys.stderr,
        )
        return 2
    origins = tuple(normalise_origin(text) for text in args.origin)
    for text, origin in zip(args.origin, origins, strict=True):
        if origin is None:
            print(
                f"coinche serve: error: --origin takes scheme://host[:port] (http or https, no path), "
                f"not {short_repr(text)}",
                file=sys.stderr,
            )
            return 2
    proxies = forwarded_allow_ips(args.forwarded_allow_ips)
    if proxies is None:
        print(
            "coinche serve: error: --forwarded-allow-ips takes addresses or networks separated by commas "
            f"(127.0.0.1, 10.0.0.0/8), or *, not {short_repr(args.forwarded_allow_ips)}",
            file=sys.stderr,
        )
        return 2
    name = default_name() if args.name is None else args.name
    if not valid_name(name):
        print(
            f"coinche serve: error: the process name (--name or $COINCHE_PROCESS_NAME) takes 1 to 64 letters, "
            f"digits and ._:@/-, not {short_repr(name)}",
            file=sys.stderr,
        )
        return 2
    try:
        secret_key = read_secret_file(args.secret_file) if args.secret_file else secret_key_of_environment()
    except SecretKeyError as e:
        print(f"coinche serve: error: {e}", file=sys.stderr)
        return 2
    settings = Settings(
        database_url=args.db or default_database_url(),
        secret_key=secret_key,
        bot_delay=args.bot_delay,
        trick_pause=args.trick_pause,
        bot_workers=args.workers,
        free_deals=args.free_deals,
        idle_seconds=args.idle_seconds,
        grace_seconds=args.grace_seconds,
        quick_wait_seconds=args.quick_wait,
        idle_warning_seconds=args.idle_warning_seconds,
        idle_move_seconds=args.idle_move_seconds,
        table_limit_per_address=args.table_limit_per_address,
        challenge_profile=args.challenge_profile,
        challenge_level=args.challenge_level,
        allowed_origins=tuple(o for o in origins if o is not None),
        process_name=name,
    )
    try:
        app = create_app(settings)
    except Exception as e:  # a database that cannot be opened or migrated
        print(f"coinche serve: error: cannot open the database {settings.database_url}: {e}", file=sys.stderr)
        return 2
    print(f"Coinche: open http://{args.host}:{args.port}/ in your browser (Ctrl+C stops the server)", flush=True)
    # SIGTERM drains (the table sockets told to reconnect elsewhere), then stops.
    drain.serve(
        app,
        settings.process_name,
        host=args.host,
        port=args.port,
        log_level="warning",
        ws=AnsweringWebSocketProtocol,  # answers a handshake with headers over 8 KB (431)
        ws_max_size=settings.max_frame_bytes,  # a bigger frame closes the connection (1009)
        ws_per_message_deflate=False,
        proxy_headers=True,  # the client's address and scheme from the trusted proxies below
        forwarded_allow_ips=proxies,
    )
    return 0


def forwarded_allow_ips(text: str | None) -> str | None:
    """The proxies uvicorn trusts, checked: ``text`` (else ``$FORWARDED_ALLOW_IPS``, else
    127.0.0.1) as a comma-separated list of addresses or networks, or ``*``; None if it is
    none of those. Only these proxies' ``X-Forwarded-For`` names the client the per-address
    limits count, and only their ``X-Forwarded-Proto: https`` makes the cookies ``Secure``."""
    import ipaddress

    if text is None:
        text = os.environ.get("FORWARDED_ALLOW_IPS") or "127.0.0.1"
    if len(text) > 4000:
        return None
    items = [item.strip() for item in text.split(",")]
    if items == ["*"]:
        return "*"
    for item in items:
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError:
            return None
    return ",".join(items)


def _cmd_worker(args: argparse.Namespace) -> int:
    import math

    from .server.infra.backend import Backend
    from .server.infra.config import Settings, default_database_url
    from .server.infra.process_logs import valid_name
    from .server.worker import run_worker

    url = args.db or default_database_url()
    if not Backend.of(url).shared:
        message = "the workers need a PostgreSQL database (--db postgresql+psycopg://...)"
        print(f"coinche worker: error: {message}", file=sys.stderr)
        return 2
    if not math.isfinite(args.lease) or not 0.5 <= args.lease <= 3600:
        print("coinche worker: error: --lease must be between 0.5 and 3600 seconds", file=sys.stderr)
        return 2
    if args.name is not None and not valid_name(args.name):
        print(
            "coinche worker: error: --name takes 1 to 64 letters, digits and ._:@/- (it names the worker in the logs)",
            file=sys.stderr,
        )
        return 2
    settings = Settings(
        database_url=url,
        bot_workers=args.processes,
        free_deals=args.free_deals,
        challenge_profile=args.challenge_profile,
        challenge_level=args.challenge_level,
        **({"process_name": args.name} if args.name is not None else {}),
    )
    try:
        return run_worker(settings, args.lease)
    except Exception as e:  # a database that cannot be opened or migrated
        print(f"coinche worker: error: cannot serve the database: {e}", file=sys.stderr)
        return 2


def _cmd_play(args: argparse.Namespace) -> int:
    from .terminal import run_play

    rules = _rules_from_args(args.rules, args.option, args.target)
    return run_play(rules, args.seed, sys.stdin, sys.stdout, level=args.level)


def _cmd_arena(args: argparse.Namespace, out: TextIO) -> int:
    from .bots.arena import run_arena
    from .bots.base import BotLoadError

    rules = _rules_from_args(args.rules, args.option, args.target)
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


def _cmd_engine(level: str) -> int:
    from .bots.base import BotLoadError
    from .bots.engine_protocol import serve
    from .bots.loading import bot_factory

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


def _cmd_solve(path: str, as_json: bool, out: TextIO) -> int:
    from .bots.analysis import analyse_deal, card_values, format_table
    from .engine.cards import card_str
    from .engine.deal import Phase

    try:
        _record, game = _load_file(path)  # read once: FILE may be a pipe or /dev/stdin
    except _Refused as refused:
        print(f"{_path_text(path)}: {refused.message}", file=sys.stderr)
        return 1 if refused.kind == "illegal" else 2
    docs = []
    for n, deal in enumerate(game.deals, start=1):
        rows = analyse_deal(deal.rules, deal.dealer, deal.dealt)
        values = card_values(deal) if deal.phase is Phase.PLAY and deal.contract is not None else {}
        if as_json:
            docs.append(
                {
                    "deal": n,
                    "trumps": [r.to_json() for r in rows],
                    "to_move": deal.to_move if values else None,
                    "card_values": {card_str(c): v for c, v in sorted(values.items())},
                }
            )
            continue
        print(
            f"deal {n}: dealer seat {deal.dealer}, double-dummy card points (lead by seat {(deal.dealer + 1) & 3})",
            file=out,
        )
        print(format_table(rows), file=out)
        if values:
            print(f"position: seat {deal.to_move} to play; points its team secures after each card:", file=out)
            for c, v in sorted(values.items(), key=lambda cv: -cv[1]):
                print(f"  {card_str(c)}: {v}", file=out)
    if as_json:
        print(json.dumps(docs if len(docs) > 1 else docs[0]), file=out)
    return 0


def _cmd_score(args: argparse.Namespace, out: TextIO) -> int:
    rules = _rules_from_args(args.rules, args.option, args.target)
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


def _cmd_replay(files: Sequence[str], as_json: bool, out: TextIO, err: TextIO) -> int:
    status = 0
    for path in files:
        kind, message, answer, text = _replay_file(path)
        if kind is None:
            assert answer is not None
            print(json.dumps(answer, ensure_ascii=False) if as_json else text, file=out)
            continue
        status = max(status, 1 if kind == "illegal" else 2)
        print(f"{_path_text(path)}: {message}", file=err)
        if as_json:
            print(json.dumps({"error": kind, "message": message}, ensure_ascii=False), file=out)
    return status


def _cmd_verify(files: Sequence[str], strict: bool, out: TextIO, err: TextIO) -> int:
    """Each deal of each record that carries ``dealing``: do its seed's commitment and
    hands match? Exit status 1 if one does not (or, with ``strict``, if a deal carries no
    dealing information), 2 if a file is no record."""
    status = 0
    for path in files:
        name = _path_text(path)
        try:
            checks = check_record(_read_data(path))
        except _Refused as refused:
            print(f"{name}: {refused.message}", file=err)
            status = 2
            continue
        except EngineError as e:
            print(f"{name}: {e}", file=err)
            status = 2
            continue
        for check in checks:
            if check.info is None:
                print(f"{name}: deal {check.number}: not verifiable (no dealing information)", file=out)
                if strict:
                    status = max(status, 1)
            elif check.ok:
                print(f"{name}: deal {check.number}: hands and commitment check", file=out)
            else:
                status = max(status, 1)
                for problem in check.problems:
                    print(f"{name}: deal {check.number}: {problem}", file=out)
    return status


def _path_text(path: str) -> str:
    """A file name any output can print: the bytes of a name that is not UTF-8 (which
    Python holds as lone surrogates) shown as ``\\xff`` escapes."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return os.fsencode(path).decode("utf-8", "backslashreplace")
    return path


class _Refused(Exception):
    """A record file that cannot be replayed: ``kind`` is ``malformed`` or ``illegal``."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


def _read_data(path: str) -> Any:
    """The JSON data of one record file, read at most ``MAX_RECORD_BYTES`` and once
    (FILE may be a pipe); ``_Refused`` says why it cannot be."""
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_RECORD_BYTES + 1)
    except OSError as e:
        raise _Refused("malformed", f"cannot read the file: {e.strerror or e}") from None
    if len(raw) > MAX_RECORD_BYTES:
        raise _Refused("malformed", f"not a usable record: larger than {MAX_RECORD_BYTES >> 20} MiB")
    try:
        data = decode_record(raw)
    except RecordError as e:
        raise _Refused("malformed", str(e)) from None
    finally:
        del raw
    return data


def _load_file(path: str) -> tuple[Record, Game]:
    """Read, parse and replay one record file; ``_Refused`` says why it cannot be."""
    data = _read_data(path)
    try:
        record = parse_record(data)
        game = replay(record)
    except ReplayError as e:
        raise _Refused("illegal", str(e)) from None
    except EngineError as e:  # RecordError, and any other refusal of the engine: malformed
        raise _Refused("malformed", str(e)) from None
    return record, game


def _replay_file(path: str) -> tuple[str | None, str, dict[str, Any] | None, str]:
    """Replay one file: (error kind or None, error message, answer, readable text)."""
    try:
        record, game = _load_file(path)
    except _Refused as refused:
        return refused.kind, refused.message, None, ""
    answer = game_answer(game, record.is_game)
    return None, "", answer, _readable(_path_text(path), record.rules, game.deals, answer, record.is_game)


def _readable(path: str, rules: RuleSet, deals: Sequence[Deal], answer: dict[str, Any], is_game: bool) -> str:
    from .server.table.seating import compass_names  # the seats' names have one owner

    lines = [f"{path}: {rules.name} rules" + (f", options {rules.options()}" if rules.options() else "")]
    answers = answer["deals"] if is_game else [answer]
    for n, (deal, a) in enumerate(zip(deals, answers, strict=True), start=1):
        names = compass_names(rules.direction, 0)  # seat 0 seen as South, as the table names them
        lines.append(f"deal {n}: dealer {names[deal.dealer]} (seat {deal.dealer})")
        for s in range(4):
            lines.append(f"  seat {s} {names[s]:<5}: {cards_str(deal.dealt[s])}")
        calls = [f"{call_str(c)}({(deal.dealer + 1 + i) & 3})" for i, c in enumerate(deal.auction.calls)]
        lines.append("  auction: " + (" ".join(calls) if calls else "-"))
        c = a["contract"]
        if c is None:
            lines.append("  void deal: four passes" if deal.is_over else "  auction unfinished")
            if is_game and deal.is_over:
                lines.append(f"  totals {a['totals'][0]} - {a['totals'][1]}")
            continue
        mult = {1: "", 2: " coinched", 3: " surcoinched", 4: " surcoinched"}[c["multiplier"]]
        lines.append(f"  contract: {deal.contract.call if deal.contract else ''} by seat {c['taker']}{mult}")
        for i, t in enumerate(a["tricks"], start=1):
            lines.append(
                f"  trick {i}: seat {t['leader']} leads {' '.join(t['cards'])} -> seat {t['winner']} wins {t['points']}"
            )
        for b in deal.belotes:
            note = "" if b.counts else " (does not count: announced only on the second card)"
            lines.append(f"  {b.at} by seat {b.seat} in {SUIT_CHARS[b.suit]}{note}")
        for s, melds in enumerate(deal.shown):
            if melds:
                lines.append(f"  melds shown by seat {s}: {', '.join(m.name for m in melds)}")
        if a["made"] is None:
            lines.append(f"  unfinished: card points so far {a['card_points'][0]} - {a['card_points'][1]}")
            continue
        lines.append(
            f"  card points {a['card_points'][0]} - {a['card_points'][1]}, belote {a['belote'][0]} - "
            f"{a['belote'][1]}, melds {a['melds'][0]} - {a['melds'][1]}"
        )
        lines.append(f"  {'made' if a['made'] else 'failed'}: score {a['score'][0]} - {a['score'][1]}")
        for step in a["steps"]:
            lines.append(f"    {step}")
        if is_game:
            lines.append(f"  totals {a['totals'][0]} - {a['totals'][1]}")
    if is_game:
        w = answer["winner"]
        lines.append(
            f"totals {answer['totals'][0]} - {answer['totals'][1]}: "
            + (f"team {w} wins" if w is not None else "no winner yet")
        )
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
