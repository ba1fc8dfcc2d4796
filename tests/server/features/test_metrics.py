"""The site's metrics (``GET /metrics``, Prometheus's text format): the names and counts
after known actions, who may read them, the database time of a request, the shared work
queue and workers on PostgreSQL, and the log's lines as JSON with the request and table
they are about."""

from __future__ import annotations

import json
import logging
import re
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families
from server_helpers import (
    Human,
    ServerProcess,
    call,
    create_solo,
    free_port,
    live_table,
    parts_of,
    raw_receive,
    request,
    settings_for,
)
from starlette.testclient import TestClient

from coinche.server.infra import request_context
from coinche.server.infra.process_logs import JsonLines, ProcessName, log_config
from coinche.server.web.app import create_app
from coinche.server.web.request_metrics import allowed

LOCAL = ("127.0.0.1", 50000)


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Each sample of a scrape by (name, sorted labels)."""
    found: dict[tuple[str, tuple[tuple[str, str], ...]], float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def scrape(client: TestClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    r = client.get("/metrics")
    assert r.status_code == 200, r.status_code
    assert r.headers["content-type"].startswith("text/plain; version=0.0.4")
    return samples(r.text)


def value(found: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str, **labels: str) -> float:
    return found.get((name, tuple(sorted(labels.items()))), 0.0)


@pytest.fixture
def local(tmp_path: Path, database_url: str) -> Any:
    """The application seen from the machine itself (127.0.0.1), which may read the metrics."""
    with TestClient(create_app(settings_for(tmp_path, database_url)), client=LOCAL) as client:
        yield client


def test_the_metrics_count_a_solo_deal_s_moves_and_who_is_there(local: TestClient) -> None:
    before = scrape(local)
    assert value(before, "coinche_steps_total", kind="action") == 0
    table_id = create_solo(local, "classic", 700, "beginner")
    with local.websocket_connect(f"/ws/table/{table_id}") as ws:
        raw_receive(ws)
        human = Human(ws, max_deals=1)
        human.play_game()
        live = live_table(local, table_id)
        actions = [s for s in live.steps if s.kind == "action"]
        by_computers = [s for s in actions if s.request_id is None]
        found = scrape(local)
        assert value(found, "coinche_steps_total", kind="action") == len(actions) > 0
        assert value(found, "coinche_move_seconds_count", kind="action") == len(actions)
        assert value(found, "coinche_move_seconds_sum", kind="action") > 0
        assert value(found, "coinche_computer_decision_seconds_count", bot="beginner") == len(by_computers) > 0
        assert value(found, "coinche_live_tables", kind="solo") == 1
        assert value(found, "coinche_connected_people", role="player") == 1
        assert value(found, "coinche_connected_people", role="watcher") == 0
    # The table's creation was one request of the route /solo, answered 303.
    assert value(found, "coinche_request_seconds_count", route="/solo") == 1
    assert value(found, "coinche_http_responses_total", status="3xx") >= 1
    assert value(found, "coinche_errors_total", kind="coinche.tables") == 0
    assert value(found, "coinche_mail_waiting") == 0


def test_a_request_s_database_time_is_counted_by_route(local: TestClient) -> None:
    assert local.get("/classement").status_code == 200
    found = scrape(local)
    assert value(found, "coinche_request_database_seconds_count", route="/classement") == 1
    assert value(found, "coinche_request_database_seconds_sum", route="/classement") > 0
    # An address no route takes is one label, whatever it was.
    for path in ("/nowhere", "/x" * 100, "/%00"):
        local.get(path)
    found = scrape(local)
    assert value(found, "coinche_request_seconds_count", route="unrouted") >= 2
    assert not any("nowhere" in str(labels) for _, labels in found)


def test_every_response_names_its_request(local: TestClient) -> None:
    first, second = local.get("/"), local.get("/")
    ids = {first.headers["x-request-id"], second.headers["x-request-id"]}
    assert len(ids) == 2 and all(len(i) == 12 for i in ids)


def test_an_error_the_log_reports_is_counted_by_its_logger(local: TestClient) -> None:
    logging.getLogger("coinche.tables").error("a test's error")
    assert value(scrape(local), "coinche_errors_total", kind="coinche.tables") == 1


def test_only_the_allowed_addresses_read_the_metrics(tmp_path: Path, database_url: str) -> None:
    app = create_app(settings_for(tmp_path, database_url, metrics_allow=("10.0.0.0/8",)))
    with TestClient(app, client=("10.1.2.3", 4000)) as inside:
        assert inside.get("/metrics").status_code == 200
    for host in ("127.0.0.1", "11.0.0.1", "testclient", "::1"):
        with TestClient(create_app(settings_for(tmp_path, database_url)), client=(host, 4000)) as c:
            r = c.get("/metrics")
            assert r.status_code == (200 if host in ("127.0.0.1", "::1") else 404), host
            if r.status_code == 404:
                assert "coinche_" not in r.text


def test_the_allow_list_reads_addresses_and_nothing_else() -> None:
    local = ("127.0.0.1/32", "::1/128")
    assert allowed("127.0.0.1", local) and allowed("::1", local) and allowed("::ffff:127.0.0.1", local)
    for host in (None, "", "localhost", "127.0.0.1 ", "127.0.0.2", "10.0.0.1", "../etc", "1" * 5000):
        assert not allowed(host, local), host


@pytest.mark.both_databases
def test_the_shared_work_queue_and_the_workers_are_read_on_postgresql(local: TestClient, database_url: str) -> None:
    parts = parts_of(local)
    turns = parts.work.turns
    found = scrape(local)
    if turns is None:  # SQLite: one process computes everything; no shared queue to report
        assert value(found, "coinche_workers_alive") == 0
        assert not any(name == "coinche_work_queue_depth" for name, _ in found)
        return
    assert value(found, "coinche_work_queue_depth", queue="turns") == 0
    assert value(found, "coinche_workers_alive") == 0
    call(local, parts.db, turns.hand_over, "tbl-metrics", 3, 1, 0.0)
    call(local, parts.db, turns.beat, "worker-test", 10.0)
    found = scrape(local)
    assert value(found, "coinche_work_queue_depth", queue="turns") == 1
    assert value(found, "coinche_work_queue_depth", queue="jobs") == 0
    assert value(found, "coinche_work_queue_oldest_seconds", queue="turns") >= 0
    assert value(found, "coinche_workers_alive") == 1


def test_a_json_log_line_names_the_request_and_the_table(local: TestClient) -> None:
    lines: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(self.format(record))

    keep = Keep()
    keep.setFormatter(JsonLines())
    keep.addFilter(ProcessName("web-test"))
    logger = logging.getLogger("coinche")
    logger.addHandler(keep)

    def failing(*_: object) -> None:
        raise RuntimeError("a hook's fault")

    parts_of(local).registry.stored_hooks.append(failing)
    try:
        table_id = create_solo(local, "classic", 700, "beginner")
        with local.websocket_connect(f"/ws/table/{table_id}") as ws:
            raw_receive(ws)
            human = Human(ws)
            state = human.until_my_move()
            ws.send_json(request("action", action=state["game"]["deal"]["legal_actions"][0]))
            human.next_state()
    finally:
        logger.removeHandler(keep)
    failed = [json.loads(line) for line in lines if "hook of stored steps failed" in line]
    assert failed, lines
    by_person = [line for line in failed if "request_id" in line]
    assert by_person, failed  # the person's move came through their socket's request
    line = by_person[0]
    assert line["table_id"] == table_id and line["level"] == "ERROR" and line["process"] == "web-test"
    assert line["logger"] == "coinche.tables" and "RuntimeError: a hook's fault" in line["exception"]
    assert line["time"].endswith("+00:00")


def test_a_json_line_is_one_line_whatever_the_message() -> None:
    record = logging.LogRecord("coinche.x", logging.WARNING, __file__, 1, 'a "quote"\nand a line\u2028break', (), None)
    named = request_context.REQUEST_ID.set("abc123")
    try:
        line = JsonLines().format(record)
    finally:
        request_context.REQUEST_ID.reset(named)
    assert "\n" not in line
    data = json.loads(line)
    assert data["message"] == 'a "quote"\nand a line\u2028break' and data["request_id"] == "abc123"
    assert "table_id" not in data
    config = log_config("x", json_lines=True)
    assert config["formatters"]["default"]["()"] is JsonLines


def test_a_served_site_answers_metrics_to_the_machine_and_logs_json(tmp_path: Path, database_url: str) -> None:
    with ServerProcess(database_url, tmp_path / "serve.log", "--log-format", "json") as server:
        with urllib.request.urlopen(f"{server.base}/metrics", timeout=10) as r:
            text = r.read().decode()
        assert "coinche_steps_total" in text and "coinche_live_tables" in text
        server.stop()
    lines = [line for line in (tmp_path / "serve.log").read_text("utf-8").splitlines() if line.startswith("{")]
    assert lines, "no JSON line"
    assert all(json.loads(line)["process"] for line in lines)


def test_the_command_line_refuses_a_bad_allow_list(tmp_path: Path) -> None:
    from coinche.cli import main

    for bad in ("*", "everyone", "10.0.0.0/33", ""):
        assert (
            main(["serve", "--db", f"sqlite:///{tmp_path}/x.db", "--metrics-allow", bad, "--port", str(free_port())])
            == 2
        )


DASHBOARD = Path(__file__).resolve().parents[3] / "deploy" / "grafana-dashboard.json"


def test_the_grafana_dashboard_reads_metrics_the_site_serves(local: TestClient) -> None:
    """Each panel's expression names metrics of a real scrape, grouped by labels they have."""
    families = {f.name: f for f in text_string_to_metric_families(local.get("/metrics").text)}
    labels_of = {name: {k for s in f.samples for k in s.labels} | {"le"} for name, f in families.items()}
    dashboard = json.loads(DASHBOARD.read_text("utf-8"))
    exprs = [t["expr"] for p in dashboard["panels"] for t in p["targets"]]
    assert len(exprs) >= 14
    read: set[str] = set()
    for expr in exprs:
        names = re.findall(r"coinche_[a-z_]+", expr)
        assert names, expr
        for name in names:
            base = re.sub(r"_(bucket|count|sum|total)$", "", name)
            assert base in families, f"{expr}: no metric {base}"
            read.add(base)
            for group in re.findall(r"by \(([^)]*)\)", expr):
                for label in (g.strip() for g in group.split(",")):
                    assert label in labels_of[base] or not families[base].samples, (
                        f"{expr}: {base} has no label {label}"
                    )
    # Every metric the site serves is on the dashboard.
    assert read == {name for name in families if name.startswith("coinche_")}
