"""The WebSocket binding, sans-I/O: a connection's codec that speaks WebSocket frames
(wsproto) carrying one JSON message each (``protocol.json_codec``).

After ``/ws`` is upgraded (``server.transport.http``), the connection serves the client as
it serves a msgpack or text one, through this codec: the same session, timers, rate limits
and quotas, because only the codec differs. It has the codec's shape (``receive_data``,
``next_message``, ``buffered``, ``encode``) and two things more, which a WebSocket needs
and a byte stream does not: ``outgoing()``, the control frames to write now (the pong to a
ping, the answer to a close), and ``peer_closed``, true once the client closed the
WebSocket (then the connection ends without a goodbye, which could no longer be sent).

Limits, each checked as the bytes arrive, before a message is whole: a data frame's payload
over ``max_frame_bytes``, or a message (all its frames) over ``limits.max_frame`` bytes (the
same limit as a msgpack frame), is ``too_large``; a binary message, a frame wsproto refuses
(bad opcode, an unmasked client frame, a control frame over 125 bytes, invalid UTF-8 in a
text message) is ``bad_frame``, and so are more than ``MAX_PINGS_AT_ONCE`` pings in one
read (only the latest ping of a read is answered), and a
message in more than ``MAX_FRAGMENTS`` frames; and the
JSON codec's own limits apply to the message. Each
of them is fatal, as a broken msgpack frame is: the connection answers ``error`` and closes.
After an ``error`` that ends the connection, or a ``goodbye``, ``encode`` appends the close
frame (RFC 6455 section 7.4 codes: 1000 for quit, 1001 for shutdown, 1009 for
``too_large``, 1002 for ``bad_frame`` (1003 for a binary message, 1007 for invalid UTF-8,
as wsproto says), 1013 for ``rate_limited`` (try again later), 1008 otherwise), so a
browser learns why.

A control ping is a request like any other to the session's rate (``WebSocketFraming``'s
``admit``, the connection's flood guard): each costs one, a read's pings are answered
(one pong) if one of them was admitted, and a ping flood is refused and then dropped
(``goodbye rate_limited``) as a flood of ``ping`` messages is. So is each frame of a
fragmented message past its first: the work is in the frames, and a message in 64 frames
charged as one request cost the server three times the CPU of the same bytes unfragmented.

>>> from wsproto.connection import Connection, ConnectionType
>>> frame = Connection(ConnectionType.CLIENT).send(TextMessage('{"type":"ping","id":1}'))
>>> codec = WebSocketCodec()
>>> codec.receive_data(frame[:5]); codec.next_message() is None
True
>>> codec.receive_data(frame[5:]); codec.next_message()
Ping(id=1)
>>> from protocol.messages import Pong
>>> codec.encode(Pong(id=1))
b'\\x81\\x16{"type":"pong","id":1}'
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from wsproto.connection import Connection, ConnectionState, ConnectionType
from wsproto.events import (
    BytesMessage,
    CloseConnection,
    Message,
    Ping,
    TextMessage,
)
from wsproto.frame_protocol import CloseReason

from protocol import messages as m
from protocol.errors import FATAL_CODES, RemoteProtocolError
from protocol.json_codec import decode as json_decode
from protocol.json_codec import encode as json_encode
from protocol.limits import DEFAULT_LIMITS, Limits
from server.core.limits import Verdict
from server.transport.errors import Closing
from server.transport.framing import Answered
from server.transport.shared_listing import json_tables

NAME = "websocket"

#: The close code that goes with a goodbye's or a fatal error's code.
CLOSE_CODES: dict[str, int] = {
    "quit": CloseReason.NORMAL_CLOSURE,
    "shutdown": CloseReason.GOING_AWAY,
    "too_large": CloseReason.MESSAGE_TOO_BIG,
    "bad_frame": CloseReason.PROTOCOL_ERROR,
    "internal": CloseReason.INTERNAL_ERROR,
    # refused for now, not for good: a flood's cool-off, an address's or the server's
    # connections all open (1013 Try Again Later)
    "rate_limited": CloseReason.TRY_AGAIN_LATER,
    "too_many_connections": CloseReason.TRY_AGAIN_LATER,
}


class SharedFrames:
    """The frame bytes of the last messages encoded, by the message's identity: a table
    hands one message object to everyone who sees it alike, and a server's frames are not
    masked, so every WebSocket sends the very same bytes (as ``SharedEncodings`` keeps the
    msgpack ones). It holds the message beside its bytes, so an identity is never reused
    while it is cached."""

    def __init__(self, size: int = 64) -> None:
        self._size = size
        self._entries: dict[int, tuple[m.Message, bytes]] = {}

    def get(self, message: m.Message) -> bytes | None:
        hit = self._entries.get(id(message))
        return hit[1] if hit is not None and hit[0] is message else None

    def put(self, message: m.Message, data: bytes) -> None:
        entries = self._entries
        if len(entries) >= self._size:
            del entries[next(iter(entries))]  # the oldest
        entries[id(message)] = (message, data)


_shared = SharedFrames()
#: what a control ping is to the session's admission: a request without an id
_CONTROL_PING = m.Ping()
#: what a message's frame past its first is charged as (a request with no id)
_CONTROL_FRAME = m.Ping()
_NO_EVENTS: deque[Any] = deque(maxlen=0)  #: appending to it keeps nothing
#: pings one read may bring; more is a flood, not a keep-alive (libraries ping every 20 s
#: or so, and browsers never do), and costs the server parsing that no rate limit counts
MAX_PINGS_AT_ONCE = 16
#: frames one message may come in (browsers send one; each costs a parse in Python, so a
#: message of a thousand one-byte frames is refused, not assembled)
MAX_FRAGMENTS = 64


class WebSocketCodec:
    """WebSocket frames in, messages out; messages in, frames out: one client's codec."""

    name = NAME

    __slots__ = (
        "_close_code",
        "_continued",
        "_control",
        "_failure",
        "_fragments",
        "_frame_bytes",
        "_message_bytes",
        "_parts",
        "_pings",
        "_pong",
        "_ready",
        "_ws",
        "limits",
        "max_frame_bytes",
        "peer_closed",
    )

    def __init__(
        self,
        limits: Limits = DEFAULT_LIMITS,
        max_frame_bytes: int = 1 << 16,
        trailing: bytes = b"",
    ) -> None:
        self.limits = limits
        self.max_frame_bytes = max_frame_bytes
        self._ws = ws = Connection(ConnectionType.SERVER)
        # wsproto queues one event of its own in this deque, and only when told the stream
        # ended (``receive_data(None)``), which is never done here; an empty deque costs
        # 760 bytes, the largest part of an idle WebSocket's framing, so every connection
        # shares one that stays empty.
        ws._events = _NO_EVENTS
        self._parts: list[str] = []  #: the text of the message being received, so far
        self._message_bytes = 0  #: its size in UTF-8 bytes, so far
        self._frame_bytes = 0  #: the size of the frame being received, so far
        self._fragments = 0  #: frames of the message being received, so far
        self._ready: deque[str] | None = None  #: whole messages not yet taken
        self._control = b""  #: control frames to write (the close answer)
        self._pong = b""  #: the pong to the latest ping not yet answered
        self._pings = 0  #: pings received since the framing last charged them
        #: frames past a message's first received since the framing last charged them
        self._continued = 0
        self._failure: RemoteProtocolError | None = None
        self._close_code = 0  #: the close frame a fatal error earns (0: none yet)
        self.peer_closed = False  #: the client sent a close frame (answered in ``outgoing``)
        if trailing:
            self.receive_data(trailing)

    # ------------------------------------------------------------- receiving
    def receive_data(self, data: bytes) -> None:
        """Bytes from the client; ``b""`` when it closed its side. Raises
        ``RemoteProtocolError`` (fatal) for a frame or message it must refuse."""
        if self._failure is not None:
            raise RemoteProtocolError(f"the stream already failed: {self._failure}", "bad_frame")
        if self.peer_closed:
            return
        if not data:
            if self._parts or self._message_bytes:
                raise self._fail("the stream ended in the middle of a message", "bad_frame")
            self.peer_closed = True
            return
        ws = self._ws
        ws.receive_data(data)
        pings = 0
        for event in ws.events():
            if isinstance(event, TextMessage):
                self._take_text(event)
            elif isinstance(event, Ping):
                pings += 1
                if pings > MAX_PINGS_AT_ONCE:
                    raise self._fail(f"more than {MAX_PINGS_AT_ONCE} pings at once", "bad_frame")
                # only the latest ping of a read is answered (RFC 6455 section 5.5.3 allows
                # it), so a flood of pings queues one pong, not one each
                self._pong = ws.send(event.response())
                self._pings += 1
            elif isinstance(event, CloseConnection):
                if ws.state is ConnectionState.REMOTE_CLOSING:  # the client closes
                    self._control += ws.send(event.response())
                    self.peer_closed = True
                    return
                # wsproto refused a frame (it reports that as a close it has not sent)
                raise self._fail(f"a bad WebSocket frame: {event.reason}", "bad_frame", event.code)
            elif isinstance(event, BytesMessage):
                raise self._fail(
                    "binary messages are not part of this protocol: send JSON text",
                    "bad_frame",
                    CloseReason.UNSUPPORTED_DATA,
                )
            # a Pong answers nothing we asked: ignored

    def _take_text(self, event: Message[str]) -> None:
        chunk = event.data
        size = len(chunk.encode("utf-8"))
        self._frame_bytes += size
        self._message_bytes += size
        if self._frame_bytes > self.max_frame_bytes:
            raise self._fail(
                f"a WebSocket frame over the limit of {self.max_frame_bytes} bytes", "too_large"
            )
        if self._message_bytes > self.limits.max_frame:
            raise self._fail(
                f"a message over the limit of {self.limits.max_frame} bytes", "too_large"
            )
        if chunk:
            self._parts.append(chunk)
        if event.frame_finished:
            self._frame_bytes = 0
            self._fragments += 1
            if self._fragments > 1:  # a frame past the message's first: work of its own
                self._continued += 1
            if self._fragments > MAX_FRAGMENTS:
                raise self._fail(f"a message in more than {MAX_FRAGMENTS} frames", "bad_frame")
        if event.message_finished:
            text = "".join(self._parts)
            self._parts = []
            self._message_bytes = 0
            self._fragments = 0
            if self._ready is None:
                self._ready = deque()
            self._ready.append(text)

    def next_message(self) -> m.Received | None:
        """The next whole message, or ``None`` until more data arrives."""
        ready = self._ready
        if not ready:
            return None
        text = ready.popleft()
        if not ready:
            self._ready = None
        try:
            return json_decode(text, self.limits)
        except RemoteProtocolError as exc:
            raise self._fail(str(exc), exc.code) from None

    @property
    def buffered(self) -> int:
        """Bytes held of a message not yet whole, or not yet taken (the message timer runs
        while this is not zero)."""
        pending = sum(map(len, self._ready)) if self._ready else 0
        return self._message_bytes + pending

    def _fail(self, why: str, code: str, close: int | None = None) -> RemoteProtocolError:
        exc = RemoteProtocolError(why, code)
        self._failure = exc
        self._close_code = close or CLOSE_CODES.get(code, CloseReason.POLICY_VIOLATION)
        self._parts = []
        self._ready = None
        return exc

    @property
    def failed(self) -> bool:
        return self._failure is not None

    # --------------------------------------------------------------- sending
    def outgoing(self) -> bytes:
        """Control frames to write now (and forget): pongs, the answer to a close."""
        data = self._pong + self._control
        self._pong = self._control = b""
        self._pings = 0
        return data

    def encode(self, message: m.Message) -> bytes:
        """One text frame holding ``message``; after a goodbye or a fatal error, the close
        frame too. Nothing once the WebSocket is closing (no data frame may follow a close)."""
        ws = self._ws
        if ws.state is not ConnectionState.OPEN:
            return b""
        # the error that answers the failure closes; an error answered before it in the
        # same read (an unknown type's) is one like any other
        final = type(message) is m.Goodbye or (
            self._failure is not None and type(message) is m.Error and message.code in FATAL_CODES
        )
        if not final:
            if type(message) is m.Tables:  # its listing encoded once for every reply
                return text_frame(json_tables(message))
            data = _shared.get(message)
            if data is None:
                data = text_frame(json_encode(message).encode())
                _shared.put(message, data)
            return data
        data = text_frame(json_encode(message).encode())
        # Final: a Goodbye or an Error (checked by type above), so it has a ``code``.
        code = CLOSE_CODES.get(message.code, CloseReason.POLICY_VIOLATION)  # type: ignore[attr-defined]
        if self._failure is not None:
            code = self._close_code
        return data + ws.send(CloseConnection(code=code, reason=message.code))  # type: ignore[attr-defined]


class WebSocketFraming(WebSocketCodec):
    """The codec as a connection's framing (``server.transport.framing.Framing``): the
    control frames to write come out of ``next_message`` as ``Answered`` bytes, in order
    with the replies, and a client's close, once answered, ends the connection
    (``Closing``): after a close no data frame may go out, so no goodbye is said."""

    __slots__ = ("admit",)
    kind = NAME
    person = False  #: a program (the web client is one): it names the table every time
    page_budget = None
    greeting = None

    def __init__(
        self,
        limits: Limits = DEFAULT_LIMITS,
        max_frame_bytes: int = 1 << 16,
        trailing: bytes = b"",
        admit: Callable[[m.Message], Verdict] | None = None,
    ) -> None:
        #: the session's admission (``ConnectionOps.admit``), which each ping goes
        #: through as a request does (None: pings cost nothing, a trusted peer's)
        self.admit = admit
        super().__init__(limits, max_frame_bytes, trailing)

    # The binding's own answers (a pong it made) come out beside the peer's messages.
    def next_message(self) -> m.Received | Answered | None:  # type: ignore[override]
        if self._continued and self.admit is not None:
            self._charge_frames()
        if self._pings and self.admit is not None:
            self._charge_pings()
        control = self.outgoing()
        if control:
            return Answered(control)
        if self.peer_closed:
            raise Closing
        return super().next_message()

    def _charge_pings(self) -> None:
        """Each ping received is a request to the session's rate: the pong goes only if
        one was admitted; a flooder is dropped (``Closing``: its goodbye is queued)."""
        admit, pings = self.admit, self._pings
        assert admit is not None
        self._pings = 0
        admitted = False
        for _ in range(pings):
            verdict = admit(_CONTROL_PING)
            if verdict is Verdict.DROP:
                self._pong = b""
                raise Closing
            admitted = admitted or verdict is Verdict.OK
        if not admitted:
            self._pong = b""

    def _charge_frames(self) -> None:
        """Each frame of a message past its first is a request to the session's rate, as
        the message itself is (charged when it is handled): a message in 64 frames costs
        what 64 messages do, for it is about as much work to take in. Over the rate each
        is refused (``error rate_limited``) as a request is; a flooder is dropped
        (``Closing``: its goodbye is queued)."""
        admit, frames = self.admit, self._continued
        assert admit is not None
        self._continued = 0
        for _ in range(frames):
            if admit(_CONTROL_FRAME) is Verdict.DROP:
                raise Closing

    def focus(self, table: int) -> None:
        """A program names the table in every request: nothing to remember."""


def text_frame(payload: bytes) -> bytes:
    """One unfragmented, unmasked text frame holding ``payload`` (UTF-8): what a server
    sends (RFC 6455 section 5.2). Written here rather than by wsproto's ``send``, which
    builds the same bytes through its state checks and a frame object: every message a
    table delivers is one, and the header is three lines of the RFC.

    >>> text_frame(b"hi"), text_frame(b"x" * 200)[:4], len(text_frame(b"x" * 70_000))
    (b'\\x81\\x02hi', b'\\x81~\\x00\\xc8', 70010)
    """
    n = len(payload)
    if n < 126:
        return bytes((0x81, n)) + payload
    if n < 1 << 16:
        return b"\x81\x7e" + n.to_bytes(2, "big") + payload
    return b"\x81\x7f" + n.to_bytes(8, "big") + payload
