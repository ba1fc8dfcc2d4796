"""Small tasks for the bot pool's tests, run in its worker processes (this folder is on
``sys.path`` in the tests, and a worker gets the parent's path)."""

from __future__ import annotations

import os
import time
from pathlib import Path


def nap(seconds: float, tag: str) -> str:
    time.sleep(seconds)
    return tag


def die_once(marker: str) -> str:
    """Kills its worker process the first time (the marker file says it did), then answers."""
    path = Path(marker)
    if not path.exists():
        path.write_text("died")
        os._exit(1)
    return "alive"


def fail(message: str) -> str:
    """Raises: a job that fails wherever it runs."""
    raise ValueError(message)
