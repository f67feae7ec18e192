"""The opening of a connection: a person at ``nc`` who presses Enter is greeted at once;
a program that speaks at once never sees the greeting; a browser's request line is HTTP.

Timed parts run on in-memory streams under trio's MockClock (autojump), as
test_server_timing.py does, so "within a second" is exact and no real time passes.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import trio
import trio.testing
from e2e_client import TEST_CONFIG

from protocol import messages as m
from protocol.limits import Limits
from protocol.msgpack_codec import MsgpackDecoder, encode
from server.app import Server
from server.players.accounts import Accounts
from server.store.base import MemoryStore
from server.tables.lobby import Lobby
from server.transport.connection import Connection, Services
from server.transport.framing import TextFraming

#: the words every greeting has: what to type first
GREETING_WORDS = b"Type help"


@pytest.fixture
async def services(nursery: trio.Nursery) -> AsyncIterator[Services]:
    config = TEST_CONFIG
    store = MemoryStore()
    state = store.load()
    lobby = Lobby(config, store, state)
    await nursery.start(lobby.run)
    accounts = Accounts(store, state, scrypt_n=config.scrypt_n, max_chars=24)
    yield Services(config, accounts, lobby, Limits(), set())


def connect(nursery: trio.Nursery, services: Services) -> trio.testing.MemoryStapledStream:
    client_end, server_end = trio.testing.memory_stream_pair()
    nursery.start_soon(Connection(server_end, services).run)
    return client_end


async def read_for(stream: trio.abc.Stream, seconds: float) -> tuple[bytes, bool]:
    """What the server sent within ``seconds``, and whether it closed meanwhile."""
    received = b""
    with trio.move_on_after(seconds):
        while chunk := await stream.receive_some():
            received += chunk
        return received, True
    return received, False


async def read_until(stream: trio.abc.Stream, needle: bytes) -> bytes:
    received = b""
    with trio.fail_after(30):
        while needle not in received:
            chunk = await stream.receive_some()
            assert chunk, received
            received += chunk
    return received


async def test_a_silent_connection_is_never_greeted(nursery, services, autojump_clock):
    """A browser opens sockets before it has a request for them, and any byte the server
    wrote first would be read as its HTTP response (and refused): silence gets no greeting,
    whatever its length, until the handshake's time is up."""
    client = connect(nursery, services)
    received, closed = await read_for(client, TEST_CONFIG.handshake_seconds - 1)
    assert received == b"" and not closed
    await client.send_all(b"GET /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    assert (await read_until(client, b"\r\n")).startswith(b"HTTP/1.1 ")


async def test_a_bare_enter_first_is_greeted_at_once_and_not_fatal(
    nursery, services, autojump_clock
):
    client = connect(nursery, services)
    await client.send_all(b"\n")
    start = trio.current_time()
    greeting = await read_until(client, b"\n")
    assert GREETING_WORDS in greeting
    assert trio.current_time() - start < 0.1  # at once
    await client.send_all(b"\r\n\n")  # more blank lines: still nothing fatal
    await client.send_all(b"ping\n")
    received = await read_until(client, b"pong\n")
    assert b"goodbye" not in received


async def test_spaces_and_blank_lines_first_then_a_command(nursery, services, autojump_clock):
    client = connect(nursery, services)
    await client.send_all(b"   \n \t \r\n")
    await trio.sleep(0.1)
    await client.send_all(b"  ping\n")
    received = await read_until(client, b"pong\n")
    assert b"welcome" in received and b"goodbye" not in received


async def test_blank_lines_between_commands_are_ignored(nursery, services, autojump_clock):
    client = connect(nursery, services)
    await client.send_all(b"ping\n\n   \n\t\nping\n")
    received = await read_until(client, b"pong\npong\n")
    assert b"error" not in received and b"goodbye" not in received


async def test_a_msgpack_client_that_says_hello_at_once_never_sees_the_greeting(
    nursery, services, autojump_clock
):
    client = connect(nursery, services)
    await client.send_all(encode(m.Hello(id=1)))
    received, closed = await read_for(client, 5.0)
    assert not closed
    messages = MsgpackDecoder().feed(received)  # every byte is a whole msgpack frame
    assert [type(x) for x in messages] == [m.Welcome]
    assert GREETING_WORDS not in received
    await client.send_all(encode(m.Ping(id=2)))
    received, _ = await read_for(client, 1.0)
    assert MsgpackDecoder().feed(received) == [m.Pong(id=2)]


async def test_a_greeted_person_who_types_nothing_is_told_goodbye_in_words(
    nursery, services, autojump_clock
):
    client = connect(nursery, services)
    await client.send_all(b"\n")
    received, closed = await read_for(client, TEST_CONFIG.handshake_seconds + 1)
    assert closed
    first, *_, last = received.decode().splitlines()
    assert GREETING_WORDS.decode() in first
    assert last.startswith("goodbye") and "hello" in last


async def test_a_request_line_is_http_and_gets_an_http_answer(nursery):
    server = Server(TEST_CONFIG, MemoryStore())
    port = await nursery.start(server.serve)
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    await stream.send_all(b"GET /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    received = await read_until(stream, b"\r\n\r\n")  # the status line and headers
    assert received.startswith(b"HTTP/1.1 ")
    assert GREETING_WORDS not in received
    await stream.aclose()
    server.shutdown()


async def test_a_request_line_in_pieces_is_still_http(nursery):
    server = Server(TEST_CONFIG, MemoryStore())
    port = await nursery.start(server.serve)
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    for piece in (b"GE", b"T /ws HT", b"TP/1.1\r", b"\nHost: x\r\n\r\n"):
        await stream.send_all(piece)
        await trio.sleep(0.05)
    received = await read_until(stream, b"\r\n\r\n")
    assert received.startswith(b"HTTP/1.1 ")
    await stream.aclose()
    server.shutdown()


def test_the_spec_quotes_the_greeting_word_for_word() -> None:
    spec = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
    assert TextFraming.greeting is not None
    greeting = TextFraming.greeting.decode().strip()
    assert f"`{greeting}`" in " ".join(spec.split())
