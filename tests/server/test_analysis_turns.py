"""A seated person's bot turns are served while analyses run: an analysis's chunks are
background work in the fair queue, so a thought at a table where someone waits (urgent)
takes a worker at once, whether or not every place is held by an analysis (then it
takes one more), and never waits for the analyses' chunks, under way or queued.

A real server, one worker process, four analyses from four addresses judging 4-player
switch games (the desk asked directly, as the ``analyse`` handler asks it, with the
addresses a wire client on loopback cannot have), and a person playing against a search
bot meanwhile. The queue is the server's own, wrapped to note who asked for a place and
who was given one, in order: the test holds that order, not a time."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, ClassVar

import pytest
import trio
from e2e_client import TEST_CONFIG, Client, serving_server

from protocol import messages as m
from protocol.fields import TableState
from server.app import Server
from server.store.base import MemoryStore
from server.tables import thinking
from server.tables.analyses import AnalysisDesk

CONFIG = TEST_CONFIG.replace(
    bot_thinking="processes",
    bot_workers=1,
    analysis_running=4,
    trusted_addresses=(),
    commands_per_second=1000.0,
    commands_burst=10_000,
)
ADDRESSES = ("192.0.2.1", "192.0.2.2", "192.0.2.3", "192.0.2.4")
BOT_TURNS = 6  #: the person's bot's turns watched


def is_analysis(owner: Hashable) -> bool:
    return isinstance(owner, tuple) and owner[:1] == ("analysis",)


def served_analyses(notes: list[tuple[Any, ...]]) -> set[Hashable]:
    """The analyses' owners (one an address) given a place so far."""
    return {n[1] for n in notes if n[0] == "given" and is_analysis(n[1])}


class NotedQueue(thinking.FairQueue):
    """The fair queue, noting ``("ask", owner, urgent, places held, background)`` as a
    place is asked for and ``("given", owner)`` as one is given."""

    made: ClassVar[list[NotedQueue]] = []

    def __init__(self, slots: int) -> None:
        super().__init__(slots)
        self.notes: list[tuple[Any, ...]] = []
        NotedQueue.made.append(self)

    async def acquire(
        self, owner: Hashable, urgent: bool = False, background: bool = False
    ) -> None:
        held = self.statistics()["borrowed"]
        self.notes.append(("ask", owner, urgent, held, background))
        await super().acquire(owner, urgent, background)

    def _take(self, owner: Hashable, background: bool) -> None:
        self.notes.append(("given", owner))
        super()._take(owner, background)


class Listener:
    """An asker who only listens (the desk tells him of progress and the end)."""

    name: str | None = None
    operator = False

    def __init__(self) -> None:
        self.got: list[Any] = []

    def deliver(self, message: Any) -> None:
        self.got.append(message)

    def deliver_many(self, messages: Any) -> None:
        self.got.extend(messages)


async def finished_bot_games(server: Server, master: Client, count: int) -> list[str]:
    """``count`` 4-player switch games played to their end by the server's bots alone."""
    tables = []
    for _ in range(count):
        made = await master.request(m.CreateTable(ruleset="switch", seats=4))
        assert isinstance(made, m.Ok), made
        started = await master.request(m.StartGame(table=made.table))
        assert isinstance(started, m.Ok), started
        tables.append(made.table)
    with trio.fail_after(120):  # a guard against a hang, not a measurement
        while any(server.lobby.get(t).state != TableState.OVER for t in tables):  # type: ignore[union-attr]
            await trio.sleep(0.05)
    return tables


async def play_bot_turns(bob: Client, table: str, turns: int) -> None:
    """Bob acts on each of his turns until his bot has moved ``turns`` times after him
    (or the game ends)."""
    acted = 0
    while acted <= turns:
        msg = await bob.next(timeout=120)
        if isinstance(msg, m.Snapshot) and msg.table == table and msg.state == "over":
            return
        mine = isinstance(msg, m.Turn) and msg.table == table and msg.to_act == msg.seat
        if mine and msg.legal:  # type: ignore[union-attr]
            await bob.send(m.Act(table=table, action=msg.legal[0], id=None))  # type: ignore[union-attr]
            acted += 1


async def test_a_seated_persons_bot_turns_never_wait_for_an_analysis(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    NotedQueue.made.clear()
    monkeypatch.setattr(thinking, "FairQueue", NotedQueue)
    server = Server(CONFIG, MemoryStore())
    async with serving_server(server) as (_server, port):
        master = await Client.connect(port, "master")
        games = await finished_bot_games(server, master, len(ADDRESSES))
        bob = await Client.connect(port, "bob")
        made = await bob.request(m.CreateTable(ruleset="switch", seats=2))
        table = made.table
        await bob.request(m.Join(table=table, seat=0))
        await bob.request(m.SeatBot(table=table, seat=1, strategy="search"))
        desk: AnalysisDesk = server.lobby.analyses
        nursery = server.lobby.nursery
        assert nursery is not None
        listeners = [Listener() for _ in ADDRESSES]
        for game, peer, listener in zip(games, ADDRESSES, listeners, strict=True):
            answer = await desk.ask(listener, peer, server.lobby.get(game), None, nursery)  # type: ignore[arg-type]
            assert answer is None  # under way
        assert len(desk.running) == 4
        await bob.request(m.StartGame(table=table))
        await play_bot_turns(bob, table, BOT_TURNS)
        still = len(desk.running)
        # the analyses go on round their four addresses: each is given a place in turn
        (queue,) = NotedQueue.made
        with trio.fail_after(240):  # a guard against a hang, not a measurement
            while served_analyses(queue.notes) != {("analysis", a) for a in ADDRESSES}:
                await trio.sleep(0.1)
    (queue,) = NotedQueue.made
    notes = queue.notes
    asks = [i for i, n in enumerate(notes) if n[0] == "ask" and n[2]]  # bob's bot: urgent
    contended = [i for i in asks if notes[i][3] >= CONFIG.bot_workers]  # every place held
    assert len(contended) >= 3, (still, notes)
    for i in contended:  # given at once: no analysis chunk, under way or queued, before it
        assert notes[i + 1] == ("given", notes[i][1]), notes[i : i + 2]
    assert all(n[4] for n in notes if n[0] == "ask" and is_analysis(n[1]))  # background work
    assert served_analyses(notes) == {("analysis", a) for a in ADDRESSES}
