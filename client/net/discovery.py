"""Find the Switchboard servers on the LAN (multicast DNS service discovery).

``switchboard play`` with no address lists the servers that answer within about a
second beside the choice to play offline, and ``switchboard play --list`` prints them for
scripts. The server's half and the TXT record's words are ``server.discovery.mdns`` and
``protocol.discovery``. The browse is synchronous: it runs before the client's event
loops start, and ``zeroconf`` keeps its own thread.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from protocol.discovery import SERVICE_TYPE, read_txt

#: How long a browse listens. A server's answer arrives after about 1.1 s (its responder
#: delays and aggregates multicast answers, RFC 6762 §6), so 1.5 s finds every server
#: that is up without making a person wait long.
BROWSE_SECONDS = 1.5


@dataclass(frozen=True, slots=True)
class FoundServer:
    """One server that answered: where to connect and what its TXT record says."""

    name: str
    host: str
    port: int
    versions: tuple[int, ...]
    tables: int | None

    @property
    def address(self) -> str:
        """``HOST:PORT``, what ``switchboard play`` takes."""
        return f"{self.host}:{self.port}"

    def line(self) -> str:
        """A line of ``switchboard play --list``: address first, tab-separated, for scripts.

        >>> FoundServer("den", "192.168.1.20", 7373, (1,), 2).line()
        '192.168.1.20:7373\\tden\\ttables=2\\tversions=1'
        """
        tables = "?" if self.tables is None else str(self.tables)
        versions = ",".join(str(v) for v in self.versions) or "?"
        return f"{self.address}\t{self.name}\ttables={tables}\tversions={versions}"


def _found(info: Any) -> FoundServer | None:
    addresses = info.parsed_addresses()
    if not addresses or not info.port:
        return None
    said = read_txt(info.properties or {})
    name = said.name or info.name.removesuffix("." + SERVICE_TYPE)
    return FoundServer(name, addresses[0], info.port, said.versions, said.tables)


def browse(
    seconds: float = BROWSE_SECONDS, *, interfaces: Sequence[str] | None = None
) -> list[FoundServer]:
    """The servers that answer within ``seconds``, sorted by name; [] when the machine
    has no multicast (or no ``zeroconf``): a client then simply finds nothing."""
    try:
        from zeroconf import (
            InterfaceChoice,
            IPVersion,
            ServiceBrowser,
            ServiceInfo,
            ServiceStateChange,
            Zeroconf,
        )
    except ImportError:
        return []
    names: set[str] = set()
    lock = threading.Lock()

    def seen(zeroconf: Any, service_type: str, name: str, state_change: Any) -> None:
        if state_change is not ServiceStateChange.Removed:
            with lock:
                names.add(name)

    try:
        zc = Zeroconf(
            interfaces=list(interfaces) if interfaces is not None else InterfaceChoice.All,
            ip_version=IPVersion.V4Only,
        )
    except OSError:
        return []
    found: dict[str, FoundServer] = {}
    try:
        browser = ServiceBrowser(zc, SERVICE_TYPE, handlers=[seen])
        deadline = time.monotonic() + seconds
        time.sleep(seconds)
        browser.cancel()
        with lock:
            pending = sorted(names)
        for name in pending:
            info = ServiceInfo(SERVICE_TYPE, name)
            if not info.load_from_cache(zc):  # the answer usually carries every record
                wait_ms = max(100, int((deadline + 0.5 - time.monotonic()) * 1000))
                if not info.request(zc, wait_ms):
                    continue
            server = _found(info)
            if server is not None:  # one entry a service: two servers of one name are two
                found[name] = server
    finally:
        with contextlib.suppress(Exception):
            zc.close()
    return sorted(found.values(), key=lambda s: (s.name.lower(), s.address))


def speaks_ours(server: FoundServer) -> bool:
    """Whether this client can talk to ``server`` (an old record that says no versions is
    tried: the handshake will tell)."""
    from protocol.messages import VERSIONS

    return not server.versions or bool(set(server.versions) & set(VERSIONS))


def pick_server(
    servers: Sequence[FoundServer], ask: Callable[[str], str], say: Callable[[str], None]
) -> FoundServer | None:
    """Ask a person which server to join; None: play offline against bots. Enter picks
    the first server listed that we can join (marked ``*``): a person who looked for
    servers and found one means to play there; with none to join, Enter plays offline. A
    server that speaks none of our versions is listed but cannot be picked, so nobody is
    sent into a handshake that must fail.

    >>> den = FoundServer("den", "10.0.0.2", 7373, (1,), 2)
    >>> answers = iter(["x", "5", ""])
    >>> pick_server([den], lambda _p: next(answers), print).name
    Servers on this LAN:
    * 1  den  10.0.0.2:7373  2 tables
      0  play offline against bots
    type a number from 0 to 1
    type a number from 0 to 1
    'den'
    """
    say("Servers on this LAN:")
    width = max(len(s.name) for s in servers)
    default = next((s for s in servers if speaks_ours(s)), None)
    for i, s in enumerate(servers, 1):
        tables = "" if s.tables is None else f"  {s.tables} table{'s' * (s.tables != 1)}"
        note = "" if speaks_ours(s) else "  (a newer protocol: update switchboard to join)"
        mark = "*" if s is default else " "
        say(f"{mark} {i}  {s.name.ljust(width)}  {s.address}{tables}{note}")
    say("  0  play offline against bots")
    enter = "offline" if default is None else default.name
    while True:
        answer = ask(f"Join which? [0-{len(servers)}, Enter: {enter}] ").strip()
        if not answer:
            return default
        if answer == "0":
            return None
        if answer.isdigit() and 1 <= int(answer) <= len(servers):
            server = servers[int(answer) - 1]
            if speaks_ours(server):
                return server
            say(f"{server.name} speaks a newer protocol: update switchboard to join it")
            continue
        say(f"type a number from 0 to {len(servers)}")
