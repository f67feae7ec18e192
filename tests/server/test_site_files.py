"""The browser client's files, as the game port serves them: the top-level ``web``
package's ``static/`` folder, found as package data (never imported as code), every file
of it served and every file of it named by pyproject's package data (what a wheel carries);
the development files beside it (package.json, tsconfig.json, tests) are neither."""

from __future__ import annotations

import fnmatch
import re
import tomllib
from pathlib import Path

from server.transport.web import CONTENT_TYPES, static_files

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "web" / "static"


def _served_here() -> set[str]:
    """The files under web/static that the server would serve, as URL paths."""
    return {
        "/" + p.relative_to(STATIC).as_posix()
        for p in STATIC.rglob("*")
        if p.is_file() and p.suffix.lower() in CONTENT_TYPES
    }


def test_the_site_serves_every_file_of_the_browser_client_and_nothing_else():
    files = static_files()
    expected = _served_here()
    assert {"/index.html", "/app.js", "/state.js", "/boards/abbott.js"} <= expected
    assert set(files) - {"/"} == expected
    assert files["/app.js"].body == (STATIC / "app.js").read_bytes()
    assert not any(path.startswith(("/tests", "/node_modules", "/package")) for path in files)


def test_the_wheel_carries_the_browser_clients_files():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    setuptools = data["tool"]["setuptools"]
    assert "web" in setuptools["packages"]["find"]["include"]
    patterns = setuptools["package-data"]["web"]
    for path in _served_here():
        name = "static" + path
        assert any(fnmatch.fnmatch(name, p) for p in patterns), (name, patterns)
    for dev in ("package.json", "tsconfig.json", "tests/state.test.js"):
        assert not any(fnmatch.fnmatch(dev, p) for p in patterns), dev


def test_the_server_reads_the_browser_client_as_data_not_code():
    """No module of the server imports ``web``: the files are found by package name."""
    importing = re.compile(r"^\s*(?:import|from)\s+web\b", re.MULTILINE)
    for path in (ROOT / "server").rglob("*.py"):
        assert not importing.search(path.read_text()), path
