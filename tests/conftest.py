"""What every test shares: the order the tests start in.

The suite runs in four processes (``addopts`` in ``pyproject.toml``) that take the next
test as they finish one, so its wall time is the end of its longest chain: a long test
that starts last ends last. The tests marked ``slow`` (a browser game of several people,
a server killed and started again) start first, then the other browser tests, then the
short ones, which fill in around them."""

from __future__ import annotations

from pathlib import Path

import pytest

BROWSER = Path(__file__).parent / "browser"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: a test of many seconds, started before the others")


def _start_rank(item: pytest.Item) -> int:
    if item.get_closest_marker("slow") is not None:
        return 0
    return 1 if BROWSER in Path(str(item.path)).parents else 2


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=_start_rank)  # stable: each rank keeps the collection's order
