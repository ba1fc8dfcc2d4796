"""The database a benchmark runs on: a temporary SQLite file by default, ``--postgres`` a
PostgreSQL cluster of its own (started from Debian's binaries like the tests', removed at
the end), or ``--db URL`` an existing empty database."""

from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "server"))


def add_database_args(parser: argparse.ArgumentParser) -> None:
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--postgres", action="store_true", help="a PostgreSQL cluster of the benchmark's own")
    where.add_argument("--db", help="an empty database's URL (default: a temporary SQLite file)")


@contextlib.contextmanager
def database_url(args: argparse.Namespace, name: str = "bench.db") -> Iterator[str]:
    """The URL of an empty database, as the arguments ask."""
    if args.db:
        yield args.db
    elif args.postgres:
        from postgres_cluster import running_cluster

        with running_cluster() as cluster:
            yield cluster.new_database(schema=False)
    else:
        with tempfile.TemporaryDirectory() as folder:
            yield f"sqlite:///{Path(folder) / name}"
