"""Nothing outside a family writes its game's state (DESIGN.md: each family owns how its
game is copied and rebuilt from a view). The strategies and the analysis build their
worlds with ``Game.copy``, ``from_view`` and ``deal_unseen``; this scan fails when code
outside the family packages assigns to a game's attribute on anything but its own
``self`` (``g.hands[s] = ...``, ``game.turn = ...``), or reaches for ``__dict__`` or
``setattr``. A game's attributes are the names found on live games of every ruleset.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import engine

ENGINE = Path(__file__).resolve().parents[2] / "engine"
#: The modules that build worlds from games and views: the strategies and the analysis.
SCANNED = sorted([*(ENGINE / "strategies").glob("*.py"), ENGINE / "analysis.py"])
#: Writes the scan cannot tell from a game's by name alone, each with what it writes to.
NOT_GAMES = {
    ("strategies/kilodney.py", "base.hands"),  # a Race: the search's own model of a hand
    # a Decision: the analysis's valuation of its options, corrected by the solver
    ("analysis.py", "dec.values[dec.played]"),
    ("analysis.py", "dec.values[dec.best]"),
}
#: Every attribute name a game of any ruleset carries.
GAME_NAMES = frozenset(
    name
    for ruleset in engine.rulesets()
    for name in vars(engine.new_game(ruleset, seats=4, seed=0))
)


def _root(node: ast.expr) -> ast.expr:
    """The object an attribute or subscript chain starts from: ``g`` in ``g.hands[s]``."""
    while isinstance(node, ast.Attribute | ast.Subscript):
        node = node.value
    return node


def _targets(node: ast.AST) -> list[ast.expr]:
    if isinstance(node, ast.Assign):
        out: list[ast.expr] = []
        for t in node.targets:
            out += list(t.elts) if isinstance(t, ast.Tuple | ast.List) else [t]
        return out
    if isinstance(node, ast.AugAssign | ast.AnnAssign):
        return [node.target]
    if isinstance(node, ast.Delete):
        return list(node.targets)
    return []


def writes_to_others(source: str) -> list[str]:
    """Each place in ``source`` that writes an attribute of an object other than ``self``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        for target in _targets(node):
            if not isinstance(target, ast.Attribute | ast.Subscript):
                continue
            chain = target.value if isinstance(target, ast.Subscript) else target
            if not isinstance(chain, ast.Attribute):
                continue  # a local list or dict item: not an object's state
            root = _root(chain)
            if chain.attr not in GAME_NAMES:
                continue
            if not (isinstance(root, ast.Name) and root.id in ("self", "cls")):
                found.append(f"line {node.lineno}: {ast.unparse(target)}")
        if isinstance(node, ast.Attribute) and node.attr == "__dict__":
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
        if isinstance(node, ast.Call) and ast.unparse(node.func) in (
            "setattr",
            "object.__setattr__",
        ):
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


@pytest.mark.parametrize("path", SCANNED, ids=lambda p: str(p.relative_to(ENGINE)))
def test_no_strategy_writes_a_games_state(path: Path) -> None:
    name = str(path.relative_to(ENGINE))
    found = [
        w for w in writes_to_others(path.read_text()) if (name, w.split(": ")[1]) not in NOT_GAMES
    ]
    assert found == []


def test_the_scan_finds_the_writes_a_world_builder_used_to_make() -> None:
    """What the strategies did before each family built its own worlds."""
    old = (
        "g = clone(proto)\n"
        "g.hands[s], cards = cards[:size], cards[size:]\n"
        "g.turn = view['to_act']\n"
        "g._scores = list(view['scores'])\n"
        "new.__dict__.update(state)\n"
        "self.memory.pile = []\n"  # a strategy's own state is its business
        "hands[0] = []\n"
        "node.visits += 1\n"  # not a game's attribute
    )
    assert [w.split(": ")[1] for w in writes_to_others(old)] == [
        "g.hands[s]",
        "g.turn",
        "g._scores",
        "new.__dict__",
    ]
