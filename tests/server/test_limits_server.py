"""Each limit on a real server over loopback: the offender gets its error or is dropped,
and a bystander on the same server is served as before, right after."""

from __future__ import annotations

import struct
from collections.abc import AsyncIterator

import pytest
import trio
from e2e_client import Client

import engine
from protocol import messages as m
from protocol.msgpack_codec import encode
from server.app import Server
from server.core.config import ServerConfig

RULESET = "abbott" if "abbott" in engine.rulesets() else engine.rulesets()[0]

#: Every limit small, and nobody trusted (tests connect from 127.0.0.1 like everyone).
LIMITS = ServerConfig(
    host="127.0.0.1",
    port=0,
    scrypt_n=2,
    trusted_addresses=(),
    new_names_burst=100,  # the tests' names are not what is limited here
    commands_per_second=20.0,
    commands_burst=20,
    flood_penalty_seconds=0.5,
    flood_drop_after=10,
    connections_per_address=6,
    tables_per_name=2,
    talk_max_chars=50,
    talk_burst=3,
    talk_per_second=0.01,
    max_frame_bytes=4096,
    name_max_chars=12,
)


class Running:
    def __init__(self, server: Server, port: int) -> None:
        self.server, self.port = server, port


@pytest.fixture
async def limited(nursery: trio.Nursery) -> AsyncIterator[Running]:
    server = Server(LIMITS)
    port = await nursery.start(server.serve)
    yield Running(server, port)
    server.shutdown()


async def still_served(client: Client) -> None:
    """The bystander's round trip works."""
    reply = await client.request(m.ListTables(), timeout=5)
    assert isinstance(reply, m.Tables)


async def closed_by_server(client: Client, timeout: float = 5) -> list[m.Received]:
    """Read until the server closes the connection; everything received."""
    with trio.fail_after(timeout):
        try:
            while True:
                await client.next(timeout)
        except (EOFError, trio.BrokenResourceError, ConnectionResetError):
            pass
    return client.inbox


async def test_a_flooder_is_refused_then_dropped(limited: Running) -> None:
    bystander = await Client.connect(limited.port, "calm")
    flooder = await Client.connect(limited.port, "noisy")  # hello and name: 2 of the burst
    await flooder.stream.send_all(b"".join(encode(m.Ping(id=i)) for i in range(100, 125)))
    got = [await flooder.next() for _ in range(25)]
    pongs = [x for x in got if isinstance(x, m.Pong)]
    refused = [x for x in got if isinstance(x, m.Error) and x.code == "rate_limited"]
    assert len(pongs) == 18 and len(refused) == 7  # the burst, then the penalty: refusals
    assert "wait" in refused[0].text
    await still_served(bystander)
    # it keeps on: dropped at the tenth refusal
    await flooder.stream.send_all(b"".join(encode(m.Ping(id=i)) for i in range(200, 260)))
    got = await closed_by_server(flooder)
    goodbye = [x for x in got if isinstance(x, m.Goodbye)]
    assert goodbye and goodbye[-1].code == "rate_limited", [type(x).__name__ for x in got[-30:]]
    await still_served(bystander)
    # its address may not reconnect for flood_cooloff_seconds; the bystander's stays open
    again = await trio.open_tcp_stream("127.0.0.1", limited.port)
    with trio.fail_after(5):
        assert await again.receive_some(100) == b""
    await still_served(bystander)


async def test_connections_per_address(limited: Running) -> None:
    clients = [await Client.connect(limited.port, f"c{i}") for i in range(6)]
    extra = await trio.open_tcp_stream("127.0.0.1", limited.port)
    with trio.fail_after(5):
        data = await extra.receive_some(100)
    assert data == b""  # closed at once
    await clients[0].aclose()
    for _ in range(100):  # the server notices the close; a slot is free again
        try:
            again = await Client.connect(limited.port, "late")
            break
        except (EOFError, trio.BrokenResourceError, AssertionError):
            await trio.sleep(0.01)
    await still_served(again)
    await still_served(clients[1])


async def test_refusals_per_address_are_logged_once_a_minute_not_per_attempt(
    limited: Running, caplog: pytest.LogCaptureFixture
) -> None:
    clients = [await Client.connect(limited.port, f"c{i}") for i in range(6)]
    for _ in range(30):
        extra = await trio.open_tcp_stream("127.0.0.1", limited.port)
        with trio.fail_after(5):
            assert await extra.receive_some(100) == b""
        await extra.aclose()
    lines = [r.getMessage() for r in caplog.records if "from one address" in r.getMessage()]
    assert len(lines) == 1, lines
    await still_served(clients[0])


async def test_tables_per_name(limited: Running) -> None:
    ann = await Client.connect(limited.port, "ann")
    for _ in range(2):
        assert isinstance(await ann.request(m.CreateTable(ruleset=RULESET, seats=4)), m.Ok)
    third = await ann.request(m.CreateTable(ruleset=RULESET, seats=4))
    assert isinstance(third, m.Error) and "limit is 2" in third.text
    bob = await Client.connect(limited.port, "bob")
    assert isinstance(await bob.request(m.CreateTable(ruleset=RULESET, seats=4)), m.Ok)


async def test_talk_is_cut_cleaned_and_rate_limited(limited: Running) -> None:
    ann = await Client.connect(limited.port, "ann")
    bob = await Client.connect(limited.port, "bob")
    table = (await ann.request(m.CreateTable(ruleset=RULESET, seats=4))).table
    await ann.request(m.Join(table=table, seat=0))
    await bob.request(m.Join(table=table, seat=1))
    long = "x\u202e   " + "y" * 200
    assert isinstance(await ann.request(m.Say(table=table, text=long)), m.Ok)
    heard = await bob.wait_for(lambda x: isinstance(x, m.Talk))
    assert heard.text == ("x " + "y" * 200)[:50]
    replies = [await ann.request(m.Say(table=table, text=f"hi {i}")) for i in range(4)]
    assert [type(r) for r in replies[:2]] == [m.Ok, m.Ok]  # the burst of 3, less one
    assert isinstance(replies[-1], m.Error) and replies[-1].code == "rate_limited"
    assert isinstance(await bob.request(m.Say(table=table, text="still here")), m.Ok)


async def test_an_oversized_frame_closes_only_that_connection(limited: Running) -> None:
    bystander = await Client.connect(limited.port, "calm")
    big = await Client.connect(limited.port, "big")
    await big.stream.send_all(
        struct.pack(">I", 1 << 30)
    )  # claims a gigabyte: refused from the header
    got = await closed_by_server(big)
    assert any(isinstance(x, m.Error) and x.code == "too_large" for x in got)
    await still_served(bystander)


async def test_a_long_text_line_closes_only_that_connection(limited: Running) -> None:
    bystander = await Client.connect(limited.port, "calm")
    stream = await trio.open_tcp_stream("127.0.0.1", limited.port)
    await stream.send_all(b"hello\n" + b"say " + b"a" * 5000 + b"\n")
    received = b""
    with trio.fail_after(5):
        while chunk := await stream.receive_some(65536):
            received += chunk
    assert b"too_large" in received
    await still_served(bystander)


async def test_names_are_cleaned_and_bounded(limited: Running) -> None:
    client = await Client.connect(limited.port)
    for bad in ("x" * 13, "a\u202eb", "_lead"):
        reply = await client.request(m.ClaimName(name=bad, secret="pw12"))
        assert isinstance(reply, m.Error) and reply.code == "bad_name", (bad, reply)
    assert isinstance(await client.request(m.ClaimName(name="x" * 12, secret="pw12")), m.Named)


async def test_idle_connections_are_closed(nursery: trio.Nursery) -> None:
    server = Server(LIMITS.replace(idle_seconds=0.3))
    port = await nursery.start(server.serve)
    # Taken before the idle connection's last message (its name), so it may not be closed
    # sooner than 0.3 s after ``start``, however long the second connection takes to open
    # (taken after both, it held only while that took under 50 ms).
    start = trio.current_time()
    idle = await Client.connect(port, "sleepy")
    busy = await Client.connect(port, "busy")

    async def keep_talking() -> None:  # a connection that keeps sending stays open
        for _ in range(8):
            await still_served(busy)
            await trio.sleep(0.1)

    async with trio.open_nursery() as inner:
        inner.start_soon(keep_talking)
        got = await closed_by_server(idle)
        assert trio.current_time() - start >= 0.25
    assert any(isinstance(x, m.Goodbye) and x.code == "idle" for x in got)
    # someone watching a table is not idle, however long he stays silent
    watcher = await Client.connect(port, "watcher")
    table = (await busy.request(m.CreateTable(ruleset=RULESET, seats=4))).table
    assert isinstance(await watcher.request(m.Spectate(table=table)), m.Snapshot)
    with trio.move_on_after(1.0):
        await closed_by_server(watcher)
    assert not watcher.closed
    server.shutdown()
