"""The pages ask each for the one named service it uses (``accounts_of(request)``,
``tables_of(request)``...), never the bag of live parts (``parts_of``), and hold no
knowledge of the store: what they read is a method of the feature that owns the data."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[3] / "src" / "coinche" / "server" / "web"

NARROW_PAGES = (
    "account_pages.py",
    "profile_pages.py",
    "history_pages.py",
    "review_pages.py",
    "daily_pages.py",
    "open_tables_pages.py",
    "tournament_pages.py",
    "bot_pages.py",
)


def reaches_through(path: Path) -> list[str]:
    """Where ``path`` reaches through a bag or into a store: a call of ``parts_of``, an
    import of ``TableParts``, a call of a ``db`` (the database's threads) or a use of a
    ``store`` attribute."""
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if name in ("parts_of", "db"):
                found.append(f"line {node.lineno}: {name}(...)")
        elif isinstance(node, ast.Attribute) and node.attr in ("store", "parts"):
            found.append(f"line {node.lineno}: .{node.attr}")
        elif isinstance(node, ast.ImportFrom) and any(alias.name == "TableParts" for alias in node.names):
            found.append(f"line {node.lineno}: imports TableParts")
    return found


@pytest.mark.parametrize("name", NARROW_PAGES)
def test_a_page_asks_for_named_services_not_the_parts_nor_the_store(name: str) -> None:
    assert reaches_through(WEB / name) == []
