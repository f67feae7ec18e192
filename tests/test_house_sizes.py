"""The house's sizes: no class over ``MAX_CLASS_LINES`` lines, no function over
``MAX_COMPLEXITY`` (McCabe), outside the few exceptions listed here with their reason.

Why a test and not only a linter: ruff's ``C901`` measures a function's complexity
(``pyproject.toml`` sets it at the same ``MAX_COMPLEXITY`` and CI runs it), but no
linter measures a class's length, and a class that grows past a screenful of
screens is where a reader gets lost. Each exception below names why it
stands; an exception that no longer needs to stand fails the test, so the list
only shrinks.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "protocol", "server", "client", "switchboard")

#: The longest a class may be, in lines (its decorators and docstring included).
MAX_CLASS_LINES = 500
#: The most branches a function may hold (ruff's C901, McCabe's count).
MAX_COMPLEXITY = 15

#: Classes allowed past the limit for now, and why.
CLASS_EXCEPTIONS: dict[str, str] = {}


def _classes() -> dict[str, int]:
    """Every class of the packages, ``path::Name`` -> its length in lines."""
    out: dict[str, int] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(), str(path))
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef):
                    start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                    key = f"{path.relative_to(ROOT).as_posix()}::{node.name}"
                    out[key] = (node.end_lineno or node.lineno) - start + 1
    return out


def test_no_class_is_over_the_limit() -> None:
    too_long = {
        key: lines
        for key, lines in _classes().items()
        if lines > MAX_CLASS_LINES and key not in CLASS_EXCEPTIONS
    }
    assert too_long == {}


def test_every_exception_still_needs_to_stand() -> None:
    sizes = _classes()
    stale = [key for key in CLASS_EXCEPTIONS if sizes.get(key, 0) <= MAX_CLASS_LINES]
    assert stale == []


def test_the_linter_measures_complexity_at_the_same_limit() -> None:
    lint = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["ruff"]["lint"]
    assert "C901" in lint["select"]
    assert lint["mccabe"]["max-complexity"] == MAX_COMPLEXITY


# ------------------------------------------------------------ the table actor
#: The table actor and its game master are held to less than the house's limit: every
#: layer above them (the prize, the ratings, the listing, tournaments) hears a game's end
#: through the table's events instead of a line added to them.
TABLE_CLASSES = {
    "server/tables/table.py::Table": 400,
    "server/tables/gamemaster.py::GameMaster": 400,
}


def test_the_table_and_its_game_master_stay_small() -> None:
    sizes = _classes()
    assert {k: sizes[k] for k in TABLE_CLASSES if sizes[k] >= TABLE_CLASSES[k]} == {}


#: The modules that hear a game's end, and the one that announces it.
SUBSCRIBERS = ("server.tables.prize", "server.tables.results", "server.tables.listing")
EVENTS = "server.tables.events"
#: Where a game is played and ended: they name no subscriber.
ANNOUNCERS = (
    "server.tables.table",
    "server.tables.gamemaster",
    "server.tables.master_commands",
    "server.tables.course",
    "server.tables.member_requests",
)


def _imports(module: str) -> set[str]:
    """The project modules ``module`` imports (``from a import b`` counts as ``a.b``)."""
    path = ROOT / (module.replace(".", "/") + ".py")
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_the_game_end_reaches_its_subscribers_only_through_the_table_events() -> None:
    """The prize, the results and ratings and the listing hear a game's end from the
    table's events; the table's own modules import none of them (nor the profiles)."""
    forbidden = {*SUBSCRIBERS, "server.players.profiles"}
    named = {m: sorted(_imports(m) & forbidden) for m in ANNOUNCERS}
    assert {m: found for m, found in named.items() if found} == {}
    assert [m for m in SUBSCRIBERS if EVENTS not in _imports(m)] == []
    assert "server.players.profiles" in _imports("server.tables.results")
