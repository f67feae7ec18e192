"""A table as the lobby lists it (what anyone may see of it without being at it), and
the lobby's listing of every table, kept current at the least cost.

A summary is built from what the table, its game master and its prize each say of
themselves. The listing (``Listing``) keeps one summary per open table and one tuple
of them all, shared by every request until a summary really changes: after anything
that may have changed a table (``server.tables.lifetime.watch``) its summary is
built again when the listing is next asked for, and only a summary that differs from
the one kept makes a new tuple. A crowd's requests to a table (record pages, looks)
change nothing listed, so they leave the listing, and the bytes the framing packed of
it (``server.transport.framing.SharedEncodings``), as they were.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any, Protocol

import trio

import engine
from protocol.fields import TableState, check_payload
from protocol.options import options_text
from server.core import wire
from server.tables.seating import Seating


class Summarised(Protocol):
    """Who adds his own part to the summary (the game master, the prize)."""

    def summary_extra(self) -> dict[str, Any]: ...


class Listed(Protocol):
    """What the listing reads of a table (``server.tables.table.Table``)."""

    @property
    def id(self) -> int: ...

    @property
    def ruleset(self) -> str: ...

    @property
    def family(self) -> str: ...

    @property
    def state(self) -> TableState: ...

    @property
    def game_no(self) -> int: ...

    @property
    def master(self) -> str | None: ...

    @property
    def options(self) -> dict[str, Any]: ...

    @property
    def settings(self) -> dict[str, Any]: ...

    @property
    def seating(self) -> Seating: ...

    @property
    def gm(self) -> Summarised: ...

    @property
    def prize(self) -> Summarised: ...

    def players(self) -> list[str | None]: ...


def summary(table: Listed) -> dict[str, Any]:
    """The table as the lobby lists it, its keys in the order the spec documents them."""
    seating = table.seating
    gm, prize = table.gm.summary_extra(), table.prize.summary_extra()
    return {
        "table": wire.table_word(table.id),
        "ruleset": table.ruleset,
        "family": table.family,
        "seats": len(seating.seats),
        "players": table.players(),
        "taken": sum(s.name is not None for s in seating.seats),
        "spectators": len(seating.spectators),
        "state": table.state,
        "game": table.game_no,
        "master": table.master,
        "options": dict(table.options),  # kept, and compared: not the table's own map
        "options_text": options_words(table.ruleset, table.options),
        "start_when_full": bool(table.settings.get("start_when_full")),
        "prize": prize["prize"],
        "away": gm["away"],
        "turn_seconds": gm["turn_seconds"],
        "ratings": prize["ratings"],
        "rated": prize["rated"],
    }


@functools.cache
def _described(ruleset: str) -> tuple[dict[str, Any], ...]:
    return tuple(engine.ruleset(ruleset).schema.describe())


def options_words(ruleset: str, options: Mapping[str, Any]) -> list[str]:
    """A table's options that differ from its ruleset's defaults, in words
    (``protocol.options``); none while it has none."""
    return options_text(_described(ruleset), options) if options else []


#: Tables whose summaries ``Listing.refresh`` builds again in one step of the event loop.
REFRESH_CHUNK = 100


class Listing:
    """Every open table's summary, and the tuple of them all, in the tables' order.

    ``changed`` is all a table's change costs (it is called after every command a
    table takes); the work is done when the listing is next asked for, for the tables
    changed since. Each summary is checked as a wire payload once, when it is built,
    so a ``tables`` reply may take the tuple as it is (``Tables.trusted``)."""

    def __init__(self, tables: Mapping[int, Listed]) -> None:
        self._tables = tables  #: the lobby's open tables, by id, in the order listed
        self._summaries: dict[int, dict[str, Any]] = {}  #: table id -> its summary
        self._dirty: set[int] = set()  #: tables changed since their summary was built
        self._listing: tuple[dict[str, Any], ...] | None = None  #: while current

    def changed(self, table_id: int) -> None:
        """The table may have changed what is listed of it (or opened, or gone)."""
        self._dirty.add(table_id)

    def current(self) -> tuple[dict[str, Any], ...]:
        """Every open table's summary: the same tuple while none of them changed."""
        if self._dirty:
            dirty, self._dirty = self._dirty, set()
            for table_id in dirty:
                self._renew(table_id)
        if self._listing is None:
            summaries = self._summaries
            self._listing = tuple(
                s for table_id in self._tables if (s := summaries.get(table_id)) is not None
            )
        return self._listing

    def _renew(self, table_id: int) -> None:
        """Build the table's summary again; a new listing only if it differs."""
        table = self._tables.get(table_id)
        kept = self._summaries.get(table_id)
        if table is None or table.state == TableState.CLOSED:
            if kept is not None:
                del self._summaries[table_id]
                self._listing = None
            return
        fresh = summary(table)
        if fresh != kept:
            self._summaries[table_id] = check_payload(fresh)
            self._listing = None

    async def refresh(self, every: float) -> None:
        """Forever, every ``every`` seconds: the summaries of the tables where someone
        is seated built again, ``REFRESH_CHUNK`` tables a step. A summary shows its
        players' ratings, which a game at another table may change without this table
        hearing of it; a table where nobody is seated shows no rating."""
        while True:
            await trio.sleep(every)
            ids = list(self._tables)
            for start in range(0, len(ids), REFRESH_CHUNK):
                for table_id in ids[start : start + REFRESH_CHUNK]:
                    table = self._tables.get(table_id)
                    if table is not None and any(table.players()):
                        self._renew(table_id)
                await trio.sleep(0)
