"""A game's course at a table: its start and its end (by its rules, abandoned, or with
the table's close), each stored in one transaction with what the table's subscribers
add to it (``server.tables.events``), then announced to them.

The table (``server.tables.table.Table``) calls these at its points: ``start`` when a
game is asked for or the seats fill, ``finishing`` for the action that ends a game,
``abandon`` / ``abandon_game`` when the master ends it or nobody
plays it, ``close`` for good. They read the table through ``Coursed`` (a protocol:
this module does not import the table) and change it only by asking it (``begin``,
``over``, ``shut``): the table's state is its own.

Order, everywhere: the store has the change (and every subscriber's writes) before
anyone is told; then the players are sent the game's own events and snapshots, then
everyone at the table the subscribers' notices (where a prize went), and last the
subscribers hear the table's events (``told``).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any, Protocol

import engine
from engine.game import Game
from protocol.fields import TableState
from server.core import wire
from server.core.commands import Start
from server.store.base import ABANDONED, FINISHED, HandShown
from server.store.base import GameEnded as EndStored
from server.store.base import GameStarted as StartStored
from server.store.base import TableClosed as CloseStored
from server.tables import events as announced
from server.tables.delivery import Delivery
from server.tables.gamemaster import GameMaster
from server.tables.seating import Seating

PLAYING, PAUSED, OVER, WAITING = (
    TableState.PLAYING,
    TableState.PAUSED,
    TableState.OVER,
    TableState.WAITING,
)


class Coursed(Protocol):
    """A table as its games' course sees it (``server.tables.table.Table``)."""

    id: int
    ruleset: str
    family: str
    options: dict[str, Any]
    settings: dict[str, Any]
    game: Game | None
    game_no: int
    state: TableState
    outcome: str | None
    seating: Seating
    out: Delivery
    gm: GameMaster
    events: announced.TableEvents

    def players(self) -> list[str | None]: ...

    async def commit(self, *writes: Any) -> None: ...

    def touched(self) -> None: ...

    def begin(self, game: Game, number: int, base: int, seed: int) -> None: ...

    def over(self, outcome: str) -> None: ...

    def shut(self) -> None: ...


# ------------------------------------------------------------ announcing
def ended(t: Coursed, outcome: str) -> announced.GameEnded:
    """The running game's end as ``outcome`` says, as the table announces it."""
    assert t.game is not None
    people = [s.name for s in t.seating.seats]
    return announced.game_ended(t.id, t.game_no, t.ruleset, t.family, t.game, outcome,
                                t.players(), people)  # fmt: skip


def told(t: Coursed, txn: announced.Transaction) -> None:
    """A transaction of table events is durable: everyone at the table is told what its
    subscribers have to say (where a prize went), then they hear its events."""
    notices(t, txn.notices)
    for message in txn.said:  # the ratings the game changed
        for member in t.seating.members():
            member.deliver(message)
    t.events.announce(*txn.events)


def notices(t: Coursed, texts: Sequence[str]) -> None:
    for text in texts:
        t.seating.notice_all(text)


# ------------------------------------------------------------ the start
async def start(t: Coursed, seed: int | None = None, ack: Start | None = None) -> None:
    """A new game: empty seats are played by server bots (they stay free to join).

    The start takes a sequence number of its own, so a client that saw the
    last event of the previous game is still behind this one's snapshot.
    ``ack``, the request that asked for it, is answered ``ok`` once the start
    is stored, before the snapshots (a start the store refuses gets only
    ``store_failed``)."""
    seed = secrets.randbits(62) if seed is None else seed
    seats = t.seating.seats
    game = engine.new_game(t.ruleset, len(seats), seed, t.options)
    number, base = t.game_no + 1, t.out.seq + 1
    # the deal shows each seat's holder his hand: stored, so a restart still knows it
    shown = [HandShown(t.id, number, i, s.name) for i, s in enumerate(seats) if s.name]
    people = [s.name for s in seats]
    players = tuple(p or t.gm.bot_name(i) for i, p in enumerate(people))
    dealt = announced.GameStarted(t.id, number, t.ruleset, t.family, players, tuple(people),
                                  dict(t.settings))  # fmt: skip
    stored = StartStored(t.id, number, seed, None, None, base, dict(t.options))
    txn = await t.events.commit([dealt], [stored, *shown], t.commit)
    if ack is not None:
        ack.member.deliver(wire.ok(ack.req, t.id))
    t.begin(game, number, base, seed)
    t.seating.remember_deal()  # the deal shows each seat's holder his hand
    t.gm.on_start()  # a fresh countdown, nobody away
    # The first deal's events are numbered after the start's snapshot and end with
    # each seat's turn, which (not the snapshot) then says what it may do.
    if game.opening_events:  # each member's snapshot heads its opening events: one write
        heads = t.out.snapshots(legal=False)
        t.out.send_events(t.out.record(game.opening_events), heads=heads)
    else:
        t.out.send_snapshots()
    t.touched()
    told(t, txn)


# -------------------------------------------------------------- the end
async def finishing(
    t: Coursed, writes: list[Any], commit: announced.Commit
) -> announced.Transaction:
    """Commit the action that ended the game (``writes``) with its end, as one transaction
    (``StoreError`` if refused); the table then sends its events and calls ``finished``."""
    assert t.game is not None
    writes = [*writes, EndStored(t.id, t.game_no, list(t.game.scores), FINISHED)]
    return await t.events.commit([ended(t, FINISHED)], writes, commit)


def finished(t: Coursed, txn: announced.Transaction) -> None:
    """The game that ended by its rules is told to everyone, once its events are sent."""
    t.over(FINISHED)
    told(t, txn)
    t.out.send_snapshots()


async def abandon(t: Coursed, *, paused: bool = False) -> None:
    """End a playing game (or, ``paused``, a paused one too) as abandoned; its prize goes
    back in the same transaction. Refused by the store: the table is as it was."""
    running = t.state == PLAYING or (paused and t.state == PAUSED)
    if running and t.game is not None:
        stored = EndStored(t.id, t.game_no, list(t.game.scores), ABANDONED)
        txn = await t.events.commit([ended(t, ABANDONED)], [stored], t.commit)
        t.over(ABANDONED)
        told(t, txn)


async def abandon_game(t: Coursed, reason: str) -> None:
    """Abandon the running game (its prize goes back) and tell everyone why."""
    if not t.gm.running():
        return
    await abandon(t, paused=True)
    t.gm.clock.stop()
    t.seating.notice_all(f"the game at table {t.id} was abandoned: {reason}")
    t.out.send_snapshots()


async def close(t: Coursed, reason: str) -> None:
    """Close the table for good: an unfinished game ends abandoned, and whatever prize
    is held (for it, or for the next game) goes back, in the closing transaction;
    everyone at it is told ``reason``."""
    writes: list[Any] = []
    said: list[announced.TableEvent] = []
    if t.game is not None and t.state not in (OVER, WAITING):
        writes.append(EndStored(t.id, t.game_no, list(t.game.scores), ABANDONED))
        said.append(ended(t, ABANDONED))
    writes.append(CloseStored(t.id))
    said.append(announced.TableClosed(t.id, t.game_no))
    txn = await t.events.commit(said, writes, t.commit)
    t.shut()
    told(t, txn)
    t.seating.notice_all(f"table {t.id} closed: {reason}")
