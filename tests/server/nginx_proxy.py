"""nginx in front of server processes, as ``deploy/nginx.conf`` sets it up: the same file,
its ports and upstream servers replaced by the test's, run in a folder of its own."""

from __future__ import annotations

import contextlib
import re
import shutil
import signal
import subprocess
from pathlib import Path
from typing import Any

from server_helpers import ServerProcess, free_port, wait_until_serving
from websockets.sync.client import ClientConnection

DEPLOY = Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf"


def nginx_binary() -> str | None:
    return shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if Path(p).exists()), None)


class NginxProxy:
    """nginx on a free loopback port, proxying to ``upstreams`` (ports); ``connect`` and
    ``base`` as a ``ServerProcess`` has them, so clients use either the same way."""

    def __init__(self, folder: Path, upstreams: list[int]) -> None:
        binary = nginx_binary()
        if binary is None:
            raise RuntimeError("nginx is not installed (apt-get install nginx)")
        self.folder = folder
        (folder / "tmp").mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        conf = DEPLOY.read_text("utf-8")
        servers = "".join(f"        server 127.0.0.1:{p} max_fails=1 fail_timeout=2s;\n" for p in upstreams)
        conf, n = re.subn(r"(?m)^        server 127\.0\.0\.1:\d+ [^\n]*\n", "", conf)
        assert n == 4, "deploy/nginx.conf: two upstreams of two servers expected"
        conf = conf.replace("    upstream coinche {\n", "    upstream coinche {\n" + servers)
        conf = re.sub(r"(    upstream coinche_tables \{\n[^\n]*\n[^\n]*\n)", lambda m: m[1] + servers, conf)
        conf = conf.replace("listen 127.0.0.1:8000;", f"listen 127.0.0.1:{self.port};")
        conf = conf.replace("worker_processes auto;", "worker_processes 1;")
        self.conf = folder / "nginx.conf"
        self.conf.write_text(conf, "utf-8")
        self.proc = subprocess.Popen(
            [binary, "-p", str(folder), "-c", str(self.conf), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        failed = wait_until_serving(self.base, self.proc, 15)
        if failed == "exited":
            raise AssertionError(f"nginx exited: {self.proc.stderr.read() if self.proc.stderr else ''!r}")
        if failed is not None:
            self.stop()
            raise AssertionError("nginx did not start")

    connect = ServerProcess.connect
    new_guest_table = ServerProcess.new_guest_table

    def upstreams_of(self, path_part: str) -> list[str]:
        """The upstream address of each logged request whose line holds ``path_part``."""
        log = (self.folder / "access.log").read_text("utf-8", errors="replace")
        found = (re.search(r"upstream=(.+?) time=", line) for line in log.splitlines() if path_part in line)
        return [m[1] for m in found if m]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGQUIT)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)

    def __enter__(self) -> NginxProxy:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


class Recorded:
    """A connection that keeps every state it received, as a page does (the test checks
    them all): a ``step`` is read as the state it makes of the last one (``state``: the
    page's state when it connects again with ``since``)."""

    def __init__(self, ws: ClientConnection, log: list[dict[str, Any]], state: dict[str, Any] | None = None) -> None:
        self.ws = ws
        self.log = log
        self.coinche_state = state

    def recv(self, timeout: float | None = None) -> str:
        import json

        from server_helpers import as_state

        text = self.ws.recv(timeout=timeout)
        assert isinstance(text, str)
        message = as_state(self, json.loads(text))
        self.log.append(message)
        return json.dumps(message)

    def send(self, text: str) -> None:
        self.ws.send(text)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ws.close()
