"""The server's layers: each package imports only the ones below it (README, "Layout"),
and the engine and the bots import nothing of what sits on them. Read from the source's
imports (every ``import``, those inside functions too)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "coinche"

SERVER_LAYERS = ("table", "infra", "compute", "live", "features", "services", "web")
"""From the bottom up (``services.py``, a module, builds the layers below it for ``web``
and for ``worker.py``, which sits on top beside ``web``)."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> set[str]:
    """The absolute names of the modules ``path`` imports (relative ones resolved)."""
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            target = ".".join([*base, *([node.module] if node.module else [])])
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)  # ``from . import x``
    return found


def layer_of(module: str) -> int | None:
    parts = module.split(".")
    if parts[:2] != ["coinche", "server"] or len(parts) < 3:
        return None
    if parts[2] in SERVER_LAYERS:
        return SERVER_LAYERS.index(parts[2])
    return len(SERVER_LAYERS) if parts[2] == "worker" else None


SERVER_FILES = sorted((SRC / "server").rglob("*.py"))


@pytest.mark.parametrize("path", SERVER_FILES, ids=lambda p: str(p.relative_to(SRC)))
def test_a_server_module_imports_only_its_layer_and_those_below(path: Path) -> None:
    own = layer_of(module_name(path))
    if own is None:
        return  # the package's own docstring
    up = sorted(m for m in imports_of(path) if (layer := layer_of(m)) is not None and layer > own)
    assert not up, f"{module_name(path)} imports a layer above its own: {up}"


@pytest.mark.parametrize(
    ("package", "forbidden"),
    [("engine", ("bots", "server", "terminal", "cli")), ("bots", ("server", "terminal", "cli"))],
)
def test_the_engine_and_the_bots_import_nothing_of_what_sits_on_them(package: str, forbidden: tuple[str, ...]) -> None:
    for path in sorted((SRC / package).rglob("*.py")):
        bad = sorted(m for m in imports_of(path) if m.split(".")[:2] in [["coinche", f] for f in forbidden])
        assert not bad, f"{module_name(path)} imports {bad}"


def test_the_layers_are_every_package_of_the_server() -> None:
    packages = {p.name for p in (SRC / "server").iterdir() if (p / "__init__.py").exists()}
    assert packages == set(SERVER_LAYERS) - {"services"}


def _server_graph() -> dict[str, set[str]]:
    modules = {module_name(path): path for path in SERVER_FILES}
    return {name: {m for m in imports_of(path) if m in modules and m != name} for name, path in modules.items()}


def test_no_server_module_imports_itself_round_a_cycle() -> None:
    """Not even for the type checker: a cycle is two modules that are one."""
    graph = _server_graph()
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        if name in path:
            cycle = [*path[path.index(name) :], name]
            raise AssertionError("import cycle: " + " -> ".join(cycle))
        if name in done:
            return
        for other in sorted(graph[name]):
            visit(other, [*path, name])
        done.add(name)

    for name in sorted(graph):
        visit(name, [])


def test_the_registry_of_live_tables_imports_none_of_its_listeners() -> None:
    """The registry hands the events of stored steps to whoever registered; it knows none
    of them, only the events (``live/events.py``)."""
    imported = _server_graph()["coinche.server.live.registry"]
    allowed = ("coinche.server.table.", "coinche.server.infra.", "coinche.server.live.events")
    assert all(m.startswith(allowed) for m in imported), sorted(imported)
