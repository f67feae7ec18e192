"""Advertise the server on the LAN by multicast DNS service discovery.

A friend at a game night should not need to be told an address: ``switchboard play``
browses for ``_switchboard._tcp`` services and lists what it finds. This module is the
server's half, built on ``zeroconf`` (the maintained pure-Python mDNS/DNS-SD
implementation; writing our own responder would mean probing, conflict resolution and
goodbye packets done again). ``zeroconf`` runs its own thread and asyncio loop, so every
call that may block (registering probes the name for about 1.5 s) runs in a trio worker
thread and the event loop that serves the tables never waits for it.

Every record a server publishes is its own. Two Raspberry Pis that kept the default
host name and port are the normal case at a game night, so neither the machine's host
name nor the port tells two servers apart; their addresses do (no two machines on one
LAN share one). Each advertisement carries an id made from the addresses it advertises
and its port (``instance_id``): the SRV record's target host is
``HOST-ID.local.``, whose A records are this server's alone, and the service's
instance label ends in the id, so two servers of one name are two services. The name a
person reads is the TXT record's ``name``, without the id. Should labels still meet
(the same id: never on one LAN), zeroconf's probing renames ours
(``allow_name_change``), RFC 6762's conflict resolution.

Advertising is best effort: a machine with no multicast, or a name taken by another
server, is logged once and the server serves on unadvertised. The TXT record (see
``protocol.discovery``) carries the open tables' count, refreshed when it changes, at
most once per ``refresh_seconds``, so the LAN's multicast traffic stays small.
"""

from __future__ import annotations

import functools
import hashlib
import ipaddress
import logging
import re
import socket
from collections.abc import Callable, Sequence
from typing import Any

import trio

from protocol.discovery import MAX_INSTANCE_BYTES, SERVICE_TYPE, instance_name, txt_record
from protocol.messages import VERSIONS
from server.discovery.addresses import addresses_for

log = logging.getLogger("switchboard.discovery")


def default_server_name() -> str:
    """``Switchboard on HOST``: what a LAN list shows when the operator named nothing."""
    return f"Switchboard on {socket.gethostname().split('.')[0] or 'this machine'}"


def advertised_addresses(host: str | None) -> list[str]:
    """The IPv4 addresses to put in the advertisement of a server listening on ``host``:
    every LAN address when it listens on all of them, its own when that is one a friend can
    reach, none when it listens on loopback only (no other machine could connect)."""
    return [a for a in addresses_for(host) if _ipv4(a)]


def _ipv4(address: str) -> bool:
    """Whether ``address`` is an IPv4 literal (a host name cannot go in an A record)."""
    try:
        return ipaddress.ip_address(address).version == 4
    except ValueError:
        return False


def instance_id(addresses: Sequence[str], port: int) -> str:
    """Six hex digits that tell this advertisement from any other on the LAN: a hash of
    the addresses it advertises and its port (the pair no other server can hold).

    >>> instance_id(["192.168.1.20"], 7373) == instance_id(["192.168.1.20"], 7373)
    True
    >>> instance_id(["192.168.1.20"], 7373) != instance_id(["192.168.1.21"], 7373)
    True
    """
    key = ",".join(sorted(addresses)) + f"/{port}"
    return hashlib.sha256(key.encode()).hexdigest()[:6]


def service_label(name: str, ident: str) -> str:
    """The DNS-SD instance label: ``name`` then the id, within one DNS label.

    >>> service_label("Switchboard on pi", "a1b2c3")
    'Switchboard on pi [a1b2c3]'
    >>> len(service_label("x" * 80, "a1b2c3").encode())
    63
    """
    tail = f" [{ident}]"
    room = MAX_INSTANCE_BYTES - len(tail.encode())
    return name.encode()[:room].decode(errors="ignore").rstrip() + tail


def host_label(ident: str) -> str:
    """The SRV record's target: this machine's host name and the id, one DNS label.

    >>> host_label("a1b2c3").endswith("-a1b2c3.local.")
    True
    """
    host = re.sub(r"[^A-Za-z0-9-]", "-", socket.gethostname().split(".")[0]) or "switchboard"
    return f"{host[: 62 - len(ident)]}-{ident}.local."


class Advertiser:
    """One advertised service, kept up to date while ``run`` runs and withdrawn when it ends.

    ``tables`` is asked for the open tables' count; ``interfaces`` restricts the
    multicast to those interface addresses (None: every interface)."""

    def __init__(
        self,
        name: str,
        port: int,
        addresses: Sequence[str],
        tables: Callable[[], int],
        *,
        interfaces: Sequence[str] | None = None,
        refresh_seconds: float = 5.0,
    ) -> None:
        self.name = instance_name(name)
        self.port = port
        self.addresses = list(addresses)
        self.id = instance_id(self.addresses, port)
        #: The service's instance label (the name plus the id), before any probing.
        self.label = service_label(self.name, self.id)
        self.tables = tables
        self.interfaces = list(interfaces) if interfaces is not None else None
        self.refresh_seconds = refresh_seconds
        #: Set once the service is registered (tests and the log wait for it).
        self.registered = trio.Event()
        self.advertised_name: str | None = None

    def _info(self, tables: int) -> Any:
        from zeroconf import ServiceInfo

        # The SRV record's target: a host name of this server's own, so that its A
        # records never mix with another responder's: avahi's for the machine, a second
        # server's on another port, or another machine's of the same host name.
        return ServiceInfo(
            SERVICE_TYPE,
            f"{self.label}.{SERVICE_TYPE}",
            addresses=[socket.inet_aton(a) for a in self.addresses],
            port=self.port,
            properties=txt_record(self.name, VERSIONS, tables),
            server=host_label(self.id),
        )

    def _open(self) -> Any:
        from zeroconf import InterfaceChoice, IPVersion, Zeroconf

        interfaces = self.interfaces if self.interfaces is not None else InterfaceChoice.All
        return Zeroconf(interfaces=interfaces, ip_version=IPVersion.V4Only)

    async def run(self) -> None:
        """Advertise until cancelled; any failure of the network is logged, never raised."""
        try:
            zc = await trio.to_thread.run_sync(self._open)
        except (OSError, ImportError) as exc:
            log.warning("not advertised on the LAN: %s", exc)
            return
        try:
            await self._advertise(zc)
        finally:
            with trio.CancelScope(shield=True):  # withdraw: the goodbye packets go out
                await trio.to_thread.run_sync(zc.close)

    async def _advertise(self, zc: Any) -> None:
        count = self.tables()
        info = self._info(count)
        register = functools.partial(zc.register_service, info, allow_name_change=True)
        try:
            # abandoned on cancel: a shutdown does not wait out the name's probing
            await trio.to_thread.run_sync(register, abandon_on_cancel=True)
        except Exception as exc:  # zeroconf's own errors and the socket's alike
            log.warning("not advertised on the LAN: %s", exc)
            return
        self.advertised_name = info.name
        self.registered.set()
        log.info(
            "advertised on the LAN as %r (%s) at %s",
            info.name.removesuffix("." + SERVICE_TYPE),
            SERVICE_TYPE.removesuffix(".local."),
            ", ".join(self.addresses),
        )
        failing = False
        while True:
            await trio.sleep(self.refresh_seconds)
            now = self.tables()
            if now == count:
                continue
            info = self._info(now)
            info.name = self.advertised_name  # the name probing settled on
            try:
                await trio.to_thread.run_sync(zc.update_service, info, abandon_on_cancel=True)
            except Exception as exc:
                if not failing:
                    log.warning("the LAN advertisement was not updated: %s", exc)
                failing = True
                continue
            failing, count = False, now
