"""The table is one actor whose parts are its own: no module writes a table's attributes.

The table (``server.tables.table.Table``) owns its collaborators (seating, delivery,
the store gate, the bots' turns, the inbox, restoration, the member requests, the
game master and his commands) and is built whole by its constructor; the lobby, the
table's lifetime and the operators ask it things, they do not write into it. This
reads every module that holds or handles a table and finds no assignment to an
attribute of a table (``table.x = ...``, ``t.gm.x = ...``, ``self.table.x = ...``).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: The modules that hold a table or are handed one.
MODULES = [
    *sorted((ROOT / "server" / "tables").glob("*.py")),
    ROOT / "server" / "operators" / "ops.py",
    ROOT / "server" / "operators" / "admin.py",
    ROOT / "server" / "players" / "profiles.py",
    ROOT / "server" / "app.py",
]
#: Names a table goes by where it is handed around.
TABLE_NAMES = {"table", "t", "tbl", "host"}


def _chain(node: ast.expr) -> list[str]:
    """``self.table.gm.ledger`` -> ["self", "table", "gm", "ledger"] (others: [])."""
    out: list[str] = []
    while isinstance(node, ast.Attribute):
        out.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        out.append(node.id)
        return out[::-1]
    return []


def _writes_into_a_table(target: ast.expr) -> bool:
    chain = _chain(target)
    if len(chain) < 2:
        return False
    owner = chain[1:-1] if chain[0] == "self" else chain[:-1]
    return any(name in TABLE_NAMES for name in owner)


def writes(path: Path) -> list[str]:
    """Each assignment in ``path`` to an attribute of a table, as ``path:line``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        else:
            continue
        flat = [e for t in targets for e in (t.elts if isinstance(t, ast.Tuple) else [t])]
        if any(_writes_into_a_table(t) for t in flat):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_the_check_sees_a_write_into_a_table() -> None:
    for line in ("table.empty_since = 1", "self.table.state = x", "t.gm.ledger = x",
                 "table.thinker, x = y, z", "t.gm.counter += 1"):  # fmt: skip
        (stmt,) = ast.parse(line).body
        assert isinstance(stmt, ast.Assign | ast.AugAssign)
        target = stmt.targets[0] if isinstance(stmt, ast.Assign) else stmt.target
        elts = target.elts if isinstance(target, ast.Tuple) else [target]
        assert any(_writes_into_a_table(e) for e in elts), line
    for line in ("self.table = table", "self.state = x", "kept.over_since = now"):
        (stmt,) = ast.parse(line).body
        assert isinstance(stmt, ast.Assign)
        assert not _writes_into_a_table(stmt.targets[0]), line


def test_no_module_writes_a_tables_attributes() -> None:
    found = [w for path in MODULES for w in writes(path)]
    assert found == []
