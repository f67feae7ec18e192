"""What the game port serves over HTTP: the web client's files and the rules pages, as one
fixed table built when the server starts.

The table maps each URL path to the bytes it serves; a request is looked up in it and in
nothing else, so no request ever names a file (no path is joined, no ``..`` can climb).
The files are the browser client's, the ``static/`` folder of the top-level ``web`` package
(package data, shipped in the wheel), read once through ``importlib.resources``; no Python
of that package is imported (it has none: the files are data). ``static/index.html`` is
served at ``/`` (and at ``/index.html``), and every other file at its path under
``static/``, so ``static/app.js`` is ``/app.js`` and ``static/boards/abbott.js`` is
``/boards/abbott.js``. A file whose kind is not in ``CONTENT_TYPES`` (or whose name starts
with a dot) is not served. ``/rules/FAMILY`` serves the same rules text as the terminal
client's F2 (``protocol.rules``).

Every response names its content type (``X-Content-Type-Options: nosniff`` makes the
browser hold to it) and carries a strong ``ETag`` (a hash of the bytes) with
``Cache-Control: no-cache``: the files have no version in their names (no build step), so a
browser revalidates each on load and gets ``304 Not Modified`` while it is unchanged, and the
new file as soon as the server is upgraded.

>>> pages = site()
>>> pages["/rules/abbott"].content_type
'text/plain; charset=utf-8'
>>> "/../pyproject.toml" in pages
False
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from importlib.abc import Traversable

from protocol.rules import FAMILIES, family_text

#: The kinds of file served, by suffix; anything else under ``static/`` is left out.
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".webp": "image/webp",
    ".woff2": "font/woff2",
    ".txt": "text/plain; charset=utf-8",
}


@dataclass(frozen=True, slots=True)
class Resource:
    """One thing the HTTP side serves: its bytes, their type, and their entity tag."""

    body: bytes
    content_type: str
    etag: str  #: a strong entity tag, quotes included

    @classmethod
    def of(cls, body: bytes, content_type: str) -> Resource:
        digest = hashlib.blake2b(body, digest_size=12).hexdigest()
        return cls(body, content_type, f'"{digest}"')


def _walk(folder: Traversable, prefix: str) -> Iterator[tuple[str, Traversable]]:
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.startswith((".", "_")):
            continue
        if entry.is_dir():
            yield from _walk(entry, f"{prefix}{entry.name}/")
        elif entry.is_file():
            yield f"{prefix}{entry.name}", entry


#: The package whose ``static/`` folder holds the browser client's files.
CLIENT_PACKAGE = "web"


def static_files() -> dict[str, Resource]:
    """URL path -> resource for every file of the web client (none if it is not installed)."""
    table: dict[str, Resource] = {}
    try:
        folder = resources.files(CLIENT_PACKAGE).joinpath("static")
    except ModuleNotFoundError:
        return table
    if not folder.is_dir():
        return table
    for relative, entry in _walk(folder, ""):
        suffix = "." + relative.rpartition(".")[2] if "." in relative else ""
        content_type = CONTENT_TYPES.get(suffix.lower())
        if content_type is not None:
            table["/" + relative] = Resource.of(entry.read_bytes(), content_type)
    if "/index.html" in table:
        table["/"] = table["/index.html"]
    return table


def rules_pages() -> dict[str, Resource]:
    """``/rules/FAMILY`` -> that family's rules text, as the browser shows it (where the
    terminal client's says type, it says tap: ``protocol.rules.WORDINGS``)."""
    table = {}
    for family in FAMILIES:
        text = family_text(family, "tapped")
        if text is not None:
            table[f"/rules/{family}"] = Resource.of(text.encode(), CONTENT_TYPES[".txt"])
    return table


#: A finished game's link, ``/g/TABLE-GAME``: the page itself (``index.html``), which
#: reads its path and opens that game's replay.
GAME_LINK = re.compile(r"/g/[0-9]{1,12}-[0-9]{1,9}")


def page_path(path: str) -> str:
    """The site path that serves ``path``: ``/index.html`` for one of the page's own
    links, else ``path`` itself.

    >>> page_path("/g/12-3"), page_path("/g/x"), page_path("/app.js")
    ('/index.html', '/g/x', '/app.js')
    """
    return "/index.html" if GAME_LINK.fullmatch(path) else path


@functools.cache
def site() -> dict[str, Resource]:
    """Everything served by path: the web client's files and the rules pages (read once,
    at the first request; the table is never changed)."""
    return {**static_files(), **rules_pages()}
