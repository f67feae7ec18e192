"""A table's settings beside its game's options: what the lobby and the game master
take out of the options a creator or master gives (``start_when_full``, ``rated``),
and what ``rated`` means for a game.

- ``rated``: the table's games are rated (True), unrated (False) or, unset, rated when
  at least ``PEOPLE_TO_RATE`` people hold seats at the deal (``server.players.profiles``
  says why two).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

#: The table setting that makes its games rated, unrated, or (unset) rated with people.
RATED = "rated"
#: People seated at the deal that make a game rated when the table's ``rated`` is unset.
PEOPLE_TO_RATE = 2


def rated_setting(options: dict[str, Any]) -> bool | None:
    """Take ``rated`` out of a table's ``options`` (a table setting, not a game option):
    True, False, or None when absent. ``ValueError`` if not a boolean."""
    if RATED not in options:
        return None
    value = options.pop(RATED)
    if not isinstance(value, bool):
        raise ValueError(f"option '{RATED}': true or false")
    return value


def is_rated(settings: Mapping[str, Any], people: Sequence[str | None]) -> bool:
    """Whether a game dealt to ``people`` (each seat's person, or None) is rated.

    >>> is_rated({}, ["ann", None, "bob"]), is_rated({}, ["ann", None]), is_rated({RATED: True}, [])
    (True, False, True)
    """
    setting = settings.get(RATED)
    if setting is None:
        return sum(p is not None for p in people) >= PEOPLE_TO_RATE
    return bool(setting)
