"""The seats this client holds, kept between runs, so a player whose client died (or who
quit) sits down again by himself when he starts it again.

A seat's token is its key on the server (``resume`` with it takes the seat back from any
connection), so the tokens are kept like the secrets: per server and name
(``name@host:port``), in the user's config directory, in a file only the user may read
(mode 0600). A seat is remembered when the server says ``seated`` and forgotten on
``leave`` or when the server no longer knows the token.

>>> import tempfile, pathlib
>>> book = SeatBook(pathlib.Path(tempfile.mkdtemp()) / "seats.json")
>>> book.remember("ann@h:1", "3", "tok")
>>> book.held("ann@h:1"), book.held("bob@h:1")
({'3': 'tok'}, {})
>>> book.forget("ann@h:1", "3"); book.held("ann@h:1")
{}
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

from client.net.config import config_dir, write_private

SEATS_FILE = "seats.json"


class TableBook:
    """Entries by ``name@host:port`` and table, in one private JSON file: what the seat
    books of this client (tokens here, talk in ``client.net.talk_book``) have in common."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _read(self) -> dict[str, dict[str, Any]]:
        raise NotImplementedError

    def forget(self, who: str, table: str) -> None:
        """The seat is given up (or gone): its entry goes."""
        data = self._read()
        if table not in data.get(who, {}):
            return
        del data[who][table]
        if not data[who]:
            del data[who]
        self._write(data)

    def _write(self, data: dict[str, Any]) -> None:
        with contextlib.suppress(OSError):  # a read-only home: nothing is kept
            write_private(self.path, data)


class SeatBook(TableBook):
    """Seat tokens by ``name@host:port`` and table, in one private JSON file."""

    def __init__(self, path: Path | None = None) -> None:
        super().__init__(path or (config_dir() / SEATS_FILE))

    def _read(self) -> dict[str, dict[str, str]]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        return {
            str(k): {str(t): str(tok) for t, tok in v.items()}
            for k, v in data.items()
            if isinstance(v, dict)
        }

    def held(self, who: str) -> dict[str, str]:
        """Table -> token for ``who`` (``name@host:port``)."""
        return self._read().get(who, {})

    def remember(self, who: str, table: str, token: str) -> None:
        data = self._read()
        if data.get(who, {}).get(table) == token:
            return
        data.setdefault(who, {})[table] = token
        self._write(data)
