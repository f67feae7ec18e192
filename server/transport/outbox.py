"""A connection's way out: a bounded send queue, a writer that runs only while
something is queued, and backpressure on the connection's own reader.

Every shell writes through one ``Outbox``; it knows bytes and messages, never
what they mean. A shell hands it a ``Sink`` (where bytes go: ``send_all``, and
``write_nowait`` if the transport can take bytes without blocking), the
framing's ``encode`` and the nursery that runs the connection, whose cancel
scope ends the connection.

Why a bounded queue and a drop: tables deliver with ``put`` (through the
session's ``deliver``), which never blocks. A client that stops reading fills its
queue; the next ``put`` finds it full and drops that connection (``goodbye
slow_reader``) instead of stalling the table or holding unbounded memory. The
client may reconnect and resume its seat with its token.

The queue is bounded in messages and in bytes (``send_queue``,
``send_queue_bytes``): a count of messages alone let 256 large replies wait per
connection. Messages are encoded as they are queued, so what a connection holds
(``held``: queued, or being written) is known in bytes, and a ``HeldBytes`` ledger
bounds all of one address's connections together and the whole server; over
either, the connection holding the most is shed (``shed``: what it holds let go at
once, its goodbye the last word if no write of it is under way, then the end).

Its own replies never fill it: when half the queue waits (in messages or bytes),
the reader stops reading until the writer has written them (``drain``:
backpressure), so a client that pipelines thousands of requests is slowed by TCP,
not dropped.

Why the writer is not a task for good: an idle connection then holds no writer
task, no channel and no frames, which is most of what 10,000 idle connections
cost (9.7 KB each instead of 17.4 KB, bench/load.py). ``put`` starts it; it ends
when the queue is empty. And what a table delivers to a connection with nothing
queued is written by the table's own task at once, if the sink takes it all
(``write_nowait``): one write per connection per action, not a task started.
Whatever the sink does not take is queued, as bytes, for the writer task.

The writer's life is one ``WriterState``::

    IDLE ---put--> WRITING ---queue empty--> IDLE
      |               |
      +----close------+--> CLOSING ---goodbye written--> CLOSED (connection ends)
      |               |
      +--drop / peer gone / cancelled--------------------> CLOSED

``CLOSED`` is final. A goodbye given to ``drop`` is written as the last word
(``last_word``, by the shell as it closes) only if the writer was ``IDLE``: a
write under way is cut short by the drop, and a frame half on the wire must not
be followed by the start of another.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from typing import Protocol

import trio

from protocol import messages as m
from server.core import wire
from server.transport.errors import TRANSPORT_ERRORS
from server.transport.held import HeldBytes

#: The most bytes one write hands the socket before the writer lets every other task
#: run: a 390 KB lobby listing written whole held the event loop (on loopback, the
#: peer's receiving too) for milliseconds, while a crowd's listings made every other
#: client's ping wait behind them; in pieces, a ping waits for a piece at most.
WRITE_PIECE = 64 * 1024


def _unsaid(message: m.Message) -> bytes:
    """Nothing: no binding is agreed yet, so nothing can be said to the peer."""
    return b""


class WriterState(enum.Enum):
    IDLE = "idle"  #: nothing being written; the queue holds at most the reader's replies
    WRITING = "writing"  #: a writer (the task, or the reader itself) is writing the queue
    CLOSING = "closing"  #: a goodbye is queued: nothing more is taken; then the end
    CLOSED = "closed"  #: nothing more is written (dropped, the peer gone, or done)


#: the two states in which ``put`` takes messages, by name for the hot path (an enum's
#: hash is a Python call, so these are compared by identity, not looked up in a set)
_IDLE = WriterState.IDLE
_WRITING = WriterState.WRITING


class Sink(Protocol):
    """Where a connection's bytes go."""

    async def send_all(self, data: bytes | memoryview) -> None: ...

    def write_nowait(self, data: bytes | memoryview) -> int:
        """Write what the transport takes at once without blocking: the count of bytes
        taken (0: none now). ``OSError`` if the peer is gone."""
        ...


class Outbox:
    """The send side of one connection. ``put`` never blocks."""

    __slots__ = (
        "_byte_limit",
        "_drained",
        "_key",
        "_ledger",
        "_limit",
        "_nursery",
        "_queue",
        "encode",
        "held",
        "last_word",
        "reader",
        "received",
        "sent",
        "sink",
        "state",
    )

    def __init__(
        self,
        sink: Sink,
        limit: int,
        byte_limit: int = 0,
        ledger: HeldBytes | None = None,
        key: str = "?",
    ) -> None:
        self.state = WriterState.IDLE
        #: messages encoded, the binding's own bytes, or what a write left (the sink
        #: took only part of it): one item a message
        self._queue: list[bytes | memoryview] = []
        self._limit = limit  #: messages queued at most
        self._byte_limit = byte_limit  #: bytes held at most (0: no limit)
        self.held = 0  #: bytes held: queued, or being written
        self._ledger = ledger  #: what every connection holds, by address
        self._key = key  #: the address this connection is counted under
        self.sink = sink
        #: messages to bytes: the framing's ``encode`` once the binding is known; until
        #: then nothing can be said to the peer, and messages are dropped unsaid
        self.encode: Callable[[m.Message], bytes] = _unsaid
        self._nursery: trio.Nursery | None = None
        self._drained: trio.Event | None = None  #: the reader waits here for the writer
        #: the goodbye to write when the connection ends, if no write was cut short
        self.last_word: m.Message | None = None
        #: the reader's task: what it puts is its own reply, which it writes itself
        self.reader: trio.lowlevel.Task | None = None
        self.sent = 0  #: bytes written
        self.received = 0  #: bytes read (counted by the shell)

    def __len__(self) -> int:
        return len(self._queue)

    def rekey(self, key: str) -> None:
        """Count this connection's bytes under ``key`` from now on (a WebSocket's
        client behind a proxy)."""
        held, ledger = self.held, self._ledger
        if ledger is not None and held:
            ledger.release(self, self._key, held)
            self._key = key
            ledger.charge(self, key, held)
        self._key = key

    def open(self, nursery: trio.Nursery) -> None:
        """Start writing: writer tasks run in ``nursery``, whose cancellation ends the
        connection."""
        self._nursery = nursery

    @property
    def accepting(self) -> bool:
        """Whether ``put`` still queues (no goodbye queued, not closed)."""
        state = self.state
        return state is _IDLE or state is _WRITING

    # ------------------------------------------------------------ putting
    def put(self, messages: Sequence[m.Message]) -> None:
        """Send ``messages``, in order, without blocking. From a table's task with
        nothing queued they are written at once if the sink takes them (one write for
        all); else queued for the writer task. A queue that would overflow drops the
        connection. From the reader (a reply) they wait for the reader's ``flush``.
        (The hot path of every action: one call per connection, kept flat.)"""
        state = self.state
        if state is not _IDLE and state is not _WRITING:
            return
        from_reader = trio.lowlevel.current_task() is self.reader
        if not from_reader and state is _IDLE and not self._queue:
            self._write_now(messages)
        else:
            self._enqueue(messages, from_reader)

    def put_bytes(self, data: bytes) -> None:
        """Send bytes of the binding's own (a WebSocket's pong), in order with the
        messages: they always go through the queue."""
        if self.accepting:
            self._enqueue((data,), trio.lowlevel.current_task() is self.reader)

    def _enqueue(self, items: Sequence[m.Message | bytes], from_reader: bool) -> None:
        """Queue ``items`` as bytes. Past ``send_queue`` messages, or (a table's delivery:
        the reader's own replies are held back by ``drain`` instead) past its bytes with
        something already held, the connection is shed."""
        encode = self.encode
        data = [item if isinstance(item, bytes) else encode(item) for item in items]
        size = sum(map(len, data))
        queue = self._queue
        held, byte_limit = self.held, self._byte_limit
        if len(queue) + len(items) > self._limit or (
            not from_reader and byte_limit and held and held + size > byte_limit
        ):
            self.shed()
            return
        queue.extend(data)
        self._charge(size)
        if not from_reader and self.state is _IDLE:
            self._start_writer()

    def _charge(self, size: int) -> None:
        if self._ledger is None:
            self.held += size
        else:  # which may shed this connection, or another
            self._ledger.charge(self, self._key, size)

    def _release(self, size: int) -> None:
        if self._ledger is None:
            self.held = max(0, self.held - size)
        else:
            self._ledger.release(self, self._key, size)

    def _write_now(self, messages: Sequence[m.Message]) -> None:
        """Write from the calling task: what the sink does not take is queued (as
        bytes) for the writer task. Only while nothing is queued or being written."""
        encode = self.encode
        if len(messages) == 1:
            data = encode(messages[0])
        else:
            data = b"".join([encode(message) for message in messages])
        try:  # a piece at most: the rest goes in the writer's turns, with everyone's
            written = self.sink.write_nowait(
                data if len(data) <= WRITE_PIECE else memoryview(data)[:WRITE_PIECE]
            )
        except OSError:  # the peer is gone: as the writer would find it
            self._end(WriterState.CLOSED)
            return
        self.sent += written
        if written < len(data):
            # a frame may be cut: until the writer sends the rest (WRITING), nothing
            # else may go out, not even a last goodbye
            rest = memoryview(data)[written:] if written else data  # not copied
            self._queue.append(rest)
            self._start_writer()  # first: shed now, it must not cut the frame short
            self._charge(len(rest))

    def _writing(self) -> bool:
        """Whether the writer runs (read through a call: a check just before a call that
        may start it would otherwise be taken as still holding after it)."""
        return self.state is WriterState.WRITING

    def _start_writer(self) -> None:
        if self.state is not WriterState.IDLE:
            return  # writing already, or done
        if self._nursery is None:
            return  # not open yet: queued until it is
        try:
            self._nursery.start_soon(self._write_loop)
        except RuntimeError:  # the connection is ending: its nursery takes no new tasks
            self.state = WriterState.CLOSED
            return
        self.state = WriterState.WRITING

    # ------------------------------------------------------------ ending
    def shed(self, goodbye: m.Message | None = None) -> None:
        """It fell behind (its queue, its address's or the server's bytes are full): let
        go of everything it holds, and end. The goodbye (``slow_reader`` unless given)
        is its last word if no write is under way (a frame cut short cannot be followed
        by another); a peer that does not read would not take it anyway."""
        if self.state is WriterState.CLOSED:
            return
        if goodbye is None:
            why = "you did not read fast enough; reconnect and resume"
            goodbye = wire.goodbye("slow_reader", why)
        self._queue = []
        self._release(self.held)  # a write under way is cut at once: its bytes go too
        self.drop(goodbye)

    def drop(self, goodbye: m.Message | None) -> None:
        """End the connection now: nothing more is written but ``goodbye``, and that
        only if it can be written whole after what went before."""
        if self.state is WriterState.CLOSED:
            return
        if self.state is WriterState.IDLE:  # else a write may be cut short by this
            self.last_word = goodbye
        self._end(WriterState.CLOSED)

    def close(self, goodbye: m.Message | None = None) -> None:
        """Write what is queued, then ``goodbye`` (if given), then end the connection."""
        if goodbye is not None:
            self.put((goodbye,))
        if self.state is WriterState.CLOSED:
            return
        if self.state is WriterState.IDLE:
            self._start_writer()  # it flushes, then ends the connection
            if not self._writing():
                return
        self.state = WriterState.CLOSING

    def closed(self) -> None:
        """The connection ended (the peer left, or it was cancelled): write nothing more,
        and hold nothing more."""
        if self.state is not WriterState.CLOSED:
            if self.state is not WriterState.IDLE:  # cancelled in the middle of a write
                self.last_word = None
            self.state = WriterState.CLOSED
        self._queue = []
        self._release(self.held)
        self._nursery = None  # a finished nursery holds its tasks' exceptions
        self.reader = None

    def _end(self, state: WriterState) -> None:
        self.state = state
        if self._nursery is not None:
            self._nursery.cancel_scope.cancel()

    # ------------------------------------------------------------ writing
    @property
    def pause_at(self) -> int:
        """Replies queued at which the reader stops reading until they are written: half
        the queue, so what tables deliver meanwhile still fits."""
        return max(1, self._limit // 2)

    @property
    def behind(self) -> bool:
        """Whether the reader should stop reading until the writer catches up: half the
        queue's messages, or half its bytes, wait."""
        limit = self._byte_limit
        return len(self._queue) >= self.pause_at or bool(limit and self.held * 2 >= limit)

    async def flush(self) -> None:
        """The reader writes its own replies (a ping's pong) without a task hop, unless
        the writer is already at work."""
        if self._queue and self.state is WriterState.IDLE:
            self.state = WriterState.WRITING
            await self._write_loop()

    async def drain(self, patience: float) -> bool:
        """Backpressure: wait until fewer than ``pause_at`` are queued. False if the
        peer read nothing for ``patience`` seconds (the caller drops it)."""
        with trio.move_on_after(patience) as scope:
            if self.state is WriterState.IDLE:
                await self.flush()
            while self.state is not WriterState.IDLE and self.behind:
                if self.state is WriterState.CLOSED:
                    break
                self._drained = trio.Event()
                await self._drained.wait()
        self._drained = None
        return not scope.cancelled_caught

    async def _write_loop(self) -> None:
        """Write everything queued, one write per batch; then stop until the next
        ``put`` starts it again (or, closing, end the connection)."""
        try:
            while self._queue:
                batch, self._queue = self._queue, []
                data = batch[0] if len(batch) == 1 else b"".join(batch)
                del batch
                if not data:  # nothing said yet: no binding
                    continue
                try:
                    if len(data) <= WRITE_PIECE:
                        await self.sink.send_all(data)
                    else:  # in pieces, each a turn of its own (``WRITE_PIECE``)
                        view = memoryview(data)
                        for start in range(0, len(view), WRITE_PIECE):
                            await self.sink.send_all(view[start : start + WRITE_PIECE])
                except TRANSPORT_ERRORS:
                    self._end(WriterState.CLOSED)
                    return
                self.sent += len(data)
                self._release(len(data))
                if self._drained is not None:
                    self._drained.set()
            if self.state is WriterState.CLOSING:
                self._end(WriterState.CLOSED)  # the goodbye is written: done
        finally:
            if self.state is WriterState.WRITING:
                self.state = WriterState.IDLE
            if self._drained is not None:
                self._drained.set()
