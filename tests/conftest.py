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


SLOW_FIRST = ("tests/browser/", "tests/server/", "tests/bots/")
"""The suite's parts from the slowest tests to the quickest, the rest after them."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The slow tests first and the quick ones last: the workers share the tests in order
    (``--dist worksteal``), so the run ends on short tests spread over every worker instead
    of one long browser test with the other cores idle."""
    root = Path(str(config.rootpath))

    def part(item: pytest.Item) -> int:
        path = Path(str(item.path))
        where = path.relative_to(root).as_posix() if path.is_relative_to(root) else ""
        return next((i for i, prefix in enumerate(SLOW_FIRST) if where.startswith(prefix)), len(SLOW_FIRST))

    items.sort(key=part)  # stable: each part keeps its own order
