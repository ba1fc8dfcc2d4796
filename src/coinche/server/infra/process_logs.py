"""Log lines that name their process: with several ``coinche serve`` behind one proxy,
a line must say which of them wrote it.

``log_config(name)`` is the ``logging.config.dictConfig`` of ``coinche serve`` (handed to
uvicorn as its ``log_config``): the site's own loggers and uvicorn's (its errors and,
when its level lets them through, its access lines) all go to stderr, each line with the
time, the process's name and the level; with ``json_lines``, each line is one JSON object
(``JsonLines``) that also names the request and the table the line is about.
"""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
import socket
from datetime import UTC, datetime
from typing import Any, Final

from . import request_context

ENV_NAME: Final = "COINCHE_PROCESS_NAME"

FORMAT: Final = "%(asctime)s %(process_name)s %(levelname)s %(name)s: %(message)s"
ACCESS_FORMAT: Final = '%(asctime)s %(process_name)s %(levelname)s %(client_addr)s "%(request_line)s" %(status_code)s'


NAME_MAX: Final = 64
"""The longest process name: it stands in log lines and in the database (a worker's row,
a server's presence rows), whose columns hold 64 characters."""

_NAME: Final = re.compile(rf"[A-Za-z0-9._:@/-]{{1,{NAME_MAX}}}", re.ASCII)


def valid_name(name: str) -> bool:
    """Whether ``name`` may name a process: 1 to 64 letters, digits and ``._:@/-`` (no space
    or line break that would make a log line look like two)."""
    return _NAME.fullmatch(name) is not None


def default_name() -> str:
    """``$COINCHE_PROCESS_NAME``, else ``<hostname>:<pid>`` (the host name cut to fit)."""
    named = os.environ.get(ENV_NAME)
    if named:
        return named
    pid = f":{os.getpid()}"
    host = "".join(ch if _NAME.fullmatch(ch) else "-" for ch in socket.gethostname()) or "host"
    return host[: NAME_MAX - len(pid)] + pid


def instance_id(name: str) -> str:
    """This run of the process named ``name``, for rows that must not be taken for those of
    an earlier run of the same name (a server's presence rows): the name and a random tag."""
    tag = f":{secrets.token_hex(3)}"
    return name[: NAME_MAX - len(tag)] + tag


class ProcessName(logging.Filter):
    """Gives every record that reaches a handler the process's name (``process_name``)."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.process_name = name

    def filter(self, record: logging.LogRecord) -> bool:
        record.process_name = self.process_name
        return True


class JsonLines(logging.Formatter):
    """A log record as one line of JSON: ``time`` (UTC, ISO 8601), ``level``, ``logger``,
    ``process``, ``message``, and when known ``request_id`` and ``table_id`` (the running
    request's and table's, ``request_context``); an access line adds ``client``,
    ``request`` and ``status``; a failure, its ``exception`` (the traceback, in the log
    only: never shown to a visitor)."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "process": getattr(record, "process_name", None),
            "message": record.getMessage(),
        }
        request_id = request_context.REQUEST_ID.get()
        if request_id is not None:
            line["request_id"] = request_id
        table_id = request_context.table_id()
        if table_id is not None:
            line["table_id"] = table_id
        if record.name == "uvicorn.access" and isinstance(record.args, tuple) and len(record.args) == 5:
            client, method, path, version, status = record.args
            line.update(client=client, request=f"{method} {path} HTTP/{version}", status=status)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


LOG_FORMATS: Final = ("text", "json")
"""``--log-format``: a line of text, or one JSON object a line (``JsonLines``)."""


def log_config(name: str, json_lines: bool = False) -> dict[str, Any]:
    """The logging of ``coinche serve`` under process name ``name``."""
    formatters: dict[str, Any] = {
        "default": {"format": FORMAT},
        "access": {"()": "uvicorn.logging.AccessFormatter", "fmt": ACCESS_FORMAT, "use_colors": False},
    }
    if json_lines:
        formatters = {"default": {"()": JsonLines}, "access": {"()": JsonLines}}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"process": {"()": ProcessName, "name": name}},
        "formatters": formatters,
        "handlers": {
            "default": {
                "class": "logging.StreamHandler",
                "formatter": "default",
                "filters": ["process"],
                "stream": "ext://sys.stderr",
            },
            "access": {
                "class": "logging.StreamHandler",
                "formatter": "access",
                "filters": ["process"],
                "stream": "ext://sys.stderr",
            },
        },
        "loggers": {
            "uvicorn": {"handlers": ["default"], "level": "INFO", "propagate": False},
            "uvicorn.error": {"level": "INFO"},
            "uvicorn.access": {"handlers": ["access"], "level": "INFO", "propagate": False},
            "coinche.drain": {"level": "INFO"},
        },
        "root": {"handlers": ["default"], "level": "WARNING"},
    }
