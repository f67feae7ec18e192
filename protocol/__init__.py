"""Switchboard's wire protocol, sans I/O: bytes in, messages out; messages in, bytes out.

- ``protocol.messages``: every message as a small frozen class validated when
  built (``Act(table="t1", action="play QH", id=3)``), ``TYPES``, ``from_map``.
- ``protocol.payloads``: the maps messages carry (a view, an event, a table in the
  lobby, a person online, a profile's ratings, a page of history), each declared once
  as a TypedDict, so mypy checks every key a server writes and a client reads.
- ``protocol.msgpack_codec``: ``encode(msg) -> bytes`` and ``MsgpackDecoder``
  (4-byte length-prefixed msgpack maps, with ``protocol.limits.Limits``).
- ``protocol.text_codec``: ``ServerTextCodec`` / ``ClientTextCodec``, one line
  per message, for people at ``nc`` and shell scripts.
- ``protocol.commands``: ``parse_command(line, table)`` -> message, shared by the
  terminal client's command line and text mode; ``help_lines``, ``format_command``.
- ``protocol.state``: ``Session`` (the state table: what may be sent when) and
  ``negotiate(hello)`` -> ``Welcome`` or a ``bad_version`` ``Error``.
- ``protocol.sniff``: which codec a connection speaks, from its first byte.
- ``protocol.errors``: ``LocalProtocolError`` (our misuse) and
  ``RemoteProtocolError`` (the peer's bad input; ``.code``, ``.fatal``; the
  reply is ``messages.Error.answering(err)``), and the stable error ``CODES``.

docs/protocol.md is the full specification.
"""

from protocol import messages as _messages
from protocol.commands import CommandError, format_command, help_lines, parse_command
from protocol.errors import CODES, LocalProtocolError, ProtocolError, RemoteProtocolError
from protocol.limits import DEFAULT_LIMITS, Limits
from protocol.messages import *  # noqa: F403
from protocol.messages import PROTOCOL, TYPES, VERSIONS, InvalidMessage, Message, UnknownMessage
from protocol.msgpack_codec import MsgpackDecoder, encode
from protocol.sniff import MSGPACK, TEXT, sniff
from protocol.state import Session, State, negotiate
from protocol.text_codec import ClientTextCodec, ServerTextCodec, format_line, parse_line

__all__ = [
    "CODES",
    "DEFAULT_LIMITS",
    "MSGPACK",
    "PROTOCOL",
    "TEXT",
    "TYPES",
    "VERSIONS",
    "ClientTextCodec",
    "CommandError",
    "InvalidMessage",
    "Limits",
    "LocalProtocolError",
    "Message",
    "MsgpackDecoder",
    "ProtocolError",
    "RemoteProtocolError",
    "ServerTextCodec",
    "Session",
    "State",
    "UnknownMessage",
    "encode",
    "format_command",
    "format_line",
    "help_lines",
    "negotiate",
    "parse_command",
    "parse_line",
    "sniff",
    *_messages.__all__,
]
