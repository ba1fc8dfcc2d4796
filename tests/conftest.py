"""The whole suite's order: the longest tests first, so the four test processes (pytest-xdist,
``--dist load``: each takes the next test when it is free) end together instead of one
running a minute-long browser test alone at the end. The list is of modules and tests that
take ten seconds or more on this project's two-core machine; everything else keeps its
order after them."""

from __future__ import annotations

import pytest

SLOW_FIRST = (
    "test_browser_daily.py::test_two_accounts",
    "test_browser_friends.py::test_a_crash_loses_nothing",
    "test_browser_friends.py::test_four_friends",
    "test_browser_friends.py::test_three_friends",
    "test_browser_daily.py::test_a_guest_plays",
    "test_browser_history.py",
    "test_browser_drain.py",
    "test_browser_limit.py",
    "test_friends_security.py",
    "test_daily.py::test_same_actions",
    "test_browser_friends.py",
    "test_browser_accounts.py",
    "test_browser_game.py",
    "test_several_servers.py",
    "test_restart.py",
    "test_browser_phone_pages.py",
    "test_browser_meld_focus.py",
    "test_browser_friends_seats.py",
    "test_browser_home.py",
    "test_browser_csp.py",
    "test_browser_review.py",
    "test_browser_trick_timing.py",
    "test_browser_quick_play.py",
    "test_browser_open_tables.py",
    "test_workers.py",
    "test_friends_restart.py",
    "test_baselines.py",
    "test_solver_exactness.py",
    "test_browser_accessibility.py",
    "test_browser_verify.py",
    "test_no_leak.py",
    "test_service.py",
)


def _rank(item: pytest.Item) -> int:
    for rank, part in enumerate(SLOW_FIRST):
        if part in item.nodeid:
            return rank
    return len(SLOW_FIRST)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items.sort(key=_rank)  # stable: the order within each rank is the collection's
