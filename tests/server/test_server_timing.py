"""Timed behaviour under trio's MockClock (autojump): never a real sleep.

Each test asks for ``autojump_clock`` itself (pytest-trio takes the clock from the
test's own arguments). Connections here run over in-memory streams
(``trio.testing.memory_stream_pair``) and names hash inline at the tests' tiny scrypt
cost, so the whole server is pure trio: the clock may jump whenever everything waits.
"""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from typing import Any

import pytest
import trio
import trio.testing
from e2e_client import TEST_CONFIG, Client

from protocol import messages as m
from protocol.limits import Limits
from server.core import commands as cmd
from server.core.config import ServerConfig
from server.players.accounts import Accounts
from server.store.base import MemoryStore
from server.tables.lobby import Lobby
from server.transport.connection import Connection, Services


async def make_services(nursery: trio.Nursery, config: ServerConfig) -> Services:
    store = MemoryStore()
    state = store.load()
    lobby = Lobby(config, store, state)
    await nursery.start(lobby.run)
    accounts = Accounts(store, state, scrypt_n=config.scrypt_n, max_chars=24)
    return Services(config, accounts, lobby, Limits(), set())


async def connect(nursery: trio.Nursery, services: Services) -> Client:
    """A client on an in-memory stream to a connection task of ``services``."""
    client_end, server_end = trio.testing.memory_stream_pair()
    nursery.start_soon(Connection(server_end, services).run)
    return Client(client_end)


@pytest.fixture
async def services(nursery: trio.Nursery) -> AsyncIterator[Services]:
    yield await make_services(nursery, TEST_CONFIG.replace(bot_delay_seconds=2.0))


async def test_a_silent_connection_is_closed_after_the_handshake_time_without_a_word(
    nursery, services, autojump_clock
):
    """Silence is never greeted (it may be a browser's preconnected socket, which would
    read a greeting as its HTTP response): it is closed when the handshake's time is up."""
    client_end, server_end = trio.testing.memory_stream_pair()
    nursery.start_soon(Connection(server_end, services).run)
    start = trio.current_time()
    received = b""
    with trio.fail_after(60):
        while chunk := await client_end.receive_some():
            received += chunk
    assert 0 <= trio.current_time() - start - TEST_CONFIG.handshake_seconds < 0.1
    assert received == b""


async def test_talk_is_rate_limited_per_connection(nursery, services, autojump_clock):
    client = await connect(nursery, services)
    assert isinstance(await client.request(m.Hello()), m.Welcome)
    assert isinstance(await client.request(m.ClaimName(name="chatty", secret="pw")), m.Named)
    table = await services.lobby.create("abbott", 4, {}, "chatty")
    await client.request(m.Spectate(table=str(table.id)))
    burst = TEST_CONFIG.talk_burst
    replies = [
        await client.request(m.Say(table=str(table.id), text="hi")) for _ in range(burst + 1)
    ]
    assert [type(r) for r in replies] == [m.Ok] * burst + [m.Error]
    assert replies[-1].code == "rate_limited"
    await trio.sleep(1 / TEST_CONFIG.talk_per_second)  # one token back
    assert isinstance(await client.request(m.Say(table=str(table.id), text="hi")), m.Ok)
    assert isinstance(await client.request(m.Say(table=str(table.id), text="hi")), m.Error)


class Seat0:
    """A member seated at seat 0 that acts at once, and records when each event came."""

    name = "me"
    operator = False

    def __init__(self) -> None:
        self.send, self.receive = trio.open_memory_channel[Any](10_000)
        self.times: list[tuple[float, Any]] = []

    def deliver(self, message: Any) -> None:
        self.times.append((trio.current_time(), message))
        self.send.send_nowait(message)

    def deliver_many(self, messages: Any) -> None:
        for message in messages:
            self.deliver(message)


async def test_server_bots_move_at_the_table_pace(nursery, services, autojump_clock):
    table = await services.lobby.create("kilodney", 4, {}, None)  # a house table: no master
    me = Seat0()
    await table.submit(cmd.Join(me, 1, 0))
    await table.submit(cmd.Start(me, 2))
    token = None
    async for msg in me.receive:
        if isinstance(msg, m.Seated):
            token = msg.token
        mine = isinstance(msg, m.Turn) and msg.to_act == 0
        mine |= isinstance(msg, m.Snapshot) and msg.state == "playing" and msg.view["to_act"] == 0
        if mine and msg.legal:
            await table.submit(cmd.Act(me, None, token, msg.legal[0]))
        if isinstance(msg, m.Snapshot) and msg.state == "over":
            break
    game = table.game
    bot_actions = sum(1 for seat, _ in game.record()["actions"] if seat != 0)
    started = next(t for t, x in me.times if isinstance(x, m.Snapshot) and x.state == "playing")
    times = [started] + [t for t, x in me.times if isinstance(x, m.Turn)]
    gaps = {round(b - a, 6) for a, b in itertools.pairwise(times)}
    # each server bot waits exactly bot_delay; our own moves take no time at all
    assert gaps <= {0.0, 2.0} and 2.0 in gaps
    assert times[-1] - started == pytest.approx(2.0 * bot_actions)
