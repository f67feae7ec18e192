"""Which binding a new connection speaks, from its first bytes.

One port speaks every binding; the client's first bytes say which:

- msgpack: the first byte is ``0x00`` (the top byte of its hello frame's length);
- HTTP: the first line is a request line, ``METHOD TARGET HTTP/x.y`` (a browser, and
  the WebSocket that its page opens; another version than 1.x, such as HTTP/2's
  preface ``PRI * HTTP/2.0``, is HTTP too, for the HTTP server to refuse as HTTP);
- text: the first byte is an ASCII letter (a command: ``hello``, ``name ann``, ``help``)
  and the first line is no HTTP request line.

Anything else is refused. Blank lines and spaces before the first byte that counts
are not part of it (a person at ``nc`` may press Enter first): the caller strips
them (``strip_blanks``). A text line and an HTTP request line both start with a
letter, so until the first line is whole, or has gone past what a request line
could be, the answer may be ``WAIT`` (read more); ``whole=True`` says no more will
come, and then a letter means text.

>>> sniff(b"\\x00\\x00\\x00\\x1c"), sniff(b"name ann s3cret"), sniff(b"\\xff"), sniff(b"")
('msgpack', 'text', None, 'wait')
>>> sniff(b"GET /ws HTTP/1.1\\r\\n"), sniff(b"GET /ws HT"), sniff(b"help\\n"), sniff(b"help")
('http', 'wait', 'text', 'wait')
>>> sniff(b"help", whole=True), sniff(b"", whole=True), strip_blanks(b"  \\r\\n\\nhelp")
('text', None, b'help')
"""

from __future__ import annotations

import re

MSGPACK = "msgpack"
TEXT = "text"
HTTP = "http"
WAIT = "wait"

#: the bytes a person's client may send before its first line: spaces, tabs, line ends
BLANKS = b" \t\r\n"
#: a first line longer than this without its end is text (whose own limit then applies),
#: unless it is a method and the start of a target: a long URL, which HTTP refuses (431)
MAX_REQUEST_LINE = 4096

_METHOD = rb"[!#$%&'*+.^_`|~0-9A-Za-z-]+"
#: a whole HTTP request line (RFC 9112 3: method token, target, version)
_REQUEST_LINE = re.compile(_METHOD + rb" [^ \r\n]+ HTTP/[0-9](?:\.[0-9])?\r?")
#: every beginning of one: what may still turn out to be a request line
_VERSION_PREFIX = rb"(?:H(?:T(?:T(?:P(?:/(?:[0-9](?:\.(?:[0-9]\r?)?|\r)?)?)?)?)?)?)?"
_REQUEST_PREFIX = re.compile(_METHOD + rb"(?: (?:[^ \r\n]+(?: " + _VERSION_PREFIX + rb")?)?)?")
#: a method and the start of its target, past ``MAX_REQUEST_LINE``: a request line
_LONG_REQUEST = re.compile(_METHOD + rb" [^ \r\n]+")


def strip_blanks(data: bytes) -> bytes:
    """``data`` without the blank lines and spaces before its first other byte."""
    return data.lstrip(BLANKS)


def sniff(first: bytes, *, whole: bool = False) -> str | None:
    """The binding of a connection whose first bytes (blanks stripped) are ``first``:
    ``MSGPACK``, ``TEXT``, ``HTTP``; ``WAIT`` to read more first; ``None`` to refuse.
    ``whole``: no more bytes will come before the answer (a deadline passed)."""
    if not first:
        return None if whole else WAIT
    byte = first[0]
    if byte == 0:
        return MSGPACK
    if not (0x41 <= byte <= 0x5A or 0x61 <= byte <= 0x7A):
        return None
    end = first.find(b"\n")
    if end >= 0:
        return HTTP if _REQUEST_LINE.fullmatch(first, 0, end) else TEXT
    if len(first) >= MAX_REQUEST_LINE:
        return HTTP if _LONG_REQUEST.fullmatch(first, 0, MAX_REQUEST_LINE) else TEXT
    if whole or not _REQUEST_PREFIX.fullmatch(first):
        return TEXT
    return WAIT
