"""Advertise the server on the LAN by multicast DNS service discovery.

A friend at a game night should not need to be told an address: ``switchboard play``
browses for ``_switchboard._tcp`` services and lists what it finds. This module is the
server's half, built on ``zeroconf`` (the maintained pure-Python mDNS/DNS-SD
implementation; writing our own responder would mean probing, conflict resolution and
goodbye packets done again). ``zeroconf`` runs its own thread and asyncio loop, so every
call that may block (registering probes the name for about 1.5 s) runs in a trio worker
thread and the event loop that serves the tables never waits for it.

Advertising is best effort: a machine with no multicast, or a name taken by another
server, is logged once and the server serves on unadvertised. The TXT record (see
``protocol.discovery``) carries the open tables' count, refreshed when it changes, at
most once per ``refresh_seconds``, so the LAN's multicast traffic stays small.
"""

from __future__ import annotations

import functools
import ipaddress
import logging
import re
import socket
from collections.abc import Callable, Sequence
from typing import Any

import trio

from protocol.discovery import SERVICE_TYPE, instance_name, txt_record
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
        self.tables = tables
        self.interfaces = list(interfaces) if interfaces is not None else None
        self.refresh_seconds = refresh_seconds
        #: Set once the service is registered (tests and the log wait for it).
        self.registered = trio.Event()
        self.advertised_name: str | None = None

    def _info(self, tables: int) -> Any:
        from zeroconf import ServiceInfo

        # The SRV record's target: a host name of this server's own, so that its A
        # records never mix with another responder's for the machine (avahi's, or a
        # second server's on another port).
        host = re.sub(r"[^A-Za-z0-9-]", "-", socket.gethostname().split(".")[0]) or "switchboard"
        return ServiceInfo(
            SERVICE_TYPE,
            f"{self.name}.{SERVICE_TYPE}",
            addresses=[socket.inet_aton(a) for a in self.addresses],
            port=self.port,
            properties=txt_record(self.name, VERSIONS, tables),
            server=f"{host}-switchboard-{self.port}.local.",
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
