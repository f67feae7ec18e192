"""How a server makes itself known on the LAN, and how a client reads what it said.

A server advertises one DNS-SD service (RFC 6763) of type ``_switchboard._tcp`` by
multicast DNS: its instance name is the server's name, its SRV record the port, and its
TXT record says, in ``key=value`` strings, what a client needs to choose before it
connects. This module is the vocabulary both sides share (no sockets: the server's
``server.discovery.mdns`` and the client's ``client.net.discovery`` do the multicast):

- ``txtvers``: the TXT record's own format, ``1`` (RFC 6763 §6.7);
- ``proto``: the protocol name, ``switchboard``;
- ``versions``: the protocol versions the server speaks, comma-separated (``1``);
- ``name``: the server's name as a person should read it (UTF-8);
- ``tables``: how many tables are open on it now (waiting or playing).

>>> txt = txt_record("Dave's den", (1,), 3)
>>> txt
{'txtvers': '1', 'proto': 'switchboard', 'versions': '1', 'name': "Dave's den", 'tables': '3'}
>>> found = read_txt({k.encode(): v.encode() for k, v in txt.items()})
>>> found.name, found.versions, found.tables
("Dave's den", (1,), 3)
>>> read_txt({b"versions": b"x,2", b"tables": b"many"})  # garbage is read as nothing known
Advertised(name='', versions=(2,), tables=None)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from protocol.messages import PROTOCOL

#: The DNS-SD service type, fully qualified as multicast DNS writes it.
SERVICE_TYPE = "_switchboard._tcp.local."

#: The TXT record's own format version (RFC 6763 §6.7: "txtvers").
TXT_VERSION = "1"

#: An instance name is one DNS label: at most 63 bytes of UTF-8 (RFC 6763 §4.1.1).
MAX_INSTANCE_BYTES = 63


@dataclass(frozen=True, slots=True)
class Advertised:
    """What a server's TXT record says of it; ``tables`` is None when it did not say."""

    name: str
    versions: tuple[int, ...]
    tables: int | None


def instance_name(name: str) -> str:
    """``name`` cut to one DNS label (63 bytes of UTF-8, never mid-character).

    >>> instance_name("den"), len(instance_name("é" * 40).encode())
    ('den', 62)
    """
    data = name.encode()[:MAX_INSTANCE_BYTES]
    return data.decode(errors="ignore").strip() or "switchboard"


def txt_record(name: str, versions: tuple[int, ...], tables: int) -> dict[str, str]:
    """The TXT record's strings for a server called ``name`` with ``tables`` open."""
    return {
        "txtvers": TXT_VERSION,
        "proto": PROTOCOL,
        "versions": ",".join(str(v) for v in versions),
        "name": name,
        "tables": str(tables),
    }


def _text(value: bytes | None) -> str:
    return value.decode(errors="replace") if value else ""


def read_txt(properties: Mapping[bytes, bytes | None]) -> Advertised:
    """What a TXT record says, read leniently: a client shows a server whatever junk its
    record holds, so an unreadable field is read as unknown rather than refused."""
    versions = tuple(
        int(part)
        for part in _text(properties.get(b"versions")).split(",")
        if part.strip().isdigit()
    )
    tables = _text(properties.get(b"tables")).strip()
    return Advertised(
        name=_text(properties.get(b"name")),
        versions=versions,
        tables=int(tables) if tables.isdigit() else None,
    )
