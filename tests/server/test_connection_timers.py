"""The handshake, message and idle timers count whole messages, not bytes.

A client that drips one byte at a time must not hold a connection for ever: a
message that has begun must arrive whole within ``message_seconds`` (else
``goodbye timeout``), an idle connection is one that completes no message for
``idle_seconds`` however many bytes it sends, and hello must be complete within
``handshake_seconds`` of connecting. The timers are set short here; each drip
would go on far longer than the timer if the server let it.
"""

from __future__ import annotations

import contextlib

import trio
from e2e_client import TEST_CONFIG

from protocol import messages as m
from protocol.msgpack_codec import MsgpackDecoder, encode
from server.app import Server
from server.store.base import MemoryStore

#: seconds between the drip's bytes, and how many bytes it has (40 s worth at most)
DRIP_INTERVAL = 0.1
DRIP_BYTES = 400


async def drip(port: int, opening: bytes, byte: bytes) -> tuple[bytes, int]:
    """Send ``opening``, then ``byte`` every ``DRIP_INTERVAL`` until the server closes;
    what the server sent, and how many drip bytes went out before it closed."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    received = bytearray()
    sent = 0
    async with trio.open_nursery() as nursery:

        async def read() -> None:
            # A server that closes while drip bytes wait unread in its socket resets the
            # connection rather than ending it: the reset comes after what it sent, which
            # was read by then, and ends the stream as well as an end of file does.
            with contextlib.suppress(trio.BrokenResourceError):
                while chunk := await stream.receive_some(65536):
                    received.extend(chunk)
            nursery.cancel_scope.cancel()  # closed by the server: stop dripping

        nursery.start_soon(read)
        await stream.send_all(opening)
        try:
            for sent in range(1, DRIP_BYTES + 1):  # noqa: B007 (read after the loop)
                await trio.sleep(DRIP_INTERVAL)
                await stream.send_all(byte)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        nursery.cancel_scope.cancel()
    await stream.aclose()
    return bytes(received), sent


async def start(nursery: trio.Nursery, **config: float) -> int:
    server = Server(TEST_CONFIG.replace(**config), MemoryStore())
    return await nursery.start(server.serve)


async def test_a_msgpack_frame_dripped_a_byte_at_a_time_is_cut_off(nursery):
    port = await start(nursery, message_seconds=1.0)
    # hello, then a frame that says 300 bytes follow, then one byte a tick
    received, sent = await drip(port, encode(m.Hello(id=1)) + b"\x00\x00\x01\x2c", b"\x81")
    messages = MsgpackDecoder().feed(received)
    assert isinstance(messages[0], m.Welcome)
    assert messages[-1] == m.Goodbye(code="timeout", text=messages[-1].text)
    assert sent < DRIP_BYTES


async def test_a_text_line_dripped_a_byte_at_a_time_is_cut_off(nursery):
    port = await start(nursery, message_seconds=1.0)
    received, sent = await drip(port, b"hello\nping\n", b"x")
    lines = [x for x in received.decode().splitlines() if not x.startswith("  ")]  # 80 columns
    assert lines[0].startswith("welcome") and lines[1] == "pong"
    assert lines[-1].startswith("goodbye timeout")
    assert sent < DRIP_BYTES


async def test_the_idle_timer_counts_messages_not_bytes(nursery):
    # the drip is within the message time (long here), but completes no message
    port = await start(nursery, idle_seconds=1.0, message_seconds=3600.0)
    received, sent = await drip(port, b"hello\n", b"x")
    assert received.decode().splitlines()[-1].startswith("goodbye idle")
    assert sent < DRIP_BYTES


async def test_a_hello_dripped_a_byte_at_a_time_is_cut_off(nursery):
    port = await start(nursery, handshake_seconds=1.0)
    received, sent = await drip(port, b"h", b"e")
    assert received.decode().splitlines()[-1].startswith("goodbye need_hello")
    assert sent < DRIP_BYTES


async def test_at_a_table_a_message_begun_must_still_arrive_whole(nursery):
    # at a table, idling is allowed and the read goes untimed; a message begun is not
    port = await start(nursery, message_seconds=1.0, idle_seconds=3600.0)
    opening = b"hello\nname dripper s3cret-dripper\ncreate kilodney 4\n"
    received, sent = await drip(port, opening, b"x")
    lines = received.decode().splitlines()
    assert any(line.startswith("seated") for line in lines), lines
    assert lines[-1].startswith("goodbye timeout")
    assert sent < DRIP_BYTES


async def test_at_a_table_idling_is_allowed(nursery):
    port = await start(nursery, idle_seconds=0.5)
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    await stream.send_all(b"hello\nname idler s3cret-idler\ncreate kilodney 4\n")
    await trio.sleep(2.0)  # four idle timers long, at the table
    await stream.send_all(b"ping\n")
    received = bytearray()
    with trio.fail_after(5):
        while b"pong" not in received:
            received.extend(await stream.receive_some(65536))
    assert b"goodbye" not in received
    await stream.aclose()
