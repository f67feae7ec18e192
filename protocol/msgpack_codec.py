"""The msgpack codec: length-prefixed frames, no I/O.

A frame is a 4-byte big-endian length, then that many bytes holding one
msgpack map (the message's ``to_map()``). The first byte a msgpack client
sends is therefore ``0x00`` (its hello is far below 16 MiB), which is how a
server tells it from a text client (``protocol.sniff``).

Sending: ``encode(message) -> bytes``. Receiving: one ``MsgpackDecoder`` per
connection; feed it what the socket gave and take messages out until it
says it needs more::

    decoder = MsgpackDecoder(limits)
    decoder.receive_data(chunk)          # may raise RemoteProtocolError
    while (msg := decoder.next_message()) is not None:
        if isinstance(msg, (UnknownMessage, InvalidMessage)):
            send(encode(msg.error()))   # the connection carries on
        else:
            handle(msg)
    decoder.receive_data(b"")            # end of stream: fails mid-frame

>>> from protocol.messages import Ping, Act
>>> data = encode(Ping(id=1)) + encode(Act("t1", "draw"))
>>> len(data), data[:4]
(54, b'\\x00\\x00\\x00\\x0f')
>>> d = MsgpackDecoder()
>>> d.receive_data(data)
>>> d.next_message(), d.next_message(), d.next_message()
(Ping(id=1), Act(table='t1', action='draw', id=None), None)

Limits (``protocol.limits.Limits``) are enforced before memory is
committed: the frame length is checked from the header, so a frame claiming
4 GiB fails as soon as its 4 header bytes arrive; string, binary, array and
map lengths are passed to msgpack, which checks each item's header before
allocating it; nesting depth (which msgpack cannot limit) is checked by an
iterative scan of the decoded map. The decoder holds at most one incomplete
frame (at most ``max_frame + 4`` bytes) plus the complete frames of the last
``receive_data`` call, so the caller bounds memory by how much it reads at a
time.

A frame that breaks any of these rules raises ``RemoteProtocolError`` (fatal:
send ``Error.answering(err)`` and close). After that the decoder is dead: every
later call raises again, so a broken stream is never parsed further. A
well-framed map of an unknown type or with a bad field is not fatal: it comes
out as an ``UnknownMessage`` or ``InvalidMessage`` whose ``error()`` is the
reply.
"""

from __future__ import annotations

import struct
import threading
from collections.abc import Callable
from typing import Any

import msgpack

from protocol.errors import LocalProtocolError
from protocol.framing import NO_PIECES, Splitter
from protocol.limits import DEFAULT_LIMITS, Limits
from protocol.messages import Message, Received, from_map

HEADER = struct.Struct(">I")
#: Bytes that open a map or array in msgpack: fixmap, fixarray, array16/32, map16/32.
_CONTAINER_BYTES = bytes([*range(0x80, 0xA0), 0xDC, 0xDD, 0xDE, 0xDF])
_pack = msgpack.Packer(use_bin_type=True, autoreset=True).pack


def _map_maker(cls: type[Message]) -> Callable[[Message], dict[str, Any]]:
    """``cls.to_map`` as straight-line code for msgpack: the same map, key for key and in
    the same order, each field read by name rather than by a loop over its declaration
    (the server encodes several messages per action, and the loop was most of it). A
    tuple is packed as it is (msgpack packs tuples as arrays), not copied to a list.
    Built from the class's own field names (identifiers), as ``dataclasses`` builds
    its ``__init__``."""
    lines = ["def to_map(self):", f"    out = {{'type': {cls.type!r}}}"]
    for name, _listed, omit_empty in cls._encoding:
        if not name.isidentifier():
            raise TypeError(f"{cls.__name__}: field {name!r} is not a name")
        lines.append(f"    v = self.{name}")
        lines.append(f"    if {'v' if omit_empty else 'v is not None'}: out[{name!r}] = v")
    lines.append("    return out")
    namespace: dict[str, Any] = {}
    exec("\n".join(lines), namespace)  # the field names are checked above
    maker: Callable[[Message], dict[str, Any]] = namespace["to_map"]
    return maker


#: each message class's ``_map_maker``, made when it is first encoded
_MAKERS: dict[type, Callable[[Message], dict[str, Any]]] = {}


def encode(message: Message, limits: Limits | None = None) -> bytes:
    """One frame holding ``message``. With ``limits``, refuse a frame the peer
    would refuse (``LocalProtocolError``)."""
    maker = _MAKERS.get(type(message))
    if maker is None:
        if not isinstance(message, Message):
            raise LocalProtocolError(f"{message!r} is not a wire message")
        maker = _MAKERS[type(message)] = _map_maker(type(message))
    return encode_map(maker(message), limits)


def encode_map(data: dict[str, Any], limits: Limits | None = None) -> bytes:
    """One frame holding an arbitrary map (tests and benchmarks use it)."""
    try:
        body: bytes = _pack(data)
    except (TypeError, ValueError, OverflowError) as exc:
        raise LocalProtocolError(f"cannot encode {data.get('type')!r}: {exc}") from None
    size = len(body)
    if size > (limits.max_frame if limits is not None else 0xFFFFFFFF):
        raise LocalProtocolError(f"a frame of {size} bytes is over the limit")
    return HEADER.pack(size) + body


def depth_ok(obj: Any, limit: int) -> bool:
    """Whether maps and arrays nest at most ``limit`` deep (``obj`` itself is 1).

    Breadth-first, level by level, so a deep input cannot exhaust the stack.

    >>> depth_ok({"a": [1, {"b": []}]}, 4), depth_ok({"a": [1, {"b": []}]}, 3)
    (True, False)
    """
    level = [obj] if type(obj) is dict or type(obj) is list else []
    depth = 0
    while level:
        depth += 1
        if depth > limit:
            return False
        nxt: list[Any] = []
        for item in level:
            values = item.values() if type(item) is dict else item
            kinds = set(map(type, values))  # one C pass over the leaves
            if dict in kinds or list in kinds:
                nxt.extend([v for v in values if type(v) is dict or type(v) is list])
        level = nxt
    return True


#: One streaming unpacker per thread and per set of limits, shared by every decoder:
#: frames are length-prefixed and each is fed whole and unpacked at once, so no
#: decoder ever leaves anything in it (one that fails discards it). Why shared: an
#: Unpacker costs 41 KiB (its 1,024-entry stack), which one per connection made most
#: of what an idle connection cost; why not ``unpackb(body, **options)``: its options
#: are parsed on every call, which cost more than unpacking a small message.
_shared = threading.local()


def _unpacker(limits: Limits) -> msgpack.Unpacker:
    """This thread's unpacker for ``limits``."""
    unpackers: dict[Limits, msgpack.Unpacker] | None = getattr(_shared, "unpackers", None)
    if unpackers is None:
        unpackers = _shared.unpackers = {}
    unpacker = unpackers.get(limits)
    if unpacker is None:
        unpacker = unpackers[limits] = msgpack.Unpacker(
            raw=False,
            use_list=True,
            strict_map_key=True,
            max_buffer_size=max(limits.max_frame, 1024),
            max_str_len=limits.max_str,
            max_bin_len=limits.max_bin,
            max_array_len=limits.max_array,
            max_map_len=limits.max_map,
            max_ext_len=0,
        )
    return unpacker


def _discard_unpacker(limits: Limits) -> None:
    """Forget this thread's unpacker for ``limits`` (it failed mid-frame: it may hold
    bytes of a broken frame); the next frame gets a fresh one."""
    getattr(_shared, "unpackers", {}).pop(limits, None)


#: The longest text greeting a client's decoder skips before its first frame.
MAX_GREETING = 1024


class MsgpackDecoder(Splitter):
    """Bytes in, messages out, for one connection (either side).

    ``skip_greeting`` is for a client: a server greets a connection that has said
    nothing for half a second with one line of text (for a person at ``nc``), and a
    client slowed down before its ``hello`` (a loaded machine, a slow start) gets that
    line before its first frame. A frame's first byte is ``0x00`` and the line's is a
    letter, so the decoder drops the bytes up to and including the first ``\\n`` when
    the stream starts with anything but ``0x00`` (docs/protocol.md, "The opening").

    >>> from protocol.messages import Ping
    >>> d = MsgpackDecoder(skip_greeting=True)
    >>> d.feed(b"Switchboard: a server for the Switch card games.\\n" + encode(Ping(id=1)))
    [Ping(id=1)]
    """

    name = "msgpack"  #: the codec's name, as ``protocol.sniff`` says it

    def __init__(self, limits: Limits = DEFAULT_LIMITS, skip_greeting: bool = False) -> None:
        super().__init__(limits)
        #: What has come of a greeting so far; ``None`` once past it (or not looking).
        self._greeting: bytes | None = b"" if skip_greeting else None

    def _past_greeting(self, data: bytes | bytearray) -> bytes:
        """``data`` without the greeting line the stream may open with (held until whole)."""
        assert self._greeting is not None
        held = self._greeting + bytes(data)
        if held[0] == 0:  # a frame: no greeting came
            self._greeting = None
            return held
        end = held.find(b"\n")
        if end < 0:
            if len(held) > MAX_GREETING:
                raise self._fail(f"the stream opens with {len(held)} bytes that are no frame")
            self._greeting = held
            return b""
        self._greeting = None
        return held[end + 1 :]

    def receive_data(self, data: bytes | bytearray) -> None:  # noqa: C901 (the hot path: one loop)
        """Add bytes from the peer; ``b""`` means the stream ended."""
        self._check()
        if self._greeting is not None and data:
            data = self._past_greeting(data)
            if not data:
                return
        if not data:
            if self._buffer:
                raise self._fail("the stream ended in the middle of a frame")
            self._eof = True
            return
        if self._eof:
            raise LocalProtocolError("data received after the end of the stream")
        buf = self._buffer
        if buf:
            buf += data
            data = buf  # frames are cut from the buffer, which then drops them
        elif type(data) is not bytes:
            data = bytes(data)  # a caller's bytearray or memoryview may be reused
        max_frame = self.limits.max_frame
        chunks = self._pieces()
        start = 0
        end = len(data)
        while end - start >= 4:
            (size,) = HEADER.unpack_from(data, start)
            if size > max_frame:
                raise self._fail(
                    f"a frame of {size} bytes is over the limit of {max_frame}", "too_large"
                )
            if size == 0:
                raise self._fail("an empty frame")
            if end - start - 4 < size:
                break
            chunks.append(data[start + 4 : start + 4 + size])
            start += 4 + size
        if not chunks:  # no whole frame yet: keep no empty deque
            self._chunks = NO_PIECES
        if data is buf:
            if start:
                del buf[:start]
        elif start < end:
            buf += memoryview(data)[start:]

    def next_message(self) -> Received | None:
        """The next message, or ``None`` until more data arrives."""
        self._check()
        if not self._chunks:
            return None
        body = self._take()
        unpacker = _unpacker(self.limits)
        start = unpacker.tell()
        try:
            unpacker.feed(body)
            data = unpacker.unpack()
        except ValueError as exc:  # msgpack's errors (limits, format) are ValueErrors
            _discard_unpacker(self.limits)
            text = str(exc)
            code = "too_large" if "exceeds max" in text else "bad_frame"
            raise self._fail(
                f"bad msgpack in a frame: {text or type(exc).__name__}", code
            ) from None
        except msgpack.OutOfData:
            _discard_unpacker(self.limits)
            raise self._fail("bad msgpack in a frame: the frame ends inside its map") from None
        except Exception as exc:  # anything else msgpack might raise on hostile input
            _discard_unpacker(self.limits)
            raise self._fail(f"bad msgpack in a frame: {type(exc).__name__}") from None
        if unpacker.tell() - start != len(body):
            _discard_unpacker(self.limits)  # the rest of the frame is still in its buffer
            raise self._fail("bad msgpack in a frame: extra data after the map")
        if type(data) is not dict:
            raise self._fail("a frame must hold one map")
        # Depth <= the number of container headers, and every byte that could be
        # one is counted (string bytes too): below the limit, no scan is needed.
        headers = len(body) - len(body.translate(None, _CONTAINER_BYTES))
        if headers > self.limits.max_depth and not depth_ok(data, self.limits.max_depth):
            raise self._fail(f"a message nests deeper than {self.limits.max_depth}", "too_deep")
        return from_map(data)

    def encode(self, message: Message) -> bytes:
        """``encode(message)``: so a decoder serves as a connection's whole codec,
        with the same three methods as ``ServerTextCodec``."""
        return encode(message, self.limits)

    def feed(self, data: bytes) -> list[Received]:
        """``receive_data`` then every complete message (a convenience)."""
        self.receive_data(data)
        out = []
        while (msg := self.next_message()) is not None:
            out.append(msg)
        return out
