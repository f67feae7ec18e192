"""The house's import graph: the layer rule of the design, and no import circle.

Every ``import`` and ``from ... import`` of the project's own packages counts, at
module level or inside a function, under ``TYPE_CHECKING`` or not: a lazy import
hides a circle from Python, not from a reader.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "protocol", "server", "client", "switchboard")

#: What each package may import of the others (README.md, "Layout").
ALLOWED = {
    "engine": set(),
    "protocol": {"engine"},
    "server": {"engine", "protocol"},
    "client": {"engine", "protocol"},
    "switchboard": {"engine", "protocol", "server", "client"},
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {
        _module_name(p): p
        for pkg in PACKAGES
        for p in (ROOT / pkg).rglob("*.py")
        if "__pycache__" not in p.parts
    }


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The project module ``name`` stands for (a name imported from a module is that module)."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def import_graph() -> dict[str, set[str]]:
    """Module -> the project modules it imports."""
    modules = _modules()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    base = ".".join([*anchor, base] if base else anchor)
                targets = [f"{base}.{alias.name}" for alias in node.names]
            for target in targets:
                found = _resolve(target, modules)
                if found is not None and found != name and not name.startswith(found + "."):
                    graph[name].add(found)
    return graph


def circles(graph: dict[str, set[str]]) -> set[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[frozenset[str]] = set()

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.add(frozenset(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_layers_import_only_downwards() -> None:
    broken = [
        f"{name} imports {target}"
        for name, targets in import_graph().items()
        for target in targets
        if (a := name.split(".")[0]) != (b := target.split(".")[0]) and b not in ALLOWED[a]
    ]
    assert broken == []


#: The server's subsystems from the ground up (server/__init__.py): each may import
#: only those beneath it; ``server.app`` (no subsystem) composes them all.
SERVER_FLOORS = ("core", "store", "players", "tables", "tournaments", "operators", "transport")
#: Subsystems beside the floors, and the floors they may import.
SERVER_ASIDE = {"discovery": {"core"}}


def _subsystem(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if parts[0] == "server" and len(parts) > 1 and parts[1] != "app" else None


def _server_may_import(a: str, b: str) -> bool:
    if a in SERVER_ASIDE:
        return b in SERVER_ASIDE[a]
    if b in SERVER_ASIDE:
        return False
    return SERVER_FLOORS.index(b) < SERVER_FLOORS.index(a)


def test_every_server_module_is_in_a_subsystem() -> None:
    loose = [
        name
        for name in import_graph()
        if name.startswith("server.")
        and name != "server.app"
        and _subsystem(name) not in set(SERVER_FLOORS) | set(SERVER_ASIDE)
    ]
    assert loose == []


def test_server_subsystems_import_only_downwards() -> None:
    broken = [
        f"{name} imports {target}"
        for name, targets in import_graph().items()
        for target in targets
        if (a := _subsystem(name)) is not None
        and (b := _subsystem(target)) is not None
        and a != b
        and not _server_may_import(a, b)
    ]
    assert broken == []


#: What each of the client's subpackages may import of the others (client/__init__.py): the
#: connection library stands alone, so a bot takes it without a screen.
CLIENT_MAY_IMPORT = {"net": set(), "bots": {"net"}, "terminal": {"net", "bots"}}


def _client_part(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if parts[0] == "client" and len(parts) > 1 else None


def test_every_client_module_is_in_a_subpackage() -> None:
    loose = [
        name
        for name in import_graph()
        if name.startswith("client.") and _client_part(name) not in CLIENT_MAY_IMPORT
    ]
    assert loose == []


def test_client_subpackages_import_one_way() -> None:
    broken = [
        f"{name} imports {target}"
        for name, targets in import_graph().items()
        for target in targets
        if (a := _client_part(name)) is not None
        and (b := _client_part(target)) is not None
        and a != b
        and b not in CLIENT_MAY_IMPORT[a]
    ]
    assert broken == []


def test_no_import_circle() -> None:
    assert circles(import_graph()) == set()


def test_the_circle_finder_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == {frozenset({"a", "b", "c"})}
    assert circles({"a": {"b"}, "b": set()}) == set()


def test_no_two_test_modules_share_a_name() -> None:
    """pytest imports test modules by their file's name (there is no package above them):
    two of one name in a whole run are both refused, which a run of one folder never shows."""
    names: dict[str, list[str]] = {}
    for path in (ROOT / "tests").rglob("test_*.py"):
        names.setdefault(path.name, []).append(str(path.relative_to(ROOT)))
    assert {name: paths for name, paths in names.items() if len(paths) > 1} == {}
