"""The whole suite's set-up, once, before the test processes start."""

from __future__ import annotations

import compileall
from pathlib import Path

import pytest

import coinche


def pytest_configure(config: pytest.Config) -> None:
    """Compile the project's modules once: the suite starts hundreds of Python processes
    (servers, workers, the command line), and where ``PYTHONDONTWRITEBYTECODE`` is set (this
    machine's shells set it) each would compile every module again from its source, about
    half a second a process. ``compileall`` writes the cache whatever that variable says,
    and an import reads it."""
    if hasattr(config, "workerinput"):  # an xdist worker: the controller did it
        return
    compileall.compile_dir(Path(coinche.__file__).parent, quiet=1, workers=0)
