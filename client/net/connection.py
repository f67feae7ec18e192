"""The connection library: one trio connection to a Switchboard server, kept alive.

The terminal client and the bots both talk to the server through this::

    async with connect("127.0.0.1", 7373, name="ann") as conn:
        await conn.request(ListTables())          # the reply (or ServerError)
        seated = await conn.join("t1")            # the seat and its token
        async for msg in conn.events():           # snapshots, events, turns, talk
            t = conn.state.tables["t1"]           # ... folded into conn.state
            if t.my_turn:
                await conn.act("t1", t.legal[0])

What it does for you:

- the handshake (``hello``, version negotiation) and claiming the name with
  its secret, kept in the user's config directory (``client.net.config``); with no
  name it claims none (the lobby and watching need none) until ``claim``;
- request ids: ``request`` numbers each request and returns the message whose
  ``id`` echoes it (an ``error`` reply raises ``ServerError``);
- table state: every message is folded into ``conn.state`` (a
  ``client.net.state.ClientState``) before ``events()`` yields it;
- reconnecting: when the socket drops it connects again with growing pauses,
  claims the name last claimed, and resumes every seat with its token and the last
  sequence number seen (spectated tables are watched again). The server sends
  what was missed; an event already seen is dropped, so ``events()`` yields
  every table event exactly once, in order, across any number of drops.
  Requests made meanwhile wait until every seat is resumed (the server would
  refuse an ``act`` from a connection that holds no seat yet).

It speaks the msgpack codec (``protocol.msgpack_codec``); every message class
is ``protocol.messages``.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from typing import Any

import trio

from client.net.config import secret_for
from client.net.state import Change, ClientState
from protocol import messages as m
from protocol.errors import ProtocolError
from protocol.limits import DEFAULT_LIMITS, Limits
from protocol.msgpack_codec import MsgpackDecoder, encode

log = logging.getLogger(__name__)

DEFAULT_PORT = 7373
CLIENT_LABEL = "switchboard-client/0.1"
#: A sequence number past any table's: resuming from it asks for a snapshot.
LATEST = (1 << 63) - 1


class ConnectionLost(Exception):
    """The connection dropped before the reply came (the request may or may not have
    been carried out; the resumed table state tells)."""


class ServerError(Exception):
    """The server answered ``error``: ``code`` is stable, ``text`` is for people."""

    def __init__(self, code: str, text: str, reply: Any = None) -> None:
        super().__init__(f"{code}: {text}" if text else code)
        self.code = code
        self.text = text
        self.reply = reply


class Connection:
    """A live connection; make one with ``connect()``."""

    def __init__(
        self,
        host: str,
        port: int,
        *,
        name: str | None,
        secret: str | None,
        state: ClientState | None = None,
        reconnect: bool = True,
        limits: Limits = DEFAULT_LIMITS,
        client_label: str = CLIENT_LABEL,
        max_backoff: float = 2.0,
        event_buffer: int = 10_000,
        refresh_views: bool = True,
        name_optional: bool = False,
    ) -> None:
        self.host, self.port = host, port
        self.name, self.secret = name, secret
        self.state = state or ClientState()
        self.reconnect = reconnect
        self.limits = limits
        self.client_label = client_label
        self.max_backoff = max_backoff
        #: fetch a fresh view after a turn that carries none (an older server)
        self.refresh_views = refresh_views
        #: the name was remembered, not insisted on: if the first claim is refused, come
        #: in with none (and say why) rather than not at all
        self.name_optional = name_optional
        self.connects = 0  # how many times a connection was made (1 + reconnects)
        self._ids = itertools.count(1)
        self._pending: dict[int, trio.MemorySendChannel[Any]] = {}
        self._stream: trio.abc.Stream | None = None
        self._send_lock = trio.Lock()
        self._connected = trio.Event()
        self._closed = False
        self._events_send, self._events_recv = trio.open_memory_channel[Any](event_buffer)
        self._failure: BaseException | None = None
        #: called with each message as it arrives, before it is folded in (timing hooks)
        self._on_receive: Callable[[Any], object] | None = None
        #: tables whose fresh snapshot is being asked for, and those to ask again after it
        self._resyncing: set[str] = set()
        self._resync_again: set[str] = set()

    # ------------------------------------------------------------- public
    def on_each_message(self, hook: Callable[[Any], object] | None) -> None:
        """Call ``hook(msg)`` with each message as it arrives, before it is folded into
        the state (the screen's redraw timing starts there)."""
        self._on_receive = hook

    def resyncing(self, table: str) -> bool:
        """Whether a fresh snapshot of ``table`` is being asked for (after a gap)."""
        return table in self._resyncing

    @property
    def connected(self) -> bool:
        return self._connected.is_set() and not self._closed and self._failure is None

    async def wait_connected(self) -> None:
        """Wait until the connection is up (at once if it is)."""
        await self._wait_connected()

    def events(self) -> trio.MemoryReceiveChannel[Any]:
        """Every message that changed the state (snapshots, new events, turns, talk,
        lobby lists, notices), in order, after it was folded into ``state``."""
        return self._events_recv

    async def send(self, msg: m.Message) -> None:
        """Send without waiting for a reply (waits for a connection if there is none)."""
        await self._wait_connected()
        await self._send(msg)

    async def request(self, msg: m.Message, *, check: bool = True) -> Any:
        """Send ``msg`` with a fresh id and return the reply that echoes it.

        ``check``: an ``error`` reply raises ``ServerError`` (else it is returned).
        A connection that drops first raises ``ConnectionLost``."""
        await self._wait_connected()
        return await self._request_now(msg, check=check)

    async def claim(self, name: str, secret: str) -> m.Named:
        """Use ``name`` from now on, reconnects included (``ServerError`` if refused)."""
        named: m.Named = await self.request(m.ClaimName(name=name, secret=secret))
        self.claimed(named.name, secret)
        return named

    def claimed(self, name: str, secret: str) -> None:
        """The server said ``named`` to a claim of ``name`` with ``secret`` sent some other
        way (a typed ``name NAME SECRET``): a reconnect claims it, not the name before."""
        self.name, self.secret = name, secret

    async def join(self, table: str, seat: int | None = None) -> Any:
        """Take a seat; returns the reply (the seat's token is kept in ``state``)."""
        return await self.request(m.Join(table=table, seat=seat))

    async def watch(self, table: str) -> Any:
        return await self.request(m.Spectate(table=table))

    async def act(self, table: str, action: str) -> Any:
        return await self.request(m.Act(table=table, action=action))

    async def say(self, table: str, text: str) -> Any:
        return await self.request(m.Say(table=table, text=text))

    async def catch_up_log(self, table: str, events: int, wait: float = 2.0) -> bool:
        """Ask for up to ``events`` of ``table``'s recent events, for the log of a table
        joined or watched mid-game (the snapshot has the board, not how it came about).

        The server sends the events after a ``last_seq`` only from within the current
        game (else it answers with a snapshot), and a newcomer cannot know where the
        game began: so it asks from ``events`` back, and on a snapshot from fewer
        (a young game), a few times. The events are older than the board; the state
        files them into the log only. True when some arrived."""
        t = self.state.tables.get(table)
        if t is None or not t.synced or t.seq <= 1:
            return False
        newest = t.backfill_to = t.seq
        back, tried = events, set()
        while back >= 2:
            # (a table's first game starts at 1: its events follow from 2)
            since = max(1, newest - back)
            back //= 2
            if since in tried or since >= newest:
                continue
            tried.add(since)
            snapshots, filled = t.snapshots, t.backfilled
            if t.token is not None:
                resume = m.Resume(table=table, token=t.token, last_seq=since)
                await self._request_now(resume, check=False)
            else:
                await self._send(
                    m.Spectate(table=table, last_seq=since)
                )  # no id: see _resume_tables
            with trio.move_on_after(wait):
                while t.snapshots == snapshots and t.backfilled == filled:
                    await trio.sleep(0.02)
            if t.backfilled > filled:
                return True
            newest = t.backfill_to = t.seq  # a snapshot came: the table is here now
        return False

    async def aclose(self) -> None:
        """Say goodbye and close; ``events()`` then ends."""
        if self._closed:
            return
        self._closed = True
        stream = self._stream
        if stream is not None:
            with trio.move_on_after(0.5):
                with suppress(ConnectionLost, trio.BrokenResourceError, trio.ClosedResourceError):
                    await self._send(m.Quit())
            with trio.move_on_after(0.5):
                await stream.aclose()
        self._fail_pending()
        self._events_send.close()
        self._connected.set()  # a request waiting for a connection now sees the close

    # ------------------------------------------------------------- internals
    async def _wait_connected(self) -> None:
        """Until a connection is up and its tables resumed (``ConnectionLost`` if it
        never will be). A drop before the resume finished keeps the same unset event,
        so a waiter is woken by the connection that finally is ready."""
        while True:
            if self._closed:
                raise ConnectionLost("the connection is closed")
            if self._failure is not None:
                raise ConnectionLost(str(self._failure))
            ready = self._connected
            if ready.is_set():
                return
            await ready.wait()

    async def _send(self, msg: m.Message) -> None:
        stream = self._stream
        if stream is None:
            raise ConnectionLost("not connected")
        data = encode(msg, self.limits)
        async with self._send_lock:
            try:
                await stream.send_all(data)
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
                raise ConnectionLost(str(exc)) from None

    async def _request_now(self, msg: m.Message, *, check: bool) -> Any:
        from protocol.commands import with_id

        rid = next(self._ids)
        send, recv = trio.open_memory_channel[Any](1)
        self._pending[rid] = send
        try:
            await self._send(with_id(msg, rid))
            try:
                reply = await recv.receive()
            except trio.EndOfChannel:
                raise ConnectionLost("the connection dropped before the reply") from None
        finally:
            self._pending.pop(rid, None)
        if check and isinstance(reply, m.Error):
            raise ServerError(reply.code, reply.text, reply)
        return reply

    def _fail_pending(self) -> None:
        for send in self._pending.values():
            send.close()
        self._pending.clear()

    async def _handshake(self, stream: trio.abc.Stream, decoder: MsgpackDecoder) -> None:
        """hello/welcome then claim the name, reading replies directly (no reader yet)."""

        async def reply_to(msg: m.Message) -> Any:
            await stream.send_all(encode(msg, self.limits))
            while True:
                while (got := decoder.next_message()) is not None:
                    if getattr(got, "id", None) == getattr(msg, "id", None) and isinstance(
                        got, m.Message
                    ):
                        return got
                    self._dispatch(got)
                data = await stream.receive_some(65536)
                if not data:
                    raise ConnectionLost("the server closed the connection in the handshake")
                decoder.receive_data(data)

        welcome = await reply_to(m.Hello(versions=m.VERSIONS, client=self.client_label, id=0))
        if isinstance(welcome, m.Error):
            raise ServerError(welcome.code, welcome.text, welcome)
        self.state.handle(welcome)
        if self.name is None or self.secret is None:
            return  # no name yet: the server's guest, until ``claim``
        named = await reply_to(m.ClaimName(name=self.name, secret=self.secret, id=0))
        if isinstance(named, m.Error) and self.name_optional and self.connects == 0:
            self.state.note(None, f"{self.name} was refused ({named.text or named.code}):"
                            " no name yet")  # fmt: skip
            self.name = self.secret = None
            return
        if isinstance(named, m.Error):
            raise ServerError(named.code, named.text, named)
        self.state.handle(named)

    async def _open(self) -> tuple[trio.abc.Stream, MsgpackDecoder]:
        stream = await trio.open_tcp_stream(self.host, self.port)
        decoder = MsgpackDecoder(self.limits, skip_greeting=True)
        try:
            await self._handshake(stream, decoder)
        except BaseException:
            with trio.move_on_after(0.5):
                await stream.aclose()
            raise
        return stream, decoder

    async def _resume_tables(self, stream: trio.abc.Stream, ready: trio.Event) -> None:
        """After a reconnect: take back every seat, watch every watched table again;
        then (and only then) let requests through, by setting ``ready``.

        Why requests wait: the server holds a new connection's seat token only once
        its ``resume`` is answered, so an ``act`` sent before that is refused
        (``no_seat``) while the resumed turn repeats the sequence number the bot
        already answered: nobody would act again and the game would wait forever.
        A drop during the resume ends this task quietly; the next connection
        resumes afresh (and ``ready`` of this one is never set)."""
        try:
            for t in list(self.state.tables.values()):
                try:
                    if t.token is not None:
                        await self._request_now(
                            m.Resume(table=t.table, token=t.token, last_seq=t.seq), check=True
                        )
                    elif t.seat is None and t.synced:
                        # Sent without an id: the server answers a watch it can fill from
                        # its events with those events and a turn, which carry no id, so
                        # a reply to wait for may never come.
                        await self._send(m.Spectate(table=t.table, last_seq=t.seq))
                except ServerError as exc:
                    self.state.note(t.table, f"could not resume table {t.table}: {exc}", "error")
        except ConnectionLost:
            return
        if self._stream is stream:
            ready.set()

    def _dispatch(self, msg: Any) -> None:
        """Fold a received message into the state; queue it for ``events()`` if it changed
        something; hand a reply to the request waiting for it."""
        if self._on_receive is not None:
            self._on_receive(msg)
        rid = getattr(msg, "id", None)
        if rid is not None and rid in self._pending:
            send = self._pending.pop(rid)
            with suppress(trio.WouldBlock, trio.BrokenResourceError):
                send.send_nowait(msg)
        if not isinstance(msg, m.Message):
            return  # an UnknownMessage/InvalidMessage from a newer server: nothing to fold
        change = self.state.handle(msg)
        if change is Change.GAP and isinstance(msg, m.TableEvent):  # (only an event makes a gap)
            self._resync(msg.table)
            return
        # Only a server that sends turns without the view: the board lags the events.
        if (
            self.refresh_views
            and isinstance(msg, m.Turn)
            and msg.view is None
            and self.state.tables[msg.table].stale
        ):
            self._resync(msg.table)
        if change is None and not isinstance(msg, (m.Error, m.Ok, m.Goodbye, m.HelpText)):
            return
        try:
            self._events_send.send_nowait(msg)
        except trio.WouldBlock:
            log.warning("events() is not being read; dropping %s", type(msg).__name__)
        except trio.ClosedResourceError:
            pass

    def _resync(self, table: str) -> None:
        """Ask for a fresh snapshot of ``table`` (one request at a time per table).

        Used after a gap in the events. Every ``turn`` (a seat's and a spectator's)
        carries the fresh view, so the board never lags; only against a server
        whose turns carry no view is this also used after each turn."""
        t = self.state.tables.get(table)
        if t is None or (t.token is None and t.seat is not None):
            return
        if table in self._resyncing:
            self._resync_again.add(table)
            return
        self._resyncing.add(table)
        self._nursery.start_soon(self._resync_task, t)

    async def _resync_task(self, t: Any) -> None:
        try:
            while True:
                self._resync_again.discard(t.table)
                if t.token is not None:
                    # A last_seq past the table's makes the server answer with a snapshot.
                    msg: m.Message = m.Resume(table=t.table, token=t.token, last_seq=LATEST)
                else:
                    msg = m.Spectate(table=t.table)
                await self._request_now(msg, check=False)
                if t.table not in self._resync_again:
                    break
        except ConnectionLost:
            pass
        finally:
            self._resyncing.discard(t.table)

    async def _read(self, stream: trio.abc.Stream, decoder: MsgpackDecoder) -> None:
        """Dispatch messages until the stream ends."""
        while (msg := decoder.next_message()) is not None:
            self._dispatch(msg)
        while True:
            try:
                data = await stream.receive_some(65536)
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                return
            if not data:
                return
            try:
                decoder.receive_data(data)
                while (msg := decoder.next_message()) is not None:
                    self._dispatch(msg)
            except ProtocolError as exc:
                log.warning("bad data from the server: %s", exc)
                return

    async def run(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        """Connect, then keep connected until closed. ``task_status.started()`` once the
        first connection is made (its failure raises here, before ``started``)."""
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            stream, decoder = await self._open()
            started = False
            backoff = 0.05
            while not self._closed:
                self._stream = stream
                self.connects += 1
                if not started:
                    self._connected.set()
                    task_status.started()
                    started = True
                else:
                    # Requests wait (``_wait_connected``) until every seat is resumed.
                    nursery.start_soon(self._resume_tables, stream, self._connected)
                    self._queue_note(f"reconnected to {self.host}:{self.port}")
                await self._read(stream, decoder)
                # The connection dropped (or we closed it).
                if self._connected.is_set():
                    self._connected = trio.Event()
                self._stream = None
                self._fail_pending()
                with trio.move_on_after(0.5):
                    await stream.aclose()
                if self._closed or not self.reconnect:
                    break
                self._queue_note("connection lost; reconnecting...")
                while not self._closed:
                    await trio.sleep(backoff)
                    backoff = min(self.max_backoff, backoff * 2)
                    try:
                        stream, decoder = await self._open()
                        backoff = 0.05
                        break
                    except (OSError, ConnectionLost, ProtocolError, trio.BrokenResourceError):
                        continue
            if not self._closed:
                self._failure = ConnectionLost("the server closed the connection")
                self._events_send.close()
            self._connected.set()  # wake any waiter: it sees the failure (or the close)
            nursery.cancel_scope.cancel()

    def _queue_note(self, text: str) -> None:
        """Tell the state and whoever reads ``events()`` (a local ``notice``)."""
        self.state.note(None, text)
        with suppress(trio.WouldBlock, trio.ClosedResourceError):
            self._events_send.send_nowait(m.Notice(text=text))


@asynccontextmanager
async def connect(
    host: str = "127.0.0.1",
    port: int = DEFAULT_PORT,
    *,
    name: str | None = None,
    secret: str | None = None,
    state: ClientState | None = None,
    reconnect: bool = True,
    **kwargs: Any,
) -> AsyncIterator[Connection]:
    """Connect, say hello, claim ``name`` with its kept secret (no name: claim none, as the
    server's guests, until ``Connection.claim``), and keep the connection up
    (reconnecting) until the block ends."""
    if name is not None and secret is None:
        secret = secret_for(name, f"{host}:{port}")
    conn = Connection(
        host, port, name=name, secret=secret, state=state, reconnect=reconnect, **kwargs
    )
    async with trio.open_nursery() as nursery:
        await nursery.start(conn.run)
        try:
            yield conn
        finally:
            await conn.aclose()
            nursery.cancel_scope.cancel()


__all__ = ["DEFAULT_PORT", "Connection", "ConnectionLost", "ServerError", "connect"]
