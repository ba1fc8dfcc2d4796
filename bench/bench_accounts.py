"""How long sign-up and log-in take, as a visitor sees them: the site's own argon2id
parameters on a real ``coinche serve`` (loopback, a temporary SQLite file).

For each of ``--accounts`` new visitors: the sign-up page, then its form (timed), log-out,
then the log-in form (timed). Prints the medians, p95 and max of both, and the hash's
parameters. The server keeps the site's rate limits, so at most 5 sign-ups (an hour, from
one address).

    python bench/bench_accounts.py [--accounts 4]
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

CSRF = re.compile(r'name="csrf" value="([^"]+)"')
PASSWORD = "a fairly long password"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Visitor:
    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, form: dict[str, str] | None = None) -> tuple[int, str, float]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        start = time.perf_counter()
        try:
            conn.request(method, path, body, headers)
            r = conn.getresponse()
            text = r.read().decode()
            elapsed = time.perf_counter() - start
            for name, value in r.getheaders():
                if name.lower() == "set-cookie":
                    key, _, rest = value.partition("=")
                    self.cookies[key] = rest.split(";", 1)[0]
            return r.status, text, elapsed
        finally:
            conn.close()

    def token(self, path: str) -> str:
        status, text, _ = self.request("GET", path)
        found = CSRF.search(text)
        if status != 200 or found is None:
            raise SystemExit(f"GET {path}: {status}, no form")
        return found[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--accounts", type=int, default=4)
    args = ap.parse_args()
    if not 1 <= args.accounts <= 5:
        ap.error("--accounts 1..5 (the site's sign-up limit per address is 5 an hour)")
    from coinche.server.infra.config import Settings

    site = Settings()
    with tempfile.TemporaryDirectory(prefix="coinche-bench-") as tmp:
        port = free_port()
        command = [sys.executable, "-m", "coinche.cli", "serve", "--host", "127.0.0.1", "--port", str(port)]
        command += ["--db", f"sqlite:///{Path(tmp) / 'bench.db'}", "--workers", "1"]
        env = {k: v for k, v in os.environ.items() if k != "COINCHE_DATABASE_URL"}
        with (Path(tmp) / "server.log").open("w") as log:
            proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=tmp)
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    Visitor(port).request("GET", "/")
                    break
                except OSError:
                    if time.monotonic() > deadline or proc.poll() is not None:
                        raise SystemExit("the server did not start") from None
                    time.sleep(0.2)
            signups: list[float] = []
            logins: list[float] = []
            for i in range(args.accounts):
                v = Visitor(port)
                name = f"Bench_{i}_{os.getpid() % 1000}"
                form = {"csrf": v.token("/inscription"), "name": name, "password": PASSWORD, "confirm": PASSWORD}
                status, _, took = v.request("POST", "/inscription", form)
                if status != 303:
                    raise SystemExit(f"sign-up: {status}")
                signups.append(took)
                v.request("POST", "/deconnexion", {"csrf": v.token("/compte")})
                form = {"csrf": v.token("/connexion"), "name": name, "password": PASSWORD}
                status, _, took = v.request("POST", "/connexion", form)
                if status != 303:
                    raise SystemExit(f"log-in: {status}")
                logins.append(took)
        finally:
            proc.terminate()
            proc.wait(timeout=30)

    def figures(xs: list[float]) -> str:
        xs = sorted(xs)
        p95 = xs[min(len(xs) - 1, round(0.95 * (len(xs) - 1)))]
        return f"median {statistics.median(xs) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, max {xs[-1] * 1000:.0f} ms"

    print(
        f"argon2id m={site.argon2_memory_kib} KiB, t={site.argon2_time_cost}, p={site.argon2_parallelism}; "
        f"{args.accounts} accounts"
    )
    print(f"  sign-up: {figures(signups)}")
    print(f"  log-in:  {figures(logins)}")


if __name__ == "__main__":
    main()
