"""The ``coinche`` command line's parser: its commands, their options, and the checks
argparse makes (a bad value is one line and exit status 2, never a traceback)."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from ..engine.errors import short_repr
from ..engine.rules import PROFILES, RulesError, RuleSet, parse_option_value
from ..engine.text import is_number


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


def rules_from_args(profile: str, options: Sequence[str], target: int | None) -> RuleSet:
    """The rules a command's ``--rules``, ``--option`` and ``--target`` name (``RulesError``)."""
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
    p.add_argument(
        "--coach-deals",
        type=_COUNT,
        default=3,
        metavar="N",
        help="a newcomer's first N deals against the computer come with the coach's tips (default 3; 0: "
        "only for whoever switches it on)",
    )
    p.add_argument(
        "--deal-accuracy",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="value each deal a person played as it ends and show their accuracy in its summary (default on; "
        "off: the review and the pages that ask compute it on demand)",
    )
    _play_options(p)
    p.add_argument(
        "--table-limit-per-address",
        default="100/minute",
        metavar="RATE",
        help="tables one address may open, e.g. 100/minute (default); a load test from one address raises it",
    )
    p.add_argument(
        "--signup-limit-per-address",
        default="5/hour",
        metavar="RATE",
        help="accounts one address may create, e.g. 5/hour (default); a club or a school behind one address raises it",
    )
    p.add_argument(
        "--api-limit-per-address",
        default="120/minute",
        metavar="RATE",
        help="requests one address may make to the public read API /api/v1, e.g. 120/minute (default)",
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
        "--smtp-url",
        metavar="URL",
        default=os.environ.get("COINCHE_SMTP_URL"),
        help="where the site's mail goes: smtp://[user:password@]host[:port], smtp+starttls://… or "
        "smtps://… (default: $COINCHE_SMTP_URL; none: the site sends no mail)",
    )
    p.add_argument(
        "--mail-from",
        metavar="ADDRESS",
        default="Coinche <coinche@localhost>",
        help="the From of the site's mail (default: Coinche <coinche@localhost>)",
    )
    p.add_argument(
        "--public-url",
        metavar="URL",
        help="the site's address as its people reach it, for the links in its mail "
        "(default: the first --origin, else http://HOST:PORT)",
    )
    p.add_argument(
        "--open-data-dir",
        metavar="DIR",
        default=os.environ.get("COINCHE_OPEN_DATA_DIR"),
        help="the folder of the open games database's monthly files (coinche export), listed at /open-data "
        "(default: $COINCHE_OPEN_DATA_DIR, else open-data beside an SQLite database, else none)",
    )
    p.add_argument(
        "--metrics-allow",
        metavar="NETWORKS",
        default="127.0.0.1,::1",
        help="who may read GET /metrics (Prometheus): addresses or networks separated by commas "
        "(default: 127.0.0.1,::1, the machine itself)",
    )
    _log_format(p)
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
        "--metrics-port",
        type=int,
        metavar="PORT",
        help="serve this worker's metrics (Prometheus) on http://127.0.0.1:PORT/metrics (default: none)",
    )
    _log_format(p)
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

    p = sub.add_parser("role", help="give an account a role on the site's team (moderator, admin) or take it away")
    p.add_argument("--db", help="database URL (default: $COINCHE_DATABASE_URL, else the local SQLite file)")
    p.add_argument("name", help="the account's name")
    p.add_argument("role", choices=("moderator", "admin", "none"), help="the role (none: no role any more)")

    p = sub.add_parser(
        "reset-link", help="a link (30 minutes, once) that lets an account's owner choose a new password"
    )
    p.add_argument("--db", help="database URL (default: $COINCHE_DATABASE_URL, else the local SQLite file)")
    p.add_argument("--public-url", default="http://127.0.0.1:8000", help="the site's address (default: %(default)s)")
    p.add_argument("--lang", choices=("fr", "en"), default="fr", help="the page's language (default: fr)")
    p.add_argument("name", help="the account's name")

    p = sub.add_parser(
        "backup", help="a consistent copy of the site's SQLite database, taken while the site runs (docs/operations.md)"
    )
    p.add_argument("--db", help="database URL (default: $COINCHE_DATABASE_URL, else the local SQLite file)")
    p.add_argument("--to", required=True, metavar="FILE", help="the backup file to write")
    p.add_argument("--force", action="store_true", help="replace FILE if it exists")

    p = sub.add_parser(
        "restore",
        help="put a backup in place of the site's SQLite database, the server stopped (the replaced file is kept)",
    )
    p.add_argument("--db", help="database URL (default: $COINCHE_DATABASE_URL, else the local SQLite file)")
    p.add_argument("--from", dest="source", required=True, metavar="FILE", help="the backup (coinche backup made it)")

    p = sub.add_parser(
        "export", help="the open games database: a month's finished rated games as records (docs/open-data.md)"
    )
    p.add_argument("--db", help="database URL (default: $COINCHE_DATABASE_URL, else the local SQLite file)")
    p.add_argument(
        "--month",
        required=True,
        metavar="YYYY-MM",
        help="the month (UTC) whose games to write, or last (the one before)",
    )
    p.add_argument(
        "--to", required=True, metavar="FILE", help="the file to write (.jsonl.gz), or a folder: the month's file in it"
    )
    p.add_argument("--force", action="store_true", help="replace the file if it exists")

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

    p = sub.add_parser(
        "engine-check",
        help="check that an engine program speaks the engine protocol: every message, profile and kind of action",
    )
    p.add_argument("--time-ms", type=_COUNT, default=10_000, metavar="MS", help="each decision's time (default 10000)")
    p.add_argument(
        "--short-ms", type=_COUNT, default=1000, metavar="MS", help="the time of the time-limit check (default 1000)"
    )
    p.add_argument("--seed", type=_SEED, default=1, help="the seed of the engine's hello and deals (default 1)")
    p.add_argument(
        "--rules", action="append", choices=list(PROFILES), help="check this profile only (repeatable; default: all)"
    )
    p.add_argument("--json", action="store_true", help="print the report as one JSON object")
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


def _log_format(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--log-format",
        choices=("text", "json"),
        default="text",
        help="a log line of text, or one JSON object a line with the request and table it is about (default: text)",
    )
