"""What a table announces (``server.tables.events``), heard by a subscriber that knows
nothing of the table: on real table tasks under trio's mock clock (idle players time out
and are played automatically), and the subscription's transaction on its own."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import pytest
import trio
import trio.testing
from support import Member, settle

import engine
from engine.places import outcome_places, places_from_scores
from server.core.commands import Close, EndGame, Join, Leave, Start
from server.core.config import ServerConfig
from server.store.base import ABANDONED, FINISHED, MemoryStore, StoreError, TableCreated
from server.tables.events import (
    GameEnded,
    GameStarted,
    HandEnded,
    SeatChanged,
    TableClosed,
    TableEvents,
    Transaction,
)
from server.tables.table import CLOSED, OVER, Table

CONFIG = ServerConfig(host="127.0.0.1", port=0, scrypt_n=2)
#: Bots that take a second a move, so that a test can act in the middle of a game.
SLOW = ServerConfig(host="127.0.0.1", port=0, scrypt_n=2, bot_delay_seconds=1.0)
RULESET = "switch"


async def wait_until(predicate: Any, limit: float = 1e6) -> None:
    end = trio.current_time() + limit
    while not predicate():
        assert trio.current_time() < end, "the table never got there"
        await trio.sleep(0.5)


async def open_table(
    nursery: trio.Nursery,
    heard: list[Any],
    options: dict[str, Any] | None = None,
    config: ServerConfig = CONFIG,
) -> tuple[Table, MemoryStore]:
    """A three-seat table whose events ``heard`` collects, each with whether the store
    held its game's end when it was heard."""
    store = MemoryStore()
    options = {"turn_seconds": 1, **(options or {})}
    await store.commit(TableCreated(1, RULESET, 3, options, "ann", {}))
    events = TableEvents()

    def listen(event: Any) -> None:
        kept = store.state.tables.get(1)  # gone once closed
        stored = None if kept is None else kept.game
        heard.append((event, stored is not None and stored.over))

    events.listen(listen)
    table = Table(1, RULESET, 3, options, config=config, store=store, creator="ann", events=events)
    await nursery.start(table.run)
    return table, store


async def test_a_subscriber_hears_a_whole_game_with_its_places(
    autojump_clock: trio.testing.MockClock,
) -> None:
    heard: list[Any] = []
    async with trio.open_nursery() as nursery:
        table, _store = await open_table(nursery, heard)
        ann, bob = Member("ann"), Member("bob")
        await table.submit(Join(ann, 1, 0))
        await table.submit(Join(bob, 1, 1))
        await table.submit(Start(ann, 2))
        await settle()
        await wait_until(lambda: table.state == OVER)
        await table.submit(Leave(bob, 3))
        await table.submit(Close("done"))
        await wait_until(lambda: table.state == CLOSED)
        nursery.cancel_scope.cancel()
    events = [e for e, _ in heard]
    game = table.game
    assert game is not None and game.over
    assert events[:2] == [SeatChanged(1, 0, "ann", None), SeatChanged(1, 1, "bob", None)]
    started = events[2]
    assert isinstance(started, GameStarted)
    assert (started.table, started.game, started.ruleset) == (1, 1, RULESET)
    assert started.people == ("ann", "bob", None)
    assert started.players[:2] == ("ann", "bob") and started.players[2].startswith("bot:")
    hands = [e for e in events if isinstance(e, HandEnded)]
    assert [h.hand for h in hands] == list(range(1, len(hands) + 1)) and hands
    ended = [e for e in events if isinstance(e, GameEnded)]
    assert len(ended) == 1
    end = ended[0]
    assert end.outcome == FINISHED and end.finished and end.game == 1
    assert end.scores == tuple(game.scores) == hands[-1].scores
    assert end.places == tuple(outcome_places(game))
    assert end.winners and all(end.places[w] == 0 for w in end.winners)
    assert end.people == ("ann", "bob", None) and end.family == engine.ruleset(RULESET).family
    # heard after the game's end was stored, and in the order things happened
    assert all(stored for e, stored in heard if isinstance(e, GameEnded))
    assert events.index(end) > events.index(hands[-1]) > events.index(started)
    assert events[-2:] == [SeatChanged(1, 1, None, "bob"), TableClosed(1, 1)]


async def test_a_game_ended_early_has_places_from_its_scores_ties_shared(
    autojump_clock: trio.testing.MockClock,
) -> None:
    heard: list[Any] = []
    async with trio.open_nursery() as nursery:
        table, _store = await open_table(nursery, heard, {"target": 10000}, SLOW)
        ann = Member("ann")
        await table.submit(Join(ann, 1, 0))
        await table.submit(Start(ann, 2))
        # play on until the scores differ, then the master ends it
        await wait_until(lambda: table.game is not None and len(set(table.game.scores)) > 1)
        await table.submit(EndGame(ann, 3))
        await wait_until(lambda: table.state == OVER)
        scores = tuple(table.game.scores)  # type: ignore[union-attr]
        nursery.cancel_scope.cancel()
    [end] = [e for e, _ in heard if isinstance(e, GameEnded)]
    assert end.outcome == ABANDONED and not end.finished
    assert end.scores == scores and end.winners == ()
    assert end.places == tuple(places_from_scores(scores))
    assert min(end.places) == 0


def test_places_as_they_stand_share_ties() -> None:
    assert places_from_scores([10, 30, 10, 0]) == [1, 0, 1, 3]


async def test_a_table_closed_mid_game_ends_it_then_closes(
    autojump_clock: trio.testing.MockClock,
) -> None:
    heard: list[Any] = []
    async with trio.open_nursery() as nursery:
        table, _store = await open_table(nursery, heard, {"target": 10000})
        ann = Member("ann")
        await table.submit(Join(ann, 1, 0))
        await table.submit(Start(ann, 2))
        await settle()
        await table.submit(Close("an operator closed it"))
        await wait_until(lambda: table.state == CLOSED)
        nursery.cancel_scope.cancel()
    last = [e for e, _ in heard][-2:]
    assert isinstance(last[0], GameEnded) and last[0].outcome == ABANDONED
    assert last[1] == TableClosed(1, 1)


# ------------------------------------------------------- the subscription
class Joiner:
    """Adds a write to every transaction; applies it to memory only once durable."""

    def __init__(self, name: str, order: list[str]) -> None:
        self.name, self.order = name, order
        self.applied: list[Any] = []

    @contextlib.asynccontextmanager
    async def joining(self, txn: Transaction) -> AsyncIterator[None]:
        self.order.append(f"{self.name} in")
        txn.writes.append(self.name)
        yield
        self.order.append(f"{self.name} applied")
        self.applied.extend(txn.events)
        txn.notices.append(f"{self.name} says")


async def test_joiners_share_the_events_transaction_and_apply_only_once_durable() -> None:
    events, order = TableEvents(), list[str]()
    first, second = Joiner("first", order), Joiner("second", order)
    events.join(first.joining)
    events.join(second.joining)
    committed: list[tuple[Any, ...]] = []

    async def commit(*writes: Any) -> None:
        order.append("commit")
        committed.append(writes)

    closed = TableClosed(7, 2)
    txn = await events.commit([closed], ["own"], commit)
    assert committed == [("own", "first", "second")]  # one transaction
    assert order == ["first in", "second in", "commit", "second applied", "first applied"]
    assert first.applied == second.applied == [closed]
    assert txn.notices == ["second says", "first says"]

    async def refuse(*writes: Any) -> None:
        raise StoreError("disk full")

    with pytest.raises(StoreError):
        await events.commit([closed], ["own"], refuse)
    assert first.applied == second.applied == [closed]  # nothing applied a second time


def test_listeners_hear_in_order_and_one_that_fails_stops_nobody(
    caplog: pytest.LogCaptureFixture,
) -> None:
    events, got = TableEvents(), []

    def broken(event: Any) -> None:
        raise RuntimeError("a bug in a subscriber")

    events.listen(lambda e: got.append(("a", e)))
    events.listen(broken)
    events.listen(lambda e: got.append(("b", e)))
    seat = SeatChanged(3, 0, "ann", None)
    events.announce(seat, TableClosed(3, 0))
    assert got == [("a", seat), ("b", seat), ("a", TableClosed(3, 0)), ("b", TableClosed(3, 0))]
    assert "a subscriber failed" in caplog.text
