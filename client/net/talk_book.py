"""The recent talk at each seat this client holds, kept between runs, so a player who
starts his client again reads what was said beside the plays the server catches him up on.

The server numbers events and sends a resumed seat the ones it missed; talk is not
numbered and never replayed (docs/protocol.md), so what was said before a restart lives
only where it was heard: the browser keeps its log in local storage, and this book keeps
the terminal client's, per server and name (``name@host:port``) and table, beside the
seats' tokens, readable by the user alone. Each line keeps the table's event number it
followed (``after``), so the restored talk sits between the right plays.

>>> import tempfile, pathlib
>>> book = TalkBook(pathlib.Path(tempfile.mkdtemp()) / "talk.json")
>>> book.keep("ann@h:1", "3", LogLine("talk", {"name": "bob", "text": "gl"}, at=1.0, after=4))
>>> [(x.data["text"], x.after) for x in book.lines("ann@h:1", "3")]
[('gl', 4)]
>>> book.forget("ann@h:1", "3"); book.lines("ann@h:1", "3")
[]
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

from client.net.config import config_dir
from client.net.seats import TableBook
from client.net.state import LogLine

TALK_FILE = "talk.json"
#: talk lines kept a table (the newest): a screenful and more, as the browser keeps
KEPT_LINES = 60


class TalkBook(TableBook):
    """Talk lines by ``name@host:port`` and table, in one private JSON file."""

    def __init__(self, path: Path | None = None) -> None:
        super().__init__(path or (config_dir() / TALK_FILE))

    def _read(self) -> dict[str, dict[str, list[dict[str, Any]]]]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def lines(self, who: str, table: str) -> list[LogLine]:
        """The kept talk at ``table``, oldest first (a damaged entry is skipped)."""
        kept = self._read().get(who, {})
        entries = kept.get(table, []) if isinstance(kept, dict) else []
        out = []
        for entry in entries if isinstance(entries, list) else []:
            with contextlib.suppress(KeyError, TypeError, ValueError):
                data = {"name": str(entry["name"]), "text": str(entry["text"])}
                after = entry.get("after")
                out.append(
                    LogLine(
                        "talk",
                        data,
                        at=float(entry["at"]),
                        after=int(after) if after is not None else None,
                    )
                )
        return out

    def keep(self, who: str, table: str, line: LogLine) -> None:
        """Add one talk line, dropping the oldest past ``KEPT_LINES``."""
        data = self._read()
        mine = data.get(who)
        if not isinstance(mine, dict):
            mine = data[who] = {}
        entries = mine.get(table)
        if not isinstance(entries, list):
            entries = []
        entries.append(
            {"name": line.data.get("name"), "text": line.data.get("text"), "at": line.at,
             "after": line.after}
        )  # fmt: skip
        mine[table] = entries[-KEPT_LINES:]
        self._write(data)
