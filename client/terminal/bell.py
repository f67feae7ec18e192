"""The terminal's turn bell: the terminal rings (``\\a``, prompt_toolkit's ``Output.bell``)
when the turn comes to one of our seats, at any table, so a player in another window hears
it is his move. ``bell off`` silences it, and the choice is kept in the client's config
directory (``client.net.config``: ``terminal.json``, beside the secrets) for the next run.

>>> bell = TurnBell(on=True)
>>> bell.due({"1": _Seat(True)}), bell.due({"1": _Seat(True)}), bell.due({"1": _Seat(False)})
(True, False, False)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Protocol

from client.net.config import config_dir, write_private

#: The terminal client's own settings, in the config directory.
SETTINGS_FILE = "terminal.json"


class Seated(Protocol):
    """A table as the bell sees it (``client.net.state.TableState``)."""

    @property
    def my_turn(self) -> bool: ...


class TurnBell:
    """Says when to ring: once each time the turn comes to one of our seats (not again
    while it stays there), and never while it is off."""

    def __init__(self, on: bool = True) -> None:
        self.on = on
        self._ours: set[str] = set()  #: the tables where the turn is ours now

    def due(self, tables: Mapping[str, Seated]) -> bool:
        """Whether to ring now, the tables as they are after a message."""
        ours = {table for table, t in tables.items() if t.my_turn}
        fresh = bool(ours - self._ours)
        self._ours = ours
        return fresh and self.on


def _settings(directory: Path | None) -> dict[str, object]:
    try:
        data = json.loads(((directory or config_dir()) / SETTINGS_FILE).read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def bell_on(directory: Path | None = None) -> bool:
    """Whether the bell rings (on unless it was turned off)."""
    return _settings(directory).get("bell") is not False


def keep_bell(on: bool, directory: Path | None = None) -> None:
    """Keep the bell on or off for the next run."""
    settings = _settings(directory)
    settings["bell"] = on
    write_private((directory or config_dir()) / SETTINGS_FILE, settings)


class _Seat:
    """A table for the doctest: our turn or not."""

    def __init__(self, mine: bool) -> None:
        self.my_turn = mine
