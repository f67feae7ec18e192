"""docs/protocol.md's promises in sections 4, 5, 7, 8 and 10, each test quoting the
sentence it holds a real server to (and first finding it in the page, so the page and
the server cannot drift apart unnoticed)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import trio
from e2e_client import TEST_CONFIG, Client

from protocol import messages as m
from protocol.msgpack_codec import MsgpackDecoder, encode
from server.app import Server
from server.core.config import ServerConfig
from server.store.base import MemoryStore

DOC = " ".join((Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text().split())


def says(sentence: str) -> None:
    assert " ".join(sentence.split()) in DOC, sentence


#: Nobody trusted: the limits of an address from the internet.
UNTRUSTED = dataclasses.replace(TEST_CONFIG, trusted_addresses=())
#: ...with a request bucket that never refills, so what a flood gets is exact however
#: slowly a loaded machine reads it
UNREFILLED = dataclasses.replace(UNTRUSTED, commands_per_second=0.0)


@pytest.fixture
async def untrusted(nursery: trio.Nursery) -> AsyncIterator[int]:
    server = Server(UNTRUSTED, MemoryStore())
    port = await nursery.start(server.serve)
    yield port
    server.shutdown()


@pytest.fixture
async def unrefilled(nursery: trio.Nursery) -> AsyncIterator[int]:
    server = Server(UNREFILLED, MemoryStore())
    port = await nursery.start(server.serve)
    yield port
    server.shutdown()


async def read_until_closed(stream: trio.SocketStream, limit: float = 30) -> list[m.Received]:
    decoder = MsgpackDecoder()
    out: list[m.Received] = []
    with trio.fail_after(limit):
        while data := await stream.receive_some(65536):
            out.extend(decoder.feed(data))
    return out


async def open_from(source: str, port: int) -> trio.SocketStream:
    """A connection to the server from another loopback address (Linux answers all of
    127.0.0.0/8), as a second machine would come."""
    sock = trio.socket.socket()
    await sock.bind((source, 0))
    await sock.connect(("127.0.0.1", port))
    return trio.SocketStream(sock)


def test_the_documented_numbers_are_the_defaults() -> None:
    config = ServerConfig()
    says("a connection may send a burst of 100 requests, then 50 a second")
    assert (config.commands_burst, config.commands_per_second) == (100, 50.0)
    says("for the next 2 s (`flood_penalty_seconds`)")
    assert config.flood_penalty_seconds == 2.0
    says("The 50th refusal (`flood_drop_after`) is not answered")
    assert config.flood_drop_after == 50
    says("that address may not connect again for 10 s (`flood_cooloff_seconds`)")
    assert config.flood_cooloff_seconds == 10.0
    says("by default `127.0.0.1` and `::1`")
    assert config.trusted_addresses == ("127.0.0.1", "::1")


async def test_512_pipelined_pings_are_refused_past_the_burst_then_dropped(
    unrefilled: int,
) -> None:
    says(
        "So a client that sends 512 `ping`s at once is answered about 100 `pong`s, then"
        " `error rate_limited` 49 times, then `goodbye rate_limited`."
    )
    stream = await trio.open_tcp_stream("127.0.0.1", unrefilled)
    await stream.send_all(
        encode(m.Hello(id=0)) + b"".join(encode(m.Ping(id=i)) for i in range(1, 513))
    )
    got = await read_until_closed(stream)
    assert isinstance(got[0], m.Welcome)
    pongs = [x for x in got if isinstance(x, m.Pong)]
    refused = [x for x in got if isinstance(x, m.Error)]
    # the burst, less the hello (the bucket refills nothing here: at 50 a second it would
    # add a pong for each 20 ms the server took to read them)
    assert len(pongs) == 99
    assert got[1:100] == pongs  # the burst comes first, in order
    assert len(refused) == 49 and all(e.code == "rate_limited" for e in refused)
    assert "wait" in refused[0].text
    assert isinstance(got[-1], m.Goodbye) and got[-1].code == "rate_limited"
    assert len(got) < 513  # the rest was never read


async def test_a_client_under_the_rate_is_never_refused(untrusted: int) -> None:
    says(
        "A client that keeps at most 100 requests unanswered and sends under 50 a second"
        " is never refused."
    )
    client = await Client.connect(untrusted)
    for batch in range(3):
        await client.stream.send_all(
            b"".join(encode(m.Ping(id=1000 * batch + i)) for i in range(40))
        )
        got = [await client.next() for _ in range(40)]
        assert all(isinstance(x, m.Pong) for x in got), got
        await trio.sleep(1)
    await client.aclose()


async def test_format_json_as_the_first_line_is_the_handshake(running) -> None:
    says("`format json` as the first line is the whole handshake")
    says(
        "like any first line, it performs the handshake (section 5), so the server answers it"
        " with `welcome 1 switchboard ...` and then `ok`, both in JSON"
    )
    stream = await trio.open_tcp_stream("127.0.0.1", running.port)
    await stream.send_all(b"format json\n")
    data = b""
    with trio.fail_after(10):
        while data.count(b"\n") < 2:
            data += await stream.receive_some(4096)
    welcome, ok = data.decode().splitlines()[:2]
    assert welcome.startswith("welcome 1 switchboard") and ok.startswith("ok ")
    await stream.send_all(b"name ann pw\n")  # ready for a name, no hello line
    with trio.fail_after(10):
        while b"named" not in data:
            data += await stream.receive_some(4096)
    assert re.search(rb"^named ann", data, re.M)
    await stream.aclose()


async def test_a_wrong_secret_from_another_address_never_delays_the_right_one(
    untrusted: int,
) -> None:
    says("A wrong secret from another address never delays or blocks the right one")
    says("From one address they do: the back-off below is per address")
    owner = await Client.connect(untrusted, "owner", secret="right")
    await owner.aclose()
    # the guesser on 127.0.0.2 spends its free tries and more on the owner's name
    stream = await open_from("127.0.0.2", untrusted)
    decoder = MsgpackDecoder()
    await stream.send_all(encode(m.Hello(id=0)))
    for i in range(1, 8):
        await stream.send_all(encode(m.ClaimName(name="owner", secret="wrong", id=i)))
    codes = []
    with trio.fail_after(20):
        while len(codes) < 8:
            codes += [
                getattr(x, "code", type(x).__name__)
                for x in decoder.feed(await stream.receive_some(65536))
            ]
    assert "rate_limited" in codes  # that address now waits
    # the owner from 127.0.0.1 is let in at once
    again = await Client.connect(untrusted)
    assert isinstance(await again.request(m.ClaimName(name="owner", secret="right")), m.Named)
    # but from the guesser's address, the right secret waits too
    await stream.send_all(encode(m.ClaimName(name="owner", secret="right", id=99)))
    with trio.fail_after(10):
        (reply,) = decoder.feed(await stream.receive_some(65536))
    assert isinstance(reply, m.Error) and reply.code == "rate_limited"
    await stream.aclose()
    await again.aclose()


async def test_the_tables_payload_has_exactly_the_documented_keys(running) -> None:
    row = re.search(r"\| `tables` \| S \| `tables` Payloads, one a table: `\{([^}]*)\}`", DOC)
    assert row, "the tables row of section 10"
    documented = re.findall(r'"(\w+)"', row.group(1))
    client = await Client.connect(running.port, "lister")
    made = await client.request(m.CreateTable(ruleset="switch", seats=2))
    assert isinstance(made, m.Ok)
    listed = await client.request(m.ListTables())
    assert isinstance(listed, m.Tables)
    (table,) = listed.tables
    assert documented == list(table)
    explained = DOC[row.end() : DOC.index("| `create_table` |", row.end())]
    for key in documented:
        assert f"`{key}`" in explained, key  # each one said what it is
    await client.aclose()
