"""One client connection over a TCP stream: the transport shell under a session.

The shape is hypercorn's tcp_server and trio-websocket's: bytes in to a sans-I/O
framing, messages out of it to the session (``server.transport.session``), and
the session's messages out through a bounded ``Outbox`` to the socket. Per
connection one nursery holds the reader (this task) and, only while something is
queued, a writer task; a ``finally`` closes the socket under
``trio.move_on_after(grace)``. Anything the transport raises
(``BrokenResourceError``, ``ClosedResourceError``, ``OSError``) becomes one domain
error, ``ConnectionLost``, at the boundary.

The opening (``_open``): the first bytes pick the binding (``protocol.sniff``):
msgpack, text, or HTTP. Blank lines and spaces before them are skipped. A client
whose first line is a bare Enter is taken for a person at ``nc`` and greeted in
text, once, at once. A silent client is never greeted: a browser opens sockets
before it has a request for them (Chromium preconnects the ones it expects a page
to need, and a phone may hold one for seconds), and any byte written before its
request is read as the start of the HTTP response, which the browser refuses.
Whatever the binding, something
other than blanks must come within ``handshake_seconds``, and a hello (text's
first line is one) within the same time.

The speed: what a table delivers to a connection with nothing queued is written
by the table's own task, straight to the socket's file descriptor without
blocking (``SocketSink.write_nowait``: a trio ``send_all`` would be a task hop and
several checkpoints per action per connection). Reads, likewise, wait for the
socket to be readable and then read it (``_read_when_ready``), one system call
where trio's ``receive_some`` first tries a read that mostly fails. These tricks
live here only: other shells give the ``Outbox`` a sink of their own.

The order: a connection that holds no seat and is not trusted takes a turn in the
server's crowd lane (``server.transport.crowd_lane``) before each message it sends, so
what a crowd asks in one moment is served one message a pass of the loop, and a seated
player's message that arrives with it is not queued behind all of it.

Timers count whole messages, not bytes (``_receive_timed``): hello must be whole
within ``handshake_seconds`` of connecting, any message within
``message_seconds`` of its first byte, and ``idle_seconds`` runs from the last
whole message, so a byte-at-a-time drip holds nothing for long.

``serve(framing, data, deadline)`` is the loop after the opening, for any framing
over this stream: the HTTP shell, once a WebSocket is agreed, goes on with its
own framing there.
"""

from __future__ import annotations

import contextlib
import os
import struct
from typing import Any

import trio

from protocol import messages as m
from protocol.errors import RemoteProtocolError
from protocol.sniff import HTTP, TEXT, WAIT, sniff, strip_blanks
from server.core import wire
from server.core.config import ServerConfig
from server.core.limits import AddressBudget
from server.operators.ops import ConnectionOps
from server.transport.errors import TRANSPORT_ERRORS, Closing, ConnectionLost
from server.transport.framing import FRAMINGS, Answered, Framing, TextFraming
from server.transport.held import HeldBytes
from server.transport.http import HttpLimits, HttpServer, serve_http
from server.transport.outbox import Outbox
from server.transport.proxied import HttpPolicy
from server.transport.requests import handle
from server.transport.session import ClientSession, Services
from server.transport.web import site
from server.transport.websocket import WebSocketFraming

__all__ = ["Connection", "ConnectionLost", "Services", "SocketSink"]


#: the most bytes one read takes
READ_SIZE = 65536


async def _read_when_ready(socket: trio.socket.SocketType) -> bytes:
    """Wait until ``socket`` is readable, then read it. A closed trio socket says -1 for
    its descriptor, so the read fails (``OSError``) rather than read another's."""
    while True:
        await trio.lowlevel.wait_readable(socket)
        try:
            return os.read(socket.fileno(), READ_SIZE)
        except BlockingIOError:  # woken with nothing to read after all
            continue


def _http_setup(config: ServerConfig) -> tuple[HttpLimits, HttpPolicy]:
    """The HTTP side's limits and policy, from the settings (made once a server)."""
    limits = HttpLimits(
        config.http_max_header_bytes,
        config.http_header_seconds,
        config.http_idle_seconds,
        config.http_max_requests,
    )
    policy = HttpPolicy.of(
        config.http_hosts,
        config.http_proxies,
        config.ipv6_prefix,
        (*config.trusted_addresses, *config.operator_addresses, *config.http_proxies),
        (*config.trusted_addresses, *config.operator_addresses),
    )
    return limits, policy


#: how long a text connection's last words may take to reach the peer before it is reset
HANG_UP_SECONDS = 1.0


async def _hang_up(socket: trio.socket.SocketType | None) -> None:
    """End a text connection so that ``nc`` ends too. OpenBSD's ``nc`` (the common one)
    does not end when the server closes: it reads the end of the stream, then waits for
    the person to type, and only the reset his next line earns ends it. So the end of the
    stream is sent after what is queued, and once the peer has acknowledged every byte (or
    ``HANG_UP_SECONDS`` passed) the socket is set to reset on close: ``nc`` ends at once,
    the goodbye on its screen (the peer's system hands over what it received before it
    reports the reset). A peer that ended its own stream first is not reset: ``nc`` ends
    with ours then, and the socket is freed at once."""
    if socket is None:  # a test's in-memory stream
        return
    with contextlib.suppress(OSError):
        socket.shutdown(trio.socket.SHUT_WR)
        with trio.move_on_after(HANG_UP_SECONDS):
            while _unacknowledged(socket):
                await trio.sleep(0.01)
            await trio.sleep(0.05)  # the peer reads what it has, then is reset
        socket.setsockopt(trio.socket.SOL_SOCKET, trio.socket.SO_LINGER, struct.pack("ii", 1, 0))


def _unacknowledged(socket: trio.socket.SocketType) -> int:
    """Bytes written to ``socket`` that the peer has not acknowledged (Linux's
    ``SIOCOUTQ``); 0 where the system cannot say."""
    try:
        import fcntl
        import termios

        reply = fcntl.ioctl(socket.fileno(), termios.TIOCOUTQ, b"\0\0\0\0")
    except (ImportError, OSError, AttributeError):
        return 0
    return int(struct.unpack("i", reply)[0])


class SocketSink:
    """Bytes to a trio stream; to a socket's descriptor at once when it takes them."""

    __slots__ = ("_socket", "stream")

    def __init__(self, stream: trio.abc.Stream) -> None:
        self.stream = stream
        #: None: not a socket (a test's in-memory stream): nothing is written at once
        self._socket = getattr(stream, "socket", None)

    async def send_all(self, data: bytes | memoryview) -> None:
        await self.stream.send_all(data)

    def write_nowait(self, data: bytes | memoryview) -> int:
        """Write what the socket takes now. A closed trio socket says -1 for its
        descriptor, so a number reused by another connection is never written to."""
        socket = self._socket
        fileno = -1 if socket is None else socket.fileno()
        if fileno < 0:
            return 0
        try:
            return os.write(fileno, data)
        except BlockingIOError:
            return 0


class Connection:
    """One client over a TCP stream: the shell; ``session`` is the client."""

    def __init__(self, stream: trio.abc.Stream, services: Services, peer: str = "?") -> None:
        self.stream = stream
        self.services = services
        self.config = services.config
        config = services.config
        if services.held is None:
            services.held = HeldBytes(
                config.send_address_bytes,
                config.send_server_bytes,
                tuple(config.trusted_addresses),
            )
        self.outbox = Outbox(
            SocketSink(stream),
            config.send_queue,
            config.send_queue_bytes,
            services.held,
            peer,
        )
        self.session = ClientSession(services, self.outbox, peer)
        self._partial_since: float | None = None  #: when an unfinished message began
        #: the socket to read from when it is readable (None: not a socket, a test's
        #: in-memory stream), and whether the last read filled its buffer
        self._socket = getattr(stream, "socket", None)
        self._full = False
        #: the peer ended its stream (an ``nc`` whose input ended ends with ours)
        self._ended = False
        #: the address a WebSocket's session was counted under, besides the socket's
        #: peer (``_readdress``), released when the connection ends
        self._counted: str | None = None

    # ------------------------------------------------------------ the task
    async def run(self) -> None:
        """Serve this client until it quits, breaks, is dropped, or the server stops."""
        session, outbox = self.session, self.outbox
        self.services.connections.add(session)
        try:
            async with trio.open_nursery() as nursery:
                outbox.open(nursery)
                outbox.reader = trio.lowlevel.current_task()
                try:
                    await self._read()
                except ConnectionLost:
                    outbox.closed()
                    nursery.cancel_scope.cancel()
                    return
                # A polite end: the writer flushes what is queued (a goodbye last) and then
                # cancels this nursery; a peer that will not take it gets the grace time.
                outbox.reader = None
                outbox.close()
                await trio.sleep(self.config.close_grace_seconds)
                nursery.cancel_scope.cancel()
        finally:
            try:
                await self._close()
            finally:  # counted until its socket is closed (a text one's hang-up takes a moment)
                self.services.connections.discard(session)
                if self._counted is not None and self.services.ops is not None:
                    self.services.ops.release_address(self._counted)

    async def _close(self) -> None:
        """The end: the last word if it fits, the session off its tables, the socket
        closed (a text connection's hung up, so that ``nc`` ends too)."""
        session, outbox = self.session, self.outbox
        outbox.closed()
        with trio.move_on_after(self.config.close_grace_seconds) as scope:
            scope.shield = True
            if outbox.last_word is not None and session.binding is not None:
                # the goodbye may still fit in the socket's buffer
                with contextlib.suppress(*TRANSPORT_ERRORS), trio.move_on_after(0.2):
                    await self.stream.send_all(outbox.encode(outbox.last_word))
            await session.detach()
            if session.binding is not None and session.binding.kind == TEXT and not self._ended:
                await _hang_up(self._socket)
            with contextlib.suppress(*TRANSPORT_ERRORS):
                await self.stream.aclose()

    async def _read(self) -> None:
        start = trio.current_time()
        deadline = start + self.config.handshake_seconds
        kind, data = await self._open(deadline)
        if kind == HTTP:
            websocket, data = await self._answer_http(data, start)
            if websocket is None:
                return
            deadline = trio.current_time() + self.config.handshake_seconds
            await self.serve(websocket, data, deadline)
            return
        framing_type = None if kind is None else FRAMINGS.get(kind)
        if framing_type is None:  # no binding of ours: not a Switchboard client
            return
        await self.serve(framing_type(self.services.limits), data, deadline)

    async def _open(self, deadline: float) -> tuple[str | None, bytes]:
        """Read until the first bytes say the binding (``protocol.sniff``); greet a
        person who presses Enter first. The binding and the bytes read, blanks stripped."""
        greeted = False
        data = b""
        while True:
            with trio.move_on_at(deadline):
                chunk = await self._receive()
                if not chunk:  # the peer left
                    return None, b""
                data = strip_blanks(data + chunk) if not data else data + chunk
                if not data and not greeted and b"\n" in chunk:  # a bare Enter: a person
                    greeted = await self._greet()
                if (kind := sniff(data)) != WAIT:
                    return kind, data
                continue
            kind = sniff(data, whole=True)
            return (TEXT if kind is None and greeted and not data else kind), data

    async def _greet(self) -> bool:
        greeting = TextFraming.greeting
        if greeting:
            try:
                await self.stream.send_all(greeting)
            except TRANSPORT_ERRORS as exc:
                raise ConnectionLost(str(exc)) from None
            self.outbox.sent += len(greeting)
        return True

    async def _answer_http(
        self, data: bytes, start: float
    ) -> tuple[WebSocketFraming | None, bytes]:
        """HTTP (``server.transport.http``): the web client's files and rules pages, until
        the connection closes (``None``) or a WebSocket is agreed on ``/ws``: then its
        framing and the frames read with the handshake, for ``serve`` to go on with over
        this stream, as a session like any other that must say hello within
        ``handshake_seconds``. (Returned, not served from here: the HTTP side's objects
        are let go before the WebSocket's life begins.)"""
        config = self.config
        services = self.services
        if services.http is None or services.http_setup is None:  # the first: made once
            services.http = AddressBudget(
                config.http_address_per_second,
                config.http_address_burst,
                tuple(config.trusted_addresses),
            )
            services.http_setup = _http_setup(config)
        limits, policy = services.http_setup
        server = HttpServer(
            site(),
            limits,
            config.ws_allowed_origins,
            self.session.peer,
            policy,
            services.http,
            trio.current_time,
            admit=None if services.ops is None else self._admit,
        )
        upgrade = await serve_http(self.stream, server, data, start)
        if server.admitted is not None:  # counted under its client's address from now on
            self._counted = server.admitted
        if upgrade is None:
            return None, b""
        self._readdress(upgrade.address)
        ops = self.session.ops
        framing = WebSocketFraming(
            services.limits,
            config.ws_max_frame_bytes,
            admit=None if ops is None else ops.admit,  # its pings cost requests
        )
        return framing, upgrade.trailing

    def _admit(self, address: str) -> tuple[str, str, int] | None:
        """Count a WebSocket's connection under ``address`` before its handshake is
        answered: None if admitted, else why not (the handshake is refused with 503)."""
        ops = self.services.ops
        assert ops is not None
        return None if ops.admit_address(address) else ops.refusal(address)

    def _readdress(self, address: str) -> None:
        """The WebSocket's session is from ``address`` (``proxied.client_address``), not
        the socket's peer: a browser behind a proxy on loopback, or the client a
        configured proxy names. It is counted under that address from now on (its
        connections, admitted before the upgrade; its request rate, its trust: none for
        ``proxied:PEER``)."""
        session, ops = self.session, self.services.ops
        if address == session.peer:
            return
        session.peer = address
        self.outbox.rekey(address)
        if ops is not None:
            session.ops = ConnectionOps(session, ops)

    # ------------------------------------------------------------ the loop
    async def serve(self, framing: Framing, data: bytes, deadline: float) -> None:
        """Feed ``data`` and then everything read to ``framing``, each message whole to
        the session, until the peer leaves, a frame is bad, or the session closes. Hello
        must have come by ``deadline``."""
        session, outbox = self.session, self.outbox
        session.binding = framing
        outbox.encode = framing.encode
        session.last_message = trio.current_time()
        lane = self.services.lane
        while True:
            # Each message is handled before the next is decoded: a bad frame after good
            # ones costs only what follows it. A connection in the crowd takes a turn in
            # the lane (``crowd_lane``) before each: the first before its bytes are decoded.
            try:
                first = True
                if data:
                    if session.in_the_crowd:
                        await lane.turn()
                    framing.receive_data(data)
                while (message := framing.next_message()) is not None:
                    if not first and session.in_the_crowd:
                        await lane.turn()
                    first = False
                    if type(message) is Answered:  # the binding's own: it answered
                        self._answer(message)
                    else:  # not Answered (checked by type, which mypy does not narrow)
                        await handle(session, message)  # type: ignore[arg-type]
                    if outbox.behind:
                        await self._drain()
            except RemoteProtocolError as exc:
                session.deliver(m.Error.answering(exc))
                return
            except Closing:
                return
            await outbox.flush()
            if session.awaiting_hello:
                with trio.move_on_at(deadline) as scope:
                    data = await self._receive()
                if scope.cancelled_caught:
                    session.deliver(wire.goodbye("need_hello", "say hello first"))
                    return
            else:
                timed = await self._receive_timed(framing)
                if timed is None:
                    return
                data = timed
            if not data:
                with contextlib.suppress(RemoteProtocolError):
                    framing.receive_data(b"")
                return

    def _answer(self, answered: Answered) -> None:
        reply = answered.reply
        if isinstance(reply, bytes):  # the binding's own bytes: no message of the session
            self.outbox.put_bytes(reply)
        else:
            self.session.deliver(reply)

    async def _receive(self) -> bytes:
        """The next bytes from the peer (``b""``: it closed). A socket whose last read did
        not fill the buffer is read when it is readable: one system call, where
        ``receive_some`` tries first and mostly fails (the peer has not spoken yet),
        then waits and reads again."""
        socket = self._socket
        try:
            if socket is None or self._full:  # trio types it bytes | bytearray: bytes here
                data: bytes = await self.stream.receive_some(READ_SIZE)  # type: ignore[assignment]
            else:
                data = await _read_when_ready(socket)
        except TRANSPORT_ERRORS as exc:
            # from None: the transport's exception, its traceback and frames are not kept
            raise ConnectionLost(str(exc)) from None
        self._full = len(data) == READ_SIZE
        self._ended = not data
        self.outbox.received += len(data)
        return data

    async def _drain(self) -> None:
        """Backpressure: a client that pipelines requests faster than it reads the
        replies is not read from until they are written (TCP then slows it down); its
        queue never overflows from its own requests, so it is never dropped for them."""
        idle = self.config.idle_seconds or float("inf")
        if not await self.outbox.drain(idle):  # a client that never reads is let go
            self.session.drop("slow_reader", f"your replies went unread for {idle:g} s")

    async def _receive_timed(self, framing: Framing) -> bytes | None:
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
        session = self.session
        buffered = framing.buffered
        if not buffered and session.tables:
            self._partial_since = None
            return await self._receive()
        config = self.config
        now = trio.current_time()
        if buffered:  # part of a message is here
            since = self._partial_since
            if since is None or since < session.last_message:  # a new one since
                self._partial_since = since = now
            partial_deadline = since + (config.message_seconds or float("inf"))
        else:
            self._partial_since = None
            partial_deadline = float("inf")
        idle = config.idle_seconds or float("inf")
        idle_deadline = session.last_message + idle
        while True:
            with trio.move_on_at(min(partial_deadline, idle_deadline)):
                return await self._receive()
            if trio.current_time() >= partial_deadline:
                seconds = config.message_seconds
                why = f"a message did not arrive whole within {seconds:g} s"
                session.deliver(wire.goodbye("timeout", why))
                return None
            if not session.tables:
                session.deliver(wire.goodbye("idle", f"no message for {idle:g} s"))
                return None
            idle_deadline = trio.current_time() + idle  # at a table: idling is allowed

    def statistics(self) -> dict[str, Any]:
        return self.session.statistics()
