"""A connection refused for its address's count (or the server's) is told why in its own
binding before it is closed: HTTP ``503`` with ``Retry-After``, ``goodbye`` over msgpack and
in text. Before, it got a close with no bytes, or a reset."""

from __future__ import annotations

import trio
import trio.testing
from e2e_client import TEST_CONFIG

from protocol import messages as m
from protocol.msgpack_codec import MsgpackDecoder, encode
from server.app import Server
from server.store.base import MemoryStore
from server.transport.refusal import Refusals, refusal_bytes

CONFIG = TEST_CONFIG.replace(trusted_addresses=(), connections_per_address=1)


async def _read_all(stream: trio.SocketStream) -> bytes:
    data = b""
    with trio.fail_after(5):
        try:
            while chunk := await stream.receive_some(65536):
                data += chunk
        except trio.BrokenResourceError:
            pass
    return data


async def _refused(port: int, first: bytes) -> bytes:
    """What a connection over its address's count is sent after ``first``."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    if first:
        await stream.send_all(first)
    data = await _read_all(stream)
    await stream.aclose()
    return data


async def test_over_the_address_count_each_binding_is_told_why(nursery) -> None:
    server = Server(CONFIG, MemoryStore())
    port = await nursery.start(server.serve)
    holder = await trio.open_tcp_stream("127.0.0.1", port)
    await holder.send_all(encode(m.Hello(id=1)))
    with trio.fail_after(5):
        while not server.connections:
            await trio.sleep(0.01)

    said = MsgpackDecoder().feed(await _refused(port, encode(m.Hello(id=1))))
    assert [type(x) for x in said] == [m.Goodbye]
    assert said[0].code == "too_many_connections" and "try again in 5 s" in said[0].text

    line = await _refused(port, b"hello\n")
    assert line.startswith(b"goodbye too_many_connections") and line.endswith(b"\n"), line

    page = await _refused(port, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    assert page.startswith(b"HTTP/1.1 503 Service Unavailable\r\n"), page
    assert b"Retry-After: 5\r\n" in page and b"Connection: close\r\n" in page

    ws = b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
    assert (await _refused(port, ws)).startswith(b"HTTP/1.1 503")

    with trio.fail_after(3):  # a silent one is closed without a word, soon
        assert await _refused(port, b"") == b""
    assert server.refusals.told == 4
    await holder.aclose()
    server.shutdown()


async def test_a_full_server_says_so(nursery) -> None:
    server = Server(TEST_CONFIG.replace(max_connections=1), MemoryStore())
    port = await nursery.start(server.serve)
    holder = await trio.open_tcp_stream("127.0.0.1", port)
    await holder.send_all(encode(m.Hello(id=1)))
    with trio.fail_after(5):
        while not server.connections:
            await trio.sleep(0.01)
    said = MsgpackDecoder().feed(await _refused(port, encode(m.Hello(id=1))))
    assert [(type(x), x.code) for x in said] == [(m.Goodbye, "too_many_connections")]
    await holder.aclose()
    server.shutdown()


async def test_refusals_at_once_are_bounded_and_the_rest_closed_at_once() -> None:
    refusals = Refusals(limit=1, seconds=5.0)
    waiting_a, waiting_b = trio.testing.memory_stream_pair()
    closed_a, closed_b = trio.testing.memory_stream_pair()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(refusals.refuse, waiting_a, "x", "busy", 1)
        await trio.sleep(0.01)
        assert refusals.now == 1
        with trio.fail_after(1):  # over the bound: not waited for
            await refusals.refuse(closed_a, "x", "busy", 1)
        assert await closed_b.receive_some() == b""
        await waiting_b.send_all(b"hello\n")
        assert (await waiting_b.receive_some()).startswith(b"goodbye x \xc2\xb7 busy")


def test_nothing_is_said_to_a_client_whose_binding_is_unknown() -> None:
    assert refusal_bytes(None, "x", "busy", 1) == b""
    assert refusal_bytes("http", "x", "busy", 3).startswith(b"HTTP/1.1 503")


async def test_an_address_cooling_off_after_a_flood_is_told_how_long(nursery) -> None:
    config = TEST_CONFIG.replace(trusted_addresses=(), commands_burst=2,
                                 commands_per_second=0.0, flood_drop_after=2)  # fmt: skip
    server = Server(config, MemoryStore())
    port = await nursery.start(server.serve)
    flooder = await trio.open_tcp_stream("127.0.0.1", port)
    await flooder.send_all(b"".join(encode(m.Ping(id=i)) for i in range(10)))
    said = MsgpackDecoder().feed(await _read_all(flooder))
    assert said[-1] == m.Goodbye(code="rate_limited", text=said[-1].text)
    again = MsgpackDecoder().feed(await _refused(port, encode(m.Hello(id=1))))
    assert [type(x) for x in again] == [m.Goodbye] and again[0].code == "rate_limited"
    assert "try again in 10 s" in again[0].text, again[0].text
    server.shutdown()
