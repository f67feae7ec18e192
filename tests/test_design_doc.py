"""docs/design.md stays true: every file or folder it names exists, and every subsystem
of the server and subpackage of the client is on its tour.

The tour names paths in backquotes (``server/tables/table.py``, ``web/static/``); a
module that moves or goes without the page following it fails here, so a newcomer is
never sent to a file that is not there.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DESIGN = ROOT / "docs" / "design.md"

#: A path in backquotes: a top-level folder of ours, then anything up to the quote.
_PATH = re.compile(
    r"`((?:engine|protocol|server|client|web|switchboard|tests|docs|bench)/[^`\s]*)`"
)


def named_paths(text: str) -> set[str]:
    """The repository paths a page names in backquotes.

    >>> sorted(named_paths("see `server/app.py` and `web/static/`, not `game.apply`"))
    ['server/app.py', 'web/static/']
    """
    return set(_PATH.findall(text))


def test_every_path_the_design_names_exists() -> None:
    named = named_paths(DESIGN.read_text())
    assert len(named) > 40  # the tour names files, not only folders
    missing = sorted(p for p in named if not (ROOT / p.rstrip("/")).exists())
    assert missing == []


def test_every_subsystem_and_client_part_is_on_the_tour() -> None:
    text = DESIGN.read_text()
    parts = [
        f"{package}/{sub.name}/"
        for package in ("server", "client")
        for sub in sorted((ROOT / package).iterdir())
        if sub.is_dir() and (sub / "__init__.py").exists()
    ]
    assert parts, "no subpackages found"
    absent = [p for p in parts if f"`{p}`" not in text]
    assert absent == []
