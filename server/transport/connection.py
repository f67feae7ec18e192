"""One client connection: a reader task, a bounded send queue, and a writer task.

The shape is trio-websocket's: per connection a nursery holding a reader
(bytes -> messages -> handlers) and a writer (the bounded send queue -> bytes
-> socket), and a ``finally`` that closes the socket under
``trio.move_on_after(grace)``. One departure, for memory: the writer task runs
only while something is queued (``deliver`` starts it; it exits when the queue
is empty), and the queue is a plain list bounded by ``send_queue`` rather than
a memory channel, so an idle connection holds one task, not two plus a
channel: 9.7 KB instead of 17.4 KB each (bench/load.py). Anything the transport raises
(``BrokenResourceError``, ``ClosedResourceError``, ``OSError``) becomes one
domain error, ``ConnectionLost``, at the boundary.

A second departure, for speed: what a table delivers is written by the table's
own task, at once, when nothing is queued before it and the socket takes it all
(a non-blocking write: ``_write_now``). Only what the socket will not take yet
is queued for the writer task. A table's action is then one ``send`` per
connection, not a task started per connection per action; and a table hands
the same message object to every connection that sees it (an event everyone
sees alike, the spectators' turn), whose msgpack bytes ``SharedEncodings``
keeps, so it is encoded once.

Why a bounded queue and a drop: tables deliver with ``deliver()``, which never
blocks. A client that stops reading fills its queue; the next ``deliver``
finds it full and drops that connection (``goodbye slow_reader``) instead of
stalling the table or holding unbounded memory. The client may reconnect and
resume its seat with its token.

Its own replies never fill it: when half the queue waits, the reader stops
reading the socket until the writer has written them (backpressure), so a
client that pipelines thousands of requests is slowed by TCP, not dropped.

Timers count whole messages, not bytes (``_receive_timed``): hello must be
whole within ``handshake_seconds`` of connecting, any message within
``message_seconds`` of its first byte, and ``idle_seconds`` runs from the last
whole message, so a byte-at-a-time drip holds nothing for long.

Both codecs share the port: the first byte picks one (``protocol.sniff``).
Which message is allowed when is data, not a tangle of ifs: the protocol's
``Session`` state table (hello first; a name before playing) is consulted for
every message received.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import trio

import engine
from protocol import messages as m
from protocol.commands import help_lines
from protocol.errors import ProtocolError, RemoteProtocolError
from protocol.limits import DEFAULT_LIMITS, Limits
from protocol.msgpack_codec import MsgpackDecoder
from protocol.msgpack_codec import encode as msgpack_encode
from protocol.sniff import MSGPACK, TEXT, sniff
from protocol.state import SERVER, Session, State, negotiate
from protocol.text_codec import ServerTextCodec, TextFormat
from server.core import commands as cmd
from server.core import wire
from server.core.config import ServerConfig
from server.core.limits import TokenBucket, Verdict, clean_text, fold_name
from server.operators.admin import ADMIN_TYPES
from server.operators.ops import ConnectionOps, Ops
from server.players.accounts import Accounts
from server.store.base import StoreError
from server.tables.lobby import Lobby, LobbyError

log = logging.getLogger("switchboard.connection")

_ids = itertools.count(1)

#: Server messages that move the connection's state on (``protocol.state.TRANSITIONS``).
_TRANSITIONS = (m.Welcome, m.Named, m.Goodbye)
#: Server messages that change what the connection holds: those and ``seated`` (its token).
_STATEFUL = frozenset((*_TRANSITIONS, m.Seated))


TRANSPORT_ERRORS = (trio.BrokenResourceError, trio.ClosedResourceError, OSError)


class ConnectionLost(Exception):
    """The peer is gone (or the socket broke): the one transport error tables and
    handlers ever see."""


class _Closing(Exception):
    """Internal: end the reader and close politely (quit, fatal frame, bad version)."""


@dataclass(slots=True)
class Services:
    """What every connection shares: the server's config, names, and tables."""

    config: ServerConfig
    accounts: Accounts
    lobby: Lobby
    limits: Limits
    connections: set[Connection]
    ops: Ops | None = None  #: chips, limits, operators


class SharedEncodings:
    """The msgpack bytes of the last messages encoded, by the message's identity.

    A table builds one message per distinct view (an event everyone sees alike, the
    spectators' turn) and hands that very object to every connection that sees it;
    each connection encodes as it writes, one after the other, so a small cache of
    the latest ones encodes each once. It holds the message itself beside its bytes,
    so an identity is never reused while it is cached. The text codec is not cached:
    its lines depend on the connection (its current table)."""

    def __init__(self, size: int = 64) -> None:
        self._size = size
        self._entries: dict[int, tuple[m.Message, bytes]] = {}

    def encode(self, message: m.Message) -> bytes:
        key = id(message)
        hit = self._entries.get(key)
        if hit is not None and hit[0] is message:
            return hit[1]
        data = msgpack_encode(message)
        entries = self._entries
        if len(entries) >= self._size:
            del entries[next(iter(entries))]  # the oldest
        entries[key] = (message, data)
        return data


_shared = SharedEncodings()


class Codec:
    """The msgpack codec as a connection uses it: bytes in, messages out; messages in,
    bytes out. ``protocol.text_codec.ServerTextCodec`` has the same shape."""

    name = MSGPACK

    def __init__(self, limits: Limits) -> None:
        self._decoder = MsgpackDecoder(limits)

    def receive_data(self, data: bytes) -> None:
        self._decoder.receive_data(data)

    def next_message(self) -> m.Received | None:
        return self._decoder.next_message()

    @property
    def buffered(self) -> int:
        """Bytes held of messages not yet taken (after ``next_message``: of a partial one)."""
        return self._decoder.buffered

    def encode(self, message: m.Message) -> bytes:
        return _shared.encode(message)


def make_codec(kind: str, limits: Limits) -> Codec | None:
    """The codec for a sniffed first byte, or None if the server cannot speak it."""
    if kind == MSGPACK:
        return Codec(limits)
    if kind == TEXT:
        return ServerTextCodec(limits)
    return None


class Connection:
    """One client. Tables see it as a ``server.core.commands.Member``."""

    def __init__(self, stream: trio.abc.Stream, services: Services, peer: str = "?") -> None:
        self.id = next(_ids)
        self.peer = peer
        self.stream = stream
        self.services = services
        self.config = services.config
        self._name: str | None = None
        self.operator = False
        self.codec: Codec | ServerTextCodec | None = None
        self.codec_name = "-"
        self.session = Session(SERVER)
        self.tokens: dict[int, str] = {}  #: table -> seat token held by this connection
        self.tables: set[int] = set()  #: tables this connection is at (seated or watching)
        #: the send queue, at most config.send_queue long: messages, or the bytes a write
        #: from a table's task left (the socket took only part of them)
        self._out: list[m.Message | bytes] = []
        self._out_closed = False  #: a goodbye is queued: nothing more is accepted
        self._nursery: trio.Nursery | None = None
        self._writer_running = False
        self._reader: trio.lowlevel.Task | None = None
        self._dropped: str | None = None
        self._goodbye: m.Message | None = None
        self._writing = False
        self._drained: trio.Event | None = None  #: the reader waits here for the writer
        self._last_message = 0.0  #: when the last whole message arrived (the idle timer)
        self._partial_since: float | None = None  #: when an unfinished message began
        self._talk = TokenBucket(self.config.talk_per_second, self.config.talk_burst)
        self._records: TokenBucket | None = None  #: made at the first get_record
        self._handshake_errors = 0  #: messages refused before welcome
        self.sent = 0
        self.received = 0
        self.ops = None if services.ops is None else ConnectionOps(self, services.ops)

    # ------------------------------------------------------ the Member side
    @property
    def name(self) -> str | None:
        return self._name

    def deliver(self, message: m.Message) -> None:
        """Send a message to this client; never blocks. A full queue drops the client."""
        self.deliver_many((message,))

    def deliver_many(self, messages: Sequence[m.Message]) -> None:
        """Send messages to this client, in order; never blocks. From a table's task
        they are written at once if the socket takes them (one write for all), else
        queued for the writer task; a queue that would overflow drops the client."""
        if self._dropped is not None:
            return
        for message in messages:
            if type(message) in _STATEFUL:
                if isinstance(message, m.Seated):  # the token this connection now acts with
                    self.tokens[int(message.table)] = message.token
                else:
                    with contextlib.suppress(ProtocolError):
                        self.session.send(message)
        if self._out_closed:
            return
        from_reader = trio.lowlevel.current_task() is self._reader
        if not from_reader and not self._out and not self._writer_running:
            self._write_now(messages)
            return
        if len(self._out) + len(messages) > self.config.send_queue:
            self.drop("slow_reader", "you did not read fast enough; reconnect and resume")
            return
        self._out.extend(messages)
        if not from_reader:
            self._start_writer()
        # else: the reader's own reply; it writes it itself after this message (no task)

    def _write_now(self, messages: Sequence[m.Message]) -> None:
        """Write ``messages`` from the calling task without blocking: whatever the socket
        does not take now is queued (as bytes) for the writer task. Only called while
        nothing is queued or being written, so bytes never interleave."""
        codec = self.codec
        if codec is None:  # nothing can be said to a peer that never spoke
            return
        data = b"".join([codec.encode(message) for message in messages])
        fileno = self._fileno()
        written = 0
        if fileno >= 0:
            try:
                written = os.write(fileno, data)
            except BlockingIOError:
                written = 0
            except OSError:  # the peer is gone: as the writer would find it
                self._dropped = "closed"
                if self._nursery is not None:
                    self._nursery.cancel_scope.cancel()
                return
        self.sent += written
        if written < len(data):
            # a frame may be cut: until the writer sends the rest, nothing else may go
            # out (not even a last goodbye), so ``_writing`` holds from here
            self._writing = bool(written)
            self._out.append(data[written:] if written else data)
            self._start_writer()

    def _fileno(self) -> int:
        """The socket's descriptor to write to at once, or -1: not a socket (a test's
        in-memory stream), or closed (a closed trio socket says -1, so a descriptor
        number reused by another connection is never written to)."""
        socket = getattr(self.stream, "socket", None)
        return -1 if socket is None else socket.fileno()

    def _start_writer(self) -> None:
        if not self._writer_running and self._nursery is not None:
            try:
                self._nursery.start_soon(self._write_loop)
            except RuntimeError:  # the connection is ending: its nursery takes no new tasks
                self._out_closed = True
                return
            self._writer_running = True

    def drop(self, code: str, text: str) -> None:
        """Close this connection now (nothing more is queued), with a goodbye if it fits."""
        if self._dropped is None:
            self._dropped = code
            self._goodbye = wire.goodbye(code, text)
            if self._nursery is not None:
                self._nursery.cancel_scope.cancel()

    def close_nowait(self, code: str, text: str) -> None:
        """Say goodbye after what is queued, then close (shutdown, kick)."""
        self.deliver(wire.goodbye(code, text))
        self._out_closed = True
        self._start_writer()  # it flushes, then ends the connection

    def statistics(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self._name,
            "peer": self.peer,
            "codec": self.codec_name,
            "queued": len(self._out),
            "sent": self.sent,
            "received": self.received,
            "tables": sorted(self.tables),
        }

    # ------------------------------------------------------------ the task
    async def run(self) -> None:
        """Serve this client until it quits, breaks, is dropped, or the server stops."""
        self.services.connections.add(self)
        try:
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                self._reader = trio.lowlevel.current_task()
                try:
                    await self._read_loop()
                except ConnectionLost:
                    self._out_closed = True
                    nursery.cancel_scope.cancel()
                    return
                # A polite end: the writer flushes what is queued (a goodbye last) and then
                # cancels this nursery; a peer that will not take it gets the grace time.
                self._out_closed = True
                self._start_writer()
                await trio.sleep(self.config.close_grace_seconds)
                nursery.cancel_scope.cancel()
        finally:
            self.services.connections.discard(self)
            self._out_closed = True
            with trio.move_on_after(self.config.close_grace_seconds) as scope:
                scope.shield = True
                if self._goodbye is not None and self.codec is not None and not self._writing:
                    # the goodbye may still fit in the socket's buffer
                    with contextlib.suppress(*TRANSPORT_ERRORS), trio.move_on_after(0.2):
                        await self.stream.send_all(self.codec.encode(self._goodbye))
                for table_id in list(self.tables):
                    table = self.services.lobby.get(table_id)
                    if table is not None:
                        await table.submit(cmd.Detach(self))
                with contextlib.suppress(*TRANSPORT_ERRORS):
                    await self.stream.aclose()

    async def _receive(self) -> bytes:
        try:
            data = await self.stream.receive_some(65536)
        except TRANSPORT_ERRORS as exc:
            raise ConnectionLost(str(exc)) from exc
        self.received += len(data)
        return data

    @property
    def _pause_at(self) -> int:
        """Replies queued at which the reader stops reading until they are written: half
        the send queue, so what tables deliver meanwhile still fits."""
        return max(1, self.config.send_queue // 2)

    async def _drain(self) -> None:
        """Backpressure: a client that pipelines requests faster than it reads the
        replies is not read from until they are written (TCP then slows it down); its
        queue never overflows from its own requests, so it is never dropped for them."""
        idle = self.config.idle_seconds or float("inf")
        with trio.move_on_after(idle) as scope:  # a client that never reads is let go
            if not self._writer_running:
                await self._flush()
            while self._writer_running and len(self._out) >= self._pause_at:
                self._drained = trio.Event()
                await self._drained.wait()
        self._drained = None
        if scope.cancelled_caught:
            self.drop("slow_reader", f"your replies went unread for {idle:g} s")

    async def _flush(self) -> None:
        """The reader writes its own replies (a ping's pong) without a task hop, unless
        the writer is already at work."""
        if self._out and not self._writer_running:
            self._writer_running = True
            await self._write_loop()

    async def _write_loop(self) -> None:
        """Write everything queued, as one write per batch; then stop until the next
        ``deliver`` starts it again. Why not a task per connection for good: an idle
        connection then holds no writer task, no channel and no frames, which is most
        of what 10,000 idle connections cost (bench/load.py)."""
        codec = self.codec
        try:
            while self._out:
                batch, self._out = self._out, []
                if codec is None:  # nothing can be said to a peer that never spoke
                    continue
                # bytes: the rest of a write the socket did not take at once
                data = b"".join(
                    [item if type(item) is bytes else codec.encode(item) for item in batch]
                )
                self._writing = True
                try:
                    await self.stream.send_all(data)
                except TRANSPORT_ERRORS:
                    self._dropped = "closed"
                    if self._nursery is not None:
                        self._nursery.cancel_scope.cancel()
                    return
                self._writing = False
                self.sent += len(data)
                if self._drained is not None:
                    self._drained.set()
            if self._out_closed and self._nursery is not None:
                self._nursery.cancel_scope.cancel()  # the goodbye is written: done
        finally:
            self._writer_running = False
            if self._drained is not None:
                self._drained.set()

    async def _read_loop(self) -> None:
        self._last_message = trio.current_time()
        deadline = self._last_message + self.config.handshake_seconds
        with trio.move_on_at(deadline) as hs:
            first = await self._receive()
        if hs.cancelled_caught or not first:
            return
        kind = sniff(first)
        codec = None if kind is None else make_codec(kind, self.services.limits)
        if codec is None:  # neither codec: not a Switchboard client
            return
        self.codec = codec
        self.codec_name = kind
        data = first
        while True:
            try:  # each message is handled before the next is decoded: a bad frame
                codec.receive_data(data)  # after good ones costs only what follows it
                while (message := codec.next_message()) is not None:
                    if isinstance(message, TextFormat):  # text mode's own: the codec answers
                        self.deliver(codec.set_format(message))  # type: ignore[union-attr]
                    else:
                        await self._dispatch(message)
                    if len(self._out) >= self._pause_at:
                        await self._drain()
            except RemoteProtocolError as exc:
                self.deliver(m.Error.answering(exc))
                return
            except _Closing:
                return
            finally:
                self._reader = None  # from here on, replies go through the writer task
            await self._flush()
            self._reader = trio.lowlevel.current_task()
            if self.session.state is State.AWAIT_HELLO:
                with trio.move_on_at(deadline) as scope:
                    data = await self._receive()
                if scope.cancelled_caught:
                    self.deliver(wire.goodbye("need_hello", "say hello first"))
                    return
            else:
                data = await self._receive_timed(codec)
                if data is None:
                    return
            if not data:
                with contextlib.suppress(ProtocolError):
                    codec.receive_data(b"")
                return

    async def _receive_timed(self, codec: Codec | ServerTextCodec) -> bytes | None:
        """The next bytes, under the two timers that count whole messages, not bytes
        (so a client cannot hold a connection by dripping a byte at a time):

        - a message that has begun must arrive whole within ``message_seconds`` of its
          first byte, wherever the connection is: else ``goodbye timeout``;
        - a connection at no table (seated or watching) that completes no message for
          ``idle_seconds`` is closed: ``goodbye idle``.

        None when one of them fired (the goodbye is queued).

        At a table with no message begun, neither can fire (idling is allowed there, and
        only this task's handlers change ``tables``), so the read is not timed at all:
        a cancel scope per read was a measurable share of each action's CPU."""
        if not codec.buffered and self.tables:
            self._partial_since = None
            return await self._receive()
        now = trio.current_time()
        if codec.buffered:  # part of a message is here
            since = self._partial_since
            if since is None or since < self._last_message:  # a new one since
                self._partial_since = since = now
            partial_deadline = since + (self.config.message_seconds or float("inf"))
        else:
            self._partial_since = None
            partial_deadline = float("inf")
        idle = self.config.idle_seconds or float("inf")
        idle_deadline = self._last_message + idle
        while True:
            with trio.move_on_at(min(partial_deadline, idle_deadline)):
                return await self._receive()
            if trio.current_time() >= partial_deadline:
                seconds = self.config.message_seconds
                why = f"a message did not arrive whole within {seconds:g} s"
                self.deliver(wire.goodbye("timeout", why))
                return None
            if not self.tables:
                self.deliver(wire.goodbye("idle", f"no message for {idle:g} s"))
                return None
            idle_deadline = trio.current_time() + idle  # at a table: idling is allowed

    async def _dispatch(self, message: m.Received) -> None:
        self._last_message = trio.current_time()
        if self.ops is not None and (verdict := self.ops.admit(message)) is not Verdict.OK:
            if verdict is Verdict.DROP:  # flooding: told goodbye; stop reading
                raise _Closing
            return  # over the request rate: refused
        refusal = self.session.receive(message)
        if refusal is not None:
            self.deliver(refusal)
            if self.session.state is State.AWAIT_HELLO:
                self._handshake_refused()
            return
        handler = HANDLERS.get(type(message))
        if handler is None:
            self._not_served(message)
            return
        try:
            await handler(self, message)
        except (_Closing, ConnectionLost, trio.Cancelled):
            raise
        except StoreError:  # disk full ...: nothing was done; the store logged it once
            self.deliver(wire.error(message.id, "store_failed", "the server could not store that"))
        except Exception:  # a bug must cost one reply, not the server
            log.exception("connection %s: %s failed", self.id, message.type)
            self.deliver(wire.error(message.id, "internal", "the server failed on that request"))

    # ------------------------------------------------------------ handlers
    def _not_served(self, message: m.Message) -> None:
        self.deliver(wire.error(message.id, "not_allowed", f"{message.type} is not served here"))

    async def _hello(self, msg: m.Hello) -> None:
        reply = negotiate(msg, server="switchboard")
        self.deliver(reply)
        if isinstance(reply, m.Error):
            self._handshake_refused()

    def _handshake_refused(self) -> None:
        """A refused message before ``welcome`` leaves the connection usable (the client
        may fix its hello), up to ``handshake_errors`` of them: a peer that keeps failing
        is not speaking our protocol, and is let go without waiting for the timer."""
        self._handshake_errors += 1
        if self._handshake_errors >= self.config.handshake_errors:
            why = f"{self._handshake_errors} messages refused before a welcome"
            self.deliver(wire.goodbye("need_hello", why))
            raise _Closing

    async def _ping(self, msg: m.Ping) -> None:
        self.deliver(m.Pong(id=msg.id))

    async def _quit(self, msg: m.Quit) -> None:
        self.deliver(wire.goodbye("quit", "goodbye", msg.id))
        raise _Closing

    async def _help(self, msg: m.Help) -> None:
        lines = help_lines(msg.topic)
        self.deliver(m.HelpText(lines=lines, topic=msg.topic, id=msg.id))

    async def _claim_name(self, msg: m.ClaimName) -> None:
        if self.ops is not None and (why := self.ops.refuse_name(msg.name)) is not None:
            self.deliver(wire.error(msg.id, "banned", why))
            raise _Closing
        renaming = self._name is None or fold_name(msg.name) != fold_name(self._name)
        if renaming and self._holds_a_seat():
            # Every message to this connection goes to the name it has: a seat's hand
            # must not flow on to a second name (one hand to a person, server.tables.seating).
            why = "leave your seat before you claim another name"
            self.deliver(wire.error(msg.id, "not_allowed", why))
            return
        result = await self.services.accounts.claim(msg.name, msg.secret, self.peer)
        if result.ok:
            if self.ops is not None:
                await self.ops.named(result.name)  # a new name's chips
            self._name = result.name
            self.deliver(m.Named(name=result.name, id=msg.id))
        else:
            self.deliver(wire.error(msg.id, result.code, result.reason))

    def _holds_a_seat(self) -> bool:
        """Whether this connection is a seat's connection at some table now (read from the
        tables between awaits, as the lobby's listing is; a token kept from a table that
        closed, or from a seat resumed elsewhere or unseated, does not count)."""
        for table_id in self.tokens:
            table = self.services.lobby.get(table_id)
            if table is not None and any(seat.member is self for seat in table.seats):
                return True
        return False

    async def _list_rulesets(self, msg: m.ListRulesets) -> None:
        described = [rs.describe() for rs in engine.all_rulesets()]
        self.deliver(m.Rulesets(rulesets=described, id=msg.id))

    async def _list_tables(self, msg: m.ListTables) -> None:
        self.deliver(m.Tables(tables=self.services.lobby.summaries(), id=msg.id))

    async def _create_table(self, msg: m.CreateTable) -> None:
        if self._name is None:
            self.deliver(wire.error(msg.id, "need_name", "claim a name to create a table"))
            return
        if self.ops is not None and (why := self.ops.refuse_table()) is not None:
            self.deliver(wire.error(msg.id, "too_many_tables", why))
            return
        try:
            table = await self.services.lobby.create(
                msg.ruleset, msg.seats, dict(msg.options), self._name, address=self.peer
            )
        except LobbyError as exc:
            self.deliver(wire.error(msg.id, exc.code, str(exc)))
            return
        if not isinstance(self.codec, ServerTextCodec):
            self.deliver(wire.ok(msg.id, table.id, f"table {table.id} is open: {msg.ruleset}"))
            return
        # A person at nc who types "create switch 4" then "start" means the new table, and
        # sits at it, as the terminal client's create does: the new table is the text
        # session's current one, and its creator takes a seat.
        self.codec.table = wire.table_word(table.id)
        text = f"table {table.id} is open: {msg.ruleset}; you sit down at it"
        self.deliver(wire.ok(msg.id, table.id, text))
        self.tables.add(table.id)
        await table.submit(cmd.Join(self, None, None))

    def _table(self, msg: Any) -> Any:
        table = self.services.lobby.get(msg.table)
        if table is None:
            self.deliver(wire.error(msg.id, "no_table", f"there is no table {msg.table}"))
        return table

    async def _join(self, msg: m.Join) -> None:
        if (table := self._table(msg)) is not None:
            self.tables.add(table.id)
            await table.submit(cmd.Join(self, msg.id, msg.seat))

    async def _spectate(self, msg: m.Spectate) -> None:
        if (table := self._table(msg)) is not None:
            self.tables.add(table.id)
            self.tokens.pop(table.id, None)
            await table.submit(cmd.Watch(self, msg.id, msg.last_seq))

    async def _resume(self, msg: m.Resume) -> None:
        if (table := self._table(msg)) is not None:
            self.tables.add(table.id)
            await table.submit(cmd.Resume(self, msg.id, msg.token, msg.last_seq))

    async def _leave(self, msg: m.Leave) -> None:
        if (table := self._table(msg)) is not None:
            self.tables.discard(table.id)
            self.tokens.pop(table.id, None)
            await table.submit(cmd.Leave(self, msg.id))

    async def _act(self, msg: m.Act) -> None:
        if (table := self._table(msg)) is not None:
            token = self.tokens.get(table.id)
            if token is None:
                self.deliver(wire.error(msg.id, "no_seat", "you hold no seat there", table.id))
                return
            await table.submit(cmd.Act(self, msg.id, token, msg.action))

    async def _say(self, msg: m.Say) -> None:
        if (table := self._table(msg)) is None:
            return
        text = clean_text(msg.text, self.config.talk_max_chars)
        if not text:
            self.deliver(wire.error(msg.id, "bad_message", "say something", table.id))
            return
        if not self._talk.take(trio.current_time()):
            self.deliver(wire.error(msg.id, "rate_limited", "you are talking too fast", table.id))
            return
        await table.submit(cmd.Talk(self, msg.id, text))

    async def _start_game(self, msg: m.StartGame) -> None:
        if (table := self._table(msg)) is not None:
            await table.submit(cmd.Start(self, msg.id))

    async def _get_record(self, msg: m.GetRecord) -> None:
        if (table := self._table(msg)) is None:
            return
        if self._records is None:
            self._records = TokenBucket(self.config.record_per_second, self.config.record_burst)
        if not self._records.take(trio.current_time()):
            text = "you are asking for records too fast"
            self.deliver(wire.error(msg.id, "rate_limited", text, table.id))
            return
        # a text client reads a page as one line: no longer than the protocol's max_line
        budget = DEFAULT_LIMITS.max_line if isinstance(self.codec, ServerTextCodec) else None
        await table.submit(cmd.Export(self, msg.id, msg.start, budget))

    async def _master(self, msg: Any) -> None:
        """A game-master command (``server.core.commands.MasterCommand``), for the table."""
        if (table := self._table(msg)) is not None:
            await table.submit(cmd.master_command(self, msg))

    async def _chips(self, msg: m.GetChips) -> None:
        if self.ops is None:  # a server without chips
            self._not_served(msg)
        else:
            await self.ops.chips(msg)

    async def _admin(self, msg: m.Message) -> None:
        if self.ops is None:  # a server without operators
            self._not_served(msg)
        else:
            await self.ops.admin(msg)

    async def _players(self, msg: m.Message) -> None:
        """A profile, a history page or the leaderboard (``server.players.profile_requests``)."""
        if self.ops is None:  # a server without profiles
            self._not_served(msg)
        else:
            requests = self.ops.profile_requests
            await requests.handlers()[type(msg)](msg)


Handler = Callable[[Connection, Any], Awaitable[None]]

#: The handler of each message type a client may send: one table for every connection
#: (a per-connection dict of bound methods would cost 2 KB each). Anything else a
#: client sends gets ``not_allowed``.
HANDLERS: dict[type[m.Message], Handler] = {
    m.Hello: Connection._hello,
    m.Ping: Connection._ping,
    m.Quit: Connection._quit,
    m.Help: Connection._help,
    m.ClaimName: Connection._claim_name,
    m.ListRulesets: Connection._list_rulesets,
    m.ListTables: Connection._list_tables,
    m.CreateTable: Connection._create_table,
    m.Join: Connection._join,
    m.Spectate: Connection._spectate,
    m.Leave: Connection._leave,
    m.Resume: Connection._resume,
    m.Act: Connection._act,
    m.Say: Connection._say,
    m.StartGame: Connection._start_game,
    m.GetRecord: Connection._get_record,
    **dict.fromkeys(cmd.MASTER_MESSAGES, Connection._master),
    m.GetChips: Connection._chips,
    **dict.fromkeys(ADMIN_TYPES, Connection._admin),
    **dict.fromkeys((m.GetProfile, m.GetHistory, m.GetTop), Connection._players),
}
