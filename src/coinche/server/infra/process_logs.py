"""Log lines that name their process: with several ``coinche serve`` behind one proxy,
a line must say which of them wrote it.

``log_config(name)`` is the ``logging.config.dictConfig`` of ``coinche serve`` (handed to
uvicorn as its ``log_config``): the site's own loggers and uvicorn's (its errors and,
when its level lets them through, its access lines) all go to stderr, each line with the
time, the process's name and the level.
"""

from __future__ import annotations

import logging
import os
import re
import secrets
import socket
from typing import Any, Final

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


def log_config(name: str) -> dict[str, Any]:
    """The logging of ``coinche serve`` under process name ``name``."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"process": {"()": ProcessName, "name": name}},
        "formatters": {
            "default": {"format": FORMAT},
            "access": {"()": "uvicorn.logging.AccessFormatter", "fmt": ACCESS_FORMAT, "use_colors": False},
        },
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
