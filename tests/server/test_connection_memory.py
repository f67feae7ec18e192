"""A closed connection is freed by reference counting alone: no reference cycle keeps it.

The server runs with the old generation collected rarely (``switchboard serve``
raises the gc thresholds), so anything a connection leaves in a cycle stays
until a full collection: connect/close churn then grows memory without bound.
These tests churn connections with the cycle collector switched off and ask,
through weak references, whether any closed ``Connection`` (the shell) or its
``ClientSession`` is still alive: after polite closes, and after abrupt ones as a
crashed client or an attacker ends (a TCP reset after hello, in the middle of a
frame, and while the server is writing replies), where exceptions with their
tracebacks and frames are the usual way a cycle is made.
"""

from __future__ import annotations

import gc
import socket
import struct
import weakref
from collections.abc import Awaitable, Callable, Iterator

import pytest
import trio
from e2e_client import TEST_CONFIG

import server.app
from protocol import messages as m
from protocol.msgpack_codec import encode
from server.app import Server
from server.store.base import MemoryStore

#: 2,000 connections as the hardening goal asks; fewer for the paths that end in errors.
CHURN = 2_000


@pytest.fixture
def tracked(monkeypatch: pytest.MonkeyPatch) -> list[weakref.ref]:
    """Weak references to every ``Connection`` the server makes from now on, and to
    its session."""
    refs: list[weakref.ref] = []

    class Tracked(server.app.Connection):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]
            refs.append(weakref.ref(self))
            refs.append(weakref.ref(self.session))

    monkeypatch.setattr(server.app, "Connection", Tracked)
    return refs


@pytest.fixture
def no_cycle_collector() -> Iterator[None]:
    """Only reference counting frees objects while the test runs."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


async def _read_to_eof(stream: trio.SocketStream) -> bytes:
    data = b""
    with trio.move_on_after(5):
        while chunk := await stream.receive_some(65536):
            data += chunk
    return data


async def hello_then_close(port: int) -> None:
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    await stream.send_all(encode(m.Hello(id=1)))
    assert await stream.receive_some(4096)  # the welcome
    await stream.aclose()


async def hello_then_bad_frame(port: int) -> None:
    """A frame that is not msgpack: the server answers bad_frame and closes."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    await stream.send_all(encode(m.Hello(id=1)) + b"\x00\x00\x00\x02\xc1\xc1")
    assert b"bad_frame" in await _read_to_eof(stream)
    await stream.aclose()


async def hello_then_half_a_frame(port: int) -> None:
    """The peer leaves in the middle of a frame."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    await stream.send_all(encode(m.Hello(id=1)) + b"\x00\x00\x00\x20ab")
    assert await stream.receive_some(4096)
    await stream.aclose()


async def text_game_then_quit(port: int) -> None:
    """A named text client creates a table (which seats it), starts a game with bots, and
    quits: its seat's table must not keep the closed connection."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    await stream.send_all(b"hello\nname churn pw\ncreate switch 4\nstart\nquit\n")
    assert b"goodbye quit" in await _read_to_eof(stream)
    await stream.aclose()


#: SO_LINGER on with 0 s: ``close()`` sends a TCP reset, not a FIN
RESET = struct.pack("ii", 1, 0)


async def _reset_after(port: int, opening: bytes, wait: float = 0.0) -> None:
    """Connect, send ``opening``, wait ``wait`` s, then end with a TCP reset."""
    sock = trio.socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    await sock.connect(("127.0.0.1", port))
    await sock.send(opening)
    await trio.sleep(wait)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, RESET)
    sock.close()


async def hello_then_reset(port: int) -> None:
    """A crashed client: hello, and a reset before the welcome is read."""
    await _reset_after(port, encode(m.Hello(id=1)))


async def reset_in_a_frame(port: int) -> None:
    """Hello and half a frame, then a reset."""
    await _reset_after(port, encode(m.Hello(id=1)) + b"\x00\x00\x00\x40ab", 0.01)


async def reset_in_the_middle_of_replies(port: int) -> None:
    """Hello and a burst of requests whose replies fill the socket (the client reads
    nothing, behind a small receive buffer), then a reset while they are being written."""
    burst = b"".join(encode(m.Help(id=i)) for i in range(2, 200))
    await _reset_after(port, encode(m.Hello(id=1)) + burst, 0.05)


async def text_reset_at_a_table(port: int) -> None:
    """A text client seated at a table in play resets: its table must let it go."""
    await _reset_after(port, b"hello\nname churn pw\ncreate switch 4\nstart\n", 0.2)


async def _churn(
    tracked: list[weakref.ref], client: Callable[[int], Awaitable[None]], times: int
) -> None:
    config = TEST_CONFIG.replace(tables_per_name=0)
    async with trio.open_nursery() as nursery:
        srv = Server(config, MemoryStore())
        port = await nursery.start(srv.serve)
        for _ in range(times):
            await client(port)
        with trio.fail_after(10):
            while srv.connections:  # each closes in its own task, just after our close
                await trio.sleep(0.01)
        await trio.sleep(0.05)  # the last ones leave their handler's frame
        alive = sum(ref() is not None for ref in tracked)
        srv.shutdown()
    assert len(tracked) == 2 * times
    assert alive == 0, f"{alive} of {times} closed connections or sessions are still alive"


async def test_connect_hello_close_frees_every_connection(tracked, no_cycle_collector):
    await _churn(tracked, hello_then_close, CHURN)


@pytest.mark.parametrize(
    "client", [hello_then_bad_frame, hello_then_half_a_frame, text_game_then_quit]
)
async def test_connections_that_end_otherwise_are_freed_too(tracked, no_cycle_collector, client):
    await _churn(tracked, client, 50)


@pytest.mark.parametrize(
    "client",
    [hello_then_reset, reset_in_a_frame, reset_in_the_middle_of_replies, text_reset_at_a_table],
)
async def test_connections_that_end_abruptly_are_freed_too(tracked, no_cycle_collector, client):
    await _churn(tracked, client, 50)
