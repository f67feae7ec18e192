"""What the server holds unsent is bounded in bytes: per connection, per address and in all.

Clients that pipeline large requests (``list_rulesets``: 22 KB a reply) and never
read made the server keep 256 replies a connection, and the memory stayed while they
held their sockets open. Now a connection's own replies stop its reading at half its
bytes, an address over its bytes (or the server over its own) loses its largest
holder, told if it can still be told, and what was held comes back.
"""

from __future__ import annotations

import socket

import trio
from e2e_client import TEST_CONFIG

from protocol import messages as m
from protocol.msgpack_codec import MsgpackDecoder, encode
from server.app import Server
from server.core import wire
from server.store.base import MemoryStore
from server.transport.held import HeldBytes
from server.transport.outbox import Outbox, WriterState

KIB = 1024
REPLY = 22 * KIB  #: about one ``rulesets`` reply


async def _never_reader(port: int, source: str, requests: int) -> trio.SocketStream:
    """A connection from ``source`` that says hello, asks ``requests`` times for the
    rulesets, and reads nothing (a small receive buffer, so the server's writes stop)."""
    sock = trio.socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    await sock.bind((source, 0))
    await sock.connect(("127.0.0.1", port))
    stream = trio.SocketStream(sock)
    asks = b"".join(encode(m.ListRulesets(id=i)) for i in range(1, requests + 1))
    await stream.send_all(encode(m.Hello(id=0)) + asks)
    return stream


async def _ended(stream: trio.SocketStream, seconds: float) -> bool:
    """Whether the server ends ``stream`` within ``seconds``, reading all it sent."""
    with trio.move_on_after(seconds):
        try:
            while await stream.receive_some(65536):
                pass
        except trio.BrokenResourceError:  # a reset: the end as well
            pass
        return True
    return False


async def _watch_peak(server: Server, key: str | None, seconds: float) -> int:
    """The most the server held (for ``key``, or in all) seen over ``seconds``."""
    peak = 0
    end = trio.current_time() + seconds
    while trio.current_time() < end:
        held = server.services.held if server.services else None
        if held is not None:
            peak = max(peak, held.total if key is None else held.address(key))
        await trio.sleep(0.01)
    return peak


async def test_never_readers_of_one_address_are_shed_and_their_bytes_come_back(nursery):
    config = TEST_CONFIG.replace(
        trusted_addresses=(),
        send_queue_bytes=64 * KIB,
        send_address_bytes=256 * KIB,
        send_server_bytes=0,
    )
    server = Server(config, MemoryStore())
    port = await nursery.start(server.serve)
    streams = [await _never_reader(port, "127.0.0.1", 90) for _ in range(16)]
    peak = await _watch_peak(server, "127.0.0.1", 2.0)
    held = server.services.held
    assert held is not None
    # never more than the address's bytes, and one reply over while its holder is shed
    assert 0 < peak <= 256 * KIB + REPLY
    assert held.shed > 0
    # the shed are closed at once (not after the 30 minutes a paused reader may wait)
    ended = 0
    for stream in streams:
        ended += await _ended(stream, 0.5 if ended else 5.0)
    assert ended >= 8
    for stream in streams:
        await stream.aclose()
    with trio.fail_after(5):
        while held.total or server.connections:
            await trio.sleep(0.05)
    server.shutdown()


async def test_never_readers_of_many_addresses_stay_within_the_servers_bytes(nursery):
    config = TEST_CONFIG.replace(
        trusted_addresses=(),
        send_queue_bytes=64 * KIB,
        send_address_bytes=0,
        send_server_bytes=192 * KIB,
    )
    server = Server(config, MemoryStore())
    port = await nursery.start(server.serve)
    streams = [await _never_reader(port, f"127.0.0.{2 + i % 4}", 90) for i in range(16)]
    peak = await _watch_peak(server, None, 2.0)
    held = server.services.held
    assert held is not None
    assert 0 < peak <= 192 * KIB + REPLY
    assert held.shed > 0
    for stream in streams:
        await stream.aclose()
    with trio.fail_after(5):
        while held.total or server.connections:
            await trio.sleep(0.05)
    server.shutdown()


async def test_a_reader_that_reads_its_pipelined_replies_is_never_shed(nursery):
    """The same requests from a client that reads them all: every reply comes."""
    config = TEST_CONFIG.replace(
        trusted_addresses=(), send_queue_bytes=64 * KIB, send_address_bytes=256 * KIB
    )
    server = Server(config, MemoryStore())
    port = await nursery.start(server.serve)
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    asks = b"".join(encode(m.ListRulesets(id=i)) for i in range(1, 91))
    await stream.send_all(encode(m.Hello(id=0)) + asks)
    decoder, replies = MsgpackDecoder(), 0
    with trio.fail_after(10):
        while replies < 90:
            chunk = await stream.receive_some(65536)
            assert chunk
            replies += sum(isinstance(x, m.Rulesets) for x in decoder.feed(chunk))
    assert server.services.held.shed == 0
    await stream.aclose()
    server.shutdown()


class _StuckSink:
    """A sink whose peer reads nothing until ``reads`` is set; what it took, in order."""

    def __init__(self) -> None:
        self.reads = trio.Event()
        self.taken: list[bytes] = []

    async def send_all(self, data: bytes) -> None:
        await self.reads.wait()
        self.taken.append(data)

    def write_nowait(self, data: bytes) -> int:
        return 0


async def test_a_shed_connection_with_no_write_under_way_is_told_why():
    """Its own replies, queued and not yet written, pass its address's bytes: they are
    let go, and the goodbye is its last word."""
    ledger = HeldBytes(address_limit=10 * KIB, server_limit=0)
    outbox = Outbox(_StuckSink(), 512, 64 * KIB, ledger, "10.0.0.1")
    outbox.encode = encode
    async with trio.open_nursery() as nursery:
        outbox.open(nursery)
        outbox.reader = trio.lowlevel.current_task()
        for i in range(12):
            outbox.put((wire.error(i, "x", "a" * 1000),))
        await trio.sleep(0)
    assert outbox.state is WriterState.CLOSED
    assert ledger.shed == 1 and ledger.total == 0 and outbox.held == 0
    assert isinstance(outbox.last_word, m.Goodbye)
    assert outbox.last_word.code == "slow_reader"


async def test_a_shed_connection_whose_write_is_stuck_is_cut_and_frees_it_all():
    ledger = HeldBytes(address_limit=10 * KIB, server_limit=0)
    sink = _StuckSink()
    outbox = Outbox(sink, 512, 64 * KIB, ledger, "10.0.0.1")
    outbox.encode = encode
    with trio.fail_after(3):
        async with trio.open_nursery() as nursery:
            outbox.open(nursery)
            outbox.put((wire.error(0, "x", "a" * 1000),))
            await trio.sleep(0)
            assert outbox.state is WriterState.WRITING  # stuck: the peer reads nothing
            for i in range(1, 12):
                outbox.put((wire.error(i, "x", "a" * 1000),))
            assert outbox.state is WriterState.CLOSED
            assert ledger.total == 0 and ledger.shed == 1
    outbox.closed()
    assert sink.taken == [] and outbox.last_word is None  # a cut frame: nothing may follow


async def test_the_largest_holder_of_an_address_is_the_one_shed():
    ledger = HeldBytes(address_limit=10 * KIB, server_limit=0)
    small = Outbox(_StuckSink(), 512, 64 * KIB, ledger, "10.0.0.1")
    big = Outbox(_StuckSink(), 512, 64 * KIB, ledger, "10.0.0.1")
    other = Outbox(_StuckSink(), 512, 64 * KIB, ledger, "10.0.0.2")
    async with trio.open_nursery() as nursery:
        for outbox in (small, big, other):
            outbox.encode = encode
            outbox.open(nursery)
            outbox.reader = trio.lowlevel.current_task()
        big.put(tuple(wire.error(i, "x", "a" * 1000) for i in range(8)))
        other.put(tuple(wire.error(i, "x", "a" * 1000) for i in range(9)))
        small.put(tuple(wire.error(i, "x", "a" * 1000) for i in range(3)))
        assert big.state is WriterState.CLOSED
        assert small.accepting and other.accepting
        assert ledger.address("10.0.0.1") == small.held
        for outbox in (small, other):
            outbox.closed()
    assert ledger.total == 0


def test_the_allocator_is_told_to_give_freed_memory_back_on_glibc() -> None:
    import platform

    from server.core.allocator import return_freed_memory

    glibc = platform.libc_ver()[0] == "glibc"
    assert return_freed_memory() is glibc


class _EagerSink:
    """A socket that takes everything at once, and says what each write was handed."""

    def __init__(self) -> None:
        self.writes: list[int] = []
        self.data = bytearray()

    async def send_all(self, data: bytes | memoryview) -> None:
        self.writes.append(len(data))
        self.data += data
        await trio.lowlevel.checkpoint()

    def write_nowait(self, data: bytes | memoryview) -> int:
        self.writes.append(len(data))
        self.data += data
        return len(data)


async def test_a_large_reply_is_written_in_pieces_with_a_turn_for_others_between():
    """Before, a 390 KB lobby listing went to the socket in one write (on loopback the
    peer's receiving too), and every other connection's reply (a ping's pong) waited for
    it; a crowd's listings made an honest ping's p99 many times its quiet one."""
    from server.transport.outbox import WRITE_PIECE

    sink = _EagerSink()
    outbox = Outbox(sink, 512, 0)
    outbox.encode = encode
    message = m.Rulesets(rulesets=tuple({"name": f"r{i}", "text": "b" * 3000} for i in range(100)))
    others: list[int] = []

    async def meanwhile() -> None:
        for _ in range(3):
            others.append(len(sink.writes))
            await trio.lowlevel.checkpoint()

    async with trio.open_nursery() as nursery:
        outbox.open(nursery)
        outbox.reader = trio.lowlevel.current_task()
        outbox.put((message,))
        nursery.start_soon(meanwhile)
        await outbox.flush()
    frame = encode(message)
    assert len(frame) > 4 * WRITE_PIECE and bytes(sink.data) == frame
    assert max(sink.writes) <= WRITE_PIECE and len(sink.writes) >= len(frame) // WRITE_PIECE
    assert others[1] < len(sink.writes)  # another task ran while the pieces were written
