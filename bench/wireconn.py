"""The msgpack connection every bench client speaks through.

flood.py and load.py both drive the server as plain clients; one class here
keeps their framing, request ids and reply matching the same, so a change to
the wire shows in both benches at once.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import trio

from protocol import messages as m
from protocol.msgpack_codec import MsgpackDecoder, encode

HOST = "127.0.0.1"


def pop_server_frame(buf: bytearray) -> tuple[int, bytes, bool] | None:
    """The first whole WebSocket frame in ``buf``, taken out of it: ``(opcode, payload,
    final)``, or ``None`` while it is not all there. RFC 6455's few lines a server's
    frames need (they are never masked), not wsproto's parser: a browser reads frames in
    native code, so a bench's figure is the server's and the wire's, not a Python
    parser's."""
    if len(buf) < 2:
        return None
    n, start = buf[1] & 0x7F, 2
    if n == 126:
        n, start = int.from_bytes(buf[2:4], "big"), 4
    elif n == 127:
        n, start = int.from_bytes(buf[2:10], "big"), 10
    if len(buf) < start + n:
        return None
    frame = (buf[0] & 0x0F, bytes(buf[start : start + n]), bool(buf[0] & 0x80))
    del buf[: start + n]
    return frame


class Conn:
    """A minimal msgpack client: send messages, read them one at a time."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.decoder = MsgpackDecoder()
        self.pending: list[m.Received] = []
        self.ids = itertools.count(1)

    @classmethod
    async def open(cls, port: int, name: str | None = None) -> Conn:
        """Connect on loopback; with a name, say hello and claim it first."""
        c = cls(await trio.open_tcp_stream(HOST, port))
        if name is not None:
            await c.request(m.Hello())
            reply = await c.request(m.ClaimName(name=name, secret="benchpw"))
            assert isinstance(reply, m.Named), reply
        return c

    async def send(self, message: m.Message) -> None:
        await self.stream.send_all(encode(message))

    async def receive(self) -> m.Received:
        """The next message from the server, reading the stream as needed."""
        while not self.pending:
            data = await self.stream.receive_some(65536)
            if not data:
                raise EOFError
            self.pending.extend(self.decoder.feed(data))
        return self.pending.pop(0)

    async def request(self, message: m.Message) -> m.Received:
        """Send with a fresh id and wait for the reply that carries it."""
        rid = next(self.ids)
        fields = {n: getattr(message, n) for n, _r, _d in message._wire}
        await self.send(type(message)(**{**fields, "id": rid}))
        while True:
            reply = await self.receive()
            if getattr(reply, "id", None) == rid:
                return reply


# A server in a process of its own (memory store), printing its port on stdout.
_SERVER = """
import json, sys, trio
from server.app import Server
from server.core.config import ServerConfig
config = ServerConfig.from_mapping(json.loads(sys.argv[1]))
async def main():
    async with trio.open_nursery() as nursery:
        port = await nursery.start(Server(config).serve)
        print(port, flush=True)
trio.run(main)
"""


@contextlib.contextmanager
def memory_server(config: dict[str, Any]) -> Iterator[int]:
    """A server in its own process (so it has a core of its own) with ``config`` (the
    keys of ``ServerConfig``) and nothing kept; its port while the block runs."""
    root = Path(__file__).resolve().parent.parent
    server = subprocess.Popen(
        [sys.executable, "-c", _SERVER, json.dumps(config)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        cwd=root,
        text=True,
    )
    try:
        yield int(server.stdout.readline())  # type: ignore[union-attr]
    finally:
        server.terminate()
        server.wait(timeout=10)
