"""What ``deploy/`` gives a Debian machine for a public site (issue 52), each file tried:
the systemd units pass ``systemd-analyze verify`` and its offline security review, their
command lines are the command line's own (a renamed option fails here), and
``deploy/nginx-tls.conf`` runs in the real nginx, with a self-signed certificate, in front of
a real ``coinche serve``: a page over HTTPS and HTTP/2 with HSTS, a sign-up through it, a
table's WebSocket over wss, plain HTTP sent to HTTPS, the metrics refused.

The drained restart of ``docs/operations.md``'s "Upgrading" is
``test_several_servers.py::test_a_drained_server_is_a_short_reconnection_through_nginx``."""

from __future__ import annotations

import http.client
import os
import random
import re
import shlex
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from nginx_proxy import nginx_binary
from server_helpers import CSRF_FIELD, ServerProcess, free_port, ws_act, ws_until_my_move
from sqlalchemy.engine import make_url
from websockets.sync.client import connect

from coinche.cli.parser import build_parser
from coinche.server.features.mail import SmtpServer
from coinche.server.infra.backend import Backend
from coinche.server.infra.process_logs import valid_name
from coinche.server.web.drain import DRAIN_SECONDS
from coinche.server.web.security import normalise_origin

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
UNITS = DEPLOY / "systemd"
INSTALLED = "/opt/coinche/current/bin/coinche"
"""Where the units expect the command (docs/operations.md installs it there)."""
INSTANCES = {"coinche-serve@.service": "8001", "coinche-worker@.service": "1"}
EXPORT = ("coinche-export.service", "coinche-export.timer")
"""The open games database's monthly run (docs/open-data.md): a unit, not a template."""
PASSWORD = "a long enough password"


def tool(name: str, package: str) -> str:
    """The path of the program ``name``; the test is skipped without it (fails under
    ``CI=true``: ``.ci/run`` installs ``package``)."""
    found = shutil.which(name) or next((p for p in (f"/usr/bin/{name}", f"/usr/sbin/{name}") if Path(p).exists()), None)
    if found is None:
        reason = f"{name} is not installed (apt-get install {package})"
        if os.environ.get("CI"):
            pytest.fail(f"CI=true: {reason}")
        pytest.skip(reason)
    return found


# ----- systemd -----


def unit_lines(path: Path, section: str) -> list[tuple[str, str]]:
    """The ``Key=value`` lines of one section of a unit file, in order (a key may repeat)."""
    lines: list[tuple[str, str]] = []
    current = None
    for raw in path.read_text("utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            current = line.strip("[]")
        elif current == section:
            key, _, value = line.partition("=")
            lines.append((key.strip(), value.strip()))
    return lines


def env_example() -> dict[str, str]:
    """The variables ``deploy/coinche.env.example`` sets (its commented alternatives too,
    under ``#NAME``)."""
    found: dict[str, str] = {}
    for line in (DEPLOY / "coinche.env.example").read_text("utf-8").splitlines():
        match = re.fullmatch(r"(#?)([A-Z_]+)=(.*)", line)
        if match:
            found[match[1] + match[2]] = match[3]
    return found


def installed_units(folder: Path) -> Path:
    """The units copied into ``folder`` with their command at this checkout's ``coinche``
    (``systemd-analyze verify`` checks that it can be run)."""
    here = Path(sys.executable).parent / "coinche"
    assert here.exists(), f"no {here}: the package is not installed in this environment"
    folder.mkdir()
    for path in UNITS.iterdir():
        text = path.read_text("utf-8")
        if path.suffix == ".service":
            assert text.count(f"ExecStart={INSTALLED} ") == 1, path.name
            text = text.replace(f"ExecStart={INSTALLED} ", f"ExecStart={here} ")
        (folder / path.name).write_text(text, "utf-8")
    return folder


def test_units_pass_systemd_analyze_verify(tmp_path: Path) -> None:
    analyze = tool("systemd-analyze", "systemd")
    folder = installed_units(tmp_path / "units")
    names = [template.replace("@.", f"@{n}.") for template, n in INSTANCES.items()] + ["coinche.target", *EXPORT]
    assert sorted(p.name for p in UNITS.iterdir()) == sorted([*INSTANCES, "coinche.target", *EXPORT])
    done = subprocess.run(
        [analyze, "verify", *(f"./{name}" for name in names)],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    # An unknown key or a bad value is only a warning: any word from it fails the test.
    assert (done.returncode, done.stdout + done.stderr) == (0, ""), done.stdout + done.stderr


def test_units_are_hardened(tmp_path: Path) -> None:
    """systemd's own review of what the units leave open (0 to 10; 1.5 when written):
    a hardening line taken out shows here."""
    analyze = tool("systemd-analyze", "systemd")
    folder = installed_units(tmp_path / "units")
    for template, n in [*INSTANCES.items(), (EXPORT[0], "")]:
        name = template.replace("@.", f"@{n}.")
        done = subprocess.run(
            [analyze, "security", "--offline=true", "--threshold=20", "--no-pager", f"./{name}"],
            cwd=folder,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr
        assert re.search(r"Overall exposure level for \S+: (0|1|2\.0)", done.stdout), done.stdout[-500:]


def test_units_stop_by_a_drain_and_read_the_env_file() -> None:
    for template in INSTANCES:
        service = dict(unit_lines(UNITS / template, "Service"))
        assert service["KillSignal"] == "SIGTERM" and service["KillMode"] == "mixed", template
        assert float(service["TimeoutStopSec"]) >= DRAIN_SECONDS + 5, template
        assert service["Restart"] == "on-failure" and service["User"] == "coinche", template
        assert service["EnvironmentFile"] == "/etc/coinche/coinche.env", template
        assert service["NoNewPrivileges"] == "yes" and service["ProtectSystem"] == "strict", template
        assert dict(unit_lines(UNITS / template, "Install"))["WantedBy"] == "coinche.target"
    assert dict(unit_lines(UNITS / "coinche-serve@.service", "Service"))["StateDirectory"] == "coinche"


def exec_start(template: str) -> list[str]:
    """The unit's command line as systemd runs its instance: ``%i``, ``%H`` and the env
    file's ``${NAME}`` (from ``deploy/coinche.env.example``) replaced."""
    (line,) = [v for k, v in unit_lines(UNITS / template, "Service") if k == "ExecStart"]
    env = env_example()
    words = shlex.split(line)
    assert words[0] == INSTALLED, words
    out = []
    for word in words[1:]:
        word = word.replace("%i", INSTANCES.get(template, "")).replace("%H", socket.gethostname())
        for name in re.findall(r"\$\{([A-Z_]+)\}", word):
            assert env.get(name), f"{template} reads ${{{name}}}, which deploy/coinche.env.example does not set"
            word = word.replace(f"${{{name}}}", env[name])
        assert "%" not in word and "$" not in word, word
        out.append(word)
    return out


def test_the_units_command_lines_are_the_command_lines_own() -> None:
    """Parsed by ``coinche``'s own parser, and the values it checks past the parser good."""
    parser = build_parser()
    serve = parser.parse_args(exec_start("coinche-serve@.service"))
    assert serve.command == "serve" and serve.port == 8001 and serve.host == "127.0.0.1"
    assert [normalise_origin(o) for o in serve.origin] == ["https://coinche.example.org"]
    assert valid_name(serve.name), serve.name
    worker = parser.parse_args(exec_start("coinche-worker@.service"))
    assert worker.command == "worker" and valid_name(worker.name), worker.name
    export = parser.parse_args(exec_start(EXPORT[0]))
    assert (export.command, export.month, export.to) == ("export", "last", env_example()["COINCHE_OPEN_DATA_DIR"])
    assert dict(unit_lines(UNITS / EXPORT[1], "Timer"))["OnCalendar"].startswith("*-*-01 ")


def test_the_env_file_example_holds_good_values() -> None:
    env = env_example()
    assert set(env) >= {"COINCHE_ORIGIN", "COINCHE_DATABASE_URL", "COINCHE_SECRET_KEY", "COINCHE_SMTP_URL"}
    assert Backend.of(env["COINCHE_DATABASE_URL"]).shared  # the workers need PostgreSQL
    make_url(env["COINCHE_DATABASE_URL"])
    assert not Backend.of(env["#COINCHE_DATABASE_URL"]).shared
    assert make_url(env["#COINCHE_DATABASE_URL"]).database == "/var/lib/coinche/coinche.db"  # StateDirectory
    assert SmtpServer.parse(env["#COINCHE_SMTP_URL"]).username == "coinche@example.org"
    # The key is a placeholder the servers refuse (too short), never a key that works.
    assert 0 < len(env["COINCHE_SECRET_KEY"]) < 32


# ----- nginx with TLS -----


@dataclass
class Site:
    """``deploy/nginx-tls.conf`` in nginx, in front of one ``coinche serve``."""

    https_port: int
    http_port: int
    cert: Path
    tls: ssl.SSLContext
    """Trusts the test's self-signed certificate ``cert``, and only it."""
    webroot: Path

    @property
    def origin(self) -> str:
        return f"https://127.0.0.1:{self.https_port}"

    def request(
        self, method: str, path: str, body: str | None = None, headers: dict[str, str] | None = None
    ) -> tuple[http.client.HTTPResponse, str]:
        conn = http.client.HTTPSConnection("127.0.0.1", self.https_port, context=self.tls, timeout=10)
        try:
            conn.request(method, path, body, headers or {})
            answer = conn.getresponse()
            return answer, answer.read().decode("utf-8", errors="replace")
        finally:
            conn.close()


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for coinche.example.org and 127.0.0.1, and its key."""
    openssl = tool("openssl", "openssl")
    cert, key = folder / "fullchain.pem", folder / "privkey.pem"
    subprocess.run(
        [
            *(openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"),
            *("-keyout", str(key), "-out", str(cert), "-days", "2", "-subj", "/CN=coinche.example.org"),
            *("-addext", "subjectAltName=DNS:coinche.example.org,IP:127.0.0.1"),
        ],
        check=True,
        capture_output=True,
        timeout=30,
    )
    return cert, key


def replaced(text: str, old: str, new: str, count: int) -> str:
    """``text`` with ``old`` replaced, found exactly ``count`` times (a change of the file
    that the test no longer follows fails here, not later in nginx)."""
    assert text.count(old) == count, f"deploy/nginx-tls.conf: {old!r} expected {count} times"
    return text.replace(old, new)


def site_conf(folder: Path, upstream: int, https_port: int, http_port: int, cert: Path, key: Path) -> Path:
    """``deploy/nginx-tls.conf``, its ports and paths the test's, inside a whole
    configuration as Debian's /etc/nginx/nginx.conf would hold it."""
    site = (DEPLOY / "nginx-tls.conf").read_text("utf-8")
    site = replaced(site, "server 127.0.0.1:8001 ", f"server 127.0.0.1:{upstream} ", 2)
    site = replaced(site, "    server 127.0.0.1:8002 max_fails=1 fail_timeout=2s;\n", "", 2)
    site = replaced(site, "listen 80;", f"listen 127.0.0.1:{http_port};", 1)
    site = replaced(site, "listen 443 ssl http2;", f"listen 127.0.0.1:{https_port} ssl http2;", 1)
    site = replaced(site, "    listen [::]:80;\n", "", 1)
    site = replaced(site, "    listen [::]:443 ssl http2;\n", "", 1)
    site = replaced(site, "/etc/letsencrypt/live/coinche.example.org/fullchain.pem", str(cert), 1)
    site = replaced(site, "/etc/letsencrypt/live/coinche.example.org/privkey.pem", str(key), 1)
    site = replaced(site, "root /var/www/html;", f"root {folder / 'www'};", 1)
    (folder / "coinche-site.conf").write_text(site, "utf-8")
    main = folder / "nginx.conf"
    # nginx's workers run as nobody when it is started by root: the test's folder is not theirs.
    user = "user root;\n" if os.geteuid() == 0 else ""
    main.write_text(
        user + "worker_processes 1;\npid nginx.pid;\nerror_log error.log warn;\nevents { worker_connections 256; }\n"
        "http {\n    access_log access.log;\n    client_body_temp_path tmp/body;\n    proxy_temp_path tmp/proxy;\n"
        "    fastcgi_temp_path tmp/fastcgi;\n    uwsgi_temp_path tmp/uwsgi;\n    scgi_temp_path tmp/scgi;\n"
        f"    include {folder / 'coinche-site.conf'};\n}}\n",
        "utf-8",
    )
    return main


def wait_for_tls(port: int, proc: subprocess.Popen[bytes], timeout: float = 15) -> None:
    deadline = time.monotonic() + timeout
    while True:
        assert proc.poll() is None, f"nginx exited: {proc.stderr.read() if proc.stderr else b''!r}"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            assert time.monotonic() < deadline, "nginx did not start"
            time.sleep(0.05)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    nginx = nginx_binary()
    if nginx is None:
        if os.environ.get("CI"):
            pytest.fail("CI=true: nginx is not installed (apt-get install nginx)")
        pytest.skip("nginx is not installed (apt-get install nginx)")
    folder = tmp_path_factory.mktemp("tls-site")
    cert, key = self_signed(folder)
    (folder / "tmp").mkdir()
    (folder / "www" / ".well-known" / "acme-challenge").mkdir(parents=True)
    https_port, http_port = free_port(), free_port()
    tls = ssl.create_default_context(cafile=str(cert))
    origin = f"https://127.0.0.1:{https_port}"
    with ServerProcess(folder / "site.db", folder / "server.log", "--origin", origin) as server:
        conf = site_conf(folder, server.port, https_port, http_port, cert, key)
        tested = subprocess.run([nginx, "-t", "-p", str(folder), "-c", str(conf)], capture_output=True, timeout=30)
        assert tested.returncode == 0, tested.stderr.decode()
        proc = subprocess.Popen(
            [nginx, "-p", str(folder), "-c", str(conf), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        try:
            wait_for_tls(https_port, proc)
            yield Site(https_port, http_port, cert, tls, folder / "www")
        finally:
            proc.send_signal(signal.SIGQUIT)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=5)
    assert "Traceback" not in (folder / "server.log").read_text("utf-8")


def cookies_of(answer: http.client.HTTPResponse) -> dict[str, str]:
    """name -> the whole ``Set-Cookie`` value, of each cookie the answer sets."""
    return {v.split("=", 1)[0]: v for v in answer.headers.get_all("Set-Cookie") or []}


def cookie_header(*answers: dict[str, str]) -> str:
    jar: dict[str, str] = {}
    for answer in answers:
        jar.update({name: value.split(";", 1)[0] for name, value in answer.items()})
    return "; ".join(jar.values())


def test_the_home_page_over_https_and_http2_with_hsts(site: Site) -> None:
    answer, text = site.request("GET", "/")
    assert answer.status == 200 and "<html" in text
    assert answer.headers["Strict-Transport-Security"] == "max-age=31536000"
    assert answer.headers["Server"] == "nginx"  # no version (server_tokens off)
    # X-Forwarded-Proto https reached the server: its cookie is Secure.
    session = cookies_of(answer)["session"]
    assert "secure" in session.lower(), session
    # A browser's handshake: HTTP/2 and TLS 1.3; TLS 1.2 is still offered (older ones).
    h2 = ssl.create_default_context(cafile=str(site.cert))
    h2.set_alpn_protocols(["h2", "http/1.1"])
    old = ssl.create_default_context(cafile=str(site.cert))
    old.maximum_version = ssl.TLSVersion.TLSv1_2
    for context, version in ((h2, "TLSv1.3"), (old, "TLSv1.2")):
        with (
            socket.create_connection(("127.0.0.1", site.https_port), timeout=10) as raw,
            context.wrap_socket(raw, server_hostname="127.0.0.1") as sock,
        ):
            assert sock.version() == version
            assert sock.selected_alpn_protocol() == ("h2" if context is h2 else None)


def test_sign_up_through_the_proxy(site: Site) -> None:
    home, text = site.request("GET", "/inscription")
    found = CSRF_FIELD.search(text)
    assert home.status == 200 and found is not None
    guest = cookies_of(home)
    form = urllib.parse.urlencode({"csrf": found[1], "name": "Operateur", "password": PASSWORD, "confirm": PASSWORD})
    headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie_header(guest)}
    refused, _ = site.request("POST", "/inscription", form, {**headers, "Origin": "https://evil.example"})
    assert refused.status == 403
    answer, _ = site.request("POST", "/inscription", form, {**headers, "Origin": site.origin})
    assert answer.status == 303 and answer.headers["Location"] == "/compte", answer.status
    account = cookies_of(answer)
    assert account and all("secure" in v.lower() and "httponly" in v.lower() for v in account.values()), account
    page, text = site.request("GET", "/compte", headers={"Cookie": cookie_header(guest, account)})
    assert page.status == 200 and "Operateur" in text


def test_a_table_over_wss(site: Site) -> None:
    home, text = site.request("GET", "/")
    found = CSRF_FIELD.search(text)
    assert found is not None
    cookie = cookie_header(cookies_of(home))
    form = urllib.parse.urlencode({"csrf": found[1], "profile": "classic", "target": "1000", "level": "beginner"})
    headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie, "Origin": site.origin}
    answer, _ = site.request("POST", "/solo", form, headers)
    assert answer.status == 303 and answer.headers["Location"].startswith("/table/")
    table_id = answer.headers["Location"].removeprefix("/table/")
    address = f"wss://127.0.0.1:{site.https_port}/ws/table/{table_id}"
    with connect(
        address, ssl=site.tls, origin=site.origin, additional_headers={"Cookie": cookie}, open_timeout=10
    ) as ws:
        state = ws_until_my_move(ws)
        assert state["table"]["you"] == 0
        assert ws_act(ws, state, random.Random(52))["seq"] > state["seq"]
    # Another site's page may not open it.
    with (
        pytest.raises(Exception, match=r"4403|403"),
        connect(address, ssl=site.tls, origin="https://evil.example", additional_headers={"Cookie": cookie}) as ws,
    ):
        ws.recv(timeout=10)


def test_plain_http_is_sent_to_https_but_for_the_certificates_renewals(site: Site) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", site.http_port, timeout=10)
    try:
        conn.request("GET", "/table/abc?since=3")
        answer = conn.getresponse()
        answer.read()
        assert answer.status == 301
        assert answer.headers["Location"] == "https://coinche.example.org/table/abc?since=3"
        (site.webroot / ".well-known" / "acme-challenge" / "token-1").write_text("proof", "utf-8")
        conn.request("GET", "/.well-known/acme-challenge/token-1")
        answer = conn.getresponse()
        assert (answer.status, answer.read()) == (200, b"proof")
    finally:
        conn.close()


def test_the_metrics_are_never_served_to_the_internet(site: Site) -> None:
    for path in ("/metrics", "/metrics/", "/metrics?format=text", "//metrics", "/%6Detrics", "/./metrics"):
        for method in ("GET", "HEAD", "POST"):
            answer, _ = site.request(method, path)
            assert answer.status == 403, (method, path, answer.status)


def test_the_operations_guide_names_files_and_tests_that_exist() -> None:
    """docs/operations.md's deploy/ files and the tests it cites (a renamed one would leave
    the upgrade's proof unnamed)."""
    root = DEPLOY.parent
    text = (root / "docs" / "operations.md").read_text("utf-8")
    for path in ("deploy/nginx-tls.conf", "deploy/coinche.env.example", "deploy/systemd/"):
        assert path in text and (root / path).exists(), path
    cited = re.findall(r"(tests/[\w/]+\.py)::(\w+)", text)
    assert (
        "tests/server/test_several_servers.py",
        "test_a_drained_server_is_a_short_reconnection_through_nginx",
    ) in cited
    for path, name in cited:
        assert re.search(rf"^def {name}\(", (root / path).read_text("utf-8"), re.MULTILINE), f"{path}::{name}"
