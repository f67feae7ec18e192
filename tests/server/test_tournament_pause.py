"""The host pauses a whole tournament and resumes it: a game in play finishes its hand,
then waits paused; the round's cap stands still; no round is seated while paused; and
both the pause and the round's cap are kept across a restart."""

from __future__ import annotations

import dataclasses
import random
import time
from typing import Any

import trio
from e2e_client import TEST_CONFIG, Client, serving_server

from protocol import messages as m
from server.app import Server
from server.store.base import MemoryStore
from server.tables.events import HandEnded
from server.tables.gamemaster import PAUSED
from server.tables.table import PLAYING
from server.tournaments.book import OVER, Book

CONFIG = dataclasses.replace(TEST_CONFIG, tournament_countdown_seconds=0.0)
NAMES = ["ann", "bob", "cy", "dee"]


async def until(predicate: Any, timeout: float = 30) -> None:
    with trio.fail_after(timeout):
        while not predicate():
            await trio.sleep(0.01)


def opened(book: Book, number: int) -> bool:
    return book.round >= number and all(t.table is not None for t in book.current_tables())


async def ok(client: Client, message: m.Message) -> m.Ok:
    reply = await client.request(message)
    assert isinstance(reply, m.Ok), reply
    return reply


async def shown(client: Client) -> dict[str, Any]:
    reply = await client.request(m.GetTournament(tournament=1))
    assert isinstance(reply, m.Tournament), reply
    return dict(reply.summary)


async def play(client: Client, table: str, seed: int) -> None:
    seated = await client.request(m.Join(table=table))
    assert isinstance(seated, m.Seated), seated
    await client.play(table, random.Random(seed))


async def test_a_pause_lets_the_hand_finish_and_stops_the_clock_until_resumed() -> None:
    server = Server(CONFIG, MemoryStore())
    hands: list[int] = []  #: hands scored since the pause was asked for
    asked = trio.Event()
    async with serving_server(server) as (_, port):
        server.events.listen(
            lambda e: hands.append(e.hand) if isinstance(e, HandEnded) and asked.is_set() else None
        )
        c = {n: await Client.connect(port, n) for n in NAMES}
        host = await Client.connect(port, "host")
        await ok(host, m.CreateTournament(ruleset="kilodney", rounds=2, seats=4,
                                          options={"target": 500}))  # fmt: skip
        book = server.tournaments.get(1)
        for n in NAMES:
            await ok(c[n], m.EnterTournament(tournament=1))
        refused = await c["ann"].request(m.PauseTournament(tournament=1))
        assert isinstance(refused, m.Error) and refused.code == "not_master"
        await ok(host, m.StartTournament(tournament=1))
        await until(lambda: opened(book, 1))
        (at,) = book.current_tables()
        assert at.table is not None
        table = server.lobby.get(at.table)
        assert table is not None
        async with trio.open_nursery() as players:
            for i, n in enumerate(NAMES):
                players.start_soon(play, c[n], str(at.table), i)
            await until(lambda: table.state == PLAYING)
            asked.set()
            said = await ok(host, m.PauseTournament(tournament=1))
            assert "finish their hand" in said.text
            again = await host.request(m.PauseTournament(tournament=1))
            assert isinstance(again, m.Error) and "is paused" in again.text
            await until(lambda: table.state == PAUSED, 60)
            assert hands  # it played its hand out before it stopped
            assert book.paused and not book.round_over()
            before = await shown(host)
            assert before["paused"] is True and before["time_left"] is not None
            await trio.sleep(1.2)
            assert (await shown(host))["time_left"] == before["time_left"]  # stood still
            assert table.state == PAUSED  # and the game waits, its clocks stopped
            await ok(host, m.ResumeTournament(tournament=1))
            await until(lambda: table.state == PLAYING)
            assert (await shown(host))["paused"] is False
            await trio.sleep(1.2)
            assert (await shown(host))["time_left"] < before["time_left"]
            # paused again between rounds: the round ends, the next is not seated
            await ok(host, m.PauseTournament(tournament=1))
            await until(lambda: table.state == PAUSED, 60)
            await ok(host, m.EndTournament(tournament=1))  # an end lifts the pause
            await until(lambda: book.state == OVER)
            players.cancel_scope.cancel()
        assert book.round == 1 and book.current_tables()[0].outcome == "abandoned"
        assert (await shown(host))["paused"] is False
        for client in [*c.values(), host]:
            await client.aclose()


async def test_no_round_is_seated_while_paused() -> None:
    server = Server(CONFIG, MemoryStore())
    async with serving_server(server) as (_, port):
        c = {n: await Client.connect(port, n) for n in NAMES}
        service = server.tournaments
        book = await service.create("host", "switch", rounds=2, sizes=(4,))
        for n in NAMES:
            await service.enter(1, n)
        await service.hold(1, "host", True)  # paused before it starts
        await service.start(1, "host")
        await trio.sleep(0.5)
        assert book.round == 0 and service.time_left(1) is None  # round 1 waits
        await service.hold(1, "host", False)
        await until(lambda: book.clock_round == 1)
        assert opened(book, 1)
        assert service.time_left(1) is not None
        for client in c.values():
            await client.aclose()


async def test_the_pause_and_the_rounds_cap_are_kept_across_a_restart() -> None:
    store = MemoryStore()
    async with serving_server(Server(CONFIG, store)) as (server, port):
        c = [await Client.connect(port, n) for n in NAMES]
        service = server.tournaments
        book = await service.create("host", "switch", rounds=2, minutes=1, sizes=(4,))
        for n in NAMES:
            await service.enter(1, n)
        await service.start(1, "host")
        await until(lambda: book.clock_round == 1)
        clocked = time.time()
        await trio.sleep(1.5)
        for client in c:
            await client.aclose()
    await trio.sleep(1.0)  # the server is down: the round's minutes still go by
    async with serving_server(Server(CONFIG, store)) as (server, port):
        service = server.tournaments
        left = service.time_left(1)
        assert left is not None and left <= 60 - 2.4  # not a whole minute again
        assert abs(left - (60 - (time.time() - clocked))) < 0.5
        await service.hold(1, "host", True)
        paused_left = service.time_left(1)
    await trio.sleep(1.0)
    async with serving_server(Server(CONFIG, store)) as (server, port):
        service = server.tournaments
        book = service.get(1)
        assert book.paused and book.summary()["paused"]
        assert paused_left is not None
        assert abs((service.time_left(1) or 0) - paused_left) < 0.05  # it stood still
        await service.hold(1, "host", False)
        await trio.sleep(1.0)
        assert (service.time_left(1) or 0) < paused_left - 0.8


async def test_a_paused_arena_seats_nobody_and_its_time_stands_still() -> None:
    server = Server(CONFIG, MemoryStore())
    async with serving_server(server) as (_, port):
        c = [await Client.connect(port, n) for n in NAMES]
        service = server.tournaments
        book = await service.create("host", "switch", format="arena", minutes=1, sizes=(4,))
        for n in NAMES:
            await service.enter(1, n)
        await service.hold(1, "host", True)
        await service.start(1, "host")
        await trio.sleep(1.5)  # four free players make a table: none while paused
        assert book.round == 0
        assert service.time_left(1) == 60.0
        await service.hold(1, "host", False)
        await until(lambda: opened(book, 1))
        assert (service.time_left(1) or 0) < 60.0
        for client in c:
            await client.aclose()
