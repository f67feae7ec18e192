"""A connection the server will not serve (its address has as many connections as it may,
or flooded a moment ago; the server is full) is told why, in its own binding, before it
is closed.

A close with no bytes, or a reset, tells a client nothing: a browser shows a broken
page, a bot retries at once, a person at ``nc`` sees the line go dead. So the refused
connection's first bytes are read (for at most ``REFUSAL_SECONDS``) to learn its binding
(``protocol.sniff``), and it gets the refusal in it: ``503 Service Unavailable`` with
``Retry-After`` over HTTP (a WebSocket's handshake is refused so, before any upgrade),
``goodbye`` over msgpack and in text. A client that says nothing in that time is closed
without a word, as before.

Why a bound on refusals at once (``MAX_REFUSING``): each refused connection is held for
up to a second while its first bytes come; a crowd refused by the thousand must not hold
a thousand descriptors for it. Past the bound, a refused connection is closed at once.

>>> b"Retry-After: 7" in refusal_bytes("http", "rate_limited", "wait", 7)
True
>>> refusal_bytes(None, "rate_limited", "wait", 7)
b''
"""

from __future__ import annotations

import contextlib
from http import HTTPStatus

import trio

from protocol.limits import DEFAULT_LIMITS
from protocol.sniff import HTTP, MSGPACK, TEXT, WAIT, sniff, strip_blanks
from server.core import wire
from server.transport.errors import TRANSPORT_ERRORS
from server.transport.framing import MsgpackFraming, TextFraming

#: how long a refused connection's first bytes are waited for
REFUSAL_SECONDS = 1.0
#: refused connections waited for at once, at most; past it they are closed at once
MAX_REFUSING = 256

#: goodbye codes of the refusals, and what each is
TOO_MANY_CONNECTIONS = "too_many_connections"  #: the address's, or the server's, are all open
RATE_LIMITED = "rate_limited"  #: the address flooded, and waits


def http_refusal(status: int, why: str, retry_after: int) -> bytes:
    """A whole HTTP/1.1 refusal that closes the connection, with ``Retry-After``."""
    body = f"{status} {HTTPStatus(status).phrase}: {why}\n".encode()
    head = (
        f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\n"
        f"Retry-After: {retry_after}\r\n"
        "Content-Type: text/plain; charset=utf-8\r\n"
        f"Content-Length: {len(body)}\r\n"
        "Connection: close\r\n\r\n"
    )
    return head.encode() + body


def refusal_bytes(kind: str | None, code: str, why: str, retry_after: int) -> bytes:
    """The refusal in binding ``kind`` (``protocol.sniff``'s name; None: none known)."""
    text = f"{why}; try again in {retry_after} s"
    if kind == HTTP:
        return http_refusal(503, text, retry_after)
    if kind == MSGPACK:
        return MsgpackFraming.encode(wire.goodbye(code, text))
    if kind == TEXT:
        return TextFraming(DEFAULT_LIMITS).encode(wire.goodbye(code, text))
    return b""


class Refusals:
    """Refused connections being told why, bounded in number (``MAX_REFUSING``)."""

    def __init__(self, limit: int = MAX_REFUSING, seconds: float = REFUSAL_SECONDS) -> None:
        self.limit = limit
        self.seconds = seconds
        self.now = 0  #: refusals under way
        self.told = 0  #: refused connections that were told why, in all

    async def refuse(self, stream: trio.abc.Stream, code: str, why: str, retry: int) -> None:
        """Tell ``stream`` why in its binding if it says which within the time, then
        close it."""
        try:
            if self.now < self.limit:
                self.now += 1
                try:
                    await self._tell(stream, code, why, retry)
                finally:
                    self.now -= 1
        finally:
            with trio.move_on_after(1) as scope:
                scope.shield = True
                with contextlib.suppress(*TRANSPORT_ERRORS):
                    await stream.aclose()

    async def _tell(self, stream: trio.abc.Stream, code: str, why: str, retry: int) -> None:
        data = b""
        kind: str | None = WAIT
        with trio.move_on_after(self.seconds):
            try:
                while kind == WAIT:
                    chunk = await stream.receive_some(4096)
                    if not chunk:
                        break
                    data += chunk
                    stripped = strip_blanks(data)
                    kind = TEXT if not stripped and b"\n" in data else sniff(stripped)
            except TRANSPORT_ERRORS:
                return
        if kind == WAIT:
            stripped = strip_blanks(data)
            kind = TEXT if data and not stripped else sniff(stripped, whole=True)
        reply = refusal_bytes(kind, code, why, retry)
        if not reply:
            return
        with trio.move_on_after(self.seconds):
            try:
                await stream.send_all(reply)
                self.told += 1
            except TRANSPORT_ERRORS:
                return
        # what the client sent meanwhile is read before the close: a socket closed with
        # bytes unread resets the connection, and a reset may cost the client the reply
        with trio.move_on_after(0.2):
            try:
                for _ in range(16):
                    if not await stream.receive_some(4096):
                        break
            except TRANSPORT_ERRORS:
                return
