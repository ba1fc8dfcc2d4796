"""The commands that run the site: ``serve`` (the web server), ``worker`` (the computers'
moves on PostgreSQL) and ``reports`` (the players reported, for the site's team).

Each checks its options before it opens anything: a bad one is one line and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TextIO

from ..engine.errors import short_repr


def cmd_serve(args: argparse.Namespace) -> int:
    import math
    from pathlib import Path

    from limits import parse as parse_rate

    from ..server.features.mail import SmtpServer
    from ..server.features.open_data import default_folder
    from ..server.infra.config import (
        SecretKeyError,
        Settings,
        default_database_url,
        read_secret_file,
        secret_key_of_environment,
    )
    from ..server.infra.process_logs import default_name, valid_name
    from ..server.web import drain
    from ..server.web.app import create_app
    from ..server.web.security import normalise_origin
    from ..server.web.ws_protocol import AnsweringWebSocketProtocol

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
    for flag, rate in (
        ("--table-limit-per-address", args.table_limit_per_address),
        ("--signup-limit-per-address", args.signup_limit_per_address),
        ("--api-limit-per-address", args.api_limit_per_address),
    ):
        try:
            parse_rate(rate)
        except ValueError:
            print(
                f"coinche serve: error: {flag} takes a rate such as 100/minute, not {short_repr(rate)}", file=sys.stderr
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
    metrics_allow = networks(args.metrics_allow)
    if metrics_allow is None or metrics_allow == ("*",):
        print(
            "coinche serve: error: --metrics-allow takes addresses or networks separated by commas "
            f"(127.0.0.1, 10.0.0.0/8), not {short_repr(args.metrics_allow)}",
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
    public_url = normalise_origin(args.public_url) if args.public_url else None
    if args.public_url and public_url is None:
        print(
            f"coinche serve: error: --public-url takes scheme://host[:port], not {short_repr(args.public_url)}",
            file=sys.stderr,
        )
        return 2
    public_url = public_url or next((o for o in origins if o is not None), None) or f"http://{args.host}:{args.port}"
    if args.smtp_url:
        try:
            SmtpServer.parse(args.smtp_url)
        except ValueError as e:
            print(f"coinche serve: error: --smtp-url: {e}", file=sys.stderr)
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
        coach_deals=args.coach_deals,
        deal_accuracy=args.deal_accuracy,
        idle_seconds=args.idle_seconds,
        grace_seconds=args.grace_seconds,
        quick_wait_seconds=args.quick_wait,
        idle_warning_seconds=args.idle_warning_seconds,
        idle_move_seconds=args.idle_move_seconds,
        table_limit_per_address=args.table_limit_per_address,
        signup_limit=args.signup_limit_per_address,
        public_api_limit=args.api_limit_per_address,
        challenge_profile=args.challenge_profile,
        challenge_level=args.challenge_level,
        allowed_origins=tuple(o for o in origins if o is not None),
        process_name=name,
        smtp_url=args.smtp_url or None,
        mail_from=args.mail_from,
        public_url=public_url,
        metrics_allow=metrics_allow,
        open_data_dir=Path(args.open_data_dir)
        if args.open_data_dir
        else default_folder(args.db or default_database_url()),
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
        loop=event_loop(),
        ws=AnsweringWebSocketProtocol,  # answers a handshake with headers over 8 KB (431)
        ws_max_size=settings.max_frame_bytes,  # a bigger frame closes the connection (1009)
        ws_per_message_deflate=False,
        proxy_headers=True,  # the client's address and scheme from the trusted proxies below
        forwarded_allow_ips=proxies,
        json_lines=args.log_format == "json",
    )
    return 0


def event_loop() -> str:
    """uvicorn's event loop: uvloop where it is installed (a dependency, but for Windows),
    whose loop costs the server less CPU an action than asyncio's; else asyncio's."""
    import importlib.util

    return "uvloop" if importlib.util.find_spec("uvloop") is not None else "asyncio"


def forwarded_allow_ips(text: str | None) -> str | None:
    """The proxies uvicorn trusts, checked: ``text`` (else ``$FORWARDED_ALLOW_IPS``, else
    127.0.0.1) as a comma-separated list of addresses or networks, or ``*``; None if it is
    none of those. Only these proxies' ``X-Forwarded-For`` names the client the per-address
    limits count, and only their ``X-Forwarded-Proto: https`` makes the cookies ``Secure``."""
    if text is None:
        text = os.environ.get("FORWARDED_ALLOW_IPS") or "127.0.0.1"
    items = networks(text)
    return None if items is None else ",".join(items)


def networks(text: str) -> tuple[str, ...] | None:
    """``text``'s comma-separated addresses or networks (``10.0.0.0/8``), or ``("*",)``;
    None if it holds anything else."""
    import ipaddress

    if len(text) > 4000:
        return None
    items = tuple(item.strip() for item in text.split(","))
    if items == ("*",):
        return items
    for item in items:
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError:
            return None
    return items


def cmd_worker(args: argparse.Namespace) -> int:
    import math

    from ..server.infra.backend import Backend
    from ..server.infra.config import Settings, default_database_url
    from ..server.infra.process_logs import valid_name
    from ..server.worker import run_worker

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
    if args.metrics_port is not None and not 0 < args.metrics_port < 65536:
        print("coinche worker: error: --metrics-port must be between 1 and 65535", file=sys.stderr)
        return 2
    try:
        return run_worker(settings, args.lease, args.metrics_port, args.log_format == "json")
    except Exception as e:  # a database that cannot be opened or migrated
        print(f"coinche worker: error: cannot serve the database: {e}", file=sys.stderr)
        return 2


def cmd_role(args: argparse.Namespace, out: TextIO) -> int:
    """Give the account ``args.name`` the role ``args.role`` on the site's team (``none``:
    take it away); it counts at its next request, on every server."""
    from datetime import UTC, datetime

    from ..server.features.moderation import ModerationStore
    from ..server.infra.config import default_database_url
    from ..server.infra.store import Store

    store = Store(args.db or default_database_url())
    try:
        role = None if args.role == "none" else args.role
        found = ModerationStore(store).set_role(args.name, role, datetime.now(UTC))
    finally:
        store.close()
    if found is None:
        print(f"coinche role: error: no account is named {args.name!r}", file=sys.stderr)
        return 1
    print(f"{args.name}: {role or 'no role'}", file=out)
    return 0


def cmd_reset_link(args: argparse.Namespace, out: TextIO) -> int:
    """Print a reset link for the account ``args.name``: the operator hands it over by other
    means (a site without mail, an owner without an address)."""
    from datetime import UTC, datetime

    from ..server.features.account_recovery import PATHS, RESET_MINUTES, RecoveryStore
    from ..server.infra.config import default_database_url
    from ..server.infra.store import Store
    from ..server.web.security import normalise_origin

    base = normalise_origin(args.public_url)
    if base is None:
        print(
            f"coinche reset-link: error: --public-url takes scheme://host[:port], not {short_repr(args.public_url)}",
            file=sys.stderr,
        )
        return 2
    store = Store(args.db or default_database_url())
    try:
        link = RecoveryStore(store).operator_link(args.name, datetime.now(UTC))
    finally:
        store.close()
    if link is None:
        print(f"coinche reset-link: error: no account is named {short_repr(args.name)}", file=sys.stderr)
        return 1
    print(f"{base}{PATHS[args.lang]['reset']}/{link.token}", file=out)
    print(f"for {link.name}: good once, for {RESET_MINUTES} minutes", file=sys.stderr)
    return 0


def cmd_backup(args: argparse.Namespace, out: TextIO) -> int:
    """Copy the site's SQLite database into ``--to FILE`` while the site runs; a refusal
    (PostgreSQL, FILE there already, no database) is one line and exit status 2."""
    from pathlib import Path

    from ..server.infra.backups import BackupError, backup
    from ..server.infra.config import default_database_url

    try:
        done = backup(args.db or default_database_url(), Path(args.to), force=args.force)
    except BackupError as e:
        print(f"coinche backup: error: {e}", file=sys.stderr)
        return e.status
    print(
        f"backed up {done.source} into {done.path}: {megabytes(done.size)}, {done.pages} pages, "
        f"{done.seconds:.2f} s (schema revision {done.revision})",
        file=out,
    )
    return 0


def cmd_export(args: argparse.Namespace, out: TextIO) -> int:
    """Write a month's finished rated games as the open games database's file
    (``features/open_data.py``); a refusal (a bad month, the file there already) is one
    line and exit status 2."""
    from datetime import UTC, datetime
    from pathlib import Path

    from sqlalchemy.engine import make_url

    from ..server.features.open_data import ExportError, default_folder, export, month_bounds
    from ..server.infra.config import default_database_url
    from ..server.infra.store import Store

    try:
        month_bounds(args.month, datetime.now(UTC))  # checked before the database is opened
    except ExportError as e:
        print(f"coinche export: error: {e}", file=sys.stderr)
        return 2
    if args.to.endswith(("/", os.sep)) and not Path(args.to).is_dir():  # a folder meant: never a file of its name
        print(f"coinche export: error: no folder {short_repr(args.to)} to write into", file=sys.stderr)
        return 2
    url = args.db or default_database_url()
    folder = default_folder(url)  # an SQLite file's folder (the default of the site's files)
    if folder is not None and not folder.with_name(Path(make_url(url).database or "").name).is_file():
        print(f"coinche export: error: no database at {url} (--db or $COINCHE_DATABASE_URL)", file=sys.stderr)
        return 2
    try:
        store = Store(url)
    except Exception as e:  # a database that cannot be opened or migrated
        print(f"coinche export: error: cannot open the database {url}: {short_repr(str(e))}", file=sys.stderr)
        return 2
    try:
        done = export(store, args.month, Path(args.to), datetime.now(UTC), force=args.force)
    except ExportError as e:
        print(f"coinche export: error: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"coinche export: error: cannot write {short_repr(args.to)}: {e.strerror or e}", file=sys.stderr)
        return 2
    finally:
        store.close()
    print(
        f"exported {done.games} games of {done.month} into {done.path}: {megabytes(done.size)}, "
        f"sha256 {done.sha256}, {done.seconds:.2f} s",
        file=out,
    )
    if done.unread:
        shown = ", ".join(done.unread[:10])
        print(f"coinche export: {len(done.unread)} games left out, their logs unreadable: {shown}", file=sys.stderr)
    return 0


def cmd_restore(args: argparse.Namespace, out: TextIO) -> int:
    """Put the backup ``--from FILE`` in place of the site's SQLite database (the server
    stopped); the database it replaces is kept beside it."""
    from pathlib import Path

    from ..server.infra.backups import BackupError, restore
    from ..server.infra.config import default_database_url

    try:
        done = restore(Path(args.source), args.db or default_database_url())
    except BackupError as e:
        print(f"coinche restore: error: {e}", file=sys.stderr)
        return e.status
    print(
        f"restored {args.source} into {done.path} ({megabytes(done.size)}, schema revision {done.revision})", file=out
    )
    if done.kept is not None:
        print(f"the database it replaced is kept as {done.kept}", file=out)
    if not done.current:
        print("coinche serve brings its schema up to date at its start (migrations)", file=out)
    return 0


def megabytes(size: int) -> str:
    return f"{size / 1_000_000:.1f} MB"


def cmd_reports(args: argparse.Namespace, out: TextIO) -> int:
    """The reports of the last ``--days`` days, newest first, and how often each person
    was reported by how many people."""
    from datetime import UTC, datetime, timedelta

    from ..server.features.following import FollowingStore
    from ..server.infra.config import default_database_url
    from ..server.infra.store import Store

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
