"""A PostgreSQL server of the tests' own: a cluster in a temporary folder, on a free loopback
port, started with Debian's ``initdb`` and ``pg_ctl`` and removed at the end.

``initdb`` refuses to run as root: as root (CI), the cluster belongs to the ``postgres``
user the Debian package creates, and its commands run as that user. Each test gets a
database of its own, copied from a template that has the schema already (``CREATE DATABASE
... TEMPLATE``: a copy takes a few milliseconds, the migrations a second).
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from server_helpers import free_port

TEMPLATE = "coinche_template"


def postgres_bin() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl`` (Debian keeps them off PATH), or None."""
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    return Path(versions[-1]).parent if versions else None


class PostgresCluster:
    """A running cluster: ``url(name)`` of a database in it, ``new_database()`` a fresh one
    with the schema, ``stop()`` at the end."""

    def __init__(self) -> None:
        bindir = postgres_bin()
        if bindir is None:
            raise RuntimeError("PostgreSQL is not installed (apt-get install postgresql)")
        self.bindir = bindir
        self.folder = Path(tempfile.mkdtemp(prefix="coinche-pg-"))
        self.data = self.folder / "data"
        self.port = free_port()
        self.as_postgres = os.geteuid() == 0
        if self.as_postgres:
            shutil.chown(self.folder, "postgres", "postgres")
        self._count = 0
        self._lock = threading.Lock()
        self._run(
            "initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8", "--locale=C"
        )
        options = (
            f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
            " -c synchronous_commit=off -c full_page_writes=off -c max_connections=300"
        )
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.folder / "log"), "-o", options, "-w", "start")
        self._template_ready = False

    def _run(self, tool: str, *args: str) -> None:
        command = [str(self.bindir / tool), *args]
        if self.as_postgres:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, cwd=self.folder)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def _admin(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres", autocommit=True) as c:
            c.execute(sql)  # type: ignore[arg-type]  # the tests' own names only

    def new_database(self, schema: bool = True) -> str:
        """The URL of a new, empty database (with the schema when ``schema``)."""
        with self._lock:
            self._count += 1
            name = f"test_{self._count}"
            if schema and not self._template_ready:
                from coinche.server.infra.db import make_engine, migrate

                self._admin(f"CREATE DATABASE {TEMPLATE}")
                engine = make_engine(self.url(TEMPLATE))
                migrate(engine)
                engine.dispose()
                self._template_ready = True
            self._admin(f"CREATE DATABASE {name}" + (f" TEMPLATE {TEMPLATE}" if schema else ""))
        return self.url(name)

    def stop(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)


@contextlib.contextmanager
def running_cluster() -> Iterator[PostgresCluster]:
    cluster = PostgresCluster()
    try:
        yield cluster
    finally:
        cluster.stop()


if __name__ == "__main__":  # a cluster for trying things by hand: its URL, then Ctrl+C
    with running_cluster() as c:
        print(c.url(), flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            while True:
                time.sleep(3600)
