"""Which codec a new connection speaks, from its first byte.

A msgpack client's first byte is ``0x00`` (the top byte of its hello frame's
length); a text client's is a printable ASCII letter (the first letter of a
command, e.g. ``h`` of ``hello`` or ``n`` of ``name``). Anything else is
refused.

>>> sniff(b"\\x00\\x00\\x00\\x1c"), sniff(b"name ann s3cret"), sniff(b"\\xff"), sniff(b"")
('msgpack', 'text', None, None)
"""

from __future__ import annotations

MSGPACK = "msgpack"
TEXT = "text"


def sniff(first: bytes) -> str | None:
    """``"msgpack"``, ``"text"``, or ``None`` (refuse the connection; or, for
    ``b""``, wait for a byte)."""
    if not first:
        return None
    byte = first[0]
    if byte == 0:
        return MSGPACK
    if 0x41 <= byte <= 0x5A or 0x61 <= byte <= 0x7A:
        return TEXT
    return None
