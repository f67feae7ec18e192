"""Whom an HTTP request on the game port comes from, and whether its ``Host`` is one this
server answers to: loopback's trust is for the server's own machine, not for whatever
reaches it through loopback.

Two things arrive from loopback that are not the machine's owner:

- everyone behind a reverse proxy on the same machine (the TLS proxy that
  docs/operations.md recommends): every browser's connection comes from ``127.0.0.1``;
- a page of another site in the machine's own browser, whose name the attacker
  re-pointed at ``127.0.0.1`` (DNS rebinding): its ``Host`` and ``Origin`` match, so
  the Origin check lets it through.

And one arrives from the LAN that is not what it seems: a page of another site whose
name the attacker re-pointed at this server's LAN address, in a LAN visitor's
browser, which then plays in the visitor's name.

So every request, from wherever it comes, must name this server in its ``Host``: by
``localhost``, an IP literal, the machine's own names (its host name, and the
``.local`` names multicast DNS gives it) or one of the operator's ``http_hosts``
(``host_allowed``); any other name is refused (421), which ends DNS rebinding, since a
rebound name is none of them. (Any IP literal, not only this machine's addresses: a
browser sends the address it was given, a name can be rebound but an address cannot,
and the machine's addresses change under a running server.) Then, for a request from
a loopback peer (or from a configured proxy):

- it keeps its peer's address, and so loopback's trust, only when it is plainly the
  machine's own browser or script (``client_address``): a loopback ``Host``, an
  ``Origin`` (if any) on loopback, and no forwarding header. Anything else is counted
  as ``proxied:PEER``, an address no setting trusts, which all such connections share.
  (A loopback address with no trust, ``127.0.0.2`` say, is counted as itself either
  way: as two addresses, with and without a forwarding header, it had two sets of
  budgets);
- from an address in ``http_proxies``, the client's own address is the last one of its
  ``X-Forwarded-For`` (the hop that proxy added; earlier hops are whatever the client
  wrote), so each client has its own budgets; without the header, ``proxied:PEER``.

>>> policy = HttpPolicy(hosts=frozenset({"cards.example"}))
>>> client_address("127.0.0.1", {"host": "localhost:7373"}, policy)
'127.0.0.1'
>>> client_address("127.0.0.1", {"host": "cards.example"}, policy)
'proxied:127.0.0.1'
>>> client_address("127.0.0.1", {"host": "127.0.0.1", "x-forwarded-for": "1.2.3.4"}, policy)
'proxied:127.0.0.1'
>>> behind = HttpPolicy(proxies=frozenset({"127.0.0.1"}))
>>> client_address("127.0.0.1", {"x-forwarded-for": "6.6.6.6, 203.0.113.9"}, behind)
'203.0.113.9'
>>> host_allowed("evil.example:7373", policy.hosts), host_allowed("[::1]:7373", policy.hosts)
(False, True)
>>> host_allowed(own_names()[0] + ".local:7373")
True
"""

from __future__ import annotations

import functools
import ipaddress
import re
import socket
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from server.core.limits import address_key

#: Headers a proxy adds: a request that carries one came through a proxy.
FORWARDING_HEADERS = ("forwarded", "x-forwarded-for", "x-real-ip", "x-forwarded-host")
#: The prefix of the address a proxied request is counted as when its client is unknown.
PROXIED = "proxied:"


@dataclass(frozen=True, slots=True)
class HttpPolicy:
    """The operator's settings that say whom HTTP requests come from."""

    hosts: frozenset[str] = frozenset()  #: ``http_hosts``: names besides localhost and IPs
    proxies: frozenset[str] = frozenset()  #: ``http_proxies``: whose X-Forwarded-For counts
    ipv6_prefix: int = 64  #: a forwarded IPv6 client is counted as its network of these bits
    keep: frozenset[str] = frozenset()  #: addresses counted as themselves (``address_key``)
    #: addresses with a trust to lose (``trusted_addresses``, ``operator_addresses``);
    #: None: every loopback address. A peer with none is counted as itself, proxy or not
    trusted: frozenset[str] | None = None

    @classmethod
    def of(
        cls,
        hosts: Iterable[str],
        proxies: Iterable[str],
        ipv6_prefix: int = 64,
        keep: Iterable[str] = (),
        trusted: Iterable[str] | None = None,
    ) -> HttpPolicy:
        return cls(
            frozenset(h.lower().rstrip(".") for h in hosts),
            frozenset(proxies),
            ipv6_prefix,
            frozenset(keep),
            None if trusted is None else frozenset(trusted),
        )


@functools.cache
def own_names() -> tuple[str, ...]:
    """This machine's names, lower case: its host name (short, and whole if it has a
    domain). Its multicast DNS names are these with ``.local``, and this server's own
    (``HOST-ID.local``, which the LAN advertisement's records point at)."""
    whole = socket.gethostname().lower().rstrip(".")
    short = whole.split(".")[0]
    return tuple(dict.fromkeys(n for n in (short, whole) if n))


def _mdns_name(name: str) -> bool:
    """Whether ``name`` is one of this machine's ``.local`` names."""
    if not name.endswith(".local"):
        return False
    label = name.removesuffix(".local")
    short = own_names()[0] if own_names() else ""
    if not short:
        return False
    advertised = re.sub(r"[^a-z0-9-]", "-", short)
    return label == short or (label.startswith(advertised + "-") and "." not in label)


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        address = ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def is_loopback(address: str) -> bool:
    """``127.0.0.0/8``, ``::1`` (and ``::ffff:127.x``).

    >>> is_loopback("127.0.0.2"), is_loopback("::1"), is_loopback("10.0.0.1"), is_loopback("?")
    (True, True, False, False)
    """
    ip = _ip(address)
    return ip is not None and ip.is_loopback


def host_name(host: str | None) -> str | None:
    """The name or address of a ``Host`` header (port and IPv6 brackets gone, lower case).

    >>> host_name("Game.Example:7373"), host_name("[::1]:80"), host_name("::1"), host_name(None)
    ('game.example', '::1', '::1', None)
    """
    if host is None:
        return None
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].partition("]")[0]
    if host.count(":") == 1:
        host = host.partition(":")[0]
    return host.rstrip(".")


def loopback_host(host: str | None) -> bool:
    """Whether ``host`` names this machine's loopback: ``localhost`` or a loopback IP."""
    name = host_name(host)
    return name is not None and (name == "localhost" or is_loopback(name))


def host_allowed(host: str | None, hosts: Iterable[str] = ()) -> bool:
    """Whether a request for ``host`` is answered: ``localhost``, any IP literal, this
    machine's own names (``own_names``, and its ``.local`` ones) or a name in ``hosts``
    (``http_hosts``). A request with no ``Host`` is refused too: HTTP/1.1 requires one,
    and every browser sends it."""
    name = host_name(host)
    if not name:
        return False
    return (
        name == "localhost"
        or _ip(name) is not None
        or name in hosts
        or name in own_names()
        or _mdns_name(name)
    )


def _origin_on_loopback(origin: str | None) -> bool:
    if origin is None:
        return True
    scheme, _, rest = origin.partition("://")
    return scheme in ("http", "https") and loopback_host(rest.partition("/")[0])


def client_address(peer: str, headers: Mapping[str, str], policy: HttpPolicy) -> str:
    """The address a request from ``peer`` is counted as (``headers`` by lower-case
    name): ``peer`` itself, the client a configured proxy names, or ``proxied:PEER``
    (the module's docstring says when)."""
    if peer in policy.proxies:
        forwarded = headers.get("x-forwarded-for")
        last = None if forwarded is None else _ip(forwarded.rpartition(",")[2])
        if last is None:
            return PROXIED + peer
        return address_key(str(last), policy.ipv6_prefix, policy.keep)
    if is_loopback(peer) and (policy.trusted is None or peer in policy.trusted):
        plain = (
            loopback_host(headers.get("host"))
            and _origin_on_loopback(headers.get("origin"))
            and not any(name in headers for name in FORWARDING_HEADERS)
        )
        if not plain:
            return PROXIED + peer
    return peer
