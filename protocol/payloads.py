"""Every map a message carries, declared once: what a reader may read from it, by key.

A message is a frozen class (``protocol.messages``); the maps inside it (a table's view,
an event, a table in the lobby, a person online, a profile's ratings, a page of history)
are plain primitives on the wire, and these TypedDicts say which keys each holds, so
mypy checks every key a server writes and every key a client reads (``.get`` where a key
is ``NotRequired``). docs/protocol.md says the same in words.

The engine declares what it makes: each family's view and events
(``engine.abbott.vocabulary``, ...: a test holds their keys to the family's
``Vocabulary``, from which the spec's family sections are generated), the rulesets'
descriptions and a game's record (``engine.described``: a finished game's ``record``
pages are one); they are named here beside the rest. Each event is declared as what
every seat is shown of it (``SheddingDrawFields``, ...) and what some seats only
(``SheddingDrawPrivate``), from which the engine builds it (mypy checks each map it
builds), and as presented (``SheddingDraw``: both, with its ``kind``).

What the codecs check of a map is its top level (``protocol.fields``: a map with string
keys, an event with a string ``kind``), for speed; its declared type is the promise the
sender keeps. A reader of views narrows by ``family`` (``view["family"] == "shedding"``,
or ``engine.views.is_shedding``), a reader of events by the family it knows and then by
``kind``.

This module does without ``from __future__ import annotations``: with it, Python 3.11's
``TypedDict`` takes a ``NotRequired`` key for a required one.
"""

from typing import Any, NotRequired, TypedDict, final

from engine.abbott.vocabulary import AbbottEvent, AbbottView
from engine.described import GameRecord, OptionInfo, RulesetInfo
from engine.kilodney.vocabulary import KilodneyEvent, KilodneyView
from engine.shedding.vocabulary import SheddingEvent, SheddingView
from engine.views import View
from engine.vocabulary import CommonView

#: An event of a game, as its receiver was shown it (``Event.present(seat)``): which
#: family's it is, the table's ``family`` says; its ``kind`` then names it.
GameEvent = AbbottEvent | SheddingEvent | KilodneyEvent


@final
class NoView(TypedDict):
    """A snapshot's view before the table's first game starts: empty."""


#: A snapshot's view: a seat's (or a spectator's) view of the game, or none yet.
SnapshotView = View | NoView


class TableSummary(TypedDict):
    """A table as the lobby lists it (``tables``), its keys in the order the spec gives."""

    table: str
    ruleset: str
    family: str
    seats: int
    players: list[str | None]  #: each seat's occupant: a name, ``bot:STRATEGY`` or null
    taken: int  #: seats held by people
    spectators: int
    state: str  #: a ``protocol.fields.TableState`` word
    game: int  #: the game number, 0 before the first
    master: str | None
    options: dict[str, Any]  #: as given at creation or by ``set_options``
    options_text: list[str]  #: those that differ from the ruleset's defaults, in words
    start_when_full: bool
    prize: int  #: chips held for the winner (0: none)
    away: list[int]  #: the seats marked away
    turn_seconds: int
    ratings: list[int | None]  #: each seat's shown rating in the family (null: none)
    rated: bool | None  #: null: rated when every seat is a person at the deal
    # ``admin_tables`` only (closed tables included):
    creator: NotRequired[str | None]
    present: NotRequired[bool]  #: anyone at it
    empty_for: NotRequired[float | None]  #: seconds nobody has been at it


class Place(TypedDict):
    """Where a person online is: a table, his seat there (null: watching), its state."""

    table: str
    seat: int | None
    state: str


class Person(TypedDict):
    """A name online (``people``)."""

    name: str
    state: str  #: ``playing``, ``seated``, ``watching`` or ``idle``
    tables: list[Place]
    idle: int  #: whole seconds since the name last sent anything
    more: NotRequired[int]  #: tables left out of ``tables``, present only then
    where: NotRequired[str]  #: where he is, in words (``protocol.table_lines.where_text``)


class Rating(TypedDict):
    """A player's rating in one family (``profile``'s ``ratings``)."""

    family: str
    rating: int  #: the number people see
    mu: float
    sigma: float
    games: int


class Tally(TypedDict):
    """A player's games of one ruleset (``profile``'s ``tallies``)."""

    ruleset: str
    played: int
    won: int


class PlayedGame(TypedDict):
    """One finished game of a player (``history``'s ``games``, ``profile``'s ``recent``)."""

    table: str
    game: int
    ruleset: str
    rated: bool
    time: float  #: when it ended, seconds since 1970
    seat: int  #: his
    players: list[str]  #: each seat's player as shown, ``bot:STRATEGY`` for a bot
    scores: list[int]
    places: list[int]  #: 0 = won


class Leader(TypedDict):
    """One line of a family's leaderboard (``top``), best first."""

    place: int
    name: str
    rating: int
    mu: float
    sigma: float
    games: int


class LedgerLine(TypedDict):
    """A recent entry of a chip account (``chips``'s ``entries``)."""

    time: float
    delta: int
    balance: int  #: the balance after it
    reason: str
    table: str | None


__all__ = [
    "AbbottEvent",
    "AbbottView",
    "CommonView",
    "GameEvent",
    "GameRecord",
    "KilodneyEvent",
    "KilodneyView",
    "Leader",
    "LedgerLine",
    "NoView",
    "OptionInfo",
    "Person",
    "Place",
    "PlayedGame",
    "Rating",
    "RulesetInfo",
    "SheddingEvent",
    "SheddingView",
    "SnapshotView",
    "TableSummary",
    "Tally",
    "View",
]
