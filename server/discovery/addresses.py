"""The addresses friends on the LAN can type to reach this server.

``switchboard serve`` listens on every interface by default, and a person hosting a game
night needs to tell his friends one address. The machine's own IPv4 addresses come from
the interfaces themselves (Linux: one ``SIOCGIFADDR`` ioctl per interface, no network
traffic), else from the host name's entry; loopback and link-local addresses are left
out, since no friend can reach them.

>>> reachable("192.168.1.20"), reachable("127.0.0.1"), reachable("169.254.3.4")
(True, False, False)
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import struct

SIOCGIFADDR = 0x8915  # Linux: an interface's IPv4 address


def reachable(address: str) -> bool:
    """Whether another machine could reach ``address`` (not loopback, not link-local); a
    host name other than ``localhost`` is taken to be reachable."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address.lower() != "localhost"
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified)


def _from_interfaces() -> list[str]:
    try:
        import fcntl
    except ImportError:  # not Linux or another Unix: no ioctl to ask
        return []
    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _index, name in socket.if_nameindex():
            request = struct.pack("256s", name.encode()[:15])
            with contextlib.suppress(OSError):  # an interface with no IPv4 address
                reply = fcntl.ioctl(s.fileno(), SIOCGIFADDR, request)
                found.append(socket.inet_ntoa(reply[20:24]))
    return found


def _from_host_name() -> list[str]:
    with contextlib.suppress(OSError):
        return socket.gethostbyname_ex(socket.gethostname())[2]
    return []


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses that a friend on the LAN could type, in a stable order."""
    try:
        candidates = _from_interfaces() or _from_host_name()
    except OSError:
        candidates = _from_host_name()
    return sorted({a for a in candidates if reachable(a)}, key=ipaddress.ip_address)


def addresses_for(host: str | None) -> list[str]:
    """What a friend on the LAN can type to reach a server listening on ``host``: every LAN
    address of this machine when it listens on all of them, ``host`` itself when another
    machine could reach it, nothing when it listens on loopback only."""
    if host in (None, "", "0.0.0.0", "::"):
        return lan_addresses()
    return [host] if reachable(host) else []


def invitations(host: str | None, port: int) -> list[str]:
    """What a host tells his friends, three lines an address a friend on the LAN could
    reach: ``switchboard play``, a browser's URL and ``nc``. Listening on loopback only
    (or with no LAN address), the same three lines for the loopback address, the one that
    works on this machine. Each stays short (62 columns at most with an IPv4 address), so the line a
    host reads out never wraps inside the address on an 80-column console, even behind
    the time of day or a log level.

    >>> for line in invitations("192.168.1.20", 7373):
    ...     print(line)
    friends connect with: switchboard play 192.168.1.20:7373
            or a browser: http://192.168.1.20:7373/
            or text mode: nc 192.168.1.20 7373, then Enter
    >>> invitations("127.0.0.1", 7373)[0]
    'on this machine only: switchboard play 127.0.0.1:7373'
    """
    lines = []
    for address in addresses_for(host):
        lines += _three_ways("friends connect with", address, port)
    if not lines and (loopback := _loopback_for(host)) is not None:
        lines = _three_ways("on this machine only", loopback, port)
    return lines


def _loopback_for(host: str | None) -> str | None:
    """The loopback address that reaches a server on ``host`` when no other machine can:
    ``host`` itself when it is loopback, ``127.0.0.1`` when it listens everywhere (a
    machine with no LAN address), None for an address nobody here can type usefully.

    >>> _loopback_for("127.0.0.1"), _loopback_for("::1"), _loopback_for(None)
    ('127.0.0.1', '::1', '127.0.0.1')
    """
    if not host or host in ("0.0.0.0", "::"):
        return "127.0.0.1"
    if host.lower() == "localhost":
        return host
    try:
        return host if ipaddress.ip_address(host).is_loopback else None
    except ValueError:
        return None


def _three_ways(lead: str, address: str, port: int) -> list[str]:
    """``switchboard play``, a browser's URL and ``nc`` for one address, under ``lead``
    (20 columns, so the three line up)."""
    where = f"[{address}]:{port}" if ":" in address else f"{address}:{port}"
    return [
        f"{lead}: switchboard play {where}",
        f"        or a browser: http://{where}/",
        f"        or text mode: nc {address} {port}, then Enter",
    ]
