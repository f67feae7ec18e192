"""The room: who is on the server and where (``who``), and the channel every table
shares (``shout``), FICS's two ways of seeing a server as a place with people in it.

Both are read from memory between awaits, as the lobby's listing is: the server's
connections (each a ``Present``: its name, the tables it is at, whether it hears
shouts) and the lobby's tables. Nothing here is stored; a restart starts the room
empty, as the connections are.

Bounds, each a ``ServerConfig`` setting but ``WHO_TABLES``:

- a ``who`` reply lists at most ``who_max`` names (the rest are counted), and for each
  name at most ``WHO_TABLES`` tables, however many its connections are at (each table
  once, the seats first; the rest are counted in ``more``), so a reply is at most a few
  hundred bytes a name whatever one name does;
- a connection is at (seated or watching) at most ``tables_at_per_connection`` tables at
  once, and all the connections of one address together at most
  ``tables_at_per_address`` (trusted addresses: no limit of their own): the next
  ``join``, ``spectate`` or ``resume`` is refused (``At``). Without it one name on 64
  connections watching every table made each ``who`` a 4 MB reply built on the loop;
- a shout is cleaned and cut like table talk and draws on its connection's talk
  allowance (the caller's), but only once the room has taken it: its address relays
  at most ``shout_address_burst`` shouts at once, then ``shout_address_per_second``,
  and the whole server ``shout_burst``, then ``shout_per_second``, so neither a
  thousand connections within their own allowance nor one address's 64 connections
  can make the server write a thousand times a thousand lines a second, or keep
  everyone else from shouting.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from protocol import messages as m
from protocol import payloads
from protocol.fields import RUNNING
from protocol.table_lines import online_text, where_text
from server.core import wire
from server.core.config import ServerConfig
from server.core.limits import AddressBudget, TokenBucket

#: What a person is doing, busiest first: the state ``who`` gives him is the first that
#: holds at any table he is at.
PLAYING, SEATED, WATCHING, IDLE = "playing", "seated", "watching", "idle"

#: Tables listed for one name in a ``who`` reply at most (its seats first); the rest are
#: counted in the entry's ``more``.
WHO_TABLES = 8


class Present(Protocol):
    """A connection as the room sees it (``server.transport.session.ClientSession``)."""

    @property
    def name(self) -> str | None: ...

    tables: set[int]  #: the tables it is at, seated or watching
    hears_shouts: bool
    last_message: float  #: when it last sent a whole message (trio's clock)

    def deliver(self, message: Any) -> None: ...


class Visitor(Protocol):
    """A connection as the table caps see it: where it comes from, where it is."""

    peer: str  #: its address
    tables: set[int]


class Seated(Protocol):
    @property
    def member(self) -> Any: ...


class Place(Protocol):
    """A table as the room reads it (``server.tables.table.Table``)."""

    @property
    def id(self) -> int: ...

    @property
    def state(self) -> str: ...

    @property
    def seats(self) -> Sequence[Seated]: ...


class Tables(Protocol):
    def get(self, word: str | int) -> Place | None: ...


def whereabouts(person: Present, lobby: Tables) -> list[payloads.Place]:
    """Where ``person`` is: ``{"table", "seat", "state"}`` for each table he is at (``seat``
    None when he watches), by table number."""
    return places_of([person], lobby)


def places_of(connections: Sequence[Present], lobby: Tables) -> list[payloads.Place]:
    """Where any of ``connections`` (one name's) is: each open table once, with the seat
    one of them holds there (None: watching), by table number."""
    ids: set[int] = set().union(*(c.tables for c in connections))
    mine = {id(c) for c in connections}
    out: list[payloads.Place] = []
    for table_id in sorted(ids):
        table = lobby.get(table_id)
        if table is None:
            continue
        seat = next((i for i, s in enumerate(table.seats) if id(s.member) in mine), None)
        out.append({"table": wire.table_word(table.id), "seat": seat, "state": str(table.state)})
    return out


def doing(places: Sequence[payloads.Place]) -> str:
    """What someone at ``places`` does: playing, seated, watching or idle."""
    if any(p["seat"] is not None and p["state"] in RUNNING for p in places):
        return PLAYING
    if any(p["seat"] is not None for p in places):
        return SEATED
    return WATCHING if places else IDLE


def people(
    present: Iterable[Present], lobby: Tables, limit: int, now: float, req: int | None = None
) -> m.People:
    """The ``people`` reply to request ``req``: every name online, in alphabetical order
    (case aside), at most ``limit`` of them listed; a name with several connections is
    one person, at every table any of them is at (each table once; at most
    ``WHO_TABLES`` listed, its seats first, the rest counted in ``more``, a key present
    only then), idle since the last message any of them sent (whole seconds before
    ``now``).

    Only the names listed are looked up at their tables: the walk over everyone is a
    dict of names (a name's connections all carry the spelling its claim gave back), so
    a ``who`` on a server of 10,000 connections costs a few milliseconds
    (``bench/who.py``)."""
    by_name: dict[str, list[Present]] = {}
    guests = 0
    for person in present:
        name = person.name
        if name is None:
            guests += 1
        else:
            by_name.setdefault(name, []).append(person)
    listed: list[payloads.Person] = []
    for name in heapq.nsmallest(max(0, limit), by_name, key=str.casefold):
        places = places_of(by_name[name], lobby)
        shown = sorted(places, key=lambda p: p["seat"] is None)[:WHO_TABLES]  # seats first
        shown.sort(key=lambda p: (len(p["table"]), p["table"]))  # by number
        last = max(person.last_message for person in by_name[name])
        idle = max(0, int(now - last))
        entry = payloads.Person(name=name, state=doing(places), tables=shown, idle=idle)
        if len(places) > len(shown):
            entry["more"] = len(places) - len(shown)
        entry["where"] = where_text(entry)
        listed.append(entry)
    total = len(by_name)
    text = online_text(total, guests, len(listed))
    return m.People(people=tuple(listed), total=total, guests=guests, text=text, id=req)


class At:
    """How many tables each connection, and each address's connections together, are at
    (``tables_at_per_connection``, ``tables_at_per_address``): asked before a connection
    joins, watches or resumes a table it is not at yet.

    The connections of each address that are at some table are kept here
    (``entered``, and ``gone`` when one ends), so an address's count is the sum over
    its own connections, read only when a request would add a table; a table that
    closed is let go of then (a connection keeps a closed table's number until it
    leaves it), so only open tables count."""

    def __init__(self) -> None:
        self._by_address: dict[str, set[Visitor]] = {}

    def refuse(
        self, visitor: Visitor, table_id: int, config: ServerConfig, lobby: Tables
    ) -> str | None:
        """Why ``visitor`` may not be at ``table_id`` as well (a refusal's text), or None:
        the table is counted for it from now on (``entered``)."""
        if table_id in visitor.tables:
            return None
        limit = config.tables_at_per_connection
        if limit > 0 and len(visitor.tables) >= limit:
            _forget_closed(visitor, lobby)
            if len(visitor.tables) >= limit:
                return f"you are at {limit} tables at once; leave one first (the limit is {limit})"
        limit, address = config.tables_at_per_address, visitor.peer
        if limit > 0 and address not in config.trusted_addresses:
            siblings = self._by_address.get(address, set())
            if sum(len(s.tables) for s in siblings) >= limit:
                for sibling in siblings:
                    _forget_closed(sibling, lobby)
                if sum(len(s.tables) for s in siblings) >= limit:
                    return (
                        f"the connections of your address are at {limit} tables at once;"
                        f" leave one first (the limit is {limit})"
                    )
        self._by_address.setdefault(address, set()).add(visitor)
        return None

    def gone(self, visitor: Visitor) -> None:
        """``visitor``'s connection ended: its tables no longer count for its address."""
        siblings = self._by_address.get(visitor.peer)
        if siblings is not None:
            siblings.discard(visitor)
            if not siblings:
                del self._by_address[visitor.peer]

    def __len__(self) -> int:
        """Addresses with a connection at some table (for tests: nothing is kept for a
        connection that ended)."""
        return len(self._by_address)


def _forget_closed(visitor: Visitor, lobby: Tables) -> None:
    visitor.tables.intersection_update([t for t in visitor.tables if lobby.get(t) is not None])


class Room:
    """The server's shout channel (its shared rates, and the relay to everyone
    listening) and the count of the tables each connection and address is at."""

    def __init__(self) -> None:
        self._bucket: TokenBucket | None = None  #: made from the config at the first shout
        self._addresses: AddressBudget | None = None  #: likewise
        self.at = At()

    def refuse_shout(self, config: ServerConfig, address: str, now: float) -> str | None:
        """Why the server relays no shout from ``address`` now (a refusal's text), or None:
        then it took one from the address's budget (``shout_address_burst``, then
        ``shout_address_per_second``; trusted addresses have none) and one from the
        server's (``shout_burst``, then ``shout_per_second``, for everyone together).
        Nothing is taken from either when one of them refuses."""
        if self._bucket is None:
            self._bucket = TokenBucket(config.shout_per_second, config.shout_burst)
            self._addresses = AddressBudget(
                config.shout_address_per_second,
                config.shout_address_burst,
                tuple(config.trusted_addresses),
            )
        assert self._addresses is not None
        if (wait := self._addresses.wait_time(address, now)) > 0:
            return f"too many shouts from your address; wait {wait:.1f} s"
        if self._bucket.wait_time(now) > 0:
            return "the room is shouting too fast; try again in a moment"
        self._addresses.take(address, now)
        self._bucket.take(now)
        return None

    @staticmethod
    def relay(present: Iterable[Present], name: str, text: str) -> int:
        """Give ``name``'s shout to every connection with a name that hears shouts (the
        shouter's own too: he reads it where everyone does); how many it went to."""
        shout = m.Shouted(name=name, text=text)
        told = 0
        for person in list(present):
            if person.name is not None and person.hears_shouts:
                person.deliver(shout)
                told += 1
        return told
