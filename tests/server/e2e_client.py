"""A small test-only client over real sockets, built on ``protocol`` alone.

It keeps every message it receives (``inbox``) and every byte (``raw``), so a
test can check what one connection saw over a whole game; ``request`` sends a
message with a fresh id and returns the reply that echoes it. ``play`` is a
tiny bot: it acts with the first (or a random) legal action whenever a
``turn`` says it is to act.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

import trio

from protocol import messages as m
from protocol.msgpack_codec import MsgpackDecoder, encode
from protocol.text_codec import ClientTextCodec
from server.core.config import ServerConfig

if TYPE_CHECKING:
    from server.app import Server

TIMEOUT = 20
#: Fast settings for tests: cheap scrypt, no bot pause, short handshake.
TEST_CONFIG = ServerConfig(host="127.0.0.1", port=0, scrypt_n=2, handshake_seconds=5)


class _Msgpack:
    """The msgpack codec in the shape the client uses (same as the text one)."""

    def __init__(self) -> None:
        self.decoder = MsgpackDecoder()

    def feed(self, data: bytes) -> list[m.Received]:
        return self.decoder.feed(data)

    def encode(self, message: m.Message) -> bytes:
        return encode(message)


class _Text:
    """Text mode: command lines out, server lines parsed back into messages."""

    def __init__(self) -> None:
        self.codec = ClientTextCodec()

    def feed(self, data: bytes) -> list[m.Received]:
        self.codec.receive_data(data)
        out = []
        while (msg := self.codec.next_message()) is not None:
            out.append(msg)
        return out

    def encode(self, message: m.Message) -> bytes:
        return self.codec.encode(message)


class Client:
    def __init__(self, stream: trio.SocketStream, text: bool = False) -> None:
        self.stream = stream
        self.codec = _Text() if text else _Msgpack()
        self.text = text
        self.inbox: list[m.Received] = []
        self.raw = bytearray()
        self._ids = itertools.count(1)
        self._read = 0  # messages of inbox already handed out by ``next``
        self._taken: set[int] = set()  # replies ``request`` took out of turn
        self.tokens: dict[str, str] = {}
        self.seats: dict[str, int] = {}
        self.last_seq: dict[str, int] = {}
        self.closed = False

    @classmethod
    async def connect(
        cls, port: int, name: str | None = None, secret: str = "pw", text: bool = False
    ) -> Client:
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        client = cls(stream, text)
        if text:  # a text client's first byte must be a letter: no "#id" on the hello
            # A program reads the JSON lines, not the sentences a person reads; the
            # first line implies the hello, whose welcome is then written as JSON too.
            await client.stream.send_all(b"format json\n")
            welcome = await client.wait_for(lambda x: isinstance(x, m.Welcome))
            await client.wait_for(lambda x: isinstance(x, m.Ok))
        else:
            welcome = await client.request(m.Hello())
        assert isinstance(welcome, m.Welcome), welcome
        if name is not None:
            named = await client.request(m.ClaimName(name=name, secret=secret))
            assert isinstance(named, m.Named), named
        return client

    async def send(self, message: m.Message) -> None:
        await self.stream.send_all(self.codec.encode(message))

    async def _fill(self) -> None:
        data = await self.stream.receive_some(65536)
        if not data:
            self.closed = True
            last = self.inbox[-1] if self.inbox else None
            raise EOFError(f"the server closed the connection; the last message: {last}")
        self.raw += data
        for msg in self.codec.feed(data):
            self.inbox.append(msg)
            self._track(msg)

    def _track(self, msg: m.Received) -> None:
        if isinstance(msg, m.Seated):
            self.tokens[msg.table] = msg.token
            self.seats[msg.table] = msg.seat
        if isinstance(msg, (m.TableEvent, m.Snapshot, m.Turn)):
            self.last_seq[msg.table] = msg.seq

    async def next(self, timeout: float = TIMEOUT) -> m.Received:
        """The next message not yet handed out (a reply ``request`` took is skipped)."""
        with trio.fail_after(timeout):
            while True:
                while self._read >= len(self.inbox):
                    await self._fill()
                index = self._read
                self._read += 1
                if index not in self._taken:
                    return self.inbox[index]

    async def wait_for(self, predicate: Any, timeout: float = TIMEOUT) -> m.Received:
        """The next message (skipping others) for which ``predicate`` holds."""
        with trio.fail_after(timeout):
            while True:
                msg = await self.next()
                if predicate(msg):
                    return msg

    async def request(self, message: m.Message, timeout: float = TIMEOUT) -> m.Received:
        """Send ``message`` with a fresh id; the reply echoing it. Other messages that
        arrive meanwhile stay for ``next``."""
        rid = next(self._ids)
        message = type(message)(**{**_fields(message), "id": rid})
        await self.send(message)
        index = self._read
        with trio.fail_after(timeout):
            while True:
                while index >= len(self.inbox):
                    await self._fill()
                if index not in self._taken and getattr(self.inbox[index], "id", None) == rid:
                    self._taken.add(index)
                    return self.inbox[index]
                index += 1

    async def record(self, table: str) -> m.Received:
        """A table's whole record: every page, joined into one ``record`` (or the first
        refusal)."""
        page = await self.request(m.GetRecord(table=table))
        if not isinstance(page, m.Record):
            return page
        key = "actions" if page.full else "events"
        entries = list(page.record[key])
        while page.next is not None:
            page = await self.request(m.GetRecord(table=table, start=page.next))
            if not isinstance(page, m.Record):
                return page
            entries.extend(page.record[key])
        return m.Record(table=table, record={**page.record, key: entries}, full=page.full,
                        total=len(entries), game=page.game)  # fmt: skip

    async def aclose(self) -> None:
        with trio.move_on_after(1):
            await self.stream.aclose()

    # ------------------------------------------------------------ playing
    async def play(self, table: str, rng: random.Random | None = None) -> m.Snapshot:
        """Act whenever a ``turn`` says this seat is to act, until the game is over;
        return the final snapshot (state ``over``)."""
        while True:
            msg = await self.next()
            if isinstance(msg, m.Snapshot) and msg.table == table and msg.state == "over":
                return msg
            if _my_turn(msg, table) and msg.legal:
                legal = msg.legal
                action = legal[0] if rng is None else rng.choice(legal)
                await self.send(m.Act(table=table, action=action, id=next(self._ids)))


def _my_turn(msg: m.Received, table: str) -> bool:
    """A ``turn`` or a playing ``snapshot`` at ``table`` that says this seat is to act."""
    if isinstance(msg, m.Turn):
        return msg.table == table and msg.to_act == msg.seat
    if isinstance(msg, m.Snapshot):
        return msg.table == table and msg.state == "playing" and msg.view["to_act"] == msg.seat
    return False


def _fields(message: m.Message) -> dict[str, Any]:
    return {name: getattr(message, name) for name, _req, _default in message._wire}


@asynccontextmanager
async def serving_server(server: Server) -> AsyncIterator[tuple[Server, int]]:
    """One run of ``server`` on a free port: started, then shut down (its store closed)
    on leaving, so the next run on the same data is a restart."""
    async with trio.open_nursery() as nursery:
        port = await nursery.start(server.serve)
        try:
            yield server, port
        finally:
            server.shutdown()
