"""A client that pipelines many requests is slowed, never dropped in silence.

The server stops reading a connection's socket while the replies it has
queued for it are unwritten, so however many requests a client sends ahead,
each gets its reply (the client only has to read while it writes, as any
TCP client must).
"""

from __future__ import annotations

import pytest
import trio
from e2e_client import TEST_CONFIG

from protocol import messages as m
from protocol.msgpack_codec import MsgpackDecoder, encode
from server.app import Server
from server.store.base import MemoryStore

PINGS = 5_000


async def _pipeline(port: int, hello: bytes, requests: bytes, count_replies) -> int:
    """Send ``requests`` in one go while reading; the number of replies seen by EOF
    or once ``count_replies`` says all have come."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    received = bytearray()
    done = trio.Event()

    async def read() -> None:
        while chunk := await stream.receive_some(65536):
            received.extend(chunk)
            if count_replies(received) >= PINGS:
                break
        done.set()

    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(read)
            await stream.send_all(hello + requests)
            await done.wait()
    await stream.aclose()
    return count_replies(received)


@pytest.mark.parametrize("send_queue", [512, 16])
async def test_five_thousand_pipelined_pings_all_get_a_pong_msgpack(nursery, send_queue):
    server = Server(TEST_CONFIG.replace(send_queue=send_queue), MemoryStore())
    port = await nursery.start(server.serve)
    pings = b"".join(encode(m.Ping(id=i)) for i in range(1, PINGS + 1))

    def pongs(data: bytearray) -> int:
        messages = MsgpackDecoder().feed(bytes(data[: _whole_frames(data)]))
        return sum(isinstance(x, m.Pong) for x in messages)

    assert await _pipeline(port, encode(m.Hello(id=0)), pings, pongs) == PINGS
    server.shutdown()


@pytest.mark.parametrize("send_queue", [512, 16])
async def test_five_thousand_pipelined_pings_all_get_a_pong_text(nursery, send_queue):
    server = Server(TEST_CONFIG.replace(send_queue=send_queue), MemoryStore())
    port = await nursery.start(server.serve)

    def pongs(data: bytearray) -> int:
        return data.count(b"pong\n")

    assert await _pipeline(port, b"hello\n", b"ping\n" * PINGS, pongs) == PINGS
    server.shutdown()


def _whole_frames(data: bytearray) -> int:
    """Bytes of ``data`` that are whole length-prefixed frames."""
    end = 0
    while end + 4 <= len(data):
        size = int.from_bytes(data[end : end + 4], "big")
        if end + 4 + size > len(data):
            break
        end += 4 + size
    return end
