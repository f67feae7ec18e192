"""When a table ends by itself: nobody at it, or a game nobody plays.

A table's loop (``Table.run``) calls ``update`` after every command and every
deadline, asks ``deadline`` when it next has to act unasked, and calls
``on_deadline`` first when that time comes. Two rules, each a setting:

- **An empty table closes** (``empty_table_seconds``): a table that runs no game
  and where nobody is present (no seated player connected, nobody watching)
  for that long is closed, and the close is stored, so it stays closed after a
  restart. A seat held by someone who has gone counts as empty: otherwise a
  creator who sits down and disconnects would keep the table for ever. House
  tables (no creator) are exempt: they exist to wait for people.
- **An unattended game is abandoned** (``absent_game_seconds``): a running game
  (playing or paused) whose seats are all server bots or players who are
  absent (not connected, or marked away by the turn clock) for that long is
  abandoned as the game master's ``end_game`` abandons it: scored as it stands,
  nobody wins, the prize goes back (``Table.abandon``). The table then has no
  game running and, if nobody is there, closes after the empty-table grace.

- **A finished table leaves the lobby** (``finished_table_seconds``): a table
  whose game is over and where nobody is seated (no seated player connected;
  spectators do not count) for that long is closed, house tables too (another
  house table was opened when this one's game began). Otherwise a finished game
  nobody came back to would be listed until a restart.

After a restart nobody is connected, so the counts start again from the
restart: a table nobody comes back to closes one grace later.

The lobby follows every change of a table through ``watch``: ``update`` runs
after everything that may change what the lobby lists (a command, a deadline),
so it tells the lobby's watcher, which drops that table's cached summary.
"""

from __future__ import annotations

import logging
import math
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import trio

from protocol.fields import RUNNING, TableState
from server.core.config import ServerConfig
from server.core.logfmt import log_event

log = logging.getLogger("switchboard.lifetime")


class Lived(Protocol):
    """A table as this module sees it (``server.tables.table.Table``; a protocol, so that this
    module imports neither the table nor the game master). It only reads the table and
    asks it to act (``abandon_game``, ``close``); its own counts it keeps itself."""

    @property
    def id(self) -> int: ...

    @property
    def creator(self) -> str | None: ...

    @property
    def state(self) -> TableState: ...

    @property
    def game(self) -> Any: ...

    @property
    def gm(self) -> Any: ...  #: ``gamemaster.GameMaster``: ``gm.away`` says which seats are away

    @property
    def seats(self) -> Sequence[Any]: ...  #: each with ``name`` and ``member`` (None: gone)

    @property
    def spectators(self) -> set[Any]: ...

    @property
    def config(self) -> ServerConfig: ...

    async def abandon_game(self, reason: str) -> None: ...

    async def close(self, reason: str) -> None: ...


@dataclass(slots=True)
class _Kept:
    """What this module keeps for a table: the lobby's watcher and the three counts."""

    on_change: Callable[[Any], None] | None = None  #: the lobby's watcher
    over_since: float | None = None  #: since when its game is over and nobody is seated
    empty_since: float | None = None  #: since when nobody is at it (no game running)
    unattended_since: float | None = None  #: since when no player plays its game


#: Per table, held no longer than the table itself.
_kept: weakref.WeakKeyDictionary[Any, _Kept] = weakref.WeakKeyDictionary()


def watch(table: Any, on_change: Callable[[Any], None]) -> None:
    """Call ``on_change(table)`` after each ``update`` (anything that may have changed
    what the lobby lists of it)."""
    _kept.setdefault(table, _Kept()).on_change = on_change


def over_since(table: Any) -> float | None:
    """Since when the table's game is over with nobody seated (None: it is not)."""
    kept = _kept.get(table)
    return None if kept is None else kept.over_since


def empty_since(table: Any) -> float | None:
    """Since when nobody is at the table and it runs no game (None: someone is, or it
    is a house table)."""
    kept = _kept.get(table)
    return None if kept is None else kept.empty_since


def unattended_since(table: Any) -> float | None:
    """Since when no player who is here plays the table's running game (None: one does)."""
    kept = _kept.get(table)
    return None if kept is None else kept.unattended_since


def running(table: Lived) -> bool:
    return table.game is not None and table.state in RUNNING


def nobody_present(table: Lived) -> bool:
    """No seated player is connected and nobody is watching."""
    return not table.spectators and all(s.member is None for s in table.seats)


def unattended(table: Lived) -> bool:
    """A game runs and no seat is played by a player who is here: every seat is a bot's,
    or its player is not connected, or he is away."""
    if not running(table):
        return False
    return not any(
        s.name is not None and s.member is not None and not table.gm.away.is_away(i)
        for i, s in enumerate(table.seats)
    )


def nobody_seated(table: Lived) -> bool:
    """No seated player is connected (a seat whose player has gone counts as empty)."""
    return all(s.member is None for s in table.seats)


def update(table: Lived) -> None:
    """Start or stop the counts after anything that may have changed who is here."""
    now = trio.current_time()
    kept = _kept.get(table)
    if kept is None:
        kept = _kept[table] = _Kept()
    if table.state == TableState.OVER and nobody_seated(table):
        if kept.over_since is None:
            kept.over_since = now
    else:
        kept.over_since = None
    if kept.on_change is not None:
        kept.on_change(table)
    if not (table.creator is not None and not running(table) and nobody_present(table)):
        kept.empty_since = None
    elif kept.empty_since is None:
        kept.empty_since = now
    if not unattended(table):
        kept.unattended_since = None
    elif kept.unattended_since is None:
        kept.unattended_since = now


def deadline(table: Lived) -> float:
    """When the table must close or abandon its game, if nothing changes (inf: never)."""
    config = table.config
    kept = _kept.get(table)
    if kept is None:
        return math.inf
    out = math.inf
    if kept.empty_since is not None and config.empty_table_seconds > 0:
        out = kept.empty_since + config.empty_table_seconds
    if kept.unattended_since is not None and config.absent_game_seconds > 0:
        out = min(out, kept.unattended_since + config.absent_game_seconds)
    if kept.over_since is not None and config.finished_table_seconds > 0:
        out = min(out, kept.over_since + config.finished_table_seconds)
    return out


async def on_deadline(table: Lived) -> bool:
    """Close the table or abandon its game if its time has come; True if it did."""
    config = table.config
    now = trio.current_time()
    since = unattended_since(table)
    if (
        since is not None
        and config.absent_game_seconds > 0
        and (
            now >= since + config.absent_game_seconds  # the very sum ``deadline`` waits for
        )
    ):
        log_event(log, "table.unattended_abandoned", table=table.id)
        await table.abandon_game("nobody has played it for a while")
        return True
    since = over_since(table)
    if (
        since is not None
        and config.finished_table_seconds > 0
        and now >= since + config.finished_table_seconds
    ):
        log_event(log, "table.finished_closed", table=table.id)
        await table.close("its game is over and nobody is seated")
        return True
    since = empty_since(table)
    if (
        since is not None
        and config.empty_table_seconds > 0
        and (now >= since + config.empty_table_seconds)
    ):
        log_event(log, "table.empty_closed", table=table.id)
        await table.close("nobody was at it")
        return True
    return False
