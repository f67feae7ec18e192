"""What a table announces to the layers above it: a game started, a hand ended, a game
ended (with its places and scores), a seat changed hands, the table closed.

A table (``server.tables.table.Table``) knows nothing of the prize, the ratings, the
lobby's listing or a tournament: it tells its ``TableEvents`` what happened, and they
hear it. The subscribers are registered once, when the server is put together
(``server.app``), and every table of the server shares them; a new subscriber (a
tournament's standings, say) is one more registration there and touches no table code.

The events (frozen dataclasses; every one names its ``table``):

- ``GameStarted(table, game, ruleset, family, players, people, settings)``: game number
  ``game`` was dealt. ``players``: each seat's player at the deal (his name, or
  ``bot:STRATEGY`` for a seat a server bot plays); ``people``: each seat's name, or None
  where no person sits; ``settings``: the table's settings then (``rated``, ...).
- ``HandEnded(table, game, hand, scores)``: hand number ``hand`` (from 1) of the game was
  scored; ``scores``: each seat's total after it. Not sent for the hands a restart
  replays (they were heard when they were played).
- ``GameEnded(table, game, ruleset, family, outcome, scores, places, players, people,
  winners)``: the game is over. ``outcome`` is ``FINISHED`` (by its rules) or
  ``ABANDONED`` (the master ended it, nobody played it, the table closed under it).
  ``places``: each seat's place, 0 the best; a finished game's come from its final
  scores and finishing order (``engine.places.outcome_places``), an abandoned game's
  from the scores as they stand, ties sharing a place (``places_from_scores``).
  ``players`` / ``people``: each seat's occupant as the game ended (as in
  ``GameStarted``; the players at the deal are ``GameStarted.players``); ``winners``:
  the seats that won (empty when abandoned: nobody wins).
- ``SeatChanged(table, seat, name, was)``: the seat's holder is now ``name`` (None: the
  seat is free), and was ``was``.
- ``TableClosed(table, game)``: the table closed for good (``game``: its last game's
  number, 0 if none ran). A running game ends first, in the same transaction, with its
  own ``GameEnded``.

Two ways to hear them, both called in the order they were registered:

- ``listen(heard)``: ``heard(event)`` is called synchronously once the event is durable
  (every accepted action is in the store before its events go out, and so is every
  table event), after the players were sent the game's own events. It must not block;
  a subscriber with slow work to do hands it to a task of its own (a bounded channel).
  One that raises is logged; the others still hear the event, and the table goes on.
- ``join(joining)``: for what must be stored in the same transaction as the event
  (``GameStarted``, ``GameEnded``, ``TableClosed``): ``joining(txn)`` is an async
  context manager entered before the store commit, where it adds its writes to
  ``txn.writes`` (under its own lock, if it plans from memory); the commit runs inside
  every joiner's block, and a joiner's code after its ``yield`` runs only if the
  commit succeeded (it applies its change to memory then, and may add a line for
  everyone at the table to ``txn.notices``). A commit the store refuses raises
  ``StoreError`` through every block: nothing was stored, nothing is applied. This is
  how a game's end, its payout and its players' new ratings are one transaction, and
  how a tournament's standings may join it.

Why synchronous, not a channel: the prize and the ratings must be in the end's own
transaction (a channel would commit them later, apart), and the listing must know of
a change before the next request reads it. Both are cheap: nothing here awaits but
the one commit the table makes anyway.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any, TypeVar

from engine.game import Game
from engine.places import outcome_places, places_from_scores
from server.store.base import FINISHED

log = logging.getLogger("switchboard.table")

__all__ = [
    "GameEnded",
    "GameStarted",
    "HandEnded",
    "Joining",
    "Listener",
    "SeatChanged",
    "TableClosed",
    "TableEvent",
    "TableEvents",
    "Transaction",
    "game_ended",
    "hands_ended",
]


@dataclass(frozen=True, slots=True)
class GameStarted:
    """Game ``game`` of table ``table`` was dealt (see the module's docstring)."""

    table: int
    game: int
    ruleset: str
    family: str
    players: tuple[str, ...]  #: each seat's player: a name, or ``bot:STRATEGY``
    people: tuple[str | None, ...]  #: each seat's person, or None
    settings: Mapping[str, Any] = field(default_factory=dict)  #: the table's settings


@dataclass(frozen=True, slots=True)
class HandEnded:
    """Hand ``hand`` (from 1) of game ``game`` was scored; ``scores``: the totals after it."""

    table: int
    game: int
    hand: int
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameEnded:
    """Game ``game`` of table ``table`` is over (see the module's docstring)."""

    table: int
    game: int
    ruleset: str
    family: str
    outcome: str  #: ``FINISHED`` or ``ABANDONED`` (``server.store.base``)
    scores: tuple[int, ...]
    places: tuple[int, ...]  #: each seat's place, 0 the best; ties share a place
    players: tuple[str | None, ...]  #: each seat's occupant: a name, ``bot:STRATEGY``, None
    people: tuple[str | None, ...]  #: each seat's person as it ended, or None
    winners: tuple[int, ...]  #: the winning seats (none when abandoned)

    @property
    def finished(self) -> bool:
        """Ended by its rules (not abandoned)."""
        return self.outcome == FINISHED


@dataclass(frozen=True, slots=True)
class SeatChanged:
    """Seat ``seat`` of table ``table`` is now ``name``'s (None: free); it was ``was``'s."""

    table: int
    seat: int
    name: str | None
    was: str | None


@dataclass(frozen=True, slots=True)
class TableClosed:
    """Table ``table`` closed for good; ``game``: its last game's number (0: none ran)."""

    table: int
    game: int


TableEvent = GameStarted | HandEnded | GameEnded | SeatChanged | TableClosed
E = TypeVar("E", GameStarted, HandEnded, GameEnded, SeatChanged, TableClosed)


@dataclass(slots=True)
class Transaction:
    """One store transaction that records table events: the ``events`` it records, the
    ``writes`` it commits (the table's own, then each joiner's), and, once it is durable,
    the ``notices`` the joiners have for everyone at the table, and the messages
    (``said``: the ratings a game changed, ``protocol.messages.Rated``)."""

    events: tuple[TableEvent, ...]
    writes: list[Any]
    notices: list[str] = field(default_factory=list)
    said: list[Any] = field(default_factory=list)

    def of(self, kind: type[E]) -> list[E]:
        """The events of ``kind`` this transaction records."""
        return [e for e in self.events if isinstance(e, kind)]


#: Hears an event once it is durable (``TableEvents.listen``).
Listener = Callable[[TableEvent], None]
#: Joins the transaction that records events (``TableEvents.join``).
Joining = Callable[[Transaction], AbstractAsyncContextManager[None]]
#: A table's way to make writes durable (``Table.commit``: ``StoreError`` if refused).
Commit = Callable[..., Awaitable[None]]


class TableEvents:
    """The subscribers to every table's events (one for the server, shared by its tables)."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []
        self._joiners: list[Joining] = []

    def listen(self, heard: Listener) -> None:
        """``heard(event)`` for every table event, once it is durable, in this order."""
        self._listeners.append(heard)

    def join(self, joining: Joining) -> None:
        """``joining(txn)`` around the commit of every transaction that records table
        events (a game's start, its end, a table's close), in this order."""
        self._joiners.append(joining)

    async def commit(
        self, events: Sequence[TableEvent], writes: Sequence[Any], commit: Commit
    ) -> Transaction:
        """Commit ``writes`` with what every joiner adds for ``events``, as one transaction
        (``StoreError`` if refused: nothing stored, no joiner applied anything). The
        listeners are not called: the table announces the events once it has sent the
        game's own (``announce``)."""
        txn = Transaction(tuple(events), list(writes))
        if not self._joiners:
            await commit(*txn.writes)
            return txn
        async with contextlib.AsyncExitStack() as stack:
            for joining in self._joiners:
                await stack.enter_async_context(joining(txn))
            await commit(*txn.writes)
        return txn

    def announce(self, *events: TableEvent) -> None:
        """Tell every listener each of ``events`` (they are durable), in order."""
        for event in events:
            for heard in self._listeners:
                try:
                    heard(event)
                except Exception:
                    log.exception("a subscriber failed to hear %r", event)


# --------------------------------------------------------------- making events
def hands_ended(table: int, game: int, events: Sequence[Any]) -> list[HandEnded]:
    """The hands an action's engine events (``engine.events.Event``) scored."""
    return [
        HandEnded(table, game, int(e.public.get("hand_number", 0)),
                  tuple(e.public.get("scores", ())))
        for e in events
        if e.kind == "hand_end"
    ]  # fmt: skip


def game_ended(
    table: int,
    number: int,
    ruleset: str,
    family: str,
    game: Game,
    outcome: str,
    players: Sequence[str | None],
    people: Sequence[str | None],
) -> GameEnded:
    """The end of ``game`` as ``outcome`` says (see ``GameEnded``)."""
    scores = tuple(game.scores)
    if outcome == FINISHED:
        places = tuple(outcome_places(game))
        seats = getattr(game, "winners", None)
        if not isinstance(seats, list | tuple) or not seats:
            seats = [s for s, place in enumerate(places_from_scores(scores)) if place == 0]
        winners = tuple(seats)
    else:  # scored as it stands: ties share a place, and nobody wins
        places, winners = tuple(places_from_scores(scores)), ()
    return GameEnded(table, number, ruleset, family, outcome, scores, places,
                     tuple(players), tuple(people), winners)  # fmt: skip
