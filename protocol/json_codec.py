"""The JSON codec: one message per WebSocket text message, no I/O.

The WebSocket binding (docs/protocol.md, "WebSocket") carries the same messages as the
msgpack frames: each WebSocket text message holds one JSON object with exactly the fields
of the message's msgpack map (``Message.to_map()``: the same names, the same types, ``null``
fields left out). The WebSocket layer finds where a message ends; this module turns one
message's text into a message and a message into its text.

Sending: ``encode(message) -> str``. Receiving: one ``JsonDecoder`` per connection::

    decoder = JsonDecoder(limits)
    msg = decoder.decode(text)          # may raise RemoteProtocolError (fatal)
    if isinstance(msg, (UnknownMessage, InvalidMessage)):
        send(encode(msg.error()))       # the connection carries on
    else:
        handle(msg)

>>> from protocol.messages import Act, Ping
>>> encode(Act("t1", "draw", id=4))
'{"type":"act","table":"t1","action":"draw","id":4}'
>>> JsonDecoder().decode('{"type": "ping", "id": 1, "colour": "blue"}')
Ping(id=1)

The decode limits are the msgpack codec's (``protocol.limits.Limits``) with the same error
codes, so a client sees the same errors whichever binding it speaks: a message over
``max_frame`` bytes of UTF-8 is ``too_large`` before it is parsed; a string over ``max_str``
bytes, an array over ``max_array`` items or an object over ``max_map`` members is
``too_large``; nesting deeper than ``max_depth`` is ``too_deep``; anything that is not one
JSON object, and what msgpack could not carry (an integer outside -2^63..2^64-1, a number
too big for a double, ``NaN``, a lone surrogate), is ``bad_frame``. Each of those is fatal:
the decoder is dead afterwards, as the msgpack decoder is. A well-formed object of an unknown
type or with a bad field comes out as an ``UnknownMessage`` or ``InvalidMessage``, exactly
as from msgpack (the same ``protocol.messages.from_map``).

Why the standard library's ``json``: its C scanner is as fast as any for messages this
small, and judged end to end (bench/websocket.py) the WebSocket round trip is dominated by
the server's work, not the parse. Why checks after parsing rather than as msgpack does,
from each item's header: JSON has no headers. The whole text is bounded first (at most
``max_frame`` bytes, so the parse commits at most a small multiple of that), and the
walk over the parsed value that checks the other limits runs only when a cheap bound on
the text says some limit could be broken (a text shorter than ``max_str`` holds no string
longer; a text with fewer brackets than ``max_depth`` nests no deeper; and so on).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from protocol.errors import LocalProtocolError, RemoteProtocolError
from protocol.limits import DEFAULT_LIMITS, Limits
from protocol.messages import Message, Received, from_map

NAME = "json"

#: The integers a msgpack map can hold: what a JSON message may hold too.
MIN_INT = -(1 << 63)
MAX_INT = (1 << 64) - 1

_encoder = json.JSONEncoder(
    ensure_ascii=False, separators=(",", ":"), allow_nan=False, check_circular=False
)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


_decoder = json.JSONDecoder(parse_constant=_no_constant)

#: Text that may hold something only the full walk can judge: a long run of digits (an
#: integer out of range, or a float that overflows), a large exponent, a \\u escape of a
#: surrogate (a lone one is not a character).
_SUSPECT = re.compile(r"\d{19}|[eE][+-]?\d{3}|\\u[dD][89a-fA-F]")


def encode(message: Message, limits: Limits | None = None) -> str:
    """The JSON text of ``message``. With ``limits``, refuse a text the peer would refuse
    (``LocalProtocolError``)."""
    if not isinstance(message, Message):
        raise LocalProtocolError(f"{message!r} is not a wire message")
    return encode_map(message.to_map(), limits)


def encode_map(data: Mapping[str, Any], limits: Limits | None = None) -> str:
    """The JSON text of an arbitrary map (tests and benchmarks use it)."""
    try:
        text = _encoder.encode(data)
    except (TypeError, ValueError, OverflowError, RecursionError) as exc:
        raise LocalProtocolError(f"cannot encode {data.get('type')!r}: {exc}") from None
    if limits is not None and _utf8_size(text, limits.max_frame) > limits.max_frame:
        raise LocalProtocolError(f"a message of {len(text.encode())} bytes is over the limit")
    return text


def _utf8_size(text: str, bound: int) -> int:
    """The UTF-8 size of ``text``, or any number over ``bound`` once it is sure to be
    (without encoding a text too long to matter). Raises ``UnicodeEncodeError`` for a
    lone surrogate."""
    if len(text) > bound:
        return len(text)
    if len(text) * 4 <= bound and text.isascii():
        return len(text)
    return len(text.encode("utf-8"))


def within_limits(data: Any, limits: Limits) -> str | None:  # noqa: C901 (one walk, every limit)
    """``None`` if ``data`` (a parsed JSON value) keeps every limit msgpack would check, else
    the error code and why, as ``"code: words"``. Level by level, so deep input cannot
    exhaust the stack. A size broken anywhere wins over nesting, as in msgpack (which
    refuses an item from its header while it unpacks, and counts depth afterwards).

    >>> within_limits({"a": [1, {"b": []}]}, Limits(max_depth=3))
    'too_deep: a message nests deeper than 3'
    >>> within_limits({"a": "é" * 3}, Limits(max_str=5))
    'too_large: a string of 6 bytes is over the limit of 5'
    """
    level = [data]
    depth = 0
    max_str = limits.max_str
    while level:
        depth += 1
        nxt: list[Any] = []
        for item in level:
            if type(item) is dict:
                if len(item) > limits.max_map:
                    return f"too_large: an object of {len(item)} members is over the limit"
                values: Any = item.values()
                strings = list(item)
            else:
                if len(item) > limits.max_array:
                    return f"too_large: an array of {len(item)} items is over the limit"
                values = item
                strings = []
            for value in values:
                kind = type(value)
                if kind is str:
                    strings.append(value)
                elif kind is int:
                    if not MIN_INT <= value <= MAX_INT:
                        return "bad_frame: an integer outside -2^63..2^64-1"
                elif kind is float:
                    if value - value != 0.0:  # inf (nan is refused by the parser)
                        return "bad_frame: a number too large for a double"
                elif kind is dict or kind is list:
                    nxt.append(value)
            for text in strings:
                try:
                    size = _utf8_size(text, max_str)
                except UnicodeEncodeError:
                    return "bad_frame: a string holds a lone surrogate (not a character)"
                if size > max_str:
                    return f"too_large: a string of {size} bytes is over the limit of {max_str}"
        level = nxt
    if depth > limits.max_depth:
        return f"too_deep: a message nests deeper than {limits.max_depth}"
    return None


def decode(text: str, limits: Limits = DEFAULT_LIMITS) -> Received:
    """The message ``text`` (one whole WebSocket text message) holds; no state, so a
    connection that keeps its own failure needs no decoder object (``JsonDecoder`` keeps
    it for one that does not). Raises ``RemoteProtocolError`` (fatal) for text that is not
    one JSON object within ``limits``.

    >>> decode('{"type":"pong","id":2}')
    Pong(id=2)
    """
    try:
        size = _utf8_size(text, limits.max_frame)
    except UnicodeEncodeError:
        raise RemoteProtocolError("a message holds a lone surrogate (not a character)") from None
    if size > limits.max_frame:
        raise RemoteProtocolError(
            f"a message of {size} bytes is over the limit of {limits.max_frame}", "too_large"
        )
    try:
        data = _decoder.decode(text)
    except RecursionError:
        raise RemoteProtocolError(
            f"a message nests deeper than {limits.max_depth}", "too_deep"
        ) from None
    except ValueError as exc:  # JSONDecodeError, a constant, too many digits
        raise RemoteProtocolError(f"bad JSON in a message: {_first_line(exc)}") from None
    if type(data) is not dict:
        raise RemoteProtocolError("a message must hold one JSON object")
    if _may_break_limits(text, size, limits):
        broken = within_limits(data, limits)
        if broken is not None:
            code, _, words = broken.partition(": ")
            raise RemoteProtocolError(words, code)
    return from_map(data)


class JsonDecoder:
    """Message texts in, messages out, for one connection (either side); dead after its
    first fatal error, as ``MsgpackDecoder`` is."""

    name = NAME  #: the codec's name

    def __init__(self, limits: Limits = DEFAULT_LIMITS) -> None:
        self.limits = limits
        #: why the stream broke (message, code), once it has; words, not the exception
        #: (a raised exception's traceback would hold the connection that owns this)
        self._failure: tuple[str, str] | None = None

    @property
    def failed(self) -> bool:
        """True once a message was refused as malformed; the decoder is then never used."""
        return self._failure is not None

    def decode(self, text: str) -> Received:
        """The message one WebSocket text message holds.

        Raises ``RemoteProtocolError`` (fatal: answer ``Error.answering(err)`` and close)
        for text that is not one JSON object within the limits."""
        if self._failure is not None:
            message, code = self._failure
            raise RemoteProtocolError(f"the stream already failed: {message}", code)
        try:
            return decode(text, self.limits)
        except RemoteProtocolError as exc:
            self._failure = (str(exc), exc.code)
            raise

    def feed(self, texts: list[str]) -> list[Received]:
        """Every message of ``texts`` (a convenience for tests)."""
        return [self.decode(text) for text in texts]


def _may_break_limits(text: str, size: int, limits: Limits) -> bool:
    """Whether some limit could be broken by the value ``text`` parsed to; False is sure.

    A string is no longer than the text; an array's items or an object's members number
    at most the commas plus one; nesting is at most the opening brackets."""
    if size > limits.max_str:
        return True
    commas = text.count(",")
    if commas >= limits.max_array or commas >= limits.max_map:
        return True
    if text.count("[") + text.count("{") > limits.max_depth:
        return True
    return _SUSPECT.search(text) is not None


def _first_line(exc: Exception) -> str:
    return str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__


__all__ = [
    "MAX_INT",
    "MIN_INT",
    "NAME",
    "JsonDecoder",
    "decode",
    "encode",
    "encode_map",
    "within_limits",
]
