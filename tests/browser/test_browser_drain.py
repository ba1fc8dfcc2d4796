"""A restart nobody notices: two ``coinche serve`` on one database behind a proxy (a few
lines of TCP forwarding that, as nginx's ``proxy_next_upstream error``, tries the next
server when one refuses the connection). The first server gets SIGTERM mid-deal: the
page's connection closes with 4012, the page connects again at once, through the proxy,
to the second server, with ``since``, says no more than "Reconnexion…", keeps its hand,
and plays the deal to its end."""

from __future__ import annotations

import contextlib
import signal
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from browser_helpers import LiveServer, new_context, new_page
from playwright.sync_api import Browser, expect
from table_driver import start_solo

RESTARTING = 4012

SOCKET_RECORDER = """
(() => {
  window.__ws = [];
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(url, protocols) {
      super(url, protocols);
      const entry = { url, at: performance.now(), closed: null, code: null };
      window.__ws.push(entry);
      this.addEventListener('close', (e) => { entry.closed = performance.now(); entry.code = e.code; });
    }
  };
  window.__notices = [];
  new MutationObserver(() => {
    const text = document.querySelector('#notice .notice-text');
    if (text && text.textContent) window.__notices.push(text.textContent);
  }).observe(document, { childList: true, subtree: true, characterData: true });
})();
"""
"""Every WebSocket the page opens (address, when it opened and closed, its close code),
and every text the table's notice showed."""


class Proxy:
    """A TCP proxy on a free loopback port to the first of ``ports`` that accepts."""

    def __init__(self, ports: list[int]) -> None:
        self.ports = ports
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        self.sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            self.sockets.append(client)
            upstream = self._upstream()
            if upstream is None:
                client.close()
                continue
            self.sockets.append(upstream)
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _upstream(self) -> socket.socket | None:
        for port in self.ports:
            with contextlib.suppress(OSError):
                return socket.create_connection(("127.0.0.1", port), timeout=5)
        return None

    @staticmethod
    def _pipe(source: socket.socket, sink: socket.socket) -> None:
        source.settimeout(None)
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
        with contextlib.suppress(OSError):
            sink.shutdown(socket.SHUT_WR)

    def close(self) -> None:
        self.listener.close()
        for s in self.sockets:
            with contextlib.suppress(OSError):
                s.close()


@contextlib.contextmanager
def two_servers(workdir: Path) -> Iterator[tuple[LiveServer, LiveServer, Proxy]]:
    first = LiveServer(workdir, "--name", "first")
    second: LiveServer | None = None
    proxy: Proxy | None = None
    try:
        second = LiveServer(workdir, "--name", "second")
        proxy = Proxy([first.port, second.port])
        yield first, second, proxy
    finally:
        if proxy is not None:
            proxy.close()
        for server in (first, second):
            if server is not None:
                server.stop()


def test_a_page_moves_to_another_server_at_once_when_its_own_restarts(browser: Browser, tmp_path: Path) -> None:
    with two_servers(tmp_path) as (first, second, proxy):
        base = f"http://127.0.0.1:{proxy.port}"
        context = new_context(browser, base)
        try:
            context.add_init_script(SOCKET_RECORDER)
            page = new_page(context, base)
            table = start_solo(page)
            expect(table.hand()).to_have_count(8)
            before = [table.name_of(card) for card in table.hand().all()]
            sockets: list[dict[str, Any]] = page.evaluate("() => window.__ws")
            assert len(sockets) == 1 and sockets[0]["closed"] is None, sockets

            first.proc.send_signal(signal.SIGTERM)
            assert first.proc.wait(timeout=12) == 0, first.log()

            page.wait_for_function("() => window.__ws.length >= 2 && window.__ws[1].closed === null", polling=50)
            expect(table.notice()).to_be_hidden(timeout=5_000)
            sockets = page.evaluate("() => window.__ws")
            gone, again = sockets[0], sockets[1]
            assert gone["code"] == RESTARTING, sockets
            assert again["at"] - gone["closed"] < 200, sockets  # at once: no wait
            assert "?since=" in again["url"], again
            assert [table.name_of(card) for card in table.hand().all()] == before
            notices = set(page.evaluate("() => window.__notices"))
            assert notices <= {"Reconnexion…"}, notices  # no "connection lost"

            played = table.play_deal(bid=True)  # the deal goes on, on the second server
            assert played.end in ("next", "over", "limit"), played
            assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]
            assert second.proc.poll() is None
        finally:
            context.close()
    log = (tmp_path / "server.log").read_text("utf-8")
    assert "Traceback" not in log, log
    assert " first INFO coinche.drain: SIGTERM: draining (1 table connection(s)" in log, log
