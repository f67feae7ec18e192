"""A table as the lobby lists it (what anyone may see of it without being at it), and
the lobby's listing of every table, kept current at the least cost.

A summary is built from what the table and its game master say of themselves, the
prize held for it and its players' ratings. The listing (``Listing``) keeps one
summary per open table and one tuple of them all, shared by every request until a
summary really changes: after anything that may have changed a table
(``server.tables.lifetime.watch``) its summary is built again when the listing is
next asked for, and only a summary that differs from the one kept makes a new tuple.
A summary shows its players' ratings, which a game at another table changes: the
listing hears every game's end (``server.tables.events``) and builds again the
summary of every table where one of that game's people is seated (a server bot's
rating, which many tables show, is shown anew with that table's next change). A
crowd's requests to a table (record pages, looks) change nothing listed, so they
leave the listing, and the bytes the framing packed of it
(``server.transport.framing.SharedEncodings``), as they were.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import engine
from engine.described import OptionInfo
from protocol.fields import TableState, check_payload
from protocol.options import options_text
from protocol.payloads import TableSummary
from server.core import wire
from server.tables.events import GameEnded, GameStarted, SeatChanged, TableEvents
from server.tables.gamemaster import MasterPart
from server.tables.seating import Seating
from server.tables.settings import RATED


class Summarised(Protocol):
    """Who adds his own part to the summary (the game master)."""

    def summary_extra(self) -> MasterPart: ...


class Priced(Protocol):
    """The server's prizes (``server.tables.prize.Prizes``)."""

    def amount(self, table: int) -> int: ...


class Rating(Protocol):
    """The server's ratings (``server.players.profiles.Profiles``)."""

    def summary(self, family: str, players: Sequence[str | None]) -> list[int | None]: ...


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

    def players(self) -> list[str | None]: ...


def summary(
    table: Listed, prizes: Priced | None = None, ratings: Rating | None = None
) -> TableSummary:
    """The table as the lobby lists it, its keys in the order the spec documents them
    (``prizes``, ``ratings``: the server's, None if it keeps none)."""
    seating = table.seating
    gm = table.gm.summary_extra()
    players = table.players()
    return {
        "table": wire.table_word(table.id),
        "ruleset": table.ruleset,
        "family": table.family,
        "seats": len(seating.seats),
        "players": players,
        "taken": sum(s.name is not None for s in seating.seats),
        "spectators": len(seating.spectators),
        "state": table.state,
        "game": table.game_no,
        "master": table.master,
        "options": dict(table.options),  # kept, and compared: not the table's own map
        "options_text": options_words(table.ruleset, table.options),
        "start_when_full": bool(table.settings.get("start_when_full")),
        "prize": 0 if prizes is None else prizes.amount(table.id),
        "away": gm["away"],
        "turn_seconds": gm["turn_seconds"],
        "ratings": [] if ratings is None else ratings.summary(table.family, players),
        "rated": table.settings.get(RATED),  # None: rated with two people seated
    }


@functools.cache
def _described(ruleset: str) -> tuple[OptionInfo, ...]:
    return tuple(engine.ruleset(ruleset).schema.describe())


def options_words(ruleset: str, options: Mapping[str, Any]) -> list[str]:
    """A table's options that differ from its ruleset's defaults, in words
    (``protocol.options``); none while it has none."""
    return options_text(_described(ruleset), options) if options else []


#: The order of a page's tables by state: those a newcomer may join first.
STATE_ORDER: dict[str, int] = {TableState.WAITING: 0, TableState.PLAYING: 1, TableState.PAUSED: 2}
#: The most distinct pages kept between two changes of the listing (a crowd asking for
#: every offset makes them all again, as asked, past this many).
PAGES_KEPT = 64


def paged(listing: Sequence[TableSummary]) -> tuple[TableSummary, ...]:
    """The listing in the order its pages show it: waiting tables first, then those
    playing, paused and over, each in the lobby's own order (the tables' age).

    >>> [t["table"] for t in paged([{"table": "1", "state": "over"},
    ...     {"table": "2", "state": "playing"}, {"table": "3", "state": "waiting"}])]
    ['3', '2', '1']
    """
    last = len(STATE_ORDER)
    return tuple(sorted(listing, key=lambda s: STATE_ORDER.get(s["state"], last)))


class Listing:
    """Every open table's summary, and the tuple of them all, in the tables' order.

    ``changed`` is all a table's change costs (it is called after every command a
    table takes); the work is done when the listing is next asked for, for the tables
    changed since. Each summary is checked as a wire payload once, when it is built,
    so a ``tables`` reply may take the tuple as it is (``Tables.trusted``)."""

    def __init__(
        self,
        tables: Mapping[int, Listed],
        prizes: Priced | None = None,
        ratings: Rating | None = None,
    ) -> None:
        self._tables = tables  #: the lobby's open tables, by id, in the order listed
        self.prizes, self.ratings = prizes, ratings
        self._summaries: dict[int, TableSummary] = {}  #: table id -> its summary
        self._dirty: set[int] = set()  #: tables changed since their summary was built
        self._listing: tuple[TableSummary, ...] | None = None  #: while current
        #: the listing's order for pages (waiting tables first), and the pages cut from
        #: it, each the same tuple until the listing changes: while current
        self._ordered: tuple[TableSummary, ...] | None = None
        self._pages: dict[tuple[int, int], tuple[TableSummary, ...]] = {}
        self._ordered_of: tuple[TableSummary, ...] | None = None  #: the listing it orders

    def subscribe(self, events: TableEvents) -> None:
        """Hear every table's events: a game's start, a seat's change, a game's end."""
        events.listen(self.heard)

    def heard(self, event: object) -> None:
        """A table event: its table changed; a game's end changed its people's ratings,
        which the summary of every table where one of them is seated shows."""
        match event:
            case GameEnded(table=table_id, people=people) if event.finished:
                self.changed(table_id)
                gone = {p for p in people if p is not None}
                if gone:
                    for other_id, other in self._tables.items():
                        if any(s.name in gone for s in other.seating.seats):
                            self.changed(other_id)
            case (
                GameStarted(table=table_id)
                | SeatChanged(table=table_id)
                | GameEnded(table=table_id)
            ):
                self.changed(table_id)

    def summary(self, table: Listed) -> TableSummary:
        """``table`` as the lobby lists it (``summary`` with the server's prizes, ratings)."""
        return summary(table, self.prizes, self.ratings)

    def changed(self, table_id: int) -> None:
        """The table may have changed what is listed of it (or opened, or gone)."""
        self._dirty.add(table_id)

    def current(self) -> tuple[TableSummary, ...]:
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

    def page(self, start: int, count: int) -> tuple[tuple[TableSummary, ...], int]:
        """``count`` summaries from the ``start``-th, in the lobby's order for pages
        (``paged``: the tables waiting for players first), and how many tables are
        listed in all. A page is the same tuple for every request until the listing
        changes, so its bytes are made once (``server.transport.shared_listing``)."""
        listing = self.current()
        if self._ordered is None or self._ordered_of is not listing:
            self._ordered, self._ordered_of = paged(listing), listing
            self._pages = {}
        key = (start, count)
        got = self._pages.get(key)
        if got is None:
            if len(self._pages) >= PAGES_KEPT:
                self._pages.clear()
            got = self._pages[key] = self._ordered[start : start + count]
        return got, len(listing)

    def _renew(self, table_id: int) -> None:
        """Build the table's summary again; a new listing only if it differs."""
        table = self._tables.get(table_id)
        kept = self._summaries.get(table_id)
        if table is None or table.state == TableState.CLOSED:
            if kept is not None:
                del self._summaries[table_id]
                self._listing = None
            return
        fresh = self.summary(table)
        if fresh != kept:
            check_payload(fresh)
            self._summaries[table_id] = fresh
            self._listing = None
