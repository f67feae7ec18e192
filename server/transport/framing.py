"""Framings: a binding's sans-I/O codec as a connection's shell and session use it.

A framing turns the bytes a shell reads into messages (``receive_data``,
``next_message``) and messages into the bytes a shell writes (``encode``), and
says, as data, whatever the session above must know of the binding (``person``,
``page_budget``, ``focus``), so that no handler ever asks which codec is in
use. It does no I/O: the shell (``server.transport.connection``) owns the
socket; a framing only holds the bytes of a message not yet whole.

Some of what a peer sends is the binding's own business, not a request to the
server (text mode's ``format json``); the framing answers it itself, as an
``Answered`` the shell queues like any reply, in order.

Two framings here, one per binding on the game port:

- ``MsgpackFraming``: length-prefixed msgpack frames (``protocol.msgpack_codec``);
  for programs. What a table sends alike to many connections is encoded once
  (``SharedEncodings``), and so is the lobby's listing that every ``tables`` reply
  holds until a table changes (``server.transport.shared_listing``).
- ``TextFraming``: lines for a person at ``nc`` or a script
  (``protocol.text_codec.ServerTextCodec``); replies are sentences until the
  peer asks for ``format json``; the lobby's listing, here too, is written once for
  every reply that shares it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Protocol

from protocol import messages as m
from protocol.limits import Limits
from protocol.msgpack_codec import MsgpackDecoder
from protocol.msgpack_codec import encode as msgpack_encode
from protocol.sniff import MSGPACK, TEXT
from protocol.text_codec import ServerTextCodec, TextFormat
from protocol.text_rules import TextRules
from server.core import wire
from server.transport.shared_listing import msgpack_tables, text_tables


@dataclass(frozen=True, slots=True)
class Answered:
    """What the binding says itself to something the peer sent for it alone (text
    mode's ``format``): a reply message, or bytes of the binding's own."""

    reply: m.Message | bytes


class Framing(Protocol):
    """What a shell and a session need of a binding's codec.

    The shell: ``receive_data`` (``b""``: the stream ended; may raise
    ``RemoteProtocolError``, after which the framing is dead), ``next_message``
    (each whole message, or ``None`` until more bytes come), ``buffered`` (bytes of
    a message begun, for the message timer), ``encode``. The session: ``person``,
    ``page_budget`` and ``focus``, the only ways bindings differ above the shell."""

    @property
    def kind(self) -> str:
        """The binding's name: ``statistics()`` and the logs show it."""

    @property
    def person(self) -> bool:
        """A person may be typing: the creator of a table sits at it at once, and it
        becomes the table that bare table commands mean (as the terminal client does)."""

    @property
    def page_budget(self) -> int | None:
        """The most bytes one record page may encode to (a text line's limit), or None."""

    @property
    def buffered(self) -> int: ...

    def receive_data(self, data: bytes) -> None: ...

    def next_message(self) -> m.Received | Answered | None: ...

    def encode(self, message: m.Message) -> bytes: ...

    def focus(self, table: int) -> None:
        """Make ``table`` the one the peer's bare table commands mean."""


class SharedEncodings:
    """The msgpack bytes of the last messages encoded, by the message's identity.

    A table builds one message per distinct view (an event everyone sees alike, the
    spectators' turn) and hands that very object to every connection that sees it;
    each connection encodes as it writes, one after the other, so a small cache of
    the latest ones encodes each once. It holds the message itself beside its bytes,
    so an identity is never reused while it is cached. The text framing is not cached:
    its lines depend on the connection (its current table).

    A ``tables`` reply is a message of its own per request (its ``id``); its bulk, the
    lobby's listing, is encoded once for every reply that shares it
    (``server.transport.shared_listing``)."""

    def __init__(self, size: int = 64) -> None:
        self._size = size
        self._entries: dict[int, tuple[m.Message, bytes]] = {}

    def encode(self, message: m.Message) -> bytes:
        key = id(message)
        hit = self._entries.get(key)
        if hit is not None and hit[0] is message:
            return hit[1]
        if type(message) is m.Tables:  # its own id: not worth caching whole
            return msgpack_tables(message)
        data = msgpack_encode(message)
        entries = self._entries
        if len(entries) >= self._size:
            del entries[next(iter(entries))]  # the oldest
        entries[key] = (message, data)
        return data


_shared = SharedEncodings()


class MsgpackFraming:
    """Length-prefixed msgpack frames: a program's binding."""

    kind = MSGPACK
    person = False
    page_budget = None
    greeting: ClassVar[bytes | None] = None

    __slots__ = ("_decoder", "next_message", "receive_data")

    def __init__(self, limits: Limits) -> None:
        self._decoder = decoder = MsgpackDecoder(limits)
        # bound once: the reader calls these for every message
        self.receive_data = decoder.receive_data
        self.next_message = decoder.next_message

    @property
    def buffered(self) -> int:
        """Bytes held of messages not yet taken (after ``next_message``: of a partial one)."""
        return self._decoder.buffered

    @staticmethod
    def encode(message: m.Message) -> bytes:
        return _shared.encode(message)

    def focus(self, table: int) -> None:
        """A program names the table in every request: nothing to remember."""


class TextFraming:
    """Lines: a person at ``nc`` (sentences) or a script (``format json``)."""

    kind = TEXT
    person = True
    #: what a person at ``nc`` is told first (``Connection`` says it when the first
    #: line is a bare Enter); one line (a client's decoder skips one), in the binding's
    #: own words, that fits 80 columns
    greeting: ClassVar[bytes | None] = (
        b"Switchboard: the Switch card games. Type help, or name YOURNAME to begin.\n"
    )

    __slots__ = ("_codec", "page_budget", "receive_data")

    def __init__(self, limits: Limits) -> None:
        self._codec = codec = ServerTextCodec(limits)
        self.receive_data = codec.receive_data
        #: a text client reads a record page as one line: no longer than a line may be
        self.page_budget: int | None = limits.max_line

    @property
    def buffered(self) -> int:
        return self._codec.buffered

    def encode(self, message: m.Message) -> bytes:
        """The message's lines; a lobby listing's from lines made once for every reply
        that shares it (``server.transport.shared_listing``)."""
        if type(message) is m.Tables and (data := text_tables(message, self._codec.format)):
            return data
        return self._codec.encode(message)

    def next_message(self) -> m.Received | Answered | None:
        message = self._codec.next_message()
        if isinstance(message, TextFormat):  # text mode's own: answered here
            return Answered(self._codec.set_format(message))
        if isinstance(message, TextRules):
            return Answered(self._codec.rules(message))
        return message

    def focus(self, table: int) -> None:
        self._codec.table = wire.table_word(table)


#: the framing of each binding the game port speaks, by ``protocol.sniff``'s name
FRAMINGS: dict[str, type[MsgpackFraming] | type[TextFraming]] = {
    MSGPACK: MsgpackFraming,
    TEXT: TextFraming,
}
