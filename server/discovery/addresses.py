"""The addresses friends on the LAN can type to reach this server, the best one first.

``switchboard serve`` listens on every interface by default, and a person hosting a game
night needs to tell his friends one address. The machine's own IPv4 addresses come from
the interfaces themselves (Linux: one ``SIOCGIFADDR`` ioctl per interface, no network
traffic), else from the host name's entry; loopback and link-local addresses are left
out, since no friend can reach them.

Which address is the one to show first (the QR code's): a laptop with Docker or a VPN has
bridges whose addresses (``172.17.0.1`` on ``docker0``) no friend can reach, and they are
often numerically lowest. The best address is the one of the interface that carries the
default route (``/proc/net/route``; elsewhere the source address a UDP socket would use
towards a documentation address: ``connect`` on a UDP socket sends nothing), unless that
interface is itself a bridge or a tunnel; else the first private LAN address that is not on
one (``bridged``); else the first address there is.

>>> reachable("192.168.1.20"), reachable("127.0.0.1"), reachable("169.254.3.4")
(True, False, False)
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import struct
from collections.abc import Sequence
from typing import NamedTuple

SIOCGIFADDR = 0x8915  # Linux: an interface's IPv4 address

#: Interface names of container bridges, virtual machines' networks and VPN tunnels: no
#: friend in the room reaches their addresses (a prefix each; ``bridged``).
BRIDGE_PREFIXES = (
    "docker", "br-", "veth", "virbr", "vnet", "vboxnet", "vmnet", "lxcbr", "lxdbr", "incusbr",
    "podman", "cni", "flannel", "cali", "kube", "tun", "tap", "wg", "tailscale", "utun",
    "zt", "ppp", "ipsec", "nordlynx", "proton",
)  # fmt: skip

#: A documentation address (TEST-NET-2): where a UDP socket is "connected" to learn the
#: source address of the default route; nothing is ever sent to it.
_PROBE = ("198.51.100.1", 9)


class Interface(NamedTuple):
    """One IPv4 address of one network interface (``name`` empty: not known)."""

    name: str
    address: str


def bridged(name: str) -> bool:
    """Whether interface ``name`` is a container or VM bridge or a VPN tunnel.

    >>> bridged("docker0"), bridged("br-3f2a"), bridged("wg0"), bridged("wlan0"), bridged("")
    (True, True, True, False, False)
    """
    return name.lower().startswith(BRIDGE_PREFIXES)


def reachable(address: str) -> bool:
    """Whether another machine could reach ``address`` (not loopback, not link-local); a
    host name other than ``localhost`` is taken to be reachable."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address.lower() != "localhost"
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified)


def _from_interfaces() -> list[Interface]:
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
                found.append(Interface(name, socket.inet_ntoa(reply[20:24])))
    return found


def _from_host_name() -> list[Interface]:
    with contextlib.suppress(OSError):
        return [Interface("", a) for a in socket.gethostbyname_ex(socket.gethostname())[2]]
    return []


def default_route_interface(table: str) -> str | None:
    r"""The interface of the default route in ``table``, the text of Linux's
    ``/proc/net/route`` (the lowest metric of the routes to 0.0.0.0/0 that are up).

    >>> default_route_interface(
    ...     "Iface\tDestination\tGateway\tFlags\tRefCnt\tUse\tMetric\tMask\n"
    ...     "docker0\t000011AC\t00000000\t0001\t0\t0\t0\t0000FFFF\n"
    ...     "wlan0\t00000000\t0101A8C0\t0003\t0\t0\t600\t00000000\n"
    ...     "eth0\t00000000\t0101A8C0\t0003\t0\t0\t100\t00000000\n")
    'eth0'
    """
    best: tuple[int, str] | None = None
    for line in table.splitlines()[1:]:
        fields = line.split()
        if len(fields) < 8 or fields[1] != "00000000" or fields[7] != "00000000":
            continue
        try:
            up, metric = int(fields[3], 16) & 1, int(fields[6])
        except ValueError:
            continue
        if up and (best is None or metric < best[0]):
            best = (metric, fields[0])
    return None if best is None else best[1]


def _default_route() -> tuple[str | None, str | None]:
    """The default route's interface (Linux) and the source address it would use (a UDP
    socket's ``connect`` picks it and sends nothing); None for what is not known."""
    interface = source = None
    with contextlib.suppress(OSError), open("/proc/net/route", encoding="ascii") as f:
        interface = default_route_interface(f.read())
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(_PROBE)
        source = s.getsockname()[0]
    return interface, source


def ranked(
    found: Sequence[Interface], route_interface: str | None = None, route_source: str | None = None
) -> list[str]:
    """The reachable addresses of ``found``, the best first (the default route's, unless
    it is a bridge's; else the first private address not on a bridge), then the others:
    those not on a bridge, then the bridges', each in numeric order.

    >>> home = [Interface("docker0", "172.17.0.1"), Interface("wlan0", "192.168.1.20"),
    ...         Interface("lo", "127.0.0.1"), Interface("br-1a", "172.18.0.1")]
    >>> ranked(home, "wlan0")
    ['192.168.1.20', '172.17.0.1', '172.18.0.1']
    >>> ranked(home)  # no route known: the first private LAN address off the bridges
    ['192.168.1.20', '172.17.0.1', '172.18.0.1']
    """
    usable = {a.address: a for a in found if reachable(a.address)}

    def key(address: str) -> tuple[bool, ipaddress.IPv4Address | ipaddress.IPv6Address]:
        return bridged(usable[address].name), ipaddress.ip_address(address)

    order = sorted(usable, key=key)
    best = next((a for a in order if route_interface and usable[a].name == route_interface), None)
    if best is None and route_source in usable:
        best = route_source
    if best is None or bridged(usable[best].name):
        private = [a for a in order if ipaddress.ip_address(a).is_private]
        best = next(
            (a for a in private if not bridged(usable[a].name)), order[0] if order else None
        )
    return [] if best is None else [best, *(a for a in order if a != best)]


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses that a friend on the LAN could type, the best first
    (``ranked``)."""
    try:
        candidates = _from_interfaces() or _from_host_name()
    except OSError:
        candidates = _from_host_name()
    return ranked(candidates, *_default_route())


def addresses_for(host: str | None) -> list[str]:
    """What a friend on the LAN can type to reach a server listening on ``host``: every LAN
    address of this machine when it listens on all of them, ``host`` itself when another
    machine could reach it, nothing when it listens on loopback only."""
    if host in (None, "", "0.0.0.0", "::"):
        return lan_addresses()
    return [host] if reachable(host) else []


def invitations(host: str | None, port: int) -> list[str]:
    """What a host tells his friends: three lines for the best address a friend on the
    LAN could reach, ``switchboard play``, a browser's URL and ``nc``, then the machine's
    other addresses on a line (or more, if they do not fit one). Listening on loopback
    only (or with no LAN address), the three lines for the loopback address, the one that
    works on this machine. Each stays short (62 columns at most with an IPv4 address), so
    the line a host reads out never wraps inside the address on an 80-column console, even
    behind the time of day or a log level.

    >>> for line in invitations("192.168.1.20", 7373):
    ...     print(line)
    friends connect with: switchboard play 192.168.1.20:7373
            or a browser: http://192.168.1.20:7373/
            or text mode: nc 192.168.1.20 7373, then Enter
    >>> invitations("127.0.0.1", 7373)[0]
    'on this machine only: switchboard play 127.0.0.1:7373'
    """
    found = addresses_for(host)
    if found:
        return _three_ways("friends connect with", found[0], port) + _others(found[1:])
    if (loopback := _loopback_for(host)) is not None:
        return _three_ways("on this machine only", loopback, port)
    return []


#: The widest an ``_others`` line may be: 80 columns less the human console's time.
_OTHERS_WIDTH = 80 - len("20:15:02 ") - 1


def _others(addresses: Sequence[str]) -> list[str]:
    """The other addresses, as few lines as hold them, under the three ways' lead.

    >>> _others(["10.0.0.2", "172.17.0.1"])
    ['     other addresses: 10.0.0.2, 172.17.0.1']
    >>> [len(line) for line in _others(["255.255.255.%d" % n for n in range(200, 206)])]
    [55, 55, 54]
    """
    lines: list[str] = []
    line = "     other addresses:"
    for n, address in enumerate(addresses):
        word = f" {address}" + ("," if n < len(addresses) - 1 else "")
        if len(line) + len(word) > _OTHERS_WIDTH and not line.endswith(":"):
            lines.append(line)
            line = " " * 21
        line += word
    return [*lines, line] if addresses else []


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
