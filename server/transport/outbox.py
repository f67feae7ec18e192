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

Its own replies never fill it: when half the queue waits, the reader stops
reading until the writer has written them (``drain``: backpressure), so a client
that pipelines thousands of requests is slowed by TCP, not dropped.

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

    async def send_all(self, data: bytes) -> None: ...

    def write_nowait(self, data: bytes) -> int:
        """Write what the transport takes at once without blocking: the count of bytes
        taken (0: none now). ``OSError`` if the peer is gone."""
        ...


class Outbox:
    """The send side of one connection. ``put`` never blocks."""

    __slots__ = (
        "_drained",
        "_limit",
        "_nursery",
        "_queue",
        "encode",
        "last_word",
        "reader",
        "received",
        "sent",
        "sink",
        "state",
    )

    def __init__(self, sink: Sink, limit: int) -> None:
        self.state = WriterState.IDLE
        #: messages, or bytes a write left (the sink took only part of them)
        self._queue: list[m.Message | bytes] = []
        self._limit = limit
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
        if len(self._queue) + len(items) > self._limit:
            self.drop(
                wire.goodbye("slow_reader", "you did not read fast enough; reconnect and resume")
            )
            return
        self._queue.extend(items)
        if not from_reader:
            self._start_writer()

    def _write_now(self, messages: Sequence[m.Message]) -> None:
        """Write from the calling task: what the sink does not take is queued (as
        bytes) for the writer task. Only while nothing is queued or being written."""
        encode = self.encode
        if len(messages) == 1:
            data = encode(messages[0])
        else:
            data = b"".join([encode(message) for message in messages])
        try:
            written = self.sink.write_nowait(data)
        except OSError:  # the peer is gone: as the writer would find it
            self._end(WriterState.CLOSED)
            return
        self.sent += written
        if written < len(data):
            # a frame may be cut: until the writer sends the rest (WRITING), nothing
            # else may go out, not even a last goodbye
            self._queue.append(data[written:] if written else data)
            self._start_writer()

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
        """The connection ended (the peer left, or it was cancelled): write nothing more."""
        if self.state is not WriterState.CLOSED:
            if self.state is not WriterState.IDLE:  # cancelled in the middle of a write
                self.last_word = None
            self.state = WriterState.CLOSED
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
            while self.state is not WriterState.IDLE and len(self._queue) >= self.pause_at:
                if self.state is WriterState.CLOSED:
                    break
                self._drained = trio.Event()
                await self._drained.wait()
        self._drained = None
        return not scope.cancelled_caught

    def _bytes(self, items: Sequence[m.Message | bytes]) -> bytes:
        """The bytes of ``items``: messages encoded, bytes (the binding's own, or what
        the sink did not take of an earlier write) as they are."""
        encode = self.encode
        return b"".join([item if isinstance(item, bytes) else encode(item) for item in items])

    async def _write_loop(self) -> None:
        """Write everything queued, one write per batch; then stop until the next
        ``put`` starts it again (or, closing, end the connection)."""
        try:
            while self._queue:
                batch, self._queue = self._queue, []
                data = self._bytes(batch)
                if not data:  # nothing said yet: no binding
                    continue
                try:
                    await self.sink.send_all(data)
                except TRANSPORT_ERRORS:
                    self._end(WriterState.CLOSED)
                    return
                self.sent += len(data)
                if self._drained is not None:
                    self._drained.set()
            if self.state is WriterState.CLOSING:
                self._end(WriterState.CLOSED)  # the goodbye is written: done
        finally:
            if self.state is WriterState.WRITING:
                self.state = WriterState.IDLE
            if self._drained is not None:
                self._drained.set()
