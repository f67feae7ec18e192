"""The room: who is on the server and where (``who``), and the channel every table
shares (``shout``), FICS's two ways of seeing a server as a place with people in it.

Both are read from memory between awaits, as the lobby's listing is: the server's
connections (each a ``Present``: its name, the tables it is at, whether it hears
shouts) and the lobby's tables. Nothing here is stored; a restart starts the room
empty, as the connections are.

Bounds, each a ``ServerConfig`` setting: a ``who`` reply lists at most ``who_max``
names (the rest are counted); a shout is cleaned and cut like table talk and
draws on its connection's talk allowance (the caller's), and the whole server
relays at most ``shout_burst`` shouts at once, then ``shout_per_second`` (here), so
a thousand connections that each shout within their own allowance still cannot
make the server write a thousand times a thousand lines a second.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from protocol import messages as m
from protocol.fields import RUNNING
from server.core import wire
from server.core.config import ServerConfig
from server.core.limits import TokenBucket

#: What a person is doing, busiest first: the state ``who`` gives him is the first that
#: holds at any table he is at.
PLAYING, SEATED, WATCHING, IDLE = "playing", "seated", "watching", "idle"


class Present(Protocol):
    """A connection as the room sees it (``server.transport.session.ClientSession``)."""

    @property
    def name(self) -> str | None: ...

    tables: set[int]  #: the tables it is at, seated or watching
    hears_shouts: bool
    last_message: float  #: when it last sent a whole message (trio's clock)

    def deliver(self, message: Any) -> None: ...


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


def whereabouts(person: Present, lobby: Tables) -> list[dict[str, Any]]:
    """Where ``person`` is: ``{"table", "seat", "state"}`` for each table he is at (``seat``
    None when he watches), by table number."""
    out = []
    for table_id in sorted(person.tables):
        table = lobby.get(table_id)
        if table is None:
            continue
        seat = next((i for i, s in enumerate(table.seats) if s.member is person), None)
        out.append({"table": wire.table_word(table.id), "seat": seat, "state": str(table.state)})
    return out


def doing(places: Sequence[dict[str, Any]]) -> str:
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
    one person, at every table any of them is at, idle since the last message any of
    them sent (whole seconds before ``now``).

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
    listed = []
    for name in heapq.nsmallest(max(0, limit), by_name, key=str.casefold):
        places = [spot for person in by_name[name] for spot in whereabouts(person, lobby)]
        places.sort(key=lambda p: (len(p["table"]), p["table"]))  # by number
        last = max(person.last_message for person in by_name[name])
        idle = max(0, int(now - last))
        listed.append({"name": name, "state": doing(places), "tables": places, "idle": idle})
    return m.People(people=tuple(listed), total=len(by_name), guests=guests, id=req)


class Room:
    """The server's shout channel: its shared rate, and the relay to everyone listening."""

    def __init__(self) -> None:
        self._bucket: TokenBucket | None = None  #: made from the config at the first shout

    def admit(self, config: ServerConfig, now: float) -> bool:
        """Whether the server relays another shout now (``shout_burst``, then
        ``shout_per_second``, for everyone together)."""
        if self._bucket is None:
            self._bucket = TokenBucket(config.shout_per_second, config.shout_burst)
        return self._bucket.take(now)

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
