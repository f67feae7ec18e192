"""The crowd's lane (``server.transport.crowd_lane``): connections that hold no seat and
are not trusted are served one message a pass of trio's loop, in the order they asked,
so a seated player's message is not queued behind a crowd's that arrived with it."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import AsyncIterator
from typing import Any

import pytest
import trio
from e2e_client import TEST_CONFIG, Client, serving_server

from protocol import messages as m
from server.app import Server
from server.store.base import MemoryStore
from server.transport import connection
from server.transport.crowd_lane import CrowdLane


class Passes(trio.abc.Instrument):
    """Counts the passes of trio's loop: each ends by waiting for I/O."""

    def __init__(self) -> None:
        self.count = 0

    def before_io_wait(self, timeout: float) -> None:
        self.count += 1


async def test_one_waiter_a_pass_first_come_first_served() -> None:
    lane = CrowdLane()
    passes = Passes()
    trio.lowlevel.add_instrument(passes)
    asked: list[int] = []
    resumed: list[tuple[int, int]] = []  # (waiter, the pass it resumed in)

    async def waiter(i: int) -> None:
        asked.append(i)
        await lane.turn()
        resumed.append((i, passes.count))

    try:
        async with trio.open_nursery() as nursery:
            for i in range(12):  # all ask in the same pass, in an order of trio's
                nursery.start_soon(waiter, i)
    finally:
        trio.lowlevel.remove_instrument(passes)
    assert [i for i, _ in resumed] == asked
    seen = [p for _, p in resumed]
    assert all(b > a for a, b in itertools.pairwise(seen)), seen
    assert lane.served == 12 and len(lane) == 0
    await trio.sleep(0)  # the pump saw nobody waiting and ended
    assert not lane._pumping


async def test_a_lone_message_goes_straight_on_and_a_cancelled_waiter_leaves() -> None:
    lane = CrowdLane()
    passes = Passes()
    trio.lowlevel.add_instrument(passes)
    try:
        before = passes.count
        await lane.turn()  # nobody else asked in this pass: no pass waited for
        assert passes.count == before and lane.served == 1
        with trio.move_on_after(0) as scope:  # a second in the same pass waits: cancelled
            await lane.turn()
        assert scope.cancelled_caught and len(lane) == 0 and lane.served == 1
        with trio.fail_after(1):  # the next one is served all the same
            await lane.turn()
        assert lane.served == 2
    finally:
        trio.lowlevel.remove_instrument(passes)


# ----------------------------------------------------------- against a server
#: nobody trusted: the crowd and the player are both from 127.0.0.1
CONFIG = dataclasses.replace(TEST_CONFIG, trusted_addresses=(), connections_per_address=64)
CROWD, EACH = 20, 30  #: connections, and the listings each pipelines in one write


@pytest.fixture
async def server_port() -> AsyncIterator[tuple[Server, int]]:
    async with serving_server(Server(CONFIG, MemoryStore())) as served:
        yield served


async def test_a_seated_players_ping_goes_before_a_crowds_listings(
    server_port: tuple[Server, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    server, port = server_port
    handled: list[tuple[int, str]] = []  # (session id, message type), as handled
    original = connection.handle

    async def logged(session: Any, message: m.Message) -> None:
        handled.append((session.id, message.type))
        await original(session, message)

    monkeypatch.setattr(connection, "handle", logged)
    player = await Client.connect(port, "ann")
    made = await player.request(m.CreateTable(ruleset="switch", seats=4, options={}))
    assert isinstance(made, m.Ok), made
    seated = await player.request(m.Join(table=str(made.table), seat=0))
    assert isinstance(seated, m.Seated), seated
    crowd = [await Client.connect(port) for _ in range(CROWD)]
    assert server.services is not None
    sessions = {s.id: s for s in server.services.connections}
    crowd_ids = {i for i, s in sessions.items() if not s.tokens}
    assert len(crowd_ids) == CROWD
    listings = b"".join(crowd[0].codec.encode(m.ListTables(id=1000 + n)) for n in range(EACH))
    before = {i: sessions[i].outbox.received for i in crowd_ids}
    handled.clear()
    for c in crowd:
        await c.stream.send_all(listings)
    with trio.fail_after(10):  # the server has read every listing the crowd sent
        while any(sessions[i].outbox.received - before[i] < len(listings) for i in crowd_ids):
            await trio.sleep(0)
    pong = await player.request(m.Ping())
    assert isinstance(pong, m.Pong), pong
    ping_at = handled.index((next(i for i in sessions if i not in crowd_ids), "ping"))
    crowd_before = sum(1 for i, _ in handled[:ping_at] if i in crowd_ids)
    # Without the lane each connection handled its 30 listings in the pass that read them,
    # all 600 before the ping; with it, one a pass while the ping came in.
    assert crowd_before < CROWD * EACH // 4, (crowd_before, CROWD * EACH)
    with trio.fail_after(20):  # and the crowd is served in full all the same
        for c in crowd:
            for n in range(EACH):
                await c.wait_for(lambda x, n=n: getattr(x, "id", None) == 1000 + n)
    assert len(server.services.lane) == 0


async def test_a_seatless_player_waits_in_the_lane_a_seated_one_until_his_table_closes(
    server_port: tuple[Server, int],
) -> None:
    server, port = server_port
    assert server.services is not None
    lane = server.services.lane
    guest = await Client.connect(port)
    served = lane.served
    assert isinstance(await guest.request(m.Ping()), m.Pong)
    assert lane.served == served + 1  # its ping took a turn
    seated = await Client.connect(port, "bea")
    made = await seated.request(m.CreateTable(ruleset="switch", seats=4, options={}))
    assert isinstance(made, m.Ok)
    await seated.request(m.Join(table=str(made.table), seat=0))
    served = lane.served
    for _ in range(5):
        assert isinstance(await seated.request(m.Ping()), m.Pong)
    assert lane.served == served  # a seat's holder never waits in it
    assert server.services.ops is not None
    assert await server.services.ops.close_table(str(made.table), "closed by the test")
    with trio.fail_after(10):
        while server.services.lobby.get(str(made.table)) is not None:
            await trio.sleep(0.01)
    assert isinstance(await seated.request(m.Ping()), m.Pong)
    assert lane.served == served + 1  # his token's table closed: he is one of the crowd


async def test_a_trusted_address_never_waits_in_the_lane() -> None:
    async with serving_server(Server(TEST_CONFIG, MemoryStore())) as (server, port):
        assert server.services is not None and "127.0.0.1" in TEST_CONFIG.trusted_addresses
        host = await Client.connect(port)
        served = server.services.lane.served
        for _ in range(5):
            assert isinstance(await host.request(m.Ping()), m.Pong)
        assert server.services.lane.served == served
